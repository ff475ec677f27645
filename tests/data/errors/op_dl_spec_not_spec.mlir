"test.region_op"() ({
}) { dlti.dl_spec = "e-m:e-i64:64" } : () -> ()
