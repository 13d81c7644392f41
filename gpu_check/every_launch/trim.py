#!/usr/bin/env python3
"""Keeps what compare.py reads of measure.sh's every_launch.ncu.csv: per launch ("== LAUNCH" line),
every SASS instruction of the kernel's first complete table with its offset from the function's
start (ncu prints absolute addresses), text, Instructions Executed, L1 Wavefronts Shared and L1
Wavefronts Shared Ideal. The measured numbers are unchanged; a launch whose program failed (no
complete table) is kept as a launch with no rows.

Usage: trim.py IN.csv OUT.csv
"""
import csv
import sys

KEEP = ["Instructions Executed", "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal"]


def main():
    out = csv.writer(open(sys.argv[2], "w", newline=""), quoting=csv.QUOTE_ALL, lineterminator="\n")
    out.writerow(["launch", "offset", "source"] + KEEP)
    launch, cols, done, base = None, None, False, None
    for line in open(sys.argv[1], newline=""):
        if line.startswith("== LAUNCH "):
            launch, cols, done, base = line[len("== LAUNCH "):].strip(), None, False, None
            out.writerow([launch, "", "", "", "", ""])  # the launch, measured or not
            continue
        r = next(csv.reader([line]))
        if not r or launch is None or done:
            continue
        if r[0] == "Kernel Name":
            if cols is not None:
                done = True  # ncu prints a second table per kernel: the first is kept
            continue
        if r[0] == "Address":
            cols = {k: r.index(k) for k in ["Address", "Source"] + KEEP} if all(k in r for k in KEEP) else None
            continue
        if cols is None or not r[0].startswith("0x"):
            continue
        addr = int(r[cols["Address"]], 16)
        base = addr if base is None else base
        out.writerow([launch, f"{addr - base:04x}", r[cols["Source"]].strip()] + [r[cols[k]] for k in KEEP])


main()
