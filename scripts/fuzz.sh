#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang + ASan + UBSan) and runs each for SECONDS (default 60),
# one after the other, from its seed corpus and dictionary; prints the executions and findings of
# each target and exits 1 if any target found something (crash, timeout, leak, out of memory,
# broken invariant). docs/fuzzing.md has the figures of the long runs.
#   usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   env:   FUZZ_BUILD_DIR (default ./build-fuzz), FUZZ_WORK_DIR (default FUZZ_BUILD_DIR/run: the
#          grown corpora, logs and crash-* files), FUZZ_ARGS (more libFuzzer flags),
#          FUZZ_RUNS (a fixed number of inputs per target, SECONDS_PER_TARGET then only caps it: the
#          test suite's fuzz.smoke runs a fixed budget this way; docs/fuzzing.md has the long runs),
#          FUZZ_PROOFS_LIB (a liblayoutproof_proofs.a another build of this checkout made, linked instead
#          of compiling proofs/ again; proofs/ is not instrumented in a fuzz build either way),
#          FUZZ_CLI_LIB (the liblayoutproof_cli_lib.a of that build: the cli/ sources no target reaches
#          are linked from it instead of compiled again; fuzz/CMakeLists.txt lists them),
#          FUZZ_OPT (the optimization and debug flags, default "-O1 -g"; fuzz.smoke builds with
#          "-O0 -gline-tables-only", about 2.5x faster to compile, for its few thousand inputs)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(notation cpp_source spec raster_formula algebra_query ptx sass)
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
WORK=${FUZZ_WORK_DIR:-$BUILD/run}
if ! command -v clang++ >/dev/null; then echo "SKIPPED: clang++ not found on PATH (Debian package: clang; scripts/setup.sh installs it)"; exit 77; fi
# libFuzzer's runtime is its own package (libclang-rt-*-dev, only a Recommends of clang's): without it
# clang++ compiles but cannot link a fuzzer, which is said here rather than as a build failure below.
probe=$(mktemp -d); trap 'rm -rf "$probe"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$probe/p.cpp"
if ! clang++ -fsanitize=fuzzer,address "$probe/p.cpp" -o "$probe/p" 2>"$probe/err"; then
  echo "SKIPPED: clang++ cannot link a libFuzzer target (Debian package: libclang-rt-$(clang++ -dumpversion | cut -d. -f1)-dev; scripts/setup.sh installs it): $(head -c 200 "$probe/err")"
  exit 77
fi
BUDGET=(-max_total_time="$SECONDS_PER_TARGET"); [ -n "${FUZZ_RUNS:-}" ] && BUDGET+=(-runs="$FUZZ_RUNS")
LAUNCHER=(); if command -v ccache >/dev/null; then LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# -O1: the fuzz build compiles model/, cli/ and proofs/ again; fast to build, fast enough to fuzz.
cmake -S . -B "$BUILD" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="${FUZZ_OPT:--O1 -g}" \
  -DLAYOUTPROOF_FUZZ=ON -DLAYOUTPROOF_TESTS=OFF -DCMAKE_CUDA_COMPILER= -DLAYOUTPROOF_PROOFS_LIB="${FUZZ_PROOFS_LIB:-}" \
  -DLAYOUTPROOF_CLI_LIB="${FUZZ_CLI_LIB:-}" "${LAUNCHER[@]}" >/dev/null
cmake --build "$BUILD" -j "$(nproc)" --target $(printf 'fuzz_%s ' "${TARGETS[@]}") >/dev/null
mkdir -p "$WORK"
findings=0
for t in "${TARGETS[@]}"; do
  mkdir -p "$WORK/$t/corpus" "$WORK/$t/findings"
  log="$WORK/$t/fuzz.log"
  # One process, one target at a time (the machine's cores are shared). -timeout: an input that runs 10 s is
  # a hang; -rss_limit_mb: one that needs 2 GB is a finding too. New inputs go to the work corpus,
  # seeds are read from fuzz/corpus/<t> and never modified.
  set +e
  "$BUILD/fuzz/fuzz_$t" "$WORK/$t/corpus" "fuzz/corpus/$t" -dict="fuzz/dict/$t.dict" "${BUDGET[@]}" \
    -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$WORK/$t/findings/" ${FUZZ_ARGS:-} >"$log" 2>&1
  set -e
  execs=$(grep -h "stat::number_of_executed_units" "$log" | awk '{s += $2} END {print s + 0}')
  # A run that stopped at a finding prints no final stats: its last status line has the count.
  [ "$execs" -gt 0 ] || execs=$(grep -ho '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  found=$(find "$WORK/$t/findings" -type f | wc -l)
  printf '%-16s %12s executions  %d findings  (%s)\n' "$t" "$execs" "$found" "$log"
  if [ "$found" -gt 0 ]; then
    findings=$((findings + found))
    find "$WORK/$t/findings" -type f | sed 's/^/  finding: /'
    grep -m3 -h "ERROR: \|invariant broken\|SUMMARY" "$log" | sed 's/^/  /' || true
  fi
done
[ "$findings" -eq 0 ] || { echo "fuzz: $findings findings"; exit 1; }
echo "fuzz: no findings"
