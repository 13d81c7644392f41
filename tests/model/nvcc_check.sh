#!/usr/bin/env bash
# Compiles tests/model/nvcc_host_device.cu with nvcc for sm_80 and sm_90. Exit 77 (reported by
# ctest as skipped, with this message) when nvcc is not installed.
set -euo pipefail
root="$1"
nvcc="$(command -v nvcc || true)"
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
  echo "SKIPPED: nvcc not found (neither on PATH nor at /usr/local/cuda/bin/nvcc)"
  exit 77
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$nvcc" -std=c++20 -I "$root" -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
  -c "$root/tests/model/nvcc_host_device.cu" -o "$out/k.o"
echo "model/ host-device headers compile under $("$nvcc" --version | tail -1)"
