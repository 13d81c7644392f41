// tests/proofs/claims/tma_claim_test.cpp: tma:Sw<B,M,S>[,base=ADDR][,box=SHAPE] (proofs/claims/tma_claim.hpp). TMA
// swizzles absolute shared-memory byte addresses (H100, shared/facts): the element-unit GMMA
// K_SW128 layout is TMA's at every 1024-byte aligned base and not at others; a box restricts the
// domain; the verdict agrees with a brute-force comparison of byte addresses on random cases.
#include <gtest/gtest.h>

#include <random>

#include "model/layout/notation.hpp"
#include "proofs/check/check.hpp"

namespace layoutproof::proofs {
namespace {

Verdict tma(const char* layout, const std::string& claim, int bits = 16) {
  const AnyLayout l = parse_any_layout(layout);
  const std::optional<TmaClaim> t = parse_tma_claim(claim);
  validate_tma_domain(l, *t, claim);  // as make_check does
  return decide_tma(l, bits, *t, claim);
}

TEST(TmaClaim, AbsoluteAddressesDecide) {
  const char* k_sw128 = "Sw<3,3,3> o 0 o (8,64):(64,1)";  // GMMA::Layout_K_SW128_Atom<half_t>
  EXPECT_TRUE(tma(k_sw128, "tma:Sw<3,4,3>").is_proved());
  EXPECT_TRUE(tma(k_sw128, "tma:Sw<3,4,3>,base=1024").is_proved());
  EXPECT_TRUE(tma(k_sw128, "tma:Sw<3,4,3>,base=0x2000").is_proved());
  const Verdict off = tma(k_sw128, "tma:Sw<3,4,3>,base=128");
  ASSERT_TRUE(off.is_refuted());
  EXPECT_NE(off.witness.why.find("not 1024-byte aligned"), std::string::npos) << off.witness.why;
  EXPECT_TRUE(tma(k_sw128, "tma:Sw<2,4,3>").is_refuted());  // the 64B mode is another layout
}

// The smem_ptr form (GMMA atoms, Sw<3,4,3> o smem_ptr[16b](unset) o L) swizzles the ABSOLUTE byte
// address, as CuTe's swizzle_ptr does: it is TMA's 128B layout at every base, aligned or not, and
// never the 64B one; the element-unit Sw<3,3,3> form only at 1024-byte aligned bases.
TEST(TmaClaim, SmemPtrFormSwizzlesAbsoluteAddresses) {
  const char* k_sw128 = "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)";
  for (const char* base : {"0", "128", "512", "1040", "0x2000"})
    EXPECT_TRUE(tma(k_sw128, std::string("tma:Sw<3,4,3>,base=") + base).is_proved()) << base;
  EXPECT_TRUE(tma(k_sw128, "tma:Sw<2,4,3>").is_refuted());
  EXPECT_TRUE(tma("Sw<3,3,3> o 0 o (8,64):(64,1)", "tma:Sw<3,4,3>,base=1040").is_refuted());
  // Sub-byte: 4-bit elements, the byte swizzle moves both halves of each byte together.
  EXPECT_TRUE(tma("Sw<3,4,3> o smem_ptr[4b](unset) o (8,256):(256,1)", "tma:Sw<3,4,3>,base=128", 4).is_proved());
  EXPECT_TRUE(tma("Sw<3,5,3> o 0 o (8,256):(256,1)", "tma:Sw<3,4,3>", 4).is_proved());
  // The element width must be the smem_ptr form's.
  EXPECT_EQ(tma(k_sw128, "tma:Sw<3,4,3>", 32).kind, Verdict::Kind::error);
}

TEST(TmaClaim, BoxRestrictsTheDomain) {
  // The unswizzled (8,64):(64,1) f16 tile agrees with TMA's 128B swizzle on row 0 only (its
  // address bits 7-9 are 0 there): a box of one row is proved, a box of two rows refuted.
  EXPECT_TRUE(tma("(8,64):(64,1)", "tma:Sw<3,4,3>,box=(1,64)").is_proved());
  EXPECT_TRUE(tma("(8,64):(64,1)", "tma:Sw<3,4,3>,box=(2,64)").is_refuted());
  // At base 512 even row 0 sits at address bits 7-9 = 4: TMA swizzles it, the layout does not.
  EXPECT_TRUE(tma("Sw<3,3,3> o 0 o (8,64):(64,1)", "tma:Sw<3,4,3>,base=512,box=(1,64)").is_refuted());
}

TEST(TmaClaim, MalformedClaimsAreRejected) {
  const AnyLayout l = parse_any_layout("(8,64):(64,1)");
  for (const char* bad : {"tma:Sw<3,4,3>,foo=1", "tma:Sw<3,4,3>,base=-3", "tma:Sw<3,4,3>,base=", "tma:Sw<3,4,3>,box=(8,"})
    EXPECT_THROW(make_check("t", l, bad, std::nullopt), LayoutError) << bad;
  // A box beyond mode 0, or with more modes than the layout, is bad input before any enumeration.
  EXPECT_THROW(make_check("t", l, "tma:Sw<3,4,3>,box=(9,64)", std::nullopt), LayoutError);
  EXPECT_THROW(make_check("t", l, "tma:Sw<3,4,3>,box=(8,64,2)", std::nullopt), LayoutError);
  EXPECT_THROW(make_check("t", l, "tma:Sw<3,4,3>,align=96", std::nullopt), LayoutError);
}

// Brute force: the byte TMA writes element x to, Sw(base + 2*inner(x)), against the byte the
// kernel reads, base + 2*L(x), for 16-bit elements, over random swizzles, layouts and bases.
TEST(TmaClaim, AgreesWithBruteForceOnRandomCases) {
  std::mt19937 rng(20261123);
  int proved = 0, refuted = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int b = rng() % 4, m = rng() % 3, s = std::max<int>(b, 1 + rng() % 4);
    const int tb = rng() % 4, tm = 1 + rng() % 4, ts = std::max<int>(tb, 1 + rng() % 4);
    const i64 rows = 1 << (rng() % 4), cols = 8 << (rng() % 3);
    const std::string layout = "Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + "> o 0 o (" +
                               std::to_string(rows) + "," + std::to_string(cols) + "):(" + std::to_string(cols) + ",1)";
    const i64 base = 16 * static_cast<i64>(rng() % 256);
    const Swizzle lsw{b, m, s}, tsw{tb, tm, ts};
    bool same = true;
    for (i64 x = 0; x < rows * cols && same; ++x) {
      const i64 inner = (x % rows) * cols + x / rows;
      same = base + 2 * lsw.apply(inner) == tsw.apply(base + 2 * inner);
    }
    const std::string claim = "tma:" + to_string(tsw) + ",base=" + std::to_string(base);
    const Verdict v = tma(layout.c_str(), claim);
    EXPECT_EQ(v.is_proved(), same) << layout << " " << claim;
    EXPECT_EQ(v.is_refuted(), !same) << layout << " " << claim;
    (same ? proved : refuted)++;
  }
  EXPECT_GT(proved, 10);
  EXPECT_GT(refuted, 10);
}

}  // namespace
}  // namespace layoutproof::proofs
