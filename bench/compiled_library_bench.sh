#!/usr/bin/env bash
# A kernel library's gate: `layoutproof check` on 54 compiled: entries over one 56,000-line
# `cuobjdump -sass` file (bench/gen_compiled_library.py writes both), with -j 1 and -j 2, each run's
# wall time, CPU time and max RSS (docs/performance.md, "Compiled kernels: a kernel library's gate").
#   usage: bench/compiled_library_bench.sh [LAYOUTPROOF] [RUNS]   (defaults: build/layoutproof, 3)
# The machine is shared: the load average is printed with the figures, and CPU time (user + sys)
# is the figure that moves least with it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(realpath "${1:-$ROOT/build/layoutproof}")
RUNS=${2:-3}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
python3 "$ROOT/bench/gen_compiled_library.py" "$DIR"
cd "$DIR"
echo "$(wc -l < library.sass) lines, $(grep -c 'Function :' library.sass) kernels, $(grep -c '^  - name:' library.yaml) entries"
for i in $(seq "$RUNS"); do
  for j in 1 2; do
    # exit 1 is the gate's answer (the corpus holds kernels with bank conflicts), not a failure
    /usr/bin/time -q -f "-j $j: %e s wall, %U s user + %S s sys, max RSS %M KB" "$BIN" check library.yaml -j "$j" > /dev/null || [ $? -eq 1 ]
  done
  echo "  (load average $(cut -d' ' -f1-3 /proc/loadavg))"
done
