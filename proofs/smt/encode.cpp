#include "proofs/smt/encode.hpp"

#include <cstdlib>

namespace layoutproof::proofs::smt {

Coords Encoder::coords(const Layout& l, const std::string& prefix) const {
  const std::vector<i64> s = leaves(l.shape);
  Coords out{{}, ctx_.bool_val(true), k(0)};
  i64 p = 1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    z3::expr c = var(prefix + std::to_string(i));
    out.domain = out.domain && z3::sge(c, k(0)) && z3::slt(c, k(s[i]));
    out.index = out.index + c * k(p);
    out.c.push_back(c);
    p = checked_mul(p, s[i]);
  }
  return out;
}

z3::expr Encoder::inner(const Layout& l, const std::vector<z3::expr>& c) const {
  const std::vector<i64> d = leaves(l.stride);
  z3::expr sum = k(0);
  for (std::size_t i = 0; i < d.size(); ++i)
    if (d[i] != 0) sum = sum + c[i] * k(d[i]);
  return sum;
}

z3::expr Encoder::at_index(const Layout& l, const z3::expr& x) const {
  const std::vector<i64> s = leaves(l.shape), d = leaves(l.stride);
  z3::expr sum = k(0);
  i64 p = 1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (d[i] != 0 && s[i] != 1) sum = sum + z3::urem(z3::udiv(x, k(p)), k(s[i])) * k(d[i]);
    p = checked_mul(p, s[i]);
  }
  return sum;
}

z3::expr Encoder::swizzle(const Swizzle& s, const z3::expr& v) const {
  const z3::expr y = v & k(s.yyy_msk());
  return v ^ (s.S >= 0 ? z3::lshr(y, k(s.S)) : z3::shl(y, k(-s.S)));
}

z3::expr Encoder::compose(const AnyLayout& l, const z3::expr& inner_offset) const {
  if (!l.swizzle) return inner_offset;
  return swizzle(*l.swizzle, l.offset == 0 ? inner_offset : inner_offset + k(l.offset));
}

unsigned width_for(i64 bound) {
  unsigned bits = 1;
  while (bits < 63 && (i64{1} << bits) <= bound) ++bits;
  const unsigned w = std::max(bits + 2, 8u);
  if (w > 64) throw LayoutError("the domain needs more than 64-bit offsets");
  return w;
}

i64 magnitude(const AnyLayout& l) {
  const std::vector<i64> s = leaves(l.layout.shape), d = leaves(l.layout.stride);
  i64 lo = 0, hi = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const i64 t = checked_mul(s[i] - 1, d[i]);
    (t < 0 ? lo : hi) = checked_add(t < 0 ? lo : hi, t);
  }
  i64 m = std::max({checked_sub(0, lo), hi, size(l.layout)});
  if (l.swizzle) {
    m = checked_add(m, l.offset < 0 ? checked_sub(0, l.offset) : l.offset);
    const int span = l.swizzle->span_bits();
    if (span >= 61) throw LayoutError("swizzle span too large for 64-bit encodings");
    m = std::max(m, i64{1} << span);
  }
  return m;
}

}  // namespace layoutproof::proofs::smt
