// The smem layout selectors of CUTLASS's collective builders, as the builders call them, and
// UMMA::tile_to_mma_shape (each follows the CUTLASS function named in its comment, branch by branch):
//   detail::ss_smem_selector<GMMA::Major::K, half_t, _128, _64>()          (sm90_common.inl)
//   detail::rs_smem_selector<Major, T, BLK_MN, BLK_K[, is_ws_transposed_B]>() (sm90_common.inl)
//   detail::sm100_smem_selector<UMMA::Major::MN, float, _128, _32>()       (sm100_common.inl)
//   detail::sm90_get_epilogue_smem_swizzle_layout_atom<Stride, T, EpiTile>()  (epilogue sm90_builder.inl)
//   detail::sm100_get_epilogue_smem_swizzle_layout_atom<Stride, T, EpiTile>() (epilogue sm100_builder.inl)
//   UMMA::tile_to_mma_shape(atom, mma_tile_shape[, order])                  (mma_traits_sm100.hpp)
#include <string>
#include <vector>

#include "model/algebra/algebra.hpp"
#include "model/source/cpp_builtins.hpp"
#include "model/layout/notation.hpp"
#include "model/algebra/tiling.hpp"

namespace layoutproof::cpp_detail {
namespace {

// The arguments every selector shares.
struct Selection {
  std::string family;  // "GMMA" or "UMMA": the atoms' namespace, for messages
  bool mn = false;     // Major::MN (else Major::K)
  int bits = 16;       // the element's bits
  i64 blk_mn0 = 0, blk_k0 = 0, blk_mn_size = 0;
};

bool is_mn_major_tag(CppEvaluator& ev, const CppExpr& t) {
  const CppValue v = ev.eval(t);
  const auto ends = [&](const char* tail) {
    const std::string s = tail;
    return v.type_name.size() >= s.size() && v.type_name.compare(v.type_name.size() - s.size(), s.size(), s) == 0;
  };
  if (v.kind == CppValue::Kind::type && ends("Major::MN")) return true;
  if (v.kind == CppValue::Kind::type && ends("Major::K")) return false;
  ev.fail_expected(t, "GMMA::Major::K or GMMA::Major::MN (UMMA::Major::...)", v);
}

// size<0>(X{}) of a BLK_MN / BLK_K template argument (an Int<N> or a hierarchical shape).
i64 size0(CppEvaluator& ev, const CppExpr& t) {
  const IntTuple x = ev.eval_tuple(t);
  return product(x.is_leaf() ? x : x[0]);
}

Selection selection(CppEvaluator& ev, const CppExpr& e, const std::string& family, std::size_t major_i, std::size_t elem_i,
                    std::size_t mn_i, std::size_t k_i) {
  Selection s;
  s.family = family;
  s.mn = is_mn_major_tag(ev, e.targs[major_i]);
  s.bits = element_bits_arg(ev, e.targs[elem_i]);
  s.blk_mn0 = size0(ev, e.targs[mn_i]);
  s.blk_k0 = size0(ev, e.targs[k_i]);
  s.blk_mn_size = product(ev.eval_tuple(e.targs[mn_i]));
  if (s.blk_mn0 % 8 != 0) ev.fail(e.targs[mn_i], "static_assert failed: BLK_MN0 must be a multiple of 8. (BLK_MN0 = " + std::to_string(s.blk_mn0) + ")");
  if (s.blk_k0 % 8 != 0) ev.fail(e.targs[k_i], "static_assert failed: BLK_K0 must be a multiple of 8. (BLK_K0 = " + std::to_string(s.blk_k0) + ")");
  return s;
}

i64 sizeof_bytes(const Selection& s) { return std::max(1, s.bits / 8); }

// The first of `kinds` (SW128, SW64, SW32, INTER, SW128_32B) whose atom's size<0> (MN-major) or
// size<1> (K-major) divides the block; INTER with `inter_by_size` divides size(BLK_MN) instead.
CppValue first_fit(CppEvaluator& ev, const CppExpr& e, const Selection& s, const std::vector<std::string>& kinds,
                   bool inter_by_size = false) {
  const std::string dir = s.mn ? "MN" : "K";
  std::string last;
  for (const std::string& k : kinds) {
    last = s.family + "::Layout_" + dir + "_" + k + "_Atom";
    const AnyLayout atom = gmma_atom_layout(ev, e, last, s.bits);
    const i64 atom_size = product(atom.layout.shape[s.mn ? 0 : 1]);
    const i64 blk = !s.mn ? s.blk_k0 : (k == "INTER" && inter_by_size) ? s.blk_mn_size : s.blk_mn0;
    if (blk % atom_size == 0) return CppValue::of_layout(atom);
  }
  ev.fail(e, std::string("static_assert failed: ") + (s.mn ? "BLK_MN0" : "BLK_K0") + " must be a multiple of size<" + (s.mn ? "0" : "1") +
                 ">(" + last + "<ElementType>{}) (BLK_MN0 = " + std::to_string(s.blk_mn0) + ", BLK_K0 = " + std::to_string(s.blk_k0) + ")");
}

// ss_smem_selector<major, ElementType, BLK_MN, BLK_K>() (sm90_common.inl).
CppValue ss_smem_selector(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 4, 4);
  call_args(ev, e, 0, 0);
  const Selection s = selection(ev, e, "GMMA", 0, 1, 2, 3);
  if (s.mn) return first_fit(ev, e, s, {"SW128", "SW64", "SW32", "INTER"}, true);
  return first_fit(ev, e, s, {"SW128", "SW64", "SW32", "INTER"});
}

// rs_smem_selector<major, ElementType, BLK_MN, BLK_K, is_ws_transposed_B = false>() (sm90_common.inl).
CppValue rs_smem_selector(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 4, 5);
  call_args(ev, e, 0, 0);
  const Selection s = selection(ev, e, "GMMA", 0, 1, 2, 3);
  const bool transposed_b = e.targs.size() == 5 && ev.eval_bool(e.targs[4]);
  if (!s.mn) return first_fit(ev, e, s, {"SW128", "SW64", "SW32", "INTER"});
  const i64 bytes = sizeof_bytes(s);
  if (bytes % 4 == 0) return transposed_b ? first_fit(ev, e, s, {"SW32"}) : first_fit(ev, e, s, {"SW32", "INTER"});
  if (bytes == 1 || bytes == 2) {
    if (bytes == 1 && transposed_b) return first_fit(ev, e, s, {"SW128"});
    return first_fit(ev, e, s, {"SW128", "SW64", "SW32", "INTER"});
  }
  ev.fail(e.targs[1], "static_assert failed: Smem selector does not support this element type");
}

// sm100_smem_selector<major, ElementType, BLK_MN, BLK_K>() (sm100_common.inl): MN-major 32-bit
// elements take SW128_32B only.
CppValue sm100_smem_selector_of(CppEvaluator& ev, const CppExpr& e, const Selection& s) {
  if (s.mn && sizeof_bytes(s) == 4) return first_fit(ev, e, s, {"SW128_32B"});
  return first_fit(ev, e, s, {"SW128", "SW64", "SW32", "INTER"});
}
CppValue sm100_smem_selector(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 4, 4);
  call_args(ev, e, 0, 0);
  return sm100_smem_selector_of(ev, e, selection(ev, e, "UMMA", 0, 1, 2, 3));
}

// is_major<0>(GmemStrideType{}) -> MN, is_major<1> -> K (the epilogue selectors).
bool epilogue_mn_major(CppEvaluator& ev, const CppExpr& e, const CppExpr& stride) {
  const auto major = [&](int mode) {
    CppExpr call;
    call.kind = CppExpr::Kind::call;
    call.name = "is_major";
    call.pos = e.pos;
    call.has_targs = true;
    call.targs.emplace_back();
    call.targs.back().value = mode;
    call.targs.back().pos = e.pos;
    call.args.push_back(stride);
    return ev.eval_bool(call);
  };
  if (major(0)) return true;
  if (major(1)) return false;
  ev.fail(stride, "static_assert failed: Unsupported gmem layout (the stride is neither M- nor N-major)");
}

// A Selection for the epilogue tile's modes `mn` and `k`.
Selection epilogue_selection(CppEvaluator& ev, const CppExpr& e, const std::string& family, bool mn_major, i64 m0, i64 m1) {
  Selection s;
  s.family = family;
  s.mn = mn_major;
  s.bits = element_bits_arg(ev, e.targs[1]);
  s.blk_mn0 = s.blk_mn_size = m0;
  s.blk_k0 = m1;
  if (m0 % 8 != 0 || m1 % 8 != 0)
    ev.fail(e.targs[2], "static_assert failed: BLK_MN0 and BLK_K0 must be multiples of 8 (the epilogue tile is " +
                            std::to_string(m0) + "x" + std::to_string(m1) + ")");
  return s;
}

// sm90_get_epilogue_smem_swizzle_layout_atom<GmemStrideType, Element, EpilogueTile_MN>():
// ss_smem_selector<MN or K, Element, get<0>(tile), get<1>(tile)>.
CppValue sm90_epilogue_atom(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 3, 3);
  call_args(ev, e, 0, 0);
  const bool mn = epilogue_mn_major(ev, e, e.targs[0]);
  const IntTuple tile = ev.eval_tuple(e.targs[2]);
  if (tile.rank() < 2) ev.fail(e.targs[2], "the epilogue tile needs two modes (M, N), not " + to_string(tile));
  const Selection s = epilogue_selection(ev, e, "GMMA", mn, product(tile[0]), product(tile[1]));
  return first_fit(ev, e, s, {"SW128", "SW64", "SW32", "INTER"}, s.mn);
}

// sm100_get_epilogue_smem_swizzle_layout_atom<GmemStrideType, Element, EpilogueTile_MN>(): each tile
// mode's "max contiguous tile usable by TMA", size<0>(coalesce(right_inverse(make_layout(get<0>(m))))),
// then sm100_smem_selector.
i64 tma_extent(CppEvaluator& ev, const CppExpr& at, const CppValue& mode) {
  if (mode.kind == CppValue::Kind::integer) return mode.integer;
  if (mode.kind == CppValue::Kind::tuple) return product(mode.tuple[0]);
  if (mode.kind == CppValue::Kind::layout && !mode.layout.is_swizzled()) {
    const Layout m0 = mode.layout.layout.shape.is_leaf() ? mode.layout.layout : mode.layout.layout.mode(0);
    const Layout c = coalesce(right_inverse(m0));
    return product(c.shape.is_leaf() ? c.shape : c.shape[0]);
  }
  ev.fail_expected(at, "an epilogue tile (Shape<_128,_64> or a Tile of layouts)", mode);
}
CppValue sm100_epilogue_atom(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 3, 3);
  call_args(ev, e, 0, 0);
  const bool mn = epilogue_mn_major(ev, e, e.targs[0]);
  const CppValue tile = ev.eval(e.targs[2]);
  std::vector<CppValue> modes;
  if (tile.kind == CppValue::Kind::tuple && tile.tuple.is_tuple())
    for (const IntTuple& m : tile.tuple.children()) modes.push_back(m.is_leaf() ? CppValue::of_int(m.value()) : CppValue::of_tuple(m));
  else if (tile.kind == CppValue::Kind::object && std::any_cast<Tiler>(&tile.object))
    for (const Tiler& t : std::any_cast<Tiler>(tile.object).modes)
      modes.push_back(t.kind == Tiler::Kind::layout ? CppValue::of_layout(t.layout) : CppValue::of_int(t.integer));
  if (modes.size() < 2) ev.fail_expected(e.targs[2], "an epilogue tile with two modes", tile);
  const Selection s = epilogue_selection(ev, e, "UMMA", mn, tma_extent(ev, e.targs[2], modes[0]), tma_extent(ev, e.targs[2], modes[1]));
  return sm100_smem_selector_of(ev, e, s);
}

// UMMA::tile_to_mma_shape(atom, mma_tile_shape[, order = GenColMajor]):
//   mn_shape = (zip(shape<0>(mma_tile_shape), take<1,3>(mma_tile_shape))..., take<3,R>(mma_tile_shape)...)
//   tiled_divide(tile_to_shape(atom, mn_shape, order), product_each(shape<0>(mma_tile_shape)))
CppValue tile_to_mma_shape(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 2, 3);
  const AnyLayout atom = layout_arg(ev, args[0]);
  const IntTuple mma = ev.eval_tuple(args[1]);
  if (mma.is_leaf() || mma.rank() < 3 || mma[0].is_leaf() || mma[0].rank() != 2)
    ev.fail(args[1], "tile_to_mma_shape needs ((MMA_M,MMA_K),M_MMAs,K_MMAs,...) (what partition_shape_A gives), not " + to_string(mma));
  std::vector<IntTuple> mn = {IntTuple::tuple({mma[0][0], mma[1]}), IntTuple::tuple({mma[0][1], mma[2]})};
  for (std::size_t i = 3; i < mma.rank(); ++i) mn.push_back(mma[i]);
  const AnyLayout tiled = tile_to_shape(ev, e, atom, IntTuple::tuple(mn), mma.is_static(), args.size() == 3 ? &args[2] : nullptr);
  const Tiler by = Tiler::by_mode({Tiler::of_int(product(mma[0][0])), Tiler::of_int(product(mma[0][1]))});
  return CppValue::of_layout(recompose(tiled, tiled_divide(tiled.layout, by)));
}

}  // namespace

const HandlerTable& selector_builtins() {
  static const HandlerTable t = {
      {"ss_smem_selector", &ss_smem_selector},
      {"rs_smem_selector", &rs_smem_selector},
      {"sm100_smem_selector", &sm100_smem_selector},
      {"sm90_get_epilogue_smem_swizzle_layout_atom", &sm90_epilogue_atom},
      {"sm100_get_epilogue_smem_swizzle_layout_atom", &sm100_epilogue_atom},
      {"UMMA::tile_to_mma_shape", &tile_to_mma_shape},
      {"tile_to_mma_shape", &tile_to_mma_shape},
  };
  return t;
}

}  // namespace layoutproof::cpp_detail
