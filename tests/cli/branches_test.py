#!/usr/bin/env python3
"""Kernels nvcc compiled whose CTAs take different paths through shared memory (tests/ptx/branches.cu):
an if/else on the CTA or the problem size, both sides staging data. Without --cta/--grid and with n
free, each claim is decided for every CTA of every grid and every n (both sides run, each thread
on the side its condition picks: model/compiled/exec/symbolic_if.hpp), and must equal what the
kernel gives when run concretely at sampled launches (every CTA of grids 1..4, n around the tile
edges):
  PROVED   every sampled launch that runs the instruction proves it;
  REFUTED  the witness names the CTA (and n), and that concrete launch refutes it.
The expected verdicts: full_or_partial and row_or_column are proved whole; row_or_column_unpadded's
two column accesses are refuted, one on an even CTA, one on an odd.
Usage: branches_test.py LAYOUTPROOF
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from symbolic_twin import Twin  # noqa: E402

LP = sys.argv[1]
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ptx", "branches.ptx")
CLAIMS = ["conflict-free", "in-bounds", "aligned"]
CTA = re.compile(r"%ctaid\.x \(blockIdx\.x\) = (\d+)")
NV = re.compile(r"_param_2\) = (-?\d+)")
KERNELS = [("_Z15full_or_partialPfPKfi", "256", True), ("_Z13row_or_columnPfPKf", "32,32", False),
           ("_Z22row_or_column_unpaddedPfPKf", "32,32", False)]
T = Twin(LP, block=None)
check = T.check
checked, refuted = 0, {}
for name, block, has_n in KERNELS:
    rc, sym, out = T.run(FIXTURE, name, ["--block", block], CLAIMS)
    check(sym and "claims: every CTA of every grid" in out, f"{name}: claims about every CTA of every grid: {out[:500]}")
    ns = [0, 100, 1023, 1024, 2047, 2048, 3000, 4096] if has_n else [None]
    conc = {}
    for g in range(1, 5):
        for c in range(g):
            for n in ns:
                extra = ["--param", f"2={n}"] if n is not None else []
                conc[(g, c, n)] = T.run(FIXTURE, name, ["--block", block, "--grid", f"{g},1,1", "--cta", f"{c},0,0"] + extra, CLAIMS)[1]
    for (line, claim), (v, detail) in sym.items():
        per = {x: r[(line, claim)][0] for x, r in conc.items() if (line, claim) in r and not r[(line, claim)][1].startswith("NOT RUN")}
        what = f"{name} line {line} {claim}: symbolic {v} ({detail[:200]}); concrete {sorted(set(per.values()))}"
        checked += 1
        check(v in ("PROVED", "REFUTED"), what + " (undecided)")
        if v == "PROVED":
            check(per and all(c == "PROVED" for c in per.values()), what)
        elif v == "REFUTED":
            mc, mn = CTA.search(detail), NV.search(detail)
            cta, n = int(mc.group(1)) if mc else None, int(mn.group(1)) if mn else None
            refuted.setdefault(name, []).append((claim, cta))
            if cta is not None and cta < 4 and (n is None or n in ns):
                hits = [x for x in per if x[1] == cta and (n is None or x[2] == n)]
                check(hits and all(per[x] == "REFUTED" for x in hits), what + f" (witness CTA {cta}, n {n})")
    if name.endswith("unpaddedPfPKf"):
        ctas = sorted(c % 2 for claim, c in refuted.get(name, []) if claim == "conflict-free" and c is not None)
        check(ctas == [0, 1], f"{name}: conflict-free refuted at an even and an odd CTA: {refuted.get(name)}")
    else:
        check(rc == 0 and name not in refuted, f"{name}: every claim PROVED (exit {rc}): {out[-600:]}")
print(f"{checked} verdicts over every CTA, grid and n checked against sampled launches")
if T.failures:
    print(f"{len(T.failures)} failure(s)")
    sys.exit(1)
