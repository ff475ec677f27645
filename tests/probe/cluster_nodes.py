#!/usr/bin/env python3
"""1,000 synthetic nodes of three kinds (gen_nodes.py) through
`sysdesc probe --xml` (docs/cluster.md): three classes, each equal to what
one node of its kind gives alone; every node in the class of its kind; the
per-node ids answer queries through the class; MLIR reads the spec back
unchanged and `sysdesc check` accepts it."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
N = int(os.environ.get("CLUSTER_NODES", "1000"))
fails = 0


def check(cond, what):
    global fails
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails += 1


def run(*args, rc=0, **kw):
    r = subprocess.run([SYSDESC] + list(args), capture_output=True, text=True, **kw)
    if r.returncode != rc:
        print("sysdesc %s -> %d: %s" % (" ".join(args[:6]), r.returncode, r.stderr[:600]))
        sys.exit(1)
    return r


t = tempfile.mkdtemp()
try:
    gen = subprocess.run([sys.executable, os.path.join(SRCDIR, "tests", "probe", "gen_nodes.py"), SRCDIR,
                          t, str(N)], capture_output=True, text=True, check=True)
    nodes = [line.split() for line in gen.stdout.splitlines()]
    check(len(nodes) == N, "%d node XMLs written" % N)
    xml_args = []
    for _, _, path in nodes:
        xml_args += ["--xml", path]
    spec_path = os.path.join(t, "cluster.mlir")
    run("probe", "-q", "--no-catalog", *xml_args, "-o", spec_path)
    spec = json.loads(run("convert", "--to", "json", spec_path).stdout)
    cluster = spec.pop("cluster")

    # Classes in the order of first appearance of each kind.
    order = []
    for _, kind, _ in nodes:
        if kind not in order:
            order.append(kind)
    cls = {kind: "class%d" % i for i, kind in enumerate(order)}
    check(cluster["num_nodes"] == N and cluster["num_classes"] == 3,
          "%d nodes, 3 classes (got %s, %s)" % (N, cluster["num_nodes"], cluster["num_classes"]))
    check(cluster["nodes"] == {name: cls[kind] for name, kind, _ in nodes}, "every node in its kind's class")
    check(list(cluster["nodes"]) == [name for name, _, _ in nodes], "nodes in the order given")
    for kind, c in cls.items():
        members = [name for name, k, _ in nodes if k == kind]
        check(cluster["classes"][c] == members, "%s lists its %d nodes" % (c, len(members)))

    # A class is what one node of its kind gives alone (as a one-node cluster).
    for kind, c in cls.items():
        first = next(path for _, k, path in nodes if k == kind)
        one = json.loads(run("probe", "-q", "--no-catalog", "--cluster", "--xml", first, "--format", "json").stdout)
        one.pop("cluster")
        mine = {d: v for d, v in spec.items() if d.startswith(c + ".")}
        theirs = {c + d[len("class0"):]: v for d, v in one.items()}
        check(mine == theirs, "%s equals one %s node probed alone (%d devices)" % (c, kind, len(mine)))
    check(all("hostname" not in v for v in spec.values()), "no host names inside classes")
    # Per-device identities (NVIDIASerial, NVIDIAUUID) differ on every GPU
    # server: they stay out of the class, the rest of the OS device's infos stay.
    gpu_node = next(path for _, k, path in nodes if k == "gpu")
    alone = json.loads(run("probe", "-q", "--no-catalog", "--xml", gpu_node, "--format", "json").stdout)
    check("NVIDIAUUID" in alone["GPU3"]["hwloc_info"]["nvml0"], "one node alone keeps its GPU's UUID")
    nvml = spec[cls["gpu"] + ".GPU3"]["hwloc_info"]["nvml0"]
    check(nvml == {"Backend": "NVML", "GPUVendor": "NVIDIA Corporation", "GPUModel": "NVIDIA H100 PCIe"},
          "the class's GPU3 keeps no serial or UUID: %r" % nvml)
    big = spec[cls["bigmem"] + ".CPU"]["memory"]["total_in_bytes"]
    small = spec[cls["numa"] + ".CPU"]["memory"]["total_in_bytes"]
    check(big == 2 * small, "bigmem's class has twice the memory (%d, %d)" % (big, small))

    # Per-node ids through the class: CLI queries on the MLIR file.
    for name, kind, _ in (nodes[0], nodes[1], nodes[3], nodes[N - 1]):
        dev = "GPU3" if kind == "gpu" else "CPU"
        key = "num_compute_units" if kind == "gpu" else "num_numa_nodes"
        want = run("query", spec_path, cls[kind] + "." + dev, key).stdout
        got = run("query", spec_path, name + "." + dev, key).stdout
        check(got == want and got.strip(), "%s.%s %s = %s" % (name, dev, key, got.strip()))
    r = run("query", spec_path, "cn9999.CPU", "num_cores", rc=1)
    check('key "cn9999.CPU" has no DLTI-mapping' in r.stderr, "an unknown node fails as MLIR does")
    r = run("query", spec_path, nodes[1][0] + ".GPU0", rc=1)
    check("has no DLTI-mapping" in r.stderr, "a device its class lacks fails")

    summary = run("summary", spec_path).stdout
    first = {k: next(n for n, kk, _ in nodes if kk == k) for k in cls}
    last = {k: [n for n, kk, _ in nodes if kk == k][-1] for k in cls}
    count = {k: sum(1 for _, kk, _ in nodes if kk == k) for k in cls}
    check("nodes    %d in 3 classes" % N in summary and all(
        "%s  %d nodes: %s \u2026 %s" % (cls[k], count[k], first[k], last[k]) in summary for k in cls),
        "summary: the nodes and each class's first and last")
    run("check", spec_path)
    check(True, "sysdesc check accepts the cluster spec")
    # The cluster device's own rules (sysdesc/check_cluster.c), each at its key.
    with open(spec_path) as f:
        text = f.read()
    broken = [
        ('"num_nodes" = %d : i64' % N, '"num_nodes" = %d : i64' % (N - 1),
         "'cluster.num_nodes' is %d, but 'cluster.nodes' has %d" % (N - 1, N)),
        ('"cn0001" = "%s"' % cls[nodes[1][1]], '"cn0001" = "class7"',
         "node 'cn0001' is in class 'class7', which 'cluster.classes' lacks"),
        ('"num_classes" = 3 : i64', '"num_classes" = 3 : i64, "colour" = "red"',
         "unknown key 'colour' in the cluster device"),
        ('"class2" = ["', '"class2" = ["cn0000", "',
         "'cluster.classes.class2' lists a node that 'cluster.nodes' does not put in that class"),
    ]
    for old, new, want in broken:
        bad_path = os.path.join(t, "bad.mlir")
        with open(bad_path, "w") as f:
            f.write(text.replace(old, new, 1))
        r = run("check", bad_path, rc=2)
        check(want in r.stderr and ":1:" in r.stderr, "check: %s" % want)
    if shutil.which("mlir-opt-22"):
        r = subprocess.run(["mlir-opt-22", spec_path], capture_output=True, text=True)
        with open(spec_path) as f:
            check(r.returncode == 0 and r.stdout == f.read(), "mlir-opt-22 prints the spec back unchanged")
    for fmt in ("yaml",):
        conv = os.path.join(t, "c." + fmt)
        with open(conv, "w") as f:
            f.write(run("convert", "--to", fmt, spec_path).stdout)
        with open(spec_path) as f:
            check(run("convert", "--to", "mlir", conv).stdout == f.read(), "%s reads back unchanged" % fmt)
    r = run("probe", "-q", "--no-catalog", "--xml", nodes[0][2], "--xml", nodes[1][2], "--llvm-target", rc=2)
    check("--llvm-target describes one node" in r.stderr, "--llvm-target with a cluster: usage error")
    # A sysdesc without sysdesc-mpi beside it (a build without MPI) says so.
    lone = os.path.join(t, "lone")
    os.mkdir(lone)
    shutil.copy(SYSDESC, lone)
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(os.path.dirname(os.path.abspath(SYSDESC))))
    r = subprocess.run([os.path.join(lone, "sysdesc"), "probe", "--mpi"], capture_output=True, text=True, env=env)
    check(r.returncode == 3 and "this sysdesc was built without MPI" in r.stderr,
          "--mpi without sysdesc-mpi: exit 3, says so (%d %s)" % (r.returncode, r.stderr.strip()))
finally:
    shutil.rmtree(t)
sys.exit(1 if fails else 0)
