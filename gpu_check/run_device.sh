#!/usr/bin/env bash
# The whole device run of gpu_check (docs/gpu_check.md), from the repo root on a CUDA machine:
#   OUT=/some/dir bash gpu_check/run_device.sh
# Builds with -DLAYOUTPROOF_GPU_ONLY=ON, exports every distinct bank-check instruction as probe
# cases, measures them with Nsight Compute (bank_probe/run_probe.sh + parse_ncu.py), then runs
# layoutproof-gpu (bijectivity, round trips, clock64 bank degrees, the ncu values merged in).
# Writes under $OUT: build.log cases.txt ncu/{sass.txt,ncu.csv,log.txt} ncu.jsonl gpu.md gpu.json.
set -u
OUT=${OUT:-/tmp/gpu_check_out}; mkdir -p "$OUT/ncu"
B=${BUILD:-/tmp/build-gpu}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{ cmake -S . -B "$B" -DLAYOUTPROOF_GPU_ONLY=ON -DCMAKE_BUILD_TYPE=Release && cmake --build "$B" -j16 --target layoutproof-gpu; } \
  > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
G="$B/gpu_check/layoutproof-gpu"
"$G" --export-cases "$OUT/cases.txt"
t0=$(date +%s)
C="$OUT/cases.txt"  # (prefix assignments expand left to right: name it before OUT changes)
OUT="$OUT/ncu" CASES="$C" CHUNKS=${CHUNKS:-2} CHUNK_TIMEOUT=${CHUNK_TIMEOUT:-200} bash gpu_check/bank_probe/run_probe.sh > /dev/null 2>&1
rm -f "$OUT/ncu/metrics.txt"
echo "ncu probe: $(( $(date +%s) - t0 )) s"
NCU=()
if python3 gpu_check/bank_probe/parse_ncu.py "$OUT/cases.txt" "$OUT/ncu/ncu.csv" "$OUT/ncu.jsonl"; then NCU=(--ncu "$OUT/ncu.jsonl"); fi
t0=$(date +%s)
"$G" "${NCU[@]}" --json-file "$OUT/gpu.json" > "$OUT/gpu.md"
rc=$?
echo "layoutproof-gpu: rc=$rc, $(( $(date +%s) - t0 )) s"
tail -4 "$OUT/gpu.md"
grep -E "\| (NO|NOT MEASURED) \|" "$OUT/gpu.md" | head -40
exit $rc
