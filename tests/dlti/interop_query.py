"""Compares `sysdesc query` with MLIR's transform.dlti.query.

Each tests/data/query/NAME.queries goes with NAME.mlir, a module named @top
(nested modules named too).  A line of a .queries file is

    SCOPE: KEY, KEY, ...        # both must agree (value or failure note)
    SCOPE: KEY, ... => VALUE    # sysdesc must print VALUE; MLIR 22 differs
                                # (documented in docs/queries.md)

SCOPE is a module name (top, inner, ...), or OP@SYMBOL|PATH for a scope on
another op (func.func@f|inner/f: the op MLIR's transform matches by name and
sym_name, and sysdesc's --scope path); KEYs are in MLIR syntax ("CPU", i32).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
NOTED = []  # per sysdesc_answer call: whether it printed the MLIR 22 note
SRCDIR = os.environ["SRCDIR"]
MLIR_OPT = os.environ.get("MLIR_OPT", "mlir-opt-22")


def scope_path(text, name):
    """Path of module names from @top to @name, for --scope."""
    stack, path = [], {}
    for m in re.finditer(r'(?<![\w.])module\s+@("[^"]*"|[\w$.]+)|([{}])', text):
        if m.group(1):
            stack.append(("mod", m.group(1).strip('"')))
        elif m.group(2) == "{":
            # the body brace of a module follows its attribute dict brace; track depth only
            stack.append(("brace", None))
        else:
            stack.pop()
        names = [s[1] for s in stack if s[0] == "mod"]
        if names:
            path.setdefault(names[-1], names[1:])
    return "/".join(path.get(name, []))


def split_keys(keys):
    out, cur, depth, in_str = [], "", 0, False
    for ch in keys:
        if in_str:
            cur += ch
            if ch == '"' and not cur.endswith('\\"'):
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def cli_key(k):
    return k[1:-1] if k.startswith('"') else "type:" + k


def mlir_answer(spec, scope, keys, tmp, op="builtin.module"):
    # Alias definitions stay at the top of the file, before the wrapper.
    aliases = "".join(l for l in spec.splitlines(True) if re.match(r"[#!][\w$.]+\s*=", l))
    body = "".join(l for l in spec.splitlines(True) if not re.match(r"[#!][\w$.]+\s*=", l)).rstrip()
    prog = (
        aliases + "module attributes {transform.with_named_sequence} {\n" + body + "\n"
        "  transform.named_sequence @__transform_main(%arg: !transform.any_op) {\n"
        '    %s = transform.structured.match ops{["' + op + '"]} attributes {sym_name = "'
        + scope + '"} in %arg : (!transform.any_op) -> !transform.any_op\n'
        "    %p = transform.dlti.query [" + ", ".join(keys) + "] at %s : (!transform.any_op) -> !transform.any_param\n"
        "    transform.debug.emit_param_as_remark %p : !transform.any_param\n"
        "    transform.yield\n  }\n}\n")
    path = os.path.join(tmp, "q.mlir")
    with open(path, "w") as f:
        f.write(prog)
    r = subprocess.run([MLIR_OPT, "--allow-unregistered-dialect", "--transform-interpreter", path], capture_output=True, text=True)
    for line in r.stderr.splitlines():
        m = re.match(r".*: remark: (.*)$", line)
        if m:
            return ("ok", m.group(1))
    for line in r.stderr.splitlines():
        m = re.match(r".*: note: (key .*|got non-DLTI.*|no DLTI.*)$", line)
        if m:
            return ("fail", m.group(1))
    return ("fail", "mlir-opt: " + r.stderr.strip().splitlines()[0] if r.stderr.strip() else "?")


def sysdesc_answer(path, scope_arg, keys):
    cmd = [SYSDESC, "query"]
    if scope_arg:
        cmd += ["--scope", scope_arg]
    cmd += [path] + [cli_key(k) for k in keys]
    r = subprocess.run(cmd, capture_output=True, text=True)
    # Where sysdesc's documented rule answers otherwise than MLIR 22, a note
    # says so: present exactly on the lines marked `=>`.
    noted = "sysdesc: note: MLIR 22's dlti::query answers otherwise here" in r.stderr
    NOTED.append(noted)
    if r.returncode == 0:
        return ("ok", r.stdout.rstrip("\n"))
    if r.returncode != 1:
        return ("error", "exit %d: %s" % (r.returncode, r.stderr.strip()))
    # MLIR's message on the first line; what follows may only be sysdesc's
    # hints.  A warning naming ops whose DLTI attributes sysdesc cannot
    # place (unread.mlir) comes before it.
    lines = [l for l in r.stderr.strip().splitlines()
             if not (l.startswith("sysdesc: warning: ") and "cannot place" in l)
             and not l.startswith("sysdesc: note: MLIR 22's dlti::query")]
    extra = [l for l in lines[1:] if not l.startswith("sysdesc: hint: ")]
    if not lines or extra:
        return ("error", "stderr beyond MLIR's message and hints: %r" % r.stderr)
    return ("fail", re.sub(r"^sysdesc: error: ", "", lines[0]))


def main():
    if not shutil.which(MLIR_OPT):
        print("SKIP: %s not found (apt-get install mlir-22-tools)" % MLIR_OPT)
        return 77
    qdir = os.path.join(SRCDIR, "tests", "data", "query")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for qf in sorted(os.listdir(qdir)):
            if not qf.endswith(".queries"):
                continue
            spec_path = os.path.join(qdir, qf[:-8] + ".mlir")
            spec = open(spec_path).read()
            for n, line in enumerate(open(os.path.join(qdir, qf)), 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                scope, rest = line.split(":", 1)
                expect = None
                if "=>" in rest:
                    rest, expect = rest.split("=>", 1)
                    expect = expect.strip()
                keys = split_keys(rest.strip())
                scope, op = scope.strip(), "builtin.module"
                if "|" in scope:  # OP@SYMBOL|PATH
                    target, path = scope.split("|", 1)
                    op, scope = target.split("@", 1)
                else:
                    path = scope_path(spec, scope)
                ours = sysdesc_answer(spec_path, path, keys)
                if expect is not None:
                    ok = ours == ("ok", expect) and NOTED[-1]
                    want = ("ok", expect, "with the note on MLIR 22's answer")
                else:
                    # MLIR's note byte for byte, its attribute whole
                    want = mlir_answer(spec, scope, keys, tmp, op)
                    ok = ours == want and not NOTED[-1]
                if ok:
                    passed += 1
                else:
                    failed += 1
                    print("FAIL %s:%d: %s" % (qf, n, line))
                    print("  sysdesc: %s" % (ours,))
                    print("  wanted:  %s" % (want,))
    print("%d passed, %d failed" % (passed, failed))
    if passed + failed == 0:
        print("FAIL: no queries found in %s" % qdir)
        return 1
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
