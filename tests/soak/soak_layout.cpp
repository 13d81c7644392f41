// Layout claims and bank claims of the soak: random inputs, valid by construction, built as the
// reference's structures and printed as the CLI's text; the product parses the text.
#include <algorithm>
#include <numeric>

#include "model/trace/access.hpp"
#include "model/layout/notation.hpp"
#include "proofs/claims/bank_claims.hpp"
#include "proofs/claims/claim.hpp"
#include "proofs/claims/prove.hpp"
#include "tests/soak/reference.hpp"
#include "tests/soak/soak.hpp"

namespace soak {

using namespace soakref;
namespace lp = layoutproof;
namespace pf = layoutproof::proofs;

std::string verdict_name(lp::proofs::Verdict::Kind k) { return lp::proofs::to_string(k); }

namespace {

// Regroups flat leaves into a random nesting of depth <= 3 (colexicographic order kept).
Node nest(Rng& r, const std::vector<Node>& ls, int depth) {
  if (ls.size() == 1 && (depth == 0 || coin(r, 30))) return ls[0];
  if (depth == 0 || ls.size() == 1) return tuple(ls);
  std::vector<Node> kids;
  std::size_t at = 0;
  while (at < ls.size()) {
    const std::size_t take = static_cast<std::size_t>(uniform(r, 1, static_cast<std::int64_t>(ls.size() - at)));
    std::vector<Node> part(ls.begin() + static_cast<long>(at), ls.begin() + static_cast<long>(at + take));
    kids.push_back(part.size() == 1 && coin(r) ? part[0] : nest(r, part, depth - 1));
    at += take;
  }
  return tuple(kids);
}

struct Draw {
  std::vector<Node> leaves;
  bool compact = false;  // a permuted column-major layout (a bijection onto [0, size))
};

// Flat leaves: shapes with product <= max_size; strides compact (permuted), padded, with zeros,
// negative or arbitrary.
Draw draw_leaves(Rng& r, std::int64_t max_size) {
  Draw d;
  const int n = static_cast<int>(uniform(r, 1, 4));
  std::vector<std::int64_t> shape;
  for (int i = 0; i < n; ++i) shape.push_back(pick(r, std::vector<std::int64_t>{1, 2, 2, 2, 3, 4, 4, 8, 5, 6, 16}));
  auto prod = [&] { return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>()); };
  while (prod() > max_size) *std::max_element(shape.begin(), shape.end()) = 1;
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), r);
  std::vector<std::int64_t> stride(static_cast<std::size_t>(n));
  const int kind = static_cast<int>(uniform(r, 0, 9));
  if (kind <= 4) {  // compact or padded, permuted
    const bool pad = kind >= 3;
    std::int64_t run = 1;
    for (int i : order) {
      stride[static_cast<std::size_t>(i)] = run;
      run *= shape[static_cast<std::size_t>(i)] * (pad ? uniform(r, 1, 3) : 1);
    }
    d.compact = !pad;
    if (kind == 4) {  // broadcast: some strides 0
      d.compact = false;
      stride[static_cast<std::size_t>(uniform(r, 0, n - 1))] = 0;
    }
    if (kind == 3 && coin(r, 30)) {  // a negative stride
      d.compact = false;
      stride[static_cast<std::size_t>(uniform(r, 0, n - 1))] *= -1;
    }
  } else {
    for (auto& s : stride) s = uniform(r, -12, 12);
  }
  for (int i = 0; i < n; ++i)
    d.leaves.push_back(leaf(shape[static_cast<std::size_t>(i)], stride[static_cast<std::size_t>(i)], coin(r, 40)));
  return d;
}

Swz draw_swizzle(Rng& r, int min_m = 0) {
  Swz s;
  s.B = static_cast<int>(uniform(r, 0, 3));
  s.M = static_cast<int>(uniform(r, min_m, min_m + 4));
  const int a = s.B + static_cast<int>(uniform(r, 0, 3));
  s.S = coin(r, 25) ? -a : a;
  return s;
}

RLayout draw_layout(Rng& r, std::int64_t max_size, bool* compact = nullptr) {
  const Draw d = draw_leaves(r, max_size);
  RLayout l;
  l.inner = nest(r, d.leaves, static_cast<int>(uniform(r, 0, 3)));
  const int form = static_cast<int>(uniform(r, 0, 9));
  if (form >= 5 && form <= 7) {
    l.sw = draw_swizzle(r);
    const int span = l.sw->M + l.sw->B + std::abs(l.sw->S);
    l.off = coin(r, 50) ? 0 : uniform(r, 0, (std::int64_t{1} << (span + 1)) - 1);
  } else if (form >= 8) {
    l.smem_bytes = static_cast<int>(pick(r, std::vector<std::int64_t>{1, 2, 4, 8}));
    int k = 0;
    while ((1 << k) < l.smem_bytes) ++k;
    l.sw = draw_swizzle(r, k);  // M >= log2(element bytes): an element-level swizzle exists
  }
  if (compact) *compact = d.compact && !l.sw;
  return l;
}

// The inverse of a permuted column-major layout: its leaves sorted by stride, each with the
// colexicographic weight of its position in L's index.
RLayout compact_inverse(const RLayout& l) {
  const auto f = l.flat();
  std::vector<std::pair<std::int64_t, std::size_t>> by_stride;
  for (std::size_t i = 0; i < f.size(); ++i)
    if (f[i].first > 1) by_stride.push_back({f[i].second, i});
  std::sort(by_stride.begin(), by_stride.end());
  std::vector<Node> ls;
  for (auto [d, i] : by_stride) {
    std::int64_t w = 1;
    for (std::size_t j = 0; j < i; ++j) w *= f[j].first;
    ls.push_back(leaf(f[i].first, w, true));
  }
  RLayout inv;
  inv.inner = ls.empty() ? leaf(1, 0) : (ls.size() == 1 ? ls[0] : tuple(ls));
  return inv;
}

std::string run_error(const pf::Verdict& v) { return v.method + ": " + v.detail; }

}  // namespace

Case layout_case(Rng& r) {
  Case c;
  c.kind = "layout";
  bool compact = false;
  const RLayout l = draw_layout(r, 256, &compact);
  const std::int64_t n = l.size();
  RLayout other;
  std::string claim;
  LClaim lc = LClaim::injective;
  std::int64_t arg = 0;
  int mode = -1;
  switch (uniform(r, 0, 5)) {
    case 0: lc = LClaim::injective; claim = "injective"; break;
    case 1: lc = LClaim::bijective; claim = "bijective"; break;
    case 2:
      lc = LClaim::surjective;
      arg = uniform(r, 1, n + 2);
      claim = "surjective:" + std::to_string(arg);
      break;
    case 3: {
      lc = LClaim::contiguous;
      arg = pick(r, std::vector<std::int64_t>{1, 2, 2, 3, 4, 4, 8});
      claim = "contiguous:" + std::to_string(arg);
      if (coin(r, 30)) {
        mode = static_cast<int>(uniform(r, 0, static_cast<std::int64_t>(l.rank()) - 1));
        claim += "@" + std::to_string(mode);
      }
      break;
    }
    case 4: {
      lc = LClaim::equivalent;
      other = l;
      const int how = static_cast<int>(uniform(r, 0, 2));
      std::vector<Node> fl;
      for (auto [s, d] : l.flat()) fl.push_back(leaf(s, d, coin(r)));
      if (how == 0) {
        other.inner = nest(r, fl, 2);  // the same function, nested differently
      } else if (how == 1) {
        fl[static_cast<std::size_t>(uniform(r, 0, static_cast<std::int64_t>(fl.size()) - 1))].stride += uniform(r, -2, 2);
        other.inner = nest(r, fl, 1);
      } else {
        other = draw_layout(r, 256);
      }
      claim = "equivalent:" + other.text();
      break;
    }
    default: {
      lc = LClaim::inverse;
      other = compact ? compact_inverse(l) : draw_layout(r, 256);
      if (other.sw) other.sw.reset(), other.smem_bytes = 0;
      if (compact && coin(r, 25)) {  // perturb a true inverse
        std::vector<Node> fl;
        for (auto [s, d] : other.flat()) fl.push_back(leaf(s, d, true));
        fl.back().stride += 1;
        other.inner = fl.size() == 1 ? fl[0] : tuple(fl);
      }
      claim = "inverse:" + other.text();
      break;
    }
  }
  c.claim = claim.substr(0, claim.find(':'));
  c.subject = l.text() + "  --claim " + claim;
  c.repro = "layoutproof prove " + sh(l.text()) + " --claim " + sh(claim) + " --engine z3   # and --engine exhaustive";
  c.reference = ref_layout_claim(l, lc, arg, mode, &other) ? "holds" : "fails";
  try {
    const pf::Subject s = pf::parse_subject(l.text());
    const pf::Claim cl = pf::parse_claim(claim);
    for (const pf::EngineChoice e : {pf::EngineChoice::exhaustive, pf::EngineChoice::z3}) {
      pf::ProveOptions o;
      o.engine = e;
      o.largest_v = false;
      o.smt.timeout_ms = 20000;
      const pf::Verdict v = pf::prove(s, cl, o);
      (e == pf::EngineChoice::z3 ? c.z3 : c.exhaustive) = verdict_name(v.kind);
      c.detail += std::string(e == pf::EngineChoice::z3 ? "z3: " : "exhaustive: ") +
                  (v.kind == pf::Verdict::Kind::refuted ? v.witness.why : run_error(v)) + "\n";
    }
  } catch (const std::exception& e) {
    c.exhaustive = c.z3 = "ERROR";
    c.detail = std::string("parse: ") + e.what();
  }
  return c;
}

Case bank_case(Rng& r) {
  Case c;
  c.kind = "bank";
  const Pattern pat = pick(r, std::vector<Pattern>{Pattern::row_per_lane, Pattern::linear, Pattern::ldmatrix});
  int eb = static_cast<int>(pick(r, std::vector<std::int64_t>{1, 2, 4, 8}));
  int vec = 1;
  Op op = Op::ld;
  if (pat == Pattern::ldmatrix) {
    if (eb == 1) eb = 2;
    vec = 16 / eb;
    op = pick(r, std::vector<Op>{Op::ldsm1, Op::ldsm2, Op::ldsm4, Op::stsm1, Op::stsm2, Op::stsm4});
  } else {
    vec = static_cast<int>(pick(r, std::vector<std::int64_t>{1, 2, 4, 8, 16})) ;
    while (eb * vec > 16) vec /= 2;
    op = coin(r) ? Op::ld : Op::st;
  }
  const std::int64_t rows = pat == Pattern::ldmatrix ? pick(r, std::vector<std::int64_t>{8, 16, 32})
                                                     : pick(r, std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64});
  std::int64_t cols = vec * pick(r, std::vector<std::int64_t>{1, 2, 4, 8, 16});
  while (rows * cols > 4096) cols /= 2;
  if (cols % vec) cols = vec;
  const std::int64_t pad = coin(r, 30) ? vec * uniform(r, 1, 4) : 0;
  RLayout tile;
  const bool row_major = coin(r, 70);
  if (row_major) {
    // (rows, cols):(cols + pad, 1), the column mode sometimes split (c1, c2):(1, c1).
    Node colm = leaf(cols, 1, coin(r));
    if (cols >= 2 * vec && coin(r, 30)) colm = tuple({leaf(vec, 1), leaf(cols / vec, vec, coin(r))});
    tile.inner = tuple({leaf(rows, cols + pad, coin(r)), colm});
  } else {
    tile.inner = tuple({leaf(rows, 1, coin(r)), leaf(cols, rows + pad, coin(r))});
  }
  if (coin(r, 70)) {
    Swz s;
    s.B = static_cast<int>(uniform(r, 1, 3));
    int lv = 0;
    while ((1 << lv) < vec) ++lv;
    s.M = static_cast<int>(coin(r, 85) ? lv + uniform(r, 0, 1) : uniform(r, 0, 4));  // sometimes misaligning
    const int a = s.B + static_cast<int>(uniform(r, 0, 3));
    s.S = coin(r, 15) ? -a : a;
    tile.sw = s;
  }
  const std::int64_t base = coin(r, 70) ? 0 : 16 * uniform(r, 1, 64);
  std::string claim = "conflict-free";
  int k = 0;
  if (coin(r, 35)) {
    k = static_cast<int>(uniform(r, 1, 4));
    claim = "max-ways:" + std::to_string(k);
  }
  static const char* pat_names[] = {"row-per-lane", "linear", "ldmatrix"};
  const std::string args = " --claim " + claim + " --elem-bytes " + std::to_string(eb) + " --vec " + std::to_string(vec) +
                           " --pattern " + pat_names[static_cast<int>(pat)] + " --op " + op_name(op) +
                           (base ? " --base " + std::to_string(base) : "");
  c.claim = claim.substr(0, claim.find(':'));
  c.subject = tile.text() + args;
  c.repro = "layoutproof prove " + sh(tile.text()) + args + " --engine z3   # and --engine exhaustive";
  // Reference: every instruction valid, then the claim on each.
  bool valid = true, holds = true;
  for (const Instr& in : ref_pattern(tile, eb, vec, pat, op, base)) {
    const BankEval e = ref_bank(in);
    if (!e.valid) valid = false;
    if (k == 0 ? e.wavefronts > e.ideal : e.most_ways > k) holds = false;
  }
  c.reference = !valid ? "invalid" : holds ? "holds" : "fails";
  try {
    lp::AccessSpec spec = lp::make_access(lp::parse_any_layout(tile.text()), eb, vec,
                                          static_cast<lp::PatternKind>(static_cast<int>(pat)),
                                          op_matrices(op) ? op_matrices(op) : 4);
    spec.base_address = base;
    const pf::BankSubject s = pf::make_bank_subject(spec, *lp::parse_smem_op(op_name(op)));
    const auto bc = pf::parse_bank_claim(claim);
    for (const pf::EngineChoice e : {pf::EngineChoice::exhaustive, pf::EngineChoice::z3}) {
      pf::ProveOptions o;
      o.engine = e;
      o.smt.timeout_ms = 20000;
      const pf::BankResult res = pf::prove_bank(s, *bc, o);
      (e == pf::EngineChoice::z3 ? c.z3 : c.exhaustive) = verdict_name(res.verdict.kind);
      c.detail += std::string(e == pf::EngineChoice::z3 ? "z3: " : "exhaustive: ") +
                  (res.witness ? pf::describe(*res.witness) : run_error(res.verdict)) + "\n";
    }
  } catch (const std::exception& e) {
    c.exhaustive = c.z3 = "ERROR";
    c.detail = std::string("input: ") + e.what();
  }
  return c;
}

}  // namespace soak
