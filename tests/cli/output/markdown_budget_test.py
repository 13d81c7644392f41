#!/usr/bin/env python3
"""ctest cli.markdown_budget: a pull request's comment holds every failure of a large gate.

    markdown_budget_test.py LAYOUTPROOF ROOT

Generates a spec of compiled kernels x claims (the kernels of tests/ptx/basic.ptx and
examples/ptx/kernels.ptx, at several block sizes, each with conflict-free, max-ways:2, aligned and
in-bounds) giving at least 300 claims, runs `check --markdown`, and asserts the comment is under
60,000 characters (GitHub takes 65,536), names every claim that is not PROVED, summarizes the PROVED
ones as a count per subject, gives each kernel's refuted instructions and excess wavefronts, and
points at the full report. --verbose lists the PROVED claims, still under the budget.
"""
import json
import os
import subprocess
import sys
import tempfile

BIN, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
BUDGET = 60000


def md_code(s):
    return s.replace("|", "/").replace("\n", " ").replace("`", "'")


failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL " + msg)


with tempfile.TemporaryDirectory() as tmp:
    entries = []
    for ptx, kernels in (("tests/ptx/basic.ptx", ["row_copy", "column_read", "padded", "stages"]),
                         ("examples/ptx/kernels.ptx", ["padded_rows", "column_read", "stride_two", "vector_rows"])):
        for k in kernels:
            for block in (32, 64, 128, 256):
                entries.append(f"  - name: {os.path.basename(ptx)} {k} x{block}\n"
                               f"    file: {os.path.join(ROOT, ptx)}\n    kernel: {k!r}\n    block: {block}\n"
                               "    params: {1: 4}\n" if k == "stages" else
                               f"  - name: {os.path.basename(ptx)} {k} x{block}\n"
                               f"    file: {os.path.join(ROOT, ptx)}\n    kernel: {k!r}\n    block: {block}\n")
                entries[-1] += "    claims: [conflict-free, max-ways:2, aligned, in-bounds]\n"
    spec = os.path.join(tmp, "gate.yaml")
    open(spec, "w").write("compiled:\n" + "".join(entries))
    md, js = os.path.join(tmp, "gate.md"), os.path.join(tmp, "gate.json")
    p = subprocess.run([BIN, "check", spec, "--no-cache", "-j", "2", "--markdown", md, "--json", js],
                       capture_output=True, text=True, timeout=600)
    if p.returncode not in (1, 3):
        fail(f"exit {p.returncode} (expected failures): {p.stderr[:400]}")
        sys.exit(1)
    doc = json.load(open(js))
    results = doc["results"]
    bad = [r for r in results if r["verdict"] not in ("PROVED", "REPORT")]
    text = open(md, encoding="utf-8").read()
    if len(results) < 300:
        fail(f"the spec gives {len(results)} claims, not 300 or more")
    if not bad:
        fail("the spec has no failure to list")
    if len(text) >= BUDGET:
        fail(f"the Markdown is {len(text)} characters, over {BUDGET}")
    missing = [r for r in bad if md_code(r["claim"] + " [" + r["access"] + "]") not in text]
    if missing:
        fail(f"{len(missing)} of {len(bad)} failures not listed, e.g. {missing[0]['id']}")
    if "Proved: " not in text or "| subject | proved |" not in text:
        fail("the PROVED claims are not summarized per subject")
    if "excess wavefronts" not in text or "worst: " not in text:
        fail("no kernel row gives its refuted instructions, excess wavefronts and worst line")
    if "`" + js + "`" not in text:
        fail("no pointer to the full results")
    rows = sum(1 for line in text.splitlines() if line.startswith("| `"))
    print(f"{len(results)} claims, {len(bad)} not proved: Markdown {len(text)} characters, {rows} table rows")
    v = subprocess.run([BIN, "check", spec, "--no-cache", "-j", "2", "--markdown", md, "--verbose"], capture_output=True,
                       text=True, timeout=600)
    verbose = open(md, encoding="utf-8").read()
    if v.returncode != p.returncode or len(verbose) >= BUDGET or "| subject | claim | verdict | method |" not in verbose:
        fail(f"--verbose: exit {v.returncode}, {len(verbose)} characters, or no PROVED claim listed")
    if [r for r in bad if md_code(r["claim"] + " [" + r["access"] + "]") not in verbose]:
        fail("--verbose: a failure is not listed")

if failures:
    print(f"{failures} failure(s)")
    sys.exit(1)
print("markdown budget: every failure of a 300-claim gate listed under 60,000 characters")
