#!/usr/bin/env python3
"""MLIR's own C++ API reads what sysdesc writes, and gets sysdesc's answers.

tests/lib/mlir_consumer/ is a small program on MLIR 22
(DataLayout::getDevicePropertyValue for flat keys, dlti::query for key
paths), built here with CMake against Debian's libmlir-22-dev.  It reads
this host's spec (`sysdesc probe`), a composed one (`sysdesc compose` of the
host and two catalog GPUs), a catalog entry (`sysdesc convert
nvidia/h100-sxm`) and the specs MLIR pipelines write (tests/data/native):
every top-level key of every device through getDevicePropertyValue, every
key path (every prefix, every leaf) through dlti::query, each compared with
`sysdesc query` on the same file.  Exit 77, with the reason, without cmake,
a C++ compiler, or MLIR 22's CMake package (MLIR_DIR, default
/usr/lib/llvm-22/lib/cmake/mlir: apt-get install libmlir-22-dev llvm-22-dev).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
MLIR_DIR = os.environ.get("MLIR_DIR", "/usr/lib/llvm-22/lib/cmake/mlir")
NOTE = re.compile(r"sysdesc: note: MLIR 22's dlti::query answers otherwise here: (.*); sysdesc tries")


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


def run(*args, **kw):
    return subprocess.run(list(args), capture_output=True, text=True, **kw)


def build(tmp):
    # MLIR's C++ reading a file: what it reads does not change under a
    # sanitizer of sysdesc's (the normal build runs it; 59 s under ASan)
    if os.environ.get("SYSDESC_TEST_SANITIZE", "none") != "none":
        skip("MLIR's reader of the file is not sysdesc's code: the normal build runs it")
    if not shutil.which("cmake"):
        skip("no cmake")
    if not (shutil.which("c++") or shutil.which("g++")):
        skip("no C++ compiler")
    if not os.path.exists(os.path.join(MLIR_DIR, "MLIRConfig.cmake")):
        skip("no MLIR 22 CMake package in %s (apt-get install libmlir-22-dev llvm-22-dev)" % MLIR_DIR)
    # in the build tree when it says where (CONSUMER_BUILD): built once, not
    # again by each run of the host suites
    b = os.environ.get("CONSUMER_BUILD") or os.path.join(tmp, "build")
    r = run("cmake", "-S", os.path.join(SRCDIR, "tests", "lib", "mlir_consumer"), "-B", b,
            "-DMLIR_DIR=" + MLIR_DIR, "-DCMAKE_BUILD_TYPE=Release")
    if r.returncode != 0:
        if "MLIRConfig.cmake" in r.stderr or "LLVMConfig.cmake" in r.stderr:
            skip("MLIR's CMake package does not configure (llvm-22-dev missing?): "
                 + r.stderr.strip().splitlines()[-1])
        print(r.stdout[-2000:], r.stderr[-2000:])
        sys.exit(1)
    r = run("cmake", "--build", b)
    if r.returncode != 0:
        print(r.stdout[-3000:], r.stderr[-3000:])
        sys.exit(1)
    return os.path.join(b, "mlir_consumer")


def paths(value, prefix):
    """Every key path of a JSON object (a #dlti map): prefixes and leaves."""
    for k, v in value.items():
        yield prefix + [k]
        if isinstance(v, dict):
            yield from paths(v, prefix + [k])


def compare(consumer, spec, name):
    r = run(SYSDESC, "convert", "--no-check", "--to", "json", spec)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    lines, want = [], []
    for device, keys in doc.items():
        if device == "data_layout":
            continue
        for key in keys:
            lines.append("flat\t%s\t%s" % (device, key))
        for p in paths(keys, [device]):
            lines.append("query\t" + "\t".join(p))
    for l in lines:
        words = l.split("\t")
        q = run(SYSDESC, "query", "--", spec, *words[1:])
        answer = q.stdout.strip() if q.returncode == 0 else None
        # Where sysdesc's documented rule answers otherwise than MLIR 22 (a
        # dl_spec before the system spec), its note says what MLIR answers:
        # that is what dlti::query must give (getDevicePropertyValue reads
        # the system spec whatever precedes it).
        note = NOTE.search(q.stderr)
        if note and words[0] == "query":
            answer = None if note.group(1).startswith("it fails: ") else note.group(1)
        want.append(answer if answer is not None else ("none" if words[0] == "flat" else "failed"))
    r = run(consumer, spec, input="\n".join(lines) + "\n")
    got = r.stdout.splitlines()
    bad = [(l, w, g) for l, w, g in zip(lines, want, got) if w != g]
    if r.returncode != 0 or len(got) != len(lines) or bad:
        print("FAIL %s: %d of %d answers differ (exit %d) %s" % (name, len(bad), len(lines), r.returncode,
                                                               r.stderr[-500:]))
        for l, w, g in bad[:10]:
            print("  %s\n    sysdesc: %s\n    MLIR:    %s" % (l.replace("\t", " "), w, g))
        return False
    print("ok %s: %d answers (%d flat keys) as sysdesc's" % (name, len(lines),
                                                              sum(l.startswith("flat") for l in lines)))
    return True


def main():
    with tempfile.TemporaryDirectory() as tmp:
        consumer = build(tmp)
        env = dict(os.environ, SYSDESC_PATH=os.path.join(SRCDIR, "systems"),
                   XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        host = os.path.join(tmp, "host.mlir")
        composed = os.path.join(tmp, "composed.mlir")
        catalog = os.path.join(tmp, "catalog.mlir")
        for args in (["probe", "-q", "-o", host],
                     # ids of their own: the host may have GPUs already (another
                     # machine's topology with HWLOC_XMLFILE)
                     ["compose", host, "XPU=nvidia/h100-sxm:2", "-o", composed],
                     ["convert", "nvidia/h100-sxm", "-o", catalog]):
            r = run(SYSDESC, *args, env=env)
            if r.returncode != 0:
                print("FAIL sysdesc %s: %s" % (" ".join(args), r.stderr))
                return 1
        specs = [(host, "host"), (composed, "composed"), (catalog, "catalog nvidia/h100-sxm")]
        native = os.path.join(SRCDIR, "tests", "data", "native")
        specs += [(os.path.join(native, f), "native/" + f) for f in sorted(os.listdir(native))]
        ok = all([compare(consumer, path, name) for path, name in specs])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
