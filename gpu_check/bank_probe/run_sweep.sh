#!/usr/bin/env bash
# The per-instruction bank sweep on a GPU machine with Nsight Compute (docs/bank_model.md, "The H200
# sweep"). Usage, repo root: OUT=/some/dir [PROGRAMS="ldst_a ..."] [REPS=2] bash gpu_check/bank_probe/run_sweep.sh
# Generates the programs (sweep_gen.py), builds them, dumps their SASS, runs each under
# `ncu --section SourceCounters --page source --csv --print-source sass` (every kernel REPS times)
# and packs $OUT/sweep.tgz: device.txt, md5.txt (of the tables), build_*.log, sass_*.txt (the
# shared-memory and branch lines of cuobjdump -sass), ncu_*.csv (sweep_filter.py), ncu_*.log.
# Then here: python3 gpu_check/bank_probe/parse_sweep.py DIR (DIR: sweep.tgz unpacked).
set -u
D=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/sweep_out}; mkdir -p "$OUT"
W=/tmp/bank_sweep; rm -rf $W; mkdir -p $W
PROGRAMS=${PROGRAMS:-"async_atom ldst_a ldst_b h100 generic"}
python3 "$D/sweep_gen.py" $W || exit 1
(cd $W && md5sum sweep_*.txt > md5.txt)
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; ncu --version; nvcc --version | tail -1; } > $W/device.txt 2>&1
for p in $PROGRAMS; do
  nvcc -arch=sm_90 -O3 -std=c++17 -o $W/sweep_$p $W/sweep_$p.cu > $W/build_$p.log 2>&1 &
done
wait
for p in $PROGRAMS; do
  cuobjdump -sass $W/sweep_$p | grep -E "Function|LDS|STS|LDSM|STSM|LDGSTS|ATOM|RED|BRA|CAS|BSSY|WARPSYNC|EXIT" > $W/sass_$p.txt 2>> $W/build_$p.log
  echo "$p: $(grep -c Function $W/sass_$p.txt) functions, $(date +%s)" | tee -a $W/device.txt
done
for p in $PROGRAMS; do
  timeout ${NCU_TIMEOUT:-300} ncu --clock-control none --section SourceCounters --page source --csv --print-source sass \
    $W/sweep_$p $W/sweep_$p.txt ${REPS:-2} > $W/raw_$p.csv 2> $W/ncu_$p.log
  echo "$p: ncu rc=$? $(date +%s)" | tee -a $W/device.txt
  python3 "$D/sweep_filter.py" $W/raw_$p.csv $W/ncu_$p.csv
  (cd $W && tar czf "$OUT/sweep.tgz" device.txt md5.txt build_*.log sass_*.txt ncu_*.csv ncu_*.log)
done
ls -la $W | tee -a "$OUT/ls.txt"
