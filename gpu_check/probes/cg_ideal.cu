// What Nsight Compute counts for one cp.async.cg (LDGSTS.E.BYPASS.128) with nothing else in flight:
// one warp copies 16 bytes per active lane, commits and waits, for every combination of
//   a global arrangement G (16-byte units from a 256-byte-aligned buffer):
//     0 contiguous (lane l at l), 1 rows of 16 units (l % 16 + 16 (l / 16): two 256-byte rows),
//     2 a line each (8 l: lane l alone in its 128-byte line), 3 the 64-byte rows of cuda-samples'
//     MatrixMulAsyncCopyLargeChunk's first block (l % 16 + 4 (l / 16));
//   a shared arrangement S: 0 contiguous, 1 the same 64-byte rows (l % 16 + 4 (l / 16)), 2 one
//     128-byte line per lane (8 l: every lane on the same banks);
//   an active mask M: 0 all, 1 lanes 0-3 and 16-19, 2 lanes 0-7, 3 lanes 0-3, 4 the even lanes.
// Kernel cg<G, S, M> is one instruction per combination (60), each read per SASS instruction:
//   nvcc -arch=sm_90a -o cg_ideal gpu_check/probes/cg_ideal.cu
//   ncu --print-kernel-base mangled --section SourceCounters --page source --csv --print-source sass ./cg_ideal > cg_ideal.csv
// The table, trimmed (gpu_check/compiled/trim_ncu.py): gpu_check/probes/data/cg_ideal.ncu.csv; as
// bank-model cases: tests/bank/data/h200_cg_probe.jsonl (gpu_check/probes/cg_ideal_table.py).
#include <cstdio>

__device__ __forceinline__ int g_unit(int g, int l) {
  switch (g) {
    case 0: return l;
    case 1: return l % 16 + 16 * (l / 16);
    case 2: return 8 * l;
    default: return l % 16 + 4 * (l / 16);
  }
}
__device__ __forceinline__ int s_unit(int s, int l) {
  switch (s) {
    case 0: return l;
    case 1: return l % 16 + 4 * (l / 16);
    default: return 8 * l;
  }
}
__host__ __device__ constexpr unsigned mask_of(int m) {
  return m == 0 ? 0xffffffffu : m == 1 ? 0x000f000fu : m == 2 ? 0xffu : m == 3 ? 0xfu : 0x55555555u;
}

template <int G, int S, int M>
__global__ void cg(const float4* a, float* out) {
  __shared__ __align__(1024) float4 buf[256];
  const int l = threadIdx.x;
  if ((mask_of(M) >> l) & 1) {
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&buf[s_unit(S, l)]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(a + g_unit(G, l)));
  }
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_all;");
  __syncthreads();
  out[l] = buf[s_unit(S, l)].x;
}

template <int G, int S, int M>
void launch(const float4* a, float* out) {
  cg<G, S, M><<<1, 32>>>(a, out);
  if constexpr (M + 1 < 5) launch<G, S, M + 1>(a, out);
  else if constexpr (S + 1 < 3) launch<G, S + 1, 0>(a, out);
  else if constexpr (G + 1 < 4) launch<G + 1, 0, 0>(a, out);
}

int main() {
  float4* a;
  float* out;
  cudaMalloc(&a, 512 * sizeof(float4));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemset(a, 0, 512 * sizeof(float4));
  launch<0, 0, 0>(a, out);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
