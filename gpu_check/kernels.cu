// gpu_check kernels: bijectivity, data round trip and clock64 bank-conflict timing. The layout is
// evaluated on the device by model/layout/flat_layout.hpp (the same code the proofs talk about); the
// lane addresses of the claimed accesses come from model/trace/access.hpp on the host (RoundTripPlan),
// so a round trip checks that the model's addresses hold the elements the scalar accesses put
// there. Inline PTX keeps each claimed access one instruction of the claimed width.
#include <cuda_runtime.h>

#include <cstring>

#include "gpu_check/device.hpp"

namespace layoutproof::gpu {
namespace {

std::string last_error(cudaError_t e) { return e == cudaSuccess ? "" : cudaGetErrorString(e); }

__device__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// -- bijectivity -----------------------------------------------------------------------------------

__global__ void k_bijectivity(FlatLayout l, long long n, long long slots, unsigned* count, unsigned long long* outside) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long s = l(i);
    if (s >= 0 && s < slots) atomicAdd(&count[s], 1u); else atomicAdd(outside, 1ull);
  }
}

// -- round trip ------------------------------------------------------------------------------------

__device__ void scalar_copy(unsigned char* dst, const unsigned char* src, int e) {
  switch (e) {
    case 1: *dst = *src; break;
    case 2: *reinterpret_cast<unsigned short*>(dst) = *reinterpret_cast<const unsigned short*>(src); break;
    case 4: *reinterpret_cast<unsigned*>(dst) = *reinterpret_cast<const unsigned*>(src); break;
    default: *reinterpret_cast<unsigned long long*>(dst) = *reinterpret_cast<const unsigned long long*>(src); break;
  }
}

__device__ void vector_load(unsigned s, int w, unsigned (&r)[4]) {
  switch (w) {
    case 1: asm volatile("ld.shared.u8 %0, [%1];" : "=r"(r[0]) : "r"(s) : "memory"); break;
    case 2: { unsigned short h; asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(s) : "memory"); r[0] = h; break; }
    case 4: asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r[0]) : "r"(s) : "memory"); break;
    case 8: asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(s) : "memory"); break;
    default: asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s) : "memory");
  }
}

__device__ void vector_store(unsigned s, int w, const unsigned (&r)[4]) {
  switch (w) {
    case 1: asm volatile("st.shared.u8 [%0], %1;" :: "r"(s), "r"(r[0]) : "memory"); break;
    case 2: asm volatile("st.shared.u16 [%0], %1;" :: "r"(s), "h"(static_cast<unsigned short>(r[0])) : "memory"); break;
    case 4: asm volatile("st.shared.u32 [%0], %1;" :: "r"(s), "r"(r[0]) : "memory"); break;
    case 8: asm volatile("st.shared.v2.u32 [%0], {%1,%2};" :: "r"(s), "r"(r[0]), "r"(r[1]) : "memory"); break;
    default: asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" :: "r"(s), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  }
}

__device__ void ldmatrix(unsigned s, int n, unsigned (&r)[4]) {
  if (n == 1) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(s) : "memory");
  else if (n == 2) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(s) : "memory");
  else asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s) : "memory");
}

__device__ void stmatrix(unsigned s, int n, const unsigned (&r)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (n == 1) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(s), "r"(r[0]) : "memory");
  else if (n == 2) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(s), "r"(r[0]), "r"(r[1]) : "memory");
  else asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(s), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
#else
  (void)s; (void)n; (void)r;
  __trap();  // stmatrix needs sm_90; the driver skips stmatrix below sm_90
#endif
}

struct RtArgs {
  FlatLayout layout;
  int rows, cols, e, w, matrix_n, instructions, store;
  long long smem_bytes;
  const int* addr;
  const int* dst;
  const unsigned char* src;
  unsigned char* out;
};

// One warp. Scalar side: element (r, c) at byte L(r + rows * c) * e. Claimed side: the plan's
// instructions, in order, each lane at its planned address.
__global__ void k_round_trip(RtArgs a) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int lane = threadIdx.x;
  for (long long i = lane; i < a.smem_bytes; i += 32) smem[i] = 0;
  __syncwarp();
  const long long n = static_cast<long long>(a.rows) * a.cols;
  const unsigned base = smem_addr(smem);
  if (!a.store) {
    for (long long i = lane; i < n; i += 32)
      scalar_copy(smem + a.layout((i % a.cols) * a.rows + i / a.cols) * a.e, a.src + i * a.e, a.e);
    __syncwarp();
  }
  for (int k = 0; k < a.instructions; ++k) {
    const int ad = a.addr[k * 32 + lane];
    unsigned r[4] = {0, 0, 0, 0};
    if (a.matrix_n == 0) {
      const int d = a.dst[k * 32 + lane];
      if (ad < 0) continue;
      if (a.store) {
        unsigned char* b = reinterpret_cast<unsigned char*>(r);
        for (int j = 0; j < a.w; ++j) b[j] = a.src[static_cast<long long>(d) * a.e + j];
        vector_store(base + ad, a.w, r);
      } else {
        vector_load(base + ad, a.w, r);
        const unsigned char* b = reinterpret_cast<const unsigned char*>(r);
        for (int j = 0; j < a.w; ++j) a.out[static_cast<long long>(d) * a.e + j] = b[j];
      }
      continue;
    }
    const int* d = a.dst + (k * 32 + lane) * 8;
    if (a.store) {
      for (int j = 0; j < a.matrix_n; ++j)
        for (int h = 0; h < 2; ++h)
          if (d[2 * j + h] >= 0)
            r[j] |= static_cast<unsigned>(reinterpret_cast<const unsigned short*>(a.src)[d[2 * j + h]]) << (16 * h);
      stmatrix(base + ad, a.matrix_n, r);
    } else {
      ldmatrix(base + ad, a.matrix_n, r);
      for (int j = 0; j < a.matrix_n; ++j)
        for (int h = 0; h < 2; ++h)
          if (d[2 * j + h] >= 0)
            reinterpret_cast<unsigned short*>(a.out)[d[2 * j + h]] = static_cast<unsigned short>(r[j] >> (16 * h));
    }
  }
  if (a.store) {
    __syncwarp();
    for (long long i = lane; i < n; i += 32)
      scalar_copy(a.out + i * a.e, smem + a.layout((i % a.cols) * a.rows + i / a.cols) * a.e, a.e);
  }
}

// -- clock64 timing --------------------------------------------------------------------------------

constexpr int kClockWarps = 8;
constexpr int kClockIters = 2048;

// The address depends on the loop counter through `zero` (0 at run time, unknown to ptxas), so the
// instruction cannot be hoisted; 8 independent accesses per unrolled step keep the pipe busy.
template <int OP, int W>
__global__ void k_clock(const int* addr, int zero, long long* cycles, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int lane = threadIdx.x & 31;
  int a = addr[lane];
  const bool active = a >= 0 || OP >= 2;
  if (a < 0) a = 0;
  const unsigned s0 = smem_addr(smem) + a;
  unsigned acc = 0;
  const unsigned v[4] = {threadIdx.x, threadIdx.x + 1, threadIdx.x + 2, threadIdx.x + 3};
  __syncthreads();
  const long long t0 = clock64();
  if (active) {
#pragma unroll 1
    for (int i = 0; i < kClockIters; i += 8) {
#pragma unroll
      for (int u = 0; u < 8; ++u) {
        const unsigned s = s0 + ((i + u) & zero);
        unsigned r[4];
        if constexpr (OP == 0) { vector_load(s, W, r); acc ^= r[0] ^ (W >= 8 ? r[1] : 0) ^ (W == 16 ? r[2] ^ r[3] : 0); }
        if constexpr (OP == 1) vector_store(s, W, v);
        if constexpr (OP == 2) { ldmatrix(s, W, r); acc ^= r[0] ^ (W >= 2 ? r[1] : 0) ^ (W == 4 ? r[2] ^ r[3] : 0); }
        if constexpr (OP == 3) stmatrix(s, W, v);
      }
    }
  }
  __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) *cycles = t1 - t0;
  sink[threadIdx.x] = acc;
}

using ClockKernel = void (*)(const int*, int, long long*, unsigned*);

ClockKernel clock_kernel(SmemOp op, int w) {
  switch (op) {
    case SmemOp::ld: return w == 1 ? k_clock<0, 1> : w == 2 ? k_clock<0, 2> : w == 4 ? k_clock<0, 4> : w == 8 ? k_clock<0, 8> : k_clock<0, 16>;
    case SmemOp::st: return w == 1 ? k_clock<1, 1> : w == 2 ? k_clock<1, 2> : w == 4 ? k_clock<1, 4> : w == 8 ? k_clock<1, 8> : k_clock<1, 16>;
    case SmemOp::ldsm1: return k_clock<2, 1>;
    case SmemOp::ldsm2: return k_clock<2, 2>;
    case SmemOp::ldsm4: return k_clock<2, 4>;
    case SmemOp::stsm1: return k_clock<3, 1>;
    case SmemOp::stsm2: return k_clock<3, 2>;
    case SmemOp::stsm4: return k_clock<3, 4>;
    case SmemOp::ldgsts: return nullptr;  // cp.async: measured by Nsight Compute only (bank_probe)
  }
  return nullptr;
}

}  // namespace

DeviceInfo query_device() {
  DeviceInfo d;
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    d.error = e != cudaSuccess ? last_error(e) : "no CUDA device";
    return d;
  }
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, 0);
  d.present = true;
  d.name = p.name;
  d.major = p.major;
  d.minor = p.minor;
  return d;
}

BijectivityMeasure device_bijectivity(const FlatLayout& l, std::int64_t n, std::int64_t slots) {
  BijectivityMeasure m;
  unsigned* count = nullptr;
  unsigned long long* outside = nullptr;
  cudaError_t e = cudaMalloc(&count, slots * sizeof(unsigned));
  if (e == cudaSuccess) e = cudaMalloc(&outside, sizeof(unsigned long long));
  if (e == cudaSuccess) e = cudaMemset(count, 0, slots * sizeof(unsigned));
  if (e == cudaSuccess) e = cudaMemset(outside, 0, sizeof(unsigned long long));
  if (e == cudaSuccess) {
    const int blocks = static_cast<int>(std::min<std::int64_t>(1024, (n + 255) / 256));
    k_bijectivity<<<blocks, 256>>>(l, n, slots, count, outside);
    e = cudaDeviceSynchronize();
  }
  if (e == cudaSuccess) {
    m.counts.resize(slots);
    e = cudaMemcpy(m.counts.data(), count, slots * sizeof(unsigned), cudaMemcpyDeviceToHost);
  }
  if (e == cudaSuccess) e = cudaMemcpy(&m.outside, outside, sizeof m.outside, cudaMemcpyDeviceToHost);
  m.error = last_error(e);
  cudaFree(count);
  cudaFree(outside);
  return m;
}

RoundTripMeasure device_round_trip(const RoundTripPlan& p, const std::vector<unsigned char>& src) {
  RoundTripMeasure m;
  RtArgs a{p.layout, static_cast<int>(p.rows), static_cast<int>(p.cols), p.elem_bytes, p.width_bytes, p.matrix_n,
           p.instructions, p.store ? 1 : 0, p.smem_bytes, nullptr, nullptr, nullptr, nullptr};
  int *d_addr = nullptr, *d_dst = nullptr;
  unsigned char *d_src = nullptr, *d_out = nullptr;
  std::vector<unsigned char> init(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) init[i] = static_cast<unsigned char>(~src[i]);  // never a match
  cudaError_t e = cudaMalloc(&d_addr, p.addr.size() * sizeof(int));
  if (e == cudaSuccess) e = cudaMalloc(&d_dst, p.dst.size() * sizeof(int));
  if (e == cudaSuccess) e = cudaMalloc(&d_src, src.size());
  if (e == cudaSuccess) e = cudaMalloc(&d_out, src.size());
  if (e == cudaSuccess) e = cudaMemcpy(d_addr, p.addr.data(), p.addr.size() * sizeof(int), cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(d_dst, p.dst.data(), p.dst.size() * sizeof(int), cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(d_src, src.data(), src.size(), cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(d_out, init.data(), init.size(), cudaMemcpyHostToDevice);
  if (e == cudaSuccess && p.smem_bytes > 48 * 1024)
    e = cudaFuncSetAttribute(k_round_trip, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(p.smem_bytes));
  if (e == cudaSuccess) {
    a.addr = d_addr; a.dst = d_dst; a.src = d_src; a.out = d_out;
    k_round_trip<<<1, 32, p.smem_bytes>>>(a);
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
  }
  if (e == cudaSuccess) {
    m.out.resize(src.size());
    e = cudaMemcpy(m.out.data(), d_out, src.size(), cudaMemcpyDeviceToHost);
  }
  m.error = last_error(e);
  cudaFree(d_addr); cudaFree(d_dst); cudaFree(d_src); cudaFree(d_out);
  return m;
}

double device_cycles_per_instruction(const SmemAccess& acc, std::string* error) {
  ClockKernel k = clock_kernel(acc.op, is_matrix_op(acc.op) ? matrix_count(acc.op) : acc.width_bytes);
  if (!k) {
    *error = "no clock kernel for " + to_string(acc.op) + " (measured by Nsight Compute only)";
    return -1;
  }
  int* d_addr = nullptr;
  long long* d_cycles = nullptr;
  unsigned* d_sink = nullptr;
  int addr[32];
  for (int i = 0; i < 32; ++i) addr[i] = static_cast<int>(acc.lane_addr[i]);
  cudaError_t e = cudaMalloc(&d_addr, sizeof addr);
  if (e == cudaSuccess) e = cudaMalloc(&d_cycles, sizeof(long long));
  if (e == cudaSuccess) e = cudaMalloc(&d_sink, 32 * kClockWarps * sizeof(unsigned));
  if (e == cudaSuccess) e = cudaMemcpy(d_addr, addr, sizeof addr, cudaMemcpyHostToDevice);
  long long best = -1;
  for (int rep = 0; rep < 3 && e == cudaSuccess; ++rep) {  // the fastest of 3 runs
    k<<<1, 32 * kClockWarps, 48 * 1024>>>(d_addr, 0, d_cycles, d_sink);
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    long long c = 0;
    if (e == cudaSuccess) e = cudaMemcpy(&c, d_cycles, sizeof c, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess && (best < 0 || c < best)) best = c;
  }
  cudaFree(d_addr); cudaFree(d_cycles); cudaFree(d_sink);
  if (e != cudaSuccess) {
    *error = last_error(e);
    return -1;
  }
  return static_cast<double>(best) / (static_cast<double>(kClockIters) * kClockWarps);
}

}  // namespace layoutproof::gpu
