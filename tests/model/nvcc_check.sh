#!/usr/bin/env bash
# Compiles tests/model/nvcc_host_device.cu with nvcc for sm_80 and sm_90: $LAYOUTPROOF_NVCC, else nvcc
# on PATH, else /usr/local/cuda/bin/nvcc. Started through tests/lib/requires.sh, which skips the test
# with its reason when there is none.
set -euo pipefail
root="$1"
nvcc="${LAYOUTPROOF_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$nvcc" -std=c++20 -I "$root" -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
  -c "$root/tests/model/nvcc_host_device.cu" -o "$out/k.o"
echo "model/ host-device headers compile under $("$nvcc" --version | tail -1)"
