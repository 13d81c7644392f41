// sm90-persistent over symbolic dimensions (proofs/raster/scheduler_query.hpp
// prove_persistent_symbolic): the problem's tiles M, N, L are bit-vector variables, the other
// parameters fixed; model/raster/persistent.cpp's host and device steps are encoded operation by
// operation (rounding, get_log_swizzle_size, the heuristic raster, get_grid_shape's truncation, the
// CTA's first linear index and stride, get_current_work_for_linear_idx, get_work_idx_m_and_n).
//
// Cases. The domain is split by the two things the host decides from M and N before any tile is
// mapped: the log swizzle (0 to log2(max_swizzle), at most 3) and, for the heuristic raster, the
// raster order. Each case fixes them, so its queries have constant shifts and one branch of
// get_work_idx_m_and_n rather than an ite of both: case (s, r) holds where get_log_swizzle_size
// gives s and get_rasterization_order gives r, which is one case for every M, N, L (the ite chain
// takes one of the values listed; the order is a comparison), so the cases cover the domain.
//
// Width: the narrowest that holds twice the largest rounded problem, B_max = round_up(T, S cm) *
// round_up(T, S cn) * Lmax (S the largest swizzle the cases take), and every constant (the SM
// count, CUDA's 65535): 17 bits for M, N <= 64. That bound is not trusted: every addition and
// multiplication records the condition under which it wraps, and the queries prove that none can
// hold (.plan for the host's values, .box and .in-range for a visit's, .first for the CTAs'), so
// the encoding computes the integers the model computes. A wrap found is a sat answer like any
// other: decided by enumeration (REFUTED only if enumeration refutes), else UNKNOWN, never PROVED.
//
// Queries, each once per case (D: 1 <= M, N <= T, 1 <= L <= Lmax, and the case; a visit: l < L,
// rem < blocks_m * blocks_n, the linear index l * per_batch + rem; defs: extra = q * A + r, r < A,
// with A = blk_major, the quotient and remainder of get_work_idx_m_and_n's one division by a
// symbolic value, exact for A >= 1; K = the batch's swizzle groups of clusters along the minor mode):
//   .plan       sat? D, a host value wraps or A = 0
//   .launch     sat? D, the grid is empty (exactly-once), or empty, not a multiple of the cluster
//               or past CUDA's y limit of 65535 (launches: the hardware refuses such a launch)
//   .product    (once, over the integers) (x * P) * (y * Q) = (y * x) * (P * Q) = (x * y) * (P * Q)
//   .monotone   (once, over the integers) q >= K -> q * A >= A * K
//               Both are given to the visits' queries where no product or shift wraps (there they
//               are these lemmas): per_batch = (A * K) << log2(minor * major * sw), and q >= K ->
//               q * A >= A * K at the visit's q. A bit-blasted multiplier cannot see either.
//   .first      sat? D, a CTA (bx < gx, by < gy) whose first index is >= G = gx * gy or is not
//               undone by the inverse (first % gx, first / gx along n; (first / gy, first % gy)
//               along m): the CTAs' first indices are [0, G) once each
//   .lemma      sat? D, the grid's minor extent is not the cluster's, or a batch is not a whole
//               number of clusters (so a CTA's cluster offset is its linear index's residue)
//   .in-range   sat? D, a visit whose tile is outside the problem, or whose values wrap
//   .box        sat? D, a visit whose tile is outside the rounded blocks, or whose values wrap
//   .injective  sat? D, a visit whose digits (minor_off, major_off, offset, q, r) do not give back
//               rem, or whose tile does not give back its digits (an inverse: tile -> digits,
//               masks and shifts of the tile's m and n)
// The map is rem -> digits -> tile; a left inverse of each step makes it injective with one visit
// per query, not two visits on one tile (the quadratic query this replaced took 12 to 60 s at
// M, N <= 64 and timed out at the default 8 s). exactly-once holds when .plan, .launch, .product,
// .monotone, .first, .lemma, .box and .injective are unsat: the B visits land injectively in a box
// of B tiles, so each tile of the box, every real one included, once (the pigeonhole). A sat answer
// is minimized (M + N + L, over every case) and the configuration decided by enumeration
// (prove_scheduler), whose replayed witness is the verdict; if enumeration finds the configuration
// correct (two visits share a padding tile only, or a value wraps), the result is UNKNOWN.
#include <z3++.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "model/support/checked.hpp"
#include "model/support/error.hpp"
#include "proofs/raster/scheduler_query.hpp"
#include "proofs/smt/session.hpp"

namespace layoutproof::proofs {
namespace {

using i64 = std::int64_t;
using z3::expr;

i64 log2_exact(i64 v) {
  i64 r = 0;
  while ((i64{1} << r) < v) ++r;
  return r;
}

// The encoder at width w; every add and mul appends the condition under which it wraps to `wraps`.
struct Enc {
  z3::context& c;
  std::vector<expr>& wraps;
  unsigned w;
  expr k(i64 v) const {
    if (v < 0 || (static_cast<std::uint64_t>(v) >> w) != 0) throw LayoutError("scheduler encoding: a constant does not fit the width");
    return c.bv_val(static_cast<std::uint64_t>(v), w);
  }
  expr var(const std::string& n) const { return c.bv_const(n.c_str(), w); }
  expr mul(const expr& a, const expr& b) const {
    wraps.push_back(!z3::bvmul_no_overflow(a, b, false));
    return a * b;
  }
  expr add(const expr& a, const expr& b) const {
    wraps.push_back(!z3::bvadd_no_overflow(a, b, false));
    return a + b;
  }
  expr umin(const expr& a, const expr& b) const { return z3::ite(z3::ult(a, b), a, b); }
  // round_up(a, 2^lg) = (a + 2^lg - 1) / 2^lg * 2^lg: the division and product by a power of two
  // are shifts, which cannot wrap here.
  expr round_up(const expr& a, i64 lg) const { return z3::shl(z3::lshr(add(a, k((i64{1} << lg) - 1)), k(lg)), k(lg)); }
};

expr any_of(z3::context& c, const std::vector<expr>& v) {
  expr r = c.bool_val(false);
  for (const expr& x : v) r = r || x;
  return r;
}

// One case: the log swizzle and the raster order the host picks.
struct Case {
  int ls = 0;
  bool along_n = true;
  std::string text() const { return "log-swizzle" + std::to_string(ls) + (along_n ? ".along-n" : ".along-m"); }
};

std::vector<Case> cases_of(const raster::PersistentConfig& c) {
  const int ls_max = c.max_swizzle >= 8 ? 3 : c.max_swizzle >= 4 ? 2 : c.max_swizzle >= 2 ? 1 : 0;
  std::vector<Case> v;
  for (int ls = 0; ls <= ls_max; ++ls) {
    if (c.raster != raster::RasterOption::along_m) v.push_back({ls, true});
    if (c.raster != raster::RasterOption::along_n) v.push_back({ls, false});
  }
  return v;
}

struct Plan {
  expr in_case;  // M, N, L fall in this case
  expr blocks_m, blocks_n, per_batch, gx, gy, grid_size;
  expr blk_major, blk_minor, clusters;  // A, K and A * K: a batch's clusters, swizzle groups along the minor mode
  expr per_batch_in_clusters;           // the .product lemma here: per_batch = (A * K) << log2(major * minor * sw)
  std::vector<expr> wraps;              // a host value wraps, or A is 0 (the defs' divisor)
};

// model/raster/persistent.cpp plan_persistent in case `cs`, symbolically in M, N, L.
Plan plan(z3::context& ctx, unsigned w, const raster::PersistentConfig& c, const Case& cs, const expr& M, const expr& N, const expr& L) {
  std::vector<expr> wraps;
  const Enc e{ctx, wraps, w};
  const i64 lcm = log2_exact(c.cluster_m), lcn = log2_exact(c.cluster_n);
  const expr pm = e.round_up(M, lcm), pn = e.round_up(N, lcn);
  const expr mn = e.umin(pm, pn);
  const i64 s = c.max_swizzle;
  const expr ls = s >= 8 ? z3::ite(z3::uge(mn, e.k(6)), e.k(3), z3::ite(z3::uge(mn, e.k(3)), e.k(2), z3::ite(z3::uge(mn, e.k(2)), e.k(1), e.k(0))))
                  : s >= 4 ? z3::ite(z3::uge(mn, e.k(3)), e.k(2), z3::ite(z3::uge(mn, e.k(2)), e.k(1), e.k(0)))
                  : s >= 2 ? z3::ite(z3::uge(mn, e.k(2)), e.k(1), e.k(0))
                           : e.k(0);
  const expr bm = e.round_up(pm, cs.ls + lcm), bn = e.round_up(pn, cs.ls + lcn);
  const expr raster_n = c.raster == raster::RasterOption::heuristic ? !z3::ugt(bn, bm) : ctx.bool_val(c.raster == raster::RasterOption::along_n);
  const expr in_case = ls == e.k(cs.ls) && raster_n == ctx.bool_val(cs.along_n);
  const expr per_batch = e.mul(bm, bn);
  const expr total = e.mul(per_batch, L);
  // get_grid_shape (truncate_by_problem_size), the model's three cases.
  const i64 cs_size = c.cluster_m * c.cluster_n;
  expr along = e.k(0);
  if (cs_size == 1) {
    along = e.umin(e.k(c.sms), total);
  } else if (c.max_active_clusters != 0 && c.max_active_clusters * cs_size <= c.sms) {
    along = cs.along_n ? e.umin(e.k(c.max_active_clusters * c.cluster_n), z3::lshr(total, e.k(lcm)))
                       : e.umin(e.k(c.max_active_clusters * c.cluster_m), z3::lshr(total, e.k(lcn)));
  } else {
    const i64 min_num_gpc = c.sms < 18 ? 1 : c.sms / 18;
    const i64 per_gpc = 18 - (18 % cs_size);
    const i64 residual = c.sms < 18 ? 0 : c.sms % 18;
    const i64 cta_per_device = std::min(c.sms, min_num_gpc * per_gpc + residual - (residual % cs_size));
    along = cs.along_n ? e.umin(e.k(cta_per_device / c.cluster_m), z3::lshr(total, e.k(lcm)))
                       : e.umin(e.k(cta_per_device / c.cluster_n), z3::lshr(total, e.k(lcn)));
  }
  const expr gx = cs.along_n ? e.k(c.cluster_m) : along;
  const expr gy = cs.along_n ? along : e.k(c.cluster_n);
  const expr grid_size = e.mul(gx, gy);
  const expr blk_major = cs.along_n ? z3::lshr(bn, e.k(lcn)) : z3::lshr(bm, e.k(lcm));
  const expr blk_minor = cs.along_n ? z3::lshr(bm, e.k(lcm + cs.ls)) : z3::lshr(bn, e.k(lcn + cs.ls));
  const expr clusters = e.mul(blk_major, blk_minor);
  wraps.push_back(blk_major == e.k(0));
  // blocks_minor = K << j1 and blocks_major = A << j2 (their low bits are 0), so blocks_m * blocks_n
  // is (A * K) << (j1 + j2): the .product lemma, at the naturals these words are where no shift or
  // product wraps, which the premises say.
  const i64 j1 = (cs.along_n ? lcm : lcn) + cs.ls, j2 = cs.along_n ? lcn : lcm;
  const expr bminor = cs.along_n ? bm : bn, bmajor = cs.along_n ? bn : bm;
  const auto exact_shl = [&](const expr& v, i64 j) { return z3::lshr(z3::shl(v, e.k(j)), e.k(j)) == v; };
  const expr premises = bminor == z3::shl(blk_minor, e.k(j1)) && exact_shl(blk_minor, j1) && bmajor == z3::shl(blk_major, e.k(j2)) &&
                        exact_shl(blk_major, j2) && z3::bvmul_no_overflow(bm, bn, false) &&
                        z3::bvmul_no_overflow(blk_major, blk_minor, false) && exact_shl(clusters, j1 + j2);
  const expr in_clusters = z3::implies(premises, per_batch == z3::shl(clusters, e.k(j1 + j2)));
  return {in_case, bm, bn, per_batch, gx, gy, grid_size, blk_major, blk_minor, clusters, in_clusters, wraps};
}

// A visit's tile and what the queries ask of it. get_work_idx_m_and_n takes the batch position rem
// apart into digits, rem = ((((q * blk_major + r) * sw + offset) * major + major_off) * minor +
// minor_off, and builds the tile from them.
struct Visit {
  expr m, n;
  expr defs;                // q and r are extra's quotient and remainder by blk_major
  expr monotone;            // the .monotone lemma at q: q >= K -> q * A >= A * K
  expr digits_give_rem;     // the digits, recombined, are rem
  expr tile_gives_digits;   // the tile's m and n, taken apart, are the digits
  std::vector<expr> wraps;  // a value of the visit wraps
};

// get_work_idx_m_and_n for the position `rem` of a linear index in its batch, with the CTA's minor
// offset in its cluster equal to rem's residue modulo the cluster's minor extent (the .lemma
// query). Divisions by the cluster's extents and the swizzle (powers of two) are shifts and masks;
// the one division by a symbolic value, extra / blk_major, is its quotient and remainder variables.
Visit visit(z3::context& ctx, unsigned w, const raster::PersistentConfig& c, const Case& cs, const Plan& p, const expr& rem, const std::string& tag) {
  std::vector<expr> wraps;
  const Enc e{ctx, wraps, w};
  const i64 major = cs.along_n ? c.cluster_n : c.cluster_m, minor = cs.along_n ? c.cluster_m : c.cluster_n;
  const i64 lmaj = log2_exact(major), lmin = log2_exact(minor), sw = i64{1} << cs.ls;
  const expr minor_off = rem & e.k(minor - 1), blk = z3::lshr(rem, e.k(lmin));
  const expr major_off = blk & e.k(major - 1), cluster_id = z3::lshr(blk, e.k(lmaj));
  const expr offset = cluster_id & e.k(sw - 1), extra = z3::lshr(cluster_id, e.k(cs.ls));
  const expr q = e.var("q" + tag), r = e.var("r" + tag);
  // q * blk_major + r = extra in the integers: no wrap, which the quotient (q <= extra) never needs.
  const expr qa = q * p.blk_major, qar = qa + r;
  const expr defs = extra == qar && z3::ult(r, p.blk_major) && z3::bvmul_no_overflow(q, p.blk_major, false) && z3::bvadd_no_overflow(qa, r, false);
  const expr minor_v = e.add(e.mul(e.add(e.mul(q, e.k(sw)), offset), e.k(minor)), minor_off);
  const expr major_v = e.add(e.mul(r, e.k(major)), major_off);
  // The inverses: any function of the digits (here of qar, the term defs equates with extra) that
  // gives back rem, and any function of the tile that gives back the digits, shows each step
  // injective; neither needs to avoid wrapping.
  const expr again = z3::shl(z3::shl(z3::shl(qar, e.k(cs.ls)) | offset, e.k(lmaj)) | major_off, e.k(lmin)) | minor_off;
  const expr tile_digits = (minor_v & e.k(minor - 1)) == minor_off && (z3::lshr(minor_v, e.k(lmin)) & e.k(sw - 1)) == offset &&
                           z3::lshr(minor_v, e.k(lmin + cs.ls)) == q && (major_v & e.k(major - 1)) == major_off && z3::lshr(major_v, e.k(lmaj)) == r;
  const expr monotone = z3::implies(z3::uge(q, p.blk_minor) && z3::bvmul_no_overflow(q, p.blk_major, false) &&
                                        z3::bvmul_no_overflow(p.blk_major, p.blk_minor, false),
                                    z3::uge(qa, p.clusters));
  if (cs.along_n) return {minor_v, major_v, defs, monotone, again == rem, tile_digits, wraps};
  return {major_v, minor_v, defs, monotone, again == rem, tile_digits, wraps};
}

// The width: bits for twice the largest value a valid visit computes and for every constant.
unsigned width_for(const raster::PersistentConfig& c, i64 max_tiles, i64 max_l) {
  const i64 sw = i64{1} << cases_of(c).back().ls;
  const i64 bm = round_up(max_tiles, sw * c.cluster_m), bn = round_up(max_tiles, sw * c.cluster_n);
  const i64 biggest = std::max<i64>({checked_mul(checked_mul(checked_mul(bm, bn), max_l), 2), c.sms, c.max_active_clusters * 16, 65535});
  unsigned w = 1;
  while ((static_cast<std::uint64_t>(biggest) >> w) != 0) ++w;
  return w + 1;
}

std::string bounds_text(i64 t, i64 lmax) {
  return "every M, N in [1, " + std::to_string(t) + "], L in [1, " + std::to_string(lmax) + "]";
}

using Build = std::function<std::vector<expr>(std::size_t)>;  // a query's assertions in case i

// The queries of one claim over one domain, asked case by case in one session.
class Prover {
 public:
  Prover(const raster::PersistentConfig& fixed, i64 max_tiles, i64 max_l, SchedulerClaim claim, const ProveOptions& o, std::string domain)
      : fixed_(fixed), claim_(claim), o_(o), domain_(std::move(domain)), method_("Z3 over bit-vectors (no operation wraps) for " + domain_),
        name_(std::string("scheduler.sm90-persistent.") + to_string(claim)), ss_(o.smt, name_, domain_), w_(width_for(fixed, max_tiles, max_l)),
        e_{ss_.ctx(), no_wraps_, w_}, M_(e_.var("M")), N_(e_.var("N")), L_(e_.var("L")), cases_(cases_of(fixed)), l1_(e_.var("l1")), rem1_(e_.var("rem1")),
        dom_(z3::uge(M_, e_.k(1)) && z3::ule(M_, e_.k(max_tiles)) && z3::uge(N_, e_.k(1)) && z3::ule(N_, e_.k(max_tiles)) && z3::uge(L_, e_.k(1)) &&
             z3::ule(L_, e_.k(max_l))) {
    for (const Case& cs : cases_) plans_.push_back(plan(ss_.ctx(), w_, fixed, cs, M_, N_, L_));
  }
  const std::string& method() const { return method_; }

  // The claim's verdict, PROVED with `holds` once every query it asks is unsat.
  SchedulerResult prove(const std::string& holds) {
    if (auto x = run("plan", [&](std::size_t i) { return std::vector<expr>{any_of(ctx(), plans_[i].wraps)}; },
                     "a value of the " + std::to_string(w_) + "-bit encoding of the host's plan wraps"))
      return *x;
    if (claim_ == SchedulerClaim::launches) {
      if (auto x = run("launch", [&](std::size_t i) { return std::vector<expr>{host_ok(i), !hardware_launches(i)}; }, "the grid does not launch")) return *x;
      return proved(holds);
    }
    // The visits are the code's for get_grid_shape's grid whether or not the hardware launches it
    // (the launches claim); exactly-once needs only a CTA.
    if (claim_ == SchedulerClaim::exactly_once)
      if (auto x = run("launch", [&](std::size_t i) { return std::vector<expr>{host_ok(i), !has_cta(i)}; }, "the grid has no CTA")) return *x;
    if (auto x = arithmetic()) return *x;
    if (claim_ == SchedulerClaim::in_range) {
      const auto outside = [&](std::size_t i) {
        const Visit& t = visits_[i];
        return std::vector<expr>{host_ok(i), has_cta(i), valid(i), z3::uge(t.m, M_) || z3::uge(t.n, N_) || any_of(ctx(), t.wraps)};
      };
      if (auto x = run("in-range", outside, "a visit outside the problem")) return *x;
      return proved(holds);
    }
    if (auto x = ctas()) return *x;
    const auto box = [&](std::size_t i) {
      const Visit& t = visits_[i];
      return std::vector<expr>{host_ok(i), has_cta(i), valid(i),
                               z3::uge(t.m, plans_[i].blocks_m) || z3::uge(t.n, plans_[i].blocks_n) || any_of(ctx(), t.wraps)};
    };
    if (auto x = run("box", box, "a visit outside the rounded blocks")) return *x;
    // .box proved that no value of a visit wraps: assumed here.
    const auto injective = [&](std::size_t i) {
      const Visit& t = visits_[i];
      return std::vector<expr>{host_ok(i), has_cta(i), valid(i), !any_of(ctx(), t.wraps), !t.digits_give_rem || !t.tile_gives_digits};
    };
    if (auto x = run("injective", injective, "a visit whose tile does not give back its linear index")) return *x;
    return proved(holds);
  }

 private:
  z3::context& ctx() { return ss_.ctx(); }
  expr host_ok(std::size_t i) { return !any_of(ctx(), plans_[i].wraps); }
  expr has_cta(std::size_t i) { return z3::ugt(plans_[i].grid_size, e_.k(0)); }
  // The launches claim: a CTA, the cluster divides the grid, and CUDA's limits: y at most 65535
  // (along-n puts up to the SM count there); x, at most the SM count or the problem's tiles (below
  // 2^31 here), cannot pass 2^31 - 1; z is 1.
  expr hardware_launches(std::size_t i) {
    const Plan& p = plans_[i];
    const expr divides = z3::urem(p.gx, e_.k(fixed_.cluster_m)) == e_.k(0) && z3::urem(p.gy, e_.k(fixed_.cluster_n)) == e_.k(0);
    return has_cta(i) && divides && z3::ule(p.gy, e_.k(65535));
  }
  // A visit: the linear index l * per_batch + rem of [0, B) (the .first and .lemma queries show that
  // each is visited by exactly one (CTA, iteration), whose cluster offset is rem's residue), with the
  // two lemmas of arithmetic().
  expr valid(std::size_t i) {
    return z3::ult(l1_, L_) && z3::ult(rem1_, plans_[i].per_batch) && visits_[i].defs && plans_[i].per_batch_in_clusters && visits_[i].monotone;
  }

  SchedulerResult proved(const std::string& holds) {
    SchedulerResult r;
    r.config = domain_;
    r.verdict = Verdict::proved(method_, holds);
    return r;
  }

  // Two facts of arithmetic the SAT solver is bad at, proved over the integers (nonlinear arithmetic
  // decides each at once) and given to the visits' queries where they are those facts: at the
  // naturals the words are, with premises saying that no product or shift there wraps.
  //   .product   (x * P) * (y * Q) = (y * x) * (P * Q) = (x * y) * (P * Q): a batch, blocks_m *
  //              blocks_n, is A * K clusters of the cluster's tiles times the swizzle (plan())
  //   .monotone  q >= K -> q * A >= A * K, at a visit's quotient q (visit())
  // With them, a visit past the blocks (q >= K) is a comparison of shifted words, where it was a
  // multiplier's monotonicity and equivalence bit-blasted (.box took 0.5 s at M, N <= 64 without
  // them and 16 s at 256; the product proved by bit-blasting, up to 4 s a case at 1024).
  std::optional<SchedulerResult> arithmetic() {
    for (std::size_t i = 0; i < cases_.size(); ++i) visits_.push_back(visit(ctx(), w_, fixed_, cases_[i], plans_[i], rem1_, "1"));
    const expr x = ctx().int_const("x"), y = ctx().int_const("y"), P = ctx().int_const("P"), Q = ctx().int_const("Q");
    const expr q = ctx().int_const("q"), k = ctx().int_const("K"), a = ctx().int_const("A");
    const std::pair<std::string, std::vector<expr>> lemmas[] = {
        {"product (x * P) * (y * Q) = (y * x) * (P * Q) = (x * y) * (P * Q)",
         {x >= 0, y >= 0, P >= 0, Q >= 0, (x * P) * (y * Q) != (y * x) * (P * Q) || (x * P) * (y * Q) != (x * y) * (P * Q)}},
        {"monotone q >= K -> q * A >= A * K", {q >= 0, k >= 0, a >= 0, q >= k, q * a < a * k}}};
    for (const auto& [what, as] : lemmas) {
      const std::string tag = what.substr(0, what.find(' '));
      const auto m = ss_.check(name_ + "." + tag, as, smt::Session::Strategy::nonlinear_integers);
      if (m.result == z3::unsat) continue;
      SchedulerResult u;
      u.config = domain_;
      u.verdict = Verdict::unknown(method_, "query " + name_ + "." + tag + " (" + what.substr(tag.size() + 1) + " over the naturals) not proved: " +
                                                (m.result == z3::unknown ? m.reason : std::string("sat")));
      return u;
    }
    return std::nullopt;
  }

  // .first and .lemma: each linear index is visited by one (CTA, iteration), whose cluster offset
  // is the index's residue.
  std::optional<SchedulerResult> ctas() {
    const expr bx = e_.var("cx"), by = e_.var("cy");
    const auto first = [&](std::size_t i) {
      const Plan& p = plans_[i];
      std::vector<expr> wraps;
      const Enc f{ctx(), wraps, w_};
      const bool n = cases_[i].along_n;
      const expr lin = n ? f.add(bx, f.mul(by, p.gx)) : f.add(f.mul(bx, p.gy), by);
      const expr back = n ? (z3::urem(lin, p.gx) == bx && z3::udiv(lin, p.gx) == by) : (z3::udiv(lin, p.gy) == bx && z3::urem(lin, p.gy) == by);
      return std::vector<expr>{host_ok(i), has_cta(i), z3::ult(bx, p.gx), z3::ult(by, p.gy), z3::uge(lin, p.grid_size) || !back || any_of(ctx(), wraps)};
    };
    if (auto x = run("first", first, "two CTAs start at one linear index")) return x;
    // Along n the grid's x is the cluster's m (along m its y the cluster's n) and a batch is a whole
    // number of clusters, so the CTA visiting lin = bx + cm * (by + k * gy) has bx % cm = lin % cm =
    // rem % cm: its offset in the cluster is rem's residue, as visit() takes it.
    const auto lemma = [&](std::size_t i) {
      const Plan& p = plans_[i];
      const i64 cm = fixed_.cluster_m, cn = fixed_.cluster_n;
      const expr bad = cases_[i].along_n ? (p.gx != e_.k(cm) || z3::urem(p.per_batch, e_.k(cm)) != e_.k(0))
                                         : (p.gy != e_.k(cn) || z3::urem(p.per_batch, e_.k(cn)) != e_.k(0));
      return std::vector<expr>{host_ok(i), has_cta(i), bad};
    };
    return run("lemma", lemma, "a CTA's cluster offset is not its linear index's residue");
  }

  // The configuration a model names, decided by enumeration: the replayed verdict.
  SchedulerResult decide_at(const z3::model& m, const std::string& why, const std::string& query) {
    raster::PersistentConfig at = fixed_;
    at.tiles_m = static_cast<i64>(m.eval(M_, true).get_numeral_uint64());
    at.tiles_n = static_cast<i64>(m.eval(N_, true).get_numeral_uint64());
    at.tiles_l = static_cast<i64>(m.eval(L_, true).get_numeral_uint64());
    SchedulerResult x = prove_scheduler(schedule_of(at), claim_, o_);
    if (x.verdict.is_refuted()) {
      x.verdict.method = method_ + ": " + why + " (query " + query + "), decided at " + config_text(at) + " by " + x.verdict.method;
      return x;
    }
    SchedulerResult u;
    u.config = config_text(at);
    u.verdict = Verdict::unknown(method_, why + " at " + config_text(at) + " (query " + query +
                                              "), which enumeration finds correct: the symbolic argument does not decide the domain");
    return u;
  }

  // A query asked in every case. Unsat in all: nullopt. Else the smallest configuration (M + N + L)
  // of the sat cases, each minimized under the best sum so far, decided by enumeration; no case sat
  // but one unknown: UNKNOWN naming that query.
  // Bit-blasted straight to the SAT solver: the words are narrow, and on the 108 configurations of
  // docs/performance.md that takes half the time of Z3's QF_BV solver.
  std::optional<SchedulerResult> run(const std::string& tag, const Build& build, const std::string& why) {
    const auto how = smt::Session::Strategy::bit_blast;
    std::optional<z3::model> best;
    std::string best_query, unknown;
    i64 best_sum = 0;
    const expr sum = M_ + N_ + L_;
    for (std::size_t i = 0; i < cases_.size(); ++i) {
      const std::string q = name_ + "." + tag + "." + cases_[i].text();
      std::vector<expr> as = build(i);
      as.push_back(dom_);
      as.push_back(plans_[i].in_case);
      if (best) as.push_back(z3::ult(sum, e_.k(best_sum)));
      auto a = ss_.check(q, as, how);
      if (a.result == z3::unknown && unknown.empty()) unknown = "query " + q + ": " + a.reason;
      for (int step = 0; a.result == z3::sat && step < 40; ++step) {
        best = *a.model, best_query = q;
        best_sum = static_cast<i64>(a.model->eval(sum, true).get_numeral_uint64());
        if (best_sum <= 3) break;
        as.push_back(z3::ult(sum, e_.k(best_sum)));
        a = ss_.check(q + ".min" + std::to_string(step), as, how);
      }
    }
    if (best) return decide_at(*best, why, best_query);
    if (unknown.empty()) return std::nullopt;
    SchedulerResult u;
    u.config = domain_;
    u.verdict = Verdict::unknown(method_, unknown);
    return u;
  }

  raster::PersistentConfig fixed_;
  SchedulerClaim claim_;
  const ProveOptions& o_;
  std::string domain_, method_, name_;
  smt::Session ss_;
  unsigned w_;
  std::vector<expr> no_wraps_;  // the operations outside a plan or visit: none wraps
  Enc e_;
  expr M_, N_, L_;
  std::vector<Case> cases_;
  expr l1_, rem1_;
  expr dom_;  // D: 1 <= M, N <= T, 1 <= L <= Lmax
  std::vector<Plan> plans_;
  std::vector<Visit> visits_;
};

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
  const std::string bounds = bounds_text(max_tiles, max_l);
  const std::string holds =
      claim == SchedulerClaim::launches ? "for " + bounds + ", get_grid_shape's grid has a CTA, the cluster divides it and its y is at most 65535"
      : claim == SchedulerClaim::in_range
          ? "for " + bounds + ", no work unit lies outside its problem"
          : "for " + bounds +
                ", every tile computed by exactly one (CTA, iteration): the grid launches, the visits cover the linear indices [0, B) once and land "
                "injectively in the B rounded blocks";
  try {
    Prover p(fixed, max_tiles, max_l, claim, o, domain);
    return p.prove(holds);
  } catch (const z3::exception& ex) {
    r.verdict = Verdict::error(method, std::string("Z3: ") + ex.msg());
  }
  return r;
}

}  // namespace layoutproof::proofs
