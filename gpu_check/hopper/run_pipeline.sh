#!/usr/bin/env bash
# The pipelined TMA/WGMMA probe (wgmma_pipeline.cu) on a GPU machine: builds it, runs every variant
# in its own process (a fault kills a context) and writes $OUT/wgmma_pipeline.txt (device,
# variants, outcomes), the PTX and the SASS. Usage, repo root: OUT=/some/dir bash gpu_check/hopper/run_pipeline.sh
set -u
D=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/wgmma_pipeline}; mkdir -p "$OUT"
W=/tmp/wgmma_pipeline_build; rm -rf $W; mkdir -p $W
F=(-gencode arch=compute_90a,code=sm_90a -O2 -std=c++17 -lineinfo)
nvcc "${F[@]}" -o $W/wgmma_pipeline "$D/wgmma_pipeline.cu" -lcuda > "$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
nvcc "${F[@]}" -ptx -o "$OUT/wgmma_pipeline.ptx" "$D/wgmma_pipeline.cu" >> "$OUT/build.log" 2>&1
cuobjdump -sass $W/wgmma_pipeline > "$OUT/wgmma_pipeline.sass" 2>> "$OUT/build.log"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; } > "$OUT/wgmma_pipeline.txt"
n=$($W/wgmma_pipeline list | wc -l)
for i in $(seq 0 $((n - 1))); do
  timeout 20 $W/wgmma_pipeline run $i >> "$OUT/wgmma_pipeline.txt" 2>&1 || echo "$i exit=$?" >> "$OUT/wgmma_pipeline.txt"
done
cat "$OUT/wgmma_pipeline.txt"
