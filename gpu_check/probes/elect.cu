// Which lane elect.sync elects on this GPU: for each mask below, every lane of a warp whose bit is
// set (and only those) runs `elect.sync d|p, mask`; the kernel records d and which lane saw p.
// The model (model/compiled/exec/ptx_warp.cpp elect) takes the lowest lane of the issue in the mask.
//   nvcc -arch=sm_90a -o elect gpu_check/probes/elect.cu && ./elect
// prints one line per mask: "mask 0x... leader L elected L' model M" and exits 1 on a disagreement.
#include <cstdio>
#include <cstdint>

__global__ void probe(const unsigned* masks, int n, int* leader, int* elected) {
  const unsigned lane = threadIdx.x;
  for (int i = 0; i < n; ++i) {
    const unsigned m = masks[i];
    if ((m >> lane) & 1) {
      unsigned d = 0, p = 0;
      asm volatile("{\n .reg .pred e;\n elect.sync %0|e, %2;\n selp.u32 %1, 1, 0, e;\n}" : "=r"(d), "=r"(p) : "r"(m));
      if (p) elected[i] = static_cast<int>(lane);
      if (lane == static_cast<unsigned>(__ffs(m) - 1)) leader[i] = static_cast<int>(d);
    }
    __syncwarp();
  }
}

int main() {
  unsigned h[] = {0xffffffffu, 0xfffffffeu, 0xaaaaaaaau, 0x55555555u, 0x80000000u, 0x00010000u, 0xffff0000u,
                  0x0000ffffu, 0xf0f0f0f0u, 0x12345678u, 0x87654320u, 0xc0000001u, 0x00000080u, 0x7ffffffeu};
  const int n = sizeof h / sizeof h[0];
  unsigned* m;
  int *l, *e;
  cudaMalloc(&m, sizeof h);
  cudaMalloc(&l, n * sizeof(int));
  cudaMalloc(&e, n * sizeof(int));
  cudaMemcpy(m, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(l, 0xff, n * sizeof(int));
  cudaMemset(e, 0xff, n * sizeof(int));
  probe<<<1, 32>>>(m, n, l, e);
  int hl[64], he[64];
  cudaMemcpy(hl, l, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(he, e, n * sizeof(int), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) return 2;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const int model = __builtin_ctz(h[i]);
    std::printf("mask 0x%08x leader %d elected %d model %d\n", h[i], hl[i], he[i], model);
    bad += hl[i] != model || he[i] != model;
  }
  return bad ? 1 : 0;
}
