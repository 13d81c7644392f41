#!/usr/bin/env bash
# Configures and builds layoutproof into ./build (Release, asserts kept on). Compiles go through
# ccache when it is installed (scripts/setup.sh installs it), so a second build of the same sources,
# in this checkout or another, recompiles nothing.
#   usage: scripts/build.sh [--sanitize] [TARGET...]   (no TARGET: everything, tests included)
# --sanitize: an ASan+UBSan build into ./build-asan instead (-O1 -g, asserts on, any UBSan report
# aborts; no CUDA target: nvcc cannot instrument kernels); scripts/test.sh --sanitize runs the test
# suite under it (docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
LAUNCHER=(); if command -v ccache >/dev/null; then LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
if [ "${1:-}" = "--sanitize" ]; then
  SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release "${LAUNCHER[@]}" -DCMAKE_CUDA_COMPILER= -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g" \
    -DCMAKE_CXX_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN" -DCMAKE_SHARED_LINKER_FLAGS="$SAN" >/dev/null
  cmake --build build-asan -j "$(nproc)"
  exit 0
fi
TARGETS=(); for t in "$@"; do TARGETS+=(--target "$t"); done
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${LAUNCHER[@]}" >/dev/null
cmake --build build -j "$(nproc)" "${TARGETS[@]}"
