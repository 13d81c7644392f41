// A tutorial shared-memory SGEMM (one 32x32 tile of C per CTA, a k-loop over K in steps of 32), the
// symbolic proof's benchmark: M, N, K free, the grid symbolic (bench/symbolic_sgemm.sh).
//   nvcc -arch=sm_90 -ptx -lineinfo sgemm_tiled.cu -o sgemm_tiled.ptx   (CUDA 13.0; the .file path made relative)
#define BS 32

__global__ void sgemm_tiled(int M, int N, int K, const float* A, const float* B, float* C) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float acc = 0.f;
  for (int t = 0; t < K; t += BS) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < BS; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
