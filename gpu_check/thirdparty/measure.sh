#!/usr/bin/env bash
# Measures the third-party corpus on the GPU machine (docs/compiled.md, "Third-party corpus"), after
# gpu_check/thirdparty/build.sh:
#   CORPUS=.snap/thirdparty-build OUT=$OUT/thirdparty bash gpu_check/thirdparty/measure.sh
# Per program P (every executable of CORPUS with its P.cubin): P.sass (cuobjdump -sass), P.nvdisasm
# (nvdisasm -g -c: with CUDA lines), Nsight Compute's source counters per SASS instruction for every
# launch (P.ncu.csv, kernels by mangled name) and each launch's block and grid (P.launches.csv);
# for the first program also P.nvdisasm_noc (nvdisasm -g without -c: the whole ELF, a fixture).
# One failing step or program never stops the others: each step's exit code is logged in status.txt.
set -u
C=${CORPUS:-.snap/thirdparty-build}
OUT=${OUT:-/tmp/thirdparty}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt" 2>&1
{ ncu --version; cuobjdump --version; nvdisasm --version; } >> "$OUT/device.txt" 2>&1
: > "$OUT/status.txt"
step() {  # PROGRAM WHAT COMMAND... (stdout to OUT/PROGRAM.WHAT, stderr to OUT/PROGRAM.WHAT.log)
  local p=$1 what=$2; shift 2
  timeout 120 "$@" > "$OUT/$p.$what" 2> "$OUT/$p.$what.log"
  echo "$p $what: exit $?" >> "$OUT/status.txt"
}
first=1
for cubin in "$C"/*.cubin; do
  p=$(basename "$cubin" .cubin)
  [ -x "$C/$p" ] || { echo "$p: no executable" >> "$OUT/status.txt"; continue; }
  cp "$C/$p.ptx" "$OUT/$p.ptx" 2>/dev/null
  step "$p" sass cuobjdump -sass "$cubin"
  step "$p" nvdisasm nvdisasm -g -c "$cubin"
  if [ "$first" = 1 ]; then step "$p" nvdisasm_noc nvdisasm -g "$cubin"; first=0; fi
  if [ -f "$C/$p.launches" ]; then
    # A program that runs one launch per process (its argument: the launch's index; P.launches holds
    # the count): each under its own ncu, so a launch that faults cannot hide the later ones. The
    # tables are joined, each block after the first without its header line.
    n=$(cat "$C/$p.launches")
    : > "$OUT/$p.ncu.csv"; : > "$OUT/$p.launches.csv"
    for i in $(seq 0 $((n - 1))); do
      step "$p" "ncu.$i.csv" ncu --print-kernel-base mangled --section SourceCounters --page source --csv \
        --print-source sass "$C/$p" "$i"
      step "$p" "launches.$i.csv" ncu --print-kernel-base mangled --metrics launch__block_size,launch__grid_size \
        --csv --page raw "$C/$p" "$i"
      grep -v '^==' "$OUT/$p.ncu.$i.csv" >> "$OUT/$p.ncu.csv"
      grep -v '^==' "$OUT/$p.launches.$i.csv" | { [ "$i" = 0 ] && cat || tail -n +2; } >> "$OUT/$p.launches.csv"
    done
  else
    step "$p" ncu.csv ncu --print-kernel-base mangled --section SourceCounters --page source --csv \
      --print-source sass "$C/$p"
    step "$p" launches.csv ncu --print-kernel-base mangled --metrics launch__block_size,launch__grid_size \
      --csv --page raw "$C/$p"
  fi
  echo "$p: $(grep -c . "$OUT/$p.ncu.csv") csv lines, $(grep -c '"_Z' "$OUT/$p.launches.csv") launches"
done
cp "$(dirname "$0")/launches.txt" "$OUT/launches.txt"
cat "$OUT/status.txt"
