#!/usr/bin/env python3
"""sysdesc roofline as a browser draws it: every roofline of the catalog
(each single-device entry with a compute and a bandwidth ceiling) and the
CPU fixtures of tests/data/roofline, inlined in one page that headless
Chromium renders; a script in the page measures every text as laid out
(getBBox, turned by its transform) and the test checks that each picture
fits its width and height, that no two texts overlap, that no label in the
plot crosses a ceiling's line, that the y axis ticks share one style, and
that lines of equal ceilings are drawn apart.  Skipped (77) without
Chromium (Debian: chromium).  ROOFLINE_SCREENSHOTS=DIR also saves PNGs of
the H100 and the crowded CPU there.
Environment: SYSDESC (the tool), SRCDIR (the source tree)."""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYSDESC = os.environ["SYSDESC"]
SRCDIR = os.environ["SRCDIR"]
DATA = os.path.join(SRCDIR, "tests", "data", "roofline")
sys.path.insert(0, os.path.join(SRCDIR, "tests"))
from timebound import limit  # noqa: E402

browser = next((b for b in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(b)), None)
if not browser:
    print("SKIP: no Chromium (Debian: apt-get install chromium)")
    sys.exit(77)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


ENV = dict(os.environ, SYSDESC_PATH=os.path.join(SRCDIR, "systems"))


def roofline(*args):
    r = subprocess.run([SYSDESC, "roofline", "-q", *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=ENV, timeout=60)
    return r.returncode, r.stdout, r.stderr


# What to draw: the fixtures, kernels as points on two of them, then every
# catalog entry that has a roofline.
POINTS = ["--point", "stream triad:0.083:150G", "--point", "gemm 128x128:300:600T",
          "--point", "attention:40:120T", "--point", "tiny:0.02:2G", "--point", "spmv:0.25:40G"]
pictures = []
for name, args in (("cpu-measured", [os.path.join(DATA, "cpu-measured.yaml")]),
                   ("cpu-crowded", ["--no-check", os.path.join(DATA, "cpu-crowded.yaml")]),
                   ("cpu-measured with kernels",
                    [os.path.join(DATA, "cpu-measured.yaml"), "--point", "dgemm:8:300G",
                     "--point", "triad:0.083:30G", "--point", "stencil:0.5:20G"]),
                   ("nvidia/h100-sxm with kernels", ["nvidia/h100-sxm"] + POINTS)):
    rc, svg, err = roofline(*args)
    check(rc == 0, f"{name}: exit {rc}: {err}")
    pictures.append((name, svg))
listed = subprocess.run([SYSDESC, "list"], stdout=subprocess.PIPE, text=True, env=ENV).stdout
for line in listed.splitlines()[1:]:
    name = line.split()[0]
    if "/arch/" in name or " system" in line or " + " in line:
        continue
    rc, svg, err = roofline(name)
    if rc == 1 and "ceiling" in err:
        continue  # no peak or no bandwidth in this entry: nothing to draw
    check(rc == 0, f"{name}: exit {rc}: {err}")
    if rc == 0:
        pictures.append((name, svg))
check(any(n == "nvidia/h100-sxm" for n, _ in pictures), "no H100 roofline among the pictures")

# The page: each SVG inline, then the script that measures what was drawn.
SCRIPT = r"""
function quadOf(el, svg) {
  const b = el.getBBox();
  const m = svg.getScreenCTM().inverse().multiply(el.getScreenCTM());
  const pts = [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height],
               [b.x, b.y + b.height]];
  return pts.map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
}
function project(poly, nx, ny) {
  let lo = Infinity, hi = -Infinity;
  for (const [x, y] of poly) { const d = x * nx + y * ny; lo = Math.min(lo, d); hi = Math.max(hi, d); }
  return [lo, hi];
}
// Convex polygons (or a segment) overlap by more than `slack` px on every axis.
function meet(a, b, slack) {
  for (const p of [a, b]) {
    for (let i = 0; i < p.length; i++) {
      const [x0, y0] = p[i], [x1, y1] = p[(i + 1) % p.length];
      const len = Math.hypot(x1 - x0, y1 - y0);
      if (!len) continue;
      const nx = -(y1 - y0) / len, ny = (x1 - x0) / len;
      const [alo, ahi] = project(a, nx, ny), [blo, bhi] = project(b, nx, ny);
      if (ahi - slack <= blo || bhi - slack <= alo) return false;
    }
  }
  return true;
}
const out = [];
for (const fig of document.querySelectorAll('figure')) {
  const svg = fig.querySelector('svg');
  const vb = svg.viewBox.baseVal;
  const texts = [...svg.querySelectorAll('text')].map(t => ({
    text: t.textContent, cls: t.getAttribute('class') || '',
    inTicks: !!t.closest('.ticks'), quad: quadOf(t, svg)}));
  const lines = [...svg.querySelectorAll('g.ceiling line')].map(l => ({
    key: l.parentNode.getAttribute('data-key'),
    seg: [[+l.getAttribute('x1'), +l.getAttribute('y1')], [+l.getAttribute('x2'), +l.getAttribute('y2')]],
    dash: l.getAttribute('stroke-dasharray') || '', color: l.getAttribute('stroke')}));
  const problems = [];
  for (const t of texts)
    for (const [x, y] of t.quad)
      if (x < -0.5 || y < -0.5 || x > vb.width + 0.5 || y > vb.height + 0.5) {
        problems.push(`"${t.text}" leaves the picture (${x.toFixed(1)}, ${y.toFixed(1)}) of ${vb.width}x${vb.height}`);
        break;
      }
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++)
      if (meet(texts[i].quad, texts[j].quad, 0.5))
        problems.push(`"${texts[i].text}" overlaps "${texts[j].text}"`);
  for (const t of texts.filter(t => t.cls === 'label' || t.cls === 'ridge' || t.cls === 'point-label'))
    for (const l of lines)
      if (meet(t.quad, l.seg, 0.5))
        problems.push(`"${t.text}" crosses the line of ${l.key}`);
  out.push({name: fig.id, width: svg.getAttribute('width'), problems,
            labels: texts.filter(t => t.cls === 'label').map(t => t.text),
            yticks: texts.filter(t => t.inTicks).map(t => t.text),
            lines: lines.map(l => ({key: l.key, y1: l.seg[0][1], y2: l.seg[1][1],
                                    dash: l.dash, color: l.color}))});
}
document.getElementById('result').textContent = JSON.stringify(out);
"""

tmp = tempfile.mkdtemp(prefix="sysdesc-roofline-browser.")
try:
    page = ['<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>']
    for name, svg in pictures:
        body = re.sub(r"^<\?xml[^>]*\?>\s*", "", svg)
        page.append(f'<figure id="{html.escape(name)}">{body}</figure>')
    page.append('<pre id="result">no result: the script did not run</pre>')
    page.append(f"<script>{SCRIPT}</script></body></html>")
    path = os.path.join(tmp, "rooflines.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(page))
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           f"--user-data-dir={tmp}/profile", "--dump-dom", "file://" + path]
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=limit(120))
    except subprocess.TimeoutExpired:
        print(f"FAIL: {browser} did not finish in {limit(120):.0f} s")
        sys.exit(1)
    m = re.search(r'<pre id="result">(.*?)</pre>', r.stdout, re.S)
    if r.returncode != 0 or not m:
        print(f"FAIL: {browser} --dump-dom: exit {r.returncode}: {r.stderr[-2000:]}")
        sys.exit(1)
    try:
        results = json.loads(html.unescape(m.group(1)))
    except ValueError:
        print(f"FAIL: the page's script did not report: {m.group(1)[:300]}")
        sys.exit(1)
    check(len(results) == len(pictures), f"{len(results)} pictures measured of {len(pictures)}")
    nlabels = 0
    for res in results:
        name = res["name"]
        for p in res["problems"]:
            check(False, f"{name}: {p}")
        # One style of tick on the y axis: "100 G", "1 T" (no 1e+06 beside 10000).
        y = [t for t in res["yticks"] if re.fullmatch(r"[0-9.]+( [kMGTPEZ])?", t)]
        styles = {bool(re.search(r" [kMGTPEZ]$", t)) or "." in t or t in ("1", "10", "100")
                  for t in y}
        check(not any("e+" in t for t in res["yticks"]) and styles == {True},
              f"{name}: tick labels of more than one style: {res['yticks']}")
        # Lines of equal ceilings are drawn apart (or at least unlike).
        seen = {}
        for ln in res["lines"]:
            k = (round(ln["y1"], 1), round(ln["y2"], 1), ln["dash"])
            check(k not in seen, f"{name}: {ln['key']} is drawn on {seen.get(k)}")
            seen[k] = ln["key"]
        nlabels += len(res["labels"])
    h100 = next(res for res in results if res["name"] == "nvidia/h100-sxm")
    keys = {ln["key"] for ln in h100["lines"]}
    check({"peak_ops_per_second.fp16_matrix", "peak_ops_per_second.bf16_matrix",
           "peak_ops_per_second.fp8_matrix"} <= keys,
          f"h100: the default has no FP16/BF16/FP8 tensor ceiling: {sorted(keys)}")
    check(any("FP16 matrix = BF16 matrix" in t for t in h100["labels"]) and
          any("FP64 matrix = FP32 vector" in t for t in h100["labels"]),
          f"h100: equal ceilings are not labelled together: {h100['labels']}")
    print(f"{len(results)} rooflines rendered by {browser}, {nlabels} labels in the plots")

    shots = os.environ.get("ROOFLINE_SCREENSHOTS")
    if shots:
        os.makedirs(shots, exist_ok=True)
        for name, svg in pictures:
            if name in ("nvidia/h100-sxm", "cpu-crowded", "cpu-measured"):
                src = os.path.join(tmp, name.replace("/", "-") + ".svg")
                with open(src, "w", encoding="utf-8") as f:
                    f.write(svg)
                size = re.search(r'width="(\d+)" height="(\d+)"', svg).groups()
                subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                                "--hide-scrollbars", f"--user-data-dir={tmp}/profile",
                                f"--window-size={size[0]},{size[1]}",
                                "--screenshot=" + os.path.join(shots, name.replace("/", "-") +
                                                                ".png"), "file://" + src],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=limit(60))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{'FAIL' if failures else 'ok'}: roofline_browser.py, {len(failures)} failures")
sys.exit(1 if failures else 0)
