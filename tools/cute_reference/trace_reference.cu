// CuTe's own per-lane shared-memory addresses for kernel copies: the reference that layoutproof's
// `trace` is checked against (tests/kernels/golden/*.trace). Host code only; needs CUTLASS's
// headers, which are never vendored: build with
//   nvcc -std=c++17 -I$CUTLASS_DIR/include tools/cute_reference/trace_reference.cu -o /tmp/trace_reference
//   /tmp/trace_reference tests/kernels/golden
// For each configuration it prints, per warp and per instruction (CPY rest value, rest modes and
// stage in colexicographic order, rest value fastest), the 32 lane byte addresses of the first
// element of each thread's CPY slice, computed by CuTe as a kernel computes them: the smem tensor
// is make_tensor(make_smem_ptr(p), smem_layout) over a real buffer p aligned to 64 KiB (so a
// GMMA atom's smem_ptr_flag swizzle acts on byte addresses, as on the device), each thread's
// partition is tiled_copy.get_slice(t).partition_S / partition_D of it, and a lane's address is
// &partition((0, rest_val), rest...) - p. The header's sizes are those of TiledCopy::tidfrg_S/D.
//
// AutoVectorizingCopyWithAssumedAlignment<B> (DefaultCopy: B = 8, AutoVectorizingCopy: 128) has
// no instruction in its atom: cute::copy vectorizes the whole tensors it is given. For these the
// reference computes what copy(tiled_copy, src, dst) does (cute/algorithm/copy.hpp) with
//   src = the thread's partition of one stage (CPY, RestM, RestN) (all modes for a rank-2 tensor),
//   dst = a register tensor of src's shape with the compact layout make_layout(shape(src))
//         (as the SM90 epilogue's tRS_rD and the trace's model assume),
//   common = max_common_vector(src, dst); if common > 1: align = gcd(max_alignment(src),
//   max_alignment(dst), B), vec_bits = gcd(common * bits(T), align), and when vec_bits % 8 == 0
//   and vec_bits > bits(T) the copy runs on recast<uint_bit_t<vec_bits>>(src), else element-wise.
// Instruction k of a stage s is element k of that (recast) tensor, index k + groups * s; its lane
// addresses are &src_v(k) - p. The header gives `# autovec: vector_bits V groups G`.
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>

using namespace cute;

namespace {

// The smem the tensors point into: addresses are printed relative to its start.
alignas(1 << 16) unsigned char g_smem[1 << 22];

template <class T>
T* smem_base() { return reinterpret_cast<T*>(g_smem); }

template <class P>
long byte_offset(P const* p) { return long(reinterpret_cast<unsigned char const*>(p) - g_smem); }

// MaxVecBits of an AutoVectorizingCopyWithAssumedAlignment atom, 0 for any other.
template <int B>
constexpr int autovec_bits(Copy_Traits<AutoVectorizingCopyWithAssumedAlignment<B>> const*) { return B; }
constexpr int autovec_bits(...) { return 0; }

FILE* open_trace(const char* dir, const char* name, const char* smem_text, const char* copy_text, const char* mma_text,
                 char side, const char* elem) {
  std::string path = std::string(dir) + "/" + name + ".trace";
  FILE* f = std::fopen(path.c_str(), "w");
  std::fprintf(f, "# name: %s\n# smem: %s\n# copy: %s\n# mma: %s\n# side: %c\n# element: %s\n", name, smem_text,
               copy_text, mma_text, side, elem);
  return f;
}

// One line per (index, warp): lane addresses from addr[t][index], -1 past the last thread.
void write_rows(FILE* f, int threads, int per_thread, const std::vector<std::vector<long>>& addr) {
  int warps = (threads + 31) / 32;
  for (int i = 0; i < per_thread; ++i)
    for (int w = 0; w < warps; ++w) {
      std::fprintf(f, "%d %d", w, i);
      for (int l = 0; l < 32; ++l) {
        int t = 32 * w + l;
        std::fprintf(f, " %ld", t < threads ? addr[t][i] : -1L);
      }
      std::fprintf(f, "\n");
    }
}

template <char Side, class Copy, class Tensor>
auto partition(Copy const& copy, int t, Tensor& tensor) {
  if constexpr (Side == 'S') return copy.get_slice(t).partition_S(tensor);
  else return copy.get_slice(t).partition_D(tensor);
}

// The thread's partition (CPY, RestM, RestN[, Stage]) of one stage: (CPY, RestM, RestN).
template <int SmemRank, class Part>
auto stage_slice(Part& part, int s) {
  static_assert(SmemRank == 2 || SmemRank == 3, "rank-2 or rank-3 smem tensors");
  if constexpr (SmemRank == 2) return part;
  else return part(_, _, _, s);
}

template <char Side, class T, class Smem, class Copy>
void emit_atom(FILE* f, Smem smem, Copy copy) {
  auto tensor = make_tensor(make_smem_ptr(smem_base<T>()), smem);
  auto tv = [&] {  // (thr, (xv, rv), rest)
    if constexpr (Side == 'S') return Copy::tidfrg_S(tensor.layout());
    else return Copy::tidfrg_D(tensor.layout());
  }();
  int threads = size<0>(tv);
  int rest_vals = size<1, 1>(tv);
  int rest = size<2>(tv);
  std::fprintf(f, "# threads: %d rest_vals: %d rest: %d xvals: %d\n", threads, rest_vals, rest, int(size<1, 0>(tv)));
  constexpr int R = decltype(rank(tensor))::value;
  std::vector<std::vector<long>> addr(threads, std::vector<long>(rest_vals * rest));
  for (int t = 0; t < threads; ++t) {
    auto part = group_modes<1, R + 1>(partition<Side>(copy, t, tensor));  // (CPY, Rest)
    for (int r = 0; r < rest; ++r)
      for (int rv = 0; rv < rest_vals; ++rv) addr[t][rv + rest_vals * r] = byte_offset(&part(make_coord(0, rv), r));
  }
  write_rows(f, threads, rest_vals * rest, addr);
}

template <char Side, class T, int MaxVecBits, class Smem, class Copy>
void emit_autovec(FILE* f, Smem smem, Copy copy) {
  auto tensor = make_tensor(make_smem_ptr(smem_base<T>()), smem);
  constexpr int R = decltype(rank(tensor))::value;
  int threads = size(copy);
  int stages = 1;
  if constexpr (R == 3) stages = int(size<2>(tensor));
  auto part0 = partition<Side>(copy, 0, tensor);
  auto src0 = stage_slice<R>(part0, 0);
  auto dst0 = make_tensor<T>(make_layout(shape(src0)));
  constexpr int bits = int(sizeof_bits_v<T>);
  constexpr int common = decltype(max_common_vector(src0, dst0))::value;
  constexpr int align = decltype(gcd(max_alignment(src0), max_alignment(dst0), Int<MaxVecBits>{}))::value;
  constexpr int vec_bits = common > 1 ? int(cute::gcd(common * bits, align)) : bits;
  constexpr bool vectorize = common > 1 && vec_bits % 8 == 0 && bits < vec_bits;
  constexpr int used_bits = vectorize ? vec_bits : bits;
  using Vec = std::conditional_t<vectorize, uint_bit_t<used_bits>, T>;
  int groups = int(size(src0)) / (used_bits / bits);
  std::fprintf(f, "# threads: %d rest_vals: 1 rest: %d xvals: 1\n", threads, groups * stages);
  std::fprintf(f, "# autovec: vector_bits %d groups %d max_common_vector %d align_bits %d\n", used_bits, groups, common,
               align);
  std::vector<std::vector<long>> addr(threads, std::vector<long>(groups * stages));
  for (int t = 0; t < threads; ++t) {
    auto part = partition<Side>(copy, t, tensor);
    for (int s = 0; s < stages; ++s) {
      auto src_v = recast<Vec>(stage_slice<R>(part, s));
      for (int k = 0; k < groups; ++k) addr[t][k + groups * s] = byte_offset(&src_v(k));
    }
  }
  write_rows(f, threads, groups * stages, addr);
}

template <char Side, class T, class Smem, class Copy>
void emit(const char* dir, const char* name, const char* smem_text, const char* copy_text, const char* mma_text,
          const char* elem, Smem smem, Copy copy) {
  FILE* f = open_trace(dir, name, smem_text, copy_text, mma_text, Side, elem);
  constexpr int B = autovec_bits(static_cast<Copy*>(nullptr));
  if constexpr (B > 0) emit_autovec<Side, T, B>(f, smem, copy);
  else emit_atom<Side, T>(f, smem, copy);
  std::fclose(f);
}

}  // namespace

#define STR(...) #__VA_ARGS__
#define CONFIG(NAME, SMEM, COPY, MMA_TEXT, SIDE, ELEM)                                                     \
  emit<SIDE, ELEM>(dir, NAME, STR(SMEM), STR(COPY), MMA_TEXT, #ELEM, SMEM, COPY)

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  // SM80 f16 (default_gemm_configuration.hpp): TiledMMA 2x2x1 of 16x8x16, Tile<_32,_32,_16>.
  auto mma_f16 = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
#define MMA_F16 "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})"
  auto mma = mma_f16;
  CONFIG("sm80_f16_tn_s2r_A_ldsm",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_tn_s2r_B_ldsm",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_nt_s2r_A_ldsm_t",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_tn_g2s_A_cpasync",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("sm80_f16_nt_g2s_A_cpasync",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_1, _16>>{}, Layout<Shape<_8, _1>>{}),
         "", 'D', half_t);
  CONFIG("sm80_f16_k32_s2r_A_ldsm",
         tile_to_shape(composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_s2r_A_ldsm_x2",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_s2r_B_ldsm_x1",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{})),
         make_tiled_copy_B(Copy_Atom<SM75_U32x1_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_s2r_A_universal_u128",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, mma), MMA_F16, 'S', half_t);
  // r2s epilogue with STSM on the C tile
  CONFIG("sm90_f16_r2s_C_stsm",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{})),
         make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma), MMA_F16, 'D', half_t);
  CONFIG("sm90_f16_r2s_C_stsm_t",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<64>{}, Int<64>{})),
         make_tiled_copy_C(Copy_Atom<SM90_U16x8_STSM_T, half_t>{}, mma), MMA_F16, 'D', half_t);
  // TF32 MN-major (the UniversalCopy s2r that conflicts) and K-major LDSM.
  {
    auto mma = make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _1>>{}, Tile<_32, _32, _8>{});
#define MMA_TF32 "make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>{}, Tile<_32,_32,_8>{})"
    CONFIG("sm80_tf32_nt_s2r_A_universal",
           tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_32, _8>, Stride<_1, _32>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma), MMA_TF32, 'S', tfloat32_t);
    CONFIG("sm80_tf32_tn_s2r_A_ldsm",
           tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>{}, mma), MMA_TF32, 'S', tfloat32_t);
    CONFIG("sm80_tf32_nt_g2s_A_cpasync",
           tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_32, _8>, Stride<_1, _32>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16, _8>, Stride<_1, _16>>{}, Layout<Shape<_4, _1>>{}),
           "", 'D', tfloat32_t);
  }
  // f64: 8x8x4 atom, 2x2x1 (DefaultCopy reads are element-wise: UniversalCopy<double> here).
  {
    auto mma = make_tiled_mma(SM80_8x8x4_F64F64F64F64_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<Layout<Shape<_16, _2>, Stride<_2, _1>>, Layout<Shape<_16, _2>, Stride<_2, _1>>, Underscore>{});
#define MMA_F64 "make_tiled_mma(SM80_8x8x4_F64F64F64F64_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>{})"
    CONFIG("sm80_f64_tn_s2r_A_universal",
           tile_to_shape(composition(Swizzle<2, 0, 4>{}, Layout<Shape<_4, _16>, Stride<_1, _4>>{}), make_shape(Int<64>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<double>, double>{}, mma), MMA_F64, 'S', double);
  }
  // Tutorial sgemm_sm80.cu: padded (128,8):(1,129) f32 tile, 32x8 threads.
  CONFIG("tutorial_sgemm_g2s_A_padded",
         make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}), make_stride(Int<1>{}, Int<129>{}, Int<1032>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _1>>{}),
         "", 'D', float);
  {
    auto mma = make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
#define MMA_FMA "make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>>{})"
    CONFIG("tutorial_sgemm_s2r_A_fma",
           make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}), make_stride(Int<1>{}, Int<129>{}, Int<1032>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma), MMA_FMA, 'S', float);
  }

  // ---------------------------------------------------------------------------------------------
  // test/unit/gemm/device/default_gemm_configuration.hpp, SM80 tensor-op entries (TileShape
  // 128x128x32 for f16/tf32, K-block 32 operands; 3 stages), A and B, g2s and s2r.
  // ---------------------------------------------------------------------------------------------
  CONFIG("sm80_f16_k32_g2s_A_cpasync",
         tile_to_shape(composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("sm80_f16_k32_s2r_B_ldsm",
         tile_to_shape(composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_nt_s2r_B_ldsm_t",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_nt_s2r_B_ldsm_t_x4",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy_B(Copy_Atom<SM75_U16x4_LDSM_T, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_nt_s2r_A_ldsm_t_x2",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U16x2_LDSM_T, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_tn_s2r_A_ldsm_x1",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U32x1_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_tn_s2r_A_universal_u128",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_tn_s2r_B_universal_u64",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_B(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, mma), MMA_F16, 'S', half_t);
  // The same operand read by a copy built from another copy's layouts (make_tiled_copy_S/D).
  CONFIG("sm80_f16_tn_s2r_A_copy_S_of_ldsm",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_S(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)),
         MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_tn_s2r_A_copy_D_of_ldsm",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_D(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)),
         MMA_F16, 'S', half_t);
  // C tile of the SM80 TiledMMA: a padded row-major staging tile (r2s), the whole tile and the
  // smallest retiling copy (make_tiled_copy_C_atom).
  CONFIG("sm80_f16_r2s_C_universal_padded",
         make_layout(make_shape(Int<64>{}, Int<64>{}), make_stride(Int<72>{}, Int<1>{})),
         make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, mma), MMA_F16, 'D', half_t);
  CONFIG("sm80_f16_r2s_C_atom_universal",
         make_layout(make_shape(Int<64>{}, Int<64>{}), make_stride(Int<72>{}, Int<1>{})),
         make_tiled_copy_C_atom(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, mma), MMA_F16, 'D', half_t);
  CONFIG("sm80_f16_r2s_C_atom_stsm",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
         make_tiled_copy_C_atom(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma), MMA_F16, 'D', half_t);
  // bfloat16 with its own atom.
  {
    auto mma = make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
#define MMA_BF16 "make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})"
    CONFIG("sm80_bf16_tn_s2r_A_ldsm",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, bfloat16_t>{}, mma), MMA_BF16, 'S', bfloat16_t);
    CONFIG("sm80_bf16_nt_s2r_B_ldsm_t",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, bfloat16_t>{}, mma), MMA_BF16, 'S', bfloat16_t);
    CONFIG("sm80_bf16_tn_g2s_B_cpasync",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, bfloat16_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}),
           "", 'D', bfloat16_t);
  }
  // TF32: K-major LDSM for B, MN-major UniversalCopy for B, the K-block 16 operand.
  {
    auto mma = make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _1>>{}, Tile<_32, _32, _8>{});
    CONFIG("sm80_tf32_tn_g2s_A_cpasync",
           tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _4>>{}),
           "", 'D', tfloat32_t);
    CONFIG("sm80_tf32_tn_s2r_B_ldsm",
           tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>{}, mma), MMA_TF32, 'S', tfloat32_t);
    CONFIG("sm80_tf32_nt_s2r_B_universal",
           tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_32, _8>, Stride<_1, _32>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma), MMA_TF32, 'S', tfloat32_t);
    CONFIG("sm80_tf32_k16_s2r_A_ldsm",
           tile_to_shape(composition(Swizzle<2, 2, 3>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>{}, mma), MMA_TF32, 'S', tfloat32_t);
    CONFIG("sm80_tf32_k16_g2s_A_cpasync",
           tile_to_shape(composition(Swizzle<2, 2, 3>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _4>>{}),
           "", 'D', tfloat32_t);
  }
  // S8 TN: 16x8x32 atom, Swizzle<2,4,3> (16,64) K-major, LDSM of uint8_t.
  {
    auto mma = make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _32>{});
#define MMA_S8 "make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_32>{})"
    CONFIG("sm80_s8_tn_s2r_A_ldsm",
           tile_to_shape(composition(Swizzle<2, 4, 3>{}, Layout<Shape<_16, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, uint8_t>{}, mma), MMA_S8, 'S', int8_t);
    CONFIG("sm80_s8_tn_s2r_B_ldsm",
           tile_to_shape(composition(Swizzle<2, 4, 3>{}, Layout<Shape<_16, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, uint8_t>{}, mma), MMA_S8, 'S', int8_t);
    CONFIG("sm80_s8_tn_g2s_A_cpasync",
           tile_to_shape(composition(Swizzle<2, 4, 3>{}, Layout<Shape<_16, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, int8_t>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _16>>{}),
           "", 'D', int8_t);
    CONFIG("sm80_s8_tn_s2r_A_default",
           tile_to_shape(composition(Swizzle<2, 4, 3>{}, Layout<Shape<_16, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<DefaultCopy, int8_t>{}, mma), MMA_S8, 'S', int8_t);
  }
  // F64 (TileShape 128x64x16): TN, NN, NT operands, g2s and s2r (UniversalCopy<double> and the
  // DefaultCopy CUTLASS writes, whose 8-bit assumed alignment keeps it element-wise).
  {
    auto mma = make_tiled_mma(SM80_8x8x4_F64F64F64F64_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<Layout<Shape<_16, _2>, Stride<_2, _1>>, Layout<Shape<_16, _2>, Stride<_2, _1>>, Underscore>{});
    CONFIG("sm80_f64_tn_g2s_A_cpasync",
           tile_to_shape(composition(Swizzle<2, 0, 4>{}, Layout<Shape<_4, _16>, Stride<_1, _4>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<double>, double>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{}, Layout<Shape<_1, _1>>{}),
           "", 'D', double);
    CONFIG("sm80_f64_tn_s2r_B_universal",
           tile_to_shape(composition(Swizzle<2, 0, 4>{}, Layout<Shape<_4, _16>, Stride<_1, _4>>{}), make_shape(Int<64>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<UniversalCopy<double>, double>{}, mma), MMA_F64, 'S', double);
    CONFIG("sm80_f64_tn_s2r_A_default",
           tile_to_shape(composition(Swizzle<2, 0, 4>{}, Layout<Shape<_4, _16>, Stride<_1, _4>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma), MMA_F64, 'S', double);
    CONFIG("sm80_f64_nn_s2r_A_universal",
           tile_to_shape(composition(Swizzle<2, 2, 2>{}, Layout<Shape<_16, _4>, Stride<_1, _16>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<double>, double>{}, mma), MMA_F64, 'S', double);
    CONFIG("sm80_f64_nn_s2r_A_default",
           tile_to_shape(composition(Swizzle<2, 2, 2>{}, Layout<Shape<_16, _4>, Stride<_1, _16>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma), MMA_F64, 'S', double);
    CONFIG("sm80_f64_nn_g2s_A_cpasync",
           tile_to_shape(composition(Swizzle<2, 2, 2>{}, Layout<Shape<_16, _4>, Stride<_1, _16>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, double>{}, Layout<Shape<_16, _8>, Stride<_1, _16>>{}, Layout<Shape<_2, _1>>{}),
           "", 'D', double);
    CONFIG("sm80_f64_nt_s2r_B_universal",
           tile_to_shape(composition(Swizzle<2, 2, 2>{}, Layout<Shape<_16, _4>, Stride<_1, _16>>{}), make_shape(Int<64>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<UniversalCopy<double>, double>{}, mma), MMA_F64, 'S', double);
    CONFIG("sm80_f64_nt_s2r_B_autovec128",
           tile_to_shape(composition(Swizzle<2, 2, 2>{}, Layout<Shape<_16, _4>, Stride<_1, _16>>{}), make_shape(Int<64>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<AutoVectorizingCopy, double>{}, mma), MMA_F64, 'S', double);
  }
  // Hopper's warp-level f64 entry: SM90_16x8x16, ordered (K-major) smem, cp.async of two doubles.
  {
    auto mma = make_tiled_mma(SM90_16x8x16_F64F64F64F64_TN{}, Layout<Shape<_2, _2, _1>>{});
#define MMA_F64_SM90 "make_tiled_mma(SM90_16x8x16_F64F64F64F64_TN{}, Layout<Shape<_2,_2,_1>>{})"
    CONFIG("sm90_f64_tn_s2r_A_universal",
           tile_to_shape(make_ordered_layout(Shape<_128, _16>{}, Step<_2, _1>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<double>, double>{}, mma), MMA_F64_SM90, 'S', double);
    CONFIG("sm90_f64_tn_g2s_B_cpasync",
           tile_to_shape(make_ordered_layout(Shape<_64, _16>{}, Step<_2, _1>{}), make_shape(Int<64>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, double>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _2>>{}),
           "", 'D', double);
  }
  // SIMT multistage (SM80 UniversalFMA 16x16x1; NT with the (16,2):(2,1) permutations).
  {
    auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _16, _1>>{}, Tile<Layout<Shape<_16, _2>, Stride<_2, _1>>, Layout<Shape<_16, _2>, Stride<_2, _1>>, Underscore>{});
#define MMA_FMA_PERM "make_tiled_mma(UniversalFMA<float,float,float,float>{}, Layout<Shape<_16,_16,_1>>{}, Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>{})"
    CONFIG("sm80_simt_nt_g2s_A_cpasync_u64",
           tile_to_shape(Layout<Shape<_128, _16>>{}, make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>, float>{}, Layout<Shape<_32, _8>>{}, Layout<Shape<_2, _1>>{}),
           "", 'D', float);
    CONFIG("sm80_simt_nt_s2r_A_universal_perm",
           tile_to_shape(Layout<Shape<_128, _16>>{}, make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma), MMA_FMA_PERM, 'S', float);
    CONFIG("sm80_simt_nt_s2r_B_autovec128_perm",
           tile_to_shape(Layout<Shape<_128, _16>>{}, make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<AutoVectorizingCopy, float>{}, mma), MMA_FMA_PERM, 'S', float);
    CONFIG("sm80_simt_nt_s2r_A_default_perm",
           tile_to_shape(Layout<Shape<_128, _16>>{}, make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<DefaultCopy, float>{}, mma), MMA_FMA_PERM, 'S', float);
  }
  {
    auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
#define MMA_FMA4 "make_tiled_mma(UniversalFMA<float,float,float,float>{}, Layout<Shape<_16,_16,_1>>{})"
    CONFIG("sm80_simt_tn_g2s_A_cpasync_padded",
           tile_to_shape(Layout<Shape<_128, _16>, Stride<_1, Int<128 + 1>>>{}, make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_16, _16>, Stride<_16, _1>>{}),
           "", 'D', float);
    CONFIG("sm80_simt_tn_s2r_B_universal_padded",
           tile_to_shape(Layout<Shape<_128, _16>, Stride<_1, Int<128 + 1>>>{}, make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<UniversalCopy<float>, float>{}, mma), MMA_FMA4, 'S', float);
  }
  {
    auto mma = make_tiled_mma(UniversalFMA<float, float, float, float>{}, Layout<Shape<_16, _16, _1>>{}, Tile<Underscore, Layout<Shape<_16, _2>, Stride<_2, _1>>, Underscore>{});
#define MMA_FMA_TT "make_tiled_mma(UniversalFMA<float,float,float,float>{}, Layout<Shape<_16,_16,_1>>{}, Tile<Underscore, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>{})"
    CONFIG("sm80_simt_tt_s2r_B_universal_perm",
           tile_to_shape(Layout<Shape<_128, _16>>{}, make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<UniversalCopy<float>, float>{}, mma), MMA_FMA_TT, 'S', float);
  }
  // SIMT two-stage (SM70): rank-2 smem tiles, UniversalCopy g2s; DP4A's interleaved int8 tile.
  CONFIG("sm70_simt_nt_g2s_A_universal",
         make_layout(make_shape(Int<128>{}, Int<8>{}), make_stride(Int<1>{}, Int<128>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32, _8>, Stride<_1, _32>>{}, Layout<Shape<_1, _1>>{}),
         "", 'D', float);
  CONFIG("sm70_simt_tn_g2s_A_padded",
         (Layout<Shape<_128, _8>, Stride<_1, Int<128 + 4>>>{}),
         make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _1>>{}),
         "", 'D', float);
  CONFIG("sm61_dp4a_tn_g2s_A_u32",
         tile_to_shape(Layout<Shape<_128, Shape<_4, _8>>, Stride<_4, Stride<_1, _512>>>{}, make_shape(Int<128>{}, Int<32>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, int8_t>{}, Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _4>>{}),
         "", 'D', int8_t);
  CONFIG("sm61_dp4a_nn_g2s_A_u8",
         tile_to_shape(Layout<Shape<_128, Shape<_4, _8>>, Stride<_4, Stride<_1, _512>>>{}, make_shape(Int<128>{}, Int<32>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<uint8_t>, int8_t>{}, Layout<Shape<_32, _8>, Stride<_1, _32>>{}, Layout<Shape<_1, _1>>{}),
         "", 'D', int8_t);
  {
    auto mma = make_tiled_mma(SM61_DP4A{}, Layout<Shape<_16, _16, _1>>{});
#define MMA_DP4A "make_tiled_mma(SM61_DP4A{}, Layout<Shape<_16,_16,_1>>{})"
    CONFIG("sm61_dp4a_tn_s2r_A_default",
           tile_to_shape(Layout<Shape<_128, Shape<_4, _8>>, Stride<_4, Stride<_1, _512>>>{}, make_shape(Int<128>{}, Int<32>{})),
           make_tiled_copy_A(Copy_Atom<DefaultCopy, int8_t>{}, mma), MMA_DP4A, 'S', int8_t);
    CONFIG("sm61_dp4a_tn_s2r_B_autovec128",
           tile_to_shape(Layout<Shape<_128, Shape<_4, _8>>, Stride<_4, Stride<_1, _512>>>{}, make_shape(Int<128>{}, Int<32>{})),
           make_tiled_copy_B(Copy_Atom<AutoVectorizingCopy, int8_t>{}, mma), MMA_DP4A, 'S', int8_t);
    CONFIG("sm61_dp4a_tn_s2r_A_universal_u32",
           tile_to_shape(Layout<Shape<_128, Shape<_4, _8>>, Stride<_4, Stride<_1, _512>>>{}, make_shape(Int<128>{}, Int<32>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<uint32_t>, int8_t>{}, mma), MMA_DP4A, 'S', int8_t);
  }
  // ---------------------------------------------------------------------------------------------
  // examples/cute/tutorial/sgemm_sm80.cu (the TN HGEMM with LDSM, the NT/TN SGEMMs with cp.async
  // and AutoVectorizingCopy s2r) and sgemm_sm70.cu (UniversalCopy g2s on rank-2 tiles).
  // ---------------------------------------------------------------------------------------------
  {
    auto mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
#define MMA_HGEMM "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2>>{}, Tile<_32,_32,_16>{})"
    CONFIG("tutorial_hgemm_tn_g2s_A_cpasync",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}),
           "", 'D', half_t);
    CONFIG("tutorial_hgemm_tn_s2r_A_ldsm",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_HGEMM, 'S', half_t);
    CONFIG("tutorial_hgemm_tn_s2r_B_ldsm",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_HGEMM, 'S', half_t);
    CONFIG("tutorial_hgemm_tn_s2r_B_ldsm_x2",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, mma), MMA_HGEMM, 'S', half_t);
  }
  CONFIG("tutorial_sgemm_nt_g2s_A_cpasync",
         make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>{}, Layout<Shape<_32, _8>>{}, Layout<Shape<_4, _1>>{}),
         "", 'D', float);
  {
    auto mma = make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
    CONFIG("tutorial_sgemm_nt_s2r_A_autovec",
           make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<AutoVectorizingCopy, float>{}, mma), MMA_FMA, 'S', float);
    CONFIG("tutorial_sgemm_tn_s2r_B_universal",
           tile_to_shape(make_layout(make_shape(Int<128>{}, Int<8>{}), make_stride(Int<1>{}, Int<128>{} + Int<1>{})), make_shape(Int<128>{}, Int<8>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<UniversalCopy<float>, float>{}, mma), MMA_FMA, 'S', float);
  }
  CONFIG("tutorial_sgemm_tn_g2s_B_padded",
         tile_to_shape(make_layout(make_shape(Int<128>{}, Int<8>{}), make_stride(Int<1>{}, Int<128>{} + Int<1>{})), make_shape(Int<128>{}, Int<8>{}, Int<3>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _1>>{}),
         "", 'D', float);
  CONFIG("tutorial_sgemm_sm70_nt_g2s_A_u128",
         make_layout(make_shape(Int<128>{}, Int<8>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32, _8>>{}, Layout<Shape<_4, _1>>{}),
         "", 'D', float);
  CONFIG("tutorial_sgemm_sm70_tn_g2s_A_padded",
         make_layout(make_shape(Int<128>{}, Int<8>{}), make_stride(Int<1>{}, Int<128>{} + Int<1>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _1>>{}),
         "", 'D', float);
  // ---------------------------------------------------------------------------------------------
  // SM90 GMMA accumulators to smem (cutlass/epilogue/collective/sm90_epilogue_tma_warpspecialized.hpp
  // with its builder's choices): tiled_copy_C_atom = make_tiled_copy_C_atom(Copy_Atom<
  // SM90_U32x4_STSM_N, half_t>, tiled_mma); r2s = make_tiled_copy_S(Copy_Atom<CopyOpR2S, D>,
  // tiled_copy_C_atom) on tile_to_shape(GMMA smem atom, (EPI_M, EPI_N, stages)); s2r likewise.
  // ---------------------------------------------------------------------------------------------
  {
    auto mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});
#define MMA_GMMA "make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})"
    CONFIG("sm90_gmma_f16_r2s_C_stsm_sw128",
           tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<64>{}, Int<128>{})),
           make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma), MMA_GMMA, 'D', half_t);
    CONFIG("sm90_gmma_f16_r2s_C_atom_stsm",
           tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, make_shape(Int<64>{}, Int<32>{}, Int<2>{})),
           make_tiled_copy_C_atom(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma), MMA_GMMA, 'D', half_t);
    CONFIG("sm90_gmma_f16_epi_r2s_stsm_n",
           tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, make_shape(Int<64>{}, Int<32>{}, Int<2>{})),
           make_tiled_copy_S(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, make_tiled_copy_C_atom(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma)),
           MMA_GMMA, 'D', half_t);
    CONFIG("sm90_gmma_f16_epi_r2s_stsm_t",
           tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(Int<64>{}, Int<32>{}, Int<2>{})),
           make_tiled_copy_S(Copy_Atom<SM90_U16x8_STSM_T, half_t>{}, make_tiled_copy_C_atom(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma)),
           MMA_GMMA, 'D', half_t);
    CONFIG("sm90_gmma_f16_epi_s2r_ldsm_n",
           tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, make_shape(Int<64>{}, Int<32>{}, Int<2>{})),
           make_tiled_copy_S(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_copy_C_atom(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma)),
           MMA_GMMA, 'S', half_t);
    CONFIG("sm90_gmma_f32_epi_r2s_autovec128",
           tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, make_shape(Int<64>{}, Int<32>{}, Int<2>{})),
           make_tiled_copy_S(Copy_Atom<AutoVectorizingCopyWithAssumedAlignment<128>, float>{}, make_tiled_copy_C_atom(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma)),
           MMA_GMMA, 'D', float);
    CONFIG("sm90_gmma_f16_epi_r2s_stsm_x2_n16",
           tile_to_shape(GMMA::Layout_K_SW32_Atom<half_t>{}, make_shape(Int<64>{}, Int<16>{}, Int<4>{})),
           make_tiled_copy_S(Copy_Atom<SM90_U32x2_STSM_N, half_t>{}, make_tiled_copy_C_atom(Copy_Atom<SM90_U32x2_STSM_N, half_t>{}, mma)),
           MMA_GMMA, 'D', half_t);
  }
  {
    auto mma = make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K, GMMA::Major::K>{}, Layout<Shape<_2, _1, _1>>{});
#define MMA_GMMA_COOP "make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{})"
    CONFIG("sm90_gmma_coop_bf16_epi_r2s_stsm_n",
           tile_to_shape(GMMA::Layout_K_SW64_Atom<bfloat16_t>{}, make_shape(Int<128>{}, Int<32>{}, Int<2>{})),
           make_tiled_copy_S(Copy_Atom<SM90_U32x4_STSM_N, bfloat16_t>{}, make_tiled_copy_C_atom(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma)),
           MMA_GMMA_COOP, 'D', bfloat16_t);
    CONFIG("sm90_gmma_coop_bf16_r2s_C_stsm_t",
           tile_to_shape(GMMA::Layout_MN_SW128_Atom<bfloat16_t>{}, make_shape(Int<128>{}, Int<128>{})),
           make_tiled_copy_C(Copy_Atom<SM90_U16x8_STSM_T, bfloat16_t>{}, mma), MMA_GMMA_COOP, 'D', bfloat16_t);
  }
  {
    auto mma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN, GMMA::Major::K>{});
#define MMA_GMMA64 "make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::K>{})"
    CONFIG("sm90_gmma64_f16_r2s_C_atom_stsm_x2_plain",
           make_layout(make_shape(Int<64>{}, Int<64>{}), LayoutRight{}),
           make_tiled_copy_C_atom(Copy_Atom<SM90_U32x2_STSM_N, half_t>{}, mma), MMA_GMMA64, 'D', half_t);
    CONFIG("sm90_gmma64_f16_r2s_C_atom_universal",
           tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
           make_tiled_copy_C_atom(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, mma), MMA_GMMA64, 'D', half_t);
  }
  // ---------------------------------------------------------------------------------------------
  // Other value types, thread layouts and smem layouts.
  // ---------------------------------------------------------------------------------------------
  CONFIG("misc_e4m3_g2s_cpasync_sw243",
         tile_to_shape(composition(Swizzle<2, 4, 3>{}, Layout<Shape<_8, _128>, Stride<_128, _1>>{}), make_shape(Int<64>{}, Int<128>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, float_e4m3_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _16>>{}),
         "", 'D', float_e4m3_t);
  CONFIG("misc_u8_g2s_cpasync_sw143",
         tile_to_shape(composition(Swizzle<1, 4, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, uint8_t>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _16>>{}),
         "", 'D', uint8_t);
  CONFIG("misc_f16_s2r_A_ldsm_sw133",
         tile_to_shape(composition(Swizzle<1, 3, 3>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("misc_f16_s2r_A_ldsm_gmma_sw128",
         tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("misc_f16_g2s_sw343_thr8x16",
         tile_to_shape(composition(Swizzle<3, 4, 3>{}, Layout<Shape<_8, _128>, Stride<_128, _1>>{}), make_shape(Int<64>{}, Int<128>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("misc_f16_thr48_universal_u64",
         make_layout(make_shape(Int<64>{}, Int<48>{}), LayoutRight{}),
         make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_8, _6>, Stride<_6, _1>>{}, Layout<Shape<_1, _4>>{}),
         "", 'S', half_t);
  CONFIG("misc_f32_thr96_colmajor_vals2x2",
         make_layout(make_shape(Int<64>{}, Int<48>{}), make_stride(Int<1>{}, Int<68>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_16, _6>>{}, Layout<Shape<_2, _2>>{}),
         "", 'D', float);
  CONFIG("misc_f32_thr32x4_rowmajor_u64",
         tile_to_shape(composition(Swizzle<2, 1, 4>{}, Layout<Shape<_16, _16>, Stride<_16, _1>>{}), make_shape(Int<64>{}, Int<32>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, float>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _2>>{}),
         "", 'S', float);
  CONFIG("misc_f16_hier_smem_cpasync",
         make_layout(make_shape(make_shape(Int<8>{}, Int<16>{}), Int<32>{}, Int<2>{}), make_stride(make_stride(Int<32>{}, Int<256>{}), Int<1>{}, Int<4096>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("misc_f16_s2r_A_autovec_kmajor",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<2>{})),
         make_tiled_copy_A(Copy_Atom<AutoVectorizingCopy, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("misc_f16_r2s_C_autovec_plain",
         make_layout(make_shape(Int<64>{}, Int<64>{}), LayoutRight{}),
         make_tiled_copy_C(Copy_Atom<AutoVectorizingCopy, half_t>{}, mma), MMA_F16, 'D', half_t);
  // ---------------------------------------------------------------------------------------------
  // More TiledMMA shapes: threads in K, an N permutation for LDSM x4 on B, SM75 atoms, a
  // register-sourced GMMA's A read by LDSM, hierarchical thread layouts, strided value layouts.
  // ---------------------------------------------------------------------------------------------
  {
    auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _2>>{});
#define MMA_F16_K2 "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_2>>{})"
    CONFIG("sm80_f16_kthreads_s2r_A_ldsm",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<2>{})),
           make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16_K2, 'S', half_t);
    CONFIG("sm80_f16_kthreads_s2r_B_ldsm_x2",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
           make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, mma), MMA_F16_K2, 'S', half_t);
  }
  {
    auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>, _16>{});
#define MMA_F16_NPERM "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32, Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>, _16>{})"
    CONFIG("sm80_f16_nperm_s2r_B_ldsm",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
           make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16_NPERM, 'S', half_t);
    CONFIG("sm80_f16_nperm_r2s_C_stsm",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{})),
           make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma), MMA_F16_NPERM, 'D', half_t);
    CONFIG("sm80_f16_nperm_r2s_C_atom_u32",
           make_layout(make_shape(Int<64>{}, Int<64>{}), make_stride(Int<1>{}, Int<72>{})),
           make_tiled_copy_C_atom(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, mma), MMA_F16_NPERM, 'D', half_t);
  }
  {
    auto mma = make_tiled_mma(SM75_16x8x8_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
#define MMA_SM75 "make_tiled_mma(SM75_16x8x8_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})"
    CONFIG("sm75_f16_s2r_A_ldsm",
           tile_to_shape(composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), make_shape(Int<128>{}, Int<32>{}, Int<2>{})),
           make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_SM75, 'S', half_t);
    CONFIG("sm75_f16_s2r_B_ldsm_t",
           tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<128>{}, Int<32>{}, Int<2>{})),
           make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma), MMA_SM75, 'S', half_t);
  }
  {
    auto mma = make_tiled_mma(SM90_64x128x16_F32F16F16_RS<GMMA::Major::K, GMMA::Major::K>{});
#define MMA_GMMA_RS "make_tiled_mma(SM90_64x128x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>{})"
    CONFIG("sm90_gmma_rs_f16_s2r_A_ldsm",
           tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
           make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_GMMA_RS, 'S', half_t);
  }
  {
    auto mma = make_tiled_mma(SM90_64x64x32_F32E4M3E4M3_RS_TN<>{}, Layout<Shape<_2, _1, _1>>{});
#define MMA_GMMA_RS8 "make_tiled_mma(SM90_64x64x32_F32E4M3E4M3_RS_TN<>{}, Layout<Shape<_2,_1,_1>>{})"
    CONFIG("sm90_gmma_rs_e4m3_s2r_A_ldsm",
           tile_to_shape(GMMA::Layout_K_SW64_Atom<float_e4m3_t>{}, make_shape(Int<128>{}, Int<64>{}, Int<2>{})),
           make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, float_e4m3_t>{}, mma), MMA_GMMA_RS8, 'S', float_e4m3_t);
    CONFIG("sm90_gmma_rs_e4m3_s2r_A_universal_u32",
           tile_to_shape(GMMA::Layout_K_SW64_Atom<float_e4m3_t>{}, make_shape(Int<128>{}, Int<64>{}, Int<2>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<uint32_t>, float_e4m3_t>{}, mma), MMA_GMMA_RS8, 'S', float_e4m3_t);
  }
  CONFIG("misc_f16_hier_thr_cpasync",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<Shape<_4, _4>, _8>, Stride<Stride<_8, _32>, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("misc_f16_val_rowmajor_u32",
         make_layout(make_shape(Int<32>{}, Int<64>{}), LayoutRight{}),
         make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_2, _4>, Stride<_4, _1>>{}),
         "", 'S', half_t);
  CONFIG("misc_f32_thr_strided_u128",
         make_layout(make_shape(Int<64>{}, Int<32>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{}, Layout<Shape<_4, _1>>{}),
         "", 'D', float);
  CONFIG("misc_tf32_s2r_A_ldsm_x2",
         tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), make_shape(Int<64>{}, Int<32>{}, Int<2>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, tfloat32_t>{}, make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _1>>{}, Tile<_32, _32, _8>{})),
         "", 'S', tfloat32_t);
  // ---------------------------------------------------------------------------------------------
  // Tilers of rank 1 and 3, a half-warp copy, ordered tile_to_shape (Step<...>), row-major stages.
  // ---------------------------------------------------------------------------------------------
  CONFIG("misc_f16_tiler_rank1_u128",
         make_layout(make_shape(Int<256>{}, Int<4>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<_32>{}, Layout<_8>{}),
         "", 'S', half_t);
  CONFIG("misc_f16_tiler_rank3_u64",
         make_layout(make_shape(Int<64>{}, Int<32>{}, Int<4>{}), GenRowMajor{}),
         make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_8, _4, _2>>{}, Layout<Shape<_4, _1, _1>>{}),
         "", 'D', half_t);
  CONFIG("misc_f32_thr16_halfwarp",
         make_layout(make_shape(Int<16>{}, Int<16>{}), make_stride(Int<17>{}, Int<1>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_4, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _2>>{}),
         "", 'S', float);
  CONFIG("misc_f16_ordered_stages_ldsm",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<2>{}), Step<_2, _1, _3>{}),
         make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("misc_f16_ordered_stages_cpasync",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<2>{}), Step<_2, _1, _3>{}),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("misc_f16_gmma_mn_sw64_ldsm_t",
         tile_to_shape(GMMA::Layout_MN_SW64_Atom<half_t>{}, make_shape(Int<128>{}, Int<32>{}, Int<2>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("misc_f16_gmma_k_inter_cpasync",
         tile_to_shape(GMMA::Layout_K_INTER_Atom<half_t>{}, make_shape(Int<64>{}, Int<32>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("misc_tf32_gmma_k_sw32_universal",
         tile_to_shape(GMMA::Layout_K_SW32_Atom<tfloat32_t>{}, make_shape(Int<64>{}, Int<16>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, tfloat32_t>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _2>>{}),
         "", 'S', tfloat32_t);
  // ---------------------------------------------------------------------------------------------
  // AutoVectorizingCopy on smem tiles: the vector width follows contiguity, alignment, the
  // swizzle (element-level composition and GMMA byte-level smem_ptr_flag) and MaxVecBits.
  // ---------------------------------------------------------------------------------------------
  CONFIG("autovec_f16_rows_sw333",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<AutoVectorizingCopy, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("autovec_f16_rows_sw323",
         tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<AutoVectorizingCopy, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'S', half_t);
  CONFIG("autovec_f16_rows_gmma_sw64",
         tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<AutoVectorizingCopy, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("autovec64_f16_rows_plain",
         make_layout(make_shape(Int<64>{}, Int<64>{}), LayoutRight{}),
         make_tiled_copy(Copy_Atom<AutoVectorizingCopyWithAssumedAlignment<64>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("autovec_f32_padded129",
         make_layout(make_shape(Int<128>{}, Int<8>{}, Int<2>{}), make_stride(Int<1>{}, Int<129>{}, Int<1032>{})),
         make_tiled_copy(Copy_Atom<AutoVectorizingCopy, float>{}, Layout<Shape<_32, _8>>{}, Layout<Shape<_4, _1>>{}),
         "", 'D', float);
  CONFIG("autovec_f32_padded132",
         make_layout(make_shape(Int<128>{}, Int<8>{}), make_stride(Int<1>{}, Int<132>{})),
         make_tiled_copy(Copy_Atom<AutoVectorizingCopy, float>{}, Layout<Shape<_32, _8>>{}, Layout<Shape<_4, _1>>{}),
         "", 'S', float);
  CONFIG("autovec_u8_rows_sw243",
         tile_to_shape(composition(Swizzle<2, 4, 3>{}, Layout<Shape<_16, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
         make_tiled_copy(Copy_Atom<AutoVectorizingCopy, uint8_t>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _16>>{}),
         "", 'D', uint8_t);
  CONFIG("default_f16_rows_plain",
         make_layout(make_shape(Int<64>{}, Int<64>{}), LayoutRight{}),
         make_tiled_copy(Copy_Atom<DefaultCopy, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  std::printf("wrote traces to %s\n", dir);
  return 0;
}
