// A pipelined TMA -> WGMMA GEMM, measured: one CTA (one warpgroup) computes D = A B^T, A 64 x K and
// B 64 x K, both K-major bf16 under the 128B swizzle, over K/64 k-tiles through S shared-memory
// stages. Thread 0 fills stage s (A and B, 8 KiB each) with cp.async.bulk.tensor on the stage's
// full barrier; every warp waits for the barrier's phase (parity (kt / S) & 1), runs four
// wgmma.mma_async m64n64k16 on the stage (the descriptor's start advanced 32 bytes per k16), waits
// for them, and the CTA syncs before thread 0 refills the stage with k-tile kt + S. Each variant
// breaks one piece of the pipeline that the bytes of one tile cannot show:
//   stage skew  the wgmmas of k-tile kt read stage (kt + skew) % S (a stale or a not-yet-landed tile)
//   B k-tile    B's copy for k-tile kt loads k-tile (kt + skew) % KT (A and B pair different k)
//   A k-step    A's start advances `kstep` bytes per k16 (32: right)
//   repeat      the wgmmas of k-tile kt read k16 block j % `blocks` (a k-block summed twice)
// Usage: wgmma_pipeline list | run I (one variant per process: a fault kills the context);
// gpu_check/hopper/run_pipeline.sh runs them all.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct Variant {
  int K, S;        // the problem's K (a multiple of 64) and the stages
  int stage_skew;  // the wgmmas of k-tile kt read stage (kt % S + stage_skew) % S
  int b_skew;      // B's copy for k-tile kt loads k-tile (kt + b_skew) % (K / 64)
  int kstep;       // bytes A's descriptor start advances per k16 block (32: right)
  int blocks;      // the k16 blocks of a k-tile the wgmmas read: block j % blocks (4: right)
  const char* what;
};

static std::vector<Variant> variants() {
  std::vector<Variant> v;
  for (int S : {1, 2, 3})
    for (int K : {64, 128, 256, 320}) v.push_back({K, S, 0, 0, 32, 4, "reference"});
  for (int S : {2, 3})
    for (int K : {128, 256}) v.push_back({K, S, 1, 0, 32, 4, "stage skew"});
  for (int K : {128, 256}) v.push_back({K, 2, 0, 1, 32, 4, "B k-tile"});
  v.push_back({256, 2, 0, 0, 64, 4, "A k-step"});
  v.push_back({256, 2, 0, 0, 16, 4, "A k-step"});
  v.push_back({256, 2, 0, 0, 32, 2, "repeat"});
  return v;
}

constexpr int M = 64, N = 64, TILE = 64 * 128;  // a 64 x 64 bf16 tile: 8 KiB

__device__ __forceinline__ unsigned smem_u32(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ std::uint64_t descriptor(unsigned addr) {  // 128B swizzle, SBO 1024 bytes, LBO 16
  return (std::uint64_t((addr & 0x3ffff) >> 4)) | (std::uint64_t(1) << 16) | (std::uint64_t(64) << 32) | (std::uint64_t(1) << 62);
}

__device__ __forceinline__ void load(unsigned dst, const CUtensorMap* map, int k, unsigned bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               ::"r"(dst), "l"(reinterpret_cast<std::uint64_t>(map)), "r"(k), "r"(0), "r"(bar) : "memory");
}

__global__ void __launch_bounds__(128) pipeline(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, float* D,
                                                int K, int S, int stage_skew, int b_skew, int kstep, int blocks) {
  extern __shared__ unsigned char raw[];
  __shared__ alignas(8) std::uint64_t full[4];
  const unsigned base = (smem_u32(raw) + 1023u) & ~1023u;
  const int KT = K / 64;
  const auto a_of = [&](int s) { return base + static_cast<unsigned>(2 * s * TILE); };
  const auto b_of = [&](int s) { return base + static_cast<unsigned>((2 * s + 1) * TILE); };
  const auto fill = [&](int kt) {
    const int s = kt % S;
    const unsigned bar = smem_u32(&full[s]);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(2 * TILE) : "memory");
    load(a_of(s), &tmA, 64 * kt, bar);
    load(b_of(s), &tmB, 64 * ((kt + b_skew) % KT), bar);
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&full[s])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int kt = 0; kt < S && kt < KT; ++kt) fill(kt);
  float d[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) d[i] = 0.f;
  for (int kt = 0; kt < KT; ++kt) {
    const int s = kt % S, r = (s + stage_skew) % S;
    const unsigned bar = smem_u32(&full[s]);
    const unsigned parity = static_cast<unsigned>((kt / S) & 1);
    asm volatile("{\n.reg .pred P;\nWAIT_%=:\nmbarrier.try_wait.parity.shared::cta.b64 P, [%0], %1;\n@!P bra WAIT_%=;\n}\n" ::"r"(bar), "r"(parity)
                 : "memory");
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const std::uint64_t da = descriptor(a_of(r) + static_cast<unsigned>((j % blocks) * kstep));
      const std::uint64_t db = descriptor(b_of(r) + static_cast<unsigned>((j % blocks) * 32));
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
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads();  // every warp is done with stage s
    if (threadIdx.x == 0 && kt + S < KT) fill(kt + S);
  }
  // The accumulator fragment of m64nNk16 (PTX ISA): warp w holds rows 16w..16w+15; d[4j + 2h + c]
  // is row 16w + lane/4 + 8h, column 8j + 2(lane%4) + c.
  const int w = threadIdx.x / 32, l = threadIdx.x % 32;
  for (int j = 0; j < N / 8; ++j)
    for (int h = 0; h < 2; ++h)
      for (int c = 0; c < 2; ++c) D[(16 * w + l / 4 + 8 * h) * N + 8 * j + 2 * (l % 4) + c] = d[4 * j + 2 * h + c];
}

static float a_value(int m, int k) { return static_cast<float>((m * 7 + k * 3) % 5 - 2); }
static float b_value(int n, int k) { return static_cast<float>((n * 5 + k * 11) % 7 - 3); }

static void encode(CUtensorMap* tm, void* g, int K) {
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(K), 64};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(K) * 2};
  const cuuint32_t box[2] = {64, 64};
  const cuuint32_t es[2] = {1, 1};
  const CUresult r = cuTensorMapEncodeTiled(tm, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, g, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::printf("error=cuTensorMapEncodeTiled %d\n", static_cast<int>(r));
    std::exit(0);
  }
}

int main(int argc, char** argv) {
  const std::vector<Variant> vs = variants();
  if (argc >= 2 && std::strcmp(argv[1], "list") == 0) {
    for (std::size_t i = 0; i < vs.size(); ++i)
      std::printf("%zu K=%d S=%d stage_skew=%d b_skew=%d kstep=%d blocks=%d (%s)\n", i, vs[i].K, vs[i].S, vs[i].stage_skew, vs[i].b_skew, vs[i].kstep,
                  vs[i].blocks, vs[i].what);
    return 0;
  }
  if (argc < 3) return std::fprintf(stderr, "usage: wgmma_pipeline list | run I\n"), 2;
  const int i = std::atoi(argv[2]);
  const Variant v = vs.at(static_cast<std::size_t>(i));
  std::vector<__nv_bfloat16> A(M * v.K), B(N * v.K);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < v.K; ++k) A[m * v.K + k] = __float2bfloat16(a_value(m, k));
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < v.K; ++k) B[n * v.K + k] = __float2bfloat16(b_value(n, k));
  void *gA, *gB;
  float* gD;
  cudaMalloc(&gA, A.size() * 2), cudaMalloc(&gB, B.size() * 2), cudaMalloc(&gD, M * N * 4);
  cudaMemcpy(gA, A.data(), A.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(gB, B.data(), B.size() * 2, cudaMemcpyHostToDevice);
  cudaMemset(gD, 0xff, M * N * 4);
  CUtensorMap tA, tB;
  encode(&tA, gA, v.K);
  encode(&tB, gB, v.K);
  const int smem = 2 * TILE * v.S + 1024;
  cudaFuncSetAttribute(pipeline, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  pipeline<<<1, 128, smem>>>(tA, tB, gD, v.K, v.S, v.stage_skew, v.b_skew, v.kstep, v.blocks);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%d K=%d S=%d stage_skew=%d b_skew=%d kstep=%d blocks=%d what=%s ", i, v.K, v.S, v.stage_skew, v.b_skew, v.kstep, v.blocks, v.what);
  if (e != cudaSuccess) return std::printf("error=%s\n", cudaGetErrorName(e)), 0;
  std::vector<float> D(M * N);
  cudaMemcpy(D.data(), gD, D.size() * 4, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = 0;
      for (int k = 0; k < v.K; ++k) s += a_value(m, k) * b_value(n, k);
      wrong += D[m * N + n] != s;
    }
  std::printf("wrong=%d/%d\n", wrong, M * N);
  return 0;
}
