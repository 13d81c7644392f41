// model/cute_atoms_umma.cpp: SM100 UMMA atoms against CUTLASS's traits (mma_traits_sm100.hpp):
// ThrID Layout<_1> = 1:0; ALayout (1,(M,K)):(0,(1,M)); BLayout (1,(N,K)):(0,(1,N));
// CLayout (1,(M,N)):(0,(1,M)); K = 256 bits of A (F8F6F4: 32); and the static_asserts of
// mma_sm100_umma.hpp on M, N, the majors and the element widths.
#include <gtest/gtest.h>

#include "model/cute_atoms.hpp"
#include "model/error.hpp"
#include "model/notation.hpp"

namespace {

using namespace layoutproof;

MmaAtomInfo mma(const std::string& name, const std::vector<std::string>& targs = {}) {
  auto a = find_mma_atom(name, targs);
  if (!a) throw std::runtime_error("unknown atom " + name);
  return *a;
}

TEST(CuteUmma, F16SmemSmem) {
  const MmaAtomInfo a = mma("SM100_MMA_F16BF16_SS<cute::half_t, cute::half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::MN>");
  EXPECT_EQ(a.name, "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::MN>");
  EXPECT_EQ(std::vector<i64>({a.m, a.n, a.k}), std::vector<i64>({128, 256, 16}));
  EXPECT_EQ(to_string(a.thr_id), "1:0");
  EXPECT_EQ(to_string(a.a_tv), "(1,(128,16)):(0,(1,128))");
  EXPECT_EQ(to_string(a.b_tv), "(1,(256,16)):(0,(1,256))");
  EXPECT_EQ(to_string(a.c_tv), "(1,(128,256)):(0,(1,128))");
  EXPECT_EQ(a.a_type, "half_t");
  EXPECT_EQ(a.c_type, "float");
  // The name round-trips.
  EXPECT_EQ(mma(a.name).name, a.name);
}

TEST(CuteUmma, KIs256BitsOfA) {
  EXPECT_EQ(mma("SM100_MMA_TF32_SS", {"tfloat32_t", "tfloat32_t", "float", "64", "64", "UMMA::Major::MN", "UMMA::Major::K"}).k, 8);
  EXPECT_EQ(mma("SM100_MMA_S8_SS", {"int8_t", "int8_t", "int32_t", "128", "128", "UMMA::Major::K", "UMMA::Major::K"}).k, 32);
  EXPECT_EQ(mma("SM100_MMA_F8F6F4_SS", {"float_e4m3_t", "float_e5m2_t", "float", "128", "64", "UMMA::Major::K", "UMMA::Major::K"}).k, 32);
  EXPECT_EQ(mma("SM100_MMA_F16BF16_TS", {"bfloat16_t", "bfloat16_t", "float", "64", "8", "UMMA::Major::K", "UMMA::Major::MN"}).k, 16);
}

TEST(CuteUmma, StaticAssertsAreRefusals) {
  const std::vector<std::vector<std::string>> bad = {
      {"half_t", "half_t", "float", "256", "128", "UMMA::Major::K", "UMMA::Major::K"},  // M 64 or 128 (1 CTA)
      {"half_t", "half_t", "float", "128", "12", "UMMA::Major::K", "UMMA::Major::K"},   // N % 8
      {"half_t", "half_t", "float", "128", "264", "UMMA::Major::K", "UMMA::Major::K"},  // N <= 256
      {"float", "float", "float", "128", "128", "UMMA::Major::K", "UMMA::Major::K"},    // 16-bit types only
      {"half_t", "half_t", "float", "128", "128", "UMMA::Major::T", "UMMA::Major::K"},  // K or MN
      {"half_t", "half_t", "float", "128", "128", "UMMA::Major::K"},                    // too few
  };
  for (const auto& t : bad) EXPECT_THROW(find_mma_atom("SM100_MMA_F16BF16_SS", t), LayoutError);
  // _TS: A comes from tensor memory and cannot be transposed; M = 128 needs N % 16.
  EXPECT_THROW(find_mma_atom("SM100_MMA_F16BF16_TS", {"half_t", "half_t", "float", "128", "128", "UMMA::Major::MN", "UMMA::Major::K"}), LayoutError);
  EXPECT_THROW(find_mma_atom("SM100_MMA_F16BF16_TS", {"half_t", "half_t", "float", "128", "24", "UMMA::Major::K", "UMMA::Major::K"}), LayoutError);
  EXPECT_TRUE(find_mma_atom("SM100_MMA_F16BF16_TS", {"half_t", "half_t", "float", "64", "24", "UMMA::Major::K", "UMMA::Major::K"}));
  EXPECT_FALSE(find_mma_atom("SM100_MMA_F64_SS"));
}

TEST(CuteUmma, Listed) {
  const auto names = mma_atom_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "SM100_MMA_F16BF16_SS"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "SM100_MMA_TF32_TS"), names.end());
}

}  // namespace
