// NVIDIA/cuda-samples globalToShmemAsyncCopy (Samples/3_CUDA_Features/globalToShmemAsyncCopy): its
// eight matrix-multiply kernels (cp.async through cuda::memcpy_async and cuda::pipeline, one and
// several stages, large float4 chunks, an arrive/wait barrier, a producer warp sharing pipeline
// state, and the two synchronous baselines), each launched ONCE as one CTA of the sample's block
// (16 x 16; 16 x 18 for the shared-state kernel) computing one C tile with wA = 64 (four K steps).
#define main their_main
#include "globalToShmemAsyncCopy.cu"
#undef main
#include "check.h"

int main() {
  constexpr int BS = 16;
  const int wA = 4 * BS, hA = BS, wB = BS;
  float* A = lp_buffer<float>(hA * wA);
  float* B = lp_buffer<float>(wA * wB);
  float* C = lp_buffer<float>(hA * wB, 0.0);
  const dim3 threads(BS, BS), shared_state(BS, BS + 2, 1);
  MatrixMulAsyncCopyMultiStageLargeChunk<BS><<<1, threads>>>(C, A, B, wA, wB);
  lp_check("MatrixMulAsyncCopyMultiStageLargeChunk");
  MatrixMulAsyncCopyLargeChunk<BS><<<1, threads>>>(C, A, B, wA, wB);
  lp_check("MatrixMulAsyncCopyLargeChunk");
  MatrixMulAsyncCopyLargeChunkAWBarrier<BS><<<1, threads>>>(C, A, B, wA, wB);
  lp_check("MatrixMulAsyncCopyLargeChunkAWBarrier");
  MatrixMulAsyncCopyMultiStageSharedState<BS><<<1, shared_state>>>(C, A, B, wA, wB);
  lp_check("MatrixMulAsyncCopyMultiStageSharedState");
  MatrixMulAsyncCopyMultiStage<BS><<<1, threads>>>(C, A, B, wA, wB);
  lp_check("MatrixMulAsyncCopyMultiStage");
  MatrixMulAsyncCopySingleStage<BS><<<1, threads>>>(C, A, B, wA, wB);
  lp_check("MatrixMulAsyncCopySingleStage");
  MatrixMulNaive<BS><<<1, threads>>>(C, A, B, wA, wB);
  lp_check("MatrixMulNaive");
  MatrixMulNaiveLargeChunk<BS><<<1, threads>>>(C, A, B, wA, wB);
  lp_check("MatrixMulNaiveLargeChunk");
  return 0;
}
