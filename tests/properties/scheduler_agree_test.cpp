// Property (conventions.md #6: every encoding has an exhaustive twin): sm90-persistent's symbolic
// engine (proofs/smt/scheduler_z3.cpp: M, N, L free, the other parameters fixed) and enumeration of
// every configuration of the same domain (M, N in [1, T], L in {1, 2}) agree on exactly-once,
// in-range and launches, for generated fixed parameters and bounds T up to 12: the same verdict,
// Z3 within its default budget (never UNKNOWN), and a REFUTED one's configuration refuted by
// enumeration too. Built only when proofs/ is (needs Z3).
#include <gtest/gtest.h>

#include "properties/check.hpp"
#include "properties/schedulers.hpp"
#include "proofs/raster/scheduler_query.hpp"

namespace layoutproof {
namespace {

using proofs::SchedulerClaim;
using proofs::SchedulerQuery;

LP_PROP(SchedulerEngines, SymbolicAgreesWithEnumeration, 40, ()) {
  const raster::PersistentConfig f = *gen::symbolic_fixed().as("fixed");
  const std::int64_t t = *rc::gen::inRange<std::int64_t>(1, 13).as("max_tiles");
  const SchedulerClaim claim = *rc::gen::element(SchedulerClaim::exactly_once, SchedulerClaim::in_range, SchedulerClaim::launches).as("claim");
  SchedulerQuery q;
  q.kind = "sm90-persistent";
  q.cluster = std::array<std::int64_t, 2>{f.cluster_m, f.cluster_n};
  q.max_swizzle = f.max_swizzle, q.raster = f.raster, q.sms = f.sms, q.max_tiles = t;
  if (f.max_active_clusters != 0) q.max_active_clusters = f.max_active_clusters;
  const proofs::ProveOptions o;  // the default budget: 8 s a query
  q.engine = SchedulerQuery::Engine::z3;
  const auto z = proofs::prove_scheduler_query(q, claim, o);
  q.engine = SchedulerQuery::Engine::enumeration;
  const auto n = proofs::prove_scheduler_query(q, claim, o);
  RC_LOG() << "z3: " << to_string(z.verdict.kind) << " " << z.config << " " << z.verdict.method << " " << z.verdict.detail
           << "\nenumeration: " << to_string(n.verdict.kind) << " " << n.config << " " << n.verdict.detail << "\n";
  RC_TAG(to_string(n.verdict.kind));
  RC_ASSERT(z.verdict.is_proved() || z.verdict.is_refuted());
  RC_ASSERT(z.verdict.kind == n.verdict.kind);
  if (z.verdict.is_refuted()) {
    // The witness's configuration, alone, is refuted by enumeration (its replayed trace).
    RC_ASSERT(z.schedule != nullptr);
    RC_ASSERT(proofs::prove_scheduler(*z.schedule, claim, o).verdict.is_refuted());
  }
}

}  // namespace
}  // namespace layoutproof
