// The exhaustive twin (conventions.md #6): every claim decided by enumerating its domain, with
// the same minimal violations the Z3 engine reports (smallest index first).
#include <algorithm>
#include <chrono>
#include <numeric>

#include "proofs/claims/engine.hpp"

namespace layoutproof::proofs {
namespace {

constexpr i64 kVectorLimit = i64{1} << 26;  // claims that keep every offset in memory

// The time budget of one enumeration (hostile input H6c: 2^30 indices ran for minutes): polled
// every 2^16 steps; past it the claim is UNKNOWN, never decided.
struct OutOfTime {};
class Budget {
 public:
  explicit Budget(unsigned ms)
      : ms_(ms), end_(std::chrono::steady_clock::now() + std::chrono::milliseconds(ms)) {}
  void poll() {
    if (ms_ != 0 && (++ticks_ & 0xFFFF) == 0 && std::chrono::steady_clock::now() > end_) throw OutOfTime{};
  }
  unsigned ms() const { return ms_; }

 private:
  unsigned ms_;
  std::chrono::steady_clock::time_point end_;
  i64 ticks_ = 0;
};

// Streams L(0), L(1), ... (colexicographic odometer over the flattened modes) without storing
// them; f(index, offset) returns false to stop.
// f(i, L(i)) over the domain in index order, the swizzle applied; stops when f returns false.
template <class F>
void for_each_offset(const AnyLayout& l, Budget& b, F&& f) {
  layoutproof::for_each_offset(l.layout, [&](i64 i, i64 inner) {
    b.poll();
    return f(i, l.swizzle ? l.swizzle->apply(checked_add(l.offset, inner)) : inner);
  });
}

struct Bits {
  std::vector<std::uint64_t> w;
  explicit Bits(i64 n) : w(static_cast<std::size_t>((n + 63) / 64), 0) {}
  bool get(i64 i) const { return (w[static_cast<std::size_t>(i >> 6)] >> (i & 63)) & 1; }
  void set(i64 i) { w[static_cast<std::size_t>(i >> 6)] |= std::uint64_t{1} << (i & 63); }
};

Outcome<Violation> holds(std::string text, i64 n) {
  Outcome<Violation> o;
  o.kind = OutcomeKind::holds;
  o.text = std::move(text);
  o.method = "exhaustive check of " + std::to_string(n) + " indices";
  return o;
}
Outcome<Violation> violated(Violation::Kind k, i64 a, i64 b, i64 n) {
  Outcome<Violation> o;
  o.kind = OutcomeKind::violated;
  o.witness = {k, a, b};
  o.method = "exhaustive check of " + std::to_string(n) + " indices";
  return o;
}
Outcome<Violation> error(std::string msg) {
  Outcome<Violation> o;
  o.kind = OutcomeKind::error;
  o.text = std::move(msg);
  o.method = "exhaustive";
  return o;
}

// The colliding pair with the smallest first index, then the smallest second index.
std::optional<std::pair<i64, i64>> first_collision(const std::vector<i64>& offs, Budget& budget) {
  std::vector<i64> idx(offs.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](i64 a, i64 b) { return budget.poll(), offs[a] < offs[b]; });
  std::optional<std::pair<i64, i64>> best;
  for (std::size_t k = 0; k + 1 < idx.size(); ++k)
    if (offs[idx[k]] == offs[idx[k + 1]] && (k == 0 || offs[idx[k - 1]] != offs[idx[k]]))
      if (!best || idx[k] < best->first) best = std::make_pair(idx[k], idx[k + 1]);
  return best;
}

// Collision search for a map into [0, n) (every offset already checked to lie there): three
// streaming passes over bitsets, so 2^30 indices fit in 2 x 128 MiB.
std::optional<std::pair<i64, i64>> first_collision_in_range(const AnyLayout& l, i64 n, Budget& b) {
  Bits seen(n), dup(n);
  bool any = false;
  for_each_offset(l, b, [&](i64, i64 o) {
    if (seen.get(o)) dup.set(o), any = true;
    seen.set(o);
    return true;
  });
  if (!any) return std::nullopt;
  i64 first = -1, value = 0, second = -1;
  for_each_offset(l, b, [&](i64 i, i64 o) {
    if (first < 0 && dup.get(o)) first = i, value = o;
    else if (first >= 0 && o == value) { second = i; return false; }
    return true;
  });
  return std::make_pair(first, second);
}

// bijective: every offset in [0, n) and no collision (n indices into [0, n): a permutation).
Outcome<Violation> bijective(const Subject& s, Budget& b) {
  const AnyLayout& l = s.layout;
  const i64 n = size(l.layout);
  i64 bad = -1;
  for_each_offset(l, b, [&](i64 i, i64 o) {
    if (o < 0 || o >= n) bad = i;
    return bad < 0;
  });
  if (bad >= 0) return violated(Violation::Kind::not_in_target, bad, -1, n);
  if (auto c = first_collision_in_range(l, n, b)) return violated(Violation::Kind::collision, c->first, c->second, n);
  return holds("injective, image = [0," + std::to_string(n) + ")", n);
}

// swizzle-permutes: every offset in image(inner) and no collision. When the inner layout is a
// permutation of [0, n) its image is [0, n) and the bitset passes of bijective decide it;
// otherwise the inner image is a sorted set (at most 2^26 offsets).
Outcome<Violation> swizzle_permutes(const Subject& s, Budget& b) {
  const AnyLayout& l = s.layout;
  const i64 n = size(l.layout);
  const AnyLayout inner(l.layout);
  bool in_range = true;
  for_each_offset(inner, b, [&](i64, i64 o) { return in_range = (o >= 0 && o < n); });
  if (in_range && !first_collision_in_range(inner, n, b)) {
    Outcome<Violation> o = bijective(s, b);
    if (o.kind == OutcomeKind::holds) o.text = "injective, image = image of the inner layout = [0," + std::to_string(n) + ")";
    return o;
  }
  if (n > kVectorLimit) return error("exhaustive: inner image set larger than 2^26");
  std::vector<i64> target = offsets(l.layout);
  std::sort(target.begin(), target.end());
  i64 bad = -1;
  for_each_offset(l, b, [&](i64 i, i64 o) {
    if (!std::binary_search(target.begin(), target.end(), o)) bad = i;
    return bad < 0;
  });
  if (bad >= 0) return violated(Violation::Kind::not_in_target, bad, -1, n);
  if (auto c = first_collision(offsets(l), b)) return violated(Violation::Kind::collision, c->first, c->second, n);
  return holds("injective, image = image of the inner layout", n);
}

Outcome<Violation> swizzle_claim(const Swizzle& sw, const Claim& c, Budget& b) {
  const int span = sw.span_bits();
  if (span > 26) return error("exhaustive: swizzle domain 2^" + std::to_string(span) + " too large");
  const i64 n = i64{1} << span;
  if (c.kind == Claim::Kind::involution) {
    for (i64 v = 0; v < n; ++v)
      if (sw.apply(sw.apply(v)) != v) return violated(Violation::Kind::not_involution, v, -1, n);
    return holds("Sw(Sw(v)) == v for v < 2^" + std::to_string(span), n);
  }
  if (c.kind != Claim::Kind::bijective && c.kind != Claim::Kind::injective)
    return error("a bare swizzle supports bijective, injective and involution");
  std::vector<i64> offs(static_cast<std::size_t>(n));
  for (i64 v = 0; v < n; ++v) offs[v] = sw.apply(v);
  if (auto col = first_collision(offs, b)) return violated(Violation::Kind::collision, col->first, col->second, n);
  return holds("injective on [0,2^" + std::to_string(span) + "), hence on every offset", n);
}

}  // namespace

Outcome<Violation> check_exhaustive(const Subject& s, const Claim& c, unsigned budget_ms) {
  Budget b(budget_ms);
  try {
    if (s.bare_swizzle || c.kind == Claim::Kind::involution) {
      if (!s.layout.swizzle) return error("involution applies to swizzles");
      return swizzle_claim(*s.layout.swizzle, c, b);
    }
    const AnyLayout& l = s.layout;
    const i64 n = size(l.layout);
    if (n > kExhaustiveLimit) return error("exhaustive: domain larger than 2^30");
    if (c.kind == Claim::Kind::bijective) return bijective(s, b);
    if (c.kind == Claim::Kind::swizzle_permutes) return swizzle_permutes(s, b);
    if (n > kVectorLimit) return error("exhaustive: this claim keeps offsets in memory, limited to 2^26");
    const std::vector<i64> offs = offsets(l);
    b.poll();
    switch (c.kind) {
      case Claim::Kind::injective: {
        if (auto col = first_collision(offs, b)) return violated(Violation::Kind::collision, col->first, col->second, n);
        return holds("injective", n);
      }
      case Claim::Kind::surjective: {
        if (c.n > kVectorLimit) return error("exhaustive: N larger than 2^26");
        Bits hit(c.n);
        for (i64 o : offs)
          if (o >= 0 && o < c.n) hit.set(o);
        for (i64 o = 0; o < c.n; ++o)
          if (!hit.get(o)) return violated(Violation::Kind::missing, o, -1, n);
        return holds("image covers [0," + std::to_string(c.n) + ")", n);
      }
      case Claim::Kind::contiguous: {
        if (c.mode >= l.layout.rank()) return error("contiguous: the layout has no mode " + std::to_string(c.mode));
        const i64 p_m = mode_stride_product(l.layout, c.mode), s_m = product(l.layout.shape[c.mode]);
        const i64 v = c.n;
        if (s_m % v != 0) return violated(Violation::Kind::not_contiguous, (s_m - s_m % v) * p_m, -1, n);
        for (i64 i = 0; i < n; ++i) {
          b.poll();
          const i64 j = (i / p_m) % s_m % v, base = i - j * p_m;
          const i64 r = ((offs[base] % v) + v) % v;
          if (offs[i] != offs[base] + j || r != 0) return violated(Violation::Kind::not_contiguous, i, -1, n);
        }
        return holds("groups of " + std::to_string(v) + " along mode " + std::to_string(c.mode) +
                         " are contiguous and aligned", n);
      }
      case Claim::Kind::equivalent: {
        const i64 n2 = size(c.other->layout);
        if (n2 != n) return violated(Violation::Kind::size_mismatch, std::min(n, n2), -1, n);
        const std::vector<i64> o2 = offsets(*c.other);
        for (i64 i = 0; i < n; ++i)
          if (b.poll(), offs[i] != o2[i]) return violated(Violation::Kind::mismatch, i, -1, n);
        return holds("L(x) == L2(x) for every x", n);
      }
      case Claim::Kind::inverse: {
        const i64 nr = size(c.other->layout);
        for (i64 i = 0; i < n; ++i)
          if (b.poll(), offs[i] < 0 || offs[i] >= nr || evaluate(*c.other, IntTuple(offs[i])) != i)
            return violated(Violation::Kind::mismatch, i, -1, n);
        return holds("R(L(x)) == x for every x", n);
      }
      default: return error("unsupported claim");
    }
  } catch (const LayoutError& e) {
    return error(std::string("exhaustive: ") + e.what());
  } catch (const OutOfTime&) {
    Outcome<Violation> o;
    o.kind = OutcomeKind::unknown;
    o.method = "exhaustive";
    o.text = "exhaustive: the enumeration ran past its time budget of " + std::to_string(b.ms()) +
             " ms (--timeout-ms, clipped to --deadline-s)";
    return o;
  }
}

}  // namespace layoutproof::proofs
