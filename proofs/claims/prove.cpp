#include "proofs/claims/prove.hpp"

#include <chrono>

namespace layoutproof::proofs {
namespace {

Outcome<Violation> run_engine(const Subject& s, const Claim& c, const ProveOptions& o) {
  const bool small = domain_size(s) <= o.auto_exhaustive_limit &&
                     (!c.other || size(c.other->layout) <= o.auto_exhaustive_limit) &&
                     (c.kind != Claim::Kind::surjective || c.n <= o.auto_exhaustive_limit);
  if (o.engine == EngineChoice::exhaustive || (o.engine == EngineChoice::automatic && small))
    return check_exhaustive(s, c, o.smt.deadline.clip_ms(o.smt.timeout_ms));
  return check_z3(s, c, o.smt);
}

Verdict decide(const Subject& s, const Claim& c, const ProveOptions& o) {
  const Outcome<Violation> out = run_engine(s, c, o);
  Verdict v;
  switch (out.kind) {
    case OutcomeKind::holds: v = Verdict::proved(out.method, out.text); break;
    case OutcomeKind::violated: v = replay(s, c, out.witness, out.method); break;
    case OutcomeKind::unknown: v = Verdict::unknown(out.method, out.text); break;
    case OutcomeKind::error: v = Verdict::error(out.method, out.text); break;
  }
  v.queries = out.queries;
  return v;
}

}  // namespace

Verdict prove(const Subject& s, const Claim& claim, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  Claim c = claim;
  if (c.kind == Claim::Kind::contiguous && !c.mode_given && !s.bare_swizzle) {
    c.mode = default_contiguous_mode(s.layout.layout);
    c.mode_given = true;
  }
  if (o.smt.deadline.passed()) return Verdict::unknown("deadline", o.smt.deadline.reason());
  Verdict v = decide(s, c, o);
  // contiguous: the largest power-of-two V that holds (holding is closed under divisors, so we
  // walk up until the first failure).
  if (c.kind == Claim::Kind::contiguous && o.largest_v && !s.bare_swizzle && v.kind != Verdict::Kind::error &&
      c.mode < s.layout.layout.rank()) {
    const i64 s_m = product(s.layout.layout.shape[c.mode]);
    i64 best = 0;
    for (i64 w = 1; w <= s_m && !o.smt.deadline.passed(); w *= 2) {
      Claim cw = c;
      cw.n = w;
      const Verdict vw = (w == c.n) ? v : decide(s, cw, o);
      if (!vw.is_proved()) break;
      best = w;
      if (w > s_m / 2) break;  // w * 2 > s_m, and the doubling could overflow near 2^63
    }
    v.largest_v = best;

  }
  v.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return o.smt.deadline.expire(std::move(v));
}

}  // namespace layoutproof::proofs
