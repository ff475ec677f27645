#!/usr/bin/env python3
"""docs/tutorial.md runs as written, start to end.

Every ```sh block of the tutorial runs, in the tutorial's order, with
`sh -e`, in one scratch directory that has examples/ (so each block sees
the files the ones before it wrote), against this build: its `sysdesc` on
PATH, its Python module, and a `sysdesc.pc` naming the build tree, so that
`cc ... $(pkg-config --cflags --libs sysdesc)` builds as it does against an
installed sysdesc.  Each must exit 0.  The install block is the README's
build (tests/lib/readme_commands.py runs it) and `meson install`
(tests/lib/consumers.sh installs to a staging prefix): named, not run; a
block that is neither run nor named fails.  Then what the blocks made is
held to what they claim: the C and the Python tuner printed the same tiles
(the tutorial's own `cmp`), the roofline drew every kernel it was given.
The tutorial's C and Python blocks are tests/lib/code_blocks.py's, its
`$ ` sessions tests/cli/doc_examples.py's.

Skipped (77) under another machine's topology (the tutorial probes and
measures this one) and under a sanitizer (a program built by the reader's
command does not load a sanitized library).
Environment: SYSDESC, SRCDIR, BUILDDIR, PYTHON, CC and SANITIZE (optional)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SRCDIR = os.environ["SRCDIR"]
sys.path.insert(0, os.path.join(SRCDIR, "tests"))
from topology import skip_if_foreign  # noqa: E402

SYSDESC = os.path.abspath(os.environ["SYSDESC"])
BUILDDIR = os.environ["BUILDDIR"]
PYTHON = os.environ.get("PYTHON") or sys.executable
# The first line of a block -> why it does not run here.
NOT_RUN = {
    "sh scripts/install-deps": "the README's build (tests/lib/readme_commands.py runs it) and "
                               "`meson install` (tests/lib/consumers.sh installs to a staging "
                               "prefix)",
}


def blocks(text):
    """(line, body) of each ```sh block."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(1))
            for m in re.finditer(r"(?m)^```sh\n(.*?)^```", text, re.S)]


def main():
    if os.environ.get("SANITIZE", "none") not in ("", "none"):
        print("skipped: a sanitized build (the reader's cc command cannot load it)")
        return 77
    skip_if_foreign("the tutorial's probe and measurement")
    if not shutil.which("pkg-config"):
        print("skipped: no pkg-config (the tutorial builds its C tuner with it)")
        return 77
    text = open(os.path.join(SRCDIR, "docs", "tutorial.md"), encoding="utf-8").read()
    failures = []
    with tempfile.TemporaryDirectory(prefix="sysdesc-tutorial.") as tmp:
        os.symlink(os.path.join(SRCDIR, "examples"), os.path.join(tmp, "examples"))
        bindir, pcdir = os.path.join(tmp, ".bin"), os.path.join(tmp, ".pkgconfig")
        os.mkdir(bindir)
        os.mkdir(pcdir)
        os.symlink(SYSDESC, os.path.join(bindir, "sysdesc"))
        os.symlink(PYTHON, os.path.join(bindir, "python3"))
        with open(os.path.join(pcdir, "sysdesc.pc"), "w") as f:
            f.write("Name: sysdesc\nDescription: this build tree\nVersion: 0\n"
                    f"Cflags: -I{SRCDIR}/include -I{BUILDDIR}/include\n"
                    f"Libs: -L{BUILDDIR} -Wl,-rpath,{BUILDDIR} -lsysdesc\n")
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
                   PYTHONPATH=os.path.join(BUILDDIR, "python"), PKG_CONFIG_PATH=pcdir,
                   PKG_CONFIG_LIBDIR=pcdir, PYTHONWARNINGS="ignore::UserWarning")
        if os.environ.get("CC"):
            os.symlink(shutil.which(os.environ["CC"]) or os.environ["CC"],
                       os.path.join(bindir, "cc"))
        env.pop("SYSDESC_PATH", None)
        ran = 0
        for line, body in blocks(text):
            first = body.split("\n", 1)[0]
            why = next((w for k, w in NOT_RUN.items() if first.startswith(k)), None)
            if why:
                print(f"not run: docs/tutorial.md:{line}: {first}: {why}")
                continue
            t0 = time.monotonic()
            r = subprocess.run(["sh", "-e", "-c", body], cwd=tmp, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            ran += 1
            if r.returncode != 0:
                failures.append(line)
                print(f"FAIL: docs/tutorial.md:{line}: exit {r.returncode}:\n{body}"
                      f"stdout: {r.stdout[-1500:]}\nstderr: {r.stderr[-1500:]}")
            else:
                print(f"ok: docs/tutorial.md:{line} ({time.monotonic() - t0:.1f} s): "
                      f"{first}{' ...' if body.count(chr(10)) > 1 else ''}")
        if ran < 6:
            failures.append(f"only {ran} blocks ran")
        # What the blocks claim: the tuners agree (and printed something),
        # and the roofline drew each kernel.
        c = os.path.join(tmp, "tiles-c.txt")
        if not (os.path.exists(c) and "host CPU: MR=" in open(c).read()):
            failures.append("the C tuner printed no tiles")
        svg = os.path.join(tmp, "roofline.svg")
        kernels = open(svg).read().count('<g class="point"') if os.path.exists(svg) else 0
        if kernels != 3:
            failures.append(f"roofline.svg holds {kernels} kernels, not the tutorial's 3")
    for f in failures:
        print("FAIL:", f)
    print(f"{'FAIL' if failures else 'ok'}: the tutorial, {ran} blocks run")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
