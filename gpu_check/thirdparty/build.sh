#!/usr/bin/env bash
# Builds the third-party corpus (docs/compiled.md, "Third-party corpus") on the build machine:
#   SRC=/path/to/.snap/src OUT=DIR bash gpu_check/thirdparty/build.sh [PROGRAM...]
# SRC holds the extracted sources: SRC/SGEMM_CUDA, SRC/llm.c, SRC/cuda-samples (never copied into
# this repository). Each driver of gpu_check/thirdparty/drivers/ includes one third-party file and
# launches its kernels once, one CTA each. Per program: the executable, the PTX nvcc gave ptxas
# (-keep) and the cubin. The device run (gpu_check/thirdparty/measure.sh) disassembles the cubins
# and measures the executables with Nsight Compute. A program that fails to build is reported and
# the others still build; the exit status is the number of failures.
set -u
: "${SRC:?give SRC, the folder of the extracted third-party sources}"
OUT=${OUT:-build-thirdparty}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
FLAGS=(-arch=sm_90 -O3 -lineinfo -I"$HERE/drivers")
SAMPLES=$SRC/cuda-samples/Samples
failed=0
build() {  # NAME [extra flags]
  local name=$1; shift
  if [ -n "$ONLY" ] && ! grep -qw "$name" <<< "$ONLY"; then return; fi
  local keep="$OUT/keep-$name"; rm -rf "$keep"; mkdir -p "$keep"
  if "$NVCC" "${FLAGS[@]}" "$@" -keep -keep-dir "$keep" -o "$OUT/$name" "$HERE/drivers/$name.cu" \
       > "$OUT/$name.build.log" 2>&1; then
    cp "$keep"/"$name".ptx "$OUT/$name.ptx"
    cp "$keep"/"$name".sm_90.cubin "$OUT/$name.cubin"
    rm -rf "$keep"
    echo "built $name"
  else
    rm -rf "$keep"
    echo "FAILED $name (see $OUT/$name.build.log)"; failed=$((failed + 1)); return 1
  fi
}
ONLY="$*"
# siboehm/SGEMM_CUDA (its CMakeLists builds with plain nvcc flags; C++17 for cuda::barrier).
build sgemm_cuda -I"$SRC/SGEMM_CUDA/src" -std=c++17 && echo 14 > "$OUT/sgemm_cuda.launches"  # one launch per process
# NVIDIA/cuda-samples: each sample's folder and Common/ (helper_cuda.h) on the include path.
CS=(-I"$SRC/cuda-samples/Common")
build cs_reduction "${CS[@]}" -I"$SAMPLES/2_Concepts_and_Techniques/reduction"
build cs_histogram64 "${CS[@]}" -I"$SAMPLES/2_Concepts_and_Techniques/histogram"
build cs_histogram256 "${CS[@]}" -I"$SAMPLES/2_Concepts_and_Techniques/histogram"
build cs_transpose "${CS[@]}" -I"$SAMPLES/6_Performance/transpose"
build cs_matrixMul "${CS[@]}" -I"$SAMPLES/0_Introduction/matrixMul"
build cs_scan "${CS[@]}" -I"$SAMPLES/2_Concepts_and_Techniques/scan"
build cs_bitonicSort "${CS[@]}" -I"$SAMPLES/2_Concepts_and_Techniques/sortingNetworks"
build cs_convolutionSeparable "${CS[@]}" -I"$SAMPLES/2_Concepts_and_Techniques/convolutionSeparable"
build cs_fastWalshTransform "${CS[@]}" -I"$SAMPLES/5_Domain_Specific/fastWalshTransform"
build cs_threadFenceReduction "${CS[@]}" -I"$SAMPLES/2_Concepts_and_Techniques/threadFenceReduction"
build cs_globalToShmemAsyncCopy "${CS[@]}" -I"$SAMPLES/3_CUDA_Features/globalToShmemAsyncCopy" -std=c++17
# karpathy/llm.c dev/cuda: the files' own header comment builds with --use_fast_math.
LC=(-I"$SRC/llm.c/dev/cuda" --use_fast_math -std=c++17)
for p in softmax_forward layernorm_forward layernorm_backward classifier_fused global_norm \
         matmul_backward_bias fused_residual_forward; do
  [ -f "$HERE/drivers/llmc_$p.cu" ] && build "llmc_$p" "${LC[@]}"
done
# The files whose baselines call cuBLAS (and OpenMP on the host): linked, never called.
for p in matmul_forward trimat_forward attention_forward; do
  [ -f "$HERE/drivers/llmc_$p.cu" ] && build "llmc_$p" "${LC[@]}" -Xcompiler -fopenmp -lcublas -lcublasLt
done
# NVIDIA/cutlass examples/cute/tutorial: CuTe's headers and the tutorial folder on the include path;
# -cudart shared so that capture_params.h's __cudaLaunchKernel comes before the runtime's.
CT=(-I"$SRC/cutlass/include" -I"$SRC/cutlass/tools/util/include" -I"$SRC/cutlass/examples/cute/tutorial" -std=c++17
    --expt-relaxed-constexpr -cudart shared -lcuda -ldl)
for p in sgemm_1 sgemm_2 sgemm_sm70 sgemm_sm80; do
  [ -f "$HERE/drivers/cute_$p.cu" ] && build "cute_$p" "${CT[@]}"
done
exit "$failed"
