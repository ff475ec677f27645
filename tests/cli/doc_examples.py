#!/usr/bin/env python3
"""Every example in the docs (README.md, docs/*.md) passes the command it is
shown with:

  - a ```yaml block is a description: `sysdesc convert --to mlir` takes it
    with no message, `sysdesc check` finds it valid, and mlir-opt-22 accepts
    the MLIR it becomes (a block after `<!-- example: fragment -->` is an
    override file: `check --partial`);
  - a ```mlir block: `sysdesc fmt` (or `fmt --skeleton` for a file of ops)
    reads it, and mlir-opt-22 accepts it (an excerpt, with `...`, is not run);
  - an inline override example, `CPU: {cache: {...}}`: `check --partial`;
  - a shell session (an indented block of `$ ...` lines): `$ cat FILE`
    followed by lines writes FILE; every `sysdesc` command whose inputs
    exist here (not --host, probe, mpirun, measure: this machine's answers
    differ) runs in a scratch directory with examples/ and the catalog, and
    prints the lines shown under it (`...` in a line stands for any text).
Exit 77 without mlir-opt-22.
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
MLIR_OPT = os.environ.get("MLIR_OPT", "mlir-opt-22")
failures, counts = [], {"yaml": 0, "mlir": 0, "inline": 0, "command": 0, "skipped": 0}


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)


def run(args, cwd=None, env=None):
    r = subprocess.run(args, capture_output=True, cwd=cwd, env=env)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def docs():
    for path in [os.path.join(SRCDIR, "README.md")] + sorted(glob.glob(os.path.join(SRCDIR, "docs", "*.md"))):
        yield os.path.relpath(path, SRCDIR), open(path, encoding="utf-8").read()


def fenced(text, lang):
    """(line number, body, fragment?) of each ```lang block."""
    for m in re.finditer(r"(?m)^```%s\n(.*?)^```" % lang, text, re.S):
        before = text[:m.start()].rstrip().splitlines()[-1:] or [""]
        yield text.count("\n", 0, m.start()) + 1, m.group(1), "example: fragment" in before[0]


def yaml_examples(tmp, env):
    for name, text in docs():
        for line, body, fragment in fenced(text, "yaml"):
            counts["yaml"] += 1
            f = os.path.join(tmp, "example.yaml")
            with open(f, "w") as out:
                out.write(body)
            where = "%s:%d" % (name, line)
            if fragment:
                rc, out, err = run([SYSDESC, "check", "--partial", f], env=env)
                check(rc == 0, "%s: check --partial: %s" % (where, err))
                continue
            rc, mlir, err = run([SYSDESC, "convert", "--to", "mlir", f], env=env)
            check(rc == 0 and not err, "%s: convert: %s" % (where, err))
            rc, out, err = run([SYSDESC, "check", f], env=env)
            check(rc == 0, "%s: check: %s" % (where, err))
            m = os.path.join(tmp, "example.mlir")
            with open(m, "w") as o:
                o.write(mlir)
            rc, out, err = run([MLIR_OPT, m])
            check(rc == 0, "%s: mlir-opt-22 rejects what convert wrote: %s" % (where, err))


def mlir_examples(tmp, env):
    for name, text in docs():
        for line, body, _ in fenced(text, "mlir"):
            if "..." in body:  # an excerpt of a larger spec, not an example
                counts["skipped"] += 1
                continue
            counts["mlir"] += 1
            f = os.path.join(tmp, "example.mlir")
            with open(f, "w") as out:
                out.write(body)
            where = "%s:%d" % (name, line)
            rc, out, err = run([SYSDESC, "fmt", f], env=env)
            if rc == 2 and "fmt --skeleton" in err:
                rc, out, err = run([SYSDESC, "fmt", "--skeleton", f], env=env)
            check(rc == 0, "%s: sysdesc fmt: %s" % (where, err))
            rc, out, err = run([MLIR_OPT, "--allow-unregistered-dialect", f])
            check(rc == 0, "%s: mlir-opt-22 rejects it: %s" % (where, err))


def inline_examples(tmp, env):
    for name, text in docs():
        for m in re.finditer(r"`((?:CPU|GPU\d*): \{[^`]*\})`", text):
            counts["inline"] += 1
            f = os.path.join(tmp, "inline.yaml")
            with open(f, "w") as out:
                out.write(m.group(1) + "\n")
            rc, out, err = run([SYSDESC, "check", "--partial", f], env=env)
            check(rc == 0, "%s: `%s`: check --partial: %s" % (name, m.group(1), err))


def sessions(text):
    """[(line, [(command, [output lines])])] of the indented `$ ` blocks."""
    out, cur, block = [], None, None
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("    $ "):
            if block is None:
                block = (n, [])
                out.append(block)
            cur = (line[6:], [])
            block[1].append(cur)
        elif line.startswith("    ") and cur is not None:
            cur[1].append(line[4:])
        else:
            cur, block = None, None
    return out


def matches(want, got):
    if len(want) != len(got):
        return False
    for w, g in zip(want, got):
        pattern = ".*".join(re.escape(p) for p in w.split("..."))
        if not re.fullmatch(pattern, g):
            return False
    return True


SKIP = ("--host", "probe", "mpirun", "measure", "roofline")


def session_examples(tmp, env):
    work = os.path.join(tmp, "session")
    for name, text in docs():
        for line, cmds in sessions(text):
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            os.symlink(os.path.join(SRCDIR, "examples"), os.path.join(work, "examples"))
            for command, want in cmds:
                words = shlex.split(command, comments=True)
                if words[:1] == ["cat"] and len(words) == 2:
                    with open(os.path.join(work, words[1]), "w") as f:
                        f.write("\n".join(want) + "\n")
                    continue
                files = [w for w in words[1:] if re.search(r"\.(mlir|yaml)$", w)]
                if (words[:1] != ["sysdesc"] or any(s in command for s in SKIP) or
                        not all(os.path.exists(os.path.join(work, w)) for w in files)):
                    counts["skipped"] += 1
                    continue
                counts["command"] += 1
                rc, out, err = run([SYSDESC] + words[1:], cwd=work, env=env)
                got = (err + out if rc else out + err).splitlines()
                check(matches(want, got), "%s:%d: $ %s\n  shown: %s\n  got:   %s" % (name, line, command, want, got))


def main():
    if not shutil.which(MLIR_OPT):
        print("SKIP: %s not found (apt-get install mlir-22-tools)" % MLIR_OPT)
        return 77
    env = dict(os.environ, SYSDESC_PATH=os.path.join(SRCDIR, "systems"))
    with tempfile.TemporaryDirectory() as tmp:
        yaml_examples(tmp, env)
        mlir_examples(tmp, env)
        inline_examples(tmp, env)
        session_examples(tmp, env)
    print("%(yaml)d YAML, %(mlir)d MLIR, %(inline)d inline examples, %(command)d commands "
          "(%(skipped)d skipped: this host's answers, files it does not have, excerpts); " % counts
          + "%d failed" % len(failures))
    if counts["yaml"] == 0 or counts["command"] == 0:
        print("FAIL: no examples found under %s" % SRCDIR)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
