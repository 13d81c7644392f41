// The soak's independent reference: layouts and layout claims (see reference.hpp). Bank model,
// patterns, rasterizations and partitions are in reference_bank.cpp and reference_kernel.cpp.
#include "tests/soak/reference.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace soakref {

Node leaf(i64 shape, i64 stride, bool dynamic) {
  Node n;
  n.shape = shape;
  n.stride = stride;
  n.dynamic = dynamic;
  return n;
}
Node tuple(std::vector<Node> kids) {
  Node n;
  n.leaf = false;
  n.kids = std::move(kids);
  return n;
}

i64 Swz::apply(i64 v) const {
  const i64 mask = ((i64{1} << B) - 1) << (M + std::max(S, 0));
  const i64 y = v & mask;
  return v ^ (S >= 0 ? (y >> S) : (y << -S));
}
std::string Swz::text() const {
  return "Sw<" + std::to_string(B) + "," + std::to_string(M) + "," + std::to_string(S) + ">";
}

namespace {
// Static leaves print as _N; a negative value cannot be static in CuTe's text, so it prints as N.
std::string int_text(i64 v, bool dynamic) { return (dynamic || v < 0) ? std::to_string(v) : "_" + std::to_string(v); }

template <class F>
std::string node_text(const Node& n, F value) {
  if (n.leaf) return int_text(value(n), n.dynamic);
  std::string s = "(";
  for (std::size_t i = 0; i < n.kids.size(); ++i) s += (i ? "," : "") + node_text(n.kids[i], value);
  return s + ")";
}
void flatten(const Node& n, std::vector<std::pair<i64, i64>>& out) {
  if (n.leaf) {
    out.emplace_back(n.shape, n.stride);
    return;
  }
  for (const Node& k : n.kids) flatten(k, out);
}
i64 node_size(const Node& n) {
  i64 p = 1;
  std::vector<std::pair<i64, i64>> f;
  flatten(n, f);
  for (auto& [s, d] : f) p *= s;
  return p;
}
i64 mod(i64 a, i64 m) { return ((a % m) + m) % m; }
}  // namespace

std::string node_text_shape(const Node& n) { return node_text(n, [](const Node& x) { return x.shape; }); }
std::string node_text_stride(const Node& n) { return node_text(n, [](const Node& x) { return x.stride; }); }

std::string RLayout::text() const {
  const std::string l = node_text_shape(inner) + ":" + node_text_stride(inner);
  if (smem_bytes > 0) return sw->text() + " o smem_ptr[" + std::to_string(8 * smem_bytes) + "b](unset) o " + l;
  if (sw) return sw->text() + " o " + std::to_string(off) + " o " + l;
  return l;
}

std::vector<std::pair<i64, i64>> RLayout::flat() const {
  std::vector<std::pair<i64, i64>> f;
  flatten(inner, f);
  return f;
}
i64 RLayout::size() const { return node_size(inner); }
std::size_t RLayout::rank() const { return inner.leaf ? 1 : inner.kids.size(); }
std::vector<Node> RLayout::modes() const { return inner.leaf ? std::vector<Node>{inner} : inner.kids; }

i64 RLayout::inner_at(i64 x) const {
  i64 o = 0;
  for (auto& [s, d] : flat()) {
    o += (x % s) * d;
    x /= s;
  }
  return o;
}
i64 RLayout::at(i64 x) const {
  const i64 o = inner_at(x);
  if (smem_bytes > 0) return sw->apply(o * smem_bytes) / smem_bytes;
  if (sw) return sw->apply(off + o);
  return o;
}
std::vector<i64> RLayout::offsets() const {
  std::vector<i64> v;
  for (i64 x = 0; x < size(); ++x) v.push_back(at(x));
  return v;
}

int ref_default_mode(const RLayout& l) {
  const std::vector<Node> m = l.modes();
  for (std::size_t i = 0; i < m.size(); ++i) {
    std::vector<std::pair<i64, i64>> f;
    flatten(m[i], f);
    if (f.front().second == 1 && node_size(m[i]) > 1) return static_cast<int>(i);
  }
  return 0;
}

bool ref_layout_claim(const RLayout& l, LClaim c, i64 n, int mode, const RLayout* other) {
  const std::vector<i64> offs = l.offsets();
  const i64 sz = l.size();
  const std::set<i64> image(offs.begin(), offs.end());
  const bool injective = static_cast<i64>(image.size()) == sz;
  switch (c) {
    case LClaim::injective: return injective;
    case LClaim::bijective: {
      // A permutation of [0, size), swizzled or not (a swizzle that permutes the inner layout's own
      // image is the other claim, swizzle-permutes).
      std::set<i64> target;
      for (i64 o = 0; o < sz; ++o) target.insert(o);
      return injective && image == target;
    }
    case LClaim::surjective:
      for (i64 o = 0; o < n; ++o)
        if (!image.count(o)) return false;
      return true;
    case LClaim::contiguous: {
      const std::vector<Node> m = l.modes();
      const int md = mode < 0 ? ref_default_mode(l) : mode;
      i64 p = 1;
      for (int i = 0; i < md; ++i) p *= node_size(m[static_cast<std::size_t>(i)]);
      const i64 s = node_size(m[static_cast<std::size_t>(md)]);
      if (s % n != 0) return false;
      for (i64 x = 0; x < sz; ++x) {
        const i64 j = (x / p) % s % n, base = x - j * p;
        if (offs[x] != offs[base] + j || mod(offs[base], n) != 0) return false;
      }
      return true;
    }
    case LClaim::equivalent:
      return other->size() == sz && other->offsets() == offs;
    case LClaim::inverse: {
      const i64 nr = other->size();
      for (i64 x = 0; x < sz; ++x)
        if (offs[x] < 0 || offs[x] >= nr || other->at(offs[x]) != x) return false;
      return true;
    }
  }
  throw std::logic_error("claim");
}

}  // namespace soakref
