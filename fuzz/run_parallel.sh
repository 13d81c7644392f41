#!/usr/bin/env bash
# Long fuzz run on a many-core machine (docs/fuzzing.md): 3 independent processes per target (-seed differs), each
# -max_total_time=$1, from the seed corpora; logs and findings under $OUT.
T=${1:-500}
BIN=${FUZZ_BIN_DIR:-build-fuzzcarry}   # the fuzz_* binaries of scripts/fuzz.sh (and lib/ with their shared libraries)
OUT=${OUT:-/tmp/fuzz-out}
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/$BIN/lib

for t in notation cpp_source spec raster_formula algebra_query; do
  [ -x $BIN/fuzz_$t ] || continue
  for k in 1 2 3; do
    mkdir -p "$OUT/$t/findings$k" "/tmp/corpus/$t$k"
    $BIN/fuzz_$t "/tmp/corpus/$t$k" "fuzz/corpus/$t" -dict="fuzz/dict/$t.dict" -seed=$((k * 7919)) \
      -max_total_time="$T" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
      -artifact_prefix="$OUT/$t/findings$k/" > "$OUT/$t/log$k.txt" 2>&1 &
  done
done
wait
for t in notation cpp_source spec raster_formula algebra_query; do
  n=$(cat "$OUT/$t"/log*.txt 2>/dev/null | grep -h "stat::number_of_executed_units" | awk '{s += $2} END {print s + 0}')
  f=$(find "$OUT/$t" -path '*findings*' -type f 2>/dev/null | wc -l)
  echo "$t executions=$n findings=$f"
done
