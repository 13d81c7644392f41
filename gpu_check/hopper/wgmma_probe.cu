// What TMA writes and what WGMMA reads, measured: one CTA (one warpgroup) loads A (64 x K) and
// B (64 x K), both K-major bf16, with cp.async.bulk.tensor under a tensor map's swizzle, then
// computes D = A B^T with wgmma.mma_async m64n64k16 (K/16 steps, the descriptor's start address
// advanced per step), and compares D with the host's exact product (small integers: exact in bf16
// and f32; bf16, and e4m3 with m64n64k32). Each variant changes A's side alone: its shared-memory placement past a 1024-byte
// boundary, or one field of A's descriptor (layout type, SBO, LBO, base offset, the K step); B's
// placement and descriptor stay CUTLASS's (1024-aligned, SBO = 8 rows x the span, layout type of
// its swizzle). K = the span / 2 bytes: one TMA box row is one swizzle row.
//
// Usage: wgmma_probe list          the variants, one per line
//        wgmma_probe run I         runs variant I, prints "I <fields> wrong=N/4096" or "error=..."
// (one variant per process: a fault kills the context). gpu_check/hopper/run_probe.sh runs all.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

struct Variant {
  int fp8;        // 0: bf16 (m64n64k16), 1: e4m3 (m64n64k32; the tensor map's UINT8)
  int swizzle;    // CUtensorMapSwizzle: 1 = 32B, 2 = 64B, 3 = 128B
  int offset;     // A's destination, bytes past a 1024-byte boundary
  int layout;     // A's descriptor bits [62,64): 1 = 128B, 2 = 64B, 3 = 32B, 0 = interleave
  int sbo, lbo;   // A's descriptor fields (16-byte units)
  int base_off;   // A's descriptor bits [49,52); -1: (start address >> 7) & 7, the PTX ISA's formula
  int kstep;      // bytes A's start address advances per k16 step
  const char* what;
};

static int span_of(int swz) { return 16 << swz; }
static int layout_of(int swz) { return swz == 3 ? 1 : swz == 2 ? 2 : 3; }

static std::vector<Variant> variants() {
  std::vector<Variant> v;
  for (int swz : {3, 2, 1}) {
    const int span = span_of(swz), L = layout_of(swz), sbo = 8 * span / 16;
    v.push_back({0, swz, 0, L, sbo, 1, 0, 32, "reference"});
    for (int off : {16, 32, 64, 128, 256, 512, 768})
      for (int bo : {0, -1}) v.push_back({0, swz, off, L, sbo, 1, bo, 32, "placement"});
    for (int l = 0; l < 4; ++l)
      if (l != L) v.push_back({0, swz, 0, l, sbo, 1, 0, 32, "layout type"});
    v.push_back({0, swz, 0, L, 8 * span, 1, 0, 32, "SBO in bytes"});
    v.push_back({0, swz, 0, L, sbo / 2, 1, 0, 32, "SBO halved"});
    v.push_back({0, swz, 0, L, sbo * 2, 1, 0, 32, "SBO doubled"});
    for (int lbo : {0, 2, 64, 0x3fff}) v.push_back({0, swz, 0, L, sbo, lbo, 0, 32, "LBO"});
    for (int ks : {16, 64, 128}) v.push_back({0, swz, 0, L, sbo, 1, 0, ks, "K step"});
    for (int bo : {1, 4, 7}) v.push_back({0, swz, 0, L, sbo, 1, bo, 32, "base offset"});
  }
  // FP8 (e4m3, one byte: a box row of `span` elements, k-blocks of 32), after the bf16 ones.
  for (int swz : {3, 2, 1}) {
    const int span = span_of(swz), L = layout_of(swz), sbo = 8 * span / 16;
    v.push_back({1, swz, 0, L, sbo, 1, 0, 32, "reference"});
    for (int off : {16, 128, 256, 512})
      for (int bo : {0, -1}) v.push_back({1, swz, off, L, sbo, 1, bo, 32, "placement"});
    v.push_back({1, swz, 0, L == 1 ? 2 : 1, sbo, 1, 0, 32, "layout type"});
    v.push_back({1, swz, 0, L, 8 * span, 1, 0, 32, "SBO in bytes"});
    v.push_back({1, swz, 0, L, sbo * 2, 1, 0, 32, "SBO doubled"});
    for (int lbo : {0, 0x3fff}) v.push_back({1, swz, 0, L, sbo, lbo, 0, 32, "LBO"});
    for (int ks : {16, 64}) v.push_back({1, swz, 0, L, sbo, 1, 0, ks, "K step"});
    for (int bo : {1, 4}) v.push_back({1, swz, 0, L, sbo, 1, bo, 32, "base offset"});
  }
  return v;
}

constexpr int M = 64, N = 64;

__device__ __forceinline__ unsigned smem_u32(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ std::uint64_t descriptor(unsigned addr, int lbo, int sbo, int base_off, int layout) {
  return (std::uint64_t((addr & 0x3ffff) >> 4)) | (std::uint64_t(lbo & 0x3fff) << 16) | (std::uint64_t(sbo & 0x3fff) << 32) |
         (std::uint64_t(base_off & 7) << 49) | (std::uint64_t(layout & 3) << 62);
}

template <int FP8>
__global__ void __launch_bounds__(128) probe(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, float* D,
                                             int K, int offset, int layout, int sbo, int lbo, int base_off, int kstep, int layoutB,
                                             int sboB) {
  extern __shared__ unsigned char raw[];
  __shared__ alignas(8) std::uint64_t bar;
  const unsigned base = (smem_u32(raw) + 1023u) & ~1023u;
  const unsigned a = base + static_cast<unsigned>(offset), b = base + 16384u;
  const unsigned barrier = smem_u32(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barrier));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned bytes = 2u * 64u * static_cast<unsigned>(K) * (FP8 ? 1u : 2u);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(a), "l"(reinterpret_cast<std::uint64_t>(&tmA)), "r"(0), "r"(0), "r"(barrier) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(b), "l"(reinterpret_cast<std::uint64_t>(&tmB)), "r"(0), "r"(0), "r"(barrier) : "memory");
  }
  asm volatile("{\n.reg .pred P;\nWAIT_%=:\nmbarrier.try_wait.parity.shared::cta.b64 P, [%0], 0;\n@!P bra WAIT_%=;\n}\n" ::"r"(barrier) : "memory");
  float d[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) d[i] = 0.f;
  const int bo = base_off < 0 ? static_cast<int>((a >> 7) & 7) : base_off;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (int k = 0; k < K / (FP8 ? 32 : 16); ++k) {  // k-blocks of 32 bytes
    const std::uint64_t da = descriptor(a + static_cast<unsigned>(k * kstep), lbo, sbo, bo, layout);
    const std::uint64_t db = descriptor(b + static_cast<unsigned>(k * 32), 1, sboB, 0, layoutB);
    if constexpr (FP8) {
      asm volatile(
          "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
          "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 "
          "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
          "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
          "%32, %33, p, 1, 1;\n"
          "}\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]),
            "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
            "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
            "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
          : "l"(da), "l"(db));
    } else {
      asm volatile(
          "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
          "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
          "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
          "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
          "%32, %33, p, 1, 1, 0, 0;\n"
          "}\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]),
            "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
            "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
            "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
          : "l"(da), "l"(db));
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  // The accumulator fragment of m64nNk16 (PTX ISA, "Matrix fragments for wgmma .m64nNk16"): warp w
  // holds rows 16w..16w+15; d[4j + 2h + c] is row 16w + lane/4 + 8h, column 8j + 2(lane%4) + c.
  const int w = threadIdx.x / 32, l = threadIdx.x % 32;
  for (int j = 0; j < N / 8; ++j)
    for (int h = 0; h < 2; ++h)
      for (int c = 0; c < 2; ++c) D[(16 * w + l / 4 + 8 * h) * N + 8 * j + 2 * (l % 4) + c] = d[4 * j + 2 * h + c];
}

static float a_value(int m, int k) { return static_cast<float>((m * 7 + k * 3) % 5 - 2); }
static float b_value(int n, int k) { return static_cast<float>((n * 5 + k * 11) % 7 - 3); }

static void encode(CUtensorMap* tm, void* g, int K, int swizzle, int fp8) {
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(K), 64};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(K) * (fp8 ? 1 : 2)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(K), 64};
  const cuuint32_t es[2] = {1, 1};
  const CUresult r = cuTensorMapEncodeTiled(tm, fp8 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, g, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                            static_cast<CUtensorMapSwizzle>(swizzle), CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::printf("error=cuTensorMapEncodeTiled %d\n", static_cast<int>(r));
    std::exit(0);
  }
}

int main(int argc, char** argv) {
  const std::vector<Variant> vs = variants();
  if (argc >= 2 && std::strcmp(argv[1], "list") == 0) {
    for (std::size_t i = 0; i < vs.size(); ++i)
      std::printf("%zu dtype=%s swizzle=%dB offset=%d layout=%d sbo=%d lbo=%d base_off=%d kstep=%d (%s)\n", i, vs[i].fp8 ? "e4m3" : "bf16",
                  span_of(vs[i].swizzle), vs[i].offset,
                  vs[i].layout, vs[i].sbo, vs[i].lbo, vs[i].base_off, vs[i].kstep, vs[i].what);
    return 0;
  }
  if (argc < 3) return std::fprintf(stderr, "usage: wgmma_probe list | run I\n"), 2;
  const int i = std::atoi(argv[2]);
  const Variant v = vs.at(static_cast<std::size_t>(i));
  const int e8 = v.fp8 ? 1 : 2, K = span_of(v.swizzle) / e8;
  std::vector<unsigned char> A(M * K * e8), B(N * K * e8);
  const auto put = [&](std::vector<unsigned char>& buf, int i, float x) {
    if (v.fp8) {
      const __nv_fp8_e4m3 q(x);
      std::memcpy(&buf[i], &q, 1);
    } else {
      const __nv_bfloat16 q = __float2bfloat16(x);
      std::memcpy(&buf[2 * i], &q, 2);
    }
  };
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) put(A, m * K + k, a_value(m, k));
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) put(B, n * K + k, b_value(n, k));
  void *gA, *gB;
  float* gD;
  cudaMalloc(&gA, A.size()), cudaMalloc(&gB, B.size()), cudaMalloc(&gD, M * N * 4);
  cudaMemcpy(gA, A.data(), A.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(gB, B.data(), B.size(), cudaMemcpyHostToDevice);
  cudaMemset(gD, 0xff, M * N * 4);
  CUtensorMap tA, tB;
  encode(&tA, gA, K, v.swizzle, v.fp8);
  encode(&tB, gB, K, v.swizzle, v.fp8);
  const int smem = 16384 + 8192 + 1024;
  const auto kernel = v.fp8 ? probe<1> : probe<0>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  kernel<<<1, 128, smem>>>(tA, tB, gD, K, v.offset, v.layout, v.sbo, v.lbo, v.base_off, v.kstep, layout_of(v.swizzle), 8 * span_of(v.swizzle) / 16);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%d dtype=%s swizzle=%dB offset=%d layout=%d sbo=%d lbo=%d base_off=%d kstep=%d what=%s ", i, v.fp8 ? "e4m3" : "bf16", span_of(v.swizzle), v.offset, v.layout,
              v.sbo, v.lbo, v.base_off, v.kstep, v.what);
  if (e != cudaSuccess) return std::printf("error=%s\n", cudaGetErrorName(e)), 0;
  std::vector<float> D(M * N);
  cudaMemcpy(D.data(), gD, D.size() * 4, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += a_value(m, k) * b_value(n, k);
      wrong += D[m * N + n] != s;
    }
  std::printf("wrong=%d/%d\n", wrong, M * N);
  return 0;
}
