#!/usr/bin/env python3
"""The README's commands run as they are written.

Every indented block of README.md that is neither a shell session (`$ ...`
lines: tests/cli/doc_examples.py and tests/lib/code_blocks.py run those)
nor the tool's synopsis (lines that start with `sysdesc `) is a list of
commands a reader types.  Each runs, in the README's order, with `sh -e`,
in a fresh copy of the source tree (its tracked files), and must exit 0:
the build, the Python wheel into a venv, the tool from the venv, its
pkg-config and CMake files.  The blocks that cannot run here are named
below with the reason; a block that is neither run nor named fails, so a
new command in the README is a tested command.

Skipped (77) under a sanitizer (packaging, not memory) and without git.
Environment: SRCDIR, SANITIZE (optional)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SRCDIR = os.environ["SRCDIR"]
# First line of a block -> why it is not run here.
NOT_RUN = {
    "sh scripts/test-all": "the whole suite, which runs this test",
    "scripts/gpu-check": "needs an NVIDIA GPU (run on a lent GPU machine: docs/gpu-check.md)",
}


def blocks(text):
    """(line number, [lines]) of every indented block outside ``` fences."""
    out, cur, start, fence = [], [], 0, False
    lines = text.split("\n")
    for n, line in enumerate(lines + [""], 1):
        if line.startswith("```"):
            fence = not fence
        indented = not fence and line.startswith("    ") and line.strip()
        if indented and not cur and n > 1 and lines[n - 2].strip():
            indented = False  # a paragraph's continuation, not a block
        if indented or (cur and not line.strip() and n < len(lines) and
                        lines[n].startswith("    ")):
            if not cur:
                start = n
            cur.append(line[4:])
        elif cur:
            out.append((start, [c for c in cur if c.strip()]))
            cur = []
    return out


def main():
    if os.environ.get("SANITIZE", "none") not in ("", "none"):
        print("skipped: packaging, not memory (the unsanitized build runs it)")
        return 77
    if not shutil.which("git") or not os.path.isdir(os.path.join(SRCDIR, ".git")):
        print("skipped: the source tree is not a git checkout (its tracked files are the copy)")
        return 77
    readme = open(os.path.join(SRCDIR, "README.md"), encoding="utf-8").read()
    run, failures = [], []
    for line, cmds in blocks(readme):
        first = cmds[0]
        if first.startswith("$ ") or first.startswith("sysdesc "):
            continue
        why = next((w for k, w in NOT_RUN.items() if first.split("#")[0].strip() == k or
                    first.startswith(k + " ")), None)
        if why:
            print(f"not run: README.md:{line}: {first.split('#')[0].strip()}: {why}")
            continue
        run.append((line, cmds))
    if not run:
        print("FAIL: the README shows no command to run")
        return 1
    files = subprocess.run(["git", "-C", SRCDIR, "ls-files", "-z"], check=True,
                           stdout=subprocess.PIPE).stdout.decode().split("\0")
    with tempfile.TemporaryDirectory(prefix="sysdesc-readme.") as tmp:
        tree = os.path.join(tmp, "sysdesc")
        for f in filter(None, files):
            src = os.path.join(SRCDIR, f)
            if not os.path.lexists(src):
                continue  # deleted in the work tree, not yet committed
            os.makedirs(os.path.dirname(os.path.join(tree, f)), exist_ok=True)
            shutil.copy2(src, os.path.join(tree, f), follow_symlinks=False)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("SYSDESC", "PYTHON", "MESON", "HWLOC_", "PKG_CONFIG"))}
        env["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
        for line, cmds in run:
            script = "\n".join(cmds)
            t0 = time.monotonic()
            r = subprocess.run(["sh", "-e", "-c", script], cwd=tree, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, text=True, timeout=900)
            took = time.monotonic() - t0
            if r.returncode != 0:
                failures.append(line)
                print(f"FAIL: README.md:{line}: exit {r.returncode} after {took:.0f} s:\n"
                      f"{script}\n{r.stdout[-3000:]}")
            else:
                print(f"ok: README.md:{line} ({len(cmds)} line{'s' * (len(cmds) > 1)}, "
                      f"{took:.0f} s): {cmds[0]}")
    print(f"{len(run) - len(failures)} of {len(run)} README blocks ran as written")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
