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
# The real CuTe copies of gpu_check/cute_copies (the built-in kernel configurations), when the
# corpus has them (build_corpus.sh builds them with CUTLASS_COPIES=1): every launch measured per
# SASS instruction, kernels named by their mangled names, with each launch's block size.
if [ -x "$C/cute_copies" ]; then
  cuobjdump -sass "$C/cute_copies" > "$OUT/cute_copies.sass" 2>> "$OUT/cute_copies.sass.log"
  cuobjdump -ptx "$C/cute_copies" > "$OUT/cute_copies.ptx" 2>> "$OUT/cute_copies.sass.log"
  ncu --print-kernel-base mangled --section SourceCounters --page source --csv --print-source sass "$C/cute_copies" \
    > "$OUT/cute_copies.ncu.csv" 2> "$OUT/cute_copies.ncu.log"
  ncu --print-kernel-base mangled --metrics launch__block_size --csv --page raw "$C/cute_copies" \
    > "$OUT/cute_copies.launches.csv" 2>> "$OUT/cute_copies.ncu.log"
  echo "cute_copies: $(wc -l < "$OUT/cute_copies.ncu.csv") csv lines, $(grep -c k_ "$OUT/cute_copies.launches.csv") launches"
fi
