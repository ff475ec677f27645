#!/usr/bin/env python3
"""Issue 36's first-hour edges of roofline and export, as a user meets them:
`roofline nodes/dgx-h100` (a node: a CPU without ceilings, and GPUs) fails
on its default device and names the other devices with the --device that
picks one; `roofline --device GPU9` of it lists the devices there;
`export --to triton nvidia/h100-sxm GPU0` suggests the id the catalog GPU
has (the one `query` suggests for the same key), `export ... GPU9` of a node
lists its devices.  The ids are the spec's own, read with `convert --to
json`.
Environment: SYSDESC (the tool), SRCDIR (the source tree)."""
import json
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


def ids(spec):
    r = run("convert", "--to", "json", spec)
    check(r.returncode == 0, f"convert --to json {spec}: {r.stderr.strip()}")
    return list(json.loads(r.stdout or "{}").keys())


def hint(stderr):
    lines = [line for line in stderr.splitlines() if line.startswith("sysdesc: hint: ")]
    return lines[0][len("sysdesc: hint: "):] if lines else ""


def listed(text):
    """The ids after "devices: " in a hint."""
    m = re.search(r"devices: ([^:(]*)", text)
    return [w.strip() for w in m.group(1).split(",")] if m else []


NODE, GPU = "nodes/dgx-h100", "nvidia/h100-sxm"
node_ids = ids(NODE)
gpus = [i for i in node_ids if i != "CPU"]
check("CPU" in node_ids and len(gpus) >= 2, f"{NODE}: a CPU and GPUs: {node_ids}")

# roofline of a node: the default CPU has no ceiling; the hint names the GPUs
r = run("roofline", NODE)
h = hint(r.stderr)
check(r.returncode == 1 and "CPU" in r.stderr, f"roofline {NODE}: exit 1 on the CPU: {r.stderr}")
check(listed(h) == node_ids, f"roofline {NODE}: the hint lists {node_ids}: {h!r}")
check(f"--device {gpus[0]}" in h, f"roofline {NODE}: the hint shows --device {gpus[0]}: {h!r}")
# ... and what it points to works
r = run("roofline", NODE, "--device", gpus[0], "-q")
check(r.returncode == 0 and r.stdout.startswith("<"), f"roofline --device {gpus[0]}: {r.stderr}")
# a device id the node lacks: the ids there, no guess among equally near ones
missing = "GPU%d" % len(gpus)
r = run("roofline", NODE, "--device", missing)
h = hint(r.stderr)
check(r.returncode == 1 and f'no device "{missing}"' in r.stderr,
      f"roofline --device {missing}: exit 1: {r.stderr}")
check(listed(h) == node_ids and "did you mean" not in h,
      f"roofline --device {missing}: the ids, no guess: {h!r}")

# export: the catalog GPU's id, as query suggests it
gpu_ids = ids(GPU)
q = run("query", GPU, "GPU0", "max_shared_memory_per_block_in_bytes")
m = re.search(r'did you mean "([^"]+)"', q.stderr)
check(q.returncode == 1 and m, f"query {GPU} GPU0: a suggestion: {q.stderr[-300:]}")
r = run("export", "--to", "triton", GPU, "GPU0")
h = hint(r.stderr)
check(r.returncode == 1 and "no device 'GPU0'" in r.stderr, f"export {GPU} GPU0: exit 1: {r.stderr}")
check(m and f"did you mean '{m.group(1)}'?" in h, f"export {GPU} GPU0: query's suggestion: {h!r}")
check(listed(h) == gpu_ids, f"export {GPU} GPU0: the ids {gpu_ids}: {h!r}")
# ... which works
if m:
    r = run("export", "--to", "triton", GPU, m.group(1))
    check(r.returncode == 0 and json.loads(r.stdout), f"export {GPU} {m.group(1)}: {r.stderr}")
# a node's GPU it lacks: the ids; one but for case: that one
r = run("export", "--to", "triton", NODE, missing)
h = hint(r.stderr)
check(r.returncode == 1 and listed(h) == node_ids, f"export {NODE} {missing}: the ids: {h!r}")
r = run("export", "--to", "triton", NODE, gpus[-1].lower())
check(f"did you mean '{gpus[-1]}'?" in hint(r.stderr),
      f"export {NODE} {gpus[-1].lower()}: the id but for case: {r.stderr}")

print(f"first_hour.py: {len(failures)} failures")
sys.exit(1 if failures else 0)
