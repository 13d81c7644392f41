#!/usr/bin/env bash
# The ctest guard bench.algebra_ratio: the 10,000 queries docs/performance.md times, generated with
# their fixed seed, run by algebra_bench against its fixed reference in one process.
#   usage: bench/algebra_guard.sh ALGEBRA_BENCH REPO [MAX_RATIO]
set -euo pipefail
bench=$1 repo=$2 bound=${3:-10}
queries=$(mktemp)
trap 'rm -f "$queries"' EXIT
python3 "$repo/bench/gen_algebra_queries.py" 10000 1 > "$queries"
"$bench" "$queries" "$bound"
