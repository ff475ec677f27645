#!/usr/bin/env python3
"""Issue 13, classes "signal" and "silent data loss": everything sysdesc
writes is something sysdesc reads back as itself, or it refuses with a
message and exit 2.  Generated cases:

* depth: key paths given to `probe --set` from far below to far above the
  depth limit (1000), and bare MLIR values (maps, arrays, dense literals,
  types) at the limit; each accepted one printed as mlir, attr, yaml and json
  and read back equal; each refused one exit 2 naming the limit, never a
  signal.
* strings: keys and values that YAML or JSON readers treat specially (long
  keys past libyaml's 1024-character simple keys, U+0085, U+2028, U+2029,
  U+FEFF, bytes that are not UTF-8, surrogates, control bytes, YAML's
  reserved words and indicators); each converted to yaml and json and read
  back equal, or refused with exit 2 ("cannot hold").
JSON is written typed (--typed) and read back equal, as every other
format: plain JSON does not keep MLIR's types (docs/yaml.md, "JSON"), so
sysdesc refuses to read it (exit 2, "plain JSON is not read"), which the
depth cases check too.
"""
import os
import subprocess
import sys
import tempfile

SYSDESC = os.environ.get("SYSDESC", "sysdesc")
XML = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "xml", "gpu.xml")
FORMATS = ["mlir", "attr", "yaml", "json"]
# Under a sanitizer (scripts/test-all) the depths either side of the limit
# only: the same code as the depths between, at ten times the cost; the
# normal build runs every one.
SANITIZED = os.environ.get("SYSDESC_TEST_SANITIZE", "none") != "none"
failures = 0
checks = 0


def run(*args):
    p = subprocess.run([SYSDESC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def bad(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


def readback(path, fmt, want, what):
    """`path` (printed as fmt; json: typed) must read back to the attr text
    `want`."""
    global checks
    checks += 1
    rc, out, err = run("convert", "--no-check", path, "--format", "attr")
    if rc != 0:
        bad(f"{what}: {fmt} output does not read back: exit {rc}: {err.strip()[:300]}")
    elif out != want:
        bad(f"{what}: {fmt} output reads back changed")


def typed(fmt):
    """The options that print `fmt` as sysdesc reads it back: JSON typed."""
    return ["--typed"] if fmt == "json" else []


def plain_json_refused(path, what):
    """Plain JSON is never read: exit 2 with the hint."""
    global checks
    checks += 1
    rc, out, err = run("convert", "--no-check", path, "--format", "attr")
    if rc != 2 or "plain JSON is not read" not in err or "--typed" not in err:
        bad(f"{what}: plain JSON: exit {rc}, not refused with the hint: {err.strip()[:200]}")


def signal_free(rc, err, what):
    if rc < 0 or rc > 3:
        bad(f"{what}: exit {rc} (a signal?) {err[:200]}")
        return False
    return True


def depth_cases(tmp):
    for n in ([10, 995, 1000, 30000] if SANITIZED else
              [10, 100, 500, 990, 993, 994, 995, 996, 997, 1000, 1500, 30000]):
        path = "CPU.extra." + ".".join(["a"] * n)
        what = f"probe --set path of {n} keys"
        rc, attr, err = run("probe", "--xml", XML, "--set", path + "=1", "--format", "attr")
        if not signal_free(rc, err, what):
            continue
        if rc != 0:
            if rc != 2 or "limit of 1000" not in err:
                bad(f"{what}: exit {rc}, message lacks the limit: {err[:200]}")
            continue
        for fmt in FORMATS:
            rc, out, err = run("probe", "--xml", XML, "--set", path + "=1", "--format", fmt,
                               *typed(fmt))
            f = os.path.join(tmp, f"deep{n}.{fmt}")
            with open(f, "wb") as fh:
                fh.write(out)
            if rc == 0:
                readback(f, fmt, attr, f"{what} as {fmt}")
            elif rc != 2 or "cannot hold" not in err:
                bad(f"{what}: attr printed but {fmt} exit {rc}: {err[:200]}")
        rc, out, err = run("probe", "--xml", XML, "--set", path + "=1", "--format", "json")
        f = os.path.join(tmp, f"deep{n}.plain.json")
        with open(f, "wb") as fh:
            fh.write(out)
        if rc == 0:
            plain_json_refused(f, what)
    # bare MLIR values around the limit: whatever fmt accepts it prints, and
    # the print reads back (also inside a module, and as YAML and JSON)
    shapes = {
        "map": ('#dlti.map<"a" = ', "1", ">"),
        "array": ("[", "1", "]"),
        "type": ("#dlti.map<\"a\" = ", "tuple<" * 5 + "i32" + ">" * 5, ">"),
    }
    for name, (o, core, c) in shapes.items():
        for n in [995, 999] if SANITIZED else [990, 993, 994, 995, 996, 997, 998, 999]:
            text = ('#dlti.target_system_spec<"D" = #dlti.target_device_spec<"k" = '
                    + o * n + core + c * n + ">>")
            f = os.path.join(tmp, f"bare_{name}{n}.mlir")
            with open(f, "w") as fh:
                fh.write(text)
            what = f"{name} nested {n} deep"
            rc, attr, err = run("convert", "--no-check", f, "--format", "attr")
            if not signal_free(rc, err, what):
                continue
            if rc != 0:
                if rc != 2 or "limit of 1000" not in err:
                    bad(f"{what}: exit {rc}: {err[:200]}")
                continue
            for fmt in FORMATS:
                rc, out, err = run("convert", "--no-check", f, "--format", fmt, *typed(fmt))
                g = os.path.join(tmp, f"bare_{name}{n}.out.{fmt}")
                with open(g, "wb") as fh:
                    fh.write(out)
                if rc == 0:
                    readback(g, fmt, attr, f"{what} as {fmt}")
                elif rc != 2 or "cannot hold" not in err:
                    bad(f"{what}: {fmt} exit {rc}: {err[:200]}")


def mlir_string(b):
    out = '"'
    for x in b:
        if 0x20 <= x < 0x7f and x not in (0x22, 0x5c):
            out += chr(x)
        else:
            out += "\\%02X" % x
    return out + '"'


STRINGS = [
    b"plain", b"with space", b"x" * 600, b"x" * 1100, b"k" * 5000, ("ü" * 700).encode(),
    "a\u0085b".encode(), "a\u2028b".encode(), "a\u2029b".encode(), "\ufeffbom".encode(),
    b"\xff", b"a\xfeb", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe0\x80\x80",
    b"\x01\x1f\x7f", b"tab\there", b"line\nbreak", b"cr\rcr", b"quote\"s", b"back\\slash",
    b"'single'", b"base", b"data_layout", b"true", b"null", b"~", b"1e3", b"0x10", b"-",
    b"? q", b": c", b"# h", b"&anchor", b"*alias", b"!tag", b"%pct", b"@at", b"`tick",
    b" lead", b"trail ", b"{flow}", b"[seq]", b"a: b", b"a #b", b"-1", b".nan", b".inf",
]


def string_cases(tmp):
    for i, s in enumerate(STRINGS):
        for role in ["key", "value"]:
            entry = f"{mlir_string(s)} = 1" if role == "key" else f'"v" = {mlir_string(s)}'
            text = f'#dlti.target_system_spec<"D" = #dlti.target_device_spec<"extra" = #dlti.map<{entry}>>>'
            f = os.path.join(tmp, f"s{i}{role}.mlir")
            with open(f, "w") as fh:
                fh.write(text)
            rc, attr, err = run("convert", "--no-check", f, "--format", "attr")
            if rc != 0:
                bad(f"string {s[:20]!r} as {role}: MLIR does not read: {err[:200]}")
                continue
            for fmt in ["yaml", "json"]:
                rc, out, err = run("convert", "--no-check", f, "--format", fmt, *typed(fmt))
                what = f"string {s[:20]!r} ({len(s)} bytes) as {role} in {fmt}"
                if not signal_free(rc, err, what):
                    continue
                if rc != 0:
                    if rc != 2 or "cannot hold" not in err:
                        bad(f"{what}: exit {rc}: {err[:200]}")
                    continue
                g = os.path.join(tmp, f"s{i}{role}.{fmt}")
                with open(g, "wb") as fh:
                    fh.write(out)
                readback(g, fmt, attr, what)
        # a device id too
        text = f'#dlti.target_system_spec<{mlir_string(s)} = #dlti.target_device_spec<"k" = 1>>'
        f = os.path.join(tmp, f"s{i}dev.mlir")
        with open(f, "w") as fh:
            fh.write(text)
        rc, attr, err = run("convert", "--no-check", f, "--format", "attr")
        if rc != 0:
            continue
        for fmt in ["yaml", "json"]:
            rc, out, err = run("convert", "--no-check", f, "--format", fmt, *typed(fmt))
            what = f"device id {s[:20]!r} in {fmt}"
            if rc != 0:
                if rc != 2 or "cannot hold" not in err:
                    bad(f"{what}: exit {rc}: {err[:200]}")
                continue
            g = os.path.join(tmp, f"s{i}dev.{fmt}")
            with open(g, "wb") as fh:
                fh.write(out)
            readback(g, fmt, attr, what)


NARROW = {"f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8,
          "f8E4M3B11FNUZ": 8, "f8E3M4": 8, "f8E8M0FNU": 8, "f6E2M3FN": 6, "f6E3M2FN": 6,
          "f4E2M1FN": 4}


def float_cases(tmp):
    """Every bit pattern of every narrow float type (NaNs, infinities,
    negative zeros, the largest values) through YAML and typed JSON and
    back, equal."""
    for kind, width in NARROW.items():
        entries = ", ".join('"p%d" = 0x%X : %s' % (p, p, kind) for p in range(1 << width))
        f = os.path.join(tmp, f"{kind}.mlir")
        with open(f, "w") as fh:
            fh.write(f'#dlti.target_system_spec<"D" = #dlti.target_device_spec<{entries}>>')
        rc, attr, err = run("convert", "--no-check", f, "--format", "attr")
        if rc != 0:
            bad(f"{kind}: MLIR does not read its patterns: {err[:200]}")
            continue
        for fmt in ["yaml", "json"]:
            rc, out, err = run("convert", "--no-check", f, "--format", fmt, *typed(fmt))
            g = os.path.join(tmp, f"{kind}.{fmt}")
            with open(g, "wb") as fh:
                fh.write(out)
            if rc != 0:
                bad(f"{kind}: {fmt} exit {rc}: {err[:200]}")
            else:
                readback(g, fmt, attr, f"{kind} bit patterns")


with tempfile.TemporaryDirectory() as tmp:
    float_cases(tmp)
    depth_cases(tmp)
    string_cases(tmp)
print(f"{checks} read-backs, {failures} failures")
sys.exit(1 if failures else 0)
