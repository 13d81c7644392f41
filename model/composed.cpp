#include "model/composed.hpp"

#include <algorithm>

namespace layoutproof {

i64 evaluate(const AnyLayout& l, const IntTuple& coord_or_index) {
  const i64 inner = evaluate(l.layout, coord_or_index);
  if (!l.swizzle) return inner;
  return l.swizzle->apply(checked_add(l.offset, inner));
}

std::vector<i64> offsets(const AnyLayout& l) {
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
