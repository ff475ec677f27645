#!/usr/bin/env python3
"""The code the README and docs/*.md show runs as shown.

- Every ```c block compiles with -std=c17 -Wall -Wextra -Wpedantic -Werror
  against the public headers and links with the built libsysdesc.so; a block
  without main() is the body of one (its #include lines on top), as the
  README says.  It runs in a directory whose machine.mlir is this host's
  probe, and what it prints is held to the CLI's answers (the README's:
  this host's L1, from the file and from sysdesc_probe_host(); the map it
  builds, as `sysdesc` would print it).
- Every ```python block runs against the built module; where a line's
  comment gives the value of an expression that does not depend on this host
  (`h100.to_triton("GPU")["max_shared_mem"]  # 232448`), the value is that.
- The README's command examples ("    $ sysdesc ..."): those that depend on
  nothing but the catalog and the source tree print exactly what is shown;
  those about this host run and succeed (their values are this host's);
  those that need a GPU or an MPI job are named and left out.
Environment: SYSDESC, SRCDIR, BUILDDIR, CC and SANITIZE (optional)."""
import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["SRCDIR"], "tests"))
from topology import skip_if_foreign  # noqa: E402

SYSDESC = os.environ["SYSDESC"]
# the README's examples of this host are this host's (its compilers, runtimes)
skip_if_foreign("the README's and docs' examples")
SRCDIR = os.environ["SRCDIR"]
BUILDDIR = os.environ["BUILDDIR"]
DOCS = ["README.md"] + sorted(os.path.join("docs", f)
                              for f in os.listdir(os.path.join(SRCDIR, "docs"))
                              if f.endswith(".md"))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def fenced(lang):
    """(file, line, text) of every ```lang block of the README and docs."""
    out = []
    for doc in DOCS:
        lines = open(os.path.join(SRCDIR, doc), encoding="utf-8").read().split("\n")
        i = 0
        while i < len(lines):
            if lines[i].strip() == "```" + lang:
                j = i + 1
                while j < len(lines) and lines[j].strip() != "```":
                    j += 1
                out.append((doc, i + 1, "\n".join(lines[i + 1:j]) + "\n"))
                i = j
            i += 1
    return out


def run(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=120, **kw)


tmp = tempfile.mkdtemp(prefix="sysdesc-code-blocks.")
env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(SYSDESC)) + os.pathsep +
           os.environ.get("PATH", ""), PYTHONPATH=os.path.join(BUILDDIR, "python"))
env.pop("SYSDESC_PATH", None)
try:
    # This host as the README's machine.mlir.
    r = run([SYSDESC, "probe", "-q", "--runtimes=none", "-o", os.path.join(tmp, "machine.mlir")])
    check(r.returncode == 0, f"sysdesc probe -o machine.mlir: {r.stderr}")

    # ---- C ----
    blocks = fenced("c")
    check(blocks, "the README has no C block")
    cc = os.environ.get("CC") or shutil.which("cc") or "gcc"
    for n, (doc, line, code) in enumerate(blocks):
        where = f"{doc}:{line}"
        if not re.search(r"\bint\s+main\s*\(", code):
            top = [ln for ln in code.split("\n") if ln.startswith("#include")]
            body = [ln for ln in code.split("\n") if not ln.startswith("#include")]
            code = ("\n".join(top) + "\n\nint main(void)\n{\n" +
                    "\n".join("    " + ln for ln in body) + "\n    return 0;\n}\n")
        src, exe = os.path.join(tmp, f"block{n}.c"), os.path.join(tmp, f"block{n}")
        with open(src, "w") as f:
            f.write(code)
        san = os.environ.get("SANITIZE", "none")
        r = run([cc] + ([] if san == "none" else ["-fsanitize=" + san]) +
                ["-std=c17", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                 "-I", os.path.join(SRCDIR, "include"), "-I", os.path.join(BUILDDIR, "include"),
                 src, "-o", exe, "-L", BUILDDIR, "-Wl,-rpath," + BUILDDIR, "-lsysdesc"])
        if not check(r.returncode == 0, f"{where}: the C block does not compile with -Werror:\n"
                                        f"{r.stderr[-3000:]}"):
            continue
        r = run([exe], cwd=tmp, env=env)
        check(r.returncode == 0 and r.stderr == "",
              f"{where}: the C block exits {r.returncode}: {r.stderr[-500:]}")
        print(f"ok: {where}: the C block compiles with -Werror and runs:\n{r.stdout}", end="")
        if doc == "README.md":
            q = run([SYSDESC, "query", "machine.mlir", "CPU", "cache", "L1", "size_in_bytes"],
                    cwd=tmp)
            l1 = q.stdout.split(" : ")[0]
            h = run([SYSDESC, "query", "--host", "-q", "CPU", "cache", "L1", "size_in_bytes"],
                    cwd=tmp, env=env)
            m = run([SYSDESC, "fmt", "-"], input='#dlti.map<"cache" = #dlti.map<"L1" = '
                    '#dlti.map<"size_in_bytes" = 49152 : i64>>>', cwd=tmp)
            want = (f"L1: {l1} bytes\nthis host's L1: {h.stdout.split(' : ')[0]} bytes\n"
                    f"{m.stdout.strip()}\n")
            check(r.stdout == want, f"{where}: the C block printed {r.stdout!r}, the CLI {want!r}")

    # ---- Python ----
    blocks = fenced("python")
    check(blocks, "no Python block")
    import glob
    if os.environ.get("SANITIZE", "none") != "none":
        print("Python blocks left out: a sanitized build (the pytest suite runs them there)")
        blocks = []
    elif not glob.glob(os.path.join(BUILDDIR, "python", "sysdesc", "_sysdesc*.so")):
        print("Python blocks left out: the module was not built (-Dpython, python3-dev)")
        blocks = []
    for doc, line, code in blocks:
        where = f"{doc}:{line}"
        # Run each statement; compare an expression with the number its
        # comment gives, unless it depends on this host.
        src_lines = code.split("\n")
        tree = ast.parse(code)
        harness = ["import sys", "tainted = set()", "_ns = {}"]
        script = []
        host_names = set()
        for node in tree.body:
            seg = ast.get_source_segment(code, node)
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            depends = "host(" in seg or "host=True" in seg or names & host_names
            if isinstance(node, ast.Assign) and depends:
                host_names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            comment = src_lines[node.end_lineno - 1].split("#", 1)
            m = re.match(r"\s*(-?\d+)\b", comment[1]) if len(comment) == 2 else None
            if isinstance(node, ast.Expr) and m and not depends:
                script.append(f"_v = ({seg})\n"
                              f"assert _v == {m.group(1)}, "
                              f"'line {node.lineno}: %r, the comment says {m.group(1)}' % (_v,)")
            else:
                script.append(seg)
        r = run([sys.executable, "-c", "\n".join(script)], cwd=tmp, env=env)
        check(r.returncode == 0, f"{where}: the Python block fails: {r.stderr[-1500:]}")
        if r.returncode == 0:
            print(f"ok: {where}: the Python block runs")

    # ---- the README's commands ----
    os.symlink(os.path.join(SRCDIR, "examples"), os.path.join(tmp, "examples"))
    readme = open(os.path.join(SRCDIR, "README.md"), encoding="utf-8").read().split("\n")
    examples = []  # (line, command, shown output)
    for i, ln in enumerate(readme):
        if ln.startswith("    $ "):
            out = []
            for nxt in readme[i + 1:]:
                if not nxt.startswith("    ") or nxt.startswith("    $ "):
                    break
                out.append(nxt[4:])
            examples.append((i + 1, ln[6:], "\n".join(out) + ("\n" if out else "")))
    check(len(examples) >= 10, f"the README's command examples: {len(examples)}")
    exact = about_host = 0
    for line, cmd, shown in examples:
        where = f"README.md:{line}: {cmd}"
        if cmd.startswith("mpirun") or "cluster.mlir" in cmd:
            print(f"left out (an MPI job): {where}")
            continue
        if "GPU0" in cmd:
            print(f"left out (needs a GPU): {where}")
            continue
        if cmd.startswith("cat "):  # the file the next command reads: shown whole
            with open(os.path.join(tmp, cmd.split()[1]), "w") as f:
                f.write(shown)
            continue
        if "--host" in cmd:
            # this host's values: it runs, and prints a value where one is
            # shown (its warnings, on stderr, are this host's too)
            about_host += 1
            r = subprocess.run(cmd, shell=True, cwd=tmp, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, timeout=120)
            check(r.returncode == 0, f"{where}: exit {r.returncode}: {r.stderr[-500:]}")
            if " : " in shown or shown.startswith('"'):
                check(re.fullmatch(r'(\S+ : \S+|".*")\n', r.stdout) is not None,
                      f"{where}: printed {r.stdout!r}, not one value as shown ({shown!r})")
            else:
                check(bool(shown) == bool(r.stdout) and
                      r.stdout.split()[:1] == shown.split()[:1],
                      f"{where}: printed {r.stdout[:200]!r}, shown {shown[:200]!r}")
            continue
        r = subprocess.run(cmd, shell=True, cwd=tmp, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=120)
        exact += 1
        check(r.stdout == shown, f"{where}: printed\n{r.stdout}shown\n{shown}")
    print(f"README commands: {exact} printed as shown, {about_host} about this host ran")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{'FAIL' if failures else 'ok'}: code_blocks.py, {len(failures)} failures")
sys.exit(1 if failures else 0)
