#!/usr/bin/env bash
# The symbolic proof of a tutorial SGEMM (tests/ptx/sgemm_tiled.cu: 32x32 tiles, a k-loop over a free
# K, M and N free, every CTA of every grid): conflict-free, in-bounds and aligned on its 66 shared
# instructions, with K assumed a multiple of the tile. Prints each run's wall and user seconds and
# checks that every claim is PROVED (docs/performance.md, "Every launch").
#   usage: bench/symbolic_sgemm.sh [LAYOUTPROOF] [RUNS]
#          bench/symbolic_sgemm.sh --guard LAYOUTPROOF MAX_RATIO
# --guard (the ctest bench.symbolic_sgemm_ratio): the symbolic proof's user time, best of 3, over
# that of the same claims on one concrete launch (M = N = 64, K = 4096: 128 iterations, CTA (0,0) of
# grid 2,2), best of 3,
# must stay under MAX_RATIO: a ratio of two runs on one machine, never an absolute time.
set -euo pipefail
cd "$(dirname "$0")/.."
CLAIMS=(--claim conflict-free --claim in-bounds --claim aligned)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# One run: "wall user" seconds; the last line of its report must be `expect`.
one() {
  local expect=$1; shift
  local t
  t=$( { /usr/bin/time -f "%e %U" "$LP" ptx tests/ptx/sgemm_tiled.ptx --block 32,32 "${CLAIMS[@]}" "$@" >"$out"; } 2>&1 | tail -1)
  tail -1 "$out" | grep -q "$expect" || { echo "expected '$expect':" >&2; tail -3 "$out" >&2; exit 1; }
  echo "$t"
}
SYMBOLIC=(--assume 'p2 % 32 == 0')
CONCRETE=(--param 0=64 --param 1=64 --param 2=4096 --grid 2,2 --cta 0,0)
if [ "${1:-}" = "--guard" ]; then
  LP=$2 bound=$3
  best() { local b=""; for _ in 1 2 3; do u=$(one "$@" | cut -d' ' -f2); b=$(python3 -c "print(min(float('$u'), float('${b:-$u}')))"); done; echo "$b"; }
  s=$(best "198 claims: 198 proved" "${SYMBOLIC[@]}")
  c=$(best "198 claims: 198 proved" "${CONCRETE[@]}")
  python3 bench/ratio_guard.py "symbolic SGEMM proof" "$s" "one concrete launch" "$c" "$bound"
  exit
fi
LP=${1:-build/layoutproof}
RUNS=${2:-5}
for _ in $(seq "$RUNS"); do echo "wall_s user_s: $(one "198 claims: 198 proved" "${SYMBOLIC[@]}")"; done
