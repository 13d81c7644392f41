// sm90-persistent (model/raster/persistent.hpp) against formulas written independently from the
// scheduler's definition where they are simple, and its claims against brute-force counting.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <tuple>

#include "model/raster/persistent.hpp"
#include "model/support/error.hpp"
#include "proofs/raster/scheduler.hpp"
#include "proofs/raster/scheduler_query.hpp"

namespace layoutproof {
namespace {

using raster::PersistentConfig;
using raster::RasterOption;

// Without swizzle and clusters, a linear index r walks the tiles row by row along n
// ((r / N, r % N)) or column by column along m ((r % M, r / M)); CTA c of G takes r = c, c + G, ...
TEST(Sm90Persistent, NoSwizzleNoClusterIsTheLinearWalk) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    PersistentConfig c;
    c.tiles_m = 1 + rng() % 20, c.tiles_n = 1 + rng() % 20, c.tiles_l = 1 + rng() % 3;
    c.raster = rng() % 2 ? RasterOption::along_m : RasterOption::along_n;
    c.sms = 1 + rng() % 40;
    const auto p = raster::plan_persistent(c);
    const std::int64_t g = p.grid[0] * p.grid[1];
    ASSERT_EQ(g, std::min<std::int64_t>(c.sms, c.tiles_m * c.tiles_n * c.tiles_l));
    for (std::int64_t cta = 0; cta < g; ++cta) {
      const auto v = raster::persistent_visits(c, p, cta);
      for (std::size_t k = 0; k < v.size(); ++k) {
        const std::int64_t r = cta + static_cast<std::int64_t>(k) * g;
        const std::int64_t per = c.tiles_m * c.tiles_n, rem = r % per;
        const bool n_major = c.raster == RasterOption::along_n;
        EXPECT_EQ(v[k].l, r / per);
        EXPECT_EQ(v[k].m, n_major ? rem / c.tiles_n : rem % c.tiles_m) << trial;
        EXPECT_EQ(v[k].n, n_major ? rem % c.tiles_n : rem / c.tiles_m) << trial;
      }
      EXPECT_EQ(static_cast<std::int64_t>(v.size()), (c.tiles_m * c.tiles_n * c.tiles_l - cta + g - 1) / g);
    }
  }
}

// exactly-once and in-range against brute-force counting of every visit, on random configurations.
TEST(Sm90Persistent, ClaimsAgreeWithCounting) {
  std::mt19937 rng(11);
  proofs::ProveOptions o;
  int refuted_in_range = 0;
  for (int trial = 0; trial < 400; ++trial) {
    PersistentConfig c;
    c.tiles_m = 1 + rng() % 12, c.tiles_n = 1 + rng() % 12, c.tiles_l = 1 + rng() % 2;
    c.cluster_m = 1 << (rng() % 2), c.cluster_n = 1 << (rng() % 2);
    c.max_swizzle = 1 << (rng() % 4);
    c.raster = static_cast<RasterOption>(rng() % 3);
    c.sms = 1 + rng() % 20;
    const auto p = raster::plan_persistent(c);
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, int> seen;
    bool outside = false;
    for (std::int64_t cta = 0; cta < p.grid[0] * p.grid[1] * p.grid[2]; ++cta)
      for (const auto& w : raster::persistent_visits(c, p, cta)) {
        if (w.m >= c.tiles_m || w.n >= c.tiles_n || w.l >= c.tiles_l) outside = true;
        else ++seen[{w.m, w.n, w.l}];
      }
    bool once = static_cast<std::int64_t>(seen.size()) == c.tiles_m * c.tiles_n * c.tiles_l;
    for (const auto& [t, k] : seen) once = once && k == 1;
    EXPECT_EQ(proofs::prove_scheduler(proofs::schedule_of(c), proofs::SchedulerClaim::exactly_once, o).verdict.is_proved(), once) << proofs::config_text(c);
    // A cluster launch needs a grid with a CTA that the cluster divides; otherwise cudaLaunchKernelEx refuses it.
    const bool launches = p.grid[0] * p.grid[1] > 0 && p.grid[0] % c.cluster_m == 0 && p.grid[1] % c.cluster_n == 0;
    EXPECT_EQ(proofs::prove_scheduler(proofs::schedule_of(c), proofs::SchedulerClaim::launches, o).verdict.is_proved(), launches) << proofs::config_text(c);
    const auto r = proofs::prove_scheduler(proofs::schedule_of(c), proofs::SchedulerClaim::in_range, o);
    EXPECT_EQ(r.verdict.is_refuted(), outside) << proofs::config_text(c);
    refuted_in_range += r.verdict.is_refuted();
  }
  EXPECT_GT(refuted_in_range, 0);  // the swizzle's rounding happens in the sample
}

TEST(Sm90Persistent, BadConfigurationsAreRefusedNamingWhat) {
  PersistentConfig c;
  c.tiles_m = 0;
  EXPECT_THROW(raster::plan_persistent(c), LayoutError);
  c.tiles_m = 4;
  c.cluster_m = 3;
  try {
    raster::plan_persistent(c);
    FAIL();
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("power of two"), std::string::npos);
  }
  c.cluster_m = 1;
  c.max_swizzle = 3;
  EXPECT_THROW(raster::plan_persistent(c), LayoutError);
  c.max_swizzle = 1;
  c.tiles_m = c.tiles_n = i64{1} << 21;
  EXPECT_THROW(raster::plan_persistent(c), LayoutError);  // 2^42 tiles
}

// The symbolic engine (proofs/smt/scheduler_z3.cpp) against its exhaustive twin, enumeration of
// every configuration of the same domain (M, N in [1, T], L in {1, 2}), on random fixed parameters:
// the same verdict, and a REFUTED one's configuration is refuted by enumeration too.
TEST(Sm90Persistent, SymbolicAgreesWithEnumeration) {
  std::mt19937 rng(23);
  proofs::ProveOptions o;
  o.smt.timeout_ms = 120000;
  int refuted = 0;
  for (int trial = 0; trial < 8; ++trial) {
    proofs::SchedulerQuery q;
    q.kind = "sm90-persistent";
    q.cluster = std::array<std::int64_t, 2>{std::int64_t{1} << (rng() % 2), std::int64_t{1} << (rng() % 2)};
    q.max_swizzle = std::int64_t{1} << (rng() % 4);
    q.raster = static_cast<RasterOption>(rng() % 3);
    const std::int64_t sms[] = {1, 3, 5, 8, 17, 132};
    q.sms = sms[rng() % 6];
    q.max_tiles = 3 + static_cast<std::int64_t>(rng() % 4);
    for (const auto claim : {proofs::SchedulerClaim::exactly_once, proofs::SchedulerClaim::in_range, proofs::SchedulerClaim::launches}) {
      q.engine = proofs::SchedulerQuery::Engine::z3;
      const auto z = proofs::prove_scheduler_query(q, claim, o);
      q.engine = proofs::SchedulerQuery::Engine::enumeration;
      const auto n = proofs::prove_scheduler_query(q, claim, o);
      ASSERT_NE(z.verdict.kind, proofs::Verdict::Kind::unknown) << z.verdict.detail;
      EXPECT_EQ(z.verdict.kind, n.verdict.kind) << proofs::to_string(claim) << " " << z.config << " | " << n.config << " | " << z.verdict.detail;
      refuted += z.verdict.is_refuted();
    }
  }
  EXPECT_GT(refuted, 0);  // the sample holds failing domains (in-range's rounding, odd SM counts)
}

// The same at M, N <= 64 within the default budget (8 s a query): the three configurations the
// quadratic injectivity query left UNKNOWN there (heuristic raster, max swizzle 1; ~60 s with a
// large timeout), then a sample of the others, SM counts that leave clusters or GPCs part-filled
// included. Enumeration decides each domain of 8192 configurations in about half a second.
TEST(Sm90Persistent, SymbolicDecidesM64WithinTheDefaultBudget) {
  using proofs::SchedulerClaim;
  struct Row {
    std::array<std::int64_t, 2> cluster;
    std::int64_t swizzle;
    RasterOption raster;
    std::int64_t sms;
    SchedulerClaim claim;
  };
  std::vector<Row> rows{{{1, 1}, 1, RasterOption::heuristic, 132, SchedulerClaim::exactly_once},
                        {{2, 1}, 1, RasterOption::heuristic, 132, SchedulerClaim::exactly_once},
                        {{1, 1}, 1, RasterOption::heuristic, 132, SchedulerClaim::in_range}};
  std::mt19937 rng(64);
  const std::array<std::int64_t, 2> clusters[] = {{1, 1}, {2, 1}, {1, 2}};
  const std::int64_t sms[] = {1, 3, 8, 17, 132};
  const SchedulerClaim claims[] = {SchedulerClaim::exactly_once, SchedulerClaim::in_range, SchedulerClaim::launches};
  for (int k = 0; k < 6; ++k)
    rows.push_back({clusters[rng() % 3], std::int64_t{1} << (rng() % 4), static_cast<RasterOption>(rng() % 3), sms[rng() % 5], claims[rng() % 3]});
  const proofs::ProveOptions o;
  int refuted = 0;
  for (const Row& row : rows) {
    proofs::SchedulerQuery q;
    q.kind = "sm90-persistent";
    q.cluster = row.cluster, q.max_swizzle = row.swizzle, q.raster = row.raster, q.sms = row.sms, q.max_tiles = 64;
    q.engine = proofs::SchedulerQuery::Engine::z3;
    const auto z = proofs::prove_scheduler_query(q, row.claim, o);
    q.engine = proofs::SchedulerQuery::Engine::enumeration;
    const auto n = proofs::prove_scheduler_query(q, row.claim, o);
    const std::string what = proofs::scheduler_flags(q) + " --claim " + proofs::to_string(row.claim);
    EXPECT_TRUE(z.verdict.is_proved() || z.verdict.is_refuted()) << what << ": " << z.verdict.detail;
    EXPECT_EQ(z.verdict.kind, n.verdict.kind) << what << " | " << z.config << " | " << n.config << " | " << z.verdict.detail;
    EXPECT_NE(z.verdict.method.find("for every M, N in [1, 64], L in [1, 2]"), std::string::npos) << z.verdict.method;
    refuted += z.verdict.is_refuted();
  }
  EXPECT_GT(refuted, 0);
  EXPECT_LT(refuted, static_cast<int>(rows.size()));
}

// balance over a domain reports its worst configuration: the largest max over mean of all of
// them, each measured alone here, and that configuration's name.
TEST(Sm90Persistent, DomainBalanceIsTheWorstConfiguration) {
  proofs::SchedulerQuery q;
  q.kind = "sm90-persistent";
  q.tiles = std::array<std::int64_t, 3>{5, 3, 1};
  q.cluster = std::array<std::int64_t, 2>{1, 1};  // swizzle, raster and SMs free: 4 * 3 * 4 configurations
  const proofs::ProveOptions o;
  const proofs::SchedulerDomain d = proofs::scheduler_domain(q);
  ASSERT_EQ(d.size(), 48u);
  double worst = -1;
  std::string worst_config;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const auto r = proofs::prove_scheduler(d.at(i), proofs::SchedulerClaim::balance, o);
    if (r.balance_max_over_mean > worst) worst = r.balance_max_over_mean, worst_config = r.config;
  }
  const auto r = proofs::prove_scheduler_query(q, proofs::SchedulerClaim::balance, o);
  ASSERT_TRUE(r.verdict.is_proved());
  EXPECT_DOUBLE_EQ(r.balance_max_over_mean, worst);
  EXPECT_GT(worst, 1.0);  // 15 tiles over 8 SMs: 2 for some CTAs, 1 for others
  EXPECT_EQ(r.config, worst_config);
  EXPECT_NE(r.verdict.detail.find("the worst of the 48 configurations, " + worst_config), std::string::npos) << r.verdict.detail;
}

// The domain a query asks for is the domain listed, every kind: scheduler_domain_size (which decides
// whether a domain is refused) counts exactly what scheduler_domain lists, the pairs CUTLASS refuses
// left out; the bound given is the bound in the verdict's text, never cut (the stream-K kinds once
// stopped at M, N <= 8 and the group kinds at 3 whatever --max-tiles said).
TEST(SchedulerQuery, DomainIsTheBoundAskedFor) {
  std::vector<proofs::SchedulerQuery> qs;
  for (const std::string kind : {"sm90-persistent", "sm100-persistent", "sm90-stream-k", "sm100-stream-k", "sm90-group", "sm100-group"}) {
    proofs::SchedulerQuery q;
    q.kind = kind;
    q.cluster = std::array<std::int64_t, 2>{2, 1};
    q.max_swizzle = 2;
    const bool group = kind.find("group") != std::string::npos, stream_k = kind.find("stream-k") != std::string::npos;
    if (stream_k) q.k_tiles = 9;
    q.max_tiles = group ? 5 : 11;  // past the old cuts (8 for stream-K, 3 for groups)
    if (group) q.max_groups = 2;
    qs.push_back(q);
    proofs::SchedulerQuery free = q;  // the splits, decompositions and atoms free: the refused pairs left out
    free.cluster.reset(), free.max_tiles = 2;
    qs.push_back(free);
  }
  for (const auto& q : qs) {
    const proofs::SchedulerDomain d = proofs::scheduler_domain(q);
    EXPECT_EQ(proofs::scheduler_domain_size(q), d.size()) << proofs::scheduler_flags(q);
    const std::string bound = "M, N in [1, " + std::to_string(*q.max_tiles) + "]";
    EXPECT_NE(d.text.find(bound), std::string::npos) << d.text;
    EXPECT_TRUE(proofs::unlistable_domain(q, proofs::Spelling::flags).empty()) << proofs::scheduler_flags(q);
  }
}

// A domain past kMaxDomain is refused, naming the largest bound that fits, and that bound's domain
// is listed: the refusal and the listing agree at the edge.
TEST(SchedulerQuery, RefusedDomainNamesTheLargestThatFits) {
  proofs::SchedulerQuery q;
  q.kind = "sm90-stream-k";
  q.sms = 132, q.cluster = std::array<std::int64_t, 2>{2, 1}, q.max_tiles = 64;
  const std::string why = proofs::unlistable_domain(q, proofs::Spelling::flags);
  EXPECT_NE(why.find("--max-tiles 64 asks for 3145728 configurations"), std::string::npos) << why;
  EXPECT_NE(why.find("the largest that fits is --max-tiles 36 (M, N in [1, 36])"), std::string::npos) << why;
  EXPECT_THROW((void)proofs::scheduler_domain(q), LayoutError);
  EXPECT_THROW((void)proofs::prove_scheduler_query(q, proofs::SchedulerClaim::exactly_once, {}), LayoutError);
  q.max_tiles = 36;
  EXPECT_LE(proofs::scheduler_domain_size(q), proofs::kMaxDomain);
  EXPECT_TRUE(proofs::unlistable_domain(q, proofs::Spelling::flags).empty());
  q.max_tiles = 37;
  EXPECT_GT(proofs::scheduler_domain_size(q), proofs::kMaxDomain);
  EXPECT_NE(proofs::unlistable_domain(q, proofs::Spelling::spec_keys).find("'max_tiles' 37 asks for"), std::string::npos);
  // Groups: the bound on each group's M, N is max_tiles, and the other way out is fewer groups.
  proofs::SchedulerQuery g;
  g.kind = "sm90-group";
  g.max_tiles = 64;
  const std::string gwhy = proofs::unlistable_domain(g, proofs::Spelling::flags);
  EXPECT_NE(gwhy.find("the largest that fits is --max-tiles 4 (M, N in [1, 4])"), std::string::npos) << gwhy;
  EXPECT_NE(gwhy.find("--max-groups 1 (one group of M, N in [1, 64])"), std::string::npos) << gwhy;
  g.max_groups = 1;
  EXPECT_EQ(proofs::scheduler_domain_size(g), 64u * 64u * 4 * 4 * 3 * 4);
  EXPECT_EQ(proofs::scheduler_domain(g).size(), 64u * 64u * 4 * 4 * 3 * 4);
}

}  // namespace
}  // namespace layoutproof
