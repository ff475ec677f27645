#!/usr/bin/env python3
"""sysdesc schema: the JSON parses and every key has every field with its
type; the markdown table has one row of eight cells per key, in the JSON's
order; --device keeps the keys of that device type; bad usage exits 2 with
nothing on stdout; a full stdout exits 3.
Environment: SYSDESC (the tool)."""
import json
import os
import subprocess
import sys

SYSDESC = os.environ["SYSDESC"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, stdout=subprocess.PIPE):
    return subprocess.run([SYSDESC, "schema", *args], stdout=stdout, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True)


TYPES = {"i64", "f64", "i1", "string", "array<i64>", "[string]", "map", "open_map"}
MD_TYPES = {"i64", "f64", "i1", "string", "array<i64> / [i64]", "[string]", "map",
            "map (any keys)"}
CLASSES = {"fact", "limit", "peak", "bookkeeping"}
DEVICE_TYPES = ["CPU", "GPU", "ACCEL"]  # in the schema's order
FIELDS = ["path", "type", "unit", "devices", "required", "required_if", "class", "min", "max",
          "names", "meaning", "summary"]


def load_json(*args):
    r = run("--format", "json", *args)
    check(r.returncode == 0 and r.stderr == "", f"schema --format json {args}: exit "
          f"{r.returncode}, stderr {r.stderr!r}")
    try:
        return json.loads(r.stdout)
    except ValueError as e:
        check(False, f"schema --format json {args}: not JSON: {e}")
        return {"schema_version": None, "keys": []}


doc = load_json()
check(doc.get("schema_version") == 1, f"schema_version is {doc.get('schema_version')!r}, not 1")
keys = doc["keys"]
check(len(keys) > 50, f"only {len(keys)} keys")
paths = [k.get("path") for k in keys]
check(len(set(paths)) == len(paths), "a path is listed twice")
for k in keys:
    p = k.get("path")
    check(list(k) == FIELDS, f"{p}: fields {list(k)}, expected {FIELDS}")
    check(isinstance(p, str) and p and " " not in p, f"bad path {p!r}")
    check(k.get("type") in TYPES, f"{p}: type {k.get('type')!r}")
    check(k.get("unit") is None or isinstance(k.get("unit"), str), f"{p}: unit")
    check(k.get("class") in CLASSES, f"{p}: class {k.get('class')!r}")
    dev, req = k.get("devices", []), k.get("required", [])
    check(dev and set(dev) <= set(DEVICE_TYPES), f"{p}: devices {dev!r}")
    check(set(req) <= set(dev), f"{p}: required {req!r} outside devices {dev!r}")
    cond = k.get("required_if")
    if cond is not None:
        ck = next((x for x in keys if x["path"] == cond), None)
        check(req and ck is not None and ck["type"] == "i1" and set(dev) <= set(ck["devices"]),
              f"{p}: required_if {cond!r} is no boolean key of its devices")
    lo, hi = k.get("min"), k.get("max")
    if k.get("type") in ("i64", "array<i64>"):
        check(isinstance(lo, int), f"{p}: integer key without a min")
        check(hi is None or (isinstance(hi, int) and hi >= lo), f"{p}: max {hi!r}")
    else:
        check(lo is None and hi is None, f"{p}: a range on a {k.get('type')} key")
    names = k.get("names")
    check(names is None or (isinstance(names, list) and names and
                            all(isinstance(n, str) and n for n in names)),
          f"{p}: names {names!r}")
    check(isinstance(k.get("meaning"), str) and k.get("meaning"), f"{p}: no meaning")
    check(k.get("summary") is None or isinstance(k.get("summary"), str), f"{p}: summary")
    if "*" in p:
        parent = p[:p.index("*") - 1]
        pk = next((x for x in keys if x["path"] == parent), None)
        check(pk is not None and pk["names"], f"{p}: parent {parent} lists no names")
by_path = {k["path"]: k for k in keys}
check(by_path.get("device_type", {}).get("required") == DEVICE_TYPES,
      "device_type is not required of every device")
check(by_path.get("cache", {}).get("names", [None])[0] == "L1", "cache names")
check(by_path.get("memory_bandwidth_in_bytes_per_second", {}).get("min") == 1000000000,
      "bandwidth's min")
check(by_path.get("pci_vendor_id", {}).get("max") == 0xffff, "pci_vendor_id's max")
check(by_path.get("extra", {}).get("type") == "open_map", "extra is not an open map")
check(by_path.get("pci_device_ids", {}).get("required_if") == "is_pci_device",
      "pci_device_ids is not required_if is_pci_device")


def rows(text):
    """The rows of the one markdown table: lists of cells, '\\|' kept."""
    out = []
    for line in text.splitlines():
        check(line.startswith("|") and line.endswith("|"), f"not a table row: {line!r}")
        cells, cur, i = [], "", 1
        while i < len(line):
            if line[i] == "\\" and i + 1 < len(line) and line[i + 1] == "|":
                cur += "|"
                i += 2
                continue
            if line[i] == "|":
                cells.append(cur.strip())
                cur = ""
            else:
                cur += line[i]
            i += 1
        out.append(cells)
    return out


r = run()
check(r.returncode == 0 and r.stderr == "", f"schema: exit {r.returncode}, stderr {r.stderr!r}")
md = rows(r.stdout)
check(md[:2] == [["key", "type", "unit", "devices", "required", "class", "range", "meaning"],
                 ["---"] * 8], f"markdown header: {md[:2]}")
body = md[2:]
check(len(body) == len(keys), f"markdown has {len(body)} rows, JSON {len(keys)} keys")
for cells, k in zip(body, keys):
    check(len(cells) == 8, f"row of {k['path']} has {len(cells)} cells")
    if len(cells) != 8:
        continue
    check(cells[0] == f"`{k['path']}`", f"row {cells[0]} where JSON has {k['path']}")
    check(cells[1] in MD_TYPES, f"{k['path']}: markdown type {cells[1]!r}")
    check(cells[2] == (k["unit"] or ""), f"{k['path']}: unit {cells[2]!r}")
    check(cells[3] == ", ".join(k["devices"]), f"{k['path']}: devices {cells[3]!r}")
    want_req = ", ".join(k["required"]) + (f" (if {k['required_if']})" if k["required_if"] else "")
    check(cells[4] == want_req, f"{k['path']}: required {cells[4]!r}")
    check(cells[5] == k["class"], f"{k['path']}: class {cells[5]!r}")
    want = ("" if k["min"] is None else f">= {k['min']}" if k["max"] is None
            else f"{k['min']}..{k['max']}")
    check(cells[6] == want, f"{k['path']}: range {cells[6]!r}, expected {want!r}")
    check(cells[7].startswith(k["meaning"]), f"{k['path']}: meaning {cells[7]!r}")

# --device T: the keys a device of type T may hold, in the same order.
for t in DEVICE_TYPES:
    for args in (("--device", t), (f"--device={t}",)):
        got = [k["path"] for k in load_json(*args)["keys"]]
        want = [k["path"] for k in keys if t in k["devices"]]
        check(got == want, f"schema {args}: {len(got)} keys, expected {len(want)}")
    r = run("--format=markdown", "--device", t)
    check(r.returncode == 0 and len(r.stdout.splitlines()) == 2 + len(want),
          f"schema --format=markdown --device {t}: exit {r.returncode}, "
          f"{len(r.stdout.splitlines())} lines")
check(set(paths) == {k["path"] for t in DEVICE_TYPES for k in load_json("--device", t)["keys"]},
      "--device CPU, GPU and ACCEL together are not every key")

# Bad usage: exit 2, an error on stderr, nothing on stdout.
for args in (("--format", "xml"), ("--format",), ("--device", "TPU"), ("--device", "accel"),
             ("--device",),
             ("extra",), ("--no-such-option",), ("--format=",)):
    r = run(*args)
    check(r.returncode == 2 and "error" in r.stderr and r.stdout == "",
          f"schema {args}: exit {r.returncode}, stdout {r.stdout[:40]!r}, stderr {r.stderr!r}")
r = run("--help")
check(r.returncode == 0 and r.stdout.startswith("usage: sysdesc schema"), "schema --help")

# A full standard output: exit 3 and the reason.
if os.path.exists("/dev/full"):
    for args in ((), ("--format", "json")):
        with open("/dev/full", "w") as full:
            r = run(*args, stdout=full)
        check(r.returncode == 3 and "No space left" in r.stderr,
              f"schema {args} >/dev/full: exit {r.returncode}, stderr {r.stderr!r}")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print(f"sysdesc schema: {len(keys)} keys, markdown and JSON agree")
