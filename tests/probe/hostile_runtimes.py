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
   runtime asked again;
3b. a runtime that reports more devices than are read (70 of the test
   double's): the cut is said, a warning and every device's source line,
   from a cache entry too;
4. compilers (docs/runtimes.md, "Children and bounded time"): gcc, clang
   and llc that hang all end within one --runtime-timeout, warned about,
   their flags suspect, nothing they started left; a compiler wrapper's
   helper is not left; a compiler's cache entry with control bytes, a line
   break, a word too many or a field too many is refused and asked again;
   and SIGTERM, SIGINT, SIGHUP or SIGKILL of sysdesc while a runtime's
   child (and the process it forked) or a compiler runs leaves none of
   them.

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


# ---- 3b. a runtime with more devices than are read: the cut is said ----
# (cut at 64 without a word before), by the fresh answer and by the cache's
cut_cache = os.path.join(T, "cut")
for n, cached in ((64, False), (70, False), (70, True)):
    rc, spec, err, secs, _ = probe("-q" if n == 64 else "--runtime-timeout=20000",
                                   *([] if cached else ["--refresh-cache"]), "--gcc=", "--clang=",
                                   "--llc=", e=env(cut_cache, FAKE_OPENCL_DEVICES=str(n)))
    lines = {d: (v.get("source") or {}).get("runtimes.opencl.cut") for d, v in (spec or {}).items()
             if isinstance(v, dict) and "source" in v}
    said = [l for l in err.splitlines() if "warning: runtimes.opencl: " in l]
    want = "the runtime reports %d devices on platform 0; the first 64 are read" % n
    if n == 64:
        check(rc == 0 and lines and not any(lines.values()), "64 devices: all read, no cut said: %s" % lines)
    else:
        origin = (spec or {}).get("CPU", {}).get("source", {}).get("runtimes", "")
        check(rc == 0 and lines and all(want in (v or "") for v in lines.values()) and
              len(said) == 1 and want in said[0] and ("cached" in origin) == cached,
              "%d devices%s: the cut in every device's source and one warning: %s %s"
              % (n, " (cached answer)" if cached else "", lines, said))

# ---- 4. compilers run as the runtimes' children, one deadline; signals ----
def group_running(pgid):
    """The processes of process group `pgid` still running (zombies have ended)."""
    left = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                left.append(int(d))
    return left


def pgid_of(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[2])
    except OSError:
        return None


bindir = os.path.join(T, "bin")
os.makedirs(bindir)
cc_pids = os.path.join(T, "cc.pids")
# A compiler that hangs, and a wrapper that leaves a helper behind: each
# starts a process that sleeps for an hour and writes its pid (and its own).
for name, tail in (("hang-cc", "sleep 3600\n"), ("wrap-cc", 'exec %s "$@"\n' % (shutil.which("gcc") or "false"))):
    with open(os.path.join(bindir, name), "w") as f:
        f.write("#!/bin/sh\nsleep 3600 </dev/null >/dev/null 2>&1 &\necho $$ $! >>'%s'\n%s" % (cc_pids, tail))
    os.chmod(os.path.join(bindir, name), 0o755)
ecc = env(PATH=bindir + os.pathsep + os.environ.get("PATH", ""))

# Every program of a probe (gcc's, clang's and llc's asks: twelve or so)
# within one deadline, the runtimes' bound: 240 s before (a fixed 20 s each,
# --runtime-timeout ignored), exit 0 and not a word.
rc, spec, err, secs, _ = probe("--no-cache", "--runtimes=none", "--runtime-timeout=1000",
                               "--gcc=hang-cc", "--clang=hang-cc", "--llc=hang-cc", e=ecc,
                               timeout=limit(15))
cpu = (spec or {}).get("CPU", {})
if rc == 0 and "compiler" not in cpu:
    print("skipped: the compilers' bound (this CPU has no row in the uarch table: no compiler asked)")
else:
    fast = rc == 0 and secs < limit(3)
    check(fast, "a compiler that hangs: exit %s in %.1f s, within the 1 s bound (--runtime-timeout) "
          "for every ask together %s" % (rc, secs, "" if fast else err[-300:]))
    said = [l for l in err.splitlines() if "warning: CPU.compiler.gcc.flags: " in l]
    check(len(said) == 1 and "no answer within the compilers' bound of 1000 ms (--runtime-timeout)" in said[0],
          "the hang is warned about with its bound: %s" % said)
    check("compiler.gcc.flags" in cpu.get("suspect", []) and
          "no answer within" in cpu.get("source", {}).get("compiler.gcc", ""),
          "the unchecked flags are suspect, the source line says why: %s" %
          cpu.get("source", {}).get("compiler.gcc"))
    check(not left_running(cc_pids), "nothing a hanging compiler started is left")
    if shutil.which("gcc"):
        rc, spec, err, secs, _ = probe("--no-cache", "--runtimes=none", "--gcc=wrap-cc", "--clang=",
                                       "--llc=", e=ecc, timeout=limit(60))
        src = (spec or {}).get("CPU", {}).get("source", {}).get("compiler.gcc", "")
        check(rc == 0 and "compiled these flags" in src,
              "a compiler wrapper answers: %s %s" % (src, "" if rc == 0 else err[-200:]))
        check(len(pids(cc_pids)) >= 2, "the wrapper started its helpers (%s)" % pids(cc_pids))
        check(not left_running(cc_pids), "no helper a compiler wrapper started is left")
    else:
        print("skipped: a compiler wrapper (no gcc on PATH)")

# A compiler's cache entry is read as strictly as its fresh answer: an
# edited field is refused whole and the compiler asked again (which writes
# the entry anew); a version with control bytes was served as written.
ccache = os.path.join(T, "ccache")
cc_args = ["--runtimes=none", "--gcc=" + (shutil.which("gcc") or ""), "--clang=",
           "--llc=" + (shutil.which("llc") or "")]
rc, spec, err, secs, _ = probe(*cc_args, e=env(ccache))
cpu_cc = (spec or {}).get("CPU", {}).get("compiler", {})
entries = glob.glob(os.path.join(ccache, "sysdesc", "compiler-*.mlir"))
if rc != 0 or not entries:
    print("skipped: compiler cache entries (no gcc or llc answered here: %s)" % err[-200:])
for path in entries:
    with open(path) as f:
        good = f.read()
    field = "cpu" if '"cpu" = ' in good else "version"
    value = good.split('"%s" = "' % field, 1)[1].split('"', 1)[0]
    old = '"%s" = "%s"' % (field, value)
    for what, new in (("control bytes", '"%s" = "%s\\1B[2J"' % (field, value)),
                      ("a line break", '"%s" = "%s\\0A"' % (field, value)),
                      ("text after it", '"%s" = "%s evil"' % (field, value)),
                      ("a field no sysdesc writes", '%s, "extra" = "x"' % old)):
        with open(path, "w") as f:
            f.write(good.replace(old, new, 1))
        rc, spec, err, secs, _ = probe(*cc_args, e=env(ccache))
        with open(path) as f:
            now = f.read()
        served = json.dumps((spec or {}).get("CPU", {}).get("compiler", {}))
        check(rc == 0 and now == good and served == json.dumps(cpu_cc),
              "a compiler entry's %s with %s: refused, asked again (entry %s, compiler map %s)"
              % (field, what, "rewritten" if now == good else "kept", "the same" if
                 served == json.dumps(cpu_cc) else served[:300]))
    # what gave the version: one of the sources sysdesc names, or refused
    with open(path, "w") as f:
        f.write(good.replace('"from" = "', '"from" = "rm -rf ', 1))
    rc, spec, err, secs, _ = probe(*cc_args, e=env(ccache))
    with open(path) as f:
        now = f.read()
    check(rc == 0 and '"from" = "' in good and now == good,
          "a compiler entry whose version names a source no sysdesc writes: refused, asked again")


def killed_mid_probe(sig, what, args, e, pidfile):
    """Starts a probe, waits until the runtime's (or compiler's) process is
    there, sends `sig` to sysdesc: nothing it started may be left."""
    if os.path.exists(pidfile):
        os.unlink(pidfile)
    # the signals at their defaults, however the test was started (a
    # background job of a script inherits SIGINT and SIGQUIT ignored)
    p = subprocess.Popen([SYSDESC, "probe", "--no-cache", "-q", "--runtime-timeout=60000"] + args,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=e,
                         preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL) for s in
                                             (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP,
                                              signal.SIGTERM)])
    until = time.monotonic() + limit(20)
    while not pids(pidfile) and time.monotonic() < until and p.poll() is None:
        time.sleep(0.02)
    started = pids(pidfile)
    groups = {g for g in (pgid_of(x) for x in started) if g}
    p.send_signal(sig)
    p.wait(timeout=limit(20))
    deadline = time.monotonic() + 2
    left = set()
    while time.monotonic() < deadline:
        left = {x for g in groups for x in group_running(g)} | set(x for x in started if running(x))
        if not left:
            break
        time.sleep(0.05)
    for x in left:
        os.kill(x, signal.SIGKILL)
    check(started and groups and not left,
          "%s of sysdesc during %s: nothing it started left (started %s, groups %s, left %s)"
          % (signal.Signals(sig).name, what, started, sorted(groups), sorted(left)))


rt_pids = os.path.join(T, "sig.pids")
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL):
    killed_mid_probe(sig, "a runtime's probe", ["--runtimes=opencl", "--gcc=", "--clang=", "--llc="],
                     env(FAKE_OPENCL="fork-hang", FAKE_OPENCL_PIDFILE=rt_pids), rt_pids)
if "compiler" in cpu:
    killed_mid_probe(signal.SIGKILL, "a compiler's run",
                     ["--runtimes=none", "--gcc=hang-cc", "--clang=", "--llc="], ecc, cc_pids)

shutil.rmtree(T, ignore_errors=True)
print("%d failed" % failures)
sys.exit(1 if failures else 0)
