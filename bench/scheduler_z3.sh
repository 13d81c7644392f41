#!/usr/bin/env bash
# sm90-persistent's symbolic proofs (proofs/smt/scheduler_z3.cpp) for every M, N in [1, B] and L in
# [1, 2] at once, with Z3's default budget (docs/performance.md, "Symbolic schedulers").
#   usage: bench/scheduler_z3.sh [LAYOUTPROOF] [B]      (B: --max-tiles, default 64)
#          bench/scheduler_z3.sh --guard LAYOUTPROOF MAX_RATIO
# Without --guard: every configuration `raster prove sm90-persistent --engine z3` takes with 132 SMs
# (claims exactly-once, in-range, launches; clusters 1,1 2,1 1,2; max swizzle 1 2 4 8; rasters along-m,
# along-n, heuristic: 108 commands), one line each (the claim, the flags, the verdict, wall seconds),
# then the verdicts counted, the total and the largest wall time.
# --guard (the ctest bench.scheduler_z3_ratio): the user time, best of 3, of the three symbolic proofs
# the quadratic injectivity query left UNKNOWN at B = 64 (the heuristic raster with max swizzle 1:
# exactly-once at clusters 1x1 and 2x1, in-range at 1x1), over that of enumerating the same three
# domains (8192 configurations each), best of 3, must stay under MAX_RATIO, and all six must be
# PROVED: a ratio of two runs on one machine, never an absolute time.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# One run: "wall user" seconds; its verdict (the report's first word) in $out.
one() {
  { /usr/bin/time -f "%e %U" "$LP" raster prove sm90-persistent --sms 132 "$@" >"$out"; } 2>&1 | tail -1 || true
}
if [ "${1:-}" = "--guard" ]; then
  LP=$2 bound=$3
  GUARDED=("--cluster 1,1 --max-swizzle 1 --raster heuristic --claim exactly-once"
           "--cluster 2,1 --max-swizzle 1 --raster heuristic --claim exactly-once"
           "--cluster 1,1 --max-swizzle 1 --raster heuristic --claim in-range")
  # The user seconds of the three proofs with --engine $1, best of 3; each must be PROVED.
  best() {
    local b=""
    for _ in 1 2 3; do
      local sum=0
      for flags in "${GUARDED[@]}"; do
        # shellcheck disable=SC2086  # the flags are words
        u=$(one $flags --max-tiles 64 --engine "$1" | cut -d' ' -f2)
        grep -q "^PROVED" "$out" || { echo "--engine $1 $flags: not PROVED:" >&2; head -2 "$out" >&2; exit 1; }
        sum=$(python3 -c "print($sum + $u)")
      done
      b=$(python3 -c "print(min($sum, ${b:-$sum}))")
    done
    echo "$b"
  }
  s=$(best z3)
  e=$(best exhaustive)
  python3 bench/ratio_guard.py "symbolic scheduler proofs at M, N <= 64" "$s" "enumeration of the same domains" "$e" "$bound"
  exit
fi
LP=${1:-build/layoutproof}
B=${2:-64}
declare -A count=()
total=0 largest=0
for claim in exactly-once in-range launches; do
  for cl in 1,1 2,1 1,2; do
    for sw in 1 2 4 8; do
      for r in along-m along-n heuristic; do
        flags="--cluster $cl --max-swizzle $sw --raster $r --max-tiles $B --claim $claim --engine z3"
        # shellcheck disable=SC2086
        wall=$(one $flags | cut -d' ' -f1)
        v=$(head -1 "$out" | cut -d' ' -f1)
        echo "$claim  $flags  ${v:-?}  ${wall} s"
        count[${v:-?}]=$(( ${count[${v:-?}]:-0} + 1 ))
        total=$(python3 -c "print(round($total + $wall, 2))")
        largest=$(python3 -c "print(max($largest, $wall))")
      done
    done
  done
done
summary=""
for v in PROVED REFUTED UNKNOWN ERROR; do summary+="${count[$v]:-0} $v, "; done
echo "108 commands (B = $B): ${summary%, }; wall ${total} s in all, the largest ${largest} s"
