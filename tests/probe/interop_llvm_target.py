#!/usr/bin/env python3
"""#llvm.target on `sysdesc probe --llvm-target` against MLIR's LLVM dialect.

- mlir-opt-22 prints the module sysdesc prints byte for byte, and sysdesc's
  own readers (fmt, convert, query) take it back unchanged;
- `mlir-opt-22 --llvm-target-to-data-layout --llvm-target-to-target-features`
  derives from it the #dlti.dl_spec that `sysdesc dl-import --triple TRIPLE`
  gives (compared after `sysdesc fmt`);
- every feature sysdesc lists is a feature llc-22 knows for the triple and,
  when the CPU was recognised by its identity (not guessed from features),
  one LLVM's own feature set for the chip holds: the names are LLVM's
  (probe/host/isa.c maps CPUID and hwcap bits to them), no translation table.
On this host and on three XML fixtures (x86_64, aarch64, aarch64 with two
core kinds; no features).
Skipped (77) without mlir-opt-22.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ.get("SRCDIR", ".")
MLIR_OPT = "mlir-opt-22"
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def run(args, stdin=None, rc=0):
    r = subprocess.run(args, input=stdin, capture_output=True, text=True)
    if r.returncode != rc:
        print("FAIL: %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()[:400]))
        sys.exit(1)
    return r.stdout


def attr_after(text, name):
    """The attribute text after `name = ` in a module's dictionary (brackets matched)."""
    i = text.find(name + " = ")
    if i < 0:
        return None
    i += len(name) + 3
    depth = 0
    j = i
    while j < len(text):
        c = text[j]
        if c == '"':
            j += 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
        elif c in "<[({":
            depth += 1
        elif c in ">])}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        j += 1
    return text[i:j]


def fmt_attr(text, tmp):
    path = os.path.join(tmp, "attr.mlir")
    with open(path, "w") as f:
        f.write(text + "\n")
    return run([SYSDESC, "fmt", path])


def llc_features(triple):
    if not shutil.which("llc-22"):
        return None
    out = subprocess.run(["llc-22", "-mtriple=" + triple, "-mattr=help"], capture_output=True,
                         text=True).stdout + subprocess.run(
        ["llc-22", "-mtriple=" + triple, "-mattr=help"], capture_output=True, text=True).stderr
    feats = set()
    section = False
    for line in out.splitlines():
        if line.startswith("Available features"):
            section = True
        elif section and re.match(r"^\s+\S+\s+- ", line):
            feats.add(line.split()[0])
    return feats


def features_of(target):
    m = re.search(r"features = <\[(.*?)\]>", target or "")
    return [f.strip().strip('"') for f in m.group(1).split(",")] if m else []


def one(label, args, tmp, want_chip=None):
    out = run([SYSDESC, "probe", "-q", "--llvm-target"] + args)
    path = os.path.join(tmp, "probe.mlir")
    with open(path, "w") as f:
        f.write(out)
    target = attr_after(out, "llvm.target")
    check(target and target.startswith("#llvm.target<triple = "), "%s: no llvm.target" % label)
    # mlir-opt-22 prints it as we do; our readers keep it.
    check(run([MLIR_OPT, path]) == out, "%s: mlir-opt-22 prints the module differently" % label)
    check(run([SYSDESC, "fmt", path]) == out, "%s: sysdesc fmt changes the module" % label)
    check(run([SYSDESC, "convert", "--to", "mlir", path]) == out,
          "%s: sysdesc convert --to mlir changes the module" % label)
    triple = run([SYSDESC, "query", path, "CPU", "triple"]).strip().strip('"')
    chip = run([SYSDESC, "query", path, "CPU", "compiler", "llvm", "cpu"]).strip().strip('"')
    check('triple = "%s"' % triple in target, "%s: target triple is not CPU.triple" % label)
    check('chip = "%s"' % chip in target, "%s: chip is not CPU.compiler.llvm.cpu" % label)
    check(not want_chip or chip == want_chip, "%s: chip %s, want %s" % (label, chip, want_chip))
    # The derived data layout is dl-import's for the triple.
    derived = run([MLIR_OPT, "--llvm-target-to-data-layout", "--llvm-target-to-target-features", path])
    dl = attr_after(derived, "dlti.dl_spec")
    check(dl is not None, "%s: mlir-opt-22 derived no dl_spec" % label)
    want = run([SYSDESC, "dl-import", "--triple", triple]).strip()
    check(dl and fmt_attr(dl, tmp) == fmt_attr(want, tmp),
          "%s: dl_spec for %s differs:\n  mlir-opt-22: %s\n  dl-import:   %s" % (label, triple, dl, want))
    # Our features: LLVM names for the triple, in LLVM's set for the chip.
    ours = [f[1:] for f in features_of(target)]
    known = llc_features(triple)
    if known:
        unknown = [f for f in ours if f not in known]
        check(not unknown, "%s: features llc-22 does not know: %s" % (label, unknown))
    src = run([SYSDESC, "query", path, "CPU", "source", "uarch"]).strip()
    if ours and (src.startswith('"cpuid') or src.startswith('"MIDR')):
        bare = os.path.join(tmp, "chip.mlir")
        with open(bare, "w") as f:
            f.write('module attributes {llvm.target = #llvm.target<triple = "%s", chip = "%s">} {}\n'
                    % (triple, chip))
        chipset = {f[1:] for f in features_of(attr_after(
            run([MLIR_OPT, "--llvm-target-to-target-features", bare]), "llvm.target")) if f[0] == "+"}
        extra = [f for f in ours if f not in chipset]
        check(not extra, "%s: features %s are not in LLVM's set for %s" % (label, extra, chip))
    print("%s: %s, chip %s, %d features: ok" % (label, triple, chip, len(ours)))


def main():
    if not shutil.which(MLIR_OPT):
        print("mlir-opt-22 not found: skipped")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        # the chip checked against LLVM 22's llc, whose CPU models mlir-opt-22
        # derives the features from (the default llc may be an older LLVM)
        one("host", ["--llc=llc-22"], tmp)
        xml = os.path.join(SRCDIR, "tests", "data", "xml")
        one("one_socket.xml", ["--xml", os.path.join(xml, "one_socket.xml"), "--no-io"], tmp)
        one("two_socket_numa.xml", ["--xml", os.path.join(xml, "two_socket_numa.xml"), "--no-io"], tmp)
        # Cores that differ, the part per CPU kind (as hwloc records NVIDIA's
        # GB10): LLVM's Host.cpp names the pair 0xd85+0xd87 cortex-x925.
        one("arm_hybrid.xml", ["--xml", os.path.join(xml, "arm_hybrid.xml"), "--no-io"], tmp,
            "cortex-x925")
        # Without a triple there is no target: an error, not a guess.
        r = subprocess.run([SYSDESC, "probe", "-q", "--llvm-target", "--set", "CPU.triple=1",
                            "--no-check"], capture_output=True, text=True)
        check(r.returncode == 2 and "--llvm-target" in r.stderr, "a non-string triple is refused")
        r = subprocess.run([SYSDESC, "probe", "-q", "--llvm-target", "--no-check", "--set",
                            "CPU.compiler.llvm.cpu=3"], capture_output=True, text=True)
        check(r.returncode == 2 and "CPU.compiler.llvm.cpu is not a string" in r.stderr,
              "a non-string chip is refused: %s" % r.stderr.strip())
        # Only a module has attributes beside the spec.
        r = subprocess.run([SYSDESC, "probe", "-q", "--llvm-target", "--format", "yaml"],
                           capture_output=True, text=True)
        check(r.returncode == 2 and "needs --format mlir" in r.stderr, "--llvm-target with yaml")
    print("%d failure(s)" % failures if failures else "all #llvm.target checks passed")
    return 1 if failures else 0


sys.exit(main())
