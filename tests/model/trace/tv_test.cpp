// model/trace/tv.hpp: make_tiled_copy_C_atom against CuTe. The expected tiler and TiledLayout_TV of the
// GMMA case are CuTe's own, printed by print(make_tiled_copy_C_atom(...)) from CUTLASS's headers
// (nvcc, host code, CUTLASS 7107b055):
//   Tiler_MN:       ((_8,_4,_2):(_1,_16,_8),(_4,_2,_2):(_2,_1,_8))
//   TiledLayout_TV: ((_4,_8,_4),(_2,_2,_2)):((_64,_1,_8),(_256,_32,_512))
// The per-lane addresses of these copies are checked against CuTe by tests/kernels/golden.
#include "model/trace/tv.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/source/kernel_expr.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

CopyAtom atom(const std::string& op, const std::string& type) {
  const auto info = find_copy_op(op);
  if (!info) throw LayoutError("no copy op " + op);
  return make_copy_atom(*info, type);
}

std::set<i64> image(const Layout& l) {
  const std::vector<i64> o = offsets(l);
  return {o.begin(), o.end()};
}

// The (m, n) coordinates of tile index x of a copy with a layout tiler.
std::pair<i64, i64> tile_coord(const TiledCopy& c, i64 x) {
  const i64 rows = c.layout_tv.tile.at(0);
  return {evaluate(c.tiler.at(0), x % rows), evaluate(c.tiler.at(1), x / rows)};
}

// @post of make_tiled_copy_C_atom: tiler(layout_tv(t, v)) == layoutC_TV(t, v) for v < copy_V,
// and each tiler mode enumerates its coordinates once.
void expect_post(const TiledMma& mma, const TiledCopy& c) {
  const TvMap ref = mma.layout_c_tv();
  const i64 rows = ref.tile.at(0);
  ASSERT_EQ(c.layout_tv.threads, ref.threads);
  for (i64 t = 0; t < ref.threads; ++t)
    for (i64 v = 0; v < c.layout_tv.values; ++v) {
      const auto [m, n] = tile_coord(c, c.layout_tv(t, v));
      ASSERT_EQ(m, ref(t, v) % rows) << "thread " << t << " value " << v;
      ASSERT_EQ(n, ref(t, v) / rows) << "thread " << t << " value " << v;
    }
  for (const Layout& t : c.tiler) EXPECT_EQ(static_cast<i64>(image(t).size()), size(t)) << to_string(t);
}

TEST(CopyCAtom, Gmma64x128StsmEqualsCuteTilerAndTv) {
  const TiledMma mma = parse_tiled_mma("make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})");
  const TiledCopy c = make_tiled_copy_C_atom(atom("SM90_U32x4_STSM_N", "half_t"), mma);
  const Layout cute_tiler_m = parse_layout("(8,4,2):(1,16,8)"), cute_tiler_n = parse_layout("(4,2,2):(2,1,8)");
  const Layout cute_tv = parse_layout("((4,8,4),(2,2,2)):((64,1,8),(256,32,512))");
  ASSERT_EQ(c.tiler.size(), 2u);
  EXPECT_EQ(c.layout_tv.tile, (std::vector<i64>{64, 16}));  // size(Tiler_MN) per mode
  EXPECT_EQ(c.layout_tv.threads, 128);
  EXPECT_EQ(c.layout_tv.values, 8);                         // NumValSrc of STSM x4 on half_t
  EXPECT_EQ(image(c.tiler[0]), image(cute_tiler_m));
  EXPECT_EQ(image(c.tiler[1]), image(cute_tiler_n));
  for (i64 t = 0; t < 128; ++t)
    for (i64 v = 0; v < 8; ++v) {
      const i64 x = evaluate(cute_tv, IntTuple::tuple({IntTuple(t), IntTuple(v)}));
      const i64 m = evaluate(cute_tiler_m, x % 64), n = evaluate(cute_tiler_n, x / 64);
      const auto [our_m, our_n] = tile_coord(c, c.layout_tv(t, v));
      ASSERT_EQ(our_m, m) << "thread " << t << " value " << v;
      ASSERT_EQ(our_n, n) << "thread " << t << " value " << v;
    }
  expect_post(mma, c);
}

TEST(CopyCAtom, Sm80TwoValuesSpanAHalfTile) {
  // 2x2 warps of 16x8x16: the first two C values of a thread are (t/4 + 16 wm, 2 (t%4) + {0,1} + 8 wn):
  // rows {0..7, 16..23}, columns 0..15.
  const TiledMma mma = parse_tiled_mma("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})");
  const TiledCopy c = make_tiled_copy_C_atom(atom("UniversalCopy<uint32_t>", "half_t"), mma);
  std::set<i64> rows;
  for (i64 m = 0; m < 8; ++m) rows.insert({m, m + 16});
  EXPECT_EQ(image(c.tiler.at(0)), rows);
  EXPECT_EQ(image(c.tiler.at(1)), image(parse_layout("16:1")));
  EXPECT_EQ(c.layout_tv.values, 2);
  expect_post(mma, c);
}

TEST(CopyCAtom, PostHoldsAcrossMmas) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})", "SM90_U32x4_STSM_N"},
      {"make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32, Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>, _16>{})",
       "UniversalCopy<uint32_t>"},
      {"make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{})", "SM90_U32x2_STSM_N"},
      {"make_tiled_mma(SM90_64x256x16_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>{})", "SM90_U16x8_STSM_T"},
      {"make_tiled_mma(SM80_8x8x4_F64F64F64F64_TN{}, Layout<Shape<_2,_2,_1>>{}, "
       "Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>{})",
       "UniversalCopy<uint128_t>"},
  };
  for (const auto& [mma_text, op] : cases) {
    SCOPED_TRACE(mma_text + " with " + op);
    const TiledMma mma = parse_tiled_mma(mma_text);
    const std::string type = op.find("uint128") != std::string::npos ? "double" : "half_t";
    expect_post(mma, make_tiled_copy_C_atom(atom(op, type), mma));
  }
}

TEST(CopyCAtom, RefusesMoreValuesThanTheAccumulatorHolds) {
  // UniversalFMA holds one C value per thread; UniversalCopy<uint64_t> of float moves two.
  const TiledMma mma = parse_tiled_mma("make_tiled_mma(UniversalFMA<float>{}, Layout<Shape<_16,_16,_1>>{})");
  try {
    (void)make_tiled_copy_C_atom(atom("UniversalCopy<uint64_t>", "float"), mma);
    FAIL() << "expected a LayoutError";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("copy_V <= size<1>(layoutC_TV)"), std::string::npos) << e.what();
  }
}

TEST(CopyCAtom, EpilogueStoreCoversTheSubtileOnce) {
  // tiled_r2s = make_tiled_copy_S(STSM, make_tiled_copy_C_atom(STSM, GMMA)) on a (64,32) epilogue
  // tile: every element is written by exactly one (thread, value) of one instruction.
  const TiledMma mma = parse_tiled_mma("make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})");
  const CopyAtom stsm = atom("SM90_U32x4_STSM_N", "half_t");
  const TiledCopy r2s = make_tiled_copy_S(stsm, make_tiled_copy_C_atom(stsm, mma));
  const AddressTrace tr = trace_copy(r2s, AnyLayout(parse_layout("(64,32):(32,1)")), CopySide::D);
  std::vector<int> written(64 * 32, 0);
  for (const TraceInstruction& ins : tr.instructions)
    for (i64 e : ins.slice_elems)
      if (e >= 0) ++written.at(static_cast<std::size_t>(e));
  for (std::size_t i = 0; i < written.size(); ++i) ASSERT_EQ(written[i], 1) << "element " << i;
  EXPECT_EQ(tr.instructions.size(), 2u * 4u);  // (64,32) / tile (64,16) = 2 rest tiles, 4 warps
}

}  // namespace
}  // namespace layoutproof
