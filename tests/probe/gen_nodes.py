#!/usr/bin/env python3
"""Writes N synthetic node topologies (hwloc XML) of three kinds, made from
the real fixtures in tests/data/xml: a GPU server (gpu_server.xml), a
two-socket NUMA node (two_socket_numa.xml), and that node with twice the
memory per NUMA node ("bigmem").  Every node gets its own HostName, cn0000,
cn0001, ..., and the GPU servers' NVML device its own serial and UUID; node i is of kind KINDS[i % 3] with a twist (every tenth node
of kind 1 is bigmem instead), so classes are not simply round robin.

usage: gen_nodes.py SRCDIR OUTDIR N   -> prints "NAME KIND PATH" per node
"""
import os
import re
import sys

KINDS = ["gpu", "numa", "bigmem"]


def load(srcdir, name):
    with open(os.path.join(srcdir, "tests", "data", "xml", name)) as f:
        return f.read()


def with_host(text, host):
    if 'name="HostName"' in text:
        return re.sub(r'(<info name="HostName" value=")[^"]*(")', r"\g<1>%s\g<2>" % host, text, count=1)
    # after the Machine's first info
    return re.sub(r'(<info name="Architecture"[^>]*/>)', r'\1\n    <info name="HostName" value="%s"/>' % host,
                  text, count=1)


def with_gpu_identity(text, i):
    """A GPU's serial and UUID, as hwloc's NVML backend records them: one per
    physical device, so they differ on every node."""
    return text.replace('<info name="Backend" value="NVML"/>',
                        '<info name="Backend" value="NVML"/>\n'
                        '            <info name="NVIDIASerial" value="13240%08d"/>\n'
                        '            <info name="NVIDIAUUID" value="GPU-%08x-1c2d-3e4f-5a6b-7c8d9e0f1a2b"/>' % (i, i), 1)


def double_memory(text):
    text = re.sub(r'local_memory="(\d+)"', lambda m: 'local_memory="%d"' % (2 * int(m.group(1))), text)
    return re.sub(r'(<page_type size="4096" count=")(\d+)(")',
                  lambda m: "%s%d%s" % (m.group(1), 2 * int(m.group(2)), m.group(3)), text)


def kind_of(i):
    k = KINDS[i % 3]
    if k == "numa" and (i // 3) % 10 == 0:
        k = "bigmem"
    return k


def main():
    srcdir, outdir, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    base = {"gpu": load(srcdir, "gpu_server.xml"), "numa": load(srcdir, "two_socket_numa.xml")}
    base["bigmem"] = double_memory(base["numa"])
    assert base["bigmem"] != base["numa"]
    os.makedirs(outdir, exist_ok=True)
    for i in range(n):
        host, kind = "cn%04d" % i, kind_of(i)
        path = os.path.join(outdir, "%s.xml" % host)
        with open(path, "w") as f:
            text = with_host(base[kind], host)
            if kind == "gpu":
                text = with_gpu_identity(text, i)
                assert "NVIDIAUUID" in text
            f.write(text)
        print(host, kind, path)


if __name__ == "__main__":
    main()
