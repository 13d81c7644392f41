#!/usr/bin/env bash
# Measures the compiled-kernel corpus on the GPU machine (docs/compiled.md), after build_corpus.sh:
#   CORPUS=build-corpus OUT=/tmp/compiled bash gpu_check/compiled/measure.sh
# Per program: the SASS (cuobjdump -sass, and nvdisasm with line info) and Nsight Compute's source
# counters per SASS instruction (Instructions Executed, L1 Wavefronts Shared, L1 Wavefronts Shared
# Ideal) for every launch, one CTA each (sgemm_sm80 runs as M=N=128, K=256: one CTA tile).
set -u
C=${CORPUS:-build-corpus}
OUT=${OUT:-/tmp/compiled}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt" 2>&1
{ ncu --version; cuobjdump --version; } >> "$OUT/device.txt" 2>&1
for p in hand cute sgemm_sm80; do
  cuobjdump -sass "$C/$p.cubin" > "$OUT/$p.sass" 2> "$OUT/$p.sass.log"
  nvdisasm -g -c "$C/$p.cubin" > "$OUT/$p.nvdisasm" 2>> "$OUT/$p.sass.log"
  args=(); sel=()
  if [ "$p" = sgemm_sm80 ]; then args=(128 128 256); sel=(--kernel-name regex:gemm_device --launch-count 1); fi
  ncu "${sel[@]}" --section SourceCounters --page source --csv --print-source sass "$C/$p" "${args[@]}" \
    > "$OUT/$p.ncu.csv" 2> "$OUT/$p.ncu.log"
  echo "$p: exit $? $(wc -l < "$OUT/$p.ncu.csv") csv lines"
done
