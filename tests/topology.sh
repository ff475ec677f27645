# Sourced by the shell tests: whether hwloc (and so the probe) loads another
# machine's topology.  HWLOC_XMLFILE gives hwloc a topology it takes for
# another machine's unless HWLOC_THISSYSTEM=1 says it is this one's (hwloc's
# hwloc_topology_is_thissystem); scripts/test-all runs the host suites so.
# Then the probe reads nothing of this machine, and a test compares with
# peers that read the XML (hwloc's own tools), never with this machine.
foreign_topology() {
    [ -n "${HWLOC_XMLFILE:-}" ] && [ "${HWLOC_THISSYSTEM:-0}" != 1 ]
}
