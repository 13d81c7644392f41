// model/source/kernel_expr.hpp: the kernel forms of the C++ front end — make_tiled_copy_C_atom, and the
// thread-slice forms kernels write (.get_slice / .get_thread_slice), which name their TiledCopy.
#include "model/source/kernel_expr.hpp"

#include <gtest/gtest.h>

#include <string>

#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

const char* kMma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})";
const char* kLdsmA = "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)";

void expect_same_copy(const TiledCopy& a, const TiledCopy& b) {
  EXPECT_EQ(a.atom.op.name, b.atom.op.name);
  EXPECT_EQ(a.atom.value_type, b.atom.value_type);
  EXPECT_EQ(a.layout_tv.threads, b.layout_tv.threads);
  EXPECT_EQ(a.layout_tv.tile, b.layout_tv.tile);
  EXPECT_EQ(a.layout_tv.index, b.layout_tv.index);
  ASSERT_EQ(a.tiler.size(), b.tiler.size());
  for (std::size_t i = 0; i < a.tiler.size(); ++i) EXPECT_EQ(to_string(a.tiler[i]), to_string(b.tiler[i]));
}

// The 1-based column of the first occurrence of `what` in `text`.
std::size_t column_of(const std::string& text, const std::string& what) { return text.find(what) + 1; }

TEST(ThreadSlice, GetSliceNamesTheTiledCopy) {
  const TiledMma mma = parse_tiled_mma(kMma);
  const TiledCopy whole = parse_tiled_copy(kLdsmA, mma);
  expect_same_copy(parse_tiled_copy(std::string(kLdsmA) + ".get_slice(threadIdx.x)", mma), whole);
  expect_same_copy(parse_tiled_copy(std::string(kLdsmA) + " . get_thread_slice( thread_idx % 128 )", mma), whole);
}

TEST(ThreadSlice, BindingsOfSlices) {
  const TiledMma mma = parse_tiled_mma(kMma);
  const std::string src = std::string("auto s2r_copy_a = ") + kLdsmA +
                          ";\n"
                          "auto s2r_thr_copy_a = s2r_copy_a.get_slice(threadIdx.x);  // ThrCopy\n"
                          "s2r_thr_copy_a";
  expect_same_copy(parse_tiled_copy(src, mma), parse_tiled_copy(kLdsmA, mma));
}

TEST(ThreadSlice, TiledMmaSlice) {
  const TiledMma a = parse_tiled_mma(std::string(kMma) + ".get_slice(threadIdx.x)");
  const TiledMma b = parse_tiled_mma(kMma);
  EXPECT_EQ(a.thr_of_index, b.thr_of_index);
  EXPECT_EQ(a.layout_a_tv().index, b.layout_a_tv().index);
}

TEST(ThreadSlice, PartitionIsRefusedAtItsDot) {
  const TiledMma mma = parse_tiled_mma(kMma);
  const std::string src = std::string(kLdsmA) + ".get_slice(threadIdx.x).partition_S(sA)";
  try {
    (void)parse_tiled_copy(src, mma);
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column, column_of(src, ".partition_S"));
    EXPECT_NE(std::string(e.what()).find("--smem"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--side S"), std::string::npos) << e.what();
  }
}

TEST(ThreadSlice, RetileIsRefused) {
  const TiledMma mma = parse_tiled_mma(kMma);
  const std::string src = std::string(kLdsmA) + ".get_slice(threadIdx.x).retile_D(tCrA)";
  try {
    (void)parse_tiled_copy(src, mma);
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column, column_of(src, ".retile_D"));
    EXPECT_NE(std::string(e.what()).find("no shared-memory instruction"), std::string::npos) << e.what();
  }
}

TEST(ThreadSlice, CommentsAreLeftAlone) {
  const TiledMma mma = parse_tiled_mma(kMma);
  const std::string src = std::string(kLdsmA) + "  // then .partition_S(sA) /* and .retile_D(x) */";
  expect_same_copy(parse_tiled_copy(src, mma), parse_tiled_copy(kLdsmA, mma));
}

TEST(ThreadSlice, ErrorColumnsAreThoseOfTheText) {
  // Without --mma the name `mma` is an error; its column is unchanged by the blanked slice.
  const std::string src = std::string(kLdsmA) + ".get_slice(threadIdx.x)";
  try {
    (void)parse_tiled_copy(src);
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column, column_of(src, "mma)"));
  }
}

TEST(KernelExpr, TiledCopyCAtom) {
  const TiledMma mma = parse_tiled_mma("make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})");
  const CopyAtom stsm = make_copy_atom(*find_copy_op("SM90_U32x4_STSM_N"), "half_t");
  const TiledCopy direct = make_tiled_copy_C_atom(stsm, mma);
  expect_same_copy(parse_tiled_copy("make_tiled_copy_C_atom(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma)", mma), direct);
  // The epilogue's r2s copy: make_tiled_copy_S of it keeps its tiler.
  const TiledCopy r2s = parse_tiled_copy(
      "using CopyAtomC = Copy_Atom<SM90_U32x4_STSM_N, cutlass::half_t>;\n"
      "TiledCopy tiled_copy_C_atom = make_tiled_copy_C_atom(CopyAtomC{}, tiled_mma);\n"
      "make_tiled_copy_S(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, tiled_copy_C_atom)",
      mma);
  expect_same_copy(r2s, make_tiled_copy_S(stsm, direct));
}

TEST(KernelExpr, TiledCopyCAtomRefusalNamesCute) {
  const TiledMma mma = parse_tiled_mma("make_tiled_mma(UniversalFMA<float>{}, Layout<Shape<_16,_16,_1>>{})");
  try {
    (void)parse_tiled_copy("make_tiled_copy_C_atom(Copy_Atom<UniversalCopy<uint64_t>, float>{}, mma)", mma);
    FAIL() << "expected an error";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("copy_V <= size<1>(layoutC_TV)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace layoutproof

namespace layoutproof {
namespace {

// parse_smem_layout is the one input path (parse_layout_any_syntax): CuTe notation stays notation
// when -D constants are given (they sent it to the C++ parser, which refused it), and C++ with the
// constants still works.
TEST(SmemLayout, NotationWithConstantsIsNotation) {
  const CppConstants c = {{"bM", "Int<128>{}"}, {"bK", "Int<8>{}"}};
  EXPECT_EQ(to_string(parse_smem_layout("(128,8):(1,128)", c)), "(128,8):(1,128)");
  EXPECT_EQ(to_string(parse_smem_layout("Sw<3,3,3> o (8,64):(64,1)", c)), "Sw<3,3,3> o 0 o (8,64):(64,1)");
  EXPECT_EQ(to_string(parse_smem_layout("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", c)),
            "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)");
  EXPECT_EQ(to_string(parse_smem_layout("make_layout(make_shape(bM, bK))", c)), "(128,8):(1,128)");
  EXPECT_EQ(to_string(parse_smem_layout("(128,8):(1,128)")), "(128,8):(1,128)");
}

}  // namespace
}  // namespace layoutproof
