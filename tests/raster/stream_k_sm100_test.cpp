// sm100-stream-k (model/raster/stream_k_sm100.hpp): the facts its header's argument rests on,
// checked over random configurations, and its claims against brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "model/raster/stream_k_sm100.hpp"
#include "proofs/raster/scheduler.hpp"
#include "tests/raster/stream_k_brute.hpp"

namespace layoutproof {
namespace {

using raster::Decomposition;
using raster::Sm100StreamKConfig;
using raster::Sm100StreamKPath;
using raster::StreamKConfig;
using raster::Work;
using Unit = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;  // m, n, l, k_begin, k_end

StreamKConfig random_config(std::mt19937& rng) {
  StreamKConfig c;
  c.base.tiles_m = 1 + rng() % 13, c.base.tiles_n = 1 + rng() % 13, c.base.tiles_l = 1 + rng() % 2;
  const std::int64_t clusters[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 1}, {1, 4}};
  const auto& cl = clusters[rng() % 6];
  c.base.cluster_m = cl[0], c.base.cluster_n = cl[1];
  c.base.max_swizzle = 1 << (rng() % 4);
  c.base.raster = static_cast<raster::RasterOption>(rng() % 3);
  const std::int64_t sms[] = {4, 8, 20, 132, 148};
  c.base.sms = sms[rng() % 5];
  const std::int64_t ks[] = {1, 8, 9, 17, 33, 64};
  c.k_tiles = ks[rng() % 6];
  c.decomposition = static_cast<Decomposition>(rng() % 4);
  c.splits = (c.decomposition == Decomposition::heuristic || c.decomposition == Decomposition::split_k) ? 1 + rng() % 3 : 1;
  return c;
}

// The header's first fact: in stream-K mode to_linear_idx maps the grid's blocks one to one onto
// [0, waves * sk_units_), so a block's id, wherever the CLC hands it, names one linear index.
TEST(Sm100StreamK, LinearIndexIsABijectionOntoTheWaves) {
  std::mt19937 rng(11);
  int stream_k = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const raster::Sm100StreamKPlan p = raster::plan_sm100_stream_k({random_config(rng)});
    if (p.path != Sm100StreamKPath::stream_k) continue;
    ++stream_k;
    const std::int64_t gx = p.grid[0], gy = p.grid[1], ctas = gx * gy * p.grid[2];
    ASSERT_EQ(gx * gy, static_cast<std::int64_t>(p.sk.sk_units));
    std::set<std::uint64_t> seen;
    for (std::int64_t cta = 0; cta < ctas; ++cta) seen.insert(raster::sm100_stream_k_linear_idx(p, cta % gx, (cta / gx) % gy, cta / (gx * gy)));
    EXPECT_EQ(static_cast<std::int64_t>(seen.size()), ctas);
    EXPECT_EQ(*seen.rbegin(), static_cast<std::uint64_t>(ctas - 1));
    EXPECT_GE(static_cast<std::uint64_t>(ctas), p.sk.units_per_problem);
    EXPECT_LT(static_cast<std::uint64_t>(ctas) - p.sk.units_per_problem, p.sk.sk_units);  // the last wave only is partial
  }
  EXPECT_GT(stream_k, 30);
}

// The SM100 params bypass the GPC occupancy rule: 20 SMs with 2x2 clusters give 20 stream-K units
// (the GPU's own answer: tests/raster/sm100_stream_k_visits.txt.xz, grid 10x2x9), where the SM90
// scheduler's rule gives 16.
TEST(Sm100StreamK, BypassesTheOccupancyRule) {
  StreamKConfig c;
  c.base.tiles_m = 13, c.base.tiles_n = 13, c.base.cluster_m = 2, c.base.cluster_n = 2, c.base.sms = 20;
  c.k_tiles = 40, c.decomposition = Decomposition::stream_k;
  const raster::Sm100StreamKPlan p = raster::plan_sm100_stream_k({c});
  EXPECT_EQ(p.sk.sk_units, 20u);
  EXPECT_EQ(p.grid, (std::array<std::int64_t, 3>{10, 2, 9}));
  EXPECT_EQ(raster::plan_stream_k(c).sk_units, 16u);
}

std::multiset<Unit> units(const proofs::Schedule& s, const StreamKConfig& c, bool inside_only) {
  std::multiset<Unit> out;
  for (std::int64_t cta = 0; cta < s.ctas; ++cta)
    for (const Work& w : s.visits(cta))
      if (!inside_only || (w.m < c.base.tiles_m && w.n < c.base.tiles_n && w.l < c.base.tiles_l)) out.insert({w.m, w.n, w.l, w.k_begin, w.k_end});
  return out;
}

// The same work as the SM90 scheduler with the same params (bypass on): in stream-K mode every
// unit, padding included (the SM90 CTAs walk the same linear indices); in the data-parallel and
// split-K modes every unit inside the problem (the SM100 grid is the problem's blocks, unswizzled,
// where the SM90 one walks the swizzle-rounded blocks).
TEST(Sm100StreamK, SameUnitsAsTheSm90Scheduler) {
  std::mt19937 rng(12);
  int paths[3] = {0, 0, 0};
  for (int trial = 0; trial < 300; ++trial) {
    StreamKConfig c = random_config(rng);
    const raster::Sm100StreamKPlan p = raster::plan_sm100_stream_k({c});
    ++paths[static_cast<int>(p.path)];
    c.bypass_sm90_occupancy = true;
    const bool sk = p.path == Sm100StreamKPath::stream_k;
    const auto got = units(proofs::schedule_of(Sm100StreamKConfig{c}), c, !sk);
    const auto want = units(proofs::schedule_of(c), c, !sk);
    EXPECT_EQ(got, want) << proofs::config_text(c);
  }
  EXPECT_GT(paths[0], 20);
  EXPECT_GT(paths[1], 20);
  EXPECT_GT(paths[2], 20);
}

// k-exactly-once and exactly-once against counting every (tile, k block) and every final split.
TEST(Sm100StreamK, ClaimsAgreeWithCounting) {
  std::mt19937 rng(13);
  proofs::ProveOptions o;
  for (int trial = 0; trial < 200; ++trial) {
    const StreamKConfig c = random_config(rng);
    const proofs::Schedule s = proofs::schedule_of(Sm100StreamKConfig{c});
    const KCoverage brute = brute_k_coverage(s, c);
    EXPECT_EQ(proofs::prove_scheduler(s, proofs::SchedulerClaim::k_exactly_once, o).verdict.is_proved(), brute.k_once) << s.config;
    EXPECT_EQ(proofs::prove_scheduler(s, proofs::SchedulerClaim::exactly_once, o).verdict.is_proved(), brute.once) << s.config;
  }
}

// Waves along z past 65535: get_grid_shape's grid does not launch (CUDA's limit); the visits the
// code computes for it still cover every k block.
TEST(Sm100StreamK, WavesPastTheGridLimitDoNotLaunch) {
  StreamKConfig c;
  c.base.tiles_m = 131073, c.base.sms = 2, c.base.raster = raster::RasterOption::along_m;
  c.k_tiles = 9, c.decomposition = Decomposition::stream_k;
  const proofs::Schedule s = proofs::schedule_of(Sm100StreamKConfig{c});
  EXPECT_EQ(s.grid, (std::array<std::int64_t, 3>{2, 1, 65536}));
  const proofs::SchedulerResult r = proofs::prove_scheduler(s, proofs::SchedulerClaim::launches, proofs::ProveOptions{});
  ASSERT_TRUE(r.verdict.is_refuted());
  EXPECT_NE(r.verdict.witness.why.find("past CUDA's grid limits"), std::string::npos) << r.verdict.witness.why;
}

}  // namespace
}  // namespace layoutproof
