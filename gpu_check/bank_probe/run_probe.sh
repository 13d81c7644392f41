#!/usr/bin/env bash
# Runs the bank probe on a CUDA machine with Nsight Compute. Usage (repo root):
#   OUT=/some/dir [FAMILY=NAME] [CASES=FILE] bash gpu_check/bank_probe/run_probe.sh
# CASES: the case file (default cases.txt here, every family); FAMILY=NAME keeps only the cases of
# family NAME (from its '# family NAME -- ...' line to the next one; random:SEED names one seed).
# Writes $OUT/cases_run.txt (the cases run), $OUT/sass.txt (SASS shared-memory instructions per
# kernel), $OUT/metrics.txt (available counter names), $OUT/ncu.csv (raw per-launch counters, launch
# k = case k of cases_run.txt: parse_ncu.py $OUT/cases_run.txt $OUT/ncu.csv OUT.jsonl), $OUT/log.txt.
set -u
D=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/bank_probe_out}; mkdir -p "$OUT"
B=/tmp/bank_probe_build; mkdir -p $B
if [ -n "${FAMILY:-}" ]; then
  awk -v f="$FAMILY" '/^# family /{keep = ($3 == f); next} keep && !/^#/' ${CASES:-"$D/cases.txt"} > $B/cases_all.txt
  if [ ! -s $B/cases_all.txt ]; then
    echo "no family $FAMILY in ${CASES:-$D/cases.txt}; families:" $(awk '/^# family /{print $3}' ${CASES:-"$D/cases.txt"}) >&2; exit 1
  fi
else
  grep -hv "^#" ${CASES:-"$D/cases.txt"} > $B/cases_all.txt
fi
cp $B/cases_all.txt "$OUT/cases_run.txt"
nvcc -arch=sm_90 -O3 -std=c++17 -o $B/probe "$D/probe.cu" || exit 1
cuobjdump -sass $B/probe | grep -E "Function|LDS|STS|LDSM|STSM|LDGSTS" > "$OUT/sass.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv >> "$OUT/log.txt" 2>&1
ncu --version >> "$OUT/log.txt" 2>&1
ncu --query-metrics 2>/dev/null | grep -E "^(smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared|smsp__sass_inst_executed_op_(shared|ldsm|stsm|ldgsts))" > "$OUT/metrics.txt"
M=""
for m in smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st \
         smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm \
         smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts smsp__sass_inst_executed_op_ldgsts \
         smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st smsp__sass_inst_executed_op_ldsm smsp__sass_inst_executed_op_shared_stsm; do
  if grep -q "^$m " "$OUT/metrics.txt"; then M="$M${M:+,}$m.sum"; fi
done
echo "metrics: $M" | tee -a "$OUT/log.txt"
split -n l/${CHUNKS:-4} -d $B/cases_all.txt $B/chunk_
for c in $B/chunk_*; do
  echo "chunk $c: $(wc -l < $c) cases, $(date +%s)" | tee -a "$OUT/log.txt"
  timeout ${CHUNK_TIMEOUT:-200} ncu --clock-control none --metrics "$M" --csv --page raw $B/probe $c > $c.csv 2>> "$OUT/log.txt"
  echo "rc=$? rows=$(grep -c "void k_" $c.csv)" | tee -a "$OUT/log.txt"
  cat $c.csv >> "$OUT/ncu.csv"
done
echo done $(date +%s) | tee -a "$OUT/log.txt"
