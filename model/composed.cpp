#include "model/composed.hpp"

#include <algorithm>

namespace layoutproof {

Swizzle element_swizzle(const Swizzle& byte_sw, int elem_bits) {
  if (elem_bits < 1 || elem_bits > 1024 || (elem_bits & (elem_bits - 1)) != 0)
    throw LayoutError("smem_ptr[" + std::to_string(elem_bits) + "b]: the element size must be a power of two bits (1..1024)");
  int log2_bits = 0;
  while ((1 << log2_bits) < elem_bits) ++log2_bits;
  const int m = byte_sw.M + 3 - log2_bits;  // bytes -> elements: M - log2(bits/8)
  if (m < 0 && byte_sw.B > 0)
    throw LayoutError("Sw<" + std::to_string(byte_sw.B) + "," + std::to_string(byte_sw.M) + "," + std::to_string(byte_sw.S) +
                      "> on the byte addresses of " + std::to_string(elem_bits) + "-bit elements moves bytes inside an element (M = " +
                      std::to_string(byte_sw.M) + " < log2(" + std::to_string(elem_bits / 8) +
                      " bytes)): no element-level layout is equivalent");
  Swizzle e{byte_sw.B, m < 0 ? 0 : m, byte_sw.S};
  e.validate();
  return e;
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

#include "model/flat_layout_host.hpp"

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
