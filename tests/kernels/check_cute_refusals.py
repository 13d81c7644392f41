#!/usr/bin/env python3
"""layoutproof trace against CuTe's own verdict on random kernel copies (cute_refusals/cases.jsonl,
written by tools/cute_reference/kernel_copy_cases.py from CUTLASS's headers).

Per case CuTe either does not compile the copy (`"cute": "static_assert: MESSAGE"`) or computes
`rows` instructions whose golden rows (`warp index a0 .. a31`, tests/kernels/golden's format)
hash to `sha256`. `layoutproof trace --json` must refuse (exit 2) every case CuTe refuses, and
name CuTe's condition where the case names one of the conditions the model mirrors (MIRRORED); it
must accept every case CuTe compiles with exactly CuTe's rows, except where CuTe compiles a layout
that is silently wrong and layoutproof refuses it on purpose: deliberate.txt beside the cases
lists those (`error substring<TAB>why`); each such refusal is printed and counted, never silent.
Usage: check_cute_refusals.py BIN DIR (every DIR/*.jsonl)."""
import concurrent.futures
import glob
import hashlib
import json
import os
import subprocess
import sys

# CuTe's static_assert texts layoutproof quotes when it refuses for the same reason.
MIRRORED = ["Shape Divisibility Condition", "Stride Divisibility Condition", "Requires pow2 shape*stride."]


def trace(binary, c):
    cmd = [binary, "trace", "--smem", c["smem"], "--copy", c["copy"], "--side", c["side"], "--element", c["element"],
           "--json"]
    if c["mma"]:
        cmd += ["--mma", c["mma"]]
    return subprocess.run(cmd, capture_output=True, text=True)


def rows_of(stdout):
    return ["%d %d %s" % (i["warp"], i["index"], " ".join(str(a) for a in i["addrs"]))
            for i in json.loads(stdout)["instructions"]]


def deliberate_refusals(directory):
    path = os.path.join(directory, "deliberate.txt")
    out = []
    if os.path.exists(path):
        for line in open(path):
            if line.strip() and not line.startswith("#"):
                error, why = line.rstrip("\n").split("\t")
                out.append((error, why))
    return out


def check(binary, c, deliberate):
    """(kind, message): kind is ok, deliberate (CuTe compiles a silently wrong layout that
    layoutproof refuses on purpose), accepted (CuTe refuses, layoutproof traces), refused (the
    reverse), wrong (addresses differ) or unnamed (refused without CuTe's condition)."""
    run = trace(binary, c)
    cute = c["cute"]
    if cute != "compiles":
        if run.returncode != 2:
            return "accepted", f"CuTe: {cute}; layoutproof exit {run.returncode}"
        want = next((m for m in MIRRORED if m in cute), None)
        if want and want not in run.stderr:
            return "unnamed", f"CuTe: {cute}; layoutproof: {run.stderr.strip()[:300]}"
        return "ok", ""
    if run.returncode == 2:
        for error, why in deliberate:
            if error in run.stderr:
                return "deliberate", why
    if run.returncode != 0:
        return "refused", f"CuTe compiles it; layoutproof exit {run.returncode}: {run.stderr.strip()[:300]}"
    rows = rows_of(run.stdout)
    digest = hashlib.sha256("".join(r + "\n" for r in rows).encode()).hexdigest()
    if len(rows) != c["rows"] or digest != c["sha256"]:
        return "wrong", f"{len(rows)} instructions (CuTe {c['rows']}), rows hash differs" if len(rows) != c["rows"] else \
            "the lane addresses differ from CuTe's (rows hash)"
    return "ok", ""


def main():
    binary, directory = sys.argv[1], sys.argv[2]
    cases = [json.loads(l) for path in sorted(glob.glob(os.path.join(directory, "*.jsonl"))) for l in open(path)
             if l.strip()]
    if not cases:
        print("no cases in", directory)
        return 1
    deliberate = deliberate_refusals(directory)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda c: check(binary, c, deliberate), cases))
    counts = {}
    for c, (kind, msg) in zip(cases, results):
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "deliberate":
            print(f"DELIBERATE REFUSAL {c['name']}: CuTe compiles it; {msg}")
        elif kind != "ok":
            print(f"FAIL {c['name']} ({kind}): {msg}\n     smem {c['smem']}\n     copy {c['copy']}"
                  + (f"\n     mma  {c['mma']}" if c["mma"] else ""))
    refusals = sum(1 for c in cases if c["cute"] != "compiles")
    print(f"{len(cases)} cases, {refusals} refused by CuTe: {counts.get('ok', 0)} agree, "
          f"{counts.get('deliberate', 0)} refused on purpose (deliberate.txt); "
          f"{counts.get('accepted', 0)} traced that CuTe refuses, {counts.get('refused', 0)} refused that CuTe compiles, "
          f"{counts.get('wrong', 0)} with other addresses, {counts.get('unnamed', 0)} refused without CuTe's condition")
    return 0 if counts.get("ok", 0) + counts.get("deliberate", 0) == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
