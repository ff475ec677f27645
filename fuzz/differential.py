#!/usr/bin/env python3
"""Differential fuzzing of sysdesc against MLIR 22 itself, out of process.

Two generators, structure-aware, seeded and reproducible:
  mlir  modules carrying DLTI attributes (every attribute kind sysdesc models:
        nested #dlti.map / target_device_spec / target_system_spec / dl_spec,
        integers of every width and signedness at their limits, floats of
        every format with special values, strings with escapes and UTF-8,
        arrays, dense arrays and elements, types as keys and values, symbol
        references, locations, nested and named modules), each valid one also
        mutated at the token level into likely-invalid variants;
        judged by `sysdesc fmt` against `mlir-opt-22`: both accept and print
        the same bytes, or both reject.
  dl    LLVM data layout strings (valid components in random combinations,
        then mutated), judged by `sysdesc dl-import` against
        `mlir-translate-22 --import-llvm`: both refuse, or both give the same
        #dlti.dl_spec; and sysdesc's own round trip import -> export -> import
        keeps every entry.

Every new disagreement is kept under fuzz/findings/differential/ with a header
naming the verdict of each side.  Once fixed, an input moves to
fuzz/regressions/differential/, where tests/dlti/differential_replay.py
requires sysdesc and MLIR to agree on it from then on.

  fuzz/differential.py [--seconds N] [--seed S] [--kind mlir|dl|both] [--keep DIR]
Environment: SYSDESC (default build/cli/sysdesc), MLIR_OPT, MLIR_TRANSLATE.
"""
import argparse
import hashlib
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.dirname(HERE)
SYSDESC = os.environ.get("SYSDESC", os.path.join(SRCDIR, "build", "cli", "sysdesc"))
MLIR_OPT = os.environ.get("MLIR_OPT", "mlir-opt-22")
MLIR_TRANSLATE = os.environ.get("MLIR_TRANSLATE", "mlir-translate-22")
TIMEOUT = 20


# ---------------------------------------------------------------- generators

INT_TYPES = ["i1", "i8", "i16", "i32", "i64", "i128", "si8", "ui8", "si32", "ui32", "ui64",
             "si64", "index", "i3", "i65"]
FLOAT_TYPES = ["f16", "bf16", "f32", "f64", "f80", "f128", "tf32", "f8E4M3FN", "f8E5M2",
               "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ", "f8E3M4", "f8E4M3", "f8E8M0FNU",
               "f6E2M3FN", "f6E3M2FN", "f4E2M1FN"]
TYPES = INT_TYPES + FLOAT_TYPES + [
    "none", "vector<4xf32>", "vector<2x3xi8>", "vector<[4]xf32>", "tensor<2xi32>",
    "tensor<?xf64>", "memref<4xi8>", "memref<?x4xf32, 3>", "complex<f32>", "tuple<i32, f32>",
    "!llvm.ptr", "!llvm.ptr<1>", "!llvm.ptr<271>", "!llvm.ptr<999999999>", "!llvm.ptr<4294967295>",
    "vector<9223372036854775807xi8>", "!llvm.struct<(i32, f64)>", "!llvm.array<4 x i8>",
    "(i32) -> f32", "!foo.bar", "!foo<\"x\">"]


def int_value(r, t):
    width = {"i1": 1, "index": 64}.get(t)
    if width is None:
        width = int("".join(c for c in t if c.isdigit()))
    signed = not t.startswith("ui")
    lo = -(1 << (width - 1)) if signed else 0
    hi = (1 << (width - 1)) - 1 if signed else (1 << width) - 1
    if t.startswith("i") and t != "index":
        lo = -(1 << (width - 1))  # signless: MLIR accepts both ranges
        hi = (1 << width) - 1
    if t == "i1":
        return r.choice(["true", "false", "1", "0", "-1"])
    pick = r.random()
    if pick < 0.3:
        v = r.choice([lo, hi, 0, 1, -1, lo - 1, hi + 1])
    else:
        v = r.randint(lo, hi)
    if r.random() < 0.1:
        return hex(v) if v >= 0 else "-" + hex(-v)
    return str(v)


def float_value(r):
    return r.choice(["0.0", "-0.0", "1.0", "1.5", "3.14159", "1.0e10", "-2.5e-3", "6.5e4",
                     "1.0e38", "3.4e38", "1.0e308", "1.7976931348623157e308", "4.9e-324",
                     "0x7FC00000", "0x7F800000", "0xFF800000", "0x7E00", "0x7C00", "0xFC00",
                     "0x7FF8000000000000", "0x7FF0000000000000", "0x00", "0xFF", "0x7F",
                     "1.0e-45", "2", "-7", "0.1", "448.0", "57344.0", "1.0e5", "0x80"])


def string_value(r):
    parts = []
    for _ in range(r.randint(0, 6)):
        parts.append(r.choice(["a", "key", " ", "\\n", "\\t", "\\22", "\\\\", "\\00", "\\7F",
                               "\\ff", "\u00e9", "\u2028", "\u0085", "\U0001F600", "#", ":",
                               "<", ">", "\\\"", "x" * r.choice([1, 50, 300]), "'", "{", "%"]))
    return '"' + "".join(parts) + '"'


def key(r):
    if r.random() < 0.85:
        return r.choice(['"CPU"', '"GPU"', '"cache"', '"L1"', '"size_in_bytes"', '"k"',
                         '"num_cores"', '"a.b"', '""', '"dlti.x"', '"vendor"']) if r.random() < 0.6 \
            else string_value(r)
    return r.choice(TYPES)  # a type key (valid only in some places, per MLIR)


def value(r, depth):
    c = r.random()
    if depth > 0 and c < 0.18:
        return dlti_map(r, depth - 1)
    if c < 0.35:
        t = r.choice(INT_TYPES)
        return "%s : %s" % (int_value(r, t), t) if r.random() < 0.8 else int_value(r, "i64")
    if c < 0.48:
        t = r.choice(FLOAT_TYPES)
        return "%s : %s" % (float_value(r), t)
    if c < 0.58:
        return string_value(r)
    if c < 0.63:
        return r.choice(["true", "false", "unit"])
    if c < 0.70:
        t = r.choice(["i8", "i16", "i32", "i64", "f32", "f64", "i1"])
        n = r.choice([0, 1, 2, 5])
        vals = ", ".join(float_value(r) if t[0] == "f" else int_value(r, t) for _ in range(n))
        return "array<%s%s>" % (t, (": " + vals) if n else "")
    if c < 0.78:
        t = r.choice(["i32", "i64", "f32", "i8", "i1"])
        shape = r.choice(["2", "4", "2x2", "0", "9223372036854775807", "3"])
        if r.random() < 0.5:
            v = float_value(r) if t[0] == "f" else int_value(r, t)
            return "dense<%s> : %s<%sx%s>" % (v, r.choice(["tensor", "vector"]), shape, t)
        if r.random() < 0.3:
            return 'dense<"0x%s"> : tensor<%sx%s>' % (
                "".join(r.choice("0123456789ABCDEF") for _ in range(r.choice([8, 16, 7]))),
                shape, t)
        return "dense<[%s, %s]> : tensor<2x%s>" % (
            int_value(r, "i8") if t[0] != "f" else "1.0",
            int_value(r, "i8") if t[0] != "f" else "2.5", t)
    if c < 0.85:
        return r.choice(TYPES)
    if c < 0.90:
        return "[%s]" % ", ".join(value(r, 0) for _ in range(r.randint(0, 3)))
    if c < 0.94:
        return r.choice(["@sym", "@a::@b", "@\"quoted sym\"", "@a::@b::@c"])
    if c < 0.97:
        return r.choice(["{}", '{a = 1 : i32, b = "x"}', "{k}", "#foo.bar<1>", 'loc("f":1:2)'])
    return r.choice(["affine_map<(d0) -> (d0)>", "#dlti.dl_entry<\"k\", 1 : i32>",
                     "strided<[1]>", "1 : i64 loc(unknown)"])


def entries(r, depth, n, sep=", "):
    return sep.join("%s = %s" % (key(r), value(r, depth)) for _ in range(n))


def dlti_map(r, depth):
    return "#dlti.map<%s>" % entries(r, depth, r.randint(0, 4))


def device_spec(r, depth):
    return "#dlti.target_device_spec<%s>" % entries(r, depth, r.randint(0, 5))


def system_spec(r):
    devs = []
    for _ in range(r.randint(0, 3)):
        k = r.choice(['"CPU"', '"GPU"', '"GPU0"', '"node1.GPU3"', '""', string_value(r)])
        if r.random() < 0.08:
            k = r.choice(TYPES)
        devs.append("%s = %s" % (k, device_spec(r, 2)))
    return "#dlti.target_system_spec<%s>" % ", ".join(devs)


DL_ENTRIES = [
    '"dlti.endianness" = "little"', '"dlti.endianness" = "big"',
    '"dlti.stack_alignment" = 128 : i64', '"dlti.alloca_memory_space" = 5 : ui64',
    '"dlti.program_memory_space" = 1 : ui64', '"dlti.global_memory_space" = 1 : ui64',
    '"dlti.mangling_mode" = "e"', '"dlti.function_pointer_alignment" = #dlti.function_pointer_alignment<32, function_dependent = true>',
    'i64 = dense<64> : vector<2xi64>', 'i32 = dense<32> : vector<2xi64>',
    'f80 = dense<128> : vector<2xi64>', '!llvm.ptr = dense<64> : vector<4xi64>',
    '!llvm.ptr<270> = dense<32> : vector<4xi64>', 'index = 32 : i64',
    'i128 = dense<128> : vector<2xi64>', '"dlti.legal_int_widths" = array<i32: 8, 16, 32, 64>',
]


def dl_spec(r):
    return "#dlti.dl_spec<%s>" % ", ".join(r.sample(DL_ENTRIES, r.randint(0, 5)))


def module(r, depth=0):
    attrs = []
    if r.random() < 0.8:
        attrs.append("dlti.target_system_spec = " + system_spec(r))
    if r.random() < 0.4:
        attrs.append("dlti.dl_spec = " + dl_spec(r))
    if r.random() < 0.15:
        attrs.append("%s = %s" % (r.choice(["dlti.map", "test.attr", "x"]), dlti_map(r, 1)))
    body = ""
    if depth < 2 and r.random() < 0.2:
        body = "\n".join("  " + module(r, depth + 1) for _ in range(r.randint(1, 2)))
    name = r.choice(["", "", "@m ", "@a ", "@\"q m\" "])
    attr_text = ("attributes {%s} " % ", ".join(attrs)) if attrs else ""
    trailer = " loc(\"x.mlir\":1:1)" if r.random() < 0.05 else ""
    return "module %s%s{\n%s\n}%s" % (name, attr_text, body, trailer)


TOKENS = ["<", ">", ",", "=", ":", "\"", "#dlti.map<", "#dlti.map<>", "i64", "-", "0x",
          "dense<", "array<", "@", "::", "{", "}", "[", "]", "loc(unknown)", "\\", "e", "."]


def mutate(r, text):
    t = list(text)
    for _ in range(r.randint(1, 3)):
        op = r.random()
        i = r.randrange(len(t) + 1)
        if op < 0.4 and t:
            del t[min(i, len(t) - 1)]
        elif op < 0.8:
            t.insert(i, r.choice(TOKENS))
        elif t:
            j = r.randrange(len(t))
            t[min(i, len(t) - 1)], t[j] = t[j], t[min(i, len(t) - 1)]
    return "".join(t)


DL_PARTS = ["e", "E", "m:e", "m:o", "m:w", "m:x", "m:l", "m:a", "p:64:64", "p:32:32",
            "p270:32:32:32:64", "p271:32:32", "p272:64:64:64:64", "p1:64:64:64:32", "i64:64",
            "i128:128", "i8:8:32", "i16:16:32", "i1:8", "f80:128", "f16:16", "f128:128",
            "v128:128", "v64:64", "a:0:64", "n8:16:32:64", "n32:64", "S128", "S64", "S0", "A5",
            "P1", "G1", "Fi8", "Fn32", "ni:1:2", "i64:32:64", "p0:64:64:64", "i32:32",
            "p3:32:32", "v16:16", "i24:32", "f64:64", "i7:8", "p16777215:64:64",
            "i16777215:64", "i64:128:64", "v3:4", "a0:8", "p:64:65", "Fi0", "n0", "S3",
            "p8:128:128:128:48", "p7:160:256:256:32", "e-p:0:0", "i64:8192", "i64:65536"]


def dl_string(r):
    s = "-".join(r.choice(DL_PARTS) for _ in range(r.randint(0, 14)))
    if r.random() < 0.3:
        s = mutate(r, s) if s else s
    return s


# ---------------------------------------------------------------- judges

def run(cmd, stdin=None):
    try:
        p = subprocess.run(cmd, capture_output=True, input=stdin, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


# How sysdesc says plainly that a construct is outside what it models (an
# honest refusal, not a disagreement): docs/mlir-syntax.md lists them.
PLAIN_REFUSALS = (b"not supported", b"unsupported", b"only one top-level 'module' is supported")


def judge_mlir(tmp, text):
    """None when sysdesc and mlir-opt-22 agree; else (verdict, details)."""
    path = os.path.join(tmp, "case.mlir")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    rc_m, out_m, err_m = run([MLIR_OPT, "--allow-unregistered-dialect", path])
    rc_s, out_s, err_s = run([SYSDESC, "fmt", path])
    if rc_s not in (0, 1, 2, 3):
        return ("sysdesc crashed or hung (exit %s)" % rc_s, err_s)
    m_ok, s_ok = rc_m == 0, rc_s == 0
    if m_ok and s_ok:
        if out_m == out_s:
            return None
        # sysdesc fmt only prints modules carrying DLTI: nothing else to compare.
        return ("both accept; the prints differ", b"mlir-opt-22:\n" + out_m + b"\nsysdesc:\n" + out_s)
    if not m_ok and not s_ok:
        return None
    if m_ok:
        # sysdesc refuses what MLIR accepts: a disagreement unless sysdesc
        # says plainly that the construct is outside what it models.
        if rc_s == 2 and any(w in err_s for w in PLAIN_REFUSALS):
            return None
        if rc_s == 2 and b"no #dlti.target_system_spec" in err_s:
            return None
        return ("mlir-opt-22 accepts, sysdesc refuses", err_s)
    return ("mlir-opt-22 rejects, sysdesc accepts", err_m)


def extract_dl_spec(text):
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


def judge_dl(tmp, s):
    path = os.path.join(tmp, "case.ll")
    with open(path, "w") as f:
        f.write('target datalayout = "%s"\n' % s)
    rc_m, out_m, err_m = run([MLIR_TRANSLATE, "--import-llvm", path])
    m_ok = rc_m == 0 and b"error" not in err_m
    rc_s, out_s, err_s = run([SYSDESC, "dl-import", s])
    if rc_s not in (0, 1, 2, 3):
        return ("sysdesc crashed or hung (exit %s)" % rc_s, err_s)
    s_ok = rc_s == 0
    if m_ok != s_ok:
        if m_ok:
            return ("LLVM/MLIR accept, sysdesc refuses", err_s)
        return ("LLVM/MLIR reject, sysdesc accepts", err_m)
    if not m_ok:
        return None
    ref = extract_dl_spec(out_m.decode("utf-8", "replace"))
    got = extract_dl_spec(out_s.decode("utf-8", "replace"))
    if ref != got:
        return ("both accept; the dl_specs differ",
                ("mlir-translate-22: %s\nsysdesc: %s" % (ref, got)).encode())
    # sysdesc's own round trip keeps every entry.
    rc_e, out_e, _ = run([SYSDESC, "dl-export", "-"], stdin=out_s)
    if rc_e != 0:
        return ("dl-export refuses what dl-import printed", out_s)
    exported = out_e.decode().strip()
    rc_2, out_2, _ = run([SYSDESC, "dl-import", exported])
    if rc_2 != 0 or extract_dl_spec(out_2.decode("utf-8", "replace")) != got:
        return ("import -> export -> import changed the layout",
                ("exported: %s" % exported).encode())
    rc_l, _, err_l = run([MLIR_TRANSLATE, "--import-llvm", "-"],
                         stdin=('target datalayout = "%s"\n' % exported).encode())
    if rc_l != 0 or b"error" in err_l:
        return ("dl-export prints a string LLVM refuses", ("exported: %s\n" % exported).encode() + err_l)
    return None


# ---------------------------------------------------------------- driver

def keep(dirpath, kind, text, verdict, details):
    os.makedirs(dirpath, exist_ok=True)
    digest = hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    ext = "mlir" if kind == "mlir" else "dl"
    path = os.path.join(dirpath, "%s-%s.%s" % (kind, digest, ext))
    detail = details.decode("utf-8", "replace").strip().splitlines()[:6]
    comment = "//" if kind == "mlir" else "#"
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("%s verdict: %s\n" % (comment, verdict))
        for line in detail:
            f.write("%s   %s\n" % (comment, line[:300]))
        f.write(text if kind == "mlir" else text + "\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--kind", choices=["mlir", "dl", "both"], default="both")
    ap.add_argument("--keep", default=os.path.join(HERE, "findings", "differential"))
    args = ap.parse_args()
    for tool in (MLIR_OPT, MLIR_TRANSLATE):
        if subprocess.run(["sh", "-c", "command -v " + tool], capture_output=True).returncode:
            print("SKIP: %s not found" % tool)
            return 77
    seed = args.seed if args.seed is not None else int(time.time())
    r = random.Random(seed)
    end = time.time() + args.seconds
    counts = {"mlir": 0, "dl": 0}
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        while time.time() < end:
            kind = args.kind if args.kind != "both" else r.choice(["mlir", "mlir", "dl"])
            if kind == "mlir":
                text = module(r)
                if r.random() < 0.5:
                    text = mutate(r, text)
                res = judge_mlir(tmp, text)
            else:
                text = dl_string(r)
                res = judge_dl(tmp, text)
            counts[kind] += 1
            if res:
                verdict, details = res
                # One kept input per kind of verdict and first detail line: the
                # rest are the same disagreement again.
                first = details.decode("utf-8", "replace").split("\n")[0]
                sig = (kind, verdict, first.split("error: ", 1)[-1][:80])
                if sig not in found:
                    found[sig] = keep(args.keep, kind, text, verdict, details)
    print("seed %d: %d MLIR modules, %d data layout strings; %d distinct disagreements"
          % (seed, counts["mlir"], counts["dl"], len(found)))
    for sig, path in sorted(found.items()):
        print("  %s: %s  (%s)" % (sig[0], sig[1], os.path.relpath(path, SRCDIR)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
