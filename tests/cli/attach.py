#!/usr/bin/env python3
"""`sysdesc attach`, `fmt --skeleton`, `--pretty` and `--inherent-dlti` on MLIR
files as compiler drivers hold them (tests/data/real/*.mlir), with
mlir-opt-22 as the oracle.

For every file IN and the system tests/data/real/_spec.yaml:
  - mlir-opt-22 accepts IN and OUT = attach(IN), and prints the same module
    for both once the attached attributes are taken out of OUT's print;
  - OUT is IN plus the attached text, byte for byte (nothing else moves);
  - `sysdesc query` answers from OUT what it answers from the spec;
  - attaching again gives OUT again (a replacement, with a warning);
  - --pretty: mlir-opt-22 accepts it, and fmt --skeleton prints it as the
    one-line OUT; --inherent-dlti: mlir-opt-22 rejects it (MLIR 22 has no
    inherent `dlti`), sysdesc reads it back to the same skeleton.
Then --merge on a file that has a spec, CRLF line ends, and errors.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
MLIR_OPT = os.environ.get("MLIR_OPT", "mlir-opt-22")
DATA = os.path.join(SRCDIR, "tests", "data", "real")
SPEC = os.path.join(DATA, "_spec.yaml")
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL", what)


def run(*args, stdin=None):
    return subprocess.run(list(args), capture_output=True, input=stdin)


def mlir_opt(path):
    r = run(MLIR_OPT, "--allow-unregistered-dialect", path)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def sysdesc(*args):
    r = run(SYSDESC, *args)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def attr_text():
    """The spec and data layout as sysdesc (and mlir-opt-22) print them."""
    rc, out, err = sysdesc("convert", "--no-check", SPEC)
    assert rc == 0, err
    m = re.match(r"module attributes \{dlti\.dl_spec = (.*), dlti\.target_system_spec = (.*)\} \{\n", out)
    assert m, out
    return m.group(2), m.group(1)


def strip_attrs(printed):
    """mlir-opt's print of a module without its top module's system spec and
    data layout (whatever their values: <...> followed to its end)."""
    for name in ("dlti.target_system_spec", "dlti.dl_spec"):
        top = re.search(r"^module.*$", printed, re.M)
        i = printed.find(name + " = #", top.start(), top.end())
        if i < 0:
            continue
        j, depth = printed.index("<", i), 0
        while True:
            c = printed[j]
            if c == '"':
                j = printed.index('"', j + 1)
                while printed[j - 1] == "\\":
                    j = printed.index('"', j + 1)
            elif c == "<":
                depth += 1
            elif c == ">" and printed[j - 1] != "-":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        printed = printed[:i] + "\0" + printed[j + 1:]
        printed = re.sub(r"\0, |, \0|\0", "", printed)
    return printed.replace(" attributes {}", "")


def main():
    if not shutil.which(MLIR_OPT):
        print("SKIP: %s not found (apt-get install mlir-22-tools)" % MLIR_OPT)
        return 77
    spec, dl = attr_text()
    files = sorted(f for f in os.listdir(DATA) if f.endswith(".mlir") and not f.startswith("_"))
    check(len(files) >= 5, "tests/data/real holds the inputs")
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            src = os.path.join(DATA, f)
            raw = open(src, "rb").read()
            out = os.path.join(tmp, f)
            rc, _, err = sysdesc("attach", "--no-check", SPEC, src, "-o", out)
            check(rc == 0, "%s: attach failed: %s" % (f, err))
            if rc:
                continue
            got = open(out, "rb").read()
            # 1. mlir-opt accepts both and prints the same module but for the attributes.
            rin, ref, e1 = mlir_opt(src)
            rout, printed, e2 = mlir_opt(out)
            check(rin == 0 and rout == 0, "%s: mlir-opt-22 rejects input or output: %s%s" % (f, e1, e2))
            check(strip_attrs(printed) == strip_attrs(ref),
                  "%s: mlir-opt-22 prints another module:\n%s\n---\n%s" % (f, strip_attrs(printed), ref))
            # 2. Byte for byte: removing what attach wrote gives the input back.
            nl = b"\r\n" if b"\r\n" in raw else b"\n"
            pair = ("dlti.target_system_spec = " + spec).encode(), ("dlti.dl_spec = " + dl).encode()
            back = got
            for p in pair:
                back = back.replace(b", " + p, b"").replace(p + b", ", b"").replace(p, b"")
            if b" attributes {}" not in raw:
                back = back.replace(b" attributes {}", b"")
            if b") {} :" not in raw:  # a generic module's new dictionary
                back = back.replace(b") {} :", b") :")
            if b"existing" in f.encode():
                back = raw  # replaced in place: checked below through mlir-opt's print
            wrapped = b"module {" + nl
            if wrapped in back and wrapped not in raw:  # an implicit module made explicit
                i = back.index(wrapped)
                j = back.rindex(nl + b"}")
                back = back[:i] + back[i + len(wrapped):j] + back[j + len(nl) + 1:]
            check(back == raw, "%s: attach changed more than the attributes" % f)
            if nl == b"\r\n":
                check(got.count(b"\n") == got.count(b"\r\n"), "%s: a bare LF in a CRLF file" % f)
            # 3. Queries answer from the file what the spec says.
            for keys in (["CPU", "L1_cache_size_in_bytes"], ["NPU", "max_vector_op_width"]):
                a = sysdesc("query", out, *keys)
                b = sysdesc("query", SPEC, *keys)
                check(a[0] == 0 and a[1] == b[1], "%s: query %s: %r vs %r" % (f, keys, a, b))
            # ... and from standard input, which has no .mlir name to go by.
            r = run(SYSDESC, "query", "-", "CPU", "L1_cache_size_in_bytes", stdin=got)
            check(r.returncode == 0 and r.stdout == b"32768 : i64\n", "%s: query - : %r" % (f, r.stderr))
            # 4. Again: the same file, with a warning that it replaced.
            rc, again, err = sysdesc("attach", "--no-check", SPEC, out)
            check(rc == 0 and again.encode() == got and "replaced" in err,
                  "%s: attaching twice differs: %s" % (f, err))
            # 5. --pretty reads as the one-line form; mlir-opt accepts it.
            pout = os.path.join(tmp, "pretty-" + f)
            rc, _, err = sysdesc("attach", "--no-check", "--pretty", SPEC, src, "-o", pout)
            check(rc == 0 and b"\n    \"CPU\" = #dlti.target_device_spec<" in open(pout, "rb").read().replace(b"\r", b""),
                  "%s: --pretty: %s" % (f, err))
            check(mlir_opt(pout)[0] == 0, "%s: mlir-opt-22 rejects --pretty output" % f)
            check(sysdesc("fmt", "--skeleton", pout)[1] == sysdesc("fmt", "--skeleton", out)[1],
                  "%s: --pretty is not the one-line form after fmt" % f)
            # 6. --inherent-dlti: MLIR 22 rejects it; sysdesc reads it back.
            hout = os.path.join(tmp, "head-" + f)
            rc, _, err = sysdesc("attach", "--no-check", "--inherent-dlti", SPEC, src, "-o", hout)
            check(rc == 0 and b"dlti = #dlti.target_system_spec<" in open(hout, "rb").read(),
                  "%s: --inherent-dlti: %s" % (f, err))
            r = mlir_opt(hout)
            check(r[0] != 0 and "found: 'dlti'" in r[2], "%s: mlir-opt-22 accepted the inherent form" % f)
            check(sysdesc("fmt", "--skeleton", hout)[1] == sysdesc("fmt", "--skeleton", out)[1],
                  "%s: the inherent form reads to another module" % f)
            # 7. fmt refuses a file with other ops, and says what to use.
            rc, _, err = sysdesc("fmt", out)
            has_ops = sysdesc("fmt", "--skeleton", out)[1] != ref
            if has_ops:
                check(rc == 2 and "sysdesc attach" in err, "%s: fmt did not refuse: %s" % (f, err))

        # DLTI on ops answers from the attached file as from the input.
        src = os.path.join(DATA, "op_dlti.mlir")
        out = os.path.join(tmp, "op_dlti.mlir")
        for scope, keys, want in (("matmul", ["tile"], "64 : i32"), ("matmul/hint", ["tile"], "32 : i32"),
                                  ("head_form", ["tile"], "16 : i32"), ("kernels/k", ["warp"], "32 : i32"),
                                  ("kernels/k", ["unroll"], "4 : i32"), ("lf", ["vector"], "8 : i32"),
                                  ("region/inner", ["depth"], "2 : i32"), ("region", ["depth"], "1 : i32"),
                                  ("matmul", ["CPU", "L1_cache_size_in_bytes"], "32768 : i64")):
            a = sysdesc("query", "--scope", scope, out, *keys)
            b = sysdesc("query", "--scope", scope, src, *keys)
            check(a[0] == 0 and a[1].strip() == want and (b[1] == a[1] or keys[0] == "CPU"),
                  "op_dlti: query --scope %s %s: %r %r" % (scope, keys, a, b))

        # --merge: setDlti's rules on an existing spec (CPU replaced in place,
        # GPU kept, NPU appended); the data layout is replaced.
        src = os.path.join(DATA, "existing_spec.mlir")
        rc, merged, err = sysdesc("attach", "--no-check", "--merge", SPEC, src)
        check(rc == 0 and "merged" in err, "merge: %s" % err)
        m = os.path.join(tmp, "merged.mlir")
        open(m, "w").write(merged)
        check(mlir_opt(m)[0] == 0, "merge: mlir-opt-22 rejects the result")
        order = re.findall(r'"(CPU|GPU|NPU)" = #dlti.target_device_spec', merged)
        check(order == ["CPU", "GPU", "NPU"], "merge: device order %s" % order)
        check(sysdesc("query", m, "CPU", "L1_cache_size_in_bytes")[1] == "32768 : i64\n", "merge: CPU not replaced")
        check(sysdesc("query", m, "GPU", "max_shared_memory_per_block")[1] == "49152 : i64\n", "merge: GPU lost")
        check(sysdesc("query", m, "CPU", "num_cores")[1] == "8 : i64\n", "merge: CPU is not the new one")
        check("test.keep = 1 : i32" in merged, "merge: other attributes lost")

        # Nested DLTI still answers scoped queries after attach.
        out = os.path.join(tmp, "generic.mlir")
        rc, val, _ = sysdesc("query", "--scope", "inner/deepest", out, "CPU", "L1_cache_size_in_bytes")
        check(rc == 0 and val == "1024 : i32\n", "scoped query after attach: %r" % val)
        rc, val, _ = sysdesc("query", "--scope", "inner", out, "NPU", "max_vector_op_width")
        check(rc == 0 and val == "128 : i64\n", "outer device from a nested scope: %r" % val)

        # MLIR head's generic form keeps DLTI in the `dlti` property.  MLIR 22
        # drops a property it does not know without a word; sysdesc reads it,
        # and attach replaces it where it stands (a property stays `dlti`).
        hg = os.path.join(tmp, "head_generic.mlir")
        open(hg, "w").write('"builtin.module"() <{dlti = #dlti.target_system_spec<"CPU" = '
                            '#dlti.target_device_spec<"n" = 2>>, sym_name = "m"}> ({\n'
                            '  "func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "private"}> ({\n'
                            '  }) : () -> ()\n}) : () -> ()\n')
        r = mlir_opt(hg)
        check(r[0] == 0 and r[1].startswith("module @m {"), "mlir-opt-22 no longer drops the property")
        check(sysdesc("query", hg, "CPU", "n")[1] == "2 : i64\n", "the dlti property is not read")
        rc, got, err = sysdesc("attach", "--no-check", SPEC, hg)
        check(rc == 0 and got.startswith('"builtin.module"() <{dlti = #dlti.target_system_spec<"CPU" = '
                                         '#dlti.target_device_spec<"device_type" = "CPU"')
              and "replaced" in err and ") {dlti.dl_spec = #dlti.dl_spec<" in got,
              "attach to a dlti property: %s %s" % (got[:120], err))

        # Errors: a bare attribute, a DLTI attribute inside another op, no ops.
        bare = os.path.join(tmp, "bare.mlir")
        open(bare, "w").write("#dlti.map<\"a\" = 1>\n")
        rc, _, err = sysdesc("attach", "--no-check", SPEC, bare)
        check(rc == 2 and "bare attribute" in err, "attach to a bare attribute: %s" % err)
        bad = os.path.join(tmp, "bad.mlir")
        open(bad, "w").write("module {\n  foo.op attributes {x.y = #dlti.map<\"a\" = 1>}\n}\n")
        rc, _, err = sysdesc("attach", "--no-check", SPEC, bad)
        check(rc == 2 and "bad.mlir:2:28: error: a DLTI attribute inside operation 'foo.op'" in err,
              "a DLTI attribute in an op sysdesc cannot read: %s" % err)
        # A DLTI attribute on a function stays where it is: the
        # spec goes on the module, and the function still answers.
        fn = os.path.join(tmp, "fn.mlir")
        fn_text = ("module {\n  func.func private @f() attributes {x.y = #dlti.map<\"a\" = 1>}\n}\n")
        open(fn, "w").write(fn_text)
        fn_out = os.path.join(tmp, "fn_out.mlir")
        rc, _, err = sysdesc("attach", "--no-check", SPEC, fn, "-o", fn_out)
        check(rc == 0 and mlir_opt(fn_out)[0] == 0 and
              'func.func private @f() attributes {x.y = #dlti.map<"a" = 1>}' in open(fn_out).read(),
              "attach to a file with a DLTI attribute on a func: %s" % err)
        rc, got, err = sysdesc("query", "--scope", "f", fn_out, "a")
        check(rc == 0 and got.strip() == "1 : i64", "query the func after attach: %r %s" % (got, err))
        # -o onto the input itself is atomic and leaves a readable file.
        inplace = os.path.join(tmp, "inplace.mlir")
        shutil.copy(os.path.join(DATA, "func_gpu.mlir"), inplace)
        rc, _, err = sysdesc("attach", "--no-check", SPEC, inplace, "-o", inplace)
        check(rc == 0 and mlir_opt(inplace)[0] == 0, "attach -o IN: %s" % err)
        # layout from a real file equals mlir-opt-22's data layout queries.
        out = os.path.join(tmp, "layout_query.mlir")
        r = run(MLIR_OPT, "--allow-unregistered-dialect", "--test-data-layout-query", out)
        answers = re.findall(r'"test.data_layout_query"\(\) \{alignment = (\d+) : index, .*'
                             r'bitsize = (\d+) : index, .* index = (\d+) : index, .*'
                             r'preferred = (\d+) : index, .*size = (\d+) : index, .*\} : \(\) -> (.*)$',
                             r.stdout.decode(), re.M)
        check(r.returncode == 0 and len(answers) == 5, "layout: mlir-opt-22: %s" % r.stderr.decode())
        for align, bits, index, pref, size, ty in answers:
            rc, got, err = sysdesc("layout", out, ty)
            want = "%s: size = %s, bitsize = %s, alignment = %s, preferred = %s, index = %s\n" % (
                ty, size, bits, align, pref, index)
            check(rc == 0 and got == want, "layout %s: %r, mlir-opt-22: %r" % (ty, got, want))

        # convert (and so probe and compose: one printer) --pretty / --inherent-dlti.
        plain = sysdesc("convert", "--no-check", SPEC)[1]
        for fmt_name, extra in (("mlir", []), ("attr", ["--to", "attr"])):
            rc, pretty, err = sysdesc("convert", "--no-check", "--pretty", *extra, SPEC)
            p = os.path.join(tmp, "pretty." + fmt_name)
            open(p, "w").write(pretty)
            want = sysdesc("convert", "--no-check", *extra, SPEC)[1]
            check(rc == 0 and pretty.count("\n") > 5, "convert --pretty %s: %s" % (fmt_name, err))
            check(sysdesc("fmt", p)[1] == want, "convert --pretty %s: fmt differs" % fmt_name)
            if fmt_name == "mlir":
                check(mlir_opt(p)[0] == 0, "convert --pretty: mlir-opt-22 rejects it")
        rc, head, err = sysdesc("convert", "--no-check", "--inherent-dlti", SPEC)
        p = os.path.join(tmp, "head.mlir")
        open(p, "w").write(head)
        check(rc == 0 and "{dlti = #dlti.target_system_spec<" in head and "dlti.dl_spec = " in head,
              "convert --inherent-dlti: %s" % head[:200])
        check(mlir_opt(p)[0] != 0, "mlir-opt-22 accepted convert --inherent-dlti")
        check(sysdesc("fmt", p)[1] == plain, "convert --inherent-dlti does not read back")
        check(sysdesc("fmt", "--inherent-dlti", p)[1] == head, "fmt --inherent-dlti differs from convert's")
    print("%d checks, %d failed" % (checks, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
