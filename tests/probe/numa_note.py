#!/usr/bin/env python3
"""When hwloc's NUMA nodes and /proc/meminfo's MemTotal disagree (hidden
nodes, a VM whose nodes lag its memory), the probe notes it once in the spec
and prints no warning (probe/host/memory.c says why): the path is in the CPU's
`suspect` list and its `source` gives both sizes readably.  A topology in which
they agree gets no note.

The topology is an hwloc XML fixture given as this host's (HWLOC_XMLFILE with
HWLOC_THISSYSTEM=1, so that MemTotal is read), its NUMA nodes' sizes set here
from this host's MemTotal as read at run time: a quarter of it per node (they
disagree whichever nodes the cgroup allows), then one node of all of it.

Environment: SYSDESC (the tool), SRCDIR.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
PATH = "memory.numa_total_in_bytes"
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def mem_total():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    return None


def readable(n):
    """As the probe writes a size: GiB with one decimal, MiB below a GiB."""
    gib = 1024.0 ** 3
    return f"{n / gib:.1f} GiB" if n >= gib else f"{n / (1024.0 ** 2):.1f} MiB"


def probe(xml_text, tmp):
    xml = os.path.join(tmp, "topology.xml")
    with open(xml, "w") as f:
        f.write(xml_text)
    env = dict(os.environ, HWLOC_XMLFILE=xml, HWLOC_THISSYSTEM="1")
    # nothing but the topology and /proc: no runtimes, compilers or catalog
    r = subprocess.run([SYSDESC, "probe", "--format", "json", "--no-io", "--runtimes=none",
                        "--no-cache", "--gcc=", "--clang=", "--llc=", "--no-catalog"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=120)
    check(r.returncode == 0, f"probe exits 0 ({r.stderr.strip()[:300]})")
    return json.loads(r.stdout)["CPU"], r.stderr


def with_node_sizes(text, sizes):
    """`text` with its NUMA nodes' local_memory set to `sizes` in turn."""
    it = iter(sizes)
    return re.sub(r'local_memory="\d+"', lambda m: f'local_memory="{next(it)}"', text)


def main():
    total = mem_total()
    if not total or not os.path.exists("/proc/self/cgroup"):
        print("SKIP: no /proc/meminfo MemTotal here")
        return 77
    with open(os.path.join(SRCDIR, "tests/data/xml/two_socket_numa.xml")) as f:
        two_nodes = f.read()
    with open(os.path.join(SRCDIR, "tests/data/xml/one_socket.xml")) as f:
        one_node = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        # Disagreeing: each node a quarter of MemTotal.
        cpu, stderr = probe(with_node_sizes(two_nodes, [total // 4] * 2), tmp)
        mem = cpu.get("memory", {})
        numa, os_total = mem.get("numa_total_in_bytes"), mem.get("os_total_in_bytes")
        check(os_total == total, f"os_total_in_bytes {os_total} is MemTotal {total}")
        check(numa in (total // 4, total // 4 * 2), f"numa_total_in_bytes {numa}: the XML's nodes")
        check(PATH in cpu.get("suspect", []), f"{PATH} is in CPU.suspect")
        note = cpu.get("source", {}).get(PATH, "")
        want = (f"hwloc's NUMA nodes: {readable(numa or 0)}, less than /proc/meminfo MemTotal's "
                f"{readable(total)} (os_total_in_bytes), which total_in_bytes follows")
        check(note == want, f"source[{PATH}] is {note!r}, want {want!r}")
        check(mem.get("total_in_bytes") == total, "total_in_bytes follows MemTotal")
        said = [line for line in stderr.splitlines() if "numa" in line.lower()]
        check(not said, f"no warning about it on stderr: {said}")
        # Agreeing: one node holding MemTotal.
        cpu, stderr = probe(with_node_sizes(one_node, [total]), tmp)
        check(cpu.get("memory", {}).get("numa_total_in_bytes") == total,
              "one node of MemTotal: numa_total_in_bytes is MemTotal")
        check(PATH not in cpu.get("suspect", []) and PATH not in cpu.get("source", {}),
              "agreeing figures: no note, not suspect")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
