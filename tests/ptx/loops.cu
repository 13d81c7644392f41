// Loops whose trip count is a kernel parameter or depends on the grid (the loop summary's cases).
//   nvcc -arch=sm_90 -ptx -lineinfo loops.cu -o loops.ptx   (CUDA 13.0; tests/cli/loop_twin_test.py)
#define TILE 256

// A k-loop over a free K: the tile's shared addresses are the same every iteration.
__global__ void k_loop(const float* A, float* out, int K) {
  __shared__ float s[TILE];
  float acc = 0.f;
  for (int k = 0; k < K; k += 8) {
    s[threadIdx.x] = A[k * TILE + threadIdx.x];
    __syncthreads();
    acc += s[(threadIdx.x + 1) % TILE];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// A grid-stride loop, then a block reduction in shared memory.
__global__ void grid_stride(const float* in, float* out, int n) {
  __shared__ float s[TILE];
  float sum = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int st = TILE / 2; st > 0; st >>= 1) {
    if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// The shared index walks with the iteration: in bounds only while k < 64.
__global__ void walk(float* out, int K) {
  __shared__ float s[64];
  for (int k = 0; k < K; ++k) s[k] = out[k];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 64];
}

// The same walk, bounded by the array: in bounds for every K.
__global__ void walk_bounded(float* out, int K) {
  __shared__ float s[64];
  for (int k = 0; k < K && k < 64; ++k) s[k] = out[k];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 64];
}

// A stride the iteration changes: each warp's lanes step by 2 words from a base that moves by 32.
__global__ void strided(float* out, int K) {
  __shared__ float s[4096];
  for (int k = 0; k < K; ++k) s[(k * 32 + threadIdx.x * 2) % 4096] = out[k];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// Double buffering: a stage that flips every iteration.
__global__ void two_stages(const float* A, float* out, int K) {
  __shared__ float s[2][TILE];
  float acc = 0.f;
  int stage = 0;
  for (int k = 0; k < K; ++k) {
    s[stage][threadIdx.x] = A[k * TILE + threadIdx.x];
    __syncthreads();
    acc += s[stage][(threadIdx.x + 1) % TILE];
    stage ^= 1;
  }
  out[threadIdx.x] = acc;
}
