#!/usr/bin/env python3
"""Hostile runtime libraries and a hostile cache (docs/reliability.md,
"Processes left behind", "Unbounded memory and time", "The cache"), with
the test double of the OpenCL loader built by tests/probe/fake in its
hostile modes:

1. a runtime that starts a process which sleeps for an hour (and answers,
   or hangs): once `sysdesc probe` or Python's host() has returned, no
   process it started is left running;
2. a runtime that floods its pipes: the probe ends at once, its memory stays
   small, and the source line says the answer passed the limit;
3. the cache: its directory is created 0700 and entries 0600; a directory
   that is not this user's alone (mode 0777, a symbolic link, another
   user's: the last as root only) is not used, with one warning whose
   control bytes are escaped; a FIFO, a link or another user's file at an
   entry's path is never read (and never hangs); an edited entry that sets
   a key or a value of a kind no runtime source writes is refused and the
   runtime asked again.

Environment: SYSDESC (the tool), SRCDIR, FAKE_OPENCL_DIR (the test double's
folder)."""
import glob
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests"))
from timebound import limit  # noqa: E402
from topology import skip_if_foreign  # noqa: E402

SYSDESC = os.environ["SYSDESC"]
skip_if_foreign("the runtimes (hostile libraries)")
FAKE = os.environ["FAKE_OPENCL_DIR"]
BUILD = os.path.dirname(os.path.dirname(os.path.abspath(SYSDESC)))
T = tempfile.mkdtemp(prefix="sysdesc-hostile-")
failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1
    return cond


def env(cache=None, **kw):
    e = dict(os.environ, LD_LIBRARY_PATH=FAKE, FAKE_OPENCL="gpu",
             XDG_CACHE_HOME=cache or os.path.join(T, "cache"))
    e.update(kw)
    return e


def probe(*args, e, timeout=None):
    """(exit status, the spec as JSON or None, stderr, seconds, max RSS in KiB)."""
    start = time.monotonic()
    p = subprocess.Popen([SYSDESC, "probe", "--runtimes=opencl", "--format", "json"] + list(args),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e)
    try:
        out, err = p.communicate(timeout=timeout or limit(60))
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return None, None, "still running: killed by the test", time.monotonic() - start, 0
    seconds = time.monotonic() - start
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    spec = json.loads(out) if p.returncode == 0 else None
    return p.returncode, spec, err.decode("utf-8", "replace"), seconds, rss


def opencl_source(spec):
    return ((spec or {}).get("CPU", {}).get("source", {}) or {}).get("runtimes.opencl", "")


def running(pid):
    """True while `pid` runs (a zombie has ended: its parent, init, reaps it)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def pids(path):
    try:
        with open(path) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def left_running(path):
    """The processes of `path` still running a moment after the probe returned
    (SIGKILL is delivered at once; the moment is for a loaded machine)."""
    until = time.monotonic() + 2
    alive = [p for p in pids(path) if running(p)]
    while alive and time.monotonic() < until:
        time.sleep(0.05)
        alive = [p for p in alive if running(p)]
    for p in alive:  # the test leaves nothing behind either
        os.kill(p, signal.SIGKILL)
    return alive


# ---- 1. nothing a runtime starts outlives the probe ----
for mode, answered in (("fork", True), ("fork-hang", False)):
    pidfile = os.path.join(T, mode + ".pids")
    rc, spec, err, secs, _ = probe("-q", "--no-cache", "--runtime-timeout=1500",
                                   e=env(FAKE_OPENCL=mode, FAKE_OPENCL_PIDFILE=pidfile))
    check(rc == 0, "probe, a runtime that starts a process (%s): exit %s %s" % (mode, rc, err[:200]))
    src = opencl_source(spec)
    check(("Fake OpenCL" in src) if answered else ("abandoned (killed)" in src),
          "%s: the runtime's source line: %s" % (mode, src[:120]))
    check(len(pids(pidfile)) == 1, "%s: the runtime started its process (%s)" % (mode, pids(pidfile)))
    check(not left_running(pidfile), "%s: no process of the runtime's is left once probe returned" % mode)

if os.environ.get("SYSDESC_TEST_SANITIZE", "none") != "none":
    print("skipped: Python's host() (a sanitized module cannot be loaded into python3)")
elif os.path.exists(os.path.join(BUILD, "python", "sysdesc")):
    pidfile = os.path.join(T, "python.pids")
    code = (
        "import os, sys, time, sysdesc\n"
        "spec = sysdesc.host(runtimes=['opencl'], cache=False)\n"
        "def running(p):\n"
        "    try:\n"
        "        return open('/proc/%d/stat' % p).read().rsplit(')', 1)[1].split()[0] != 'Z'\n"
        "    except OSError:\n"
        "        return False\n"
        "pids = [int(x) for x in open(sys.argv[1]).read().split()]\n"
        "until = time.monotonic() + 2\n"
        "while any(running(p) for p in pids) and time.monotonic() < until:\n"
        "    time.sleep(0.05)\n"
        "print(len(pids), sum(running(p) for p in pids))\n")
    r = subprocess.run([sys.executable, "-c", code, pidfile], capture_output=True, text=True,
                       timeout=limit(60),
                       env=env(FAKE_OPENCL="fork", FAKE_OPENCL_PIDFILE=pidfile,
                               PYTHONPATH=os.path.join(BUILD, "python")))
    check(r.returncode == 0 and r.stdout.split() == ["1", "0"],
          "Python host(): the runtime's process is gone when host() returns (started, running: %s) %s"
          % (r.stdout.strip(), r.stderr.strip()[-300:]))
    left_running(pidfile)
else:
    print("skipped: Python's host() (no module in this build)")

# ---- 2. a runtime that floods its pipes ----
before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
# (no compilers or llc asked: the resident set counts the children waited
# for, and a compiler's is not sysdesc's)
rc, spec, err, secs, rss = probe("-q", "--no-cache", "--gcc=", "--clang=", "--llc=",
                                 e=env(FAKE_OPENCL="flood"))
check(rc == 0, "probe, a runtime that floods its pipes: exit %s %s" % (rc, err[:200]))
check("its answer passed the limit of 4194304 bytes: abandoned (killed)" in opencl_source(spec),
      "flood: the source line says so: %s" % opencl_source(spec)[:100])
check(secs < limit(5), "flood: ended in %.2f s, not at the 20 s bound" % secs)
# The answer's limit is 4 MiB; the old reader grew ~18 MB a second until the bound.
check(rss < 64 * 1024 or rss == before, "flood: sysdesc's largest resident set %d KiB (under 64 MiB)" % rss)

# ---- 3. the cache ----
cache = os.path.join(T, "fresh")
log = os.path.join(T, "asked.log")


def asked_count():
    try:
        with open(log) as f:
            return len(f.readlines())
    except OSError:
        return 0


def asked(e, what, *args):
    """Probes; true when the runtime was asked (not answered by the cache)."""
    n = asked_count()
    rc, spec, err, secs, _ = probe(*args, e=e)
    check(rc == 0 and "Fake OpenCL" in opencl_source(spec),
          "%s: exit %s, the runtime's view there %s" % (what, rc, "" if rc == 0 else err[:300]))
    return asked_count() > n, err


e = env(cache, FAKE_OPENCL_LOG=log)
asked(e, "a first probe writes the cache", "-q")
d = os.path.join(cache, "sysdesc")
entries = glob.glob(os.path.join(d, "runtimes-*.mlir"))
check(stat.S_IMODE(os.stat(d).st_mode) == 0o700, "the cache directory is created 0700 (%o)" % os.stat(d).st_mode)
check(len(entries) == 1 and stat.S_IMODE(os.stat(entries[0]).st_mode) == 0o600,
      "one entry, mode 0600: %s" % entries)
was_asked, _ = asked(e, "a second probe", "-q")
check(not was_asked, "the entry answers the second probe")
entry = entries[0]
with open(entry) as f:
    good = f.read()


def planted(what, make, read=False):
    """Puts something at the entry's path; the probe must not hang, and must
    read it (`read`) or ask the runtime."""
    if os.path.lexists(entry):
        os.unlink(entry)
    make()
    was_asked, err = asked(e, "the entry's path is " + what)
    check(was_asked != read, what + (": read" if read else ": not read, the runtime asked"))


planted("a FIFO", lambda: os.mkfifo(entry))
planted("a link to a good entry", lambda: (open(entry + ".real", "w").write(good), os.symlink(entry + ".real", entry)))
planted("a good entry others may write", lambda: (open(entry, "w").write(good), os.chmod(entry, 0o666)))
if os.geteuid() == 0:
    planted("another user's good entry", lambda: (open(entry, "w").write(good), os.chown(entry, 65534, 65534)))
else:
    print("skipped: another user's entry (not root)")
# Edited entries: what no runtime source writes is refused whole.
for what, old, new in [
        ("a top-level key no runtime sets", '"unified" = #dlti.map<', '"unified" = #dlti.map<"device_type" = "CPU", '),
        ("a value of another kind", '"unified" = #dlti.map<', '"unified" = #dlti.map<"num_compute_units" = "lots", '),
        ("a view value that is no data", '"view" = #dlti.map<', '"view" = #dlti.map<"x" = 1.5 : f32, ')]:
    check(old in good, "the entry holds %s to edit" % old)
    planted(what, lambda: (open(entry, "w").write(good.replace(old, new, 1)), os.chmod(entry, 0o600)))
# A good entry again is used again (the test's own control): the one the
# last probe wrote, since an entry of some seconds ago is rightly refused
# when a library it names changed meanwhile (its identity is in the entry).
with open(entry) as f:
    fresh = f.read()
check('"libraries" = ' in fresh, "the last probe wrote an entry again")
planted("a good entry", lambda: (open(entry, "w").write(fresh), os.chmod(entry, 0o600)), read=True)

# A directory that is not this user's alone is not used: one warning, escaped.
bad_home = os.path.join(T, "esc\x1b[31mred")
os.makedirs(os.path.join(bad_home, "sysdesc"))
os.chmod(os.path.join(bad_home, "sysdesc"), 0o777)
shutil.copy(entry, os.path.join(bad_home, "sysdesc"))
eb = env(bad_home, FAKE_OPENCL_LOG=log)
was_asked, err = asked(eb, "a cache directory of mode 0777")
check(was_asked, "mode 0777: its entry is not read")
lines = [l for l in err.splitlines() if "cache directory" in l]
check(len(lines) == 1 and "is not used (writable by other users (mode 0777))" in lines[0],
      "mode 0777: one warning that says why: %s" % lines)
check("\x1b" not in err and "esc\\x1B[31mred" in err, "the warning's control bytes are escaped")
check(os.listdir(os.path.join(bad_home, "sysdesc")) == [os.path.basename(entry)],
      "mode 0777: nothing written into it")
was_asked, err = asked(eb, "a quiet probe, same directory", "-q")
check(was_asked and "cache directory" not in err, "-q: no warning")
link_home = os.path.join(T, "linked")
os.makedirs(link_home)
os.symlink(d, os.path.join(link_home, "sysdesc"))
was_asked, err = asked(env(link_home, FAKE_OPENCL_LOG=log), "a cache directory that is a link")
said = [l for l in err.splitlines() if "cache directory" in l]
check(was_asked and len(said) == 1 and "(a symbolic link (refused here))" in said[0],
      "a link as the directory: not used, said: %s" % said)
if os.geteuid() == 0:
    other = os.path.join(T, "other")
    os.makedirs(os.path.join(other, "sysdesc"), mode=0o700)
    shutil.copy(entry, os.path.join(other, "sysdesc"))
    os.chown(os.path.join(other, "sysdesc"), 65534, 65534)
    was_asked, err = asked(env(other, FAKE_OPENCL_LOG=log), "another user's cache directory")
    said = [l for l in err.splitlines() if "cache directory" in l]
    check(was_asked and len(said) == 1 and "(owned by user 65534, not by this user" in said[0],
          "another user's directory: not used, said: %s" % said)
else:
    print("skipped: another user's directory (not root)")

shutil.rmtree(T, ignore_errors=True)
print("%d failed" % failures)
sys.exit(1 if failures else 0)
