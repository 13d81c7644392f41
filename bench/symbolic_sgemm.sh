#!/usr/bin/env bash
# The symbolic proof of a tutorial SGEMM (tests/ptx/sgemm_tiled.cu: 32x32 tiles, a k-loop over a free
# K, M and N free, every CTA of every grid): conflict-free, in-bounds and aligned on its 66 shared
# instructions, with K assumed a multiple of the tile. Prints each run's wall and user seconds and
# checks that every claim is PROVED (docs/performance.md, "Every launch").
#   usage: bench/symbolic_sgemm.sh [LAYOUTPROOF] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
LP=${1:-build/layoutproof}
RUNS=${2:-5}
for _ in $(seq "$RUNS"); do
  out=$( { /usr/bin/time -f "%e %U" "$LP" ptx tests/ptx/sgemm_tiled.ptx --block 32,32 --claim conflict-free --claim in-bounds \
           --claim aligned --assume 'p2 % 32 == 0' >/tmp/symbolic_sgemm.$$ ; } 2>&1 )
  tail -1 /tmp/symbolic_sgemm.$$ | grep -q "198 claims: 198 proved" || { echo "not every claim PROVED:"; tail -3 /tmp/symbolic_sgemm.$$; exit 1; }
  echo "wall_s user_s: $out"
done
rm -f /tmp/symbolic_sgemm.$$
