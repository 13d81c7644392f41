#!/usr/bin/env python3
"""Checks `layoutproof trace --json` against CuTe's own addresses (tests/kernels/golden/*.trace,
written by tools/cute_reference/trace_reference.cu from CUTLASS's headers).

Each golden file's header gives the kernel's C++ (smem, copy, mma), the side and the element
type; each line is `warp index a0 .. a31`, the lane byte addresses CuTe computes. Every
instruction, warp and lane must match, in order. Usage: check_golden.py BIN GOLDEN_DIR."""
import glob
import json
import os
import subprocess
import sys


def load(path):
    meta, rows = {}, []
    for line in open(path):
        if line.startswith("# "):
            key, _, value = line[2:].partition(": ")
            meta[key] = value.strip()
        elif line.strip():
            rows.append([int(x) for x in line.split()])
    return meta, rows


def known_refusals(golden_dir):
    """known_refusals.txt beside the goldens: NAME<TAB>error substring<TAB>why. A listed golden must
    still be refused with that error (it is printed, never silently skipped); once layoutproof
    accepts it the check fails until the line is removed, so the list cannot go stale."""
    path = os.path.join(os.path.dirname(os.path.abspath(golden_dir.rstrip("/"))), "known_refusals.txt")
    known = {}
    if os.path.exists(path):
        for line in open(path):
            if line.strip() and not line.startswith("#"):
                name, error, why = line.rstrip("\n").split("\t")
                known[name] = (error, why)
    return known


def main():
    binary, golden_dir = sys.argv[1], sys.argv[2]
    known = known_refusals(golden_dir)
    refused = 0
    files = sorted(glob.glob(os.path.join(golden_dir, "*.trace")))
    if not files:
        print("no golden traces in", golden_dir)
        return 1
    failed = 0
    for path in files:
        meta, rows = load(path)
        cmd = [binary, "trace", "--smem", meta["smem"], "--copy", meta["copy"], "--side", meta["side"],
               "--element", meta["element"], "--json"]
        if meta.get("mma"):
            cmd += ["--mma", meta["mma"]]
        run = subprocess.run(cmd, capture_output=True, text=True)
        name = os.path.basename(path)
        if name in known:
            error, why = known[name]
            if run.returncode == 2 and error in run.stderr:
                print(f"KNOWN REFUSAL {name}: {why}")
                refused += 1
            else:
                print(f"FAIL {name}: listed in known_refusals.txt ({why}) but exit {run.returncode}: "
                      "remove the line if layoutproof now accepts it")
                failed += 1
            continue
        if run.returncode != 0:
            print(f"FAIL {name}: exit {run.returncode}: {run.stderr.strip()}")
            failed += 1
            continue
        got = json.loads(run.stdout)["instructions"]
        problems = []
        if len(got) != len(rows):
            problems.append(f"{len(got)} instructions, CuTe issues {len(rows)}")
        for k, (ins, row) in enumerate(zip(got, rows)):
            if [ins["warp"], ins["index"]] != row[:2]:
                problems.append(f"instruction {k}: warp/index {ins['warp']}/{ins['index']}, CuTe {row[0]}/{row[1]}")
            if ins["addrs"] != row[2:]:
                lane = next(i for i in range(32) if ins["addrs"][i] != row[2 + i])
                problems.append(f"instruction {k} lane {lane}: {ins['addrs'][lane]}, CuTe {row[2 + lane]}")
            if len(problems) > 3:
                break
        if problems:
            print(f"FAIL {name}: " + "; ".join(problems[:4]))
            failed += 1
        else:
            print(f"ok   {name}: {len(rows)} instructions x 32 lanes equal CuTe's")
    print(f"{len(files) - failed - refused} passed, {failed} failed, {refused} known refusals (known_refusals.txt)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
