#!/usr/bin/env bash
# Measures the every-launch fixtures on the GPU machine (docs/compiled.md "Every launch"):
#   OUT=/tmp/el bash gpu_check/every_launch/measure.sh
# Builds host.cu for sm_90a with line info, writes its SASS (cuobjdump -sass; nvdisasm -g for the
# CUDA lines), and runs every launch of launches.txt under Nsight Compute's source counters per
# SASS instruction (Instructions Executed, L1 Wavefronts Shared, L1 Wavefronts Shared Ideal), all
# CTAs of the launch, one CSV block per launch headed "== LAUNCH <line>", plus compute-sanitizer's
# memcheck verdict per launch (an out-of-bounds shared access is an error there).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/every_launch}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt" 2>&1
{ nvcc --version | tail -2; ncu --version | tail -1; } >> "$OUT/device.txt" 2>&1
nvcc -arch=sm_90a -lineinfo -o "$OUT/host" gpu_check/every_launch/host.cu > "$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
cuobjdump -sass "$OUT/host" > "$OUT/every_launch.sass" 2>> "$OUT/build.log"
: > "$OUT/every_launch.ncu.csv"
: > "$OUT/memcheck.txt"
grep -v '^#' gpu_check/every_launch/launches.txt | while read -r k rest; do
  [ -z "$k" ] && continue
  echo "== LAUNCH $k $rest" >> "$OUT/every_launch.ncu.csv"
  ncu --kernel-name "regex:$k\b" --section SourceCounters --page source --csv --print-source sass "$OUT/host" $k $rest \
    >> "$OUT/every_launch.ncu.csv" 2>> "$OUT/ncu.log"
  echo "$k $rest: ncu exit $?"
  r=$(compute-sanitizer --tool memcheck --print-limit 1 "$OUT/host" $k $rest 2>&1 | grep -E "ERROR SUMMARY|Invalid __shared__" | head -2 | tr '\n' ' ')
  echo "$k $rest: $r" >> "$OUT/memcheck.txt"
done
rm -f "$OUT/host"
ls -la "$OUT"
