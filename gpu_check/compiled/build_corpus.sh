#!/usr/bin/env bash
# Builds the compiled-kernel corpus (docs/compiled.md) on the build machine, where nvcc and ptxas are:
#   CUTLASS_DIR=/path/to/cutlass OUT=build-corpus bash gpu_check/compiled/build_corpus.sh
# For each program: the executable, the PTX nvcc gave ptxas (-keep) and the cubin. The device run
# (gpu_check/compiled/measure.sh) disassembles the cubins and measures the executables with Nsight
# Compute. CUTLASS's headers are read from CUTLASS_DIR, never copied here.
set -euo pipefail
: "${CUTLASS_DIR:?give CUTLASS_DIR, a CUTLASS checkout (include/ and tools/util/include/)}"
OUT=${OUT:-build-corpus}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$OUT"
FLAGS=(-arch=sm_90 -O3 -lineinfo -std=c++17 --expt-relaxed-constexpr)
build() {  # NAME SOURCE [extra flags]
  local name=$1 src=$2; shift 2
  local keep="$OUT/keep-$name"; mkdir -p "$keep"
  "$NVCC" "${FLAGS[@]}" "$@" -keep -keep-dir "$keep" -o "$OUT/$name" "$src"
  cp "$keep"/*.ptx "$OUT/$name.ptx"
  cp "$(ls "$keep"/*.sm_90.cubin | grep -v dlink)" "$OUT/$name.cubin"
  echo "built $name"
}
build hand tests/compiled/hand.cu
build cute tests/compiled/cute.cu -I"$CUTLASS_DIR/include"
# The CuTe tutorial's SM80 GEMM (a 3-stage cp.async mainloop with a wrap-around stage counter, a
# swizzled smem, ldmatrix), compiled from CUTLASS's own file; measure.sh runs it as 128 128 K.
build sgemm_sm80 "$CUTLASS_DIR/examples/cute/tutorial/sgemm_sm80.cu" -I"$CUTLASS_DIR/include" \
  -I"$CUTLASS_DIR/tools/util/include"
# The real CuTe copies (gpu_check/cute_copies, every built-in kernel configuration) with line info:
# CUTLASS_COPIES=1 builds them through CMake (a few minutes).
if [ "${CUTLASS_COPIES:-0}" = 1 ]; then
  cmake -S . -B "$OUT/build-cute-copies" -DLAYOUTPROOF_GPU_ONLY=ON -DCMAKE_BUILD_TYPE=Release -DCUTLASS_DIR="$CUTLASS_DIR" \
    -DCMAKE_CUDA_FLAGS=-lineinfo > /dev/null
  cmake --build "$OUT/build-cute-copies" -j2 --target cute_copies
  cp "$OUT/build-cute-copies/gpu_check/cute_copies" "$OUT/cute_copies"
  echo "built cute_copies"
fi
