// Tests for model/algebra/tiling.hpp: divides and products against their definitions (brute force), the
// zipped/tiled regroupings, and exact CuTe C++ results verified by hand.
#include "model/algebra/tiling.hpp"

#include <gtest/gtest.h>

#include "tests/model/reference.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

using namespace layoutproof::testing;



const std::vector<std::string>& layouts() {
  static const std::vector<std::string> s = {"24:1", "(4,2,3):(2,1,8)", "(8,4):(4,1)", "(4,(2,2)):(2,(1,8))",
                                            "((2,3),4):((1,2),6)", "(16,2):(2,1)", "(8,(2,2)):(1,(16,8))",
                                            "(12,2):(0,1)", "(((2,2),2),4):(((1,4),2),16)", "(1,8):(0,1)"};
  return s;
}
const std::vector<std::string>& tiles() {
  static const std::vector<std::string> s = {"4:1", "2:1", "4:2", "(2,2):(1,4)", "2:4", "8:1", "(2,2):(2,1)", "1:0"};
  return s;
}

// logical_divide(L, T)(i) == L(T*(i)) with T* = make_layout(T, complement(T, shape(coalesce(L)))).
// CuTe 4.x layout.hpp uses shape(coalesce(layout)) as the cotarget (older docs and the seeds write size(layout));
// the two agree whenever ceil_div folds the same way, and disagree e.g. for ((2,3),4):((1,2),6) / 4:1 if the
// uncoalesced shape is used: ceil_div(((2,3),4), 4) = ((1,2),4) has size 8, not 6.
TEST(LogicalDivide, DefinitionBruteForce) {
  int returned = 0;
  for (const auto& lt : layouts())
    for (const auto& tt : tiles()) {
      SCOPED_TRACE("logical_divide " + lt + " " + tt);
      const Layout l = L(lt), t = L(tt);
      Layout r;
      try {
        r = logical_divide(l, Tiler::of(t));
      } catch (const OverflowError&) {
        ADD_FAILURE() << "overflow";
        continue;
      } catch (const LayoutError&) {
        continue;
      }
      ++returned;
      const Layout ext = Layout::concat({t, complement(t, coalesce(l).shape)});
      ASSERT_EQ(size(r), size(ext)) << to_string(r);
      EXPECT_GE(size(r), size(l));
      ASSERT_EQ(r.rank(), 2u) << to_string(r);
      EXPECT_EQ(size(r.mode(0)), size(t)) << "mode 0 is the tile";
      for (i64 i = 0; i < size(r); ++i) EXPECT_EQ(ref_eval(r, i), ref_eval(l, ref_eval(ext, i))) << i;
      // zipped_divide of a layout tiler is the same layout (already (tile, rest)); tiled likewise unpacks rest.
      const Layout z = zipped_divide(l, Tiler::of(t));
      EXPECT_EQ(ref_offsets(z), ref_offsets(r));
      EXPECT_EQ(z.mode(0), r.mode(0));
      const Layout td = tiled_divide(l, Tiler::of(t));
      EXPECT_EQ(ref_offsets(td), ref_offsets(r));
      EXPECT_EQ(td.mode(0), r.mode(0));
    }
  EXPECT_GT(returned, 50);
}

// By-mode: mode i of the result is logical_divide(mode i, T_i); extra modes kept; zipped/tiled regroup.
TEST(LogicalDivide, ByModeAndRegroupings) {
  const char* cases[][2] = {{"(8,16,4):(1,8,128)", "[2,4]"}, {"(8,16):(16,1)", "[2:1,4:2]"},
                            {"((2,4),8):((8,1),16)", "[4,(2,2):(1,4)]"}, {"(8,16):(1,8)", "[2:1]"},
                            {"(128,32):(32,1)", "[8,4]"}};
  for (auto& c : cases) {
    SCOPED_TRACE(std::string("divide ") + c[0] + " " + c[1]);
    const Layout l = L(c[0]);
    const Tiler t = TL(c[1]);
    const Layout r = logical_divide(l, t);
    const std::size_t k = t.modes.size();
    ASSERT_EQ(r.rank(), l.rank());
    std::vector<Layout> tile_modes, rest_modes, tiled_modes;
    for (std::size_t i = 0; i < l.rank(); ++i) {
      if (i < k) {
        const Layout m = logical_divide(l.mode(i), t.modes[i]);
        EXPECT_EQ(r.mode(i), m) << "mode " << i;
        tile_modes.push_back(m.mode(0));
        rest_modes.push_back(m.mode(1));
      } else {
        EXPECT_EQ(r.mode(i), l.mode(i)) << "extra mode " << i << " kept";
        rest_modes.push_back(l.mode(i));
      }
    }
    const Layout tile = Layout::concat(tile_modes);
    tiled_modes.push_back(tile);
    for (auto& m : rest_modes) tiled_modes.push_back(m);
    EXPECT_EQ(zipped_divide(l, t), Layout::concat({tile, Layout::concat(rest_modes)}));
    EXPECT_EQ(tiled_divide(l, t), Layout::concat(tiled_modes));
  }
}

TEST(LogicalDivide, ExactResults) {
  EXPECT_EQ(logical_divide(L("(4,2,3):(2,1,8)"), Tiler::of(L("4:2"))), L("((2,2),(2,3)):((4,1),(2,8))"));
  // seed cute-concepts-zh: 128:32 divided by 8 and by 4.
  EXPECT_EQ(logical_divide(L("128:32"), Tiler::of(L("8:1"))), L("(8,16):(32,256)"));
  EXPECT_EQ(logical_divide(L("128:32"), Tiler::of_int(4)), L("(4,32):(32,128)"));
  // seed: zipped/tiled_divide((128,32):(32,1), (8,4)).
  EXPECT_EQ(zipped_divide(L("(128,32):(32,1)"), TL("(8,4)")), L("((8,4),(16,8)):((32,1),(256,4))"));
  EXPECT_EQ(tiled_divide(L("(128,32):(32,1)"), TL("(8,4)")), L("((8,4),16,8):((32,1),256,4)"));
  // CuTe C++: the tile of a rank-1 tiler stays a 1-tuple (facts file).
  EXPECT_EQ(tiled_divide(L("(8,16):(1,8)"), TL("[2:1]")), L("((2),4,16):((1),2,8)"));
  EXPECT_EQ(logical_divide(L("(8,64):(64,1)"), TL("[_,8:1]")), L("(8,(8,8)):(64,(1,8))"));
}

// logical_product(A, B) = (A, complement(A, size(A)*cosize(B)) o B).
TEST(LogicalProduct, DefinitionBruteForce) {
  const std::vector<std::string> as = {"(2,2):(4,1)", "(2,2):(1,2)", "4:1", "(2,5):(5,1)", "(2,(2,2)):(1,(4,2))",
                                       "3:2", "(2,3):(3,1)"};
  int returned = 0;
  const std::vector<std::string> bs = {"6:1", "(3,4):(1,3)", "2:1", "(2,2):(2,1)", "4:2", "(2,(2,2)):(1,(2,4))"};
  for (const auto& at : as)
    for (const auto& bt : bs) {
      SCOPED_TRACE("logical_product " + at + " " + bt);
      const Layout a = L(at), b = L(bt);
      Layout r;
      try {
        r = logical_product(a, Tiler::of(b));
      } catch (const OverflowError&) {
        ADD_FAILURE() << "overflow";
        continue;
      } catch (const LayoutError&) {
        continue;  // the composition inside is not divisible: refused, as CuTe would be wrong there
      }
      ++returned;
      ASSERT_EQ(r.rank(), 2u);
      EXPECT_EQ(r.mode(0), a) << "mode 0 is A";
      EXPECT_EQ(size(r), size(a) * size(b));
      const Layout c = complement(a, T(size(a) * cosize(b)));
      for (i64 j = 0; j < size(b); ++j) EXPECT_EQ(ref_eval(r.mode(1), j), ref_eval(c, ref_eval(b, j))) << j;
      // A injective with divisible strides and B injective: the product is injective.
      const auto o = ref_offsets(r);
      const auto ob = ref_offsets(b), oa = ref_offsets(a);
      if (std::set<i64>(ob.begin(), ob.end()).size() == ob.size() &&
          std::set<i64>(oa.begin(), oa.end()).size() == oa.size())
        EXPECT_EQ(std::set<i64>(o.begin(), o.end()).size(), o.size()) << to_string(r);
      // blocked/raked: permutations of the logical product's image (same multiset of offsets).
      if (b.rank() >= 1) {
        auto sorted = o;
        std::sort(sorted.begin(), sorted.end());
        auto ob2 = ref_offsets(blocked_product(a, b));
        std::vector<i64> or2 = sorted;
        // raked zips (B_i, A_i); CuTe's zip fails to compile when B's rest mode is a tuple and A's mode is an
        // integer (e.g. raked_product(3:2, 6:1)), so a refusal is accepted there.
        try {
          or2 = ref_offsets(raked_product(a, b));
        } catch (const OverflowError&) {
          ADD_FAILURE() << "overflow";
        } catch (const LayoutError&) {
        }
        std::sort(ob2.begin(), ob2.end());
        std::sort(or2.begin(), or2.end());
        EXPECT_EQ(ob2, sorted) << "blocked";
        EXPECT_EQ(or2, sorted) << "raked";
      }
    }
  EXPECT_GT(returned, 25);
}

// CuTe 4.x: logical_divide(L, T) = composition(L, make_layout(T, complement(T, shape(coalesce(L))))).
// ((2,3),4):((1,2),6) coalesces to 24:1, complement(4:1, 24) = 6:4, so the result is (4,6):(1,4), size 24.
TEST(LogicalDivide, CotargetIsShapeOfCoalescedLayout) {
  EXPECT_EQ(logical_divide(L("((2,3),4):((1,2),6)"), Tiler::of(L("4:1"))), L("(4,6):(1,4)"));
  EXPECT_EQ(size(logical_divide(L("((2,3),4):((1,2),6)"), Tiler::of_int(4))), 24);
}

TEST(LogicalProduct, ExactResults) {
  EXPECT_EQ(logical_product(L("(2,2):(4,1)"), Tiler::of(L("6:1"))), L("((2,2),(2,3)):((4,1),(2,8))"));
  EXPECT_EQ(logical_product(L("(2,5):(5,1)"), Tiler::of(L("(3,4):(1,3)"))), L("((2,5),(3,4)):((5,1),(10,30))"));
  // seed: zipped/tiled_product((128,32):(32,1), (8,4)).
  EXPECT_EQ(zipped_product(L("(128,32):(32,1)"), TL("(8,4)")), L("((128,32),(8,4)):((32,1),(1,32))"));
  EXPECT_EQ(tiled_product(L("(128,32):(32,1)"), TL("(8,4)")), L("((128,32),8,4):((32,1),1,32)"));
}

TEST(BlockedRakedProduct, ExactResults) {
  // logical = ((2,2),(3,4)):((1,2),(4,12)); blocked zips (A_i,B_i); CuTe 4.x does not coalesce.
  EXPECT_EQ(blocked_product(L("(2,2):(1,2)"), L("(3,4):(1,3)")), L("((2,3),(2,4)):((1,4),(2,12))"));
  EXPECT_EQ(raked_product(L("(2,2):(1,2)"), L("(3,4):(1,3)")), L("((3,2),(4,2)):((4,1),(12,2))"));
  // The seed (cute-concepts-zh) example; CuTe 4.x zips without coalescing, so (2,3):(5,10) stays.
  EXPECT_EQ(blocked_product(L("(2,5):(5,1)"), L("(3,4):(1,3)")), L("((2,3),(5,4)):((5,10),(1,30))"));
  EXPECT_EQ(raked_product(L("(2,5):(5,1)"), L("(3,4):(1,3)")), L("((3,2),(4,5)):((10,5),(30,1))"));
  // Rank 1: the single pair, not coalesced.
  EXPECT_EQ(blocked_product(L("8:1"), L("4:1")), L("((8,4)):((1,8))"));
  // A rank-1 tuple zipped with an integer: CuTe's zip takes tuple_size of both, a compile error
  // (checked with CUTLASS's headers; tests/algebra_corpus/cute_corpus_wide.txt has such cases).
  EXPECT_THROW(blocked_product(L("(3):(1)"), L("8:1")), LayoutError);
}

// blocked: element (a_i, b_i) of mode i is A's a_i inside block b_i; raked: interleaved.
TEST(BlockedRakedProduct, CoordinateSemantics) {
  const Layout a = L("(2,2):(1,2)"), b = L("(3,4):(1,3)");
  const Layout lp = logical_product(a, Tiler::of(b));
  const Layout bl = blocked_product(a, b), rk = raked_product(a, b);
  for (i64 a0 = 0; a0 < 2; ++a0)
    for (i64 a1 = 0; a1 < 2; ++a1)
      for (i64 b0 = 0; b0 < 3; ++b0)
        for (i64 b1 = 0; b1 < 4; ++b1) {
          const i64 expect = ref_eval(lp, a0 + 2 * a1 + 4 * (b0 + 3 * b1));
          // blocked mode 0 = (A0,B0) -> row index a0 + 2*b0; mode 1 = (A1,B1) -> a1 + 2*b1.
          EXPECT_EQ(evaluate(bl, T::tuple({a0 + 2 * b0, a1 + 2 * b1})), expect);
          // raked mode 0 = (B0,A0) -> b0 + 3*a0; mode 1 = (B1,A1) -> b1 + 4*a1.
          EXPECT_EQ(evaluate(rk, T::tuple({b0 + 3 * a0, b1 + 4 * a1})), expect);
        }
}

TEST(BlockedRakedProduct, RanksDiffer) {
  // rank max(rank A, rank B): A is padded with 1:0 modes.
  const Layout a = L("(2,2):(1,2)"), b = L("3:1");
  const Layout bl = blocked_product(a, b);
  EXPECT_EQ(bl.rank(), 2u);
  EXPECT_EQ(size(bl), 12);
  auto o = ref_offsets(bl);
  std::sort(o.begin(), o.end());
  for (i64 i = 0; i < 12; ++i) EXPECT_EQ(o[i], i);
}

// The message of the LayoutError f throws ("" when it returns).
template <class F>
std::string refusal(F&& f) {
  try {
    (void)f();
  } catch (const LayoutError& e) {
    return e.what();
  }
  return "";
}

// A product needs complement(A, size(A)*cosize(B)). When A's offsets have holes that no ordered
// complement can fill, CuTe's complement breaks (1) and CuTe prints a "product" all the same
// (((_4,_6)):((_1,_6)) x _3:_1 = (((_4,_6)),(_3)):(((_1,_6)),(_36)), its unit test): refused, naming the
// operation, the complement step and the condition.
TEST(LogicalProduct, RefusedWhereTheComplementDoesNotExist) {
  const auto x = [](const char* t) { return parse_layout(t, Reading::exact); };
  const std::string covers = "breaks (1) \"cosize(make_layout(L, R)) >= size(cotarget)\"";
  const std::string m = refusal([&] { return logical_product(x("((_4,_6)):((_1,_6))"), Tiler::of(x("_3:_1"))); });
  EXPECT_NE(m.find("logical_product ((_4,_6)):((_1,_6)) x _3:_1 needs complement of ((_4,_6)):((_1,_6)) for cotarget _72"),
            std::string::npos) << m;
  EXPECT_NE(m.find("CuTe's result _2:_36 " + covers), std::string::npos) << m;
  EXPECT_NE(m.find("70 < 72"), std::string::npos) << m;
  // The same through every product that builds on it (A = (2,_1,_6):(_8,_6,_1): offsets 0..5 and 8..13).
  const Layout holes = x("(2,_1,_6):(_8,_6,_1)"), b = x("(_8,_2):(_1,_8)");
  EXPECT_NE(refusal([&] { return flat_product(holes, Tiler::of(b)); }).find(covers), std::string::npos);
  EXPECT_NE(refusal([&] { return zipped_product(holes, Tiler::of(b)); }).find(covers), std::string::npos);
  EXPECT_NE(refusal([&] { return blocked_product(x("((_4,_6)):((_1,_6))"), x("_3:_1")); }).find(covers), std::string::npos);
  // Holes an ordered complement fills are fine: (2,2):(1,4) has offsets 0,1,4,5; its complement (2,2):(2,8)
  // fills 2,3 (CuTe's result).
  EXPECT_EQ(to_cute_string(logical_product(x("(_2,_2):(_1,_4)"), Tiler::of(x("_2:_1")))), "((_2,_2),_2):((_1,_4),_2)");
}

// logical_divide needs complement(T, shape(coalesce(L))): where CuTe's breaks (1), (T, T*) does not cover L
// and the "divide" loses elements. (_3,8,_8):(_64,_1,_8) / 4:_1: T* = 32:4 covers 128 of L's 192.
TEST(LogicalDivide, RefusedWhereTheComplementDoesNotCover) {
  const auto x = [](const char* t) { return parse_layout(t, Reading::exact); };
  const std::string m = refusal([&] { return logical_divide(x("(3,8,_8):(_64,_1,_8)"), parse_tiler("4:_1", Reading::exact)); });
  EXPECT_NE(m.find("logical_divide (3,8,_8):(_64,_1,_8) / 4:_1 needs complement of 4:_1 for cotarget (3,8,_8): CuTe's result 32:4 "
                   "breaks (1) \"cosize(make_layout(L, R)) >= size(cotarget)\" (it covers the cotarget): 128 < 192"),
            std::string::npos) << m;
  EXPECT_NE(refusal([&] { return zipped_divide(x("(_8,_5):(_5,1)"), parse_tiler("10", Reading::exact)); }).find("needs complement of 10:_1"),
            std::string::npos);
  // CUTLASS's "allowed, but dangerous" dynamic case divides fine, and keeps its run-time size-1 modes.
  EXPECT_EQ(to_cute_string(logical_divide(x("(128,4,3):(1,512,0)"), parse_tiler("_32:_1", Reading::exact))),
            "((32,1,1),(4,4,3)):((1,512,0),(32,512,0))");
  EXPECT_EQ(to_cute_string(logical_divide(x("(16,4,3):(1,512,0)"), parse_tiler("_32:_1", Reading::exact))),
            "((16,2,1),(1,2,3)):((1,512,0),(32,1024,0))");
}

TEST(Tiling, OverflowIsReported) {
  EXPECT_THROW(logical_product(L("(1099511627776):(1)"), Tiler::of(L("1099511627776:1"))), OverflowError);
}

}  // namespace
}  // namespace layoutproof

namespace layoutproof {
namespace {

// flat_divide / flat_product unpack both modes of the zipped result (CuTe's own results).
TEST(Tiling, FlatDivideAndProduct) {
  const auto x = [](const char* t) { return parse_layout(t, Reading::exact); };
  EXPECT_EQ(to_cute_string(flat_divide(x("(_8,_8):(_1,_8)"), parse_tiler("(_2,_4)"))), "(_2,_4,_4,_2):(_1,_8,_2,_32)");
  EXPECT_EQ(to_cute_string(flat_product(x("(_2,_2):(_1,_2)"), parse_tiler("(_3,_4)"))), "(_2,_2,_3,(_2,_2)):(_1,_2,_2,(_1,_4))");
  // Static vs dynamic divides (CuTe's logical_divide test, "Enforcement for dynamic cases").
  EXPECT_EQ(to_cute_string(logical_divide(x("2:_1"), parse_tiler("_32"))), "(_32,1):(_1,_32)");
  EXPECT_EQ(to_cute_string(logical_divide(x("48:_1"), parse_tiler("_32"))), "(_32,2):(_1,_32)");
  EXPECT_EQ(to_cute_string(logical_divide(x("(_32,_4,4):(_1,_32,_128)"), parse_tiler("_64"))), "(_64,(_2,4)):(_1,(_64,_128))");
}

}  // namespace
}  // namespace layoutproof
