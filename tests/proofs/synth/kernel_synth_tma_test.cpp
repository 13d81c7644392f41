// proofs/synth/kernel_synth.hpp, TMA copies: tma_writable is sound (every member it accepts is written
// right by TMA's swizzle, decided by the tma: claim's enumeration), is_tma_copy recognises CuTe's
// spellings, and a synthesis with a TMA copy proves the winner's tma: claim.
#include <gtest/gtest.h>

#include "model/source/kernel_expr.hpp"
#include "model/layout/notation.hpp"
#include "proofs/claims/tma_claim.hpp"
#include "proofs/synth/kernel_synth.hpp"

namespace layoutproof::proofs {
namespace {

TEST(KernelSynthTma, WritableMembersAreWhatTmaWrites) {
  for (int e : {1, 2, 4, 8}) {
    const std::vector<i64> shape = {64, 64, 2};
    int accepted = 0, swizzled = 0;
    for (const SmemCandidate& c : smem_family(shape, e)) {
      if (!tma_writable(c, e)) continue;
      ++accepted;
      swizzled += c.sw.B > 0;
      const AnyLayout l = candidate_layout(c, shape);
      const std::string claim = "tma:Sw<" + std::to_string(c.sw.B) + ",4,3>";
      const Verdict v = decide_tma(l, 8 * e, *parse_tma_claim(claim), claim);
      EXPECT_TRUE(v.is_proved()) << e << "-byte " << to_string(l) << ": " << v.detail << v.witness.why;
    }
    EXPECT_GT(accepted, 0) << e;
    EXPECT_GT(swizzled, 0) << e;  // SW32/64/128 members are found, not only unswizzled ones
  }
}

TEST(KernelSynthTma, RowsMustMatchTheMode) {
  // half_t K-major (8,64):(64,1): 128-byte rows. Sw<3,3,3> is Sw<3,4,3> in bytes (SWIZZLE_128B): yes.
  EXPECT_TRUE(tma_writable({Major::k, 64, 8, false, 0, Swizzle{3, 3, 3}}, 2));
  // Sw<2,3,3> (SWIZZLE_64B) wants 64-byte rows; Sw<3,2,3> is not a TMA mode on 2-byte elements.
  EXPECT_FALSE(tma_writable({Major::k, 64, 8, false, 0, Swizzle{2, 3, 3}}, 2));
  EXPECT_FALSE(tma_writable({Major::k, 64, 8, false, 0, Swizzle{3, 2, 3}}, 2));
  EXPECT_FALSE(tma_writable({Major::k, 64, 64, false, 1, Swizzle{0, 0, 0}}, 2));  // padded: no dense box
}

TEST(KernelSynthTma, Spellings) {
  for (const char* s : {"SM90_TMA_LOAD", " cute::SM90_TMA_LOAD_MULTICAST{}", "SM90_TMA_STORE",
                        "make_tma_copy(SM90_TMA_LOAD{}, gA, sA_layout)", "SM100_TMA_2SM_LOAD"})
    EXPECT_TRUE(is_tma_copy(s)) << s;
  for (const char* s : {"make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>>{})",
                        "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)"})
    EXPECT_FALSE(is_tma_copy(s)) << s;
}

TEST(KernelSynthTma, WinnerProvesItsTmaClaim) {
  KernelSynthRequest q;
  q.shape = {128, 32, 3};
  q.element = "half_t";
  const TiledMma m = parse_tiled_mma("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})");
  q.copies.push_back({parse_tiled_copy("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)", m), CopySide::S});
  q.tma_copy = "SM90_TMA_LOAD";
  const KernelSynthResult r = synthesize_kernel(q);
  ASSERT_TRUE(r.found);
  EXPECT_TRUE(tma_writable(r.ranked.front().c, 2));
  bool tma = false;
  for (const auto& p : r.proofs) tma |= p.claim.rfind("tma:", 0) == 0 && p.verdict.is_proved();
  EXPECT_TRUE(tma);
  EXPECT_TRUE(r.all_proved());
}

}  // namespace
}  // namespace layoutproof::proofs
