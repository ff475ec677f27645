#!/usr/bin/env python3
"""Compares `sysdesc dl-import` with mlir-translate-22 --import-llvm.

For every row of sysdesc's triple table and every string of
tests/data/layout/dl_strings.txt: the #dlti.dl_spec must be byte for byte
MLIR's, malformed strings must be refused by both, the round trip
import(export(import(s))) == import(s) must hold, and `dl-export` of the
spec must write byte for byte the `target datalayout` mlir-translate-22
-mlir-to-llvmir writes for it.  When opt-22 is installed,
each table row is also checked against the layout LLVM computes for the
triple, and so is every other triple `dl-import --triple` answers among
variants of the rows (another vendor, no vendor, an architecture alone, an
Apple system's version) and other systems and environments of the same
architectures: an answer must be LLVM's, else the triple must be refused.
Exits 77 when mlir-translate-22 is missing.
"""
import os
import shutil
import concurrent.futures
import re
import subprocess
import sys
import tempfile

SYSDESC = os.environ.get("SYSDESC", "sysdesc")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
TRANSLATE = os.environ.get("MLIR_TRANSLATE", "mlir-translate-22")
OPT = os.environ.get("LLVM_OPT", "opt-22")


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def extract_spec(text):
    i = text.find("#dlti.dl_spec<")
    if i < 0:
        return None
    depth = 0
    for j in range(i + len("#dlti.dl_spec"), len(text)):
        if text[j] == "<":
            depth += 1
        elif text[j] == ">":
            depth -= 1
            if depth == 0:
                return text[i:j + 1]
    return None


def mlir_import_many(tmp, strings):
    """{string: the #dlti.dl_spec mlir-translate-22 --import-llvm makes of a
    module with that data layout, or None where it refuses it}, in one run
    (--split-input-file; a refused chunk's error names its line, "within
    split at FILE:LINE")."""
    strings = sorted(set(strings))  # one order, whatever the hash seed
    if not strings:
        return {}
    path = os.path.join(tmp, "many.ll")
    with open(path, "w") as f:
        f.write("\n; -----\n".join('target datalayout = "%s"' % s for s in strings) + "\n")
    r = run([TRANSLATE, "--import-llvm", "--split-input-file=; -----",
             "--output-split-marker=// -----", path])
    outs = r.stdout.split("// -----\n")
    # A chunk's errors name the line it starts at: the first chunk's is line
    # 1, each later one starts at its marker's line (2, 4, 6, ...: a chunk
    # is one line and a marker).
    refused = {0 if int(m) == 1 else int(m) // 2
               for m in re.findall(r"error: within split at [^\n]*?:(\d+) offset", r.stderr)}
    got = {}
    for i, s in enumerate(strings):
        ok = len(outs) == len(strings) and i not in refused
        got[s] = extract_spec(outs[i]) if ok else None
    return got


EXPORT_REFUSED = [
    ("i64 = dense<[24, 64]> : vector<2xi64>", "i64:24:64"),
    ("i64 = dense<[64, 1048576]> : vector<2xi64>", "i64:64:1048576"),
    ("f64 = dense<[1048576, 1048576]> : vector<2xi64>", "f64:1048576"),
    ("!llvm.ptr<16777216> = dense<[64, 64, 64, 64]> : vector<4xi64>", "p16777216:64:64:64:64"),
    ("!llvm.ptr = dense<[64, 64, 64, 128]> : vector<4xi64>", "p0:64:64:64:128"),
    ("!llvm.ptr = dense<[33554432, 64, 64, 64]> : vector<4xi64>", "p0:33554432:64:64:64"),
    ('"dlti.stack_alignment" = 24 : i64', "S24"),
    ('"dlti.stack_alignment" = 1048576 : i64', "S1048576"),
    ('"dlti.alloca_memory_space" = 16777216 : ui64', "A16777216"),
    ('"dlti.function_pointer_alignment" = #dlti.function_pointer_alignment<24, function_dependent = true>', "Fn24"),
    ('"dlti.legal_int_widths" = array<i32: 0>', "n0"),
]


def mlir_export_many(tmp, specs):
    """{#dlti.dl_spec text: the `target datalayout` mlir-translate-22
    -mlir-to-llvmir writes for a module holding it ('' for none; None where
    it fails)}, in one run (--split-input-file)."""
    specs = sorted(set(specs))
    if not specs:
        return {}
    path = os.path.join(tmp, "export.mlir")
    with open(path, "w") as f:
        f.write("\n// -----\n".join("module attributes {dlti.dl_spec = %s} {}" % spec
                                     for spec in specs) + "\n")
    r = run([TRANSLATE, "-mlir-to-llvmir", "--split-input-file", "--output-split-marker=; -----", path])
    outs = r.stdout.split("; -----\n")
    got = {}
    for i, spec in enumerate(specs):
        m = re.search(r'^target datalayout = "(.*)"$', outs[i], re.M) if len(outs) == len(specs) else None
        got[spec] = m.group(1) if m else ("" if len(outs) == len(specs) and r.returncode == 0 else None)
    return got


def generated_tokens():
    import random
    rnd = random.Random(13)
    nums = ["0", "1", "7", "8", "16", "24", "32", "48", "64", "128", "256", "1024", "32768",
            "65535", "65536", "524288", "16777215", "16777216", "4294967296", ""]
    letters = ["i", "f", "v", "a", "p", "p1", "p16777215", "S", "A", "P", "G", "n", "Fi", "Fn",
               "ni", "m", "e", "E"]
    out = set()
    while len(out) < 300:
        l = rnd.choice(letters)
        f = [rnd.choice(nums) for _ in range(rnd.randint(0, 4))]
        if l in ("i", "f", "v"):
            tok = l + (f[0] if f else "") + "".join(":" + x for x in f[1:])
        elif l in ("S", "A", "P", "G", "Fi", "Fn"):
            tok = l + (f[0] if f else "")
        elif l == "m":
            tok = "m:" + rnd.choice(["e", "o", "x", "w", "m", "a", "l", "q", ""])
        elif l in ("e", "E"):
            tok = l
        else:
            tok = l + "".join(":" + x for x in f)
        out.add(tok)
    return sorted(out)


def llvm_layout(tmp, triple):
    """The data layout LLVM 22 computes for `triple` (opt-22 -S on a module
    holding only the triple), or None."""
    path = os.path.join(tmp, "v-%s.ll" % re.sub(r"[^\w.-]", "_", triple))
    with open(path, "w") as f:
        f.write('target triple = "%s"\n' % triple)
    r = run([OPT, "-S", path])
    want = [l for l in r.stdout.splitlines() if l.startswith("target datalayout = ")]
    return want[0][len('target datalayout = "'):-1] if r.returncode == 0 and want else None


# Systems and environments beside the rows': LLVM's layout changes with some
# of them (Darwin's mangling, Windows', ELFv2 on musl and FreeBSD 13, x32).
# Each answered triple costs an opt-22 run (~0.1 s): the list is kept short.
OTHER_SYSTEMS = ["apple-darwin23.1.0", "apple-ios17.0", "pc-windows-msvc", "pc-windows-gnu",
                 "unknown-linux-gnu", "unknown-linux-musl", "unknown-freebsd13", "unknown-none"]


def triple_variants(triples):
    """Variants of the table's triples, and the same architectures with other
    systems."""
    out = set()
    for t in triples:
        parts = t.split("-")
        arch = parts[0]
        out.add(arch)
        out.add("arm64" + t[len("aarch64"):] if arch == "aarch64" else t)
        if len(parts) >= 3:
            for vendor in ("unknown", "apple"):
                out.add("-".join([arch, vendor] + parts[2:]))
            out.add("-".join([arch] + parts[2:]))              # no vendor, as GCC prints it
            out.add(t + "13.0")                                # a system version
        for other in OTHER_SYSTEMS:
            out.add("%s-%s" % (arch, other))
    return sorted(out)


def check_variants(tmp, triples):
    """Every triple `dl-import --triple` answers gets LLVM's layout."""
    passed = failed = answered = 0
    spec_of = {}

    def spec(string):
        if string not in spec_of:
            spec_of[string] = run([SYSDESC, "dl-import", "--", string]).stdout.strip()
        return spec_of[string]

    def one(t):
        ours = run([SYSDESC, "dl-import", "--triple", t])
        if ours.returncode == 1 and "no data layout known" in ours.stderr:
            return t, ours, None, True
        return t, ours, llvm_layout(tmp, t), False

    # each opt-22 run loads LLVM: as many at once as there are CPUs
    with concurrent.futures.ThreadPoolExecutor(len(os.sched_getaffinity(0)) or 1) as pool:
        results = list(pool.map(one, triple_variants(triples)))
    for t, ours, want, refused in results:
        if refused:
            passed += 1
            continue
        ok = ours.returncode == 0 and want is not None and ours.stdout.strip() == spec(want)
        answered += ok
        if not ok:
            print("FAIL --triple %s: sysdesc rc %d, not LLVM's %s" % (t, ours.returncode, want))
        passed += ok
        failed += not ok
    print("triple variants: %d answered with LLVM's layout, %d refused, %d wrong"
          % (answered, passed - answered, failed))
    return passed, failed


def main():
    if not shutil.which(TRANSLATE):
        print("SKIP: %s not found" % TRANSLATE)
        return 77
    if not shutil.which(OPT) and os.path.exists("/usr/lib/llvm-22/bin/opt"):
        globals()["OPT"] = "/usr/lib/llvm-22/bin/opt"
    cases = []
    table = run([SYSDESC, "dl-import", "--list"]).stdout.splitlines()
    for row in table:
        triple, layout, source = row.split("\t")
        cases.append((layout, False, triple))
    with open(os.path.join(SRCDIR, "tests", "data", "layout", "dl_strings.txt")) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            bad = line.startswith("bad:")
            s = line[4:] if bad else line
            cases.append(("" if s == "<empty>" else s, bad, None))
    # Strings with more entries than any fixed table
    # (every entry and LLVM's defaults kept, as mlir-translate-22 keeps them)
    cases.append(("e-" + "-".join("i%d:8" % w for w in range(100, 400)), False, None))
    cases.append(("e-" + "-".join("i%d:16:32" % w for w in range(1, 1200, 3)) + "-f80:128", False, None))
    cases.append(("e-" + "-".join("p%d:32:32" % a for a in range(1, 400)), False, None))
    cases.append(("e-" + "-".join("v%d:64" % w for w in range(8, 4000, 8)), False, None))
    cases.append(("E-m:e-" + "-".join("p%d:64:64:64:32-i%d:32-f%d:64" % (a, a + 1, 8 * a)
                                       for a in range(1, 300)), False, None))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        # MLIR's imports in two runs, not one a string: the cases, then the
        # strings dl-export makes of sysdesc's imports of them
        theirs_of = mlir_import_many(tmp, {s for s, _, _ in cases})
        ours_of = {s: run([SYSDESC, "dl-import", "--", s]) for s, _, _ in cases}
        exported_of = {}
        for s, o in ours_of.items():
            if o.returncode == 0:
                spec_path = os.path.join(tmp, "spec.mlir")
                with open(spec_path, "w") as f:
                    f.write(o.stdout.strip() + "\n")
                exported_of[s] = run([SYSDESC, "dl-export", spec_path])
        theirs_of.update(mlir_import_many(tmp, {e.stdout.strip() for e in exported_of.values()
                                                if e.returncode == 0} - set(theirs_of)))
        # What mlir-translate-22 writes for sysdesc's imports (one run): the
        # string dl-export must write, byte for byte.
        translated_of = mlir_export_many(tmp, {o.stdout.strip() for o in ours_of.values()
                                               if o.returncode == 0})
        for s, bad, triple in cases:
            label = triple or repr(s)
            theirs = theirs_of[s]
            ours = ours_of[s]
            if bad or theirs is None:
                ok = theirs is None and ours.returncode == 2 and "offset" in ours.stderr
                if not ok:
                    print("FAIL %s: mlir %s, sysdesc rc %d %s" %
                          (label, "refuses" if theirs is None else theirs, ours.returncode,
                           ours.stderr.strip()))
                passed += ok
                failed += not ok
                continue
            got = ours.stdout.strip()
            if got != theirs:
                print("FAIL %s:\n  mlir    %s\n  sysdesc %s %s" % (label, theirs, got, ours.stderr.strip()))
                failed += 1
                continue
            passed += 1
            # Round trip through dl-export.
            exp = exported_of[s]
            again = run([SYSDESC, "dl-import", "--", exp.stdout.strip()])
            if exp.returncode == 0 and again.stdout.strip() == got:
                passed += 1
            else:
                print("FAIL %s: round trip: %s -> %s" % (label, exp.stdout.strip() or exp.stderr.strip(),
                                                         again.stdout.strip() or again.stderr.strip()))
                failed += 1
            # The exported string is the one mlir-translate-22 writes.
            if exp.returncode == 0 and translated_of.get(got) == exp.stdout.strip():
                passed += 1
            else:
                print("FAIL %s: dl-export %r, mlir-translate-22 %r" % (
                    label[:100], exp.stdout.strip()[:300], (translated_of.get(got) or "")[:300]))
                failed += 1
            # The exported string must also be one MLIR imports the same way.
            if exp.returncode == 0 and theirs_of.get(exp.stdout.strip()) == got:
                passed += 1
            else:
                print("FAIL %s: MLIR imports the exported string differently" % label)
                failed += 1
            # ... and one LLVM itself reads (opt-22 parses `target datalayout`).
            if shutil.which(OPT):
                path = os.path.join(tmp, "e.ll")
                with open(path, "w") as f:
                    f.write('target datalayout = "%s"\n' % exp.stdout.strip())
                r = run([OPT, "-S", path])
                if r.returncode == 0:
                    passed += 1
                else:
                    print("FAIL %s: %s refuses the exported string: %s" % (label, OPT, r.stderr.strip()[:300]))
                    failed += 1
            if triple and shutil.which(OPT):
                path = os.path.join(tmp, "t.ll")
                with open(path, "w") as f:
                    f.write('target triple = "%s"\n' % triple)
                r = run([OPT, "-S", path])
                want = [l for l in r.stdout.splitlines() if l.startswith("target datalayout")]
                if want and want[0] == 'target datalayout = "%s"' % s:
                    passed += 1
                else:
                    print("FAIL %s: table row differs from %s: %s" % (triple, OPT, want))
                    failed += 1
        # `dl-export` prints only what LLVM reads.  Specs
        # mlir-opt-22 accepts whose string LLVM refuses: dl-export exits 2
        # naming the string, and opt-22 refuses that string too.
        for spec, string in EXPORT_REFUSED:
            path = os.path.join(tmp, "x.mlir")
            with open(path, "w") as f:
                f.write("module attributes {dlti.dl_spec = #dlti.dl_spec<%s>} {}\n" % spec)
            r = run([SYSDESC, "dl-export", path])
            ok = r.returncode == 2 and ("LLVM would not read the data layout string '%s'" % string) in r.stderr
            if shutil.which(OPT):
                ll = os.path.join(tmp, "x.ll")
                with open(ll, "w") as f:
                    f.write('target datalayout = "%s"\n' % string)
                ok = ok and run([OPT, "-S", ll]).returncode != 0
            if shutil.which("mlir-opt-22"):
                ok = ok and run(["mlir-opt-22", path]).returncode == 0
            if not ok:
                print("FAIL dl-export of %s: rc %d %s" % (spec, r.returncode, r.stderr.strip()))
            passed += ok
            failed += not ok
        # Generated tokens (every specifier, fields from 0
        # to past 32 bits, empty ones) are accepted by dl-import exactly when
        # opt-22 accepts them; float widths MLIR has no type for (f7, f1024:
        # mlir-translate-22 crashes on them) are refused, on purpose.
        if shutil.which(OPT):
            for tok in generated_tokens():
                ll = os.path.join(tmp, "g.ll")
                with open(ll, "w") as f:
                    f.write('target datalayout = "%s"\n' % tok)
                llvm_ok = run([OPT, "-S", ll]).returncode == 0
                r = run([SYSDESC, "dl-import", "--", tok])
                ours_ok = r.returncode == 0
                no_mlir_float = not ours_ok and "no MLIR float type" in r.stderr
                ok = llvm_ok == ours_ok or (llvm_ok and no_mlir_float)
                if not ok:
                    print("FAIL generated %r: opt-22 %s, sysdesc %s" %
                          (tok, "accepts" if llvm_ok else "refuses", r.stderr.strip() or "accepts"))
                passed += ok
                failed += not ok
        if shutil.which(OPT):
            p, f = check_variants(tmp, [row.split("\t")[0] for row in table])
            passed += p
            failed += f
        # Every alignment rule of LLVM's DataLayout, on a grid: each
        # specifier that takes an alignment (i, f, v, a, p, F, S), each field
        # 0, 8, 12, 16, 24, 64 or 65536 bits, ABI and preferred alike.
        # dl-import accepts exactly what opt-22 accepts, and refuses with
        # LLVM's reason, word for word ("preferred alignment must be
        # non-zero": an aggregate's ABI alignment may be 0, not its
        # preferred one).
        if shutil.which(OPT):
            aligns = ["0", "8", "12", "16", "24", "64", "65536"]
            grid = ["S" + x for x in aligns] + ["Fi" + x for x in aligns] + ["Fn" + x for x in aligns]
            for head in ["i32", "f32", "v128", "a", "p", "p1:32"]:
                lead = "p:64" if head == "p" else head
                for abi in aligns:
                    grid.append("%s:%s" % (lead, abi))
                    for pref in aligns:
                        grid.append("%s:%s:%s" % (lead, abi, pref))

            def one(pair):
                i, tok = pair
                ll = os.path.join(tmp, "g%d.ll" % i)
                with open(ll, "w") as f:
                    f.write('target datalayout = "%s"\n' % tok)
                theirs = run([OPT, "-S", ll])
                why = theirs.stderr.split("error: ", 1)[1].splitlines()[0] if theirs.returncode else ""
                r = run([SYSDESC, "dl-import", "--", tok])
                ok = (r.returncode == 0) == (theirs.returncode == 0) and (not why or why in r.stderr)
                if not ok:
                    print("FAIL alignment %r: opt-22 %s, sysdesc %s" %
                          (tok, why or "accepts", r.stderr.strip() or "accepts"))
                return ok

            with concurrent.futures.ThreadPoolExecutor(len(os.sched_getaffinity(0)) or 1) as pool:
                for ok in pool.map(one, enumerate(grid)):
                    passed += ok
                    failed += not ok
        # --triple picks the same string as the table.
        r = run([SYSDESC, "dl-import", "--triple", "x86_64-unknown-linux-gnu"])
        ok = r.returncode == 0 and r.stdout.startswith("#dlti.dl_spec<!llvm.ptr<270>")
        passed += ok
        failed += not ok
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
