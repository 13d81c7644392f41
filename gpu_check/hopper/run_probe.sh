#!/usr/bin/env bash
# The TMA/WGMMA probe (wgmma_probe.cu) on a GPU machine: builds it, runs every variant in its own
# process (a fault kills a context), writes $OUT/wgmma_probe.txt (device, variants, outcomes) and the
# probe's PTX and SASS. Usage, repo root: OUT=/some/dir bash gpu_check/hopper/run_probe.sh
set -u
D=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/wgmma_probe}; mkdir -p "$OUT"
W=/tmp/wgmma_build; rm -rf $W; mkdir -p $W
nvcc -gencode arch=compute_90a,code=sm_90a -O2 -std=c++17 -o $W/wgmma_probe "$D/wgmma_probe.cu" -lcuda > "$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
nvcc -gencode arch=compute_90a,code=sm_90a -O2 -std=c++17 -ptx -o "$OUT/wgmma_probe.ptx" "$D/wgmma_probe.cu" >> "$OUT/build.log" 2>&1
cuobjdump -sass $W/wgmma_probe > "$OUT/wgmma_probe.sass" 2>> "$OUT/build.log"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; } > "$OUT/wgmma_probe.txt"
n=$($W/wgmma_probe list | wc -l)
for i in $(seq 0 $((n - 1))); do
  timeout 20 $W/wgmma_probe run $i >> "$OUT/wgmma_probe.txt" 2>&1 || echo "$i exit=$?" >> "$OUT/wgmma_probe.txt"
done
cat "$OUT/wgmma_probe.txt"
