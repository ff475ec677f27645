#l1 = #dlti.map<"size_in_bytes" = 49152 : i32>
module attributes {test.caches = #dlti.map<"L1" = #l1, "L2" = #l2>} {}
#l2 = #dlti.map<"size_in_bytes" = 2097152 : i32>
