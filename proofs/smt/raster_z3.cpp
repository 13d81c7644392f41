// The Z3 encoding of the rasterization claims (proofs/raster/raster.hpp). Every value is a 32-bit
// bit-vector and every model operation has its SMT-LIB twin with the same semantics:
//   a*b -> bvmul, a/b -> bvudiv, a%b -> bvurem (x/0 = ~0, x%0 = x as in model/raster/raster.hpp),
//   << -> bvshl, >> -> bvlshr, & | ^ -> bvand bvor bvxor, a<b ? -> ite(bvult ...)
//
// Domain D:  1 <= p0, p1 <= max_grid,  lo <= param <= hi,  (gx, gy) = launch(p0, p1, param)
//   in-bounds   sat? D, a.x < gx, a.y < gy, not (f(a).x < p0 and f(a).y < p1)
//   injective   sat? D, a, b in launch, (a.y, a.x) <lex (b.y, b.x), f(a) == f(b)   (not lin(a) < lin(b):
//               lin(b) = b.y*gx + b.x wraps at 32 bits; it only orders the minimization)
//   surjective  |launch| = |tiles| (all kinds but cutlass): sat? D, (a out of bounds) or (a, b
//               collide); unsat proves it by pigeonhole, sat gives the grid and the missing tile
//               is the smallest one the model never visits there (found by enumeration, replayed).
//               cutlass: sat? D, t in tiles, not (inv(t) in launch and f(inv(t)) == t) with
//               inv(m, n) = ((m << L) + (n & (2^L-1)), n >> L); unsat proves it; sat falls back to
//               sat? D, t in tiles, forall b: b in launch -> f(b) != t.
// Every sat answer is minimized lexicographically (p0 + p1, p0, param, then the block ids or
// tile), by galloping then bisection; an unknown while minimizing keeps the best model so far.
#include <functional>

#include "proofs/raster/raster.hpp"
#include "proofs/smt/session.hpp"

namespace layoutproof::proofs {
namespace {

using raster::Kind;
using raster::u32;
using smt::Session;
using z3::expr;

u32 value(const z3::model& m, const expr& e) { return static_cast<u32>(m.eval(e, true).get_numeral_uint64()); }

struct Pair {
  expr x, y;
};

// Encodes at width w <= 32. Below 32 bits every operation that could differ from its 32-bit twin
// (wrap of + - * <<, division by zero, a constant that does not fit) adds its condition to `ov`;
// check_raster_z3 proves first that none of them can hold on the domain (query .width<w>), so the
// narrow encoding computes exactly the integers the 32-bit model computes.
class RasterEncoding {
 public:
  RasterEncoding(const RasterSubject& s, z3::context& c, unsigned w) : s_(s), c_(c), w_(w) {}
  unsigned width() const { return w_; }
  std::vector<expr>& overflow() const { return ov_; }
  expr k(u32 v) const {
    if (w_ < 32 && (v >> w_) != 0) ov_.push_back(c_.bool_val(true));
    return c_.bv_val(static_cast<uint64_t>(v), w_);
  }
  expr var(const std::string& n) const { return c_.bv_const(n.c_str(), w_); }
  expr add(const expr& a, const expr& b) const { note(!z3::bvadd_no_overflow(a, b, false)); return a + b; }
  expr sub(const expr& a, const expr& b) const { note(z3::ult(a, b)); return a - b; }
  expr mul(const expr& a, const expr& b) const { note(!z3::bvmul_no_overflow(a, b, false)); return a * b; }
  expr div(const expr& a, const expr& b) const { note(b == zero()); return z3::udiv(a, b); }
  expr rem(const expr& a, const expr& b) const { note(b == zero()); return z3::urem(a, b); }
  expr shl(const expr& a, const expr& b) const {
    note(!(z3::ult(b, c_.bv_val(static_cast<uint64_t>(w_), w_)) && z3::lshr(z3::shl(a, b), b) == a));
    return z3::shl(a, b);
  }
  expr umin(const expr& a, const expr& b) const { return z3::ite(z3::ult(a, b), a, b); }
  expr umax(const expr& a, const expr& b) const { return z3::ite(z3::ult(a, b), b, a); }

  Pair launch(const expr& p0, const expr& p1, const expr& param) const {
    if (s_.kind != Kind::cutlass) return {p0, p1};
    const expr tile = shl(k(1), param);
    return {mul(p0, tile), div(sub(add(p1, tile), k(1)), tile)};
  }

  // f(bx, by) on the launch grid (gx, gy), operation by operation as model/raster/raster.hpp.
  Pair map(const expr& bx, const expr& by, const expr& gx, const expr& gy, const expr& param) const {
    switch (s_.kind) {
      case Kind::seed:
      case Kind::seed_fixed: {
        const expr& ts = param;
        const expr block_idx = add(mul(by, gx), bx);
        const expr total = mul(ts, gy);
        const expr strips = div(gx, ts), residual = rem(gx, ts);
        const expr strip_id = div(block_idx, total), cta = rem(block_idx, total);
        const expr use_sz = z3::ite(z3::ult(block_idx, mul(total, strips)), ts, residual);
        const expr sx = rem(cta, use_sz), sy = div(cta, use_sz);
        const expr flat = add(add(mul(strip_id, ts), mul(sy, gx)), sx);
        return {rem(flat, gx), div(flat, s_.kind == Kind::seed_fixed ? gx : gy)};
      }
      case Kind::cutlass:
        return {z3::lshr(bx, param), add(shl(by, param), bx & sub(shl(k(1), param), k(1)))};
      case Kind::morton: {
        const expr bid = add(mul(by, gx), bx);
        return {compact(bid), compact(z3::lshr(bid, k(1)))};
      }
      case Kind::formula: return formula(bx, by, gx, gy, param);
      case Kind::row_major: break;
    }
    return {bx, by};
  }

 private:
  void note(const expr& cond) const {
    if (w_ < 32) ov_.push_back(cond);
  }
  expr zero() const { return c_.bv_val(0, w_); }
  expr compact(expr v) const {  // only encoded at 32 bits (the masks need them)
    v = v & k(0x55555555u);
    v = (v | z3::lshr(v, k(1))) & k(0x33333333u);
    v = (v | z3::lshr(v, k(2))) & k(0x0F0F0F0Fu);
    v = (v | z3::lshr(v, k(4))) & k(0x00FF00FFu);
    v = (v | z3::lshr(v, k(8))) & k(0x0000FFFFu);
    return v;
  }

  Pair formula(const expr& bx, const expr& by, const expr& gx, const expr& gy, const expr& ts) const {
    using Op = raster::FormulaNode::Op;
    const raster::Formula& f = *s_.formula;
    std::vector<expr> v;
    const expr vars[5] = {bx, by, gx, gy, ts};
    for (const auto& n : f.nodes) {
      if (n.op == Op::constant) { v.push_back(k(n.value)); continue; }
      if (n.op == Op::var) { v.push_back(vars[n.value]); continue; }
      const expr a = v[static_cast<std::size_t>(n.a)], b = v[static_cast<std::size_t>(n.b)];
      switch (n.op) {
        case Op::add: v.push_back(add(a, b)); break;
        case Op::sub: v.push_back(sub(a, b)); break;
        case Op::mul: v.push_back(mul(a, b)); break;
        case Op::div: v.push_back(div(a, b)); break;
        case Op::rem: v.push_back(rem(a, b)); break;
        case Op::shl: v.push_back(shl(a, b)); break;
        case Op::shr: v.push_back(z3::lshr(a, b)); break;
        case Op::band: v.push_back(a & b); break;
        case Op::bor: v.push_back(a | b); break;
        case Op::bxor: v.push_back(a ^ b); break;
        case Op::min: v.push_back(umin(a, b)); break;
        case Op::max: v.push_back(umax(a, b)); break;
        default: v.push_back(k(0)); break;
      }
    }
    return {v[static_cast<std::size_t>(f.x)], v[static_cast<std::size_t>(f.y)]};
  }

  const RasterSubject& s_;
  z3::context& c_;
  unsigned w_;
  mutable std::vector<expr> ov_;
};

struct Search {
  Session& ss;
  std::string name;
  int step = 0;
  bool unknown_hit = false;

  // Lexicographic minimization of `objs` over the sat model `m` of `bad` (which grows by one
  // equality per objective). Returns the final model.
  z3::model minimize(std::vector<expr> bad, const std::vector<expr>& objs, z3::model m) {
    for (const expr& obj : objs) {
      u32 lo = 0, hi = value(m, obj);
      // Galloping from below (violations are usually tiny), then bisection.
      for (u32 d = 1; lo < hi && !unknown_hit;) {
        const u32 t = std::min<u32>(hi - 1, lo + d - 1);
        auto q = bad;
        q.push_back(z3::ule(obj, obj.ctx().bv_val(static_cast<uint64_t>(t), obj.get_sort().bv_size())));
        const auto a = ss.check(name + ".min" + std::to_string(++step), q);
        if (a.result == z3::sat) {
          m = *a.model;
          hi = value(m, obj);
          d = std::max<u32>(1, (hi - lo) / 2);
        } else if (a.result == z3::unsat) {
          lo = t + 1;
          d *= 2;
        } else {
          unknown_hit = true;
        }
      }
      bad.push_back(obj == obj.ctx().bv_val(static_cast<uint64_t>(value(m, obj)), obj.get_sort().bv_size()));
    }
    return m;
  }
};

// The narrowest width worth trying: values reach about max_grid^3 (strip_id_y * gridDim.x in the
// seed's function), so 3 * bits(max_grid) + 3; 32 when that is not narrower or for morton (its
// masks are 32-bit constants). The width is used only when the query .width<w> proves that no
// operation on a block of the launch grid wraps, divides by zero or needs a wider constant.
unsigned choose_width(const RasterSubject& s, Session& ss, const std::string& name) {
  unsigned bits = 1;
  while (bits < 32 && (std::uint64_t{s.max_grid} >> bits) != 0) ++bits;
  const unsigned w = 3 * bits + 3;
  if (w >= 32 || s.kind == Kind::morton || s.kind == Kind::row_major || s.kind == Kind::cutlass) return 32;
  const RasterEncoding e(s, ss.ctx(), w);
  const expr p0 = e.var("p0"), p1 = e.var("p1"), param = e.var("param"), ax = e.var("a_x"), ay = e.var("a_y");
  std::vector<expr> q{z3::uge(p0, e.k(1)), z3::ule(p0, e.k(s.max_grid)), z3::uge(p1, e.k(1)),
                      z3::ule(p1, e.k(s.max_grid)), z3::uge(param, e.k(s.param_lo())), z3::ule(param, e.k(s.param_hi()))};
  if (!e.overflow().empty()) return 32;  // a domain constant does not fit
  const Pair g = e.launch(p0, p1, param);
  q.push_back(z3::ult(ax, g.x) && z3::ult(ay, g.y));
  (void)e.add(e.mul(ay, g.x), ax);  // lin(a), used by the orderings and objectives
  (void)e.map(ax, ay, g.x, g.y, param);
  if (s.kind == Kind::cutlass) return 32;  // its inverse certificate leaves the launch grid
  expr any = ss.ctx().bool_val(false);
  for (const auto& o : e.overflow()) any = any || o;
  q.push_back(any);
  const auto a = ss.check(name + ".width" + std::to_string(w), q);
  return a.result == z3::unsat ? w : 32;
}

}  // namespace

Outcome<RasterWitness> check_raster_z3(const RasterSubject& s, RasterClaim c, const SmtOptions& o) {
  Outcome<RasterWitness> out;
  out.method = "z3";
  if (c == RasterClaim::bijective) {
    out.text = "bijective is decided part by part (prove_raster)";
    return out;
  }
  try {
    Session ss(o, to_string(c), s.text());
    z3::context& ctx = ss.ctx();
    const std::string name = std::string("raster.") + raster::to_string(s.kind) + "." + to_string(c);
    const unsigned w = choose_width(s, ss, name);
    const RasterEncoding e(s, ctx, w);
    out.method = "z3 (" + std::to_string(w) + "-bit bit-vectors" + (w < 32 ? ", proved exact" : "") + ")";
    const expr p0 = e.var("p0"), p1 = e.var("p1"), param = e.var("param");
    const expr ax = e.var("a_x"), ay = e.var("a_y"), bx = e.var("b_x"), by = e.var("b_y");
    const Pair g = e.launch(p0, p1, param);
    std::vector<expr> dom{z3::uge(p0, e.k(1)), z3::ule(p0, e.k(s.max_grid)), z3::uge(p1, e.k(1)),
                          z3::ule(p1, e.k(s.max_grid)), z3::uge(param, e.k(s.param_lo())),
                          z3::ule(param, e.k(s.param_hi()))};
    auto in_launch = [&](const expr& x, const expr& y) { return z3::ult(x, g.x) && z3::ult(y, g.y); };
    auto lin = [&](const expr& x, const expr& y) { return e.add(e.mul(y, g.x), x); };
    const Pair fa = e.map(ax, ay, g.x, g.y, param), fb = e.map(bx, by, g.x, g.y, param);
    const expr out_a = in_launch(ax, ay) && !(z3::ult(fa.x, p0) && z3::ult(fa.y, p1));
    // a before b in launch order, compared as (y, x) pairs: lin() is 32-bit and wraps once
    // gx * gy > 2^32, and distinct blocks with equal wrapped lin() would never be compared.
    const expr before = z3::ult(ay, by) || (ay == by && z3::ult(ax, bx));
    const expr coll = in_launch(ax, ay) && in_launch(bx, by) && before && fa.x == fb.x && fa.y == fb.y;

    // Vacuity first: the domain with one block in the launch grid.
    auto vac = dom;
    vac.push_back(in_launch(ax, ay));
    const auto va = ss.check(name + ".vacuity", vac);
    if (va.result != z3::sat) {
      out.kind = OutcomeKind::error;
      out.text = "vacuous: the domain (grids, parameter, a block) is unsatisfiable or undecided";
      out.queries = ss.query_names();
      return out;
    }

    std::vector<expr> bad = dom, objs{p0 + p1, p0, param};
    expr tx = e.var("t_x"), ty = e.var("t_y");
    bool pigeonhole = false, quantified = false;
    std::string holds;
    if (c == RasterClaim::in_bounds) {
      bad.push_back(out_a);
      objs.push_back(lin(ax, ay));
      holds = "every block of the launch grid lands in the tile grid";
    } else if (c == RasterClaim::injective) {
      bad.push_back(coll);
      objs.push_back(lin(bx, by));
      objs.push_back(lin(ax, ay));
      holds = "no two blocks land on the same tile";
    } else if (s.kind != Kind::cutlass) {
      pigeonhole = true;
      bad.push_back(out_a || coll);
      holds = "every tile is visited (pigeonhole: |blocks| = |tiles|, and every block lands in the grid on a tile of its own)";
      out.method += ", pigeonhole";
    } else {
      // The inverse certificate first.
      const expr ix = (z3::shl(tx, param)) + (ty & (z3::shl(e.k(1), param) - e.k(1))), iy = z3::lshr(ty, param);
      const Pair fi = e.map(ix, iy, g.x, g.y, param);
      auto cert = dom;
      cert.push_back(z3::ult(tx, p0) && z3::ult(ty, p1));
      cert.push_back(!(in_launch(ix, iy) && fi.x == tx && fi.y == ty));
      const auto ca = ss.check(name + ".inverse", cert);
      if (ca.result == z3::unsat) {
        out.kind = OutcomeKind::holds;
        out.method += ", inverse certificate";
        out.text = "every tile (m,n) is visited by block ((m << L) + (n & (2^L-1)), n >> L), " + s.bound_text();
        out.queries = ss.query_names();
        return out;
      }
      quantified = true;
      const expr qx = e.var("q_x"), qy = e.var("q_y");
      const Pair fq = e.map(qx, qy, g.x, g.y, param);
      bad.push_back(z3::ult(tx, p0) && z3::ult(ty, p1));
      bad.push_back(z3::forall(qx, qy, z3::implies(in_launch(qx, qy), !(fq.x == tx && fq.y == ty))));
      objs.push_back(e.add(e.mul(ty, p0), tx));
      holds = "every tile is visited";
      out.method += ", exists-forall";
    }
    const auto a = ss.check(name + ".violation", bad, quantified);
    if (a.result == z3::unsat) {
      out.kind = OutcomeKind::holds;
      out.text = holds + ", " + s.bound_text();
      out.queries = ss.query_names();
      return out;
    }
    if (a.result == z3::unknown) {
      out.kind = OutcomeKind::unknown;
      out.text = "z3 unknown on " + name + ".violation: " + a.reason;
      out.queries = ss.query_names();
      return out;
    }
    Search search{ss, name};
    const z3::model m = quantified ? *a.model : search.minimize(bad, objs, *a.model);
    RasterWitness& wit = out.witness;
    wit.p0 = value(m, p0), wit.p1 = value(m, p1), wit.param = value(m, param);
    wit.launch = raster::Grid{value(m, g.x), value(m, g.y)};
    wit.tiles = raster::Grid{wit.p0, wit.p1};
    if (c == RasterClaim::in_bounds) {
      wit.what = RasterWitness::What::out_of_bounds;
      wit.a = {value(m, ax), value(m, ay)};
    } else if (c == RasterClaim::injective) {
      wit.what = RasterWitness::What::collision;
      wit.a = {value(m, ax), value(m, ay)};
      wit.b = {value(m, bx), value(m, by)};
    } else {
      wit.what = RasterWitness::What::missing;
      if (pigeonhole) {
        const auto t = missing_tile(s, wit.p0, wit.p1, wit.param);
        if (!t) {
          out.kind = OutcomeKind::error;
          out.text = "pigeonhole mismatch: the model visits every tile of the grid Z3 picked";
          out.queries = ss.query_names();
          return out;
        }
        wit.tile = *t;
        out.method += " + enumeration of the witness grid";
      } else {
        wit.tile = {value(m, tx), value(m, ty)};
      }
    }
    out.kind = OutcomeKind::violated;
    if (search.unknown_hit) out.method += " (minimization stopped at an unknown)";
    out.queries = ss.query_names();
  } catch (const z3::exception& ex) {
    out.kind = OutcomeKind::error;
    out.text = std::string("z3 exception: ") + ex.msg();
  }
  return out;
}

}  // namespace layoutproof::proofs
