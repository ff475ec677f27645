// A cluster spec of two classes (docs/cluster.md): per-node ids resolve through "cluster.nodes" in sysdesc only.
module @top attributes {dlti.target_system_spec = #dlti.target_system_spec<"class0.CPU" = #dlti.target_device_spec<"device_type" = "CPU", "num_cores" = 64 : i64>, "class0.GPU0" = #dlti.target_device_spec<"device_type" = "GPU", "num_compute_units" = 132 : i64>, "class1.CPU" = #dlti.target_device_spec<"device_type" = "CPU", "num_cores" = 32 : i64>, "cn3.CPU" = #dlti.target_device_spec<"num_cores" = 7 : i64>, "cluster" = #dlti.target_device_spec<"device_type" = "cluster", "schema_version" = 1 : i64, "num_nodes" = 3 : i64, "num_classes" = 2 : i64, "nodes" = #dlti.map<"cn1" = "class0", "cn2.site.org" = "class0", "cn3" = "class1">, "classes" = #dlti.map<"class0" = ["cn1", "cn2.site.org"], "class1" = ["cn3"]>, "MPI:comm_world_size" = 4 : i64, "MPI:rank_nodes" = ["cn1", "cn1", "cn2.site.org", "cn3"]>>} {
  module @inner attributes {dlti.map = #dlti.map<"x" = 1>} {
  }
}
