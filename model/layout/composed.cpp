#include "model/layout/composed.hpp"

#include <algorithm>
#include <string>

namespace layoutproof {

namespace {

std::string sw_text(const Swizzle& s) {
  return "Sw<" + std::to_string(s.B) + "," + std::to_string(s.M) + "," + std::to_string(s.S) + ">";
}

}  // namespace

Swizzle upcast_swizzle_checked(const Swizzle& sw, i64 n, const std::string& unit) {
  sw.validate();
  int k = 0;
  while (k < 62 && (i64{1} << k) < n) ++k;
  if (n < 1 || (i64{1} << k) != n) throw LayoutError("upcast by " + std::to_string(n) + ": not a power of two");
  const int B = sw.B, M = sw.M, S = sw.S, new_m = M - k;
  if (new_m >= 0 || B == 0) return Swizzle{B, std::max(new_m, 0), S};
  // M < k: CuTe returns Sw<max(B+M-k,0), 0, S>, dropping the pairs whose bits lie inside a coarse
  // element. Pair 0 has a bit below k, so the swizzle moves units of an element: a set y bit below k
  // flips a z bit (S < 0: the element's inner unit goes to another element; both below k: the
  // element's units are permuted), a y bit at or above k flips a z bit below k (S > 0: the element's
  // first unit moves inside it). The unit at the y bit alone is the witness.
  const int y = S > 0 ? M + S : M, z = S > 0 ? M : M - S;
  const i64 from = i64{1} << y, to = sw.apply(from), mask = n - 1;
  const std::string u = unit.empty() ? "offset" : unit;
  const auto at = [&](i64 a) {
    return u + " " + std::to_string(a) + " (element " + std::to_string(a >> k) + "'s " + u + " " + std::to_string(a & mask) + ")";
  };
  const std::string where = unit.empty() ? " upcast by " + std::to_string(n) + " moves offsets of a coarse element: "
                                         : " on the " + unit + " addresses of " + std::to_string(n) + "-" + unit + " elements moves " +
                                               unit + "s inside an element: ";
  throw LayoutError(sw_text(sw) + where + u + "-address bit " + std::to_string(y) + " flips bit " + std::to_string(z) + " (M = " +
                    std::to_string(M) + " < log2(" + std::to_string(n) + ") = " + std::to_string(k) + "), so " + at(from) + " goes to " +
                    at(to) + "; CuTe's upcast<" + std::to_string(n) + "> gives " + sw_text(Swizzle{std::max(B + new_m, 0), 0, S}) +
                    ", which drops that bit pair: no element-level swizzle is equivalent");
}

Swizzle element_swizzle(const Swizzle& byte_sw, int elem_bits) {
  if (elem_bits < 1 || elem_bits > 1024 || (elem_bits & (elem_bits - 1)) != 0)
    throw LayoutError("smem_ptr[" + std::to_string(elem_bits) + "b]: the element size must be a power of two bits (1..1024)");
  byte_sw.validate();
  if (elem_bits >= 8) return upcast_swizzle_checked(byte_sw, elem_bits / 8, "byte");
  int log2_bits = 0;
  while ((1 << log2_bits) < elem_bits) ++log2_bits;
  Swizzle e{byte_sw.B, byte_sw.M + 3 - log2_bits, byte_sw.S};  // CuTe's downcast<8/elem_bits>
  e.validate();
  return e;
}

i64 absolute_bit_address(const AnyLayout& l, const IntTuple& coord_or_index, int elem_bits, i64 base) {
  const auto floor_div8 = [](i64 b) { return b >= 0 ? b / 8 : -((-b + 7) / 8); };
  if (l.is_smem_ptr()) {
    if (l.smem_ptr_bits != elem_bits)
      throw LayoutError(sw_text(l.byte_swizzle) + " o smem_ptr[" + std::to_string(l.smem_ptr_bits) + "b](unset) is a layout of " +
                        std::to_string(l.smem_ptr_bits) + "-bit elements, not " + std::to_string(elem_bits) + "-bit ones");
    const i64 b = checked_mul(checked_add(l.offset, evaluate(l.layout, coord_or_index)), elem_bits), byte = floor_div8(b);
    return checked_add(checked_mul(l.byte_swizzle.apply(checked_add(base, byte)), 8), b - byte * 8);
  }
  return checked_add(checked_mul(base, 8), checked_mul(evaluate(l, coord_or_index), elem_bits));
}

AnyLayout AnyLayout::smem_ptr(Swizzle byte_sw, int elem_bits, Layout l, bool allow_unevaluable) {
  byte_sw.validate();
  Swizzle element = byte_sw;
  bool evaluable = true;
  try {
    element = element_swizzle(byte_sw, elem_bits);
  } catch (const LayoutError&) {
    if (!allow_unevaluable || elem_bits < 1 || elem_bits > 1024 || (elem_bits & (elem_bits - 1)) != 0) throw;
    evaluable = false;
  }
  AnyLayout r(element, 0, std::move(l));
  r.evaluable = evaluable;
  r.smem_ptr_bits = elem_bits;
  r.byte_swizzle = byte_sw;
  return r;
}

static void need_evaluable(const AnyLayout& l) {
  if (!l.evaluable)
    throw LayoutError("Sw<" + std::to_string(l.byte_swizzle.B) + "," + std::to_string(l.byte_swizzle.M) + "," +
                      std::to_string(l.byte_swizzle.S) + "> o smem_ptr[" + std::to_string(l.smem_ptr_bits) +
                      "b](unset) moves bytes inside an element: its element offsets do not exist");
}

i64 evaluate(const AnyLayout& l, const IntTuple& coord_or_index) {
  need_evaluable(l);
  const i64 inner = evaluate(l.layout, coord_or_index);
  if (!l.swizzle) return inner;
  return l.swizzle->apply(checked_add(l.offset, inner));
}

std::vector<i64> offsets(const AnyLayout& l) {
  need_evaluable(l);
  std::vector<i64> out = offsets(l.layout);
  if (l.swizzle)
    for (i64& o : out) o = l.swizzle->apply(checked_add(l.offset, o));
  return out;
}

i64 cosize(const AnyLayout& l) { return cosize(l.layout); }

}  // namespace layoutproof

#include "model/layout/flat_layout_host.hpp"

namespace layoutproof {

FlatLayout to_flat(const AnyLayout& l) {
  need_evaluable(l);
  const std::vector<i64> s = leaves(l.layout.shape), d = leaves(l.layout.stride);
  if (s.size() > static_cast<std::size_t>(FlatLayout::kMaxModes))
    throw LayoutError("layout has " + std::to_string(s.size()) + " modes; FlatLayout holds at most " +
                      std::to_string(FlatLayout::kMaxModes));
  FlatLayout f;
  f.rank = static_cast<int>(s.size());
  for (std::size_t m = 0; m < s.size(); ++m) {
    f.shape[m] = s[m];
    f.stride[m] = d[m];
  }
  if (l.swizzle) {
    f.swizzled = true;
    f.swizzle = *l.swizzle;
    f.offset = l.offset;
  }
  return f;
}

}  // namespace layoutproof
