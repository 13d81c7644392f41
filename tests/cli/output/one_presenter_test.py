#!/usr/bin/env python3
"""ctest cli.one_presenter: one writer of verdict JSON, one exit-code function, one summary line.

    one_presenter_test.py ROOT

Reads the sources of cli/ and proofs/ (comments stripped) and asserts:
- a JSON "verdict" key is written in one place, cli/output/results.cpp (claim_json), and nothing
  in proofs/ presents (synth --kernel's view, cli/commands/synth/kernel_synth_view.cpp, writes its
  proofs through claim_json);
- the "N proved, N refuted" figures are composed in one function, counts_text, and the exit code of
  a run's verdicts in one, exit_code (cli/output/results.cpp): no other file returns 1 for a
  refutation or spells " proved, ".
Each assertion fails on the sources before the presenter was one (13 verdict JSON writers, the
summary line in 7 places, the exit code in 6).
"""
import os
import re
import sys

ROOT = sys.argv[1]
PRESENTER = "cli/output/results.cpp"
failures = []


def sources():
    for top in ("cli", "proofs"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith((".cpp", ".hpp")):
                    p = os.path.join(d, f)
                    text = open(p, encoding="utf-8").read()
                    text = re.sub(r"//[^\n]*", "", text)  # comments say what; the code is checked
                    yield os.path.relpath(p, ROOT), text


verdict_json, summary, exit_codes = set(), set(), set()
for path, text in sources():
    if re.search(r'\\"verdict\\"', text) or re.search(r'\{\s*"verdict"\s*,', text):
        verdict_json.add(path)
    if '" proved, "' in text or re.search(r'" proved, ', text):
        summary.add(path)
    if re.search(r"\brefuted\s*\?\s*1\s*:", text) or re.search(r"return\s+1\s*;\s*//?\s*refuted", text) or \
            re.search(r"if \(\s*s\.refuted[^)]*\)\s*return 1;", text):
        exit_codes.add(path)

if verdict_json != {PRESENTER}:
    failures.append(f"verdict JSON written in {sorted(verdict_json)}, not {PRESENTER} alone")
if summary - {PRESENTER}:
    failures.append(f"the summary figures are spelled in {sorted(summary - {PRESENTER})}")
if exit_codes != {PRESENTER}:
    failures.append(f"a run's exit code is computed in {sorted(exit_codes)}")
for f in failures:
    print("FAIL " + f)
if failures:
    sys.exit(1)
print(f"one presenter: verdict JSON, the summary figures and the exit code in {PRESENTER}")
