// The Z3 engine: each claim becomes "domain and not(claim)"; unsat proves it, sat gives a
// violation that is minimized (smallest index first) and handed back for replay, unknown stays
// unknown. Every query first passes a vacuity check of its domain.
#include "model/layout/notation.hpp"
#include "proofs/claims/prove.hpp"
#include "proofs/smt/encode.hpp"
#include "proofs/smt/session.hpp"

namespace layoutproof::proofs {
namespace {

using smt::Coords;
using smt::Encoder;
using smt::Session;

// The result of one search for a violation.
struct Found {
  enum class Kind { none, found, unknown } kind = Kind::none;
  i64 a = -1, b = -1;
  std::string reason;
};

i64 value(const z3::model& m, const z3::expr& e) {
  return static_cast<i64>(m.eval(e, true).get_numeral_uint64());
}

// Smallest value of `key` (>= 0) under `base`, starting from a model where key == start.
// Binary search; an unknown answer stops the search with the best value so far (still a real
// violation, replayed later, only perhaps not the smallest).
i64 minimize(Session& s, const Encoder& e, const std::string& name, std::vector<z3::expr> base, const z3::expr& key,
             i64 start, bool quantified) {
  i64 lo = 0, hi = start;
  int step = 0;
  while (lo < hi) {
    const i64 mid = lo + (hi - lo) / 2;
    std::vector<z3::expr> q = base;
    q.push_back(z3::sle(key, e.k(mid)));
    const auto a = s.check(name + ".min" + std::to_string(++step), q, quantified);
    if (a.result == z3::sat) hi = value(*a.model, key);
    else if (a.result == z3::unsat) lo = mid + 1;
    else break;
  }
  return hi;
}

// Asks for a violation: sat -> minimized (key, then key2); unsat -> none.
Found search(Session& s, const Encoder& e, const std::string& name, const std::vector<z3::expr>& q,
             const z3::expr& key, std::optional<z3::expr> key2 = std::nullopt, bool quantified = false) {
  const auto a = s.check(name, q, quantified);
  Found f;
  if (a.result == z3::unsat) return f;
  if (a.result == z3::unknown) {
    f.kind = Found::Kind::unknown;
    f.reason = "z3 unknown on " + name + ": " + a.reason;
    return f;
  }
  f.kind = Found::Kind::found;
  f.a = minimize(s, e, name, q, key, value(*a.model, key), quantified);
  if (key2) {
    std::vector<z3::expr> q2 = q;
    q2.push_back(key == e.k(f.a));
    const auto a2 = s.check(name + ".second", q2, quantified);
    if (a2.result != z3::sat) {  // cannot happen for a sound solver; report instead of guessing
      f.kind = Found::Kind::unknown;
      f.reason = "z3 did not confirm the minimized first index on " + name;
      return f;
    }
    f.b = minimize(s, e, name + ".second", q2, *key2, value(*a2.model, *key2), quantified);
  }
  return f;
}

// Vacuity first (conventions.md #4): the domain alone must be satisfiable.
void require_nonvacuous(Session& s, const std::string& name, const z3::expr& domain) {
  const auto a = s.check(name + ".vacuity", {domain});
  if (a.result != z3::sat) throw LayoutError("vacuous: the domain of " + name + " is unsatisfiable or undecided");
}

struct Ctx {
  Session& s;
  const Encoder& e;
  const AnyLayout& l;
  std::string method = "z3";
};

Outcome<Violation> make(OutcomeKind k, std::string text, const Ctx& c) {
  Outcome<Violation> o;
  o.kind = k;
  o.text = std::move(text);
  o.method = c.method;
  return o;
}
Outcome<Violation> from_found(const Found& f, Violation::Kind k, const Ctx& c) {
  if (f.kind == Found::Kind::unknown) return make(OutcomeKind::unknown, f.reason, c);
  Outcome<Violation> o = make(OutcomeKind::violated, "", c);
  o.witness = {k, f.a, f.b};
  return o;
}

// Whether Sw o (off + .) is a bijection of w-bit integers (|S| >= B: read and written bits are
// disjoint, so the map is an involution), so injectivity reduces to the inner layout's.
bool swizzle_is_bijective(const AnyLayout& l) { return !l.swizzle || l.swizzle->abs_s() >= l.swizzle->B; }

// injective:  exists c1, c2 in dom: idx(c1) < idx(c2) and F(c1) == F(c2)   (sat = refuted)
// with F = the inner layout when the swizzle is a bijection (compositional), else the full map.
Found collision(Ctx& c, const std::string& name, bool use_inner) {
  const Coords x = c.e.coords(c.l.layout, "x"), y = c.e.coords(c.l.layout, "y");
  require_nonvacuous(c.s, name, x.domain);
  const z3::expr fx = c.e.inner(c.l.layout, x.c), fy = c.e.inner(c.l.layout, y.c);
  const z3::expr eq = use_inner ? fx == fy : c.e.compose(c.l, fx) == c.e.compose(c.l, fy);
  return search(c.s, c.e, name, {x.domain, y.domain, z3::slt(x.index, y.index), eq}, x.index, y.index);
}

// range:  exists c in dom: F(c) < 0 or F(c) >= n
Found out_of_range(Ctx& c, const std::string& name, bool inner_only, i64 n) {
  const Coords x = c.e.coords(c.l.layout, "x");
  require_nonvacuous(c.s, name, x.domain);
  const z3::expr f = inner_only ? c.e.inner(c.l.layout, x.c) : c.e.compose(c.l, c.e.inner(c.l.layout, x.c));
  return search(c.s, c.e, name, {x.domain, z3::slt(f, c.e.k(0)) || z3::sge(f, c.e.k(n))}, x.index);
}

Outcome<Violation> injective(Ctx& c) {
  const bool comp = c.l.swizzle && swizzle_is_bijective(c.l);
  if (comp) c.method = "z3 (compositional: " + to_string(*c.l.swizzle) + " is a bijection, so injective iff the inner layout is)";
  const Found f = collision(c, "injective.collision", comp || !c.l.swizzle);
  if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::collision, c);
  return make(OutcomeKind::holds, "injective on [0," + std::to_string(size(c.l.layout)) + ")", c);
}

// bijective:  not(exists c: L(c) outside [0,n)) and not(exists c1 < c2: L(c1) == L(c2)), L the
//             full map; n indices injectively into [0,n) cover it (pigeonhole). The collision
//             query is on the inner layout when the swizzle is a bijection (|S| >= B).
Outcome<Violation> bijective(Ctx& c) {
  const i64 n = size(c.l.layout);
  const bool comp = c.l.swizzle && swizzle_is_bijective(c.l);
  if (comp) c.method = "z3 (compositional: " + to_string(*c.l.swizzle) + " is a bijection, so injective iff the inner layout is)";
  Found f = out_of_range(c, "bijective.range", !c.l.swizzle, n);
  if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::not_in_target, c);
  f = collision(c, "bijective.injective", comp || !c.l.swizzle);
  if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::collision, c);
  return make(OutcomeKind::holds, "injective and image = [0," + std::to_string(n) + ") = [0,cosize)", c);
}

// swizzle-permutes, Sw o off o L:
//   when L is proved a permutation of [0,n) (the two bijective queries on L): the full map must
//   stay in [0,n) and be injective (compositional when |S| >= B); then its image is [0,n) = image(L).
//   otherwise: exists c forall c': Sw(off+L(c)) != L(c')  (image inclusion, quantified), then the
//   collision query on the full map.
// A plain layout: injective (its image is its own).
Outcome<Violation> swizzle_permutes(Ctx& c) {
  const i64 n = size(c.l.layout);
  if (!c.l.swizzle) {
    const Found f = collision(c, "swizzle_permutes.injective", true);
    if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::collision, c);
    return make(OutcomeKind::holds, "injective (no swizzle: the image is the layout's own)", c);
  }
  const Found inner_range = out_of_range(c, "swizzle_permutes.inner_range", true, n);
  const Found inner_inj =
      inner_range.kind == Found::Kind::none ? collision(c, "swizzle_permutes.inner_injective", true) : inner_range;
  const bool sw_bij = swizzle_is_bijective(c.l);
  if (inner_range.kind == Found::Kind::none && inner_inj.kind == Found::Kind::none) {
    c.method = sw_bij ? "z3 (compositional: inner layout a permutation of [0,n), swizzle a bijection)" : "z3";
    Found f = out_of_range(c, "swizzle_permutes.range", false, n);
    if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::not_in_target, c);
    if (!sw_bij) {
      f = collision(c, "swizzle_permutes.injective", false);
      if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::collision, c);
    }
    return make(OutcomeKind::holds,
                "injective and image = image of the inner layout = [0," + std::to_string(n) + ")", c);
  }
  if (inner_range.kind == Found::Kind::unknown || inner_inj.kind == Found::Kind::unknown)
    return make(OutcomeKind::unknown, inner_range.kind == Found::Kind::unknown ? inner_range.reason : inner_inj.reason, c);
  c.method = "z3 (quantified image inclusion)";
  const Coords x = c.e.coords(c.l.layout, "x"), y = c.e.coords(c.l.layout, "y");
  require_nonvacuous(c.s, "swizzle_permutes.image", x.domain);
  z3::expr_vector ys(c.s.ctx());
  for (const auto& v : y.c) ys.push_back(v);
  const z3::expr fx = c.e.compose(c.l, c.e.inner(c.l.layout, x.c));
  const z3::expr outside = z3::forall(ys, z3::implies(y.domain, fx != c.e.inner(c.l.layout, y.c)));
  Found f = search(c.s, c.e, "swizzle_permutes.image", {x.domain, outside}, x.index, std::nullopt, true);
  if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::not_in_target, c);
  f = collision(c, "swizzle_permutes.injective", sw_bij);
  if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::collision, c);
  return make(OutcomeKind::holds, "injective and image = image of the inner layout", c);
}

// surjective:N  fast path: size == N, the full map stays in [0,N) and is injective (pigeonhole).
// otherwise: exists o in [0,N) forall c in dom: F(c) != o   (quantified; smallest o first)
Outcome<Violation> surjective(Ctx& c, i64 n) {
  if (size(c.l.layout) == n) {
    const bool comp = swizzle_is_bijective(c.l);
    if (out_of_range(c, "surjective.range", false, n).kind == Found::Kind::none &&
        collision(c, "surjective.injective", comp).kind == Found::Kind::none) {
      c.method = "z3 (pigeonhole: N indices injectively into [0,N))";
      return make(OutcomeKind::holds, "image covers [0," + std::to_string(n) + ")", c);
    }
  }
  c.method = "z3 (quantified)";
  const Coords x = c.e.coords(c.l.layout, "x");
  const z3::expr o = c.e.var("o");
  z3::expr_vector xs(c.s.ctx());
  for (const auto& v : x.c) xs.push_back(v);
  const z3::expr missing =
      z3::forall(xs, z3::implies(x.domain, c.e.compose(c.l, c.e.inner(c.l.layout, x.c)) != o));
  const z3::expr dom = z3::sge(o, c.e.k(0)) && z3::slt(o, c.e.k(n));
  require_nonvacuous(c.s, "surjective.missing", dom);
  const Found f = search(c.s, c.e, "surjective.missing", {dom, missing}, o, std::nullopt, true);
  if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::missing, c);
  return make(OutcomeKind::holds, "image covers [0," + std::to_string(n) + ")", c);
}

// contiguous:V@m  exists c in dom, with p = position of c along mode m, j = p mod V and base = c
// with position p - j:  F(c) != F(base) + j  or  F(base) smod V != 0    (smallest idx(c) first)
Outcome<Violation> contiguous(Ctx& c, i64 v, std::size_t mode) {
  const Layout& l = c.l.layout;
  if (mode >= l.rank()) return make(OutcomeKind::error, "contiguous: the layout has no mode " + std::to_string(mode), c);
  const i64 p_m = mode_stride_product(l, mode), s_m = product(l.shape[mode]);
  if (s_m % v != 0) {
    Outcome<Violation> o = make(OutcomeKind::violated, "", c);
    o.method = "size check";
    o.witness = {Violation::Kind::not_contiguous, (s_m - s_m % v) * p_m, -1};
    return o;
  }
  std::size_t first = 0;
  for (std::size_t i = 0; i < mode; ++i) first += leaves(l.shape[i]).size();
  const std::vector<i64> ms = leaves(l.shape[mode]);
  const Coords x = c.e.coords(l, "x");
  require_nonvacuous(c.s, "contiguous", x.domain);
  z3::expr pos = c.e.k(0);
  i64 q = 1;
  for (std::size_t k = 0; k < ms.size(); ++k) {
    pos = pos + x.c[first + k] * c.e.k(q);
    q *= ms[k];
  }
  const z3::expr j = z3::urem(pos, c.e.k(v)), pbase = pos - j;
  std::vector<z3::expr> base = x.c;
  q = 1;
  for (std::size_t k = 0; k < ms.size(); ++k) {
    base[first + k] = z3::urem(z3::udiv(pbase, c.e.k(q)), c.e.k(ms[k]));
    q *= ms[k];
  }
  const z3::expr fx = c.e.compose(c.l, c.e.inner(l, x.c)), fb = c.e.compose(c.l, c.e.inner(l, base));
  const z3::expr bad = fx != fb + j || z3::smod(fb, c.e.k(v)) != c.e.k(0);
  const Found f = search(c.s, c.e, "contiguous:" + std::to_string(v), {x.domain, bad}, x.index);
  if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::not_contiguous, c);
  return make(OutcomeKind::holds,
              "groups of " + std::to_string(v) + " along mode " + std::to_string(mode) + " are contiguous and aligned", c);
}

// equivalent:L2  size(L) == size(L2) and not(exists x in [0,n): L(x) != L2(x))
// inverse:R      not(exists x in [0,n): y = L(x), y < 0 or y >= size(R) or R(y) != x)
Outcome<Violation> pointwise(Ctx& c, const Claim& cl) {
  const i64 n = size(c.l.layout), n2 = size(cl.other->layout);
  if (cl.kind == Claim::Kind::equivalent && n != n2) {
    Outcome<Violation> o = make(OutcomeKind::violated, "", c);
    o.method = "size check";
    o.witness = {Violation::Kind::size_mismatch, std::min(n, n2), -1};
    return o;
  }
  const z3::expr x = c.e.var("x");
  const z3::expr dom = z3::sge(x, c.e.k(0)) && z3::slt(x, c.e.k(n));
  require_nonvacuous(c.s, cl.text, dom);
  const z3::expr fx = c.e.compose(c.l, c.e.at_index(c.l.layout, x));
  z3::expr bad = c.s.ctx().bool_val(false);
  if (cl.kind == Claim::Kind::equivalent) {
    bad = fx != c.e.compose(*cl.other, c.e.at_index(cl.other->layout, x));
  } else {
    const z3::expr back = c.e.compose(*cl.other, c.e.at_index(cl.other->layout, fx));
    bad = z3::slt(fx, c.e.k(0)) || z3::sge(fx, c.e.k(n2)) || back != x;
  }
  const Found f = search(c.s, c.e, cl.kind == Claim::Kind::equivalent ? "equivalent" : "inverse", {dom, bad}, x);
  if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::mismatch, c);
  return make(OutcomeKind::holds, cl.kind == Claim::Kind::equivalent ? "L(x) == L2(x) for every x" : "R(L(x)) == x for every x", c);
}

// A bare swizzle over v in [0, 2^span) (it reads and writes only bits below span = M+B+|S|, so
// this covers every non-negative offset):
//   involution: exists v: Sw(Sw(v)) != v;   bijective: exists v1 < v2: Sw(v1) == Sw(v2)
Outcome<Violation> swizzle_claim(Session& s, const Swizzle& sw, const Claim& cl) {
  const int span = sw.span_bits();
  if (span > 60) throw LayoutError("swizzle span too large");
  const Encoder e(s.ctx(), smt::width_for(i64{1} << span));
  Ctx c{s, e, AnyLayout{}};
  const i64 n = i64{1} << span;
  const z3::expr v1 = e.var("v1"), v2 = e.var("v2");
  auto in = [&](const z3::expr& v) { return z3::sge(v, e.k(0)) && z3::slt(v, e.k(n)); };
  require_nonvacuous(s, "swizzle", in(v1));
  if (cl.kind == Claim::Kind::involution) {
    const Found f = search(s, e, "involution", {in(v1), e.swizzle(sw, e.swizzle(sw, v1)) != v1}, v1);
    if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::not_involution, c);
    return make(OutcomeKind::holds, "Sw(Sw(v)) == v for every offset v", c);
  }
  if (cl.kind != Claim::Kind::bijective && cl.kind != Claim::Kind::injective)
    return make(OutcomeKind::error, "a bare swizzle supports bijective, injective and involution", c);
  const Found f = search(s, e, "swizzle.collision",
                         {in(v1), in(v2), z3::slt(v1, v2), e.swizzle(sw, v1) == e.swizzle(sw, v2)}, v1, v2);
  if (f.kind != Found::Kind::none) return from_found(f, Violation::Kind::collision, c);
  return make(OutcomeKind::holds, "a bijection on every offset (checked on [0,2^" + std::to_string(span) + "))", c);
}

Outcome<Violation> dispatch(Session& s, const Subject& subj, const Claim& cl) {
  if (subj.bare_swizzle || cl.kind == Claim::Kind::involution) {
    if (!subj.layout.swizzle) throw LayoutError("involution applies to swizzles");
    return swizzle_claim(s, *subj.layout.swizzle, cl);
  }
  const AnyLayout& l = subj.layout;
  i64 bound = smt::magnitude(l);
  if (cl.other) bound = std::max(bound, smt::magnitude(*cl.other));
  bound = std::max(bound, cl.n);
  const Encoder e(s.ctx(), smt::width_for(bound));
  Ctx c{s, e, l};
  switch (cl.kind) {
    case Claim::Kind::injective: return injective(c);
    case Claim::Kind::bijective: return bijective(c);
    case Claim::Kind::swizzle_permutes: return swizzle_permutes(c);
    case Claim::Kind::surjective: return surjective(c, cl.n);
    case Claim::Kind::contiguous: return contiguous(c, cl.n, cl.mode);
    default: return pointwise(c, cl);
  }
}

}  // namespace

Outcome<Violation> check_z3(const Subject& subj, const Claim& cl, const SmtOptions& o) {
  Outcome<Violation> out;
  out.method = "z3";
  try {
    Session s(o, cl.text, subj.text());
    out = dispatch(s, subj, cl);
    out.queries = s.query_names();
  } catch (const z3::exception& e) {
    out.kind = OutcomeKind::error;
    out.text = std::string("z3: ") + e.msg();
  } catch (const std::exception& e) {
    out.kind = OutcomeKind::error;
    out.text = e.what();
  }
  return out;
}

// forall B, M, S, x, y (32-bit): 0 <= B, M <= 32, -32 <= S <= 32, |S| >= B, x != y
//   ->  Sw(x) != Sw(y),  Sw(v) = v ^ shift(v & (((1 << B) - 1) << (M + max(0,S))), S)
// (bvshl/bvlshr by 32 or more give 0, so masks that leave 32 bits are truncated, as 32-bit
// hardware offsets would be). Checked as unsat of the negation, after a vacuity check.
Verdict prove_swizzle_family_bijective(const SmtOptions& o) {
  const char* method = "z3 (symbolic B, M, S over 32-bit offsets)";
  try {
    smt::Session s(o, "every Sw<B,M,S> with |S| >= B is a bijection", "Sw<B,M,S>");
    z3::context& ctx = s.ctx();
    auto bv = [&](const char* n) { return ctx.bv_const(n, 32); };
    auto k = [&](int v) { return ctx.bv_val(v, 32); };
    const z3::expr B = bv("B"), M = bv("M"), S = bv("S"), x = bv("x"), y = bv("y");
    const z3::expr absS = z3::ite(z3::sge(S, k(0)), S, -S);
    const z3::expr pre = z3::sge(B, k(0)) && z3::sle(B, k(32)) && z3::sge(M, k(0)) && z3::sle(M, k(32)) &&
                         z3::sge(S, k(-32)) && z3::sle(S, k(32)) && z3::sge(absS, B);
    const z3::expr yyy = z3::shl(z3::shl(k(1), B) - k(1), M + z3::ite(z3::sge(S, k(0)), S, k(0)));
    auto sw = [&](const z3::expr& v) {
      const z3::expr r = v & yyy;
      return v ^ z3::ite(z3::sge(S, k(0)), z3::lshr(r, S), z3::shl(r, -S));
    };
    const auto vac = s.check("swizzle_family.vacuity", {pre, x != y});
    if (vac.result != z3::sat) return Verdict::error(method, "vacuous precondition");
    const auto a = s.check("swizzle_family.injective", {pre, x != y, sw(x) == sw(y)});
    Verdict v;
    if (a.result == z3::unsat)
      v = Verdict::proved(method, "every Sw<B,M,S> with |S| >= B is injective (hence bijective) on 32-bit offsets");
    else if (a.result == z3::unknown)
      v = Verdict::unknown(method, a.reason);
    else
      v = Verdict::error(method, "z3 found a counterexample to the swizzle theorem: B=" +
                                     std::to_string(value(*a.model, B)) + " S=" + std::to_string(value(*a.model, S)));
    v.queries = s.query_names();
    return v;
  } catch (const z3::exception& e) {
    return Verdict::error(method, std::string("z3: ") + e.msg());
  }
}

}  // namespace layoutproof::proofs
