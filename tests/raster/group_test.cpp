// sm100-group (model/raster/persistent.hpp GroupConfig with sm100): its host grid against CUTLASS's
// own get_grid_shape (tests/raster/sm100_group_grids.txt.gz, made by
// tools/scheduler_reference/sm100_group_reference.cu's `host` mode), and its device side against
// sm90-group's, which it shares.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "model/raster/persistent.hpp"
#include "model/support/error.hpp"
#include "proofs/raster/scheduler.hpp"
#include "proofs/raster/scheduler_query.hpp"

namespace layoutproof {
namespace {

using raster::GroupConfig;
using raster::RasterOption;

// Every line "G M0 N0 ... cm cn raster sms atom_m dynamic max_active_clusters gx gy gz": the grid
// CUTLASS's to_underlying_arguments and get_grid_shape give equals plan_group's.
TEST(Sm100Group, HostGridEqualsCutlass) {
  const std::string path = std::string(LP_RASTER_DATA) + "/sm100_group_grids.txt.gz";
  FILE* f = popen(("gzip -dc '" + path + "'").c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string text;
  char buf[1 << 16];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  ASSERT_EQ(pclose(f), 0) << path;
  std::istringstream in(text);
  std::string line;
  int lines = 0, differ_atom = 0, differ_dynamic = 0, differ_sm90 = 0;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    int groups = 0;
    ls >> groups;
    GroupConfig c;
    c.sm100 = true;
    for (int g = 0; g < groups; ++g) {
      std::int64_t m = 0, n = 0;
      ls >> m >> n;
      c.groups.push_back({m, n});
    }
    int raster = 0, dynamic = 0;
    std::array<std::int64_t, 3> want{};
    ls >> c.cluster_m >> c.cluster_n >> raster >> c.sms >> c.atom_m >> dynamic >> c.max_active_clusters >> want[0] >> want[1] >> want[2];
    ASSERT_TRUE(ls) << line;
    c.raster = static_cast<RasterOption>(raster);
    c.dynamic_cluster = dynamic != 0;
    const auto p = raster::plan_group(c);
    EXPECT_EQ(p.grid, want) << line;
    ++lines;
    // How often each of the host's differences from sm90 changes the grid in this data.
    GroupConfig a = c;
    a.atom_m = 1;
    differ_atom += raster::plan_group(a).grid != p.grid;
    GroupConfig d = c;
    d.dynamic_cluster = !c.dynamic_cluster;
    differ_dynamic += raster::plan_group(d).grid != p.grid;
    GroupConfig s = c;
    s.sm100 = false, s.atom_m = 1, s.dynamic_cluster = false;
    differ_sm90 += !c.dynamic_cluster && c.atom_m == 1 && raster::plan_group(s).grid != p.grid;
  }
  EXPECT_EQ(lines, 18252);
  // The data tells the three rules apart: the 2-SM MMA's tile, the preferred-cluster grid, 20-SM GPCs.
  EXPECT_GT(differ_atom, 100);
  EXPECT_GT(differ_dynamic, 100);
  EXPECT_GT(differ_sm90, 10);
}

// The device side is sm90-group's: with atom m 1 and a static cluster shape, wherever the grids are
// equal, every CTA's visits are too (the wrapper forwards every device call).
TEST(Sm100Group, DeviceIsSm90Groups) {
  proofs::SchedulerQuery q;
  q.kind = "sm100-group";
  q.max_groups = 2;
  q.max_swizzle = 4;
  q.atom_m = 1;
  q.dynamic_cluster = false;
  const auto d = proofs::scheduler_domain(q);
  ASSERT_GT(d.size(), 1000u);
  int compared = 0;
  for (std::size_t i = 0; i < d.size(); i += 7) {
    auto c = std::get<GroupConfig>(d.configs[i]);
    ASSERT_TRUE(c.sm100);
    GroupConfig s = c;
    s.sm100 = false;
    const auto p = raster::plan_group(c), ps = raster::plan_group(s);
    if (p.grid != ps.grid) continue;
    ++compared;
    for (std::int64_t cta = 0; cta < p.grid[0] * p.grid[1]; ++cta) {
      const auto a = raster::group_visits(c, p, cta), b = raster::group_visits(s, ps, cta);
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(a[k].m == b[k].m && a[k].n == b[k].n && a[k].group == b[k].group);
    }
  }
  EXPECT_GT(compared, 100);
}

// The header's worked example: groups 4x1, cluster 2x1, atom m 2, 148 SMs: the host's grid counts
// 2 blocks of the MMA tile, the device's bound 4 CTA tiles; two CTAs take two tiles each.
TEST(Sm100Group, TwoSmMmaHalvesTheGrid) {
  GroupConfig c;
  c.sm100 = true, c.groups = {{4, 1}}, c.cluster_m = 2, c.atom_m = 2, c.sms = 148, c.raster = RasterOption::along_m;
  const auto p = raster::plan_group(c);
  EXPECT_EQ(p.grid, (std::array<std::int64_t, 3>{2, 1, 1}));
  EXPECT_EQ(p.grid_blocks, 2);
  EXPECT_EQ(p.host_blocks, 4);
  const auto v0 = raster::group_visits(c, p, 0), v1 = raster::group_visits(c, p, 1);
  ASSERT_EQ(v0.size(), 2u);
  ASSERT_EQ(v1.size(), 2u);
  EXPECT_EQ(v0[0].m, 0);
  EXPECT_EQ(v0[1].m, 2);
  EXPECT_EQ(v1[0].m, 1);
  EXPECT_EQ(v1[1].m, 3);
  c.atom_m = 1;
  EXPECT_EQ(raster::plan_group(c).grid, (std::array<std::int64_t, 3>{4, 1, 1}));
}

// The dropped tiles are the sm90 scheduler's: found for sm100-group over its own domain, and the
// corrected bound proved over it.
TEST(Sm100Group, DroppedTilesAndTheCorrectedBound) {
  proofs::SchedulerQuery q;
  q.kind = "sm100-group";
  q.max_groups = 2;
  q.cluster = std::array<std::int64_t, 2>{1, 1};
  q.max_swizzle = 4;
  proofs::ProveOptions o;
  const auto r = proofs::prove_scheduler_query(q, proofs::SchedulerClaim::exactly_once, o);
  ASSERT_TRUE(r.verdict.is_refuted()) << r.verdict.detail;
  EXPECT_NE(r.verdict.witness.why.find("computed by no CTA"), std::string::npos) << r.verdict.witness.why;
  q.corrected = true;
  q.sms = 148;  // every grid of this domain launches with 148 SMs
  const auto fixed = proofs::prove_scheduler_query(q, proofs::SchedulerClaim::exactly_once, o);
  EXPECT_TRUE(fixed.verdict.is_proved()) << fixed.verdict.detail << " " << fixed.config;
}

TEST(Sm100Group, BadConfigurationsAreRefusedNamingWhat) {
  const auto refused = [](GroupConfig c, const std::string& what) {
    try {
      raster::plan_group(c);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const LayoutError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  GroupConfig c;
  c.groups = {{2, 2}};
  c.sm100 = true;
  c.atom_m = 2;  // cluster 1x1: the 2-SM pair does not fit
  refused(c, "cluster's M even");
  c.atom_m = 3;
  c.cluster_m = 4;
  refused(c, "1 or 2");
  c.sm100 = false, c.atom_m = 2;
  refused(c, "sm100-group's");
  c.atom_m = 1, c.dynamic_cluster = true;
  refused(c, "sm100-group's");
}

}  // namespace
}  // namespace layoutproof
