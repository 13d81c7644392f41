#include "model/algebra/composition_digits.hpp"

#include <cstdint>
#include <vector>

namespace layoutproof {
namespace {

// One digit of A: x contributes stride * ((x / base) mod radix), the last digit without the mod.
struct Digit {
  i64 radix, stride, base;
  i64 load = 0;  // the largest value the terms placed in this digit can add up to
};

// One leaf of R with what it adds to B's offset: t < size adds unit * t to B(c) and stride * t to R(c).
struct Term {
  i64 unit, size, stride;
};

// The plain integer leaves of a stride, or false when one is a basis element.
bool integer_leaves(const IntTuple& t, std::vector<i64>& out) {
  for (const IntTuple& d : leaf_nodes(t)) {
    if (d.is_basis()) return false;
    out.push_back(d.value());
  }
  return true;
}

bool product_is(i64 a, i64 b, i64 want) {
  i64 p;
  return !__builtin_mul_overflow(a, b, &p) && p == want;
}

i64 abs_checked(i64 v) {
  if (v == INT64_MIN) throw OverflowError("64-bit overflow: |" + std::to_string(v) + "|");
  return v < 0 ? -v : v;
}

// A's digits; empty when a mode has size < 1 (CuTe's evaluation then divides by it or by a negative).
std::vector<Digit> digits_of(const std::vector<i64>& s, const std::vector<i64>& d) {
  std::vector<Digit> out;
  i64 base = 1;
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (s[k] < 1) return {};
    const bool last = k + 1 == s.size();
    if (!last && s[k] == 1) continue;  // its digit is always 0
    if (!out.empty() && product_is(out.back().stride, out.back().radix, d[k]))
      out.back().radix = checked_mul(out.back().radix, s[k]);  // A adds a_k * (x_k + S_k * x_{k+1}): one digit
    else
      out.push_back({s[k], d[k], base});
    if (!last) base = checked_mul(base, s[k]);
  }
  return out;
}

// R's leaves under B's leaf (bs:bd), or the whole of B and R mode by mode; false unless compatible.
bool collect_terms(const IntTuple& bs, const IntTuple& bd, const IntTuple& rs, const IntTuple& rd, std::vector<Term>& out) {
  if (bs.is_tuple()) {
    if (rs.is_leaf() || rs.rank() != bs.rank()) return false;
    for (std::size_t i = 0; i < bs.rank(); ++i)
      if (!collect_terms(bs[i], bd[i], rs[i], rd[i], out)) return false;
    return true;
  }
  std::vector<i64> strides;
  if (bd.is_basis() || !integer_leaves(rd, strides)) return false;
  const std::vector<i64> sizes = leaves(rs);
  i64 below = 1;  // Q_l: the product of R's earlier leaves of this mode
  for (std::size_t l = 0; l < sizes.size(); ++l) {
    if (sizes[l] < 1) return false;
    out.push_back({checked_mul(bd.value(), below), sizes[l], strides[l]});
    below = checked_mul(below, sizes[l]);
  }
  return below == bs.value();
}

// The digit a term of unit w > 0 lies in: the last one with base <= w.
Digit& digit_of(std::vector<Digit>& digits, i64 w) {
  std::size_t i = 0;
  while (i + 1 < digits.size() && digits[i + 1].base <= w) ++i;
  return digits[i];
}

// Places each term in its digit; false when one crosses digits, has the wrong stride, or a load carries.
// `b_max` and `r_max` receive the largest |B(c)| and |R(c)|.
bool place_terms(std::vector<Digit>& digits, const std::vector<Term>& terms, i64& b_max, i64& r_max) {
  for (const Term& t : terms) {
    if (t.size == 1) continue;  // t = 0 only
    if (t.unit < 0) return false;
    b_max = checked_add(b_max, checked_mul(t.unit, t.size - 1));
    r_max = checked_add(r_max, checked_mul(abs_checked(t.stride), t.size - 1));
    if (t.unit == 0) {
      if (t.stride != 0) return false;
      continue;
    }
    Digit& g = digit_of(digits, t.unit);
    if (t.unit % g.base != 0) return false;
    const i64 u = t.unit / g.base;
    if (!product_is(g.stride, u, t.stride)) return false;
    g.load = checked_add(g.load, checked_mul(u, t.size - 1));
  }
  for (std::size_t i = 0; i + 1 < digits.size(); ++i)
    if (digits[i].load >= digits[i].radix) return false;
  return true;
}

// The largest |partial sum| crd2idx meets evaluating A at x in [0, x_max], leaf by leaf (the enumeration's
// arithmetic, which throws on overflow where this proof must say "not shown").
i64 evaluation_bound(const std::vector<i64>& s, const std::vector<i64>& d, i64 x_max) {
  i64 bound = 0, below = 1;
  for (std::size_t k = 0; k + 1 < s.size(); ++k) {
    bound = checked_add(bound, checked_mul(abs_checked(d[k]), s[k] - 1));
    below = checked_mul(below, s[k]);
  }
  return checked_add(bound, checked_mul(abs_checked(d.back()), x_max / below));
}

bool holds(const Layout& a, const Layout& b, const Layout& r) {
  std::vector<i64> as = leaves(a.shape), ad;
  if (!integer_leaves(a.stride, ad)) return false;
  std::vector<Digit> digits = digits_of(as, ad);
  std::vector<Term> terms;
  if (digits.empty() || !collect_terms(b.shape, b.stride, r.shape, r.stride, terms)) return false;
  i64 b_max = 0, r_max = 0;
  if (!place_terms(digits, terms, b_max, r_max)) return false;
  evaluation_bound(as, ad, b_max);  // throws when the enumeration's arithmetic would
  return true;
}

}  // namespace

bool composition_holds_by_digits(const Layout& a, const Layout& b, const Layout& r) {
  try {
    return holds(a, b, r);
  } catch (const OverflowError&) {
    return false;  // not shown: the enumeration then meets (and reports) the overflow itself
  }
}

}  // namespace layoutproof
