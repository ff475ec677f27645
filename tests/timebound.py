"""Time limits that hold on any machine of the project's kind: a limit in a
test is a figure for an idle machine and a plain build, times slowdown().

slowdown() is the build's factor (SYSDESC_TEST_SLOWDOWN, set by
tests/meson.build: 1 plain, more under sanitizers) times the machine's load
(the 1-minute load average per CPU, at least 1).  Import it with
sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests"))."""
import os


def slowdown():
    build = float(os.environ.get("SYSDESC_TEST_SLOWDOWN", "1") or 1)
    try:
        load = os.getloadavg()[0] / (len(os.sched_getaffinity(0)) or 1)
    except OSError:
        load = 1.0
    return build * max(1.0, load)


def limit(seconds):
    """`seconds` on an idle machine and a plain build, scaled for this run."""
    return seconds * slowdown()
