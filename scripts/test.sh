#!/usr/bin/env bash
# The whole test suite: install, build, then every CTest test. Tests that cannot run here (no GPU,
# no Chromium, no nvcc) are reported as skipped, and their reasons are printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd build
set +e
ctest --output-on-failure -j "$(nproc)" "$@"
rc=$?
set -e
grep -h "^SKIPPED:" Testing/Temporary/LastTest.log 2>/dev/null | sort -u | sed 's/^/skipped test reason: /' || true
exit $rc
