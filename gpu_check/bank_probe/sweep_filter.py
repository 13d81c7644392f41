#!/usr/bin/env python3
"""sweep_filter.py IN.csv OUT.csv: keeps of an `ncu --page source --csv --print-source sass` table
what parse_sweep.py reads: every 'Kernel Name' line (one per launch, in launch order), each table's
header, and the rows of shared-memory instructions (LDS/STS/LDSM/STSM/LDGSTS/ATOMS) or with a
nonzero shared wavefront count, in the columns Address, Source, Instructions Executed, L1 Wavefronts
Shared, L1 Wavefronts Shared Ideal. The numbers are unchanged; the sweep's tables shrink ~10x."""
import csv
import re
import sys

KEEP = ['Address', 'Source', 'Instructions Executed', 'L1 Wavefronts Shared', 'L1 Wavefronts Shared Ideal']
SHARED = re.compile(r'\b(LDS|STS|LDSM|STSM|LDGSTS|ATOMS|ATOM|RED|LD|ST)\b')

out = csv.writer(open(sys.argv[2], 'w', newline=''), quoting=csv.QUOTE_ALL, lineterminator='\n')
cols = None
for r in csv.reader(open(sys.argv[1], newline='')):
    if not r:
        continue
    if r[0] == 'Kernel Name':
        out.writerow(r[:2])
        cols = None
        continue
    if r[0] == 'Address':
        cols = [r.index(k) if k in r else None for k in KEEP]
        out.writerow(KEEP)
        continue
    if cols is None or cols[1] is None or len(r) <= max(c for c in cols if c is not None):
        continue
    v = [r[c] if c is not None else '' for c in cols]
    if SHARED.search(v[1]) or v[3] not in ('', '0', '-'):
        out.writerow(v)
