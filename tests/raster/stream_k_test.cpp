// sm90-stream-k's claims (proofs/raster/stream_k_claims.cpp) against brute force, and the fix-up
// protocol's deadlock detection on schedules made by hand (the real scheduler makes none).
#include <gtest/gtest.h>

#include <random>

#include "model/raster/stream_k.hpp"
#include "proofs/raster/scheduler.hpp"
#include "tests/raster/stream_k_brute.hpp"

namespace layoutproof {
namespace {

using raster::Decomposition;
using raster::StreamKConfig;
using raster::Work;

// k-exactly-once and exactly-once against counting every (tile, k block) and every final split.
TEST(Sm90StreamK, ClaimsAgreeWithCounting) {
  std::mt19937 rng(5);
  proofs::ProveOptions o;
  int stream_k_configs = 0;
  for (int trial = 0; trial < 300; ++trial) {
    StreamKConfig c;
    c.base.tiles_m = 1 + rng() % 9, c.base.tiles_n = 1 + rng() % 9, c.base.tiles_l = 1 + rng() % 2;
    c.base.cluster_m = 1 << (rng() % 2), c.base.cluster_n = 1 << (rng() % 2);
    c.base.max_swizzle = 1 << (rng() % 3);
    c.base.raster = static_cast<raster::RasterOption>(rng() % 3);
    const std::int64_t sms[] = {4, 8, 16, 20, 132};
    c.base.sms = sms[rng() % 5];
    const std::int64_t ks[] = {1, 8, 9, 17, 33, 64};
    c.k_tiles = ks[rng() % 6];
    c.decomposition = static_cast<Decomposition>(rng() % 4);
    c.splits = (c.decomposition == Decomposition::heuristic || c.decomposition == Decomposition::split_k) ? 1 + rng() % 3 : 1;
    const raster::StreamKPlan p = raster::plan_stream_k(c);
    stream_k_configs += p.mode == Decomposition::stream_k;
    const proofs::Schedule s = proofs::schedule_of(c);
    const KCoverage brute = brute_k_coverage(s, c);
    // The real scheduler never deadlocks: k-exactly-once is its coverage here.
    EXPECT_EQ(proofs::prove_scheduler(s, proofs::SchedulerClaim::k_exactly_once, o).verdict.is_proved(), brute.k_once) << s.config;
    EXPECT_EQ(proofs::prove_scheduler(s, proofs::SchedulerClaim::exactly_once, o).verdict.is_proved(), brute.once) << s.config;
  }
  EXPECT_GT(stream_k_configs, 10);  // the sample reaches the stream-K decomposition
}

// A hand-made schedule: `loops[c]` is CTA c's units, tiles 2x1x1 of 8 k blocks.
proofs::Schedule hand(std::vector<std::vector<Work>> loops, raster::Reduction reduction = raster::Reduction::deterministic) {
  proofs::Schedule s;
  s.config = "hand-made";
  s.plan = "hand-made";
  s.ctas = static_cast<std::int64_t>(loops.size());
  s.grid = {s.ctas, 1, 1};
  s.problems = {{2, 1, 1}};
  s.k_tiles = 8;
  s.reduction = reduction;
  for (auto& l : loops)
    for (std::size_t i = 0; i < l.size(); ++i) l[i].iter = static_cast<std::int64_t>(i);
  s.visits = [loops](std::int64_t cta) { return loops.at(static_cast<std::size_t>(cta)); };
  return s;
}

Work unit(std::int64_t m, std::int64_t kb, std::int64_t ke) {
  Work w;
  w.m = m, w.k_begin = kb, w.k_end = ke;
  return w;
}

// Each CTA first computes the final split of one tile, which waits for the other tile's first
// half, which the other CTA computes only after its own final split: the fix-up never completes.
TEST(Sm90StreamK, FixupDeadlockIsRefuted) {
  const auto s = hand({{unit(0, 4, 8), unit(1, 0, 4)}, {unit(1, 4, 8), unit(0, 0, 4)}});
  const auto r = proofs::prove_scheduler(s, proofs::SchedulerClaim::k_exactly_once, {});
  ASSERT_TRUE(r.verdict.is_refuted());
  EXPECT_NE(r.verdict.witness.why.find("deadlocks"), std::string::npos) << r.verdict.witness.why;
  // The same units in the backward order the real scheduler uses complete.
  const auto ok = hand({{unit(1, 0, 4), unit(0, 4, 8)}, {unit(0, 0, 4), unit(1, 4, 8)}});
  EXPECT_TRUE(proofs::prove_scheduler(ok, proofs::SchedulerClaim::k_exactly_once, {}).verdict.is_proved());
}

// A middle split waits for the lock to equal its k_begin (deterministic) or for the first split's
// store (nondeterministic): in the order final, middle, first on one CTA each, nothing waits forever.
TEST(Sm90StreamK, ThreeSplitsCompleteInBothReductionModes) {
  for (const auto mode : {raster::Reduction::deterministic, raster::Reduction::nondeterministic}) {
    const auto s = hand({{unit(0, 5, 8)}, {unit(0, 2, 5)}, {unit(0, 0, 2)}, {unit(1, 0, 8)}}, mode);
    EXPECT_TRUE(proofs::prove_scheduler(s, proofs::SchedulerClaim::k_exactly_once, {}).verdict.is_proved());
  }
  // A k block computed twice and one computed by none are named.
  const auto twice = hand({{unit(0, 0, 5)}, {unit(0, 4, 8)}, {unit(1, 0, 8)}});
  const auto r = proofs::prove_scheduler(twice, proofs::SchedulerClaim::k_exactly_once, {});
  ASSERT_TRUE(r.verdict.is_refuted());
  EXPECT_NE(r.verdict.witness.why.find("k block 4 of tile (m 0, n 0, l 0) is accumulated twice"), std::string::npos) << r.verdict.witness.why;
  const auto gap = hand({{unit(0, 0, 3)}, {unit(0, 4, 8)}, {unit(1, 0, 8)}});
  const auto g = proofs::prove_scheduler(gap, proofs::SchedulerClaim::k_exactly_once, {});
  ASSERT_TRUE(g.verdict.is_refuted());
  EXPECT_NE(g.verdict.witness.why.find("k block 3 of tile (m 0, n 0, l 0) is accumulated by no unit"), std::string::npos) << g.verdict.witness.why;
}

}  // namespace
}  // namespace layoutproof
