// cute_copies: the REAL CuTe copies of the built-in kernel configurations (model/source/kernel_configs.hpp),
// compiled from CUTLASS's own headers and run on the device, so Nsight Compute can count the
// shared-memory instructions and wavefronts the compiled copy really issues. Built only when
// CUTLASS's headers are given (-DCUTLASS_DIR=/path/to/cutlass; they are never vendored here).
//
// One launch per copy, in the order of kConfigs below (launch k = entry k; gpu_check/cute_copies/
// compare.py matches them with layoutproof's predictions, printed by `cute_copies --predict`).
// Each launch: one CTA of size(tiled_copy) threads; the staged smem tensor in dynamic shared
// memory; s2r: copy(tiled_copy, partition_S(sA), make_fragment_like(...)) and the registers XORed
// into a sink; g2s/r2s: copy(tiled_copy, partition_S(gA), partition_D(sA)) from a global tensor of
// the same shape (K-major or MN-major as the copy's value layout reads it), then cp.async wait.
#include <cstdio>
#include <cstring>
#include <string>

#include <cute/tensor.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_atom.hpp>

#include "gpu_check/cute_copies/cute_copies.hpp"

using namespace cute;

// A named namespace: nvcc's host stubs cannot name __global__ templates in an anonymous one.
namespace cute_copies_detail {

// Every byte of v folded into 32 bits: a sink that kept only the low word let nvcc drop the high
// halves of 8-byte loads (the first device run saw LDS.32 of the low words of f64 values).
template <class T>
__device__ unsigned bits_of(T v) {
  unsigned w[(sizeof(T) + 3) / 4] = {};
  memcpy(w, &v, sizeof(T));
  unsigned u = 0;
  for (unsigned x : w) u ^= x;
  return u;
}

// Tag: a number in the kernel's mangled name (k_s2rILi<Tag>E...), so compare.py finds a launch's
// SASS (cuobjdump -sass) for the fused-trace check; 0 for the launches it does not check.
template <int Tag, class T, class SmemLayout, class TiledCopy>
__global__ void k_s2r(SmemLayout sl, TiledCopy tc, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<T*>(smem)), sl);
  auto thr = tc.get_slice(threadIdx.x);
  Tensor tS = thr.partition_S(sA);
  Tensor tR = make_fragment_like(tS);
  copy(tc, tS, tR);
  unsigned acc = 0;
  for (int i = 0; i < size(tR); ++i) acc ^= bits_of(tR(i));
  sink[threadIdx.x] = acc;
}

template <class T, class SmemLayout, class GmemLayout, class TiledCopy>
__global__ void k_g2s(SmemLayout sl, GmemLayout gl, TiledCopy tc, const T* g, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<T*>(smem)), sl);
  Tensor gA = make_tensor(make_gmem_ptr(g), gl);
  auto thr = tc.get_slice(threadIdx.x);
  copy(tc, thr.partition_S(gA), thr.partition_D(sA));
  cp_async_fence();
  cp_async_wait<0>();
  __syncthreads();
  sink[threadIdx.x] = bits_of(reinterpret_cast<T*>(smem)[threadIdx.x]);
}

template <class T, class SmemLayout>
size_t smem_bytes(SmemLayout sl) {
  return size_t(cosize(sl)) * sizeof(T);
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <class K>
void set_smem(K k, size_t bytes) {
  check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)), "smem attribute");
}

template <class T, int Tag = 0, class SmemLayout, class TiledCopy>
void s2r(SmemLayout sl, TiledCopy tc, unsigned* sink) {
  auto k = k_s2r<Tag, T, SmemLayout, TiledCopy>;
  set_smem(k, smem_bytes<T>(sl));
  k<<<1, int(size(tc)), smem_bytes<T>(sl)>>>(sl, tc, sink);
  check(cudaDeviceSynchronize(), "s2r");
}

// The global source: by default the smem tensor's own layout without its swizzle (the atom
// arrangement: contiguous where the atom is), so every vector the copy moves is contiguous and
// aligned in gmem; or a given layout of the same shape (e.g. K-major, as a TN kernel's A).
template <class T, class SmemLayout, class TiledCopy, class GmemLayout>
void g2s(SmemLayout sl, TiledCopy tc, const void* g, unsigned* sink, GmemLayout gl) {
  auto k = k_g2s<T, SmemLayout, decltype(gl), TiledCopy>;
  set_smem(k, smem_bytes<T>(sl));
  k<<<1, int(size(tc)), smem_bytes<T>(sl)>>>(sl, gl, tc, static_cast<const T*>(g), sink);
  check(cudaDeviceSynchronize(), "g2s");
}

template <class T, class SmemLayout, class TiledCopy>
void g2s(SmemLayout sl, TiledCopy tc, const void* g, unsigned* sink) {
  g2s<T>(sl, tc, g, sink, get_nonswizzle_portion(sl));
}

// (M,K,PIPE) compact with K fastest, in the smem tensor's (hierarchical) shape: a K-major source.
template <class SmemLayout>
auto kmajor_gmem(SmemLayout sl) {
  auto flat = make_layout(make_shape(size<0>(sl), size<1>(sl), size<2>(sl)),
                          make_stride(size<1>(sl), Int<1>{}, size<0>(sl) * size<1>(sl)));
  return composition(flat, make_layout(shape(sl)));
}

auto mma_f16() { return make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{}); }
auto mma_tf32() {
  return make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _1>>{}, Tile<_32, _32, _8>{});
}
auto mma_s8() { return make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _32>{}); }
auto mma_f64() {
  return make_tiled_mma(SM80_8x8x4_F64F64F64F64_TN{}, Layout<Shape<_2, _2, _1>>{},
                        Tile<Layout<Shape<_16, _2>, Stride<_2, _1>>, Layout<Shape<_16, _2>, Stride<_2, _1>>, Underscore>{});
}
auto mma_simt() { return make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _16, _1>>{}); }

}  // namespace cute_copies_detail

namespace layoutproof::gpu::cute_copies {

using namespace cute_copies_detail;

// The same names as model/source/kernel_configs.cpp ("<config>: <copy>"), in launch order.
void run_all(const void* g, unsigned* sink, void (*announce)(const char*)) {
  auto k128x32 = make_shape(Int<128>{}, Int<32>{}, Int<3>{});
  auto k128x64 = make_shape(Int<128>{}, Int<64>{}, Int<3>{});
  {
    auto sl = tile_to_shape(composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), k128x32);
    announce("SM80 f16 TN 128x128x32: s2r A LDSM_N x4");
    s2r<half_t>(sl, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma_f16()), sink);
    announce("SM80 f16 TN 128x128x32: g2s A cp.async 16 B");
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{});
    g2s<half_t>(sl, tc, g, sink);
  }
  {
    auto sl = tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), k128x32);
    announce("SM80 f16 NT 128x128x32: s2r A LDSM_T x8");
    s2r<half_t>(sl, make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma_f16()), sink);
    announce("SM80 f16 NT 128x128x32: g2s A cp.async 16 B");
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_1, _16>>{}, Layout<Shape<_8, _1>>{});
    g2s<half_t>(sl, tc, g, sink);
  }
  {
    auto sl = tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), k128x64);
    announce("SM80 f16 TN 128x128x64: s2r A LDSM_N x4");
    s2r<half_t>(sl, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma_f16()), sink);
    announce("SM80 f16 TN 128x128x64: g2s A cp.async 16 B");
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
    g2s<half_t>(sl, tc, g, sink);
  }
  {
    auto sl = tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), k128x32);
    announce("SM80 tf32 TN 128x128x32: s2r A LDSM_N x4");
    s2r<tfloat32_t>(sl, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>{}, mma_tf32()), sink);
    announce("SM80 tf32 TN 128x128x32: g2s A cp.async 16 B");
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _4>>{});
    g2s<tfloat32_t>(sl, tc, g, sink);
  }
  {
    auto sl = tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_32, _8>, Stride<_1, _32>>{}), k128x32);
    announce("SM80 tf32 NT 128x128x32: s2r A UniversalCopy");
    s2r<tfloat32_t>(sl, make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma_tf32()), sink);
    announce("SM80 tf32 NT 128x128x32: g2s A cp.async 16 B");
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16, _8>, Stride<_1, _16>>{}, Layout<Shape<_4, _1>>{});
    g2s<tfloat32_t>(sl, tc, g, sink);
  }
  {
    auto sl = tile_to_shape(composition(Swizzle<2, 4, 3>{}, Layout<Shape<_16, _64>, Stride<_64, _1>>{}), k128x64);
    announce("SM80 s8 TN 128x128x64: s2r A LDSM_N x4");
    s2r<int8_t>(sl, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, uint8_t>{}, mma_s8()), sink);
    announce("SM80 s8 TN 128x128x64: g2s A cp.async 16 B");
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, int8_t>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _16>>{});
    g2s<int8_t>(sl, tc, g, sink);
  }
  {
    auto sl = tile_to_shape(composition(Swizzle<2, 0, 4>{}, Layout<Shape<_4, _16>, Stride<_1, _4>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{}));
    announce("SM80 f64 TN 128x64x16: s2r A DefaultCopy");
    s2r<double, 1>(sl, make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma_f64()), sink);
    announce("SM80 f64 TN 128x64x16: g2s A cp.async 8 B");
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<double>, double>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{}, Layout<Shape<_1, _1>>{});
    g2s<double>(sl, tc, g, sink, kmajor_gmem(sl));  // TN: A is K-major in global memory
    // The same copy from the atom-arranged source: each lane's 8 bytes 32 bytes from its
    // neighbour's in global memory (measured: LDGSTS then takes more shared wavefronts).
    announce("SM80 f64 TN 128x64x16: g2s A cp.async 8 B [global side: atom arrangement, 32-byte lane stride]");
    g2s<double>(sl, tc, g, sink);
  }
  {
    auto sl = tile_to_shape(Layout<Shape<_128, _8>, Stride<_1, _128>>{}, make_shape(Int<128>{}, Int<8>{}, Int<3>{}));
    announce("SM80 SIMT f32 NT 128x128x8: s2r A DefaultCopy");
    s2r<float, 2>(sl, make_tiled_copy_A(Copy_Atom<DefaultCopy, float>{}, mma_simt()), sink);
    announce("SM80 SIMT f32 NT 128x128x8: g2s A UniversalCopy");
    auto tc = make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32, _8>, Stride<_1, _32>>{}, Layout<Shape<_1, _1>>{});
    g2s<float>(sl, tc, g, sink);
  }
  {
    auto sl = make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}), make_stride(Int<1>{}, Int<128 + 4>{}, Int<1056>{}));
    announce("SM80 SIMT f32 TN 128x128x8: s2r A DefaultCopy");
    s2r<float, 3>(sl, make_tiled_copy_A(Copy_Atom<DefaultCopy, float>{}, mma_simt()), sink);
    announce("SM80 SIMT f32 TN 128x128x8: g2s A UniversalCopy");
    auto tc = make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _1>>{});
    g2s<float>(sl, tc, g, sink);
  }
  {
    auto sl = make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}), make_stride(Int<1>{}, Int<129>{}, Int<1032>{}));
    announce("tutorial sgemm_sm80 f32 TN 128x128x8: s2r A UniversalCopy");
    s2r<float>(sl, make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma_simt()), sink);
    announce("tutorial sgemm_sm80 f32 TN 128x128x8: g2s A cp.async 4 B");
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _1>>{});
    g2s<float>(sl, tc, g, sink);
  }
  // The layouts synth --kernel proposes instead (main.cpp: synthesized()).
  {
    auto sl = tile_to_shape(composition(Swizzle<2, 3, 2>{}, Layout<Shape<_32, _4>, Stride<_1, _32>>{}), k128x32);
    announce("synth --kernel tf32 NT 128x128x32: s2r A UniversalCopy");
    s2r<tfloat32_t>(sl, make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma_tf32()), sink);
    announce("synth --kernel tf32 NT 128x128x32: g2s A cp.async 16 B");
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16, _8>, Stride<_1, _16>>{}, Layout<Shape<_4, _1>>{});
    g2s<tfloat32_t>(sl, tc, g, sink);
  }
  {
    auto sl = tile_to_shape(composition(Swizzle<2, 0, 5>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}), make_shape(Int<128>{}, Int<8>{}, Int<3>{}));
    announce("synth --kernel tutorial f32 TN 128x128x8: s2r A UniversalCopy");
    s2r<float>(sl, make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma_simt()), sink);
    announce("synth --kernel tutorial f32 TN 128x128x8: g2s A cp.async 4 B");
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _1>>{});
    g2s<float>(sl, tc, g, sink);
  }
  // Copies whose thread's accesses nvcc can fuse (model/trace/trace.hpp fuse_trace; main.cpp: fused_demos()).
  {
    auto sl = make_layout(make_shape(Int<128>{}, Int<16>{}, Int<3>{}), make_stride(Int<1>{}, Int<128>{}, Int<2048>{}));
    announce("fusion f64 MN-major 128x16x3: s2r A DefaultCopy");
    s2r<double, 4>(sl, make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma_f64()), sink);
  }
  {
    auto sl = make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}), make_stride(Int<1>{}, Int<128>{}, Int<1024>{}));
    announce("fusion f32 pairs MN-major 128x8x3: s2r UniversalCopy (32,4) x (2,1)");
    s2r<float, 5>(sl, make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32, _4>>{}, Layout<Shape<_2, _1>>{}), sink);
  }
}

int run_on_device(void (*announce)(const char*)) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  void* g = nullptr;
  unsigned* sink = nullptr;
  static unsigned char zeros[1 << 20];
  check(cudaMalloc(&g, sizeof zeros), "malloc");
  check(cudaMalloc(&sink, 4096), "malloc");
  check(cudaMemcpy(g, zeros, sizeof zeros, cudaMemcpyHostToDevice), "copy");  // no memset kernel: launch k = copy k
  run_all(g, sink, announce);
  return 0;
}

}  // namespace layoutproof::gpu::cute_copies
