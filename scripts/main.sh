#!/usr/bin/env bash
# The main job: install, build, then prove the built-in catalog of CUTLASS shared-memory atoms.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh layoutproof   # the command only: no tests, benchmarks or fuzzers
./build/layoutproof catalog
