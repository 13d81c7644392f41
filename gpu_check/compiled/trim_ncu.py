#!/usr/bin/env python3
"""Keeps what compare.py reads of an `ncu --page source --csv --print-source sass` table: each
kernel's first table (ncu prints two per kernel), the columns Address, Source, Instructions
Executed, L1 Wavefronts Shared, L1 Wavefronts Shared Ideal. The measured numbers are unchanged.

Usage: trim_ncu.py IN.csv OUT.csv
"""
import csv
import sys

KEEP = ['Address', 'Source', 'Instructions Executed', 'L1 Wavefronts Shared', 'L1 Wavefronts Shared Ideal']


def main():
    src, dst = sys.argv[1], sys.argv[2]
    out = csv.writer(open(dst, 'w', newline=''), quoting=csv.QUOTE_ALL, lineterminator='\n')
    # A kernel's table is kept once: the first whose header has every column (a table the profiler
    # did not finish, its program having failed, has fewer and is left out).
    seen, cols, skip, name = set(), None, False, None
    for r in csv.reader(open(src, newline='')):
        if r and r[0] == 'Kernel Name':
            name, skip, cols = r[:2], r[1] in seen, None
            continue
        if skip or not r:
            continue
        if r[0] == 'Address':
            if not all(k in r for k in KEEP):
                skip = True
                continue
            seen.add(name[1])
            out.writerow(name)
            cols = [r.index(k) for k in KEEP]
            out.writerow(KEEP)
            continue
        if cols and len(r) > max(cols):
            out.writerow([r[i] for i in cols])


if __name__ == '__main__':
    main()
