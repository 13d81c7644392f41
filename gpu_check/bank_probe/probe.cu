// bank_probe: measures shared-memory wavefronts of one warp-wide instruction per case.
//
// Input (argv[1]): one case per line: NAME OP WIDTH A0 ... A31   (OP: ld st ldsm1 ldsm2 ldsm4
// stsm1 stsm2 stsm4 ldgsts; A = byte offset into dynamic shared memory, -1 = lane inactive;
// ldgsts = cp.async of WIDTH 4, 8 or 16 bytes from global memory, lane l reading l * WIDTH).
// For every case, in file order, one single-warp kernel launch executes the instruction kIters
// times (inline PTX, so the SASS holds exactly one LDS/STS/LDSM/STSM of the intended width, see
// run_probe.sh's cuobjdump check). Nsight Compute reads the wavefront and instruction counters per
// launch; parse_ncu.py divides them. No other kernel is launched, so launch k = case k.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)

constexpr int kIters = 64;
enum Op { LD = 0, ST = 1, LDSM = 2, STSM = 3 };

template <int W>
__global__ void k_ld(const int* addr, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int a = addr[threadIdx.x];
  unsigned acc = 0;
  if (a >= 0) {
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + a;
#pragma unroll 1
    for (int i = 0; i < kIters; ++i) {
      if constexpr (W == 1) { unsigned v; asm volatile("ld.shared.u8 %0, [%1];" : "=r"(v) : "r"(s) : "memory"); acc ^= v; }
      if constexpr (W == 2) { unsigned short v; asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(s) : "memory"); acc ^= v; }
      if constexpr (W == 4) { unsigned v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(s) : "memory"); acc ^= v; }
      if constexpr (W == 8) { unsigned v0, v1; asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(s) : "memory"); acc ^= v0 ^ v1; }
      if constexpr (W == 16) { unsigned v0, v1, v2, v3; asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(s) : "memory"); acc ^= v0 ^ v1 ^ v2 ^ v3; }
    }
  }
  sink[threadIdx.x] = acc;
}

template <int W>
__global__ void k_st(const int* addr, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int a = addr[threadIdx.x];
  const unsigned v = threadIdx.x * 0x01010101u;
  if (a >= 0) {
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + a;
#pragma unroll 1
    for (int i = 0; i < kIters; ++i) {
      if constexpr (W == 1) asm volatile("st.shared.u8 [%0], %1;" :: "r"(s), "r"(v) : "memory");
      if constexpr (W == 2) asm volatile("st.shared.u16 [%0], %1;" :: "r"(s), "h"((unsigned short)v) : "memory");
      if constexpr (W == 4) asm volatile("st.shared.u32 [%0], %1;" :: "r"(s), "r"(v) : "memory");
      if constexpr (W == 8) asm volatile("st.shared.v2.u32 [%0], {%1,%2};" :: "r"(s), "r"(v), "r"(v + 1) : "memory");
      if constexpr (W == 16) asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" :: "r"(s), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3) : "memory");
    }
  }
  sink[threadIdx.x] = static_cast<unsigned>(__cvta_generic_to_shared(smem));  // records the base
}

// ldmatrix/stmatrix need every lane; lanes whose address the .xN form ignores get address 0.
template <int N>
__global__ void k_ldsm(const int* addr, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int a = addr[threadIdx.x] < 0 ? 0 : addr[threadIdx.x];
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + a;
  unsigned acc = 0;
#pragma unroll 1
  for (int i = 0; i < kIters; ++i) {
    if constexpr (N == 1) { unsigned r0; asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(s) : "memory"); acc ^= r0; }
    if constexpr (N == 2) { unsigned r0, r1; asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(s) : "memory"); acc ^= r0 ^ r1; }
    if constexpr (N == 4) { unsigned r0, r1, r2, r3; asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(s) : "memory"); acc ^= r0 ^ r1 ^ r2 ^ r3; }
  }
  sink[threadIdx.x] = acc;
}

template <int N>
__global__ void k_stsm(const int* addr, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int a = addr[threadIdx.x] < 0 ? 0 : addr[threadIdx.x];
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + a;
  const unsigned v = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < kIters; ++i) {
    if constexpr (N == 1) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(s), "r"(v) : "memory");
    if constexpr (N == 2) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(s), "r"(v), "r"(v + 1) : "memory");
    if constexpr (N == 4) asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(s), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3) : "memory");
  }
  sink[threadIdx.x] = static_cast<unsigned>(__cvta_generic_to_shared(smem));
}

// cp.async (LDGSTS): each active lane copies W bytes from global (lane * W bytes into `src`) to
// its shared address; .cg (L2 only) for 16 bytes, .ca otherwise (the only forms PTX has for 4/8).
template <int W>
__global__ void k_ldgsts(const int* addr, unsigned* src) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int a = addr[threadIdx.x];
  if (a >= 0) {
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + a;
    const unsigned char* g = reinterpret_cast<const unsigned char*>(src) + threadIdx.x * W;
#pragma unroll 1
    for (int i = 0; i < kIters; ++i) {
      if constexpr (W == 16) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(g) : "memory");
      else asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(s), "l"(g), "n"(W) : "memory");
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
  }
}

using Kernel = void (*)(const int*, unsigned*);

Kernel pick(const std::string& op, int w) {
  if (op == "ld") switch (w) { case 1: return k_ld<1>; case 2: return k_ld<2>; case 4: return k_ld<4>; case 8: return k_ld<8>; case 16: return k_ld<16>; }
  if (op == "st") switch (w) { case 1: return k_st<1>; case 2: return k_st<2>; case 4: return k_st<4>; case 8: return k_st<8>; case 16: return k_st<16>; }
  if (op == "ldsm1") return k_ldsm<1>;
  if (op == "ldsm2") return k_ldsm<2>;
  if (op == "ldsm4") return k_ldsm<4>;
  if (op == "stsm1") return k_stsm<1>;
  if (op == "stsm2") return k_stsm<2>;
  if (op == "stsm4") return k_stsm<4>;
  if (op == "ldgsts") switch (w) { case 4: return k_ldgsts<4>; case 8: return k_ldgsts<8>; case 16: return k_ldgsts<16>; }
  return nullptr;
}

int main(int argc, char** argv) {
  if (argc < 2) { std::fprintf(stderr, "usage: probe CASES\n"); return 2; }
  std::ifstream in(argv[1]);
  constexpr int kSmem = 48 * 1024;
  int* d_addr; unsigned* d_sink;
  CK(cudaMalloc(&d_addr, 32 * sizeof(int)));
  CK(cudaMalloc(&d_sink, 32 * 16));  // the sink, and ldgsts's global source (16 bytes a lane)
  CK(cudaMemset(d_sink, 0, 32 * 16));
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string name, op; int w; int a[32];
    ls >> name >> op >> w;
    for (int& x : a) ls >> x;
    if (!ls) { std::fprintf(stderr, "bad line: %s\n", line.c_str()); return 2; }
    for (int x : a) if (x >= kSmem) { std::fprintf(stderr, "address too large: %s\n", name.c_str()); return 2; }
    Kernel k = pick(op, w);
    if (!k) { std::fprintf(stderr, "bad op: %s\n", line.c_str()); return 2; }
    CK(cudaMemcpy(d_addr, a, sizeof a, cudaMemcpyHostToDevice));
    k<<<1, 32, kSmem>>>(d_addr, d_sink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (op != "ldgsts" && (n == 0 || op[0] == 's')) {
      unsigned base; CK(cudaMemcpy(&base, d_sink, sizeof base, cudaMemcpyDeviceToHost));
      if (op[0] == 's' && n < 1000) std::printf("case %d %s smem_base=%u\n", n, name.c_str(), base);
    }
    ++n;
  }
  std::printf("launched %d cases\n", n);
  return 0;
}
