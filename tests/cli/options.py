#!/usr/bin/env python3
"""The one option table (cli/cli_args.c, cli/cli_usage.c): the synopsis of
every command (its usage is made from its table) names exactly the options
its parser takes (a flag refuses a value, an option with a value needs one,
a name not in it is unknown); a number out of range is reported in one form,
"CMD: NAME: 'VALUE' is not ... from MIN to MAX", for every such option; two
options that set one field to different values are refused, the same one
twice is not; every usage fits 80 columns.
Environment: SYSDESC (the tool), SRCDIR (the source tree)."""
import os
import re
import subprocess
import sys

SYSDESC = os.environ["SYSDESC"]
env = dict(os.environ, SYSDESC_PATH=os.path.join(os.environ["SRCDIR"], "systems"))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([SYSDESC, *args], capture_output=True, text=True, env=env, timeout=120)


def synopsis(cmd):
    """The bracketed options of `sysdesc CMD --help`'s usage lines."""
    out = run(cmd, "--help").stdout
    lines = []
    for line in out.splitlines():
        if not line.strip():
            break
        lines.append(line)
    words = []
    for group in re.findall(r"\[([^\[\]]+)\]", " ".join(lines)):
        for alt in group.split("|"):
            if alt.startswith("-"):
                words.append(alt)
    return words, out


def commands():
    """The commands `sysdesc --help` lists."""
    out, names, on = run("--help").stdout, [], False
    for line in out.splitlines():
        if line.startswith("commands:"):
            on = True
        elif on and line.startswith("  "):
            names.append(line.split()[0])
        elif on:
            break
    return names


# ---- the synopsis is the parser's table, for every command ----
every = commands()
check(len(every) > 15 and "attach" in every and "uarch" in every, f"the commands: {every}")
for cmd in every:
    words, text = synopsis(cmd)
    check(re.match(rf"usage: sysdesc {cmd}[ \n]", text), f"{cmd} --help: the usage first: {text[:60]!r}")
    check(cmd == "list" or len(words) >= 1, f"{cmd}: a synopsis with options: {words}")
    for line in text.splitlines():
        check(len(line) <= 80, f"{cmd} --help: a line of {len(line)} columns: {line}")
        check(line == line.rstrip(), f"{cmd} --help: a line ends in blanks: {line!r}")
    for w in words:
        if "[=" in w:  # --color[=WHEN]: a value only after '=', and a bad one refused
            name = w.split("[")[0]
            r = run(cmd, name + "=no-such-value")
            check(r.returncode == 2 and f"{cmd}: {name}" in r.stderr,
                  f"{cmd} {name}=no-such-value: refused: {r.stderr.strip()}")
            continue
        name, _, meta = w.replace("=", " ").partition(" ")
        if name.startswith("-") and not name.startswith("--"):
            continue  # -o FILE: an alias; "-": standard input
        # query's and layout's options end at the first operand: give one after them
        tail = ["FILE", "KEY"] if cmd in ("query", "layout") else []
        if meta:
            r = run(cmd, name)
            if w.startswith(name + "="):
                check(r.returncode == 2 and f"{name} needs a value: {name}=VALUE" in r.stderr,
                      f"{cmd} {name} (NAME=VALUE only) without a value: {r.stderr.strip()}")
            else:
                check(r.returncode == 2 and f"{name} needs a value" in r.stderr,
                      f"{cmd} {name} without a value: {r.stderr.strip()}")
        else:
            r = run(cmd, name + "=x", *tail)
            check(r.returncode == 2 and f"{name} takes no value" in r.stderr,
                  f"{cmd} {name}=x: a flag refuses a value: {r.stderr.strip()}")
    r = run(cmd, "--no-such-option")
    check(r.returncode == 2 and f"{cmd}: unknown option '--no-such-option'" in r.stderr,
          f"{cmd}: an option not in the table is unknown: {r.stderr.strip()}")

# ---- numbers in a range: one form ----
form = re.compile(r"^sysdesc: error: (\w+): (--[\w-]+): '([^']*)' is not a number of \w+ "
                  r"from (\d+) to (\d+)$")
for args, lo, hi in ((["measure", "--threads"], 1, 4096),
                     (["measure", "--device", "CPU", "--device-timeout"], 1, 3600000),
                     (["query", "--host", "--runtime-timeout="], 1, 3600000),
                     (["probe", "--runtime-timeout="], 1, 3600000),
                     (["occupancy", "--carveout"], 0, 100),
                     (["occupancy", "--threads"], 1, 2**31 - 1)):
    for bad in (["0"] if lo else []) + [str(hi + 1), "x", "-5", "12x", ""]:
        if args[-1].endswith("="):
            argv = args[:-1] + [args[-1] + bad] + (["CPU"] if args[0] == "query" else [])
        else:
            argv = args + [bad]
        r = run(*argv)
        m = form.match(r.stderr.strip())
        check(r.returncode == 2 and m and m.group(1) == args[0] and m.group(3) == bad and
              (int(m.group(4)), int(m.group(5))) == (lo, hi),
              f"{' '.join(argv)}: exit 2 in the one form: {r.returncode} {r.stderr.strip()}")

# ---- one field, two values ----
for cmd, a, b, extra in (("measure", "--quick", "--full", []),
                         ("roofline", "--quick", "--full", ["no-such-spec"]),
                         ("query", "--raw", "--json", ["no-such-file", "CPU"])):
    r = run(cmd, a, b, *extra)
    check(r.returncode == 2 and a in r.stderr and b in r.stderr,
          f"{cmd} {a} {b}: refused, naming both: {r.stderr.strip()}")
    # the same one twice sets the same value: on to the operand (no such spec: 1)
    if extra:
        r = run(cmd, a, a, *extra)
        check(r.returncode == 1 and "no-such" in r.stderr,
              f"{cmd} {a} {a}: taken, the operand read next: {r.returncode} {r.stderr.strip()}")

print(f"options.py: {len(failures)} failures")
sys.exit(1 if failures else 0)
