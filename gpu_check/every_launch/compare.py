#!/usr/bin/env python3
"""The every-launch verdicts against the H200 (docs/compiled.md "Every launch").

Usage: compare.py LAYOUTPROOF [DIR]   (DIR: tests/compiled/every_launch: every_launch.sass, measured.csv
       and memcheck.txt from gpu_check/every_launch/measure.sh and trim.py)

For each kernel of the fixtures (tests/ptx/launches.cu, loops.cu, sgemm_tiled.cu, branches.cu, built
for sm_90a by gpu_check/every_launch/host.cu) `layoutproof sass` decides conflict-free and in-bounds
twice: for every launch (every CTA of every grid, every parameter free), and at each measured
launch (--grid and --param as launches.txt gave them, every CTA of that grid). On the hardware an
instruction is conflict-free at a launch when Nsight Compute's L1 Wavefronts Shared equal its Ideal
(summed over every CTA: no issue above its ideal), and a launch is in bounds when
compute-sanitizer's memcheck reports no invalid __shared__ access. It fails (exit 1) when
  - a measured launch's own verdict disagrees with the hardware there (PROVED where the wavefronts
    exceed the ideal, REFUTED where they do not; in-bounds PROVED on a launch memcheck faults);
  - an every-launch PROVED is contradicted at some measured launch, or an every-launch REFUTED
    whose witness launch was measured is not borne out there.
UNKNOWN verdicts are counted and printed with their reasons (none is expected of these kernels).
"""
import collections
import csv
import os
import re
import subprocess
import sys

LP = sys.argv[1]
DIR = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "compiled", "every_launch")
SASS = os.path.join(DIR, "every_launch.sass")
# Per kernel: its mangled name, the parameter index of each integer launches.txt gives, and the
# static shared memory its .cu declares (SASS names no symbols: in-bounds needs the CTA's size).
KERNELS = {
    "full_or_partial": ("_Z15full_or_partialPfPKfi", [2], 4096),
    "row_or_column": ("_Z13row_or_columnPfPKf", [], 32 * 33 * 4),
    "row_or_column_unpadded": ("_Z22row_or_column_unpaddedPfPKf", [], 4096),
    "tail_guard": ("_Z10tail_guardPfPKfi", [2], 1024),
    "edge_transpose": ("_Z14edge_transposePfPKfii", [2, 3], 32 * 33 * 4),
    "edge_transpose_unpadded": ("_Z23edge_transpose_unpaddedPfPKfii", [2, 3], 4096),
    "last_block": ("_Z10last_blockPfPKfi", [2], 2048),
    "k_loop": ("_Z6k_loopPKfPfi", [2], 1024),
    "grid_stride": ("_Z11grid_stridePKfPfi", [2], 1024),
    "walk": ("_Z4walkPfi", [1], 256),
    "walk_bounded": ("_Z12walk_boundedPfi", [1], 256),
    "strided": ("_Z7stridedPfi", [1], 16384),
    "two_stages": ("_Z10two_stagesPKfPfi", [2], 2048),
    "sgemm_tiled": ("_Z11sgemm_tilediiiPKfS0_Pf", [0, 1, 2], 8192),
}
VERDICT = re.compile(r"^(PROVED|REFUTED|UNKNOWN|ERROR)  (\S+)  \[(.*?), [0-9.]+ ms\]  line (\d+): (.*)$")
GRID = re.compile(r"replayed with (.*?)\)")
CLAIMS = ["conflict-free", "in-bounds"]

# The SASS listing's line of each instruction -> its offset (the verdicts name listing lines).
offset_of, line_no = {}, 0
for line_no, text in enumerate(open(SASS), 1):
    m = re.search(r"/\*([0-9a-f]{4,})\*/", text)
    if m:
        offset_of[line_no] = int(m.group(1), 16)


def verdicts(kernel, block, smem, extra):
    cmd = [LP, "sass", SASS, "--kernel", kernel, "--block", block, "--smem-bytes", str(smem)] + extra + sum((["--claim", c] for c in CLAIMS), [])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return {(offset_of[int(m.group(4))], m.group(2)): (m.group(1), m.group(5)) for m in map(VERDICT.match, p.stdout.splitlines()) if m}


measured = collections.defaultdict(dict)  # launch text -> offset -> (executed, wavefronts, ideal)
launches = []
for r in csv.DictReader(open(os.path.join(DIR, "measured.csv"))):
    if not r["offset"]:
        launches.append(r["launch"])
        continue
    w, ideal = int(r["L1 Wavefronts Shared"] or 0), int(r["L1 Wavefronts Shared Ideal"] or 0)
    if w or ideal:
        measured[r["launch"]][int(r["offset"], 16)] = (int(r["Instructions Executed"] or 0), w, ideal)
faults = {}
for line in open(os.path.join(DIR, "memcheck.txt")):
    launch, _, rest = line.partition(":")
    faults[launch.strip()] = "Invalid __shared__" in rest

failures, tally, unknown = [], collections.Counter(), collections.Counter()


def fail(what):
    failures.append(what)
    print("FAIL:", what)


by_kernel = collections.defaultdict(list)
for launch in launches:
    by_kernel[launch.split()[0]].append(launch)
for short, runs in by_kernel.items():
    mangled, slots, smem = KERNELS[short]
    block = ",".join(runs[0].split()[3:5])
    every = verdicts(mangled, block, smem, [])
    at = {}
    for launch in runs:
        f = launch.split()
        ints = [int(x) for x in f[5:]]
        params = sum((["--param", f"{i}={v}"] for i, v in zip(slots, ints)), [])
        at[launch] = verdicts(mangled, block, smem, ["--grid", f"{f[1]},{f[2]},1"] + params)
        hw = measured.get(launch)
        for (off, claim), (v, detail) in at[launch].items():
            tally["at " + v + (" (NOT RUN)" if detail.startswith("NOT RUN") else "")] += 1
            if v == "UNKNOWN":
                unknown[re.sub(r"\d+", "N", detail)[:100]] += 1
            if claim == "conflict-free" and hw is not None and off in hw and hw[off][0] > 0 and v in ("PROVED", "REFUTED"):
                clean = hw[off][1] == hw[off][2]
                if (v == "PROVED") != clean:
                    fail(f"{launch} /*{off:04x}*/ conflict-free: {v} at the launch, the H200 measured {hw[off][1]} wavefronts for an ideal of {hw[off][2]}")
        if faults.get(launch) is not None:
            refuted = any(v == "REFUTED" for (o, c), (v, _) in at[launch].items() if c == "in-bounds")
            proved = all(v == "PROVED" for (o, c), (v, _) in at[launch].items() if c == "in-bounds")
            if faults[launch] and proved:
                fail(f"{launch}: in-bounds PROVED at every instruction, compute-sanitizer reports an invalid __shared__ access")
            if not faults[launch] and refuted:
                fail(f"{launch}: in-bounds REFUTED at the launch, compute-sanitizer reports no invalid __shared__ access")
    for (off, claim), (v, detail) in every.items():
        tally["every " + v + (" (NOT RUN)" if detail.startswith("NOT RUN") else "")] += 1
        if v == "UNKNOWN":
            unknown[re.sub(r"\d+", "N", detail)[:100]] += 1
        if claim != "conflict-free":
            if v == "PROVED" and any(faults.get(l) for l in runs):
                fail(f"{short} /*{off:04x}*/ in-bounds PROVED for every launch; memcheck faults at {[l for l in runs if faults.get(l)]}")
            continue
        for launch in runs:
            hw = measured.get(launch, {}).get(off)
            if v == "PROVED" and hw and hw[0] > 0 and hw[1] != hw[2]:
                fail(f"{short} /*{off:04x}*/ conflict-free PROVED for every launch; at {launch} the H200 measured {hw[1]} for an ideal of {hw[2]}")
        if v == "REFUTED":
            m = GRID.search(detail)
            replay = m.group(1) if m else ""
            for launch in runs:
                f = launch.split()
                ints = [int(x) for x in f[5:]]
                want = sum(([f"--param {i}={x}"] for i, x in zip(slots, ints)), [])
                if f"--grid {f[1]},{f[2]},1" in replay and all(w in replay for w in want):
                    hw = measured.get(launch, {}).get(off)
                    tally["witness measured"] += 1
                    if not hw or hw[1] == hw[2]:
                        fail(f"{short} /*{off:04x}*/ conflict-free REFUTED with the witness launch {launch}, not borne out there: {hw}")
print("verdicts:", dict(sorted(tally.items())))
for r, n in unknown.most_common(8):
    print(f"  UNKNOWN {n:4d}  {r}")
print(f"{len(failures)} disagreement(s) with the H200 over {len(launches)} launches of {len(by_kernel)} kernels")
sys.exit(1 if failures else 0)
