// CuTe's own offsets for the shared-memory layouts of CUTLASS's SM80/SM90/SM100 GEMM and epilogue
// builders, default configurations and CuTe tutorials: the reference that tests/corpus checks
// layoutproof against. Every snippet in tests/corpus/snippets/ is #included here verbatim, after the
// constants it needs (declared in C++ here and written to the golden file as -D NAME=EXPR), and
// compiled by nvcc against CUTLASS's own headers (never vendored). Host code only:
//   mkdir -p /tmp/cutlass && git -C $CUTLASS_GIT archive HEAD include | tar -x -C /tmp/cutlass
//   nvcc -std=c++17 -I/tmp/cutlass/include -I. tools/cute_reference/smem_corpus_reference.cu -o /tmp/smem_corpus
//   /tmp/smem_corpus tests/corpus/golden
// For each snippet it writes golden/NAME.golden: the constants, CuTe's print of the layout and of
// its position-independent (element-unit) form, size, cosize, whether the offsets are injective
// and a bijection (proofs/claims/claim.hpp's definition), the first offsets and an FNV-1a hash of the line
// `layoutproof eval` prints (offsets L(0) .. L(size-1), space separated). Offsets of smem_ptr_flag
// layouts are as_position_independent_swizzle_layout's, cross-checked against a swizzled smem
// pointer (what a kernel's tensor addresses) for 8- to 64-bit elements.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

#include <cute/tensor.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>

using namespace cute;

namespace corpus {

struct Case {
  std::string name;
  std::vector<std::string> defines;  // NAME=EXPR
};

const char* g_dir = ".";
int g_count = 0;

// Runs f with stdout going to `f` (CuTe's print writes to stdout).
template <class F>
void printed_to(FILE* file, F&& f) {
  std::fflush(stdout);
  const int saved = dup(1);
  dup2(fileno(file), 1);
  f();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
}

// The element-unit layout CuTe's print_layout shows for a layout.
template <class SW, int B, class L>
auto position_independent(ComposedLayout<SW, smem_ptr_flag_bits<B>, L> const& l) {
  return as_position_independent_swizzle_layout(l);
}
template <class L>
auto position_independent(L const& l) {
  return l;
}

template <class L>
auto inner_of(L const& l) {
  if constexpr (is_composed_layout<L>::value) return l.layout_b();
  else return l;
}

// For an smem_ptr_flag layout of 8..64-bit elements: the element offsets a swizzled smem tensor
// addresses (base 2^20, aligned for every swizzle), which must equal the position-independent ones.
template <class L>
void cross_check_pointer(Case const&, L const&, std::vector<long> const&) {}
template <class SW, int B, class L>
void cross_check_pointer(Case const& c, ComposedLayout<SW, smem_ptr_flag_bits<B>, L> const& l, std::vector<long> const& off) {
  if constexpr (B == 8 || B == 16 || B == 32 || B == 64) {
    using T = uint_bit_t<B>;
    T* base = reinterpret_cast<T*>(uintptr_t(1) << 20);
    auto t = make_tensor(make_smem_ptr(base), l);
    for (int i = 0; i < int(size(l)); ++i) {
      const long o = long(&t(i) - base);
      if (o != off[i]) {
        std::fprintf(stderr, "%s: index %d: pointer offset %ld != position-independent %ld\n", c.name.c_str(), i, o, off[i]);
        std::exit(1);
      }
    }
  }
}

template <class L>
void emit(Case const& c, L const& layout) {
  auto pi = position_independent(layout);
  const int n = int(size(layout));
  std::vector<long> off(n);
  for (int i = 0; i < n; ++i) off[i] = long(pi(i));
  cross_check_pointer(c, layout, off);

  // FNV-1a 64 over the eval line.
  std::string line;
  for (int i = 0; i < n; ++i) line += (i ? " " : "") + std::to_string(off[i]);
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : line) h = (h ^ ch) * 1099511628211ull;

  std::vector<long> sorted = off;
  std::sort(sorted.begin(), sorted.end());
  const bool injective = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
  // bijective (proofs/claims/claim.hpp): injective and image(L) = image of the inner layout.
  auto inner = inner_of(pi);
  std::vector<long> image(n);
  for (int i = 0; i < n; ++i) image[i] = long(inner(i));
  std::sort(image.begin(), image.end());
  if constexpr (!is_composed_layout<decltype(pi)>::value)
    for (int i = 0; i < n; ++i) image[i] = i;  // a plain layout: [0, size)
  const bool bijective = injective && sorted == image;

  const std::string path = std::string(g_dir) + "/" + c.name + ".golden";
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::perror(path.c_str());
    std::exit(1);
  }
  std::fprintf(f, "# name: %s\n# snippet: tests/corpus/snippets/%s.cpp\n", c.name.c_str(), c.name.c_str());
  for (auto const& d : c.defines) std::fprintf(f, "# define: %s\n", d.c_str());
  std::fprintf(f, "# cute: ");
  std::fflush(f);
  printed_to(f, [&] { print(layout); });
  std::fprintf(f, "\n# cute_position_independent: ");
  std::fflush(f);
  printed_to(f, [&] { print(pi); });
  std::fprintf(f, "\n# size: %d\n# cosize: %d\n# injective: %d\n# bijective: %d\n# fnv1a64: %016llx\n# first:", n,
               int(cosize(inner_of(pi))), int(injective), int(bijective), (unsigned long long)h);
  for (int i = 0; i < std::min(n, 64); ++i) std::fprintf(f, " %ld", off[i]);
  std::fprintf(f, "\n");
  std::fclose(f);
  ++g_count;
}

}  // namespace corpus

// A constant: declared for the snippet, recorded for the golden file's -D lines.
// (Two levels, so that macro arguments such as K_MAJOR_STRIDE are recorded expanded; UNPAREN drops
// the parentheses that protect a template argument list's commas.)
#define UNPAREN(...) __VA_ARGS__
#define TYPE(NAME, ...) TYPE_IMPL(NAME, __VA_ARGS__)
#define TYPE_IMPL(NAME, ...) \
  using NAME = __VA_ARGS__;  \
  c.defines.push_back(#NAME "=" #__VA_ARGS__);
#define VALUE(NAME, ...) VALUE_IMPL(NAME, __VA_ARGS__)
#define VALUE_IMPL(NAME, ...)        \
  constexpr auto NAME = __VA_ARGS__; \
  c.defines.push_back(#NAME "=" #__VA_ARGS__);
// OUTER::NAME (DispatchPolicy::Stages): a local class holds it (an enumerator: a local class has no
// static data members).
#define MEMBER(OUTER, NAME, ...)            \
  struct OUTER {                            \
    enum : int { NAME = __VA_ARGS__ };      \
  };                                        \
  c.defines.push_back(#OUTER "::" #NAME "=" #__VA_ARGS__);
#define MEMBER_TYPE(OUTER, NAME, ...)       \
  struct OUTER {                            \
    using NAME = __VA_ARGS__;               \
  };                                        \
  c.defines.push_back(#OUTER "::" #NAME "=" #__VA_ARGS__);
#define CASE(NAME) corpus::Case c{#NAME, {}};
#define SNIPPET(NAME) <tests/corpus/snippets/NAME.cpp>

// ---- SM80/SM70 (test/unit/gemm/device/default_gemm_configuration.hpp, sm80_mma_multistage.hpp) ----
namespace cutlass::gemm::collective {

void sm80_f16_tn_a_k64() {
  CASE(sm80_f16_tn_a_k64)
  TYPE(TileShape, Shape<_128, _128, _64>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_f16_tn_a_k64)
  corpus::emit(c, SmemLayoutA{});
}
void sm80_f16_nt_a_mmajor() {
  CASE(sm80_f16_nt_a_mmajor)
  TYPE(TileShape, Shape<_128, _128, _64>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_f16_nt_a_mmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm80_f16_tn_a_k32() {
  CASE(sm80_f16_tn_a_k32)
  TYPE(TileShape, Shape<_128, _128, _32>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_f16_tn_a_k32)
  corpus::emit(c, SmemLayoutA{});
}
void sm80_f16_nt_b_nmajor() {
  CASE(sm80_f16_nt_b_nmajor)
  TYPE(TileShape, Shape<_128, _128, _32>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_f16_nt_b_nmajor)
  corpus::emit(c, SmemLayoutB{});
}
void sm80_tf32_tn_a_k32() {
  CASE(sm80_tf32_tn_a_k32)
  TYPE(TileShape, Shape<_128, _128, _32>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_tf32_tn_a_k32)
  corpus::emit(c, SmemLayoutA{});
}
void sm80_tf32_tn_a_k16() {
  CASE(sm80_tf32_tn_a_k16)
  TYPE(TileShape, Shape<_64, _64, _16>)
  MEMBER(DispatchPolicy, Stages, 4)
#include SNIPPET(sm80_tf32_tn_a_k16)
  corpus::emit(c, SmemLayoutA{});
}
void sm80_tf32_nt_a_mmajor() {
  CASE(sm80_tf32_nt_a_mmajor)
  TYPE(TileShape, Shape<_128, _128, _32>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_tf32_nt_a_mmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm80_s8_tn_a() {
  CASE(sm80_s8_tn_a)
  TYPE(TileShape, Shape<_128, _128, _64>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_s8_tn_a)
  corpus::emit(c, SmemLayoutA{});
}
void sm70_simt_nt_a_mmajor() {
  CASE(sm70_simt_nt_a_mmajor)
  TYPE(TileShape, Shape<_128, _128, _8>)
#include SNIPPET(sm70_simt_nt_a_mmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm70_simt_tn_a_padded() {
  CASE(sm70_simt_tn_a_padded)
  TYPE(TileShape, Shape<_128, _128, _8>)
#include SNIPPET(sm70_simt_tn_a_padded)
  corpus::emit(c, SmemLayoutA{});
}
void sm70_dp4a_interleaved_a() {
  CASE(sm70_dp4a_interleaved_a)
  TYPE(TileShape, Shape<_128, _128, _32>)
#include SNIPPET(sm70_dp4a_interleaved_a)
  corpus::emit(c, SmemLayoutA{});
}
void sm80_simt_nt_a_plain() {
  CASE(sm80_simt_nt_a_plain)
  TYPE(TileShape, Shape<_128, _128, _16>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_simt_nt_a_plain)
  corpus::emit(c, SmemLayoutA{});
}
void sm80_simt_tn_a_padded() {
  CASE(sm80_simt_tn_a_padded)
  TYPE(TileShape, Shape<_128, _128, _16>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_simt_tn_a_padded)
  corpus::emit(c, SmemLayoutA{});
}
void sm80_f64_tn_a_kmajor() {
  CASE(sm80_f64_tn_a_kmajor)
  TYPE(TileShape, Shape<_128, _64, _16>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_f64_tn_a_kmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm80_f64_nt_a_mmajor() {
  CASE(sm80_f64_nt_a_mmajor)
  TYPE(TileShape, Shape<_128, _64, _16>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm80_f64_nt_a_mmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm90_f64_tn_a_ordered() {
  CASE(sm90_f64_tn_a_ordered)
  TYPE(TileShape, Shape<_128, _64, _16>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm90_f64_tn_a_ordered)
  corpus::emit(c, SmemLayoutA{});
}
void sm90_f64_tn_b_ordered() {
  CASE(sm90_f64_tn_b_ordered)
  TYPE(TileShape, Shape<_128, _64, _16>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm90_f64_tn_b_ordered)
  corpus::emit(c, SmemLayoutB{});
}

// ---- SM90 GMMA (builders/sm90_gmma_builder.inl, sm90_mma_tma_gmma_{ss,rs}_warpspecialized.hpp) ----

#define K_MAJOR_STRIDE cute::Stride<int64_t, cute::Int<1>, int64_t>
#define MN_MAJOR_STRIDE cute::Stride<cute::Int<1>, int64_t, int64_t>

void sm90_ss_f16_a_kmajor() {
  CASE(sm90_ss_f16_a_kmajor)
  TYPE(TileShape_MNK, Shape<_128, _128, _64>)
  TYPE(TileShape, TileShape_MNK)
  TYPE(ElementAMma, half_t)
  VALUE(GmmaMajorA, GMMA::Major::K)
  TYPE(StrideA, cute::Stride<int64_t, cute::Int<1>, int64_t>)
  MEMBER(DispatchPolicy, Stages, 4)
#include SNIPPET(sm90_ss_f16_a_kmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm90_ss_f16_b_nmajor() {
  CASE(sm90_ss_f16_b_nmajor)
  TYPE(TileShape_MNK, Shape<_128, _256, _64>)
  TYPE(TileShape, TileShape_MNK)
  TYPE(ElementBMma, half_t)
  VALUE(GmmaMajorB, GMMA::Major::MN)
  TYPE(StrideB, cute::Stride<cute::Int<1>, int64_t, int64_t>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm90_ss_f16_b_nmajor)
  corpus::emit(c, SmemLayoutB{});
}
void sm90_ss_e4m3_a_kmajor() {
  CASE(sm90_ss_e4m3_a_kmajor)
  TYPE(TileShape_MNK, Shape<_128, _128, _128>)
  TYPE(TileShape, TileShape_MNK)
  TYPE(ElementAMma, cutlass::float_e4m3_t)
  VALUE(GmmaMajorA, GMMA::Major::K)
  TYPE(StrideA, cute::Stride<int64_t, cute::Int<1>, int64_t>)
  MEMBER(DispatchPolicy, Stages, 5)
#include SNIPPET(sm90_ss_e4m3_a_kmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm90_ss_tf32_a_mmajor() {
  CASE(sm90_ss_tf32_a_mmajor)
  TYPE(TileShape_MNK, Shape<_128, _128, _32>)
  TYPE(TileShape, TileShape_MNK)
  TYPE(ElementAMma, tfloat32_t)
  VALUE(GmmaMajorA, GMMA::Major::MN)
  TYPE(StrideA, cute::Stride<cute::Int<1>, int64_t, int64_t>)
  MEMBER(DispatchPolicy, Stages, 4)
#include SNIPPET(sm90_ss_tf32_a_mmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm90_ss_bf16_a_k32() {
  CASE(sm90_ss_bf16_a_k32)
  TYPE(TileShape_MNK, Shape<_128, _128, _32>)
  TYPE(TileShape, TileShape_MNK)
  TYPE(ElementAMma, bfloat16_t)
  VALUE(GmmaMajorA, GMMA::Major::K)
  TYPE(StrideA, cute::Stride<int64_t, cute::Int<1>, int64_t>)
  MEMBER(DispatchPolicy, Stages, 6)
#include SNIPPET(sm90_ss_bf16_a_k32)
  corpus::emit(c, SmemLayoutA{});
}
void sm90_ss_f16_a_k16() {
  CASE(sm90_ss_f16_a_k16)
  TYPE(TileShape_MNK, Shape<_64, _128, _16>)
  TYPE(TileShape, TileShape_MNK)
  TYPE(ElementAMma, half_t)
  VALUE(GmmaMajorA, GMMA::Major::K)
  TYPE(StrideA, cute::Stride<int64_t, cute::Int<1>, int64_t>)
  MEMBER(DispatchPolicy, Stages, 8)
#include SNIPPET(sm90_ss_f16_a_k16)
  corpus::emit(c, SmemLayoutA{});
}
void sm90_ss_s8_b_kmajor_k64() {
  CASE(sm90_ss_s8_b_kmajor_k64)
  TYPE(TileShape_MNK, Shape<_128, _128, _64>)
  TYPE(TileShape, TileShape_MNK)
  TYPE(ElementBMma, int8_t)
  VALUE(GmmaMajorB, GMMA::Major::K)
  TYPE(StrideB, cute::Stride<int64_t, cute::Int<1>, int64_t>)
  MEMBER(DispatchPolicy, Stages, 4)
#include SNIPPET(sm90_ss_s8_b_kmajor_k64)
  corpus::emit(c, SmemLayoutB{});
}
void sm90_ss_f16_b_nmajor_n32() {
  CASE(sm90_ss_f16_b_nmajor_n32)
  TYPE(TileShape_MNK, Shape<_128, _32, _64>)
  TYPE(TileShape, TileShape_MNK)
  TYPE(ElementBMma, half_t)
  VALUE(GmmaMajorB, GMMA::Major::MN)
  TYPE(StrideB, cute::Stride<cute::Int<1>, int64_t, int64_t>)
  MEMBER(DispatchPolicy, Stages, 4)
#include SNIPPET(sm90_ss_f16_b_nmajor_n32)
  corpus::emit(c, SmemLayoutB{});
}
void sm90_ss_u4_a_kmajor() {
  CASE(sm90_ss_u4_a_kmajor)
  TYPE(TileShape_MNK, Shape<_128, _128, _128>)
  TYPE(TileShape, TileShape_MNK)
  TYPE(ElementAMma, cutlass::uint4b_t)
  VALUE(GmmaMajorA, GMMA::Major::K)
  TYPE(StrideA, cute::Stride<int64_t, cute::Int<1>, int64_t>)
  MEMBER(DispatchPolicy, Stages, 4)
#include SNIPPET(sm90_ss_u4_a_kmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm90_ss_f32_b_kmajor() {
  CASE(sm90_ss_f32_b_kmajor)
  TYPE(TileShape_MNK, Shape<_128, _64, _32>)
  TYPE(TileShape, TileShape_MNK)
  TYPE(ElementBMma, float)
  VALUE(GmmaMajorB, GMMA::Major::K)
  TYPE(StrideB, cute::Stride<int64_t, cute::Int<1>, int64_t>)
  MEMBER(DispatchPolicy, Stages, 3)
#include SNIPPET(sm90_ss_f32_b_kmajor)
  corpus::emit(c, SmemLayoutB{});
}

#define RS_CONSTANTS(TILE, EA, MA, SA, EB, MB, SB, TRANSPOSED, STAGES) \
  TYPE(TileShape_MNK, UNPAREN TILE)                                      \
  TYPE(TileShape, TileShape_MNK)                                         \
  TYPE(ElementAMma, EA)                                                  \
  VALUE(GmmaMajorA, MA)                                                  \
  TYPE(StrideA, SA)                                                      \
  TYPE(ElementBMma, EB)                                                  \
  VALUE(GmmaMajorB, MB)                                                  \
  TYPE(StrideB, SB)                                                      \
  VALUE(IsWarpSpecializedTransposeB, TRANSPOSED)                         \
  VALUE(SwapAB, false)                                                   \
  MEMBER(DispatchPolicy, Stages, STAGES)

void sm90_rs_f16_a_kmajor() {
  CASE(sm90_rs_f16_a_kmajor)
  RS_CONSTANTS((Shape<_128, _128, _64>), half_t, GMMA::Major::K, K_MAJOR_STRIDE, half_t, GMMA::Major::K, K_MAJOR_STRIDE, false, 4)
#include SNIPPET(sm90_rs_f16_a_kmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm90_rs_tf32_b_nmajor() {
  CASE(sm90_rs_tf32_b_nmajor)
  RS_CONSTANTS((Shape<_128, _64, _32>), tfloat32_t, GMMA::Major::K, K_MAJOR_STRIDE, tfloat32_t, GMMA::Major::MN, MN_MAJOR_STRIDE, false, 3)
#include SNIPPET(sm90_rs_tf32_b_nmajor)
  corpus::emit(c, SmemLayoutB{});
}
void sm90_rs_s8_b_nmajor_transposed() {
  CASE(sm90_rs_s8_b_nmajor_transposed)
  RS_CONSTANTS((Shape<_128, _128, _64>), int8_t, GMMA::Major::K, K_MAJOR_STRIDE, int8_t, GMMA::Major::MN, MN_MAJOR_STRIDE, true, 4)
#include SNIPPET(sm90_rs_s8_b_nmajor_transposed)
  corpus::emit(c, SmemLayoutB{});
}
void sm90_rs_f16_b_nmajor() {
  CASE(sm90_rs_f16_b_nmajor)
  RS_CONSTANTS((Shape<_64, _64, _64>), half_t, GMMA::Major::K, K_MAJOR_STRIDE, half_t, GMMA::Major::MN, MN_MAJOR_STRIDE, false, 5)
#include SNIPPET(sm90_rs_f16_b_nmajor)
  corpus::emit(c, SmemLayoutB{});
}

// ---- CuTe's atom definitions themselves (mma_traits_sm90_gmma.hpp, pointer_flagged.hpp) ----

void sm90_gmma_k_sw128_bits_upcast() {
  CASE(sm90_gmma_k_sw128_bits_upcast)
  TYPE(Type, cutlass::bfloat16_t)
#include SNIPPET(sm90_gmma_k_sw128_bits_upcast)
  corpus::emit(c, Layout_K_SW128_Atom{});
}
void sm90_gmma_mn_sw64_recast() {
  CASE(sm90_gmma_mn_sw64_recast)
  TYPE(Type, half_t)
#include SNIPPET(sm90_gmma_mn_sw64_recast)
  corpus::emit(c, sA);
}
void sm90_composition_flag() {
  CASE(sm90_composition_flag)
#include SNIPPET(sm90_composition_flag)
  corpus::emit(c, sB);
}

// ---- SM100 UMMA (builders/sm100_umma_builder.inl, sm100_mma_warpspecialized.hpp) ----

#define UMMA_A_CONSTANTS(TILE, ELEM, MAJOR, STRIDE, MMA_SHAPE, STAGES) \
  TYPE(TileShape_MNK, UNPAREN TILE)                                    \
  TYPE(AtomThrID, Layout<_1>)                                          \
  TYPE(ElementAMma_SmemAllocType, ELEM)                                \
  VALUE(UmmaMajorA, MAJOR)                                             \
  TYPE(StrideA, STRIDE)                                                \
  TYPE(MmaShapeA_MK, UNPAREN MMA_SHAPE)                                \
  MEMBER(DispatchPolicy, Stages, STAGES)
#define UMMA_B_CONSTANTS(TILE, ELEM, MAJOR, STRIDE, MMA_SHAPE, STAGES) \
  TYPE(TileShape_MNK, UNPAREN TILE)                                    \
  TYPE(AtomThrID, Layout<_1>)                                          \
  TYPE(ElementBMma_SmemAllocType, ELEM)                                \
  VALUE(UmmaMajorB, MAJOR)                                             \
  TYPE(StrideB, STRIDE)                                                \
  TYPE(MmaShapeB_NK, UNPAREN MMA_SHAPE)                                \
  MEMBER(DispatchPolicy, Stages, STAGES)

void sm100_umma_f16_a_kmajor() {
  CASE(sm100_umma_f16_a_kmajor)
  UMMA_A_CONSTANTS((Shape<_128, _128, _64>), half_t, UMMA::Major::K, K_MAJOR_STRIDE, (Shape<Shape<_128, _16>, _1, _4>), 4)
#include SNIPPET(sm100_umma_f16_a_kmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm100_umma_tf32_a_mmajor() {
  CASE(sm100_umma_tf32_a_mmajor)
  UMMA_A_CONSTANTS((Shape<_128, _128, _32>), tfloat32_t, UMMA::Major::MN, MN_MAJOR_STRIDE, (Shape<Shape<_128, _8>, _1, _4>), 4)
#include SNIPPET(sm100_umma_tf32_a_mmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm100_umma_f16_a_mmajor() {
  CASE(sm100_umma_f16_a_mmajor)
  UMMA_A_CONSTANTS((Shape<_128, _256, _64>), half_t, UMMA::Major::MN, MN_MAJOR_STRIDE, (Shape<Shape<_128, _16>, _1, _4>), 3)
#include SNIPPET(sm100_umma_f16_a_mmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm100_umma_e4m3_a_kmajor() {
  CASE(sm100_umma_e4m3_a_kmajor)
  UMMA_A_CONSTANTS((Shape<_128, _128, _128>), cutlass::float_e4m3_t, UMMA::Major::K, K_MAJOR_STRIDE, (Shape<Shape<_128, _32>, _1, _4>), 5)
#include SNIPPET(sm100_umma_e4m3_a_kmajor)
  corpus::emit(c, SmemLayoutA{});
}
void sm100_umma_bf16_b_kmajor_n256() {
  CASE(sm100_umma_bf16_b_kmajor_n256)
  UMMA_B_CONSTANTS((Shape<_128, _256, _64>), bfloat16_t, UMMA::Major::K, K_MAJOR_STRIDE, (Shape<Shape<_256, _16>, _1, _4>), 3)
#include SNIPPET(sm100_umma_bf16_b_kmajor_n256)
  corpus::emit(c, SmemLayoutB{});
}
void sm100_umma_f16_b_nmajor() {
  CASE(sm100_umma_f16_b_nmajor)
  UMMA_B_CONSTANTS((Shape<_128, _128, _64>), half_t, UMMA::Major::MN, MN_MAJOR_STRIDE, (Shape<Shape<_128, _16>, _1, _4>), 4)
#include SNIPPET(sm100_umma_f16_b_nmajor)
  corpus::emit(c, SmemLayoutB{});
}

}  // namespace cutlass::gemm::collective

// ---- Epilogues (epilogue/collective/builders/sm90_builder.inl, sm100_builder.inl) ----
namespace cutlass::epilogue::collective {

void sm90_epi_f16_rowmajor() {
  CASE(sm90_epi_f16_rowmajor)
  TYPE(Stride, cute::Stride<int64_t, cute::Int<1>, int64_t>)
  TYPE(ElementAux, half_t)
  MEMBER_TYPE(EpilogueDescriptor, EpilogueTile, Shape<_64, _32>)
  TYPE(EpilogueTile, Shape<_64, _32>)
  VALUE(StagesC, 2)
  VALUE(is_m_major_C, false)
#include SNIPPET(sm90_epi_f16_rowmajor)
  corpus::emit(c, SmemLayoutC{});
}
void sm90_epi_f32_colmajor() {
  CASE(sm90_epi_f32_colmajor)
  TYPE(Stride, cute::Stride<cute::Int<1>, int64_t, int64_t>)
  TYPE(ElementAux, float)
  MEMBER_TYPE(EpilogueDescriptor, EpilogueTile, Shape<_128, _32>)
  TYPE(EpilogueTile, Shape<_128, _32>)
  VALUE(StagesC, 2)
  VALUE(is_m_major_C, true)
#include SNIPPET(sm90_epi_f32_colmajor)
  corpus::emit(c, SmemLayoutC{});
}
void sm90_epi_bf16_rowmajor_64() {
  CASE(sm90_epi_bf16_rowmajor_64)
  TYPE(Stride, cute::Stride<int64_t, cute::Int<1>, int64_t>)
  TYPE(ElementAux, bfloat16_t)
  MEMBER_TYPE(EpilogueDescriptor, EpilogueTile, Shape<_64, _64>)
  TYPE(EpilogueTile, Shape<_64, _64>)
  VALUE(StagesC, 4)
  VALUE(is_m_major_C, false)
#include SNIPPET(sm90_epi_bf16_rowmajor_64)
  corpus::emit(c, SmemLayoutC{});
}
void sm90_epi_e4m3_colmajor() {
  CASE(sm90_epi_e4m3_colmajor)
  TYPE(Stride, cute::Stride<cute::Int<1>, int64_t, int64_t>)
  TYPE(ElementAux, cutlass::float_e4m3_t)
  MEMBER_TYPE(EpilogueDescriptor, EpilogueTile, Shape<_64, _32>)
  TYPE(EpilogueTile, Shape<_64, _32>)
  VALUE(StagesC, 2)
  VALUE(is_m_major_C, true)
#include SNIPPET(sm90_epi_e4m3_colmajor)
  corpus::emit(c, SmemLayoutC{});
}

void sm100_epi_f16_rowmajor() {
  CASE(sm100_epi_f16_rowmajor)
  TYPE(GmemStrideTypeAux, cute::Stride<int64_t, cute::Int<1>, int64_t>)
  MEMBER_TYPE(FusionOp, ElementAux, half_t)
  TYPE(EpilogueTile_MN, Shape<_128, _64>)
  TYPE(EpilogueTile, EpilogueTile_MN)
  VALUE(is_m_major_C, false)
  VALUE(StagesC, 2)
  VALUE(StrideStageC, 8192)
#include SNIPPET(sm100_epi_f16_rowmajor)
  corpus::emit(c, SmemLayoutC{});
}
void sm100_epi_f32_colmajor() {
  CASE(sm100_epi_f32_colmajor)
  TYPE(GmemStrideTypeAux, cute::Stride<cute::Int<1>, int64_t, int64_t>)
  MEMBER_TYPE(FusionOp, ElementAux, float)
  TYPE(EpilogueTile_MN, Shape<_64, _32>)
  TYPE(EpilogueTile, EpilogueTile_MN)
  VALUE(is_m_major_C, true)
  VALUE(StagesC, 3)
  VALUE(StrideStageC, 2048)
#include SNIPPET(sm100_epi_f32_colmajor)
  corpus::emit(c, SmemLayoutC{});
}
void sm100_epi_accum_smem_conditional() {
  CASE(sm100_epi_accum_smem_conditional)
  VALUE(WarpShape_M, 4)
  VALUE(WarpShape_N, 2)
  TYPE(GmemStrideTypeD, cute::Stride<int64_t, cute::Int<1>, int64_t>)
#include SNIPPET(sm100_epi_accum_smem_conditional)
  corpus::emit(c, SmemLayout{});
}
void sm100_epi_accum_smem_conditional_colmajor() {
  CASE(sm100_epi_accum_smem_conditional_colmajor)
  VALUE(WarpShape_M, 4)
  VALUE(WarpShape_N, 1)
  TYPE(GmemStrideTypeD, cute::Stride<cute::Int<1>, int64_t, int64_t>)
#include SNIPPET(sm100_epi_accum_smem_conditional_colmajor)
  corpus::emit(c, SmemLayout{});
}

}  // namespace cutlass::epilogue::collective

// ---- CuTe tutorials (examples/cute/tutorial) ----
namespace tutorial {

void tutorial_sgemm1_nt_sA() {
  CASE(tutorial_sgemm1_nt_sA)
#include SNIPPET(tutorial_sgemm1_nt_sA)
  corpus::emit(c, sA);
}
void tutorial_sgemm1_tn_sA() {
  CASE(tutorial_sgemm1_tn_sA)
#include SNIPPET(tutorial_sgemm1_tn_sA)
  corpus::emit(c, sA);
}
void tutorial_sgemm2_tn_sA_padded() {
  CASE(tutorial_sgemm2_tn_sA_padded)
#include SNIPPET(tutorial_sgemm2_tn_sA_padded)
  corpus::emit(c, sA);
}
void tutorial_sgemm_sm80_swizzle_sA() {
  CASE(tutorial_sgemm_sm80_swizzle_sA)
#include SNIPPET(tutorial_sgemm_sm80_swizzle_sA)
  corpus::emit(c, sA);
}
void tutorial_sgemm_sm80_padded_sB() {
  CASE(tutorial_sgemm_sm80_padded_sB)
#include SNIPPET(tutorial_sgemm_sm80_padded_sB)
  corpus::emit(c, sB);
}
void tutorial_sgemm_sm80_nt_sA() {
  CASE(tutorial_sgemm_sm80_nt_sA)
#include SNIPPET(tutorial_sgemm_sm80_nt_sA)
  corpus::emit(c, sA);
}
void tutorial_wgmma_sm90_nt_sA() {
  CASE(tutorial_wgmma_sm90_nt_sA)
  TYPE(TA, cute::half_t)
#include SNIPPET(tutorial_wgmma_sm90_nt_sA)
  corpus::emit(c, sA);
}
void tutorial_wgmma_sm90_tn_sB() {
  CASE(tutorial_wgmma_sm90_tn_sB)
  TYPE(TA, cute::half_t)
  TYPE(TB, cute::half_t)
#include SNIPPET(tutorial_wgmma_sm90_tn_sB)
  corpus::emit(c, sB);
}
void tutorial_wgmma_tma_sm90_nt_sB() {
  CASE(tutorial_wgmma_tma_sm90_nt_sB)
  TYPE(TA, cute::half_t)
  TYPE(TB, cute::half_t)
#include SNIPPET(tutorial_wgmma_tma_sm90_nt_sB)
  corpus::emit(c, sB);
}
void tutorial_blackwell_mma_sA() {
  CASE(tutorial_blackwell_mma_sA)
  TYPE(TypeA, cutlass::half_t)
  VALUE(mma_shape_A, Shape<Shape<_128, _16>, _1, _4>{})
#include SNIPPET(tutorial_blackwell_mma_sA)
  corpus::emit(c, sA_layout);
}
void tutorial_blackwell_mma_sB() {
  CASE(tutorial_blackwell_mma_sB)
  TYPE(TypeB, cutlass::half_t)
  VALUE(mma_shape_B, Shape<Shape<_256, _16>, _1, _4>{})
#include SNIPPET(tutorial_blackwell_mma_sB)
  corpus::emit(c, sB_layout);
}
void tutorial_blackwell_epi_sC() {
  CASE(tutorial_blackwell_epi_sC)
  TYPE(TypeC, float)
  VALUE(mma_shape_C, Shape<Shape<_128, _256>, _1, _1>{})
#include SNIPPET(tutorial_blackwell_epi_sC)
  corpus::emit(c, sC_layout);
}

}  // namespace tutorial

int main(int argc, char** argv) {
  corpus::g_dir = argc > 1 ? argv[1] : ".";
  using namespace cutlass::gemm::collective;
  using namespace cutlass::epilogue::collective;
  using namespace tutorial;
  sm80_f16_tn_a_k64();
  sm80_f16_nt_a_mmajor();
  sm80_f16_tn_a_k32();
  sm80_f16_nt_b_nmajor();
  sm80_tf32_tn_a_k32();
  sm80_tf32_tn_a_k16();
  sm80_tf32_nt_a_mmajor();
  sm80_s8_tn_a();
  sm70_simt_nt_a_mmajor();
  sm70_simt_tn_a_padded();
  sm70_dp4a_interleaved_a();
  sm80_simt_nt_a_plain();
  sm80_simt_tn_a_padded();
  sm80_f64_tn_a_kmajor();
  sm80_f64_nt_a_mmajor();
  sm90_f64_tn_a_ordered();
  sm90_f64_tn_b_ordered();
  sm90_ss_f16_a_kmajor();
  sm90_ss_f16_b_nmajor();
  sm90_ss_e4m3_a_kmajor();
  sm90_ss_tf32_a_mmajor();
  sm90_ss_bf16_a_k32();
  sm90_ss_f16_a_k16();
  sm90_ss_s8_b_kmajor_k64();
  sm90_ss_f16_b_nmajor_n32();
  sm90_ss_u4_a_kmajor();
  sm90_ss_f32_b_kmajor();
  sm90_rs_f16_a_kmajor();
  sm90_rs_tf32_b_nmajor();
  sm90_rs_s8_b_nmajor_transposed();
  sm90_rs_f16_b_nmajor();
  sm90_gmma_k_sw128_bits_upcast();
  sm90_gmma_mn_sw64_recast();
  sm90_composition_flag();
  sm100_umma_f16_a_kmajor();
  sm100_umma_tf32_a_mmajor();
  sm100_umma_f16_a_mmajor();
  sm100_umma_e4m3_a_kmajor();
  sm100_umma_bf16_b_kmajor_n256();
  sm100_umma_f16_b_nmajor();
  sm90_epi_f16_rowmajor();
  sm90_epi_f32_colmajor();
  sm90_epi_bf16_rowmajor_64();
  sm90_epi_e4m3_colmajor();
  sm100_epi_f16_rowmajor();
  sm100_epi_f32_colmajor();
  sm100_epi_accum_smem_conditional();
  sm100_epi_accum_smem_conditional_colmajor();
  tutorial_sgemm1_nt_sA();
  tutorial_sgemm1_tn_sA();
  tutorial_sgemm2_tn_sA_padded();
  tutorial_sgemm_sm80_swizzle_sA();
  tutorial_sgemm_sm80_padded_sB();
  tutorial_sgemm_sm80_nt_sA();
  tutorial_wgmma_sm90_nt_sA();
  tutorial_wgmma_sm90_tn_sB();
  tutorial_wgmma_tma_sm90_nt_sB();
  tutorial_blackwell_mma_sA();
  tutorial_blackwell_mma_sB();
  tutorial_blackwell_epi_sC();
  std::printf("%d golden files in %s\n", corpus::g_count, corpus::g_dir);
  return 0;
}
