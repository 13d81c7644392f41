#!/usr/bin/env python3
"""Claims over every launch on kernels written by others, against the measured launch.

Usage: every_launch.py LAYOUTPROOF MEASURED_DIR [LAUNCHES]

MEASURED_DIR holds the third-party corpus's SASS (tests/compiled/thirdparty/measured.tar.xz,
extracted); LAUNCHES is gpu_check/thirdparty/launches.txt. For every launch line it runs `sass`
twice with conflict-free, in-bounds and aligned: once with every parameter free and the claims
about every CTA of every grid (docs/compiled.md "Every launch"), once at the measured launch (its
parameters, CTA (0,0,0) of grid 1,1,1: the concrete path, whose counts coverage.py holds to the
hardware). It prints how the every-launch verdicts fall (PROVED, REFUTED, UNKNOWN, ERROR), the
most common UNKNOWN reasons, and every PROVED that the measured launch's own verdict does not
bear out (REFUTED or ERROR there, or the instruction missing; a conflict-free ERROR, an access the
bank model refuses, is not a contradiction): exit 1 when there is one, the worst bug this feature
can have.
"""
import collections
import os
import re
import subprocess
import sys

LP, MEAS = sys.argv[1], sys.argv[2]
LAUNCHES = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "launches.txt")
VERDICT = re.compile(r"^(PROVED|REFUTED|UNKNOWN|ERROR)  (\S+)  \[(.*?), [0-9.]+ ms\]  line (\d+): (.*)$")
CLAIMS = ["conflict-free", "in-bounds", "aligned"]


def run(args):
    cmd = [LP, "sass"] + args + sum((["--claim", c] for c in CLAIMS), [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return None
    return {(int(m.group(4)), m.group(2)): (m.group(1), m.group(5)) for m in map(VERDICT.match, p.stdout.splitlines()) if m}


totals, reasons, contradicted, timeouts = collections.Counter(), collections.Counter(), [], 0
for line in open(LAUNCHES):
    if line.startswith("#") or not line.strip():
        continue
    prog, kernel, block, ptx_params, sass_params = line.split()[:5]
    sass_params = ptx_params if sass_params == "=" else sass_params
    params = [] if sass_params == "-" else sum((["--param", x] for x in sass_params.split(",")), [])
    base = [os.path.join(MEAS, prog + ".sass"), "--kernel", kernel, "--block", block]
    every, measured = run(base), run(base + params + ["--grid", "1,1,1", "--cta", "0,0,0"])
    if every is None or measured is None:
        timeouts += 1
        continue
    for key, (v, detail) in every.items():
        totals[v] += 1
        if v == "UNKNOWN":
            reasons[re.sub(r"\d+", "N", detail)[:120]] += 1
        there = measured.get(key, ("MISSING", ""))[0]
        if v == "PROVED" and there not in ("PROVED", "UNKNOWN") and not (there == "ERROR" and key[1] == "conflict-free"):
            contradicted.append((prog, kernel, key, there, measured.get(key, ("", ""))[1][:200]))
print("every-launch verdicts:", dict(totals), f"({timeouts} launch(es) past 300 s)")
print("most common UNKNOWN reasons:")
for r, n in reasons.most_common(10):
    print(f"  {n:6d}  {r}")
print(f"PROVED for every launch but not at the measured launch: {len(contradicted)}")
for c in contradicted[:20]:
    print("  ", c)
sys.exit(1 if contradicted else 0)
