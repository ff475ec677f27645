#!/usr/bin/env python3
"""How often sysdesc agrees with MLIR 22 on MLIR's own DLTI test files.

  fuzz/upstream_agreement.py [--sysdesc PATH] [--verbose] [--module-dlti-as NAME] DIR

DIR holds upstream test files, read from llvm-project and kept outside this
repository (mlir/test/Dialect/DLTI/*.mlir, mlir/test/Dialect/LLVMIR/layout.mlir,
mlir/test/Target/LLVMIR/data-layout.mlir, ...).  Each file is split on
`// -----` lines as `-split-input-file` splits it; a chunk with no code
(comments only) is left out.  The tool the file's RUN line names judges each
chunk: mlir-opt-22 (with --test-data-layout-query when the RUN line asks for
it) or mlir-translate-22 -mlir-to-llvmir.  sysdesc reads the chunk with
`fmt` (`fmt --skeleton` where fmt cannot print the ops whole).  A chunk
agrees when

  - both accept it or both reject it (the verdict);
  - when both reject: the first error's message is the same text;
  - when both accept: what they print is the same: `fmt` against mlir-opt-22
    byte for byte (not compared where sysdesc prints a skeleton), each
    "test.data_layout_query" op's size, bitsize, alignment, preferred and
    index against `sysdesc layout`, the `target datalayout` string against
    `sysdesc dl-export`.

Files whose RUN line runs -transform-interpreter are also measured query by
query: every `transform.dlti.query` is run alone by mlir-opt-22 (the chunk's
transform script with that query and a remark), and by `sysdesc query` on the
chunk's payload (its modules without transform.with_named_sequence), at the
scope of the op the query targets (or the nearest enclosing op sysdesc
names).  The answers agree when both give the same value, or both fail with
the same note.  A query whose keys the CLI cannot express ([1]) or whose
failure is the transform op's own typing is not counted.

--module-dlti-as NAME renames a module's `dlti = ` attribute (MLIR head's
inherent form, which MLIR 22 rejects on a module) to NAME for both tools in
the query files, so that MLIR 22 answers the head's query tests at all
(default: keep it).

Prints per-file figures and a total; exit status 0.  Environment: MLIR_OPT,
MLIR_TRANSLATE.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MLIR_OPT = os.environ.get("MLIR_OPT", "mlir-opt-22")
MLIR_TRANSLATE = os.environ.get("MLIR_TRANSLATE", "mlir-translate-22")
TIMEOUT = 60


def run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT,
                           errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def split_chunks(text):
    """(first line number, text) of each chunk, as -split-input-file cuts."""
    chunks, cur, start = [], [], 1
    for n, line in enumerate(text.splitlines(keepends=True), 1):
        if line.strip() == "// -----":
            chunks.append((start, "".join(cur)))
            cur, start = [], n + 1
        else:
            cur.append(line)
    chunks.append((start, "".join(cur)))
    return chunks


def has_code(chunk):
    return any(l.strip() and not l.strip().startswith("//") for l in chunk.splitlines())


def first_error(stderr, path):
    """(line, message) of the first error a tool reports about `path`."""
    for l in stderr.splitlines():
        if ": warning: " in l or l.startswith("sysdesc: note: "):
            continue
        m = re.match(r".*?:(\d+):\d+: error: (.*)$", l)
        if m:
            return int(m.group(1)), m.group(2)
        m = re.match(r"sysdesc: error: (.*)$", l)
        if m:
            return 0, m.group(1)
    return 0, stderr.strip().splitlines()[0] if stderr.strip() else "?"


# ---------------------------------------------------------------- chunks

def oracle(mode, path):
    if mode == "translate":
        return run([MLIR_TRANSLATE, "-mlir-to-llvmir", path])
    if mode == "layout":
        return run([MLIR_OPT, "--test-data-layout-query", path])
    return run([MLIR_OPT, path])


def sysdesc_read(sysdesc, path):
    """(rc, stdout, stderr, skeleton?) of sysdesc fmt, skeleton when needed."""
    rc, out, err = run([sysdesc, "fmt", path])
    if rc == 2 and "fmt --skeleton" in err and "holds operations sysdesc does not model" in err:
        rc, out, err = run([sysdesc, "fmt", "--skeleton", path])
        return rc, out, err, True
    return rc, out, err, False


LAYOUT_FIELDS = ("size", "bitsize", "alignment", "preferred", "index")


def layout_queries(out):
    """(function, type, {field: value}) of each "test.data_layout_query" op
    mlir-opt-22 printed with its answers."""
    found, func = [], None
    for l in out.splitlines():
        m = re.match(r"\s*func\.func @([\w$.]+)", l)
        if m:
            func = m.group(1)
        m = re.match(r'\s*(?:%\S+ = )?"test\.data_layout_query"\(\) \{(.*)\} : \(\) -> (.*)$', l)
        if m:
            fields = dict(re.findall(r"(\w+) = (\d+)", m.group(1)))
            found.append((func, m.group(2).strip(), fields))
    return found


def compare_layout(sysdesc, path, mlir_out):
    """None when every answered query agrees; else what differs."""
    diffs = []
    for func, ty, fields in layout_queries(mlir_out):
        rc, out, err = run([sysdesc, "layout", path, ty])
        got = dict(re.findall(r"(\w+) = (\d+)", out)) if rc == 0 else {}
        for f in LAYOUT_FIELDS:
            if f in fields and got.get(f) != fields[f]:
                diffs.append("%s %s: mlir %s, sysdesc %s" % (ty, f, fields[f],
                                                           got.get(f, err.strip()[:80])))
                break
    return "; ".join(diffs) or None


def compare_translate(sysdesc, path, mlir_out):
    m = re.search(r'target datalayout = "(.*)"', mlir_out)
    want = m.group(1) if m else ""
    rc, out, err = run([sysdesc, "dl-export", path])
    got = out.strip() if rc == 0 else "(%s)" % err.strip()
    return None if got == want else "datalayout: mlir %r, sysdesc %r" % (want, got)


def judge_chunk(sysdesc, mode, path):
    """(agrees, class, details)."""
    rc_m, out_m, err_m = oracle(mode, path)
    rc_s, out_s, err_s, skel = sysdesc_read(sysdesc, path)
    if mode == "translate" and rc_s == 0:
        # The translator refuses what LLVM cannot hold: so does dl-export.
        rc_s, _, err_s = run([sysdesc, "dl-export", path])
    if rc_s not in (0, 1, 2, 3):
        return False, "sysdesc crashed", err_s[-300:]
    m_ok, s_ok = rc_m == 0, rc_s == 0
    if m_ok != s_ok:
        if m_ok:
            return False, "mlir accepts, sysdesc rejects", first_error(err_s, path)[1]
        return False, "mlir rejects, sysdesc accepts", first_error(err_m, path)[1]
    if not m_ok:
        lm, tm = first_error(err_m, path)
        ls, ts = first_error(err_s, path)
        if tm != ts:
            return False, "both reject, messages differ", "mlir: %s | sysdesc: %s" % (tm, ts)
        return True, "both reject" + ("" if lm == ls else " (other line)"), tm
    if mode == "layout":
        d = compare_layout(sysdesc, path, out_m)
        return (d is None), ("both accept" if d is None else "layout answers differ"), d or ""
    if mode == "translate":
        d = compare_translate(sysdesc, path, out_m)
        return (d is None), ("both accept" if d is None else "datalayout differs"), d or ""
    if skel:
        return True, "both accept (sysdesc prints modules only)", ""
    if out_m != out_s:
        return False, "both accept, prints differ", ""
    return True, "both accept, same print", ""


# ---------------------------------------------------------------- queries

def top_level_ops(text):
    """(start, end) of each top-level op: a line at column 0 (not a closing
    brace) and what follows until the next such line (comments and aliases
    are lines too)."""
    spans, starts = [], [m.start() for m in re.finditer(r"^(?=[^\s}])", text, re.M)]
    for i, s in enumerate(starts):
        spans.append((s, starts[i + 1] if i + 1 < len(starts) else len(text)))
    return spans


def split_payload(chunk):
    """(payload, transform script) of a query chunk."""
    payload, script = [], []
    for s, e in top_level_ops(chunk):
        piece = chunk[s:e]
        head = piece.split("\n", 1)[0]
        is_script = head.startswith("module") and "transform.with_named_sequence" in head
        (script if is_script else payload).append(piece)
    return "".join(payload), "".join(script)


QUERY_RE = re.compile(r"(%[\w$.]+) = transform\.dlti\.query \[(.*?)\] at (%[\w$.]+) : \((.*?)\) -> (\S+)")


def split_keys(keys):
    out, cur, depth, q = [], "", 0, False
    for i, c in enumerate(keys):
        if q:
            cur += c
            if c == '"' and keys[i - 1] != "\\":
                q = False
            continue
        if c == '"':
            q = True
        elif c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def handle_target(script, handle):
    """(op name, levels up) of the op a handle holds: structured.match
    ops{["NAME"]}, then get_parent_op as many times as written."""
    up = 0
    while True:
        m = re.search(re.escape(handle) + r" = transform\.get_parent_op (%[\w$.]+)", script)
        if m:
            up, handle = up + 1, m.group(1)
            continue
        m = re.search(re.escape(handle) + r' = transform\.structured\.match ops\{\["([\w.]+)"\]\}', script)
        return (m.group(1), up) if m else (None, up)


OP_START = re.compile(r'\s*(?:%[\w$.:#, ]+ = )?(?:module\b|"|[A-Za-z_][\w$]*\.[\w$.]+)')


def op_head(payload, line_start, brace):
    """The text of an op from its first line to `brace` (a signature may
    take several lines)."""
    start = line_start
    while start > 0 and not OP_START.match(payload[start:payload.find("\n", start)]):
        start = payload.rfind("\n", 0, start - 1) + 1
    return payload[start:brace]


def enclosing_ops(payload, offset):
    """The ops whose region holds `offset`, outermost first: the text of each
    op's first line.  A region opens with a '{' ending a line that is not an
    attribute dictionary (after `attributes` or `=`)."""
    stack, i, n = [], 0, len(payload)
    line_start = 0
    while i < offset and i < n:
        c = payload[i]
        if c == "\n":
            line_start = i + 1
        elif c == '"':
            j = i + 1
            while j < n and payload[j] != '"' and payload[j] != "\n":
                j += 2 if payload[j] == "\\" else 1
            i = j
        elif c == "/" and payload.startswith("//", i):
            while i < n and payload[i] != "\n":
                i += 1
            continue
        elif c == "{":
            rest = payload[i + 1:payload.find("\n", i) if "\n" in payload[i:] else n]
            before = payload[line_start:i].rstrip()
            region = not rest.strip() and not before.endswith("attributes") and not before.endswith("=")
            stack.append((region, op_head(payload, line_start, i)))
        elif c == "}":
            if stack:
                stack.pop()
        i += 1
    return [head for region, head in stack if region]


def scope_candidates(payload, op, up):
    """sysdesc --scope paths to try for the op a query targets, nearest
    first; '' is the top."""
    e = re.escape(op)
    m = re.search(r"(?m)^\s*(?:%[\w$.:]+ = )?(?:" + e + r"\b|\"" + e + r"\")", payload)
    if not m:
        return [""]
    heads = enclosing_ops(payload, m.start())
    line_end = payload.find("\n", m.start())
    chain = heads + [payload[m.start():line_end if line_end >= 0 else len(payload)]]
    chain = chain[:len(chain) - up] if up else chain
    names = []
    for head in chain:
        s = re.search(r"@([\w$.]+)", head)
        names.append(s.group(1) if s and not head.lstrip().startswith("module") else None)
    out = []
    for k in range(len(names), 0, -1):
        if names[k - 1] is None:
            continue
        out.append("/".join(x for x in names[:k] if x))
    return out + [""]


def mlir_query(tmp, payload, script, qline, handle_lines):
    """('ok', value) or ('fail', note) or ('reject', message) from mlir-opt-22."""
    seq = re.search(r"transform\.named_sequence @__transform_main\((%[\w$.]+): !transform\.any_op\) \{", script)
    if not seq:
        return ("n/a", "no named sequence")
    m = QUERY_RE.search(qline)
    body = "".join("    " + l.strip() + "\n" for l in handle_lines)
    body += "    " + qline.strip() + "\n"
    body += '    transform.debug.emit_param_as_remark %s, "QANSWER" at %s : %s, !transform.any_op\n' % (
        m.group(1), m.group(3), m.group(5))
    prog = payload + "\nmodule attributes {transform.with_named_sequence} {\n" \
        "  transform.named_sequence @__transform_main(%s: !transform.any_op) {\n%s    transform.yield\n  }\n}\n" % (
            seq.group(1), body)
    path = os.path.join(tmp, "q.mlir")
    with open(path, "w") as f:
        f.write(prog)
    rc, out, err = run([MLIR_OPT, "--transform-interpreter", path])
    for l in err.splitlines():
        r = re.match(r".*: remark: QANSWER (.*)$", l)
        if r:
            return ("ok", r.group(1))
    for l in err.splitlines():
        r = re.match(r".*: note: (key .*|got non-DLTI.*|no DLTI.*|no keys .*)$", l)
        if r:
            return ("fail", r.group(1))
    for l in err.splitlines():
        r = re.match(r".*: error: (.*)$", l)
        if r:
            return ("reject", r.group(1))
    return ("reject", err.strip()[:200] or "exit %s" % rc)


def sysdesc_query(sysdesc, path, scopes, keys):
    args = []
    for k in keys:
        if k.startswith('"'):
            args.append(k[1:-1])
        else:
            args.append("type:" + k)
    last = None
    for sc in scopes:
        cmd = [sysdesc, "query"] + (["--scope", sc] if sc else []) + ["--", path] + args
        rc, out, err = run(cmd)
        if "no module or op named" in err:
            continue
        if rc == 0:
            return ("ok", out.strip())
        # the error, not the warnings before it (ops sysdesc cannot place)
        lines = [l for l in err.strip().splitlines() if ": warning: " not in l]
        first = lines[0] if lines else "exit %s" % rc
        first = re.sub(r"^sysdesc: error: ", "", first)
        first = re.sub(r"^.*?:\d+:\d+: error: ", "", first)
        return ("fail" if rc == 1 else "reject", first)
    return last or ("reject", "no scope found")


def judge_queries(sysdesc, tmp, chunk, rename):
    """[(agrees or None when not counted, description)] for the chunk's queries."""
    payload, script = split_payload(chunk)
    if rename:
        payload = rename(payload)
    results = []
    lines = script.splitlines()
    handle_lines = [l for l in lines if "transform.structured.match" in l or "transform.get_parent_op" in l]
    ppath = os.path.join(tmp, "payload.mlir")
    with open(ppath, "w") as f:
        f.write(payload)
    for l in lines:
        m = QUERY_RE.search(l)
        if not m:
            continue
        keys = split_keys(m.group(2))
        desc = "[%s] at %s" % (m.group(2), m.group(3))
        if any(not (k.startswith('"') or re.match(r"^[!a-z(]", k)) for k in keys):
            results.append((None, desc + ": keys the CLI cannot express"))
            continue
        want = mlir_query(tmp, payload, script, l, handle_lines)
        if want[0] == "reject" and "parameter" in want[1]:
            results.append((None, desc + ": the transform op's own check (%s)" % want[1]))
            continue
        op, up = handle_target(script, m.group(3))
        scopes = scope_candidates(payload, op, up) if op else [""]
        got = sysdesc_query(sysdesc, ppath, scopes, keys)
        ok = got == want
        results.append((ok, "%s: mlir %s, sysdesc %s" % (desc, want, got)))
    return results


# ---------------------------------------------------------------- main

def file_mode(text):
    run_lines = " ".join(l for l in text.splitlines() if l.startswith("// RUN:"))
    if "mlir-translate" in run_lines and "-mlir-to-llvmir" in run_lines:
        return "translate"
    if "test-data-layout-query" in run_lines:
        return "layout"
    if "transform-interpreter" in run_lines:
        return "query"
    return "opt"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--sysdesc", default=os.environ.get(
        "SYSDESC", os.path.join(os.path.dirname(HERE), "build", "cli", "sysdesc")))
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--module-dlti-as", default=None)
    a = ap.parse_args()
    rename = None
    if a.module_dlti_as:
        name = a.module_dlti_as
        rename = lambda t: re.sub(r"(module attributes\s*\{\s*)dlti(\s*=)", r"\1" + name + r"\2", t)
    files = sorted(f for f in os.listdir(a.dir) if f.endswith(".mlir"))
    tot_c = tot_a = tot_q = tot_qa = 0
    with tempfile.TemporaryDirectory() as tmp:
        for fname in files:
            text = open(os.path.join(a.dir, fname), encoding="utf-8").read()
            mode = file_mode(text)
            agree = count = 0
            qagree = qcount = 0
            lines = []
            for start, chunk in split_chunks(text):
                if not has_code(chunk):
                    continue
                if rename and mode == "query":
                    chunk = rename(chunk)
                path = os.path.join(tmp, "chunk.mlir")
                with open(path, "w") as f:
                    f.write(chunk)
                ok, cls, det = judge_chunk(a.sysdesc, "opt" if mode == "query" else mode, path)
                count += 1
                agree += ok
                lines.append("  %s line %d: %s%s" % ("ok  " if ok else "DIFF", start, cls,
                                                     (": " + str(det)) if det and (a.verbose or not ok) else ""))
                if mode == "query":
                    for qok, qdesc in judge_queries(a.sysdesc, tmp, chunk, None):
                        if qok is None:
                            lines.append("    skip query %s" % qdesc)
                            continue
                        qcount += 1
                        qagree += qok
                        lines.append("    %s query %s" % ("ok  " if qok else "DIFF", qdesc))
            tot_c += count
            tot_a += agree
            tot_q += qcount
            tot_qa += qagree
            summary = "%-26s %2d of %2d chunks agree" % (fname, agree, count)
            if mode == "query":
                summary += "; %2d of %2d queries" % (qagree, qcount)
            print(summary)
            for l in lines:
                if a.verbose or "DIFF" in l or "skip" in l:
                    print(l)
    print("%-26s %2d of %2d chunks agree; %d of %d queries" % ("total", tot_a, tot_c, tot_qa, tot_q))
    return 0


if __name__ == "__main__":
    sys.exit(main())
