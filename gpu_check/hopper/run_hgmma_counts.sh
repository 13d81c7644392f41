#!/usr/bin/env bash
# What Nsight Compute counts for one wgmma.mma_async per warpgroup, per shape and layout
# (hgmma_counts_gen.py), on a GPU machine. Usage, repo root: OUT=/some/dir bash gpu_check/hopper/run_hgmma_counts.sh
# Writes $OUT/hgmma_counts.csv (ncu's source counters, every kernel), hgmma_counts.sass, device.txt.
set -u
D=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/hgmma_counts}; mkdir -p "$OUT"
W=/tmp/hgmma_build; rm -rf $W; mkdir -p $W
python3 "$D/hgmma_counts_gen.py" $W/hgmma_counts.cu || exit 1
nvcc -gencode arch=compute_90a,code=sm_90a -O2 -o $W/hg $W/hgmma_counts.cu > "$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
cuobjdump -sass $W/hg > "$OUT/hgmma_counts.sass"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; nvcc --version | tail -1; } > "$OUT/device.txt"
ncu --clock-control none --section SourceCounters --page source --csv --print-source sass $W/hg > "$OUT/raw.csv" 2> "$OUT/ncu.log"
python3 - "$OUT/raw.csv" "$OUT/hgmma_counts.csv" <<'PY'
import csv, sys
rows, keep = list(csv.reader(open(sys.argv[1]))), []
out = csv.writer(open(sys.argv[2], 'w'))
name = None
for r in rows:
    if r and r[0] == 'Kernel Name': name = r[1]; out.writerow(r[:2]); continue
    if r and r[0] == 'Address': hdr = {h: i for i, h in enumerate(r)}; out.writerow(['Address', 'Source', 'Instructions Executed', 'L1 Wavefronts Shared', 'L1 Wavefronts Shared Ideal']); continue
    if len(r) > 5 and name and ('HGMMA' in r[1] or 'LDS' in r[1] or 'STS' in r[1]):
        out.writerow([r[hdr['Address']], r[hdr['Source']].strip(), r[hdr['Instructions Executed']], r[hdr['L1 Wavefronts Shared']], r[hdr['L1 Wavefronts Shared Ideal']]])
PY
grep -E "Kernel Name|HGMMA" "$OUT/hgmma_counts.csv"
