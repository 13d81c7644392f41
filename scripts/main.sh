#!/usr/bin/env bash
# The main job: install, build, then run layoutproof on its worked example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/layoutproof demo
