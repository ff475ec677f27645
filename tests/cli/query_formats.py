#!/usr/bin/env python3
"""sysdesc query --json and --raw (issue 36), and this host's data layout in
its probed spec.

- `query --json SPEC KEY...` is the value `convert --to json` writes for
  that path (the peer: json.loads of the whole conversion), for every key
  path of a catalog GPU and of this host's spec; `--raw` is the same but a
  string's bytes unquoted; neither prints MLIR 22's note; both at once,
  and a key that is not there, fail as `query` does.
- `sysdesc probe` puts the data layout of the CPU's triple on the module:
  `layout host.mlir TYPE` answers what `layout` answers on a module holding
  `sysdesc dl-import --triple TRIPLE` (the peer), not MLIR's defaults;
  mlir-opt-22 reads the module back as it is (when installed);
  `--llvm-target` leaves it out (mlir-opt-22 derives it from #llvm.target).
Environment: SYSDESC, SRCDIR."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests"))
from topology import foreign_topology  # noqa: E402

SYSDESC = os.environ["SYSDESC"]
ENV = dict(os.environ, SYSDESC_PATH=os.path.join(os.environ["SRCDIR"], "systems"))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, cwd=None):
    return subprocess.run([SYSDESC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=ENV, cwd=cwd, timeout=60)


def paths(value, prefix):
    for k, v in value.items():
        yield prefix + [k], v
        if isinstance(v, dict):
            yield from paths(v, prefix + [k])


def compare(spec, limit=None):
    doc = json.loads(run("convert", "--no-check", "--to", "json", spec).stdout)
    n = 0
    for device, keys in doc.items():
        if device == "data_layout":
            continue
        for p, want in list(paths(keys, [device]))[:limit]:
            j = run("query", "--json", spec, *p)
            r = run("query", "--raw", spec, *p)
            n += 1
            got = json.loads(j.stdout) if j.returncode == 0 else None
            check(j.returncode == 0 and got == want and "note:" not in j.stderr,
                  f"{spec} {' '.join(p)}: --json {j.stdout!r} {j.stderr!r}, convert says {want!r}")
            # a string's bytes; anything else as --json prints it (jq -r)
            raw_want = f"{want}\n" if isinstance(want, str) else j.stdout
            check(r.returncode == 0 and r.stdout == raw_want and "note:" not in r.stderr,
                  f"{spec} {' '.join(p)}: --raw {r.stdout!r}, expected {raw_want!r}")
    return n


tmp = tempfile.mkdtemp(prefix="sysdesc-query-formats.")
try:
    n = compare("nvidia/h100-sxm")
    print(f"ok: nvidia/h100-sxm: {n} paths, --json as convert --to json, --raw the same")

    r = run("query", "--json", "--raw", "nvidia/h100-sxm", "GPU", "vendor")
    check(r.returncode == 2 and "--raw or --json" in r.stderr, f"both: {r.returncode} {r.stderr}")
    r = run("query", "--json", "nvidia/h100-sxm", "GPU", "nope")
    q = run("query", "nvidia/h100-sxm", "GPU", "nope")
    check(r.returncode == 1 and r.stdout == "" and r.stderr == q.stderr,
          f"absent: {r.returncode} {r.stderr!r}, query says {q.stderr!r}")

    if foreign_topology():
        print("this host's layout left out: HWLOC_XMLFILE is another machine's topology")
    else:
        host = os.path.join(tmp, "host.mlir")
        r = run("probe", "-q", "--runtimes=none", "-o", host)
        check(r.returncode == 0, f"probe: {r.stderr}")
        n = compare(host, limit=60)
        print(f"ok: this host: {n} paths")
        triple = run("query", "--raw", host, "CPU", "triple").stdout.strip()
        dl = run("dl-import", "--triple", triple)
        check(dl.returncode == 0, f"dl-import --triple {triple}: {dl.stderr}")
        peer = os.path.join(tmp, "peer.mlir")
        with open(peer, "w") as f:
            f.write("module attributes {dlti.dl_spec = %s} {\n}\n" % dl.stdout.strip())
        types = ["i1", "i8", "i32", "i64", "f64", "f80", "index", "!llvm.ptr"]
        ours, theirs = run("layout", host, *types), run("layout", peer, *types)
        default = run("layout", os.path.join(os.environ["SRCDIR"], "examples", "two-devices.mlir"),
                      *types)
        check(ours.returncode == 0 and ours.stdout == theirs.stdout,
              f"layout of the probed host:\n{ours.stdout}{ours.stderr}the triple's:\n{theirs.stdout}")
        print("ok: layout of the probed host is its triple's:", ours.stdout.split("\n")[3])
        if ours.stdout == default.stdout:
            print("note: this triple's layout equals MLIR's defaults for these types")
        y = run("probe", "-q", "--runtimes=none", "--format", "yaml")
        check(f"data_layout: {triple}\n" in y.stdout, "probe --format yaml: no data_layout line")
        lt = run("probe", "-q", "--runtimes=none", "--llvm-target")
        check(lt.returncode == 0 and "dlti.dl_spec" not in lt.stdout and "llvm.target" in lt.stdout,
              "--llvm-target: the module holds a dl_spec beside #llvm.target")
        if shutil.which("mlir-opt-22"):
            m = subprocess.run(["mlir-opt-22", host], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, timeout=60)
            check(m.returncode == 0 and m.stdout == open(host).read(),
                  f"mlir-opt-22 does not print the probed host back: {m.stderr[-500:]}")
            print("ok: mlir-opt-22 prints the probed host, data layout included, back as it is")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{'FAIL' if failures else 'ok'}: query_formats.py, {len(failures)} failures")
sys.exit(1 if failures else 0)
