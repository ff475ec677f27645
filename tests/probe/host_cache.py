#!/usr/bin/env python3
"""The cache of a host probe's whole result (docs/runtimes.md, "The whole
result").

A hit is proved by SYSDESC_TEST_NO_HOST_TOPOLOGY, the library's test hook
that makes loading this host's topology fail: with it set, `query --host`
answers only from a valid whole-result entry (exit 0) and fails otherwise
(exit 3).  Checked:
1. a second `query --host` is a hit, with the same answer and the same
   printed spec as the probe that wrote it; `probe --refresh-cache` equals a
   cold `probe --no-cache`;
2. each key part makes a miss: an environment variable the runtimes read,
   one hwloc reads, --io / --no-io, --runtimes, --no-catalog, a catalog file
   touched or added (the CLI's cache_salt);
3. a truncated or corrupt entry is ignored (and rewritten);
4. --no-cache neither reads nor writes, --refresh-cache does not read and
   rewrites;
5. the warnings stored in the entry are replayed on a hit, not with --quiet.

Environment: SYSDESC (the tool), SRCDIR.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
T = tempfile.mkdtemp(prefix="sysdesc-host-cache-")
CACHE = os.path.join(T, "cache")
CATALOG = os.path.join(T, "systems")
shutil.copytree(os.path.join(SRCDIR, "systems"), CATALOG)
failures = 0
QUERY = ["query", "--host", "CPU", "num_cores"]


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1
    return cond


def run(args, no_topology=False, **kw):
    e = dict(os.environ)
    e["XDG_CACHE_HOME"] = CACHE
    e["SYSDESC_PATH"] = CATALOG  # the catalog this test may touch
    e.pop("SYSDESC_TEST_NO_HOST_TOPOLOGY", None)
    if no_topology:
        e["SYSDESC_TEST_NO_HOST_TOPOLOGY"] = "1"
    for k, v in kw.items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    return subprocess.run([SYSDESC] + args, env=e, capture_output=True, text=True, timeout=120)


def entries():
    return sorted(glob.glob(os.path.join(CACHE, "sysdesc", "host-*.mlir")))


def hit(args, what, **kw):
    """`args` is answered from a whole-result entry (no topology load)."""
    r = run(args, no_topology=True, **kw)
    return check(r.returncode == 0, what + " (rc %d: %s)" % (r.returncode, r.stderr.strip()[-200:]))


def miss(args, what, **kw):
    """`args` finds no entry: with no topology it fails; then it writes one."""
    r = run(args, no_topology=True, **kw)
    ok = check(r.returncode == 3 and "SYSDESC_TEST_NO_HOST_TOPOLOGY" in r.stderr,
               what + " is a miss (rc %d)" % r.returncode)
    run(args, **kw)  # probe for real and write it
    return ok


# The hook itself: without an entry the probe fails as a failed load does.
r = run(["query", "--no-cache", "--host", "CPU", "num_cores"], no_topology=True)
check(r.returncode == 3, "the test hook makes the topology load fail (rc %d)" % r.returncode)

# 1. the second query is a hit, same answer
cold = run(QUERY)
check(cold.returncode == 0 and cold.stdout.strip(), "a cold query --host answers")
check(len(entries()) == 1, "it wrote one whole-result entry (%d)" % len(entries()))
r = run(QUERY, no_topology=True)
check(r.returncode == 0 and r.stdout == cold.stdout,
      "the second query --host is answered from the entry, unchanged")
check(r.stderr == cold.stderr, "with the same warnings")
written = run(["probe"])
hit(["probe"], "probe (same options as query --host)")
r = run(["probe"], no_topology=True)
check(r.stdout == written.stdout, "a hit prints the spec byte-identical to the probe that wrote it")
nocache = run(["probe", "--no-cache"])
refresh = run(["probe", "--refresh-cache"])
check(nocache.returncode == 0 and refresh.stdout == nocache.stdout,
      "probe --refresh-cache prints what a cold probe --no-cache does")

# 2. each key part
miss(QUERY, "a changed environment variable a runtime reads (CUDA_VISIBLE_DEVICES)",
     CUDA_VISIBLE_DEVICES="host-cache-test")
hit(QUERY, "and the entry of the first environment is still there")
miss(QUERY, "a changed hwloc variable (HWLOC_HIDE_ERRORS)", HWLOC_HIDE_ERRORS="2")
miss(["query", "--io", "--host", "CPU", "num_cores"], "--io")
miss(["query", "--no-io", "--host", "CPU", "num_cores"], "--no-io")
hit(["query", "--no-io", "--host", "CPU", "num_cores"], "--no-io again")
miss(["query", "--runtimes=opencl", "--host", "CPU", "num_cores"], "--runtimes=opencl")
miss(["query", "--runtimes=none", "--host", "CPU", "num_cores"], "--runtimes=none")
miss(["query", "--no-catalog", "--host", "CPU", "num_cores"], "--no-catalog (no hook)")
hit(QUERY, "the catalog unchanged")
yaml = sorted(glob.glob(os.path.join(CATALOG, "**", "*.yaml"), recursive=True))[0]
st = os.stat(yaml)
os.utime(yaml, (st.st_atime, st.st_mtime + 10))
miss(QUERY, "a catalog file's mtime changed (the CLI's cache_salt)")
with open(os.path.join(CATALOG, "zz-host-cache-test.yaml"), "w") as f:
    f.write("# added by tests/probe/host_cache.py\n")
miss(QUERY, "a catalog file added")
miss(QUERY, "another catalog search path", SYSDESC_PATH=os.path.join(SRCDIR, "systems"))

# 3. a truncated or corrupt entry is ignored
shutil.rmtree(CACHE)
run(QUERY)
e = entries()
check(len(e) == 1, "one entry again")
text = open(e[0]).read()
with open(e[0], "w") as f:
    f.write(text[: len(text) // 2])
miss(QUERY, "a truncated entry")
hit(QUERY, "and the probe after it rewrote the entry")
text = open(e[0]).read()
with open(e[0], "w") as f:
    f.write(text.replace('"spec" = #dlti.target_system_spec<', '"spec" = #dlti.map<', 1))
miss(QUERY, "an entry whose spec is not a system spec")
with open(e[0], "w") as f:
    f.write(text.replace("host result 1", "host result 0", 1))
miss(QUERY, "an entry whose stored key differs (a hash collision)")

# 4. --no-cache and --refresh-cache
shutil.rmtree(CACHE)
r = run(["query", "--no-cache", "--host", "CPU", "num_cores"])
check(r.returncode == 0 and not entries(), "--no-cache writes no entry")
run(QUERY)
r = run(["query", "--no-cache", "--host", "CPU", "num_cores"], no_topology=True)
check(r.returncode == 3, "--no-cache reads no entry")
r = run(["query", "--refresh-cache", "--host", "CPU", "num_cores"], no_topology=True)
check(r.returncode == 3, "--refresh-cache reads no entry")
with open(entries()[0], "w") as f:
    f.write("#dlti.map<")
r = run(["query", "--refresh-cache", "--host", "CPU", "num_cores"])
check(r.returncode == 0, "--refresh-cache probes")
hit(QUERY, "--refresh-cache rewrote the entry")

# 5. warnings replayed (one injected into the entry: this host may have none)
e = entries()[0]
text = open(e).read()
if '"warnings" = [' in text:
    text = text.replace('"warnings" = [', '"warnings" = ["injected by the test", ', 1)
else:
    text = text.replace('"spec" = ', '"warnings" = ["injected by the test"], "spec" = ', 1)
with open(e, "w") as f:
    f.write(text)
r = run(QUERY, no_topology=True)
check(r.returncode == 0 and "sysdesc: warning: injected by the test\n" in r.stderr,
      "a hit replays the entry's warnings on stderr")
r = run(["query", "--quiet", "--host", "CPU", "num_cores"], no_topology=True)
check(r.returncode == 0 and "injected" not in r.stderr, "not with --quiet")
with open(e, "w") as f:
    f.write(text.replace('["injected by the test"', '[42', 1).replace('["injected by the test", ', '[42, ', 1))
miss(QUERY, "an entry whose warnings are not strings")

shutil.rmtree(T)
print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
