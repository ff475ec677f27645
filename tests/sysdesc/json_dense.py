#!/usr/bin/env python3
"""Dense arrays (array<i64: 4096, 8192>) in JSON and YAML output.

JSON: python's json module reads them as lists of numbers (ints, floats,
bools for i1; NaN and infinities as None), not as MLIR text; --typed keeps
the type as {"type": "array<i64>", "value": [...]} (NaN and infinities as
their MLIR literals, "0x7FC00000").  YAML and typed JSON: the output reads
back to the identical spec (the MLIR printed from it is the same).  Both for
a probed topology (memory.numa_node_size_in_bytes) and for a description
with dense arrays of many element types.
Environment: SYSDESC (the tool), SRCDIR (the source tree)."""
import json
import math
import os
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
os.environ["SYSDESC_PATH"] = os.path.join(SRCDIR, "systems")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def sysdesc(*args):
    r = subprocess.run([SYSDESC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, text=True)
    check(r.returncode == 0, f"sysdesc {' '.join(args)}: exit {r.returncode}: {r.stderr}")
    return r.stdout


def same(a, b):
    """Equal, with floats compared by value and NaN-free; types must match."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


SPEC = """module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = \
#dlti.target_device_spec<"device_type" = "CPU", "memory" = #dlti.map<\
"numa_node_size_in_bytes" = array<i64: 1073741824, 2147483648>, \
"page_sizes_in_bytes" = array<i64: 4096, 2097152>>, "extra" = #dlti.map<\
"i64" = array<i64: -9223372036854775808, 9223372036854775807>, "i32" = array<i32: -1, 7>, \
"i8" = array<i8: -128, 127>, "i1" = array<i1: true, false>, \
"u64" = array<ui64: 18446744073709551615>, "empty" = array<i64>, \
"f32" = array<f32: 1.5, 0x7FC00000, 0x7F800000, 0xFF800000, -0.0>, \
"f64" = array<f64: 0.1, 1.0e300>, "bf16" = array<bf16: 3.0>, "list" = [1, 2]>>>} {}
"""
WANT = {
    "i64": ("array<i64>", [-9223372036854775808, 9223372036854775807]),
    "i32": ("array<i32>", [-1, 7]),
    "i8": ("array<i8>", [-128, 127]),
    "i1": ("array<i1>", [True, False]),
    "u64": ("array<ui64>", [18446744073709551615]),
    "empty": ("array<i64>", []),
    "f32": ("array<f32>", [1.5, None, None, None, -0.0]),
    "f64": ("array<f64>", [0.1, 1e300]),
    "bf16": ("array<bf16>", [3.0]),
}

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "dense.mlir")
    with open(path, "w") as f:
        f.write(SPEC)

    plain = json.loads(sysdesc("convert", "--to", "json", path))
    cpu = plain["CPU"]
    check(same(cpu["memory"]["numa_node_size_in_bytes"], [1073741824, 2147483648]),
          f"numa_node_size_in_bytes: {cpu['memory']['numa_node_size_in_bytes']!r}")
    check(same(cpu["memory"]["page_sizes_in_bytes"], [4096, 2097152]), "page_sizes_in_bytes")
    for key, (_, values) in WANT.items():
        check(same(cpu["extra"][key], values),
              f"extra.{key}: {cpu['extra'][key]!r}, expected {values!r}")
    check(same(cpu["extra"]["list"], [1, 2]), "an array of i64 is a list too")

    typed_text = sysdesc("convert", "--to", "json", "--typed", path)
    typed = json.loads(typed_text)["CPU"]
    check(typed["memory"]["numa_node_size_in_bytes"] ==
          {"type": "array<i64>", "value": [1073741824, 2147483648]},
          f"--typed numa_node_size_in_bytes: {typed['memory']['numa_node_size_in_bytes']!r}")
    # --typed is read back exactly: a float no JSON number holds (NaN,
    # infinities) is its MLIR literal, a string, not null.
    typed_want = dict(WANT)
    typed_want["f32"] = ("array<f32>", [1.5, "0x7FC00000", "0x7F800000", "0xFF800000", -0.0])
    for key, (t, values) in typed_want.items():
        got = typed["extra"][key]
        check(isinstance(got, dict) and list(got) == ["type", "value"] and got["type"] == t and
              same(got["value"], values), f"--typed extra.{key}: {got!r}")
    check(same(typed["extra"]["list"], [1, 2]), "--typed: an array of i64 stays a list")

    # YAML and typed JSON read back to the identical spec.
    mlir = sysdesc("convert", "--to", "mlir", path)
    typed_path = os.path.join(tmp, "dense.json")
    with open(typed_path, "w") as f:
        f.write(typed_text)
    check(sysdesc("convert", "--to", "mlir", typed_path) == mlir, "typed JSON round trip differs")
    yaml_path = os.path.join(tmp, "dense.yaml")
    with open(yaml_path, "w") as f:
        yaml_text = sysdesc("convert", "--to", "yaml", path)
        f.write(yaml_text)
    # Dense arrays are tagged sequences; what YAML numbers cannot spell
    # (NaN, infinities: MLIR prints them in hex) stays MLIR text.
    for line in ("numa_node_size_in_bytes: !array:i64 [1073741824, 2147483648]",
                 "i1: !array:i1 [true, false]", "u64: !array:ui64 [18446744073709551615]",
                 "empty: !array:i64 []", "i8: !array:i8 [-128, 127]",
                 "f32: !mlir 'array<f32: 1.500000e+00, 0x7FC00000"):
        check(line in yaml_text, f"YAML lacks {line!r}:\n{yaml_text}")
    check(sysdesc("convert", "--to", "mlir", yaml_path) == mlir, "YAML round trip differs")

    # A probed topology: two NUMA nodes of 1 GiB each.
    xml = os.path.join(SRCDIR, "tests", "data", "xml", "two_socket_numa.xml")
    probed = json.loads(sysdesc("probe", "--quiet", "--xml", xml, "--format", "json"))
    mem = probed["CPU"]["memory"]
    check(same(mem["numa_node_size_in_bytes"], [1073741824, 1073741824]),
          f"probed numa_node_size_in_bytes: {mem['numa_node_size_in_bytes']!r}")
    sizes = mem["numa_node_size_in_bytes"]
    check(isinstance(sizes, list) and all(type(x) is int for x in sizes) and
          sum(sizes) == mem["numa_total_in_bytes"] == mem["total_in_bytes"],
          "the NUMA nodes' sizes do not add up to memory.numa_total_in_bytes (and, from XML, "
          "memory.total_in_bytes)")
    check(all(type(x) is int for x in mem["page_sizes_in_bytes"]), "probed page sizes")
    p_mlir = sysdesc("probe", "--quiet", "--xml", xml, "--format", "mlir")
    p_yaml = os.path.join(tmp, "probed.yaml")
    with open(p_yaml, "w") as f:
        f.write(sysdesc("probe", "--quiet", "--xml", xml, "--format", "yaml"))
    check(sysdesc("convert", "--to", "mlir", p_yaml) == p_mlir, "probed YAML round trip differs")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("dense arrays: JSON numbers, YAML round trips")
