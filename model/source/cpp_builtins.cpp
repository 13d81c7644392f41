// CuTe's built-in functions of the C++ front end: integers, tuples, layouts, queries and the
// layout algebra, each as CuTe (CUTLASS 4.x) defines it.
#include "model/source/cpp_builtins.hpp"

#include <algorithm>
#include <climits>
#include <utility>

#include "model/algebra/algebra.hpp"
#include "model/source/cpp_parse.hpp"
#include "model/source/cpp_source.hpp"
#include "model/atoms/cute_atoms.hpp"
#include "model/algebra/recast.hpp"
#include "model/algebra/tiling.hpp"

namespace layoutproof::cpp_detail {

// ---------------------------------------------------------------------------------------------
// Shared helpers (cpp_builtins.hpp)
// ---------------------------------------------------------------------------------------------

void value_form(CppEvaluator& ev, const CppExpr& e) {
  if (e.kind == CppExpr::Kind::call && !e.args.empty())
    ev.fail(e.args.front(), "'" + e.name + "' takes no arguments here (write " + e.name + (e.has_targs ? "<...>" : "") + "{})");
}

void no_targs(CppEvaluator& ev, const CppExpr& e) {
  if (e.has_targs) ev.fail(e, "'" + e.name + "' takes no template arguments");
}

const std::vector<CppExpr>& call_args(CppEvaluator& ev, const CppExpr& e, std::size_t lo, std::size_t hi) {
  if (e.kind != CppExpr::Kind::call || e.brace)
    ev.fail(e, "'" + e.name + "' is a function: call it as " + e.name + "(...)");
  if (e.args.size() < lo || e.args.size() > hi) {
    const std::string want = lo == hi ? std::to_string(lo) : hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                                                            : std::to_string(lo) + " to " + std::to_string(hi);
    ev.fail(e, "wrong number of arguments: " + e.name + " takes " + want + " argument" + (hi == 1 ? "" : "s") + ", not " +
                   std::to_string(e.args.size()));
  }
  return e.args;
}

void targ_count(CppEvaluator& ev, const CppExpr& e, std::size_t lo, std::size_t hi) {
  if (!e.has_targs || e.targs.size() < lo || e.targs.size() > hi) {
    const std::string want = lo == hi ? std::to_string(lo) : hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                                                            : std::to_string(lo) + " to " + std::to_string(hi);
    ev.fail(e, "wrong number of template arguments: " + e.name + " takes " + want + " template argument" + (hi == 1 ? "" : "s") +
                   (e.has_targs ? ", not " + std::to_string(e.targs.size()) : ""));
  }
}

std::vector<i64> int_targs(CppEvaluator& ev, const CppExpr& e) {
  std::vector<i64> out;
  for (const CppExpr& t : e.targs) out.push_back(ev.eval_int(t));
  return out;
}

int element_bits_arg(CppEvaluator& ev, const CppExpr& t) {
  const CppValue v = ev.eval(t);
  const std::optional<int> bits = v.kind == CppValue::Kind::type ? type_bits(v.type_name) : std::nullopt;
  if (!bits) ev.fail_expected(t, "an element type (half_t, bfloat16_t, float, int8_t, float_e4m3_t, uint4b_t, ...)", v);
  return *bits;
}

AnyLayout layout_arg(CppEvaluator& ev, const CppExpr& a) {
  const CppValue v = ev.eval(a);
  if (v.kind != CppValue::Kind::layout) ev.fail_expected(a, "a layout", v);
  return v.layout;
}

Layout plain_arg(CppEvaluator& ev, const CppExpr& a, const std::string& op) {
  const AnyLayout l = layout_arg(ev, a);
  if (l.is_swizzled()) ev.fail(a, op + " of a swizzled layout (" + to_string(l) + ") is not supported");
  return l.layout;
}

namespace {

Tiler tiler_of_shape(const IntTuple& t) {
  if (t.is_leaf()) return Tiler::of_int(t.value(), t.is_static());
  std::vector<Tiler> modes;
  for (const IntTuple& c : t.children()) modes.push_back(tiler_of_shape(c));
  return Tiler::by_mode(std::move(modes));
}

}  // namespace

Tiler tiler_of(CppEvaluator& ev, const CppExpr& at, const CppValue& v) {
  switch (v.kind) {
    case CppValue::Kind::integer: return Tiler::of_int(v.integer, v.is_static);
    case CppValue::Kind::tuple: return tiler_of_shape(v.tuple);
    case CppValue::Kind::underscore: return Tiler::underscore();
    case CppValue::Kind::layout:
      if (!v.layout.is_swizzled()) return Tiler::of(v.layout.layout);
      break;
    case CppValue::Kind::object:
      if (const Tiler* t = std::any_cast<Tiler>(&v.object)) return *t;
      break;
    default: break;
  }
  ev.fail_expected(at, "a tiler (a layout, an integer, _ or make_tile(...))", v);
}

CppValue of_int_tuple(IntTuple t) {
  return t.is_leaf() && !t.is_basis() ? CppValue::of_int(t.value(), t.is_static()) : CppValue::of_tuple(std::move(t));
}

IntTuple int_leaf(const CppValue& v) { return IntTuple::integer(v.integer, v.is_static); }

AnyLayout recompose(const AnyLayout& like, Layout inner) {
  if (!like.is_smem_ptr() && like.swizzle && like.swizzle->B == 0 && like.offset == 0) return AnyLayout(std::move(inner));
  return like.with_inner(std::move(inner));
}

namespace {

// compact_order (CuTe stride.hpp): mode k's stride starts at the product of the shapes of the modes
// of smaller order. Run-time (dynamic) order values count as larger than every static one, in
// their left-to-right order.
IntTuple product_like(const IntTuple& shape, const IntTuple& order) {
  if (order.is_leaf()) return IntTuple(product(shape));
  if (shape.is_leaf() || shape.rank() != order.rank())
    throw LayoutError("the order " + to_string(order) + " does not match the shape " + to_string(shape) +
                      " (Need equal rank of shape and order)");
  std::vector<IntTuple> out;
  for (std::size_t i = 0; i < order.rank(); ++i) out.push_back(product_like(shape[i], order[i]));
  return IntTuple::tuple(std::move(out));
}

void mask_leaves(const IntTuple& order, const IntTuple& mask, std::vector<bool>& out) {
  if (order.is_leaf()) {
    out.push_back(mask.is_leaf() ? mask.value() != 0 : true);
    return;
  }
  const bool aligned = mask.is_tuple() && mask.rank() == order.rank();
  for (std::size_t i = 0; i < order.rank(); ++i) mask_leaves(order[i], aligned ? mask[i] : (mask.is_leaf() ? mask : IntTuple(1)), out);
}

IntTuple compact_order_rec(const IntTuple& shape, const IntTuple& order, const std::vector<i64>& ref_shape,
                           const std::vector<i64>& ref_order) {
  if (order.is_tuple()) {
    if (shape.is_leaf() || shape.rank() != order.rank())
      throw LayoutError("the order " + to_string(order) + " does not match the shape " + to_string(shape) +
                        " (Need equal rank of shape and order)");
    std::vector<IntTuple> out;
    for (std::size_t i = 0; i < order.rank(); ++i) out.push_back(compact_order_rec(shape[i], order[i], ref_shape, ref_order));
    return IntTuple::tuple(std::move(out));
  }
  i64 start = 1;
  for (std::size_t j = 0; j < ref_order.size(); ++j)
    if (ref_order[j] < order.value()) start = checked_mul(start, ref_shape[j]);
  return compact_col_major(shape, start);
}

IntTuple compact_order(const IntTuple& shape, const IntTuple& order, const IntTuple& mask) {
  const std::vector<i64> ref_shape = leaves(product_like(shape, order));
  const std::vector<i64> flat = leaves(order);
  std::vector<bool> is_static;
  mask_leaves(order, mask, is_static);
  i64 max_order = 0;
  for (std::size_t k = 0; k < flat.size(); ++k)
    if (is_static[k] && max_order < flat[k]) max_order = flat[k];
  std::vector<i64> ref_order(flat.size());
  for (std::size_t k = 0; k < flat.size(); ++k)
    ref_order[k] = is_static[k] ? flat[k] : checked_add(max_order, static_cast<i64>(k) + 1);
  std::size_t k = 0;
  const IntTuple new_order = transform_leaves(order, [&](i64) { return ref_order[k++]; });
  return compact_order_rec(shape, new_order, ref_shape, ref_order);
}


}  // namespace

IntTuple order_strides(CppEvaluator& ev, const CppExpr& order, const IntTuple& shape) {
  const CppValue o = ev.eval(order);
  if (o.kind == CppValue::Kind::type && o.type_name == "LayoutLeft") return compact_col_major(shape);
  if (o.kind == CppValue::Kind::type && o.type_name == "LayoutRight") return compact_row_major(shape);
  if (o.kind != CppValue::Kind::integer && o.kind != CppValue::Kind::tuple)
    ev.fail_expected(order, "an order (Step<...>{}, make_step(...), LayoutLeft{} or LayoutRight{})", o);
  const IntTuple t = o.kind == CppValue::Kind::integer ? int_leaf(o) : o.tuple;
  // Run-time order values (make_step(2, 67)) rank after the static ones (CuTe's compact_order).
  const IntTuple mask = map_leaves(t, [](const IntTuple& leaf) { return IntTuple(leaf.is_static() ? 1 : 0); });
  return compact_order(shape, t, mask);
}

AnyLayout tile_to_shape(CppEvaluator& ev, const CppExpr& e, const AnyLayout& block, const IntTuple& trg, bool trg_static,
                        const CppExpr* order) {
  const std::size_t r = trg.rank();
  if (block.layout.rank() > r)
    ev.fail(e, "tile_to_shape: the block " + to_string(block.layout) + " has rank " + std::to_string(block.layout.rank()) +
                   ", more than the target shape " + to_string(trg) + " (Rank of layout must be <= rank of target shape)");
  std::vector<IntTuple> product_shape;
  for (std::size_t i = 0; i < r; ++i) {
    const i64 b = i < block.layout.rank() ? product(block.layout.shape[i]) : 1;
    const i64 t = product(trg[i]);
    if (b <= 0) ev.fail(e, "tile_to_shape: block mode " + std::to_string(i) + " has size " + std::to_string(b) + " (must be positive)");
    if (t <= 0) ev.fail(e, "tile_to_shape: target mode " + std::to_string(i) + " has size " + std::to_string(t) + " (must be positive)");
    if (trg_static && t % b != 0)
      ev.fail(e, "tile_to_shape: block shape does not divide the target shape (mode " + std::to_string(i) + ": " +
                     std::to_string(b) + " does not divide " + std::to_string(t) + ")");
    product_shape.emplace_back(ceil_div(t, b));
  }
  const IntTuple ps = IntTuple::tuple(std::move(product_shape));
  const IntTuple strides = order ? order_strides(ev, *order, ps) : compact_col_major(ps);
  return recompose(block, blocked_product(block.layout, Layout(ps, strides)));
}

namespace {

// ---------------------------------------------------------------------------------------------
// Integers, tuples, tags
// ---------------------------------------------------------------------------------------------

// Int<N> (an int in C++: Int<4294967299> does not compile), C<N> (any integral constant).
CppValue int_type(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  targ_count(ev, e, 1, 1);
  const i64 v = ev.eval_int(e.targs[0]);
  if (e.name == "Int" && (v < INT_MIN || v > INT_MAX))
    ev.fail(e.targs[0], "Int<" + std::to_string(v) + ">: CuTe's Int<v> takes an int (32 bits)");
  return CppValue::of_int(v, true);
}
// E<I...> (CuTe's basis stride, a ScaledBasis of _1 at the mode path I...): E<1>{} is _1@1 and
// E<1,0>{} is _1@0@1 (CuTe prints the path innermost first); E<> is _1.
CppValue basis_type(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  std::vector<int> path;
  for (const CppExpr& t : e.targs) {
    const i64 i = ev.eval_int(t);
    if (i < 0 || i > 64) ev.fail(t, "E<...>: a mode index from 0 to 64, not " + std::to_string(i));
    path.push_back(static_cast<int>(i));
  }
  if (path.empty()) return CppValue::of_int(1, true);
  return CppValue::of_tuple(IntTuple::basis(1, true, std::move(path)));
}
CppValue bool_constant(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  no_targs(ev, e);
  return CppValue::of_int(e.name == "true" || e.name == "true_type" ? 1 : 0, true);
}
CppValue tuple_type(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  std::vector<IntTuple> items;
  for (const CppExpr& t : e.targs) {
    const CppValue v = ev.eval(t);
    // Stride<int64_t, _1, int64_t>{}: a run-time int, value-initialized to 0; any other template
    // argument is a compile-time constant (a type), even one written as a literal.
    if (v.kind == CppValue::Kind::type && is_integral_type(v.type_name)) items.push_back(IntTuple::dynamic(0));
    else if (v.kind == CppValue::Kind::integer) items.emplace_back(v.integer);
    else items.push_back(ev.eval_tuple(t));
  }
  return CppValue::of_tuple(IntTuple::tuple(std::move(items)));
}
CppValue make_tuple(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  call_args(ev, e, 0, SIZE_MAX);
  std::vector<IntTuple> items;
  for (const CppExpr& a : e.args) items.push_back(ev.eval_tuple(a));
  return CppValue::of_tuple(IntTuple::tuple(std::move(items)));
}
// make_tile / Tile<...>: a tuple when every element is an integer or a tuple (CuTe's
// Tile<_32,_32,_16>), else a by-mode tiler (object "Tile" holding a Tiler).
CppValue tile_of(CppEvaluator& ev, const std::vector<CppExpr>& items) {
  std::vector<CppValue> vals;
  bool all_ints = true;
  for (const CppExpr& a : items) {
    vals.push_back(ev.eval(a));
    all_ints = all_ints && (vals.back().kind == CppValue::Kind::integer || vals.back().kind == CppValue::Kind::tuple);
  }
  if (all_ints) {
    std::vector<IntTuple> t;
    for (const CppValue& v : vals) t.push_back(v.kind == CppValue::Kind::integer ? int_leaf(v) : v.tuple);
    return CppValue::of_tuple(IntTuple::tuple(std::move(t)));
  }
  std::vector<Tiler> modes;
  for (std::size_t i = 0; i < items.size(); ++i) modes.push_back(tiler_of(ev, items[i], vals[i]));
  return CppValue::of_object("Tile", Tiler::by_mode(std::move(modes)));
}
CppValue make_tile(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  return tile_of(ev, call_args(ev, e, 1, SIZE_MAX));
}
CppValue tile_type(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  return tile_of(ev, e.targs);
}
CppValue tag(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  no_targs(ev, e);
  const bool left = e.name == "LayoutLeft" || e.name == "GenColMajor";
  return CppValue::of_type(left ? "LayoutLeft" : "LayoutRight");
}
CppValue underscore(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  no_targs(ev, e);
  return CppValue::of_underscore();
}
// sizeof_bits_v<T>, sizeof_bits<T>::value, sizeof_bits<T>{}
CppValue sizeof_bits(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  targ_count(ev, e, 1, 1);
  return CppValue::of_int(element_bits_arg(ev, e.targs[0]), true);
}
// sizeof(T): bytes; CUTLASS's sub-byte types occupy one byte (sizeof(int4b_t) == 1).
CppValue sizeof_fn(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const int bits = element_bits_arg(ev, call_args(ev, e, 1, 1)[0]);
  return CppValue::of_int(std::max(1, bits / 8), true);
}
// cute::min / cute::max of integers, ceil_div and shape_div of integers or tuples.
CppValue int_pair(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 2, 2);
  if (e.name == "ceil_div" || e.name == "shape_div") {
    const IntTuple a = ev.eval_tuple(args[0]);
    const IntTuple b = ev.eval_tuple(args[1]);
    if (e.name == "shape_div") return of_int_tuple(shape_div(a, b));
    if (!b.is_leaf()) ev.fail(args[1], "ceil_div by a tuple is not supported (give an integer)");
    if (b.value() <= 0) ev.fail(args[1], "ceil_div by " + std::to_string(b.value()));
    return of_int_tuple(ceil_div(a, b.value()));
  }
  const CppValue a = ev.eval(args[0]), b = ev.eval(args[1]);
  if (a.kind != CppValue::Kind::integer) ev.fail_expected(args[0], "an integer", a);
  if (b.kind != CppValue::Kind::integer) ev.fail_expected(args[1], "an integer", b);
  const i64 v = e.name == "min" ? std::min(a.integer, b.integer) : std::max(a.integer, b.integer);
  return CppValue::of_int(v, a.is_static && b.is_static);
}

// ---------------------------------------------------------------------------------------------
// Layouts
// ---------------------------------------------------------------------------------------------

// Layout(shape, stride), a mismatch reported at the stride (`at`).
Layout shaped(CppEvaluator& ev, const CppExpr& at, const IntTuple& shape, const IntTuple& stride) {
  try {
    return Layout(shape, stride);
  } catch (const LayoutError& x) {
    ev.fail(at, std::string(x.what()) + " (shape " + to_string(shape) + ", stride " + to_string(stride) + ")");
  }
}

// Layout<Shape[, Stride]>: strides default to compact column-major (LayoutLeft::Apply).
CppValue layout_type(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  targ_count(ev, e, 1, 2);
  const IntTuple shape = ev.eval_tuple(e.targs[0]);
  const IntTuple stride = e.targs.size() == 2 ? ev.eval_tuple(e.targs[1]) : compact_col_major(shape);
  return CppValue::of_layout(shaped(ev, e.targs.size() == 2 ? e.targs[1] : e, shape, stride));
}
CppValue swizzle_type(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  targ_count(ev, e, 3, 3);
  int p[3];
  for (int k = 0; k < 3; ++k) {
    const i64 v = ev.eval_int(e.targs[k]);
    if (v < -64 || v > 64) ev.fail(e.targs[k], "a Swizzle parameter must lie in -64..64, not " + std::to_string(v));
    p[k] = static_cast<int>(v);
  }
  const Swizzle s{p[0], p[1], p[2]};
  s.validate();
  return CppValue::of_swizzle(s);
}
// make_layout(shape[, stride | LayoutLeft{} | LayoutRight{}]) or make_layout(L0, L1, ...).
CppValue make_layout(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 1, SIZE_MAX);
  const CppValue first = ev.eval(args[0]);
  if (first.kind == CppValue::Kind::layout) {
    std::vector<Layout> modes;
    for (const CppExpr& a : args) modes.push_back(plain_arg(ev, a, "make_layout"));
    return CppValue::of_layout(Layout::concat(modes));
  }
  if (args.size() > 2) ev.fail(args[2], "make_layout(shape, stride) takes 2 arguments (several arguments must all be layouts)");
  const IntTuple shape = ev.eval_tuple(args[0]);
  if (args.size() == 1) return CppValue::of_layout(Layout(shape, compact_col_major(shape)));
  const CppValue second = ev.eval(args[1]);
  if (second.kind == CppValue::Kind::type && second.type_name == "LayoutLeft")
    return CppValue::of_layout(Layout(shape, compact_col_major(shape)));
  if (second.kind == CppValue::Kind::type && second.type_name == "LayoutRight")
    return CppValue::of_layout(Layout(shape, compact_row_major(shape)));
  if (second.kind == CppValue::Kind::integer) return CppValue::of_layout(shaped(ev, args[1], shape, int_leaf(second)));
  if (second.kind == CppValue::Kind::tuple) return CppValue::of_layout(shaped(ev, args[1], shape, second.tuple));
  ev.fail_expected(args[1], "a stride, LayoutLeft{} or LayoutRight{}", second);
}
CppValue make_ordered_layout(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 2, 2);
  const IntTuple shape = ev.eval_tuple(args[0]);
  return CppValue::of_layout(Layout(shape, order_strides(ev, args[1], shape)));
}
CppValue compact_order_fn(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 2, 2);
  return of_int_tuple(order_strides(ev, args[1], ev.eval_tuple(args[0])));
}
CppValue compact_major(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const bool left = e.name == "compact_col_major";
  const auto& args = call_args(ev, e, 1, left ? 2 : 1);
  const IntTuple shape = ev.eval_tuple(args[0]);
  if (!left) return of_int_tuple(compact_row_major(shape));
  return of_int_tuple(compact_col_major(shape, args.size() == 2 ? ev.eval_int(args[1]) : 1));
}
CppValue tile_to_shape_fn(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 2, 3);
  const AnyLayout block = layout_arg(ev, args[0]);
  const IntTuple trg = ev.eval_tuple(args[1]);
  return CppValue::of_layout(tile_to_shape(ev, e, block, trg, trg.is_static(), args.size() == 3 ? &args[2] : nullptr));
}

// composition(sw, layout), composition(sw, offset, layout), composition(A, B), composition(A, tiler),
// make_composed_layout(sw, offset, layout). (composition(sw, smem_ptr_flag_bits<B>{}, layout):
// cpp_cutlass.cpp claims it first.)
CppValue composition(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const bool make = e.name == "make_composed_layout";
  const auto& args = call_args(ev, e, make ? 3 : 2, 3);
  const CppValue a = ev.eval(args[0]);
  if (a.kind == CppValue::Kind::swizzle) {
    const i64 offset = args.size() == 3 ? ev.eval_int(args[1]) : 0;
    const AnyLayout l = layout_arg(ev, args.back());
    if (l.is_swizzled()) ev.fail(args.back(), "a swizzle composed with a swizzled layout is not supported");
    const Layout& inner = l.layout;
    if (!make && a.swizzle.B == 0 && offset == 0) return CppValue::of_layout(inner);  // CuTe's identity overload
    return CppValue::of_layout(AnyLayout(a.swizzle, offset, inner));
  }
  if (args.size() == 3 || make) ev.fail_expected(args[0], "a Swizzle<B,M,S>{} first", a);
  if (a.kind != CppValue::Kind::layout) ev.fail_expected(args[0], "a layout or a Swizzle<B,M,S>{}", a);
  const CppValue b = ev.eval(args[1]);
  if (b.kind == CppValue::Kind::layout && b.layout.is_swizzled())
    ev.fail(args[1], "composition(layout, swizzled layout) is not supported");
  if (b.kind == CppValue::Kind::swizzle) ev.fail(args[1], "composition(layout, swizzle) is not supported");
  const Tiler t = tiler_of(ev, args[1], b);
  if (t.kind == Tiler::Kind::layout) return CppValue::of_layout(recompose(a.layout, layoutproof::composition(a.layout.layout, t.layout)));
  return CppValue::of_layout(recompose(a.layout, layoutproof::composition(a.layout.layout, t)));
}

// ---------------------------------------------------------------------------------------------
// Queries: get<I...>, size, shape, stride, layout, rank, depth, cosize
// ---------------------------------------------------------------------------------------------

// The mode x<I0><I1>... of a value.
CppValue select_mode(CppEvaluator& ev, const CppExpr& at, CppValue v, const std::vector<i64>& idx) {
  for (const i64 i : idx) {
    if (i < 0) ev.fail(at, "a mode index must not be negative");
    const auto k = static_cast<std::size_t>(i);
    if (v.kind == CppValue::Kind::layout) v = CppValue::of_layout(recompose(v.layout, v.layout.layout.mode(k)));
    else if (v.kind == CppValue::Kind::tuple) v = of_int_tuple(v.tuple[k]);
    else if (v.kind == CppValue::Kind::integer) v = of_int_tuple(int_leaf(v)[k]);
    else ev.fail(at, "cannot take mode " + std::to_string(i) + " of " + v.describe());
  }
  return v;
}
CppValue selected(CppEvaluator& ev, const CppExpr& e) {
  const auto& args = call_args(ev, e, 1, 1);
  return select_mode(ev, e, ev.eval(args[0]), int_targs(ev, e));
}
CppValue get(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 1, SIZE_MAX);
  return selected(ev, e);
}
IntTuple shape_of(CppEvaluator& ev, const CppExpr& at, const CppValue& v) {
  if (v.kind == CppValue::Kind::layout) return v.layout.layout.shape;
  if (v.kind == CppValue::Kind::tuple) return v.tuple;
  if (v.kind == CppValue::Kind::integer) return int_leaf(v);
  ev.fail_expected(at, "a layout or a shape", v);
}
// The product of t's leaves, static when every leaf is (CuTe's size and product).
CppValue product_value(const IntTuple& t) { return CppValue::of_int(product(t), t.is_static()); }
CppValue size(CppEvaluator& ev, const CppExpr& e) { return product_value(shape_of(ev, e, selected(ev, e))); }
CppValue shape(CppEvaluator& ev, const CppExpr& e) { return of_int_tuple(shape_of(ev, e, selected(ev, e))); }
CppValue rank(CppEvaluator& ev, const CppExpr& e) {
  return CppValue::of_int(static_cast<i64>(shape_of(ev, e, selected(ev, e)).rank()));
}
CppValue depth(CppEvaluator& ev, const CppExpr& e) { return CppValue::of_int(layoutproof::depth(shape_of(ev, e, selected(ev, e)))); }
CppValue stride(CppEvaluator& ev, const CppExpr& e) {
  const CppValue v = selected(ev, e);
  if (v.kind != CppValue::Kind::layout) ev.fail_expected(e.args[0], "a layout", v);
  return of_int_tuple(v.layout.layout.stride);
}
CppValue layout_mode(CppEvaluator& ev, const CppExpr& e) {
  const CppValue v = selected(ev, e);
  if (v.kind != CppValue::Kind::layout) ev.fail_expected(e.args[0], "a layout", v);
  return v;
}
CppValue cosize(CppEvaluator& ev, const CppExpr& e) {
  const CppValue v = selected(ev, e);
  if (v.kind != CppValue::Kind::layout) ev.fail_expected(e.args[0], "a layout", v);
  return CppValue::of_int(layoutproof::cosize(v.layout), v.layout.layout.shape.is_static() && v.layout.layout.stride.is_static());
}
// cosize_v<L>, size_v<L>: the same of a layout type.
CppValue query_v(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  targ_count(ev, e, 1, 1);
  const AnyLayout l = layout_arg(ev, e.targs[0]);
  return CppValue::of_int(e.name == "cosize_v" ? layoutproof::cosize(l) : product(l.layout.shape));
}
CppValue product_fn(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  return product_value(ev.eval_tuple(call_args(ev, e, 1, 1)[0]));
}

// ---------------------------------------------------------------------------------------------
// Tuple and mode manipulation: append, prepend, group, select, take, product_each
// ---------------------------------------------------------------------------------------------

// The modes of a tuple or a layout value, and the value rebuilt from modes.
struct Modes {
  bool is_layout = false;
  AnyLayout like;
  std::vector<IntTuple> shape, stride;
};
Modes modes_of(CppEvaluator& ev, const CppExpr& at) {
  const CppValue v = ev.eval(at);
  Modes m;
  if (v.kind == CppValue::Kind::layout) {
    m.is_layout = true;
    m.like = v.layout;
    const Layout& l = v.layout.layout;
    for (std::size_t i = 0; i < l.rank(); ++i) m.shape.push_back(l.mode(i).shape), m.stride.push_back(l.mode(i).stride);
    if (l.shape.is_leaf()) m.shape = {l.shape}, m.stride = {l.stride};
    return m;
  }
  if (v.kind == CppValue::Kind::integer) m.shape = {int_leaf(v)};
  else if (v.kind == CppValue::Kind::tuple) m.shape = v.tuple.is_leaf() ? std::vector<IntTuple>{v.tuple} : v.tuple.children();
  else ev.fail_expected(at, "a layout or a tuple", v);
  return m;
}
CppValue rebuilt(const Modes& m) {
  if (!m.is_layout) return CppValue::of_tuple(IntTuple::tuple(m.shape));
  return CppValue::of_layout(recompose(m.like, Layout(IntTuple::tuple(m.shape), IntTuple::tuple(m.stride))));
}
// append(a, x) / prepend(a, x); append<N>(a, x) pads a with x up to rank N (CuTe's tuple and layout
// append<N>: make_layout(append<N>(shape, x.shape), append<N>(stride, x.stride))).
CppValue append_prepend(CppEvaluator& ev, const CppExpr& e) {
  if (e.has_targs) targ_count(ev, e, 1, 1);
  const auto& args = call_args(ev, e, 2, 2);
  Modes m = modes_of(ev, args[0]);
  if (e.has_targs) {
    const i64 n = ev.eval_int(e.targs[0]);
    if (n < static_cast<i64>(m.shape.size()))
      ev.fail(e, e.name + "<" + std::to_string(n) + "> of a rank-" + std::to_string(m.shape.size()) + " value");
    const Modes xm = modes_of(ev, args[1]);
    if (m.is_layout != xm.is_layout) ev.fail(args[1], e.name + ": give two layouts or two tuples");
    while (static_cast<i64>(m.shape.size()) < n) {
      m.shape.insert(e.name == "append" ? m.shape.end() : m.shape.begin(), xm.shape.size() == 1 ? xm.shape[0] : IntTuple::tuple(xm.shape));
      if (m.is_layout)
        m.stride.insert(e.name == "append" ? m.stride.end() : m.stride.begin(), xm.stride.size() == 1 ? xm.stride[0] : IntTuple::tuple(xm.stride));
    }
    return rebuilt(m);
  }
  const Modes x = modes_of(ev, args[1]);
  if (m.is_layout != x.is_layout) ev.fail(args[1], e.name + ": give two layouts or two tuples");
  if (x.is_layout && x.like.is_swizzled()) ev.fail(args[1], e.name + " of a swizzled layout is not supported");
  const IntTuple xs = x.shape.size() == 1 ? x.shape[0] : IntTuple::tuple(x.shape);
  const IntTuple xd = !x.is_layout ? IntTuple() : x.stride.size() == 1 ? x.stride[0] : IntTuple::tuple(x.stride);
  const bool back = e.name == "append";
  m.shape.insert(back ? m.shape.end() : m.shape.begin(), xs);
  if (m.is_layout) m.stride.insert(back ? m.stride.end() : m.stride.begin(), xd);
  return rebuilt(m);
}
// group<B,E>(x): modes [B,E) become one mode; take<B,E>(x): only modes [B,E).
CppValue group_take(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 2, 2);
  const auto& args = call_args(ev, e, 1, 1);
  Modes m = modes_of(ev, args[0]);
  const std::vector<i64> be = int_targs(ev, e);
  const i64 r = static_cast<i64>(m.shape.size());
  if (be[0] < 0 || be[0] > be[1] || be[1] > r)
    ev.fail(e, e.name + "<" + std::to_string(be[0]) + "," + std::to_string(be[1]) + "> of a rank-" + std::to_string(r) + " value");
  const auto slice = [&](std::vector<IntTuple>& v) {
    std::vector<IntTuple> mid(v.begin() + be[0], v.begin() + be[1]);
    if (e.name == "take") return mid;
    std::vector<IntTuple> out(v.begin(), v.begin() + be[0]);
    out.push_back(IntTuple::tuple(mid));
    out.insert(out.end(), v.begin() + be[1], v.end());
    return out;
  };
  m.shape = slice(m.shape);
  if (m.is_layout) m.stride = slice(m.stride);
  return rebuilt(m);
}
CppValue select_fn(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 1, SIZE_MAX);
  const auto& args = call_args(ev, e, 1, 1);
  const Modes m = modes_of(ev, args[0]);
  Modes out = m;
  out.shape.clear(), out.stride.clear();
  for (const i64 i : int_targs(ev, e)) {
    if (i < 0 || i >= static_cast<i64>(m.shape.size())) ev.fail(e, "select: mode " + std::to_string(i) + " out of range");
    out.shape.push_back(m.shape[i]);
    if (m.is_layout) out.stride.push_back(m.stride[i]);
  }
  return rebuilt(out);
}
CppValue product_each(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const IntTuple t = ev.eval_tuple(call_args(ev, e, 1, 1)[0]);
  if (t.is_leaf()) return of_int_tuple(t);
  std::vector<IntTuple> out;
  for (const IntTuple& c : t.children()) out.push_back(IntTuple::integer(product(c), c.is_static()));
  return CppValue::of_tuple(IntTuple::tuple(std::move(out)));
}

// ---------------------------------------------------------------------------------------------
// The algebra (swizzled layouts act on their inner layout, as layout_composed.hpp does)
// ---------------------------------------------------------------------------------------------

CppValue coalesce(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 1, 2);
  const AnyLayout l = layout_arg(ev, args[0]);
  if (args.size() == 2) return CppValue::of_layout(recompose(l, layoutproof::coalesce(l.layout, ev.eval_tuple(args[1]))));
  return CppValue::of_layout(recompose(l, layoutproof::coalesce(l.layout)));
}
CppValue unary_layout_op(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 1, 1);
  const CppValue v = ev.eval(args[0]);
  if (e.name == "flatten" && v.kind == CppValue::Kind::tuple) return of_int_tuple(layoutproof::flatten(v.tuple));
  if (v.kind != CppValue::Kind::layout) ev.fail_expected(args[0], "a layout", v);
  const AnyLayout& l = v.layout;
  if (e.name == "flatten") return CppValue::of_layout(recompose(l, Layout(layoutproof::flatten(l.layout.shape), layoutproof::flatten(l.layout.stride))));
  if (e.name == "filter") return CppValue::of_layout(recompose(l, layoutproof::filter(l.layout)));
  if (e.name == "filter_zeros") return CppValue::of_layout(recompose(l, layoutproof::filter_zeros(l.layout)));
  if (l.is_swizzled()) ev.fail(args[0], e.name + " of a swizzled layout is not supported");
  if (e.name == "right_inverse") return CppValue::of_layout(layoutproof::right_inverse(l.layout));
  return CppValue::of_layout(layoutproof::left_inverse(l.layout));
}
CppValue complement(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 1, 2);
  const Layout l = plain_arg(ev, args[0], "complement");
  if (args.size() == 1) return CppValue::of_layout(layoutproof::complement(l));
  return CppValue::of_layout(layoutproof::complement(l, ev.eval_tuple(args[1])));
}
CppValue by_tiler(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 2, 2);
  const AnyLayout a = layout_arg(ev, args[0]);
  const Tiler t = tiler_of(ev, args[1], ev.eval(args[1]));
  using Op = Layout (*)(const Layout&, const Tiler&);
  static const std::map<std::string, Op> ops = {
      {"logical_divide", &logical_divide},   {"zipped_divide", &zipped_divide},   {"tiled_divide", &tiled_divide},
      {"logical_product", &logical_product}, {"zipped_product", &zipped_product}, {"tiled_product", &tiled_product}};
  return CppValue::of_layout(recompose(a, ops.at(e.name)(a.layout, t)));
}
CppValue rank_product(CppEvaluator& ev, const CppExpr& e) {
  no_targs(ev, e);
  const auto& args = call_args(ev, e, 2, 2);
  const AnyLayout a = layout_arg(ev, args[0]);
  const Layout b = plain_arg(ev, args[1], e.name + " by");
  const Layout r = e.name == "blocked_product" ? blocked_product(a.layout, b) : raked_product(a.layout, b);
  return CppValue::of_layout(recompose(a, r));
}

}  // namespace

const HandlerTable& cute_builtins() {
  static const HandlerTable t = {
      {"Int", &int_type}, {"C", &int_type}, {"E", &basis_type}, {"true", &bool_constant}, {"false", &bool_constant},
      {"true_type", &bool_constant}, {"false_type", &bool_constant},
      {"Shape", &tuple_type}, {"Stride", &tuple_type}, {"Step", &tuple_type}, {"Coord", &tuple_type},
      {"tuple", &tuple_type}, {"Tile", &tile_type},
      {"make_shape", &make_tuple}, {"make_stride", &make_tuple}, {"make_step", &make_tuple},
      {"make_coord", &make_tuple}, {"make_tuple", &make_tuple}, {"make_tile", &make_tile},
      {"LayoutLeft", &tag}, {"LayoutRight", &tag}, {"GenColMajor", &tag}, {"GenRowMajor", &tag},
      {"_", &underscore}, {"Underscore", &underscore}, {"sizeof_bits_v", &sizeof_bits}, {"sizeof_bits", &sizeof_bits},
      {"sizeof", &sizeof_fn}, {"min", &int_pair}, {"max", &int_pair}, {"ceil_div", &int_pair}, {"shape_div", &int_pair},
      {"Layout", &layout_type}, {"Swizzle", &swizzle_type}, {"make_layout", &make_layout},
      {"make_ordered_layout", &make_ordered_layout}, {"compact_order", &compact_order_fn},
      {"compact_col_major", &compact_major}, {"compact_row_major", &compact_major},
      {"tile_to_shape", &tile_to_shape_fn}, {"composition", &composition}, {"make_composed_layout", &composition},
      {"get", &get}, {"size", &size}, {"shape", &shape}, {"stride", &stride}, {"layout", &layout_mode}, {"rank", &rank},
      {"depth", &depth}, {"cosize", &cosize}, {"cosize_v", &query_v}, {"size_v", &query_v}, {"product", &product_fn},
      {"append", &append_prepend}, {"prepend", &append_prepend}, {"group", &group_take}, {"take", &group_take},
      {"select", &select_fn}, {"product_each", &product_each},
      {"coalesce", &coalesce}, {"flatten", &unary_layout_op}, {"filter", &unary_layout_op},
      {"filter_zeros", &unary_layout_op}, {"right_inverse", &unary_layout_op}, {"left_inverse", &unary_layout_op},
      {"complement", &complement},
      {"logical_divide", &by_tiler}, {"zipped_divide", &by_tiler}, {"tiled_divide", &by_tiler},
      {"logical_product", &by_tiler}, {"zipped_product", &by_tiler}, {"tiled_product", &by_tiler},
      {"blocked_product", &rank_product}, {"raked_product", &rank_product},
  };
  return t;
}

std::optional<Handler> find_builtin(const std::string& name) {
  for (std::size_t from = 0;;) {
    const std::string n = name.substr(from);
    for (const HandlerTable* t : {&cutlass_builtins(), &selector_builtins(), &op_selector_builtins(), &cute_builtins()})
      if (auto it = t->find(n); it != t->end()) return it->second;
    const std::size_t sep = name.find("::", from);
    if (sep == std::string::npos) return std::nullopt;
    from = sep + 2;
  }
}

bool is_integral_type(const std::string& name) {
  static const std::vector<std::string> names = {"int", "unsigned", "long", "size_t", "int8_t", "int16_t", "int32_t", "int64_t",
                                                 "uint8_t", "uint16_t", "uint32_t", "uint64_t", "std::size_t", "std::int64_t", "std::int32_t"};
  return std::find(names.begin(), names.end(), name) != names.end();
}

const std::vector<std::string>& kernel_layer_names() {
  static const std::vector<std::string> names = {
      "make_tiled_mma", "make_tiled_copy", "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C",
      "make_tiled_copy_C_atom", "make_tiled_copy_S", "make_tiled_copy_D", "make_tma_copy", "make_cotiled_copy",
      "Copy_Atom", "MMA_Atom", "TiledMMA", "TiledCopy", "local_tile", "local_partition", "make_tensor",
      "make_smem_ptr", "make_gmem_ptr", "partition_fragment_A", "partition_fragment_B", "partition_fragment_C",
      "partition_shape_A", "partition_shape_B", "get_slice", "retile_S", "retile_D", "tile_size", "make_fragment_like",
      "make_layout_like", "recast", "make_swizzle", "flat_divide", "flat_product", "make_identity_layout"};
  return names;
}

}  // namespace layoutproof::cpp_detail
