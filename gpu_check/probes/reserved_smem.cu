// What PTX's %reserved_smem_offset_* registers hold on the GPU (cooperative groups' multi-warp
// barrier lives there: its SASS reads the offset from the driver's constant c[0x0][0x6c] and makes
// a generic address with SR_SWINHI), for kernels with no, a small and a large static shared array,
// each launched with 0 and 48 KiB of dynamic shared memory. Prints one line per launch:
//   kernel static_bytes dynamic_bytes begin end cap off0 off1 window_lo(smem)
// Run: nvcc -arch=sm_90a -o reserved_smem gpu_check/probes/reserved_smem.cu && ./reserved_smem
// and cuobjdump -sass reserved_smem | grep -E "Function|c\[0x0\]" to see which constants they read.
#include <cooperative_groups.h>
#include <cstdio>

template <int S>
__global__ void probe(unsigned* out, int dynamic) {
  __shared__ unsigned char stat[S > 0 ? S : 1];
  extern __shared__ unsigned char dyn[];
  unsigned r[5];
  asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(r[0]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(r[1]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(r[2]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(r[3]));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(r[4]));
  if (threadIdx.x == 0) {
    for (int k = 0; k < 5; ++k) out[k] = r[k];
    out[5] = static_cast<unsigned>(__cvta_generic_to_shared(S > 0 ? stat : dyn));
    stat[threadIdx.x % (S > 0 ? S : 1)] = 1;
    if (dynamic > 0) dyn[0] = stat[0];  // no dynamic bytes: dyn[0] is past the CTA's shared memory
  }
}

// A multi-warp tile's sync: its barrier word is at %reserved_smem_offset_1 (+4), read in SASS as
// a constant; cuobjdump shows which one, to compare with probe's reads.
__global__ void cg_tile(float* out) {
  namespace cg = cooperative_groups;
  auto t = cg::tiled_partition<128>(cg::this_thread_block());
  t.sync();
  out[threadIdx.x] = static_cast<float>(t.thread_rank());
}

template <int S>
int run(unsigned* d, int dynamic) {
  cudaFuncSetAttribute(probe<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  probe<S><<<1, 32, dynamic>>>(d, dynamic);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  unsigned h[6];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("probe<%d> %d %d %u %u %u %u %u %u\n", S, S, dynamic, h[0], h[1], h[2], h[3], h[4], h[5]);
  return 0;
}

int main() {
  unsigned* d;
  cudaMalloc(&d, 64);
  int bad = 0;
  for (int dyn : {0, 48 * 1024}) bad += run<0>(d, dyn) + run<256>(d, dyn) + run<8192>(d, dyn);
  float* f;
  cudaMalloc(&f, 256 * sizeof(float));
  cg_tile<<<1, 256>>>(f);
  bad += cudaDeviceSynchronize() != cudaSuccess;
  std::printf("cg_tile %s\n", bad ? "failed" : "ok");
  return bad;
}
