// The scheduler pictures (cli/output/scheduler_report.hpp) against the claims and the schedules
// they draw: the tiles marked missing are the ones exactly-once's witness names, one frame per
// wave, every tile of a proved schedule once in the summary, stream-K's split tiles with their
// contributors, doubled tiles and k blocks on hand-made schedules, and the bounds stated.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <tuple>
#include <unistd.h>

#include "cli/output/atomic_file.hpp"
#include "cli/output/scheduler_report.hpp"
#include "proofs/raster/scheduler_query.hpp"

namespace layoutproof {
namespace {

namespace fs = std::filesystem;
using cli::SchedulerPicture;
using i64 = std::int64_t;

proofs::SchedulerQuery query(const std::string& kind) {
  proofs::SchedulerQuery q;
  q.kind = kind;
  return q;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The <title> of every tile group of class `cls` in an SVG.
std::vector<std::string> titles(const std::string& svg, const std::string& cls) {
  std::vector<std::string> out;
  const std::regex re("<g class=\"" + cls + "\"><title>([^<]*)</title>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) out.push_back((*it)[1]);
  return out;
}

// A fresh report folder under the test's temporary directory, written as the CLI writes it.
fs::path write_report(const proofs::Schedule& s, const std::string& kind, const std::string& name,
                      std::vector<cli::SchedulerReportClaim> claims = {}) {
  const fs::path dir = fs::temp_directory_path() / ("lp_sched_report_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  const cli::SchedulerReportInput in{"test", kind, &s, "the configuration traced", "", std::move(claims)};
  cli::publish_report_folder(dir.string(), [&](const std::string& folder) { cli::write_scheduler_report(folder, in); });
  return dir;
}

// The grouped scheduler's real bug (one 2x3 group, max swizzle 4, 132 SMs): the host bound drops
// tile (m 1, n 2). The picture marks it, lists it, and names it as exactly-once's witness does.
TEST(SchedulerReport, GroupedMissingTileIsTheWitness) {
  auto q = query("sm90-group");
  q.groups = std::vector<std::array<i64, 2>>{{2, 3}};
  q.max_swizzle = 4, q.cluster = std::array<i64, 2>{1, 1}, q.sms = 132;
  const proofs::Schedule s = proofs::fixed_schedule(q);
  const proofs::SchedulerResult r = proofs::prove_scheduler(s, proofs::SchedulerClaim::exactly_once, {});
  ASSERT_TRUE(r.verdict.is_refuted());
  const std::string witness_tile = r.verdict.witness.points.at(0).coord;
  EXPECT_EQ(witness_tile, "(m 1, n 2, l 0)");

  const SchedulerPicture p = cli::scheduler_picture(s);
  EXPECT_EQ(p.missing, 1);
  EXPECT_EQ(p.doubled, 0);
  ASSERT_EQ(p.anomalies.size(), 1u);
  EXPECT_EQ(p.anomalies[0].where, witness_tile);
  EXPECT_TRUE(p.anomalies[0].missing);
  EXPECT_TRUE(p.anomalies[0].units.empty());
  EXPECT_EQ(p.anomalies[0].text, "tile (m 1, n 2, l 0) is computed by no CTA");
  // CTA 5's unit (m 0, n 3) lies past the problem: listed and drawn in the margin.
  ASSERT_EQ(p.outside, 1);
  EXPECT_EQ(p.outside_units[0].cta, 5);
  EXPECT_EQ(p.outside_units[0].w.n, 3);

  const fs::path dir = write_report(s, "sm90-group", "group", {{"exactly-once", "REFUTED", r}});
  const std::string summary = slurp(dir / "summary.svg"), html = slurp(dir / "index.html");
  const auto missing = titles(summary, "missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0], "tile (m 1, n 2, l 0): computed by no CTA (missing)");
  EXPECT_NE(summary.find("url(#lp-missing)"), std::string::npos);
  EXPECT_EQ(titles(summary, "outside").size(), 1u);
  EXPECT_NE(html.find("<tr class=\"missing\"><td>(m 1, n 2, l 0)</td>"), std::string::npos);
  EXPECT_NE(html.find("witness: " + r.verdict.witness.why), std::string::npos);
  // The missing tile stays marked in the wave frame too (it is never computed).
  EXPECT_NE(slurp(dir / "wave_0.svg").find("url(#lp-missing)"), std::string::npos);
  fs::remove_all(dir);
}

// The domain search: the report draws the witness configuration (the result's schedule), and its
// first anomaly is the tile the witness names.
TEST(SchedulerReport, DomainWitnessConfigurationIsDrawn) {
  auto q = query("sm90-group");
  q.max_swizzle = 4, q.cluster = std::array<i64, 2>{1, 1}, q.max_groups = 2;
  const proofs::SchedulerDomain d = proofs::scheduler_domain(q);
  const proofs::SchedulerResult r = proofs::prove_scheduler_domain(d, proofs::SchedulerClaim::exactly_once, {});
  ASSERT_TRUE(r.verdict.is_refuted());
  ASSERT_TRUE(r.schedule);
  const proofs::Schedule& s = *r.schedule;
  EXPECT_EQ(s.config, r.config);
  std::size_t index = 0;  // where the witness lies in the domain
  while (index < d.size() && d.at(index).config != r.config) ++index;
  ASSERT_LT(index, d.size());
  ASSERT_GT(index, 0u);  // the search passed clean configurations first
  const SchedulerPicture p = cli::scheduler_picture(s);
  ASSERT_FALSE(p.anomalies.empty());
  EXPECT_EQ(p.anomalies[0].where, r.verdict.witness.points.at(0).coord);
  // Every configuration before it is clean in the picture as in the claim.
  for (std::size_t i = 0; i < index; ++i) {
    const SchedulerPicture clean = cli::scheduler_picture(d.at(i));
    EXPECT_EQ(clean.missing + clean.doubled, 0) << d.at(i).config;
  }
}

// One frame per wave: as many as the longest CTA loop.
TEST(SchedulerReport, PersistentFrameCountIsTheLongestLoop) {
  auto q = query("sm90-persistent");
  q.tiles = std::array<i64, 3>{6, 5, 1};
  q.sms = 4, q.max_swizzle = 2;
  const proofs::Schedule s = proofs::fixed_schedule(q);
  i64 longest = 0;
  for (i64 cta = 0; cta < s.ctas; ++cta) longest = std::max<i64>(longest, static_cast<i64>(s.visits(cta).size()));
  ASSERT_EQ(longest, 9);
  const fs::path dir = write_report(s, "sm90-persistent", "frames");
  i64 frames = 0;
  for (const auto& e : fs::directory_iterator(dir)) frames += std::regex_match(e.path().filename().string(), std::regex("wave_[0-9]+\\.svg"));
  EXPECT_EQ(frames, longest);
  EXPECT_TRUE(fs::exists(dir / ("wave_" + std::to_string(longest - 1) + ".svg")));
  // Wave 3 draws exactly the 4 CTAs' iteration 3 at full colour, each CTA's number in its tile.
  const std::string w3 = slurp(dir / "wave_3.svg");
  EXPECT_NE(w3.find("Wave 3 of 9"), std::string::npos);
  fs::remove_all(dir);
}

// A proved configuration: every tile of the problem exactly once in the summary, nothing marked.
TEST(SchedulerReport, ProvedScheduleShowsEveryTileOnce) {
  std::mt19937 rng(5);
  int proved_count = 0;
  for (int trial = 0; trial < 40; ++trial) {
    auto q = query("sm90-persistent");
    const auto pick = [&](i64 lo, i64 count) { return lo + static_cast<i64>(rng() % static_cast<std::uint64_t>(count)); };
    q.tiles = std::array<i64, 3>{pick(1, 9), pick(1, 9), pick(1, 2)};
    q.cluster = std::array<i64, 2>{i64{1} << pick(0, 2), i64{1} << pick(0, 2)};
    q.max_swizzle = i64{1} << pick(0, 3), q.sms = pick(1, 12);
    const proofs::Schedule s = proofs::fixed_schedule(q);
    const bool proved = proofs::prove_scheduler(s, proofs::SchedulerClaim::exactly_once, {}).verdict.is_proved();
    const SchedulerPicture p = cli::scheduler_picture(s);
    EXPECT_EQ(proved, p.missing + p.doubled == 0) << s.config;
    if (!proved) continue;
    ++proved_count;
    const std::string svg = cli::scheduler_frame_svg(p, -1, "summary");
    std::map<std::string, int> seen;
    for (const auto& t : titles(svg, "tile")) ++seen[t.substr(0, t.find(':'))];
    const auto& pr = s.problems[0];
    EXPECT_EQ(static_cast<i64>(seen.size()), pr[0] * pr[1] * pr[2]) << s.config;
    for (i64 l = 0; l < pr[2]; ++l)
      for (i64 m = 0; m < pr[0]; ++m)
        for (i64 n = 0; n < pr[1]; ++n)
          EXPECT_EQ(seen["tile (m " + std::to_string(m) + ", n " + std::to_string(n) + ", l " + std::to_string(l) + ")"], 1) << s.config;
    EXPECT_TRUE(titles(svg, "missing").empty());
    EXPECT_TRUE(titles(svg, "doubled").empty());
  }
  EXPECT_GE(proved_count, 20);
}

// Stream-K, 5 tiles of 20 k blocks on 4 SMs: tile 2 is split between CTA 1 (iteration 0, k [0, 10))
// and CTA 2 (iteration 1, k [10, 20), the epilogue): two stripes, labelled, the second marked.
TEST(SchedulerReport, StreamKSplitTileShowsBothContributors) {
  auto q = query("sm90-stream-k");
  q.tiles = std::array<i64, 3>{5, 1, 1};
  q.k_tiles = 20, q.sms = 4;
  const proofs::Schedule s = proofs::fixed_schedule(q);
  const SchedulerPicture p = cli::scheduler_picture(s);
  EXPECT_EQ(p.missing + p.doubled, 0);
  ASSERT_EQ(p.split, 1);
  const auto& t = p.split_tiles.at(0);
  EXPECT_EQ(t.where, "(m 2, n 0, l 0)");
  ASSERT_EQ(t.units.size(), 2u);
  EXPECT_EQ(std::make_tuple(t.units[0].cta, t.units[0].w.iter, t.units[0].w.k_begin, t.units[0].w.k_end), std::make_tuple(i64{1}, i64{0}, i64{0}, i64{10}));
  EXPECT_EQ(std::make_tuple(t.units[1].cta, t.units[1].w.iter, t.units[1].w.k_begin, t.units[1].w.k_end), std::make_tuple(i64{2}, i64{1}, i64{10}, i64{20}));
  const std::string svg = cli::scheduler_frame_svg(p, -1, "summary");
  EXPECT_NE(svg.find(">1:0 k[0,10)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">2:1 k[10,20)</text>"), std::string::npos);
  EXPECT_NE(svg.find("<title>tile (m 2, n 0, l 0): CTA 1 at iteration 0 k[0,10) and CTA 2 at iteration 1 k[10,20) (epilogue)</title>"),
            std::string::npos);
  // One epilogue triangle (the split tile's final unit) and none on whole tiles; in wave 0 only the
  // first stripe is drawn, in wave 1 both.
  auto count = [](const std::string& s, const std::string& what) {
    i64 n = 0;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(svg, "<polygon"), 2);  // the tile's and the legend's
  const std::string w0 = cli::scheduler_frame_svg(p, 0, "w0"), w1 = cli::scheduler_frame_svg(p, 1, "w1");
  EXPECT_NE(w0.find(">1:0 k[0,10)</text>"), std::string::npos);
  EXPECT_EQ(w0.find("2:1 k[10,20)"), std::string::npos);
  EXPECT_NE(w1.find(">2:1 k[10,20)</text>"), std::string::npos);
}

// Hand-made schedules the real ones never produce: a whole tile computed twice, and a stream-K
// tile with a k block twice and one never.
TEST(SchedulerReport, DoubledTilesAndKBlocksAreMarked) {
  proofs::Schedule s;
  s.config = "hand-made";
  s.ctas = 2;
  s.problems = {{2, 2, 1}};
  s.visits = [](i64 cta) {
    std::vector<raster::Work> v;
    if (cta == 0) v = {{0, 0, 0, 0, 0, 0, 0}, {1, 0, 1, 0, 0, 0, 0}};
    else v = {{0, 1, 0, 0, 0, 0, 0}, {1, 0, 1, 0, 0, 0, 0}, {2, 2, 0, 0, 0, 0, 0}};  // (0,1) again; (2,0) outside
    return v;
  };
  const SchedulerPicture p = cli::scheduler_picture(s);
  EXPECT_EQ(p.missing, 1);  // (1, 1)
  EXPECT_EQ(p.doubled, 1);  // (0, 1)
  EXPECT_EQ(p.outside, 1);
  ASSERT_EQ(p.anomalies.size(), 2u);
  EXPECT_EQ(p.anomalies[0].where, "(m 0, n 1, l 0)");
  EXPECT_EQ(p.anomalies[0].text, "tile (m 0, n 1, l 0) is computed 2 times: by CTA 0 at iteration 1 and CTA 1 at iteration 1");
  EXPECT_EQ(p.anomalies[1].where, "(m 1, n 1, l 0)");
  const std::string svg = cli::scheduler_frame_svg(p, -1, "summary");
  ASSERT_EQ(titles(svg, "doubled").size(), 1u);
  EXPECT_NE(svg.find(">2x</text>"), std::string::npos);
  EXPECT_NE(svg.find(">0x</text>"), std::string::npos);
  // Wave 0 has seen the doubled tile once only: not yet marked doubled; wave 1 marks it.
  EXPECT_EQ(cli::scheduler_frame_svg(p, 0, "w0").find(">2x</text>"), std::string::npos);
  EXPECT_NE(cli::scheduler_frame_svg(p, 1, "w1").find(">2x</text>"), std::string::npos);

  proofs::Schedule k;
  k.config = "hand-made stream-K";
  k.ctas = 2, k.k_tiles = 8;
  k.problems = {{1, 1, 1}};
  k.visits = [](i64 cta) {  // k [0, 5) and [3, 6): blocks 3, 4 twice, 6 and 7 never
    return std::vector<raster::Work>{cta == 0 ? raster::Work{0, 0, 0, 0, 0, 0, 5} : raster::Work{0, 0, 0, 0, 0, 3, 6}};
  };
  const SchedulerPicture pk = cli::scheduler_picture(k);
  EXPECT_EQ(pk.missing, 1);
  EXPECT_EQ(pk.doubled, 1);
  ASSERT_EQ(pk.anomalies.size(), 1u);
  EXPECT_TRUE(pk.anomalies[0].missing && pk.anomalies[0].doubled);
  EXPECT_EQ(pk.anomalies[0].text,
            "tile (m 0, n 0, l 0): k blocks [6, 8) computed by no CTA; k blocks [3, 5) computed twice or more: CTA 0 at iteration 0 k[0,5) and "
            "CTA 1 at iteration 0 k[3,6)");
}

// The bounds: a tall panel is clipped, a long loop gets 64 frames, and the HTML says so.
TEST(SchedulerReport, BoundsAreStated) {
  auto q = query("sm90-persistent");
  q.tiles = std::array<i64, 3>{300, 2, 1};
  q.sms = 1;
  const proofs::Schedule s = proofs::fixed_schedule(q);
  const SchedulerPicture p = cli::scheduler_picture(s);
  EXPECT_EQ(p.waves, 600);
  EXPECT_EQ(p.frames, 64);
  ASSERT_EQ(p.panels.size(), 1u);
  EXPECT_TRUE(p.panels[0].clipped);
  EXPECT_EQ(p.panels[0].rows, 256);
  const std::string html = cli::scheduler_report_html({"test", "sm90-persistent", &s, "traced", "", {}}, p, "");
  EXPECT_NE(html.find("Left out of the drawing"), std::string::npos);
  EXPECT_NE(html.find("waves 64 to 599 have no frame of their own"), std::string::npos);
  EXPECT_NE(html.find("draws tiles m &lt; 256, n &lt; 2 of 300 x 2"), std::string::npos);
  // Clipping hides no verdict: the counts cover every tile.
  EXPECT_EQ(p.missing + p.doubled, 0);
}

}  // namespace
}  // namespace layoutproof
