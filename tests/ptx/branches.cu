// Kernels whose CTAs take different paths through shared memory, as real kernels do: an if/else on
// the CTA or the problem size both of whose sides stage data. layoutproof runs both sides, each
// thread on the side its condition picks, and proves the claims for every CTA, grid and size
// (docs/compiled.md, "Every launch"). Compiled by
//   nvcc -arch=sm_90 -ptx -lineinfo -o tests/ptx/branches.ptx tests/ptx/branches.cu   (CUDA 13.0; the .file path made relative)

// A full tile takes a vectorized path, the partial last tile a guarded scalar one (residue handling).
__global__ void full_or_partial(float* out, const float* in, int n) {
  __shared__ float s[1024];
  const int base = blockIdx.x * 1024, t = threadIdx.x;
  if (base + 1024 <= n) {
    reinterpret_cast<float4*>(s)[t] = reinterpret_cast<const float4*>(in + base)[t];
  } else {
#pragma unroll 1
    for (int k = t; k < 1024; k += 256) s[k] = base + k < n ? in[base + k] : 0.f;
  }
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t] + s[t + 768];
}

// Even CTAs stage rows, odd CTAs columns of a padded 32x33 tile: conflict-free on both paths.
__global__ void row_or_column(float* out, const float* in) {
  __shared__ float tile[32][33];
  const int x = threadIdx.x, y = threadIdx.y;
  if (blockIdx.x % 2 == 0) {
    tile[y][x] = in[blockIdx.x * 1024 + y * 32 + x];
    __syncthreads();
    out[blockIdx.x * 1024 + y * 32 + x] = tile[x][y];
  } else {
    tile[x][y] = in[blockIdx.x * 1024 + y * 32 + x];
    __syncthreads();
    out[blockIdx.x * 1024 + y * 32 + x] = tile[y][x];
  }
}

// The same without padding: the odd CTAs' column accesses are 32-way conflicts.
__global__ void row_or_column_unpadded(float* out, const float* in) {
  __shared__ float tile[32][32];
  const int x = threadIdx.x, y = threadIdx.y;
  if (blockIdx.x % 2 == 0) {
    tile[y][x] = in[blockIdx.x * 1024 + y * 32 + x];
    __syncthreads();
    out[blockIdx.x * 1024 + y * 32 + x] = tile[x][y];
  } else {
    tile[x][y] = in[blockIdx.x * 1024 + y * 32 + x];
    __syncthreads();
    out[blockIdx.x * 1024 + y * 32 + x] = tile[y][x];
  }
}
