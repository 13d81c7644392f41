// sm90-persistent over symbolic dimensions (proofs/raster/scheduler_query.hpp
// prove_persistent_symbolic): the problem's tiles M, N, L are bit-vector variables, the other
// parameters fixed; model/raster/persistent.cpp's host and device steps are encoded operation by
// operation (rounding, get_log_swizzle_size, the heuristic raster, get_grid_shape's truncation, the
// CTA's first linear index and stride, get_current_work_for_linear_idx, get_work_idx_m_and_n).
//
// Width: two bits above the largest value a valid visit computes ((T + 128)^2 * Lmax: M, N <= 2^12,
// L <= 16 keep it below 2^29), and every addition and multiplication also asserts that it does not
// wrap, so the encoding computes the integers the model computes.
//
// Queries (D: 1 <= M, N <= T, 1 <= L <= Lmax; a visit: a CTA (bx < gx, by < gy) and k with
// lin = first(bx, by) + k * G < B, G = gx * gy, B = blocks_m * blocks_n * L):
//   .launch     sat? D, the grid is empty (exactly-once), or empty, not a multiple of the cluster
//               or past CUDA's y limit of 65535 (launches: the hardware refuses such a launch)
//   .first      sat? a CTA's first index >= G, or two CTAs share one         (so lin covers [0, B) once)
//   .in-range   sat? D, a visit whose tile is outside the problem
//   .box        sat? D, a visit whose tile is outside the rounded blocks (blocks_m x blocks_n x L)
//   .injective  sat? D, two different visits on one tile
// exactly-once holds when .launch, .first, .lemma, .box and .injective are unsat: the B visits land
// injectively in a box of B tiles, so each tile of the box, every real one included, once (the
// pigeonhole). A sat answer is minimized (M + N + L, then M, N) and the configuration decided by
// enumeration (prove_scheduler), whose replayed witness is the verdict; if enumeration finds the
// configuration correct (two visits share a padding tile only), the result is UNKNOWN.
#include <z3++.h>

#include <algorithm>

#include "proofs/raster/scheduler_query.hpp"
#include "model/support/error.hpp"
#include "proofs/smt/session.hpp"

namespace layoutproof::proofs {
namespace {

using i64 = std::int64_t;
using z3::expr;

struct Enc {
  z3::context& c;
  std::vector<expr>& guards;  // no-wrap conditions every visit must meet
  unsigned w = 32;
  expr k(i64 v) const {
    if (v < 0 || (w < 63 && (static_cast<std::uint64_t>(v) >> w) != 0)) throw LayoutError("scheduler encoding: a constant does not fit the width");
    return c.bv_val(static_cast<std::uint64_t>(v), w);
  }
  expr var(const std::string& n) const { return c.bv_const(n.c_str(), w); }
  expr mul(const expr& a, const expr& b) const {
    guards.push_back(z3::bvmul_no_overflow(a, b, false));
    return a * b;
  }
  expr add(const expr& a, const expr& b) const {
    guards.push_back(z3::bvadd_no_overflow(a, b, false));
    return a + b;
  }
  expr umin(const expr& a, const expr& b) const { return z3::ite(z3::ult(a, b), a, b); }
  expr round_up(const expr& a, const expr& b) const { return mul(z3::udiv(a + b - k(1), b), b); }
};

struct Plan {
  expr ls, blocks_m, blocks_n, along_n, gx, gy, total;
};

// model/raster/persistent.cpp plan_persistent, symbolically in M, N, L.
Plan plan(const Enc& e, const raster::PersistentConfig& c, const expr& M, const expr& N, const expr& L) {
  const expr pm = e.round_up(M, e.k(c.cluster_m)), pn = e.round_up(N, e.k(c.cluster_n));
  const expr mn = e.umin(pm, pn);
  const i64 s = c.max_swizzle;
  const expr ls = s >= 8 ? z3::ite(z3::uge(mn, e.k(6)), e.k(3), z3::ite(z3::uge(mn, e.k(3)), e.k(2), z3::ite(z3::uge(mn, e.k(2)), e.k(1), e.k(0))))
                  : s >= 4 ? z3::ite(z3::uge(mn, e.k(3)), e.k(2), z3::ite(z3::uge(mn, e.k(2)), e.k(1), e.k(0)))
                  : s >= 2 ? z3::ite(z3::uge(mn, e.k(2)), e.k(1), e.k(0))
                           : e.k(0);
  const expr sw = z3::shl(e.k(1), ls);
  const expr bm = e.round_up(pm, e.mul(sw, e.k(c.cluster_m))), bn = e.round_up(pn, e.mul(sw, e.k(c.cluster_n)));
  const expr total = e.mul(e.mul(bm, bn), L);
  const expr along_n = c.raster == raster::RasterOption::heuristic ? !z3::ugt(bn, bm) : e.c.bool_val(c.raster == raster::RasterOption::along_n);
  // get_grid_shape (truncate_by_problem_size), the model's three cases.
  const i64 cs = c.cluster_m * c.cluster_n;
  expr along_when_n = e.k(0), along_when_m = e.k(0);
  if (cs == 1) {
    along_when_n = along_when_m = e.umin(e.k(c.sms), total);
  } else if (c.max_active_clusters != 0 && c.max_active_clusters * cs <= c.sms) {
    along_when_n = e.umin(e.k(c.max_active_clusters * c.cluster_n), z3::udiv(total, e.k(c.cluster_m)));
    along_when_m = e.umin(e.k(c.max_active_clusters * c.cluster_m), z3::udiv(total, e.k(c.cluster_n)));
  } else {
    const i64 min_num_gpc = c.sms < 18 ? 1 : c.sms / 18;
    const i64 per_gpc = 18 - (18 % cs);
    const i64 residual = c.sms < 18 ? 0 : c.sms % 18;
    i64 cta_per_device = min_num_gpc * per_gpc + residual - (residual % cs);
    cta_per_device = std::min(c.sms, cta_per_device);
    along_when_n = e.umin(e.k(cta_per_device / c.cluster_m), z3::udiv(total, e.k(c.cluster_m)));
    along_when_m = e.umin(e.k(cta_per_device / c.cluster_n), z3::udiv(total, e.k(c.cluster_n)));
  }
  const expr gx = z3::ite(along_n, e.k(c.cluster_m), along_when_m);
  const expr gy = z3::ite(along_n, along_when_n, e.k(c.cluster_n));
  return {ls, bm, bn, along_n, gx, gy, total};
}

struct Tile {
  expr m, n;
};

i64 log2_exact(i64 v) {
  i64 r = 0;
  while ((i64{1} << r) < v) ++r;
  return r;
}

// get_work_idx_m_and_n for the position `rem` of a linear index in its batch, with the CTA's
// minor offset in its cluster equal to rem's residue modulo the cluster's minor extent (the
// lemma the header states). Divisions by the cluster's extents (powers of two) are shifts and
// masks; the one division by a symbolic value, extra / blk_major, is its quotient and remainder
// variables q, r with extra = q * blk_major + r, r < blk_major (exact: blk_major >= 1).
Tile tile_of(const Enc& e, const raster::PersistentConfig& c, const Plan& p, const expr& rem, const std::string& tag) {
  const auto branch = [&](bool along_n) -> Tile {
    const i64 major = along_n ? c.cluster_n : c.cluster_m, minor = along_n ? c.cluster_m : c.cluster_n;
    const expr minor_off = rem & e.k(minor - 1), blk = z3::lshr(rem, e.k(log2_exact(minor)));
    const expr major_off = blk & e.k(major - 1), cluster_id = z3::lshr(blk, e.k(log2_exact(major)));
    const expr offset = cluster_id & (z3::shl(e.k(1), p.ls) - e.k(1));
    const expr extra = z3::lshr(cluster_id, p.ls);
    const expr blk_major = z3::lshr(along_n ? p.blocks_n : p.blocks_m, e.k(log2_exact(major)));
    const std::string t = tag + (along_n ? "n" : "m");
    const expr q = e.var("q" + t), r = e.var("r" + t);
    e.guards.push_back(extra == e.add(e.mul(q, blk_major), r) && z3::ult(r, blk_major));
    const expr minor_v = e.add(e.mul(e.add(e.mul(q, z3::shl(e.k(1), p.ls)), offset), e.k(minor)), minor_off);
    const expr major_v = e.add(e.mul(r, e.k(major)), major_off);
    return along_n ? Tile{minor_v, major_v} : Tile{major_v, minor_v};
  };
  if (c.raster == raster::RasterOption::along_n) return branch(true);
  if (c.raster == raster::RasterOption::along_m) return branch(false);
  const Tile tn = branch(true), tm = branch(false);
  return {z3::ite(p.along_n, tn.m, tm.m), z3::ite(p.along_n, tn.n, tm.n)};
}

std::string bounds_text(i64 t, i64 lmax) {
  return "every M, N in [1, " + std::to_string(t) + "], L in [1, " + std::to_string(lmax) + "]";
}

}  // namespace

SchedulerResult prove_persistent_symbolic(const raster::PersistentConfig& fixed, i64 max_tiles, i64 max_l, SchedulerClaim claim,
                                          const ProveOptions& o) {
  SchedulerResult r;
  const std::string domain = bounds_text(max_tiles, max_l) + ", " + config_text(fixed).substr(config_text(fixed).find("cluster"));
  r.config = domain;
  const std::string method = "Z3 over bit-vectors (no operation wraps) for " + domain;
  if (claim != SchedulerClaim::exactly_once && claim != SchedulerClaim::in_range && claim != SchedulerClaim::launches) {
    r.verdict = Verdict::error(method, std::string("the symbolic engine decides exactly-once, in-range and launches, not ") + to_string(claim));
    return r;
  }
  if (max_tiles < 1 || max_tiles > 4096 || max_l < 1 || max_l > 16) {
    r.verdict = Verdict::error(method, "the symbolic engine takes M, N up to 4096 and L up to 16 (the 32-bit encoding's bound)");
    return r;
  }
  raster::validate(fixed);  // the fixed parameters (LayoutError: bad input)
  try {
    smt::Session ss(o.smt, std::string("scheduler.sm90-persistent.") + to_string(claim), domain);
    z3::context& c = ss.ctx();
    std::vector<expr> guards;
    // The width: every value of a valid visit is below (T + 128)^2 * Lmax (the blocks rounded by at
    // most a swizzle of 8 times a cluster of 16 per mode), the SM count or 2^20; two bits of margin.
    const i64 biggest = std::max<i64>({(max_tiles + 128) * (max_tiles + 128) * max_l, fixed.sms * 16, i64{1} << 20});
    unsigned width = 2;
    while ((i64{1} << (width - 2)) <= biggest) ++width;
    const Enc e{c, guards, width};
    const expr M = e.var("M"), N = e.var("N"), L = e.var("L");
    const expr dom = z3::uge(M, e.k(1)) && z3::ule(M, e.k(max_tiles)) && z3::uge(N, e.k(1)) && z3::ule(N, e.k(max_tiles)) &&
                     z3::uge(L, e.k(1)) && z3::ule(L, e.k(max_l));
    const Plan p = plan(e, fixed, M, N, L);
    const std::string name = std::string("scheduler.sm90-persistent.") + to_string(claim);
    const auto conj = [&](std::vector<expr> v) {
      for (const expr& g : guards) v.push_back(g);
      return v;
    };
    // Decide the configuration a model names by enumeration: the replayed verdict.
    const auto decide_at = [&](const z3::model& m, const std::string& why) -> SchedulerResult {
      raster::PersistentConfig at = fixed;
      at.tiles_m = static_cast<i64>(m.eval(M, true).get_numeral_uint64());
      at.tiles_n = static_cast<i64>(m.eval(N, true).get_numeral_uint64());
      at.tiles_l = static_cast<i64>(m.eval(L, true).get_numeral_uint64());
      SchedulerResult x = prove_scheduler(schedule_of(at), claim, o);
      if (x.verdict.is_refuted()) {
        x.verdict.method = method + ": " + why + " (query " + name + "), decided at " + config_text(at) + " by " + x.verdict.method;
        return x;
      }
      SchedulerResult u;
      u.config = config_text(at);
      u.verdict = Verdict::unknown(method, why + " at " + config_text(at) + ", which enumeration finds correct: the symbolic argument does not decide the domain");
      return u;
    };
    // The smallest configuration (M + N + L, then M, N) of a sat query, by bisection on the sum.
    const auto smallest = [&](std::vector<expr> q, z3::model m, const std::string& tag) {
      for (int step = 0; step < 40; ++step) {
        const i64 sum = static_cast<i64>(m.eval(M + N + L, true).get_numeral_uint64());
        if (sum <= 3) break;
        std::vector<expr> tighter = q;
        tighter.push_back(z3::ult(M + N + L, e.k(sum)));
        const auto a = ss.check(name + "." + tag + ".min" + std::to_string(step), tighter);
        if (a.result != z3::sat) break;
        m = *a.model;
      }
      return m;
    };
    const auto run = [&](const std::string& tag, const std::vector<expr>& q, const std::string& why) -> std::optional<SchedulerResult> {
      const auto a = ss.check(name + "." + tag, conj(q));
      if (a.result == z3::unsat) return std::nullopt;
      if (a.result == z3::unknown) {
        SchedulerResult u;
        u.config = domain;
        u.verdict = Verdict::unknown(method, "query " + name + "." + tag + ": " + a.reason);
        return u;
      }
      const z3::model mm = smallest(conj(q), *a.model, tag);
      return decide_at(mm, why);
    };
    // The visits are the code's for get_grid_shape's grid whether or not the hardware launches it
    // (the launches claim); exactly-once needs only a CTA.
    const expr launches = z3::ugt(e.mul(p.gx, p.gy), e.k(0));
    if (claim == SchedulerClaim::launches) {
      const expr divides = z3::urem(p.gx, e.k(fixed.cluster_m)) == e.k(0) && z3::urem(p.gy, e.k(fixed.cluster_n)) == e.k(0);
      // CUDA's grid limits: y at most 65535 (along-n puts up to the SM count there); x, at most the
      // SM count or the problem's tiles (below 2^29 here), cannot pass 2^31 - 1; z is 1.
      const expr within = z3::ule(p.gy, e.k(65535));
      if (auto x = run("launch", {dom, !(launches && divides && within)}, "the grid does not launch")) return *x;
      r.verdict = Verdict::proved(method, "for " + bounds_text(max_tiles, max_l) +
                                              ", get_grid_shape's grid has a CTA, the cluster divides it and its y is at most 65535");
      return r;
    }
    if (claim == SchedulerClaim::exactly_once)
      if (auto x = run("launch", {dom, !launches}, "the grid has no CTA")) return *x;
    // A visit: the linear index l * per_batch + rem of [0, B) (the .first and .lemma queries show that
    // each is visited by exactly one (CTA, iteration), whose cluster offset is rem's residue).
    const expr per_batch = e.mul(p.blocks_m, p.blocks_n);
    const expr l1 = e.var("l1"), rem1 = e.var("rem1");
    const expr valid1 = z3::ult(l1, L) && z3::ult(rem1, per_batch);
    const Tile t1 = tile_of(e, fixed, p, rem1, "1");
    if (claim == SchedulerClaim::in_range) {
      if (auto x = run("in-range", {dom, launches, valid1, z3::uge(t1.m, M) || z3::uge(t1.n, N)}, "a visit outside the problem")) return *x;
      r.verdict = Verdict::proved(method, "for " + bounds_text(max_tiles, max_l) + ", no work unit lies outside its problem");
      return r;
    }
    {
      // .first: the CTAs' first linear indices are [0, G) once each (so lin = first + k * G covers [0, B) once).
      const expr bx = e.var("cx"), by = e.var("cy"), bx2 = e.var("cx2"), by2 = e.var("cy2");
      const auto first = [&](const expr& x, const expr& y) { return z3::ite(p.along_n, e.add(x, e.mul(y, p.gx)), e.add(e.mul(x, p.gy), y)); };
      const expr in1 = z3::ult(bx, p.gx) && z3::ult(by, p.gy), in2 = z3::ult(bx2, p.gx) && z3::ult(by2, p.gy);
      if (auto x = run("first", {dom, launches, in1, in2, z3::uge(first(bx, by), e.mul(p.gx, p.gy)) || ((bx != bx2 || by != by2) && first(bx, by) == first(bx2, by2))},
                       "two CTAs start at one linear index"))
        return *x;
      // .lemma: along n the grid's x is the cluster's m (along m its y the cluster's n) and a batch is a
      // whole number of clusters, so the CTA visiting lin = bx + cm * (by + k * gy) has bx % cm = lin % cm =
      // rem % cm: its offset in the cluster is rem's residue, as tile_of takes it.
      if (auto x = run("lemma", {dom, launches, (p.along_n && (p.gx != e.k(fixed.cluster_m) || z3::urem(per_batch, e.k(fixed.cluster_m)) != e.k(0))) ||
                                                   (!p.along_n && (p.gy != e.k(fixed.cluster_n) || z3::urem(per_batch, e.k(fixed.cluster_n)) != e.k(0)))},
                       "a CTA's cluster offset is not its linear index's residue"))
        return *x;
    }
    if (auto x = run("box", {dom, launches, valid1, z3::uge(t1.m, p.blocks_m) || z3::uge(t1.n, p.blocks_n)}, "a visit outside the rounded blocks")) return *x;
    const expr rem2 = e.var("rem2");
    const Tile t2 = tile_of(e, fixed, p, rem2, "2");
    if (auto x = run("injective", {dom, launches, valid1, z3::ult(rem2, per_batch), rem1 != rem2, t1.m == t2.m, t1.n == t2.n}, "two visits on one tile"))
      return *x;
    r.verdict = Verdict::proved(method, "for " + bounds_text(max_tiles, max_l) +
                                            ", every tile computed by exactly one (CTA, iteration): the grid launches, the visits cover the "
                                            "linear indices [0, B) once and land injectively in the B rounded blocks");
  } catch (const z3::exception& ex) {
    r.verdict = Verdict::error(method, std::string("Z3: ") + ex.msg());
  }
  return r;
}

}  // namespace layoutproof::proofs
