// XOR-linear swizzle search over GF(2) (proofs/synth/gf2.hpp).
#include "proofs/synth/gf2.hpp"

#include <cassert>

namespace layoutproof::proofs {

std::int64_t Gf2Map::xor_of_unit(std::int64_t u) const {
  std::int64_t x = 0;
  const std::int64_t h = u >> w;
  for (int k = 0; k < high_bits; ++k)
    if ((h >> k) & 1) x ^= cols[k];
  return x;
}

std::int64_t Gf2Map::apply_byte(std::int64_t a) const {
  if (a < 0) return a;
  const std::int64_t unit = a >> unit_log2, rest = a & ((std::int64_t{1} << unit_log2) - 1);
  return ((unit ^ xor_of_unit(unit)) << unit_log2) | rest;
}

bool Gf2Map::is_identity() const {
  for (auto c : cols)
    if (c) return false;
  return true;
}

namespace {

struct Backtrack {
  int w, H;
  std::vector<std::vector<std::uint32_t>> bucket;  // per top high bit: d values (d_h << w | d_l)
  std::vector<std::uint32_t> cols;
  std::int64_t nodes = 0, budget = 0;
  bool out_of_budget = false;

  bool ok_at(int k) const {
    const std::uint32_t lmask = (1u << w) - 1;
    for (std::uint32_t d : bucket[k]) {
      std::uint32_t h = d >> w, x = 0;
      for (int b = 0; h; ++b, h >>= 1)
        if (h & 1) x ^= cols[b];
      if (x == (d & lmask)) return false;
    }
    return true;
  }
  bool run(int k) {
    if (k == H) return true;
    for (std::uint32_t a = 0; a < (1u << w); ++a) {
      if (++nodes > budget) {
        out_of_budget = true;
        return false;
      }
      cols[k] = a;
      if (ok_at(k) && run(k + 1)) return true;
      if (out_of_budget) return false;
    }
    cols[k] = 0;
    return false;
  }
};

}  // namespace

Gf2Search search_gf2(const std::vector<std::vector<std::int64_t>>& phases, int unit_log2, int w, int unit_bits,
                     std::int64_t budget) {
  assert(w >= 1 && w <= 5 && unit_bits <= 30);
  const int H = unit_bits > w ? unit_bits - w : 0;
  std::vector<char> seen(std::size_t{1} << unit_bits, 0);
  Backtrack bt{w, H, std::vector<std::vector<std::uint32_t>>(H), std::vector<std::uint32_t>(H, 0), 0, budget, false};
  Gf2Search r;
  r.log2_space = static_cast<double>(w) * H;
  for (const auto& ph : phases)
    for (std::size_t i = 0; i < ph.size(); ++i)
      for (std::size_t j = i + 1; j < ph.size(); ++j) {
        const auto d = static_cast<std::uint32_t>(ph[i] ^ ph[j]);
        if (d == 0 || seen[d]) continue;  // same unit: a broadcast, never a conflict
        seen[d] = 1;
        ++r.differences;
        const std::uint32_t h = d >> w;
        if (h == 0) continue;  // differ only in bank bits: never a conflict, whatever A is
        int top = 31 - __builtin_clz(h);
        bt.bucket[top].push_back(d);
      }
  const bool found = bt.run(0);
  r.nodes = bt.nodes;
  r.map = Gf2Map{unit_log2, w, H, bt.cols};
  r.kind = found ? Gf2Search::Kind::found : bt.out_of_budget ? Gf2Search::Kind::budget_exhausted : Gf2Search::Kind::none;
  return r;
}

std::vector<std::string> matrix_lines(const Gf2Map& m) {
  std::vector<std::string> out;
  for (int i = 0; i < m.w; ++i) {
    std::string s;
    for (int k = 0; k < m.high_bits; ++k) s += ((m.cols[k] >> i) & 1) ? '1' : '0';
    out.push_back(s);
  }
  return out;
}

}  // namespace layoutproof::proofs
