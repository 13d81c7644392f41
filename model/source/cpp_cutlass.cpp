// CUTLASS's built-ins of the C++ front end: the GMMA/UMMA shared-memory atoms (from their CUTLASS
// definitions: a byte swizzle over an smem_ptr_flag and a layout in bits, upcast to the element),
// ComposedLayout with smem_ptr_flag_bits, upcast/downcast/recast_layout, type traits
// (conditional_t, is_major), and the collective builders' smem layout selectors.
#include <algorithm>
#include <climits>
#include <numeric>
#include <utility>

#include "model/algebra/algebra.hpp"
#include "model/source/cpp_builtins.hpp"
#include "model/source/cpp_parse.hpp"
#include "model/atoms/cute_atoms.hpp"
#include "model/layout/notation.hpp"
#include "model/algebra/recast.hpp"
#include "model/algebra/tiling.hpp"

namespace layoutproof::cpp_detail {
namespace {

// smem_ptr_flag_bits<B> (pointer_flagged.hpp): "a nullptr smem_ptr<T> with B == sizeof_bits<T>".
struct SmemPtrFlag {
  int bits = 1;
};
constexpr const char* kFlag = "smem_ptr_flag";

std::string last_name(const std::string& name) {
  const std::size_t sep = name.rfind("::");
  return sep == std::string::npos ? name : name.substr(sep + 2);
}

bool is_pow2(i64 n) { return n > 0 && (n & (n - 1)) == 0; }
int log2_of(i64 n) {
  int k = 0;
  while ((i64{1} << k) < n) ++k;
  return k;
}

// CuTe's upcast<N>(Swizzle<B,M,S>) (swizzle_layout.hpp): Swizzle<B,M-log2 N,S>, or, when that M would
// be negative, Swizzle<max(B+M-log2 N, 0), 0, S>.
Swizzle upcast_swizzle(Swizzle s, i64 n) {
  const int m = s.M - log2_of(n);
  if (m >= 0) return Swizzle{s.B, m, s.S};
  return Swizzle{std::max(s.B + m, 0), 0, s.S};
}
// CuTe's downcast<N>(Swizzle<B,M,S>): Swizzle<B,M+log2 N,S>.
Swizzle downcast_swizzle(Swizzle s, i64 n) { return Swizzle{s.B, s.M + log2_of(n), s.S}; }

// downcast<N>(layout) (layout.hpp): a stride-±1 mode's size times N, every other stride times N;
// CuTe requires a stride-1 mode ("Downcast requires adjacent elements").
Layout downcast_layout(const Layout& l, i64 n) {
  const std::vector<i64> d = leaves(l.stride);
  if (std::find(d.begin(), d.end(), 1) == d.end())
    throw LayoutError("downcast<" + std::to_string(n) + "> of " + to_string(l) + ": Downcast requires adjacent elements (a stride-1 mode)");
  std::size_t k = 0;
  const IntTuple shape = transform_leaves(l.shape, [&](i64 s) {
    const i64 dk = d[k++];
    return dk == 1 || dk == -1 ? checked_mul(s, n) : s;
  });
  const IntTuple stride = transform_leaves(l.stride, [&](i64 dk) { return dk == 1 || dk == -1 ? dk : checked_mul(dk, n); });
  return Layout(shape, stride);
}

// CuTe's ComposedLayout<Swizzle, smem_ptr_flag_bits<B>, inner>, printed as CuTe prints it
// (Sw<3,4,3> o smem_ptr[16b](unset) o L) and evaluated, as a kernel's swizzled smem pointer addresses
// it, at the element level: composition(recast_layout<uint8_t, uint_bit_t<B>>(sw), _0, inner), what
// CuTe's print_layout / as_position_independent_swizzle_layout show (AnyLayout::smem_ptr).
AnyLayout flagged(CppEvaluator& ev, const CppExpr& at, Swizzle byte_sw, i64 bits, Layout inner) {
  if (!is_pow2(bits))
    ev.fail(at, "smem_ptr_flag_bits<" + std::to_string(bits) + ">: a " + std::to_string(bits) +
                    "-bit element has no uint_bit_t, so CuTe cannot place the byte swizzle " + to_string(byte_sw) +
                    " on it (use the element's unpacked smem type, e.g. float_e2m3_unpacksmem_t)");
  try {
    return AnyLayout::smem_ptr(byte_sw, static_cast<int>(bits), std::move(inner));
  } catch (const LayoutError& x) {
    ev.fail(at, x.what());
  }
}

// ---------------------------------------------------------------------------------------------
// GMMA / UMMA atoms (mma_traits_sm90_gmma.hpp, mma_traits_sm100.hpp)
// ---------------------------------------------------------------------------------------------

struct AtomBits {
  const char* name;
  Swizzle byte_swizzle;
  const char* layout_bits;  // Layout_*_Atom_Bits' layout, in bits
};

const std::vector<AtomBits>& atom_bits() {
  static const std::vector<AtomBits> a = {
      {"Layout_MN_INTER_Atom", {0, 4, 3}, "(128,8):(1,128)"},  {"Layout_MN_SW32_Atom", {1, 4, 3}, "(256,8):(1,256)"},
      {"Layout_MN_SW64_Atom", {2, 4, 3}, "(512,8):(1,512)"},   {"Layout_MN_SW128_Atom", {3, 4, 3}, "(1024,8):(1,1024)"},
      {"Layout_K_INTER_Atom", {0, 4, 3}, "(8,128):(128,1)"},   {"Layout_K_SW32_Atom", {1, 4, 3}, "(8,256):(256,1)"},
      {"Layout_K_SW64_Atom", {2, 4, 3}, "(8,512):(512,1)"},    {"Layout_K_SW128_Atom", {3, 4, 3}, "(8,1024):(1024,1)"},
      {"Layout_MN_SW128_32B_Atom", {2, 5, 2}, "(1024,4):(1,1024)"},  // UMMA only
  };
  return a;
}

// The atom a (possibly qualified) name denotes: GMMA::X, UMMA::X, SM90::GMMA::X, X (after `using
// namespace cute::GMMA;`), and X_Bits (the atom in bits); nullptr for another name.
const AtomBits* find_atom(std::string name, bool& bits_form) {
  const std::size_t sep = name.rfind("::");
  const std::string space = sep == std::string::npos ? "" : name.substr(0, sep);
  name = sep == std::string::npos ? name : name.substr(sep + 2);
  bits_form = name.size() > 5 && name.compare(name.size() - 5, 5, "_Bits") == 0;
  if (bits_form) name.resize(name.size() - 5);
  const bool umma = space.size() >= 4 && space.compare(space.size() - 4, 4, "UMMA") == 0;
  for (const AtomBits& a : atom_bits())
    if (name == a.name && (umma || name != "Layout_MN_SW128_32B_Atom")) return &a;
  return nullptr;
}

}  // namespace

AnyLayout gmma_atom_layout(CppEvaluator& ev, const CppExpr& at, const std::string& name, int bits) {
  bool bits_form = false;
  const AtomBits* a = find_atom(name, bits_form);
  if (!a || bits_form) throw LayoutError("no CUTLASS smem atom named " + name);
  Layout inner;
  try {
    inner = upcast(parse_layout(a->layout_bits), bits);
  } catch (const LayoutError& x) {
    ev.fail(at, name + " of a " + std::to_string(bits) + "-bit element does not compile in CuTe: " + x.what());
  }
  return flagged(ev, at, a->byte_swizzle, bits, std::move(inner));
}

namespace {

// Layout_*_Atom<T> = upcast<sizeof_bits<T>>(Layout_*_Atom_Bits): smem_ptr_flag_bits<bits(T)> and the
// bit layout upcast to elements (a static divisibility failure is CuTe's compile error).
CppValue gmma_atom(CppEvaluator& ev, const CppExpr& e) {
  bool bits_form = false;
  const AtomBits* a = find_atom(e.name, bits_form);
  value_form(ev, e);
  const std::string shown = e.name;
  if (bits_form) {
    no_targs(ev, e);
    return CppValue::of_layout(flagged(ev, e, a->byte_swizzle, 1, parse_layout(a->layout_bits)));
  }
  if (!e.has_targs || e.targs.size() != 1) ev.fail(e, "wrong number of template arguments: " + shown + " needs the element type, e.g. " + shown + "<half_t>");
  return CppValue::of_layout(gmma_atom_layout(ev, e.targs[0], e.name, element_bits_arg(ev, e.targs[0])));
}

// ---------------------------------------------------------------------------------------------
// ComposedLayout and smem_ptr_flag
// ---------------------------------------------------------------------------------------------

CppValue smem_ptr_flag(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  if (e.name.find("smem_ptr_flag_bits") == std::string::npos) {
    no_targs(ev, e);
    return CppValue::of_object(kFlag, SmemPtrFlag{1});
  }
  targ_count(ev, e, 1, 1);
  const i64 b = ev.eval_int(e.targs[0]);
  if (b < 1 || b > 1024) ev.fail(e.targs[0], "smem_ptr_flag_bits<" + std::to_string(b) + ">: bits must lie in 1..1024");
  return CppValue::of_object(kFlag, SmemPtrFlag{static_cast<int>(b)});
}

// Swizzle o OFFSET o inner for the composition(sw, offset, inner) and ComposedLayout<Sw, Offset, L>
// forms: OFFSET an integer (Int<0>{}) or an smem_ptr_flag_bits<B>.
CppValue composed(CppEvaluator& ev, const CppExpr& e, const CppExpr& sw_e, const CppExpr& off_e, const CppExpr& inner_e) {
  const CppValue sw = ev.eval(sw_e);
  if (sw.kind != CppValue::Kind::swizzle) ev.fail_expected(sw_e, "a Swizzle<B,M,S>{}", sw);
  const AnyLayout inner = layout_arg(ev, inner_e);
  if (inner.is_swizzled()) ev.fail(inner_e, "a swizzle composed with a swizzled layout is not supported");
  const CppValue off = ev.eval(off_e);
  if (off.kind == CppValue::Kind::object && off.object_kind == kFlag)
    return CppValue::of_layout(flagged(ev, e, sw.swizzle, std::any_cast<SmemPtrFlag>(off.object).bits, inner.layout));
  if (off.kind != CppValue::Kind::integer) ev.fail_expected(off_e, "an offset (Int<0>{}) or smem_ptr_flag_bits<B>{}", off);
  // CuTe's composition(Swizzle<0,M,S>, Int<0>, L) is L; make_composed_layout and ComposedLayout<...> keep it.
  if (sw.swizzle.B == 0 && off.integer == 0 && last_name(e.name) == "composition") return CppValue::of_layout(inner.layout);
  return CppValue::of_layout(AnyLayout(sw.swizzle, off.integer, inner.layout));
}

CppValue composed_layout_type(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  targ_count(ev, e, 3, 3);
  return composed(ev, e, e.targs[0], e.targs[1], e.targs[2]);
}

// composition(sw, smem_ptr_flag_bits<B>{}, L) / make_composed_layout(...): claimed here when the
// middle argument is a flag, else CuTe's composition (cpp_builtins.cpp).
CppValue composition_flagged(CppEvaluator& ev, const CppExpr& e) {
  if (e.kind == CppExpr::Kind::call && !e.brace && e.args.size() == 3 && !e.has_targs)
    return composed(ev, e, e.args[0], e.args[1], e.args[2]);
  return cute_builtins().at("composition")(ev, e);
}

// ---------------------------------------------------------------------------------------------
// upcast<N>, downcast<N>, recast_layout<Old, New>
// ---------------------------------------------------------------------------------------------

// upcast/downcast of an smem_ptr form keep its byte swizzle and scale the element bits (pointer_flagged.hpp:
// composition(layout_a, smem_ptr_flag_bits<B*N>{} or <B/N>{}, upcast<N>/downcast<N>(layout_b))).
AnyLayout downcast_any(const AnyLayout& l, i64 n) {
  if (l.is_smem_ptr()) {
    if (l.smem_ptr_bits % n != 0)
      throw LayoutError("downcast<" + std::to_string(n) + "> of smem_ptr[" + std::to_string(l.smem_ptr_bits) + "b]: fewer than 1 bit per element");
    return AnyLayout::smem_ptr(l.byte_swizzle, static_cast<int>(l.smem_ptr_bits / n), downcast_layout(l.layout, n));
  }
  if (!l.swizzle) return AnyLayout(downcast_layout(l.layout, n));
  return AnyLayout(downcast_swizzle(*l.swizzle, n), checked_mul(l.offset, n), downcast_layout(l.layout, n));
}
AnyLayout upcast_any(const AnyLayout& l, i64 n) {
  if (l.is_smem_ptr()) return AnyLayout::smem_ptr(l.byte_swizzle, static_cast<int>(checked_mul(l.smem_ptr_bits, n)), upcast(l.layout, n));
  return upcast(l, n);  // model/algebra/recast.hpp: CuTe's result, refused where the swizzle moves offsets inside an element
}

// The value of upcast<n> / downcast<n> of x (a layout or a swizzle).
CppValue cast_value(CppEvaluator& ev, const CppExpr& at, const CppValue& x, i64 n, bool up) {
  if (n < 1) ev.fail(at, std::string(up ? "upcast" : "downcast") + "<" + std::to_string(n) + ">: N must be positive");
  if (x.kind == CppValue::Kind::swizzle) {
    if (!is_pow2(n)) ev.fail(at, "N must be a power of two (a swizzle is recast by whole address bits)");
    return CppValue::of_swizzle(up ? upcast_swizzle(x.swizzle, n) : downcast_swizzle(x.swizzle, n));
  }
  if (x.kind != CppValue::Kind::layout) ev.fail_expected(at, "a layout or a Swizzle", x);
  if (x.layout.is_swizzled() && !is_pow2(n)) ev.fail(at, "N must be a power of two for a swizzled layout");
  return CppValue::of_layout(up ? upcast_any(x.layout, n) : downcast_any(x.layout, n));
}

CppValue up_down_cast(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 1, 1);
  const i64 n = ev.eval_int(e.targs[0]);
  const CppExpr& arg = call_args(ev, e, 1, 1)[0];
  return cast_value(ev, e, ev.eval(arg), n, e.name.find("upcast") != std::string::npos);
}

// recast_layout<Old, New>(x): scale = bits(New)/bits(Old) reduced to num/den; downcast<den> of
// upcast<num> (each skipped when 1), as layout.hpp and swizzle_layout.hpp define it.
CppValue recast_layout(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 2, 2);
  const i64 old_bits = element_bits_arg(ev, e.targs[0]);
  const i64 new_bits = element_bits_arg(ev, e.targs[1]);
  const i64 g = std::gcd(old_bits, new_bits);
  const i64 num = new_bits / g, den = old_bits / g;
  CppValue x = ev.eval(call_args(ev, e, 1, 1)[0]);
  if (num != 1) x = cast_value(ev, e, x, num, true);
  if (den != 1) x = cast_value(ev, e, x, den, false);
  return x;
}

// ---------------------------------------------------------------------------------------------
// Type traits: conditional_t, is_major, GMMA::Major
// ---------------------------------------------------------------------------------------------

// conditional_t<C, A, B>, conditional<C, A, B>::type: only the chosen branch is evaluated.
CppValue conditional(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 3, 3);
  value_form(ev, e);
  return ev.eval(ev.eval_bool(e.targs[0]) ? e.targs[1] : e.targs[2]);
}

CppValue major_tag(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  no_targs(ev, e);
  const std::string s = e.name.size() >= 2 && e.name.compare(e.name.size() - 2, 2, "MN") == 0 ? "MN" : "K";
  return CppValue::of_type((e.name.find("UMMA") != std::string::npos ? "UMMA::Major::" : "GMMA::Major::") + s);
}

// GMMA::ScaleIn::One, UMMA::Saturate::False, ...: the enumerators MMA atoms take as template
// arguments (mma_sm90_desc.hpp, mma_sm100_desc.hpp), a type spelled as written.
CppValue enumerator(CppEvaluator& ev, const CppExpr& e) {
  value_form(ev, e);
  no_targs(ev, e);
  return CppValue::of_type(e.name);
}

// uint_bit_t<N>, uint_byte_t<N>, int_bit_t<N>, int_byte_t<N> (and uint_bit<N>::type, ...): the
// integer type CuTe names by width (cute/numeric/int.hpp), as its canonical name. A width CuTe does
// not specialize is an error, as the undefined uint_bit<N>::type is in C++.
CppValue int_by_width(CppEvaluator& ev, const CppExpr& e) {
  targ_count(ev, e, 1, 1);
  value_form(ev, e);
  const std::string base = last_name(e.name);
  const bool is_unsigned = base.rfind("uint", 0) == 0;
  const bool bytes = base.find("_byte") != std::string::npos;
  const i64 n = ev.eval_int(e.targs[0]);
  const i64 bits = bytes ? (n > 0 && n <= 64 ? 8 * n : -1) : n;
  static const std::vector<std::pair<i64, const char*>> unsigned_types = {
      {1, "uint1b_t"}, {2, "uint2b_t"}, {4, "uint4b_t"}, {6, "uint6b_t"}, {8, "uint8_t"}, {16, "uint16_t"},
      {32, "uint32_t"}, {64, "uint64_t"}, {128, "uint128_t"}, {256, "uint256_t"}};
  static const std::vector<std::pair<i64, const char*>> signed_types = {
      {2, "int2b_t"}, {4, "int4b_t"}, {8, "int8_t"}, {16, "int16_t"}, {32, "int32_t"}, {64, "int64_t"}};
  const auto& table = is_unsigned ? unsigned_types : signed_types;
  std::string widths;
  for (const auto& [w, name] : table) {
    if (w == bits) return CppValue::of_type(name);
    if (!bytes || w % 8 == 0) widths += (widths.empty() ? "" : ", ") + std::to_string(bytes ? w / 8 : w);
  }
  ev.fail(e, base + "<" + std::to_string(n) + "> is not defined: CuTe defines " + base + "<N> for N in " + widths);
}

// is_major<I>(stride) / is_major<I, Stride>(): the first leaf of stride mode I is a static 1
// (cutlass/detail/layout.hpp); a Layout's stride is used. is_mn_major<S>() = is_major<0,S>(),
// is_k_major<S>() = is_major<1,S>().
bool is_major_of(CppEvaluator& ev, const CppExpr& at, i64 mode, const CppExpr& stride_e) {
  const CppValue v = ev.eval(stride_e);
  IntTuple stride;
  if (v.kind == CppValue::Kind::layout) stride = v.layout.layout.stride;
  else if (v.kind == CppValue::Kind::tuple || v.kind == CppValue::Kind::integer) stride = ev.eval_tuple(stride_e);
  else ev.fail_expected(stride_e, "a stride (Stride<int64_t,_1,int64_t>, ...)", v);
  if (mode < 0 || (stride.is_tuple() && static_cast<std::size_t>(mode) >= stride.rank()))
    ev.fail(at, "is_major<" + std::to_string(mode) + ">: the stride " + to_string(stride) + " has no mode " + std::to_string(mode));
  IntTuple s = stride[static_cast<std::size_t>(mode)];
  while (s.is_tuple() && s.rank() > 0) s = s[0];  // cute::front
  return s.is_constant(1);
}
CppValue is_major(CppEvaluator& ev, const CppExpr& e) {
  const bool fixed = e.name.find("is_mn_major") != std::string::npos || e.name.find("is_k_major") != std::string::npos;
  targ_count(ev, e, 1, fixed ? 1 : 2);
  const auto& args = call_args(ev, e, 0, 1);
  const i64 mode = fixed ? (e.name.find("is_mn_major") != std::string::npos ? 0 : 1) : ev.eval_int(e.targs[0]);
  const CppExpr* stride = !args.empty() ? &args[0] : fixed ? &e.targs[0] : e.targs.size() == 2 ? &e.targs[1] : nullptr;
  if (!stride) ev.fail(e, "is_major<I, Stride>() or is_major<I>(stride) needs the stride");
  return CppValue::of_int(is_major_of(ev, e, mode, *stride) ? 1 : 0, true);
}

}  // namespace

const HandlerTable& cutlass_builtins() {
  static const HandlerTable t = [] {
    HandlerTable h = {
        {"smem_ptr_flag", &smem_ptr_flag}, {"smem_ptr_flag_bits", &smem_ptr_flag},
        {"ComposedLayout", &composed_layout_type}, {"composition", &composition_flagged},
        {"make_composed_layout", &composition_flagged},
        {"upcast", &up_down_cast}, {"downcast", &up_down_cast}, {"recast_layout", &recast_layout},
        {"conditional_t", &conditional}, {"conditional", &conditional},
        {"GMMA::Major::K", &major_tag}, {"GMMA::Major::MN", &major_tag}, {"UMMA::Major::K", &major_tag},
        {"UMMA::Major::MN", &major_tag},
        {"is_major", &is_major}, {"is_mn_major", &is_major}, {"is_k_major", &is_major},
        {"ScaleIn::One", &enumerator}, {"ScaleIn::Neg", &enumerator}, {"ScaleOut::Zero", &enumerator},
        {"ScaleOut::One", &enumerator}, {"Saturate::False", &enumerator}, {"Saturate::True", &enumerator},
    };
    for (const char* w : {"uint_bit", "uint_byte", "int_bit", "int_byte"}) {
      h[w] = &int_by_width;
      h[std::string(w) + "_t"] = &int_by_width;
    }
    for (const AtomBits& a : atom_bits()) {
      for (const char* space : {"GMMA::", "UMMA::", ""}) {
        if (std::string(a.name) == "Layout_MN_SW128_32B_Atom" && std::string(space) != "UMMA::") continue;
        h[std::string(space) + a.name] = &gmma_atom;
        h[std::string(space) + a.name + "_Bits"] = &gmma_atom;
      }
    }
    return h;
  }();
  return t;
}

}  // namespace layoutproof::cpp_detail
