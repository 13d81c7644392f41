#!/usr/bin/env bash
# The whole test suite: install, build, then every CTest test. Tests that cannot run here (no GPU,
# no Chromium, no nvcc) are reported as skipped, and their reasons are printed at the end.
# --sanitize: the same suite against the ASan+UBSan build in ./build-asan (scripts/build.sh
# --sanitize; slow, run before each resolution: docs/fuzzing.md). Other arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ "${1:-}" = "--sanitize" ]; then
  shift
  bash scripts/build.sh --sanitize
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  cd build-asan
else
  bash scripts/build.sh
  cd build
fi
set +e
ctest --output-on-failure -j "$(nproc)" "$@"
rc=$?
set -e
grep -h "^SKIPPED:" Testing/Temporary/LastTest.log 2>/dev/null | sort -u | sed 's/^/skipped test reason: /' || true
exit $rc
