#include "model/algebra/recast.hpp"

#include <cstdlib>
#include <string>

#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

int log2_exact(i64 n) {
  int k = 0;
  while ((i64{1} << k) < n) ++k;
  if ((i64{1} << k) != n) throw LayoutError("upcast by " + std::to_string(n) + ": not a power of two");
  return k;
}

}  // namespace

Layout upcast(const Layout& l, i64 n) {
  if (n < 1) throw LayoutError("upcast by " + std::to_string(n) + ": not positive");
  const std::vector<i64> d = leaves(l.stride);
  std::size_t k = 0;
  IntTuple shape = transform_leaves(l.shape, [&](i64 s) {
    const i64 dk = d[k++];
    if (dk == 0) return s;
    const i64 ad = std::llabs(dk);
    if (ad % n != 0 && n % ad != 0)
      throw LayoutError("upcast<" + std::to_string(n) + "> of " + to_string(l) + ": Divisibility condition fails for stride " +
                        std::to_string(dk));
    return ceil_div(s, ceil_div(n, ad));
  });
  IntTuple stride = transform_leaves(l.stride, [&](i64 dk) { return dk == 0 ? 0 : signum(dk) * ceil_div(std::llabs(dk), n); });
  return Layout(shape, stride);
}

AnyLayout upcast(const AnyLayout& l, i64 n) {
  if (!l.swizzle) return AnyLayout(upcast(l.layout, n));
  // CuTe (pointer_flagged.hpp): the byte swizzle stays, the flag's element bits grow n times.
  if (l.is_smem_ptr()) return AnyLayout::smem_ptr(l.byte_swizzle, static_cast<int>(l.smem_ptr_bits * n), upcast(l.layout, n));
  (void)log2_exact(n);
  // CuTe's upcast<n>(Swizzle), refused where the swizzle moves offsets inside a coarse element.
  const Swizzle sw = upcast_swizzle_checked(*l.swizzle, n);
  if (l.offset % n != 0) throw LayoutError("upcast<" + std::to_string(n) + ">: offset " + std::to_string(l.offset) + " is not a multiple");
  return AnyLayout(sw, l.offset / n, upcast(l.layout, n));
}

}  // namespace layoutproof
