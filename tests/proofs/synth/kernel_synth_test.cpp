// tests/proofs/synth/kernel_synth_test.cpp: the kernel layout synthesis (proofs/synth/kernel_synth.hpp).
//   - the three configurations CUTLASS's defaults get wrong or right, with their ratios:
//     (a) SM80 tf32 NT, (b) the tutorial's padded SIMT sgemm_sm80 TN, (c) SM80 f16 TN 128x64x3;
//   - a family with no conflict-free member (PROVED none, REFUTED witnesses), and one where every
//     member breaks a copy's vectors;
//   - the printed C++ round-trips through parse_smem_layout, the notation through the parser;
//   - the exhaustive twin: every member of a small family scored by trace_copy on its own layout
//     (no re-addressing, no memo) gives the search's numbers, and the duplicates are exactly the
//     repeated maps;
//   - the command's view (text and JSON) says what the search found.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "model/source/kernel_expr.hpp"
#include "model/layout/notation.hpp"
#include "cli/commands/synth/kernel_synth_view.hpp"
#include "proofs/synth/kernel_synth.hpp"

namespace layoutproof::proofs {
namespace {

// synth --kernel's view of a search (cli/commands/synth/kernel_synth_view.hpp): what it says about it.
using cli::kernel_synth_json;
using cli::kernel_synth_text;

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

struct CopyText {
  CopySide side;
  std::string text;
};

KernelSynthRequest request(std::vector<i64> shape, const std::string& element, const std::string& mma,
                           const std::vector<CopyText>& copies) {
  KernelSynthRequest r;
  r.shape = std::move(shape);
  r.element = element;
  std::optional<TiledMma> m;
  if (!mma.empty()) m = parse_tiled_mma(mma);
  for (const auto& c : copies) r.copies.push_back({parse_tiled_copy(c.text, m), c.side});
  return r;
}

// (a) SM80 tf32 NT: A is MN-major; s2r scalar loads of the MMA's A fragment, 16-byte cp.async.
KernelSynthRequest tf32_nt() {
  return request({128, 32, 3}, "tfloat32_t",
                 "TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>, Tile<_32,_32,_8>>{}",
                 {{CopySide::S, "make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma)"},
                  {CopySide::D, "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, "
                                "Layout<Shape<_16,_8>, Stride<_1,_16>>{}, Layout<Shape<_4,_1>>{})"}});
}
const char* const kCutlassTf32Nt =
    "tile_to_shape(composition(Swizzle<3,2,3>{}, Layout<Shape<_32,_8>,Stride<_1,_32>>{}), make_shape(Int<128>{},Int<32>{},Int<3>{}))";

// (b) the tutorial's SIMT sgemm_sm80 TN: scalar cp.async stores, UniversalFMA 16x16 reads.
KernelSynthRequest simt_tn() {
  return request({128, 8, 3}, "float", "TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}",
                 {{CopySide::S, "make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma)"},
                  {CopySide::D, "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, "
                                "Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_1>>{})"}});
}
const char* const kTutorialPadded = "(128,8,3):(1,129,1032)";  // CuTe's tile_to_shape of (128,8):(1,129)

// (c) SM80 f16 TN 128x64x3: LDSM_N x4 reads, 16-byte cp.async writes.
KernelSynthRequest f16_tn() {
  return request({128, 64, 3}, "half_t", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})",
                 {{CopySide::S, "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)"},
                  {CopySide::D, "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, "
                                "Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})"}});
}
const char* const kCutlassF16Tn =
    "tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))";

// A small family with four kinds of copy: ldsm4 (vectors), cp.async (vectors), scalar stores
// (not re-checked per member) and an AutoVectorizingCopy (re-traced per member).
KernelSynthRequest small_four_copies() {
  return request({32, 32, 2}, "half_t", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})",
                 {{CopySide::S, "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)"},
                  {CopySide::D, "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, "
                                "Layout<Shape<_8,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})"},
                  {CopySide::D, "make_tiled_copy(Copy_Atom<UniversalCopy<half_t>, half_t>{}, Layout<Shape<_32,_1>>{})"},
                  {CopySide::S, "make_tiled_copy(Copy_Atom<AutoVectorizingCopy, half_t>{}, Layout<Shape<_8,_4>,Stride<_4,_1>>{}, "
                                "Layout<Shape<_1,_8>>{})"}});
}

bool same_map(const AnyLayout& a, const AnyLayout& b) { return offsets(a) == offsets(b); }

void expect_ratio(const CopyScore& s, int wavefronts, int ideal, const std::string& what) {
  EXPECT_TRUE(s.vector_legal) << what << ": " << s.vector_why;
  EXPECT_EQ(s.wavefronts, wavefronts) << what;
  EXPECT_EQ(s.ideal, ideal) << what;
}

void expect_all_proved(const KernelSynthResult& r, std::size_t copies) {
  ASSERT_TRUE(r.found);
  EXPECT_TRUE(r.all_proved());
  ASSERT_EQ(r.proofs.size(), 3 * copies + 1);  // conflict-free, vector-legal, covers per copy; the layout
  for (const auto& p : r.proofs) EXPECT_TRUE(p.verdict.is_proved()) << p.claim << " copy " << p.copy << ": " << p.verdict.detail;
  for (std::size_t i = 0; i < copies; ++i) EXPECT_TRUE(r.ranked.front().copies[i].conflict_free());
}

const KernelCandidate* find_member(const KernelSynthResult& r, const std::string& text) {
  for (const auto& c : r.ranked)
    if (candidate_text(c.c) == text) return &c;
  return nullptr;
}

SmemCandidate c_member(const KernelSynthResult& r, const std::string& text) {
  const KernelCandidate* c = find_member(r, text);
  EXPECT_NE(c, nullptr) << text;
  return c ? c->c : SmemCandidate{};
}

// (c): the search finds CUTLASS's own layout, proves it, and ranks nothing swizzled above it.
TEST(KernelSynth, F16TnFindsCutlassSwizzle) {
  const auto q = f16_tn();
  const KernelSynthResult r = synthesize_kernel(q);
  expect_all_proved(r, 2);
  EXPECT_EQ(candidate_text(r.ranked.front().c), "K-major Sw<3,3,3> o (8,64):(64,1)");
  EXPECT_TRUE(same_map(r.layout, parse_smem_layout(kCutlassF16Tn)));
  expect_ratio(r.ranked.front().copies[0], 4, 4, "ldsm4");
  expect_ratio(r.ranked.front().copies[1], 4, 4, "ldgsts.128");
  EXPECT_EQ(r.ranked.front().smem_bytes, 128 * 64 * 3 * 2);
  EXPECT_EQ(r.proofs.back().claim, "bijective");
  EXPECT_EQ(r.cpp,
            "using SmemLayoutAtomA = decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}));\n"
            "using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtomA{}, make_shape(Int<128>{},Int<64>{},Int<3>{})));");
  EXPECT_EQ(r.preferred, Major::k);
  EXPECT_EQ(r.cutlass_atoms, (std::vector<std::string>{"GMMA::Layout_K_SW128_Atom<16b>", "SM80 half K-major kblock64<16b>"}));
  // The second conflict-free member is padded (more bytes); the next swizzled ones take 2x on the cp.async.
  ASSERT_GE(r.ranked.size(), 3u);
  EXPECT_TRUE(r.ranked[1].c.padded());
  EXPECT_EQ(r.ranked[2].wavefronts * 4, 8 * r.ranked[2].ideal);
}

// (a): CUTLASS's Swizzle<3,2,3> o (32,8):(1,32) takes 2 wavefronts for an ideal of 1 on the s2r
// loads; the family has a conflict-free member with fewer swizzle bits.
TEST(KernelSynth, Tf32NtBeatsCutlass) {
  const auto q = tf32_nt();
  const auto cutlass = score_directly(q, parse_smem_layout(kCutlassTf32Nt));
  expect_ratio(cutlass[0], 2, 1, "CUTLASS s2r ld.32");
  expect_ratio(cutlass[1], 4, 4, "CUTLASS g2s ldgsts.128");
  const KernelSynthResult r = synthesize_kernel(q);
  expect_all_proved(r, 2);
  EXPECT_EQ(candidate_text(r.ranked.front().c), "MN-major Sw<2,3,2> o (32,4):(1,32)");
  expect_ratio(r.ranked.front().copies[0], 1, 1, "s2r");
  expect_ratio(r.ranked.front().copies[1], 4, 4, "g2s");
  EXPECT_EQ(r.preferred, Major::mn);
  // The synthesized atom is one CUTLASS ships for SM100, not the one its SM80 tf32 NT default uses.
  EXPECT_EQ(r.cutlass_atoms, std::vector<std::string>{"UMMA::Layout_MN_SW128_32B_Atom<32b>"});
  EXPECT_EQ(cutlass_names(c_member(r, "MN-major Sw<3,2,3> o (32,8):(1,32)"), 32), (std::vector<std::string>{"GMMA::Layout_MN_SW128_Atom<32b>", "SM80 tf32 MN-major<32b>"}));
  // CUTLASS's own layout is a member, ranked below every conflict-free one.
  const KernelCandidate* c = find_member(r, "MN-major Sw<3,2,3> o (32,8):(1,32)");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->wavefronts, 2);
  EXPECT_EQ(c->ideal, 1);
  EXPECT_TRUE(same_map(candidate_layout(c->c, q.shape), parse_smem_layout(kCutlassTf32Nt)));
}

// (b): the tutorial's padding takes 4 wavefronts for an ideal of 1 on the cp.async stores; a
// swizzle is conflict-free on both copies, in 92 fewer bytes (no padding).
TEST(KernelSynth, SimtTnBeatsTutorialPadding) {
  const auto q = simt_tn();
  const auto tutorial = score_directly(q, parse_smem_layout(kTutorialPadded));
  expect_ratio(tutorial[0], 1, 1, "tutorial s2r ld.32");
  expect_ratio(tutorial[1], 4, 1, "tutorial g2s ldgsts.32");
  const KernelSynthResult r = synthesize_kernel(q);
  expect_all_proved(r, 2);
  EXPECT_EQ(candidate_text(r.ranked.front().c), "K-major Sw<2,0,5> o (16,8):(8,1)");
  EXPECT_EQ(r.ranked.front().smem_bytes, 128 * 8 * 3 * 4);
  EXPECT_FALSE(r.preferred.has_value());  // one element per lane in both copies
  // The tutorial's layout is the MN-major member padded by 1, scored as above.
  const KernelCandidate* c = find_member(r, "MN-major (128,8):(1,129) padded by 1");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(same_map(candidate_layout(c->c, q.shape), parse_smem_layout(kTutorialPadded)));
  EXPECT_EQ(c->wavefronts, 4);
  EXPECT_EQ(c->ideal, 1);
  EXPECT_EQ(c->smem_bytes, (2 * 1032 + 1031) * 4);  // cosize * 4 bytes
}

// No member is conflict-free: PROVED by the search, with REFUTED witnesses for the best members.
TEST(KernelSynth, NoneExistsIsProvedWithWitnesses) {
  auto q = request({128, 6, 1}, "float", "TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}",
                   {{CopySide::S, "make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma)"},
                    {CopySide::D, "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, "
                                  "Layout<Shape<_32,_6>,Stride<_6,_1>>{}, Layout<Shape<_1,_1>>{})"}});
  q.witnesses = 2;
  const KernelSynthResult r = synthesize_kernel(q);
  EXPECT_FALSE(r.found);
  EXPECT_FALSE(r.all_proved());
  EXPECT_EQ(r.best_wavefronts, 2);
  EXPECT_EQ(r.best_ideal, 1);
  for (const auto& c : r.ranked) EXPECT_FALSE(c.conflict_free()) << candidate_text(c.c);
  ASSERT_FALSE(r.proofs.empty());
  std::set<i64> members;
  for (const auto& p : r.proofs) {
    EXPECT_EQ(p.claim, "conflict-free");
    EXPECT_TRUE(p.verdict.is_refuted()) << p.verdict.detail;
    ASSERT_TRUE(p.witness.has_value());
    EXPECT_GT(p.witness->wavefronts, p.witness->ideal);
    EXPECT_FALSE(r.ranked[static_cast<std::size_t>(p.member)].copies[static_cast<std::size_t>(p.copy)].conflict_free());
    members.insert(p.member);
  }
  EXPECT_EQ(members, (std::set<i64>{0, 1}));
  EXPECT_EQ(r.family_size, r.duplicates + static_cast<i64>(r.rejected.size() + r.ranked.size()));
  const std::string text = kernel_synth_text(q, r, false), json = kernel_synth_json(q, r, false).dump();
  EXPECT_TRUE(has(text, "PROVED  no member of the family is conflict-free on every copy")) << text;
  EXPECT_TRUE(has(text, "REFUTED  conflict-free  copy 1")) << text;
  EXPECT_TRUE(has(json, "\"found\":false")) << json;
  EXPECT_TRUE(has(json, "\"best_ratio\":2.0")) << json;
  EXPECT_TRUE(has(json, "\"none\":{\"verdict\":\"PROVED\"")) << json;
}

// LDSM_N needs K-contiguous rows, this cp.async MN-contiguous ones: no member keeps both.
TEST(KernelSynth, EveryMemberRejectedWhenVectorsDisagree) {
  const auto q = request({64, 32, 1}, "half_t", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})",
                         {{CopySide::S, "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)"},
                          {CopySide::D, "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, "
                                        "Layout<Shape<_8,_4>,Stride<_1,_8>>{}, Layout<Shape<_8,_1>>{})"}});
  const KernelSynthResult r = synthesize_kernel(q);
  EXPECT_FALSE(r.found);
  EXPECT_TRUE(r.ranked.empty());
  EXPECT_FALSE(r.rejected.empty());
  EXPECT_EQ(r.family_size, r.duplicates + static_cast<i64>(r.rejected.size()));
  for (const auto& c : r.rejected) {
    EXPECT_GE(c.illegal_copy, 0);
    EXPECT_TRUE(has(c.illegal_why, "not contiguous") || has(c.illegal_why, "misaligned")) << c.illegal_why;
  }
  EXPECT_TRUE(has(kernel_synth_text(q, r, false), "PROVED  no member of the family keeps every copy vector-legal"));
  EXPECT_TRUE(has(kernel_synth_json(q, r, false).dump(), "\"smem\":null"));
}

// The printed C++ evaluates to the layout the search scored: for every member of a family
// (swizzled, Step-ordered, padded), and for the three winners (C++ and CuTe notation).
TEST(KernelSynth, PrintedCppRoundTrips) {
  const std::vector<i64> shape{32, 16, 2};
  int swizzled = 0, padded = 0, step = 0;
  for (const SmemCandidate& c : smem_family(shape, 2)) {
    const AnyLayout full = candidate_layout(c, shape);
    SmemCandidate plain = c;
    plain.sw = Swizzle{0, 0, 0};
    const Layout inner = candidate_layout(plain, shape).layout;
    EXPECT_EQ(offsets(full), offsets(c.sw.B ? AnyLayout(c.sw, 0, inner) : AnyLayout(inner))) << candidate_text(c);
    EXPECT_EQ(size(full.layout), 32 * 16 * 2);
    swizzled += c.sw.B > 0;
    padded += c.padded();
    step += c.step;
  }
  EXPECT_GT(swizzled, 0);
  EXPECT_GT(padded, 0);
  EXPECT_GT(step, 0);
  for (const auto& q : {tf32_nt(), simt_tn(), f16_tn()}) {
    const KernelSynthResult r = synthesize_kernel(q);
    EXPECT_EQ(to_string(parse_smem_layout(r.cpp)), r.notation);
    EXPECT_TRUE(same_map(parse_smem_layout(r.cpp), r.layout));
    EXPECT_TRUE(same_map(parse_any_layout(r.notation), r.layout));
  }
}

// The exhaustive twin: trace_copy on each member's own layout, no re-addressing and no memo,
// gives every number the search reports; and the duplicates are exactly the repeated maps.
TEST(KernelSynth, SearchScoresEqualDirectTraces) {
  const auto q = small_four_copies();
  const KernelSynthResult r = synthesize_kernel(q);
  ASSERT_FALSE(r.ranked.empty());
  for (const auto& c : r.ranked) {
    const auto direct = score_directly(q, candidate_layout(c.c, q.shape));
    ASSERT_EQ(direct.size(), c.copies.size());
    for (std::size_t i = 0; i < direct.size(); ++i) {
      const std::string what = candidate_text(c.c) + " copy " + std::to_string(i);
      EXPECT_TRUE(direct[i].vector_legal) << what;
      EXPECT_EQ(direct[i].wavefronts, c.copies[i].wavefronts) << what;
      EXPECT_EQ(direct[i].ideal, c.copies[i].ideal) << what;
      EXPECT_EQ(direct[i].worst, c.copies[i].worst) << what;
      EXPECT_EQ(direct[i].total_wavefronts, c.copies[i].total_wavefronts) << what;
      EXPECT_EQ(direct[i].total_ideal, c.copies[i].total_ideal) << what;
      EXPECT_EQ(direct[i].conflicted, c.copies[i].conflicted) << what;
      EXPECT_EQ(direct[i].width_bytes, c.copies[i].width_bytes) << what;
    }
  }
  for (const auto& c : r.rejected) {
    const auto direct = score_directly(q, candidate_layout(c.c, q.shape));
    EXPECT_FALSE(direct[static_cast<std::size_t>(c.illegal_copy)].vector_legal) << candidate_text(c.c);
    for (i64 i = 0; i < c.illegal_copy; ++i) EXPECT_TRUE(direct[static_cast<std::size_t>(i)].vector_legal) << candidate_text(c.c);
  }
  std::map<std::vector<i64>, int> maps;
  const auto family = smem_family(q.shape, 2);
  for (const auto& c : family) maps[offsets(candidate_layout(c, q.shape))]++;
  EXPECT_EQ(r.family_size, static_cast<i64>(family.size()));
  EXPECT_EQ(static_cast<i64>(maps.size()), static_cast<i64>(r.ranked.size() + r.rejected.size()));
  EXPECT_EQ(r.duplicates, r.family_size - static_cast<i64>(maps.size()));
  // The ranking: worst ratio never decreases down the list, nor bytes within one ratio.
  for (std::size_t i = 1; i < r.ranked.size(); ++i) {
    const auto& a = r.ranked[i - 1];
    const auto& b = r.ranked[i];
    const i64 l = i64{a.wavefronts} * b.ideal, rr = i64{b.wavefronts} * a.ideal;
    EXPECT_LE(l, rr);
    if (l == rr) EXPECT_LE(a.smem_bytes, b.smem_bytes);
  }
}

// The family's bounds, as kernel_synth.hpp states them, and its size for (c).
// The class search (proofs/synth/kernel_synth_search.hpp) against the reference search, which
// re-addresses every instruction of every member and compares whole tables: the same duplicates,
// the same rejections with the same refutations, every member's every copy score, the same
// ranking and winner. On the three configurations above, the tf32 NT one at 128x128x64 (A is
// (128,64,3)), the SIMT tutorial at 128x128x16 and the four-copy family (its AutoVectorizingCopy
// stays on the reference path).
void expect_same_search(KernelSynthRequest q, const std::string& what) {
  q.witnesses = 0;
  const KernelSynthResult fast = synthesize_kernel(q);
  q.reference_search = true;
  const KernelSynthResult ref = synthesize_kernel(q);
  EXPECT_EQ(fast.family_size, ref.family_size) << what;
  EXPECT_EQ(fast.duplicates, ref.duplicates) << what;
  ASSERT_EQ(fast.rejected.size(), ref.rejected.size()) << what;
  for (std::size_t i = 0; i < ref.rejected.size(); ++i) {
    EXPECT_EQ(fast.rejected[i].index, ref.rejected[i].index) << what;
    EXPECT_EQ(fast.rejected[i].illegal_copy, ref.rejected[i].illegal_copy) << what;
    EXPECT_EQ(fast.rejected[i].illegal_why, ref.rejected[i].illegal_why) << what;
  }
  ASSERT_EQ(fast.ranked.size(), ref.ranked.size()) << what;
  for (std::size_t i = 0; i < ref.ranked.size(); ++i) {
    const KernelCandidate &a = fast.ranked[i], &b = ref.ranked[i];
    const std::string m = what + " rank " + std::to_string(i) + " " + candidate_text(b.c);
    ASSERT_EQ(a.index, b.index) << m;
    EXPECT_EQ(a.smem_bytes, b.smem_bytes) << m;
    EXPECT_EQ(a.wavefronts, b.wavefronts) << m;
    EXPECT_EQ(a.ideal, b.ideal) << m;
    EXPECT_EQ(a.total_wavefronts, b.total_wavefronts) << m;
    ASSERT_EQ(a.copies.size(), b.copies.size()) << m;
    for (std::size_t k = 0; k < a.copies.size(); ++k) {
      const CopyScore &x = a.copies[k], &y = b.copies[k];
      EXPECT_EQ(x.worst, y.worst) << m << " copy " << k;
      EXPECT_EQ(x.wavefronts, y.wavefronts) << m << " copy " << k;
      EXPECT_EQ(x.ideal, y.ideal) << m << " copy " << k;
      EXPECT_EQ(x.total_wavefronts, y.total_wavefronts) << m << " copy " << k;
      EXPECT_EQ(x.total_ideal, y.total_ideal) << m << " copy " << k;
      EXPECT_EQ(x.conflicted, y.conflicted) << m << " copy " << k;
      EXPECT_EQ(x.width_bytes, y.width_bytes) << m << " copy " << k;
    }
  }
  EXPECT_EQ(fast.found, ref.found) << what;
  EXPECT_EQ(fast.cpp, ref.cpp) << what;
  // The classes evaluate fewer distinct instructions, never more.
  EXPECT_LE(fast.bank_evaluations, ref.bank_evaluations) << what;
}

TEST(KernelSynth, ClassSearchEqualsReferenceSearch) {
  expect_same_search(tf32_nt(), "(a) tf32 NT 128x32x3");
  expect_same_search(simt_tn(), "(b) SIMT TN 128x8x3");
  expect_same_search(f16_tn(), "(c) f16 TN 128x64x3");
  expect_same_search(small_four_copies(), "four copies 32x32x2");
  auto tf32_64 = tf32_nt();
  tf32_64.shape = {128, 64, 3};
  expect_same_search(tf32_64, "tf32 NT 128x64x3");
  auto simt_16 = simt_tn();
  simt_16.shape = {128, 16, 3};
  expect_same_search(simt_16, "SIMT TN 128x16x3");
}

// SM90 GMMA: an operand read through a descriptor takes one of CUTLASS's GMMA atoms. The family
// is exactly those of the MMA's major that divide the tile (both orders), every ranked member is
// one (cutlass_names), and the winner for a 128-byte-row cp.async is SW128, with its TMA swizzle.
TEST(KernelSynth, GmmaDescriptorFamily) {
  const auto k = gmma_family({128, 64, 4}, 2, Major::k);
  ASSERT_EQ(k.size(), 7u);  // INTER, SW32, SW64 in both orders; SW128 spans K = 64: one order
  EXPECT_EQ(candidate_text(k.front()), "K-major (8,8):(8,1)");
  EXPECT_EQ(candidate_text(k.back()), "K-major Sw<3,3,3> o (8,64):(64,1)");
  const auto mn = gmma_family({64, 32, 2}, 4, Major::mn);
  ASSERT_EQ(mn.size(), 8u);  // tf32 MN-major on (64,32): every atom in both orders
  EXPECT_EQ(candidate_text(mn.back()), "MN-major Sw<3,2,3> o (32,8):(1,32) Step<_2,_1,_3>");
  const auto narrow = gmma_family({128, 8, 1}, 2, Major::k);  // K = 8 halves = 16 bytes: INTER only
  ASSERT_EQ(narrow.size(), 1u);
  EXPECT_EQ(narrow.front().sw.B, 0);
}

TEST(KernelSynth, GmmaDescriptorWinnerAndTma) {
  auto q = request({128, 64, 4}, "half_t", "",
                   {{CopySide::D, "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, "
                                  "Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})"}});
  q.descriptor = Major::k;
  q.descriptor_mma = "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>";
  const KernelSynthResult r = synthesize_kernel(q);
  EXPECT_EQ(r.family_size, 7);
  for (const auto& c : r.ranked) {
    bool gmma = false;
    for (const auto& n : cutlass_names(c.c, 16)) gmma = gmma || n.rfind("GMMA::", 0) == 0;
    EXPECT_TRUE(gmma) << candidate_text(c.c);
  }
  ASSERT_TRUE(r.found);
  EXPECT_TRUE(r.all_proved());
  EXPECT_EQ(candidate_text(r.ranked.front().c), "K-major Sw<3,3,3> o (8,64):(64,1)");
  ASSERT_FALSE(r.proofs.empty());
  EXPECT_EQ(r.proofs.back().claim, "tma:Sw<3,4,3>");
  EXPECT_TRUE(r.proofs.back().verdict.is_proved()) << r.proofs.back().verdict.detail;
  EXPECT_TRUE(has(kernel_synth_text(q, r, false), "reads A through a GMMA descriptor"));
  // The narrower swizzles split the cp.async's 128-byte rows: 2x and 4x the ideal.
  ASSERT_EQ(r.ranked.size(), 7u);
  EXPECT_EQ(r.ranked[1].wavefronts * 4, 8 * r.ranked[1].ideal);
}

TEST(KernelSynth, FamilyBounds) {
  const std::vector<i64> shape{128, 64, 3};
  const auto f = smem_family(shape, 2);
  EXPECT_EQ(f.size(), 6262u);
  for (const auto& c : f) {
    const i64 ec = c.major == Major::k ? 64 : 128, eo = c.major == Major::k ? 128 : 64;
    if (c.padded()) {
      EXPECT_EQ(c.width, ec);
      EXPECT_LE(c.pad * 2, 64);
      EXPECT_LT(c.pad, ec);
      EXPECT_EQ(c.sw.B, 0);
      continue;
    }
    EXPECT_EQ(ec % c.width, 0);
    EXPECT_EQ(eo % c.rows, 0);
    EXPECT_GE(c.width * 2, 16);
    if (c.sw.B) {
      EXPECT_LE(c.sw.B, c.sw.S);
      EXPECT_LE(i64{1} << c.sw.span_bits(), c.rows * c.width);
    }
    if (c.step) EXPECT_TRUE(ec / c.width > 1 && eo / c.rows > 1);
  }
  EXPECT_THROW(smem_family({128}, 2), LayoutError);
  EXPECT_THROW(smem_family({128, 64, 3, 2}, 2), LayoutError);
  EXPECT_THROW(smem_family({4096, 4096, 1}, 2), LayoutError);  // 2^24 elements
}

// The JSON form the CLI prints (--json): the fields scripts read.
TEST(KernelSynth, JsonFields) {
  const auto q = f16_tn();
  const KernelSynthResult r = synthesize_kernel(q);
  const std::string j = kernel_synth_json(q, r, false).dump();
  for (const char* f : {"{\"found\":true", "\"smem\":\"using SmemLayoutAtomA = decltype(composition(Swizzle<3,3,3>{}",
                        "\"notation\":\"Sw<3,3,3> o 0 o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192))\"",
                        "\"per_copy\":[{\"copy\":\"make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)\",\"side\":\"S\","
                        "\"op\":\"ldsm4\"",
                        "\"width_bytes\":16", "\"wavefronts\":4,\"ideal\":4,\"ratio\":1.0,\"conflict_free\":true,\"vector_legal\":true}",
                        "\"candidates\":6262", "\"best_ratio\":1.0", "\"time_ms\":"})
    EXPECT_TRUE(has(j, f)) << f << "\n" << j;
  EXPECT_TRUE(has(kernel_synth_text(q, r, false), "FOUND  K-major Sw<3,3,3> o (8,64):(64,1)"));
}

TEST(KernelSynth, BadInput) {
  auto q = f16_tn();
  q.element = "float";
  EXPECT_THROW(synthesize_kernel(q), LayoutError);  // the copies move 16-bit values
  q = f16_tn();
  q.copies.clear();
  EXPECT_THROW(synthesize_kernel(q), LayoutError);
  q = f16_tn();
  q.shape = {128, 60, 3};  // the LDSM copy's 16-wide K tile does not divide 60
  EXPECT_THROW(synthesize_kernel(q), LayoutError);
}

}  // namespace
}  // namespace layoutproof::proofs
