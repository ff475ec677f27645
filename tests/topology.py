"""Whether hwloc (and so the probe) loads another machine's topology: the
Python side of tests/topology.sh (HWLOC_XMLFILE without HWLOC_THISSYSTEM=1,
as hwloc_topology_is_thissystem decides)."""
import os
import sys


def foreign_topology():
    return bool(os.environ.get("HWLOC_XMLFILE")) and os.environ.get("HWLOC_THISSYSTEM", "0") != "1"


def skip_if_foreign(what):
    """Exits 77 (skipped) when the test is about this machine's `what` and
    the topology is another machine's: the probe asks nothing of this
    machine then (tests/probe/probe_host.sh checks that)."""
    if foreign_topology():
        print(f"skipped: {what} of this machine; HWLOC_XMLFILE={os.environ['HWLOC_XMLFILE']} "
              "is another machine's topology, for which the probe asks none "
              "(tests/probe/probe_host.sh checks that)")
        sys.exit(77)
