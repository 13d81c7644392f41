// Kernels whose shared accesses are guarded by the CTA and the problem size, as real kernels are:
// layoutproof proves their claims for every CTA of every grid and every size the launch allows
// (docs/compiled.md, "Every launch"). Compiled by
//   nvcc -arch=sm_90 -ptx -lineinfo -o tests/ptx/launches.ptx tests/ptx/launches.cu

// A tile per CTA with a tail guard: `if (i >= n) return;` (every CTA past n's last tile exits).
__global__ void tail_guard(float* out, const float* in, int n) {
  __shared__ float s[256];
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[threadIdx.x ^ 1];
}

// A 32x32 transpose through a padded tile, guarded in both dimensions (a partial edge tile).
__global__ void edge_transpose(float* out, const float* in, int w, int h) {
  __shared__ float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  if (tx < h && ty < w) out[ty * h + tx] = tile[threadIdx.x][threadIdx.y];
}

// The same without padding: the column read is a 32-way conflict in every CTA that runs it.
__global__ void edge_transpose_unpadded(float* out, const float* in, int w, int h) {
  __shared__ float tile[32][32];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  if (tx < h && ty < w) out[ty * h + tx] = tile[threadIdx.x][threadIdx.y];
}

// The last CTA of the grid stages a different slice: the address depends on gridDim.
__global__ void last_block(float* out, const float* in, int n) {
  __shared__ float s[512];
  const int t = threadIdx.x;
  if (blockIdx.x + 1 == gridDim.x) s[t + 256] = in[t];
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t];
}
