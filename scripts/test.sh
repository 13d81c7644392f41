#!/usr/bin/env bash
# The whole test suite: install, build, then every CTest test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd build && ctest --output-on-failure -j "$(nproc)" "$@"
