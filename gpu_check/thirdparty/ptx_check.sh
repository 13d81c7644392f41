#!/usr/bin/env bash
# Runs `layoutproof ptx` on every launch of gpu_check/thirdparty/launches.txt, on the build
# machine (no GPU needed), to check each launch's kernel, block and parameters before the device run:
#   LAYOUTPROOF=build/layoutproof CORPUS=DIR bash gpu_check/thirdparty/ptx_check.sh
# One line per launch: program, kernel, the exit code (0 all proved, 1 refuted, 2 bad input, 3 unknown
# or error), the claims line, and "stops" where a lane stopped or an access was not counted.
set -u
LP=${LAYOUTPROOF:-build/layoutproof}
C=${CORPUS:-.snap/thirdparty-build}
HERE=$(cd "$(dirname "$0")" && pwd)
grep -v '^#' "$HERE/launches.txt" | while read -r prog kernel block ptx_params sass_params ncu_name; do
  [ -n "$prog" ] || continue
  args=()
  if [ "$ptx_params" != - ]; then
    IFS=, read -ra ps <<< "$ptx_params"
    for p in "${ps[@]}"; do args+=(--param "$p"); done
  fi
  out=$("$LP" ptx "$C/$prog.ptx" --kernel "$kernel" --block "$block" "${args[@]}" --claim conflict-free 2>&1)
  rc=$?
  claims=$(grep -E '^[0-9]+ claims?:' <<< "$out" | tail -1)
  note=$(grep -qiE 'stop|not counted' <<< "$out" && echo stops)
  echo "$prog ${kernel:0:60} rc=$rc ${claims:-$(tail -1 <<< "$out")} $note"
done
