// The verdict cache cannot lie: a verdict is reused only under the same code
// fingerprint, and a deadline turns what was not decided in time into UNKNOWN, never PROVED.
#include "cli/spec/verdict_cache.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <set>

#include "cli/output/results.hpp"
#include "cli/spec/check_runner.hpp"
#include "model/layout/notation.hpp"
#include "proofs/raster/scheduler_query.hpp"

namespace layoutproof::cli {
namespace {

using proofs::Check;
using proofs::CheckResult;
using proofs::Verdict;

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() / ("lp_cache_test_" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

RunOptions options(const std::string& dir, const std::string& fingerprint) {
  RunOptions o;
  o.cache_dir = dir;
  o.fingerprint = fingerprint;
  return o;
}

TEST(VerdictCache, ReusedUnderTheSameFingerprint) {
  TempDir d;
  const std::vector<Check> checks{proofs::make_check("sw", parse_any_layout("Sw<3,3,3> o (8,64):(64,1)"), "bijective", {})};
  const auto first = run_checks(checks, options(d.path, "fp-A"));
  ASSERT_TRUE(first[0].verdict.is_proved());
  EXPECT_FALSE(from_cache(first[0]));
  const auto second = run_checks(checks, options(d.path, "fp-A"));
  ASSERT_TRUE(second[0].verdict.is_proved());
  EXPECT_TRUE(from_cache(second[0])) << second[0].verdict.method;
}

// An entry stored by other code (here: a planted PROVED for a false claim, standing for a verdict of
// an older bank model) answers only under its own fingerprint; a changed fingerprint decides afresh.
TEST(VerdictCache, NotReusedWhenTheFingerprintChanges) {
  TempDir d;
  const Check c = proofs::make_check("aliased", parse_any_layout("(8,8):(8,0)"), "injective", {});
  store_cached(d.path, CheckResult{c, Verdict::proved("old code", "planted"), {}}, "fp-old");
  const auto stale = run_checks({c}, options(d.path, "fp-old"));
  EXPECT_TRUE(stale[0].verdict.is_proved() && from_cache(stale[0]));  // the same fingerprint does reuse it
  const auto fresh = run_checks({c}, options(d.path, "fp-new"));
  EXPECT_TRUE(fresh[0].verdict.is_refuted()) << fresh[0].verdict.method;
  EXPECT_FALSE(from_cache(fresh[0]));
  EXPECT_NE(cache_key(c, "fp-old"), cache_key(c, "fp-new"));
}

TEST(VerdictCache, FingerprintNamesTheSourcesAndTheModelVersion) {
  const std::string fp = code_fingerprint();
  EXPECT_NE(fp.find("model " + std::to_string(kModelVersion)), std::string::npos) << fp;
  const auto at = fp.find("src ");
  ASSERT_NE(at, std::string::npos) << fp;
  const std::string sha = fp.substr(at + 4);
  EXPECT_EQ(sha.size(), 64u) << fp;
  EXPECT_EQ(sha.find_first_not_of("0123456789abcdef"), std::string::npos) << fp;
  EXPECT_EQ(RunOptions{}.fingerprint, fp);  // the runner keys on it by default
}

TEST(Deadline, NothingIsProvedAfterTheDeadline) {
  TempDir d;
  const std::vector<Check> checks{proofs::make_check("a", parse_any_layout("(8,64):(64,1)"), "bijective", {}),
                                  proofs::make_check("b", parse_any_layout("(8,8):(8,0)"), "injective", {})};
  run_checks(checks, options(d.path, "fp"));  // a cached PROVED for "a" must not be reported after the deadline
  RunOptions o = options(d.path, "fp");
  o.prove.smt.deadline = proofs::Deadline::in_seconds(1e-9);
  for (const auto& r : run_checks(checks, o)) {
    EXPECT_EQ(r.verdict.kind, Verdict::Kind::unknown) << r.check.id();
    EXPECT_NE(r.verdict.detail.find("deadline of 1e-09 s reached"), std::string::npos) << r.verdict.detail;
  }
  EXPECT_EQ(exit_code(summarize(run_checks(checks, o))), 3);
  EXPECT_THROW(proofs::Deadline::parse("0"), LayoutError);
  EXPECT_THROW(proofs::Deadline::parse("abc"), LayoutError);
  EXPECT_EQ(proofs::Deadline::parse("2.5").seconds, 2.5);
}

// A warp of 32 lanes reading 4-byte words `stride` bytes apart: one instruction.
std::shared_ptr<const AddressTrace> word_trace(i64 stride) {
  auto t = std::make_shared<AddressTrace>();
  t->provenance = "lanes apart";  // one text for every stride: only the addresses tell the traces apart
  TraceInstruction in;
  for (int lane = 0; lane < kWarpLanes; ++lane) in.addr[lane] = lane * stride, in.thread[lane] = lane;
  t->instructions.push_back(in);
  return t;
}

// A claim asked twice in one run is decided once: the repeat takes its verdict and says so, and
// "from cache" counts only what an earlier run stored, never what this run has just written (the
// catalog, run on an empty cache, once said "63 from cache"). A kernel copy's claim repeats another
// on an equal trace, not on the same object; a different trace is its own claim.
TEST(RunChecks, RepeatsAreDecidedOnceAndNeverFromThisRunsCache) {
  TempDir d;
  const auto sw = parse_any_layout("Sw<3,3,3> o (8,64):(64,1)");
  const std::vector<Check> checks{proofs::make_check("x", sw, "bijective", {}), proofs::make_check("y", sw, "bijective", {}),
                                  proofs::make_check("z", parse_any_layout("(8,64):(64,1)"), "bijective", {}),
                                  proofs::make_kernel_check("k1", word_trace(4), "conflict-free", "ld 4 B", {}),
                                  proofs::make_kernel_check("k2", word_trace(4), "conflict-free", "ld 4 B", {}),
                                  proofs::make_kernel_check("k3", word_trace(128), "conflict-free", "ld 4 B", {})};
  for (int run = 0; run < 2; ++run) {
    RunOptions o = options(d.path, "fp");
    o.jobs = 2;
    const auto r = run_checks(checks, o);
    ASSERT_EQ(r.size(), checks.size());
    for (std::size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i].check.name, checks[i].name);  // each keeps its own check
    EXPECT_FALSE(is_repeat(r[0]) || is_repeat(r[2]) || is_repeat(r[3]) || is_repeat(r[5]));
    ASSERT_TRUE(is_repeat(r[1]) && is_repeat(r[4])) << r[1].verdict.method << " | " << r[4].verdict.method;
    EXPECT_EQ(r[1].verdict.method.rfind("repeat of x: bijective: ", 0), 0u) << r[1].verdict.method;
    EXPECT_EQ(r[4].verdict.method.rfind("repeat of k1: conflict-free [ld 4 B]: ", 0), 0u) << r[4].verdict.method;
    EXPECT_TRUE(r[1].verdict.is_proved() && r[4].verdict.is_proved());
    EXPECT_TRUE(r[5].verdict.is_refuted());  // 128 bytes apart: every lane in bank 0
    EXPECT_EQ(r[1].verdict.time_ms, 0);
    const RunSummary s = summarize(r);
    EXPECT_EQ(s.repeats, 2);
    EXPECT_EQ(s.cached, run == 0 ? 0 : 2) << "run " << run;  // x and z; y is a repeat, kernel claims never cached
    EXPECT_EQ(from_cache(r[0]), run == 1);
    EXPECT_FALSE(from_cache(r[1]));
    EXPECT_EQ(claims_text(r.size(), s), "6 claims (4 distinct; 2 repeat an earlier claim of this run)");
  }
}

// A scheduler check as a spec's schedulers: entry makes it.
Check scheduler_check(const proofs::SchedulerQuery& q, proofs::SchedulerClaim claim) {
  Check c;
  c.name = "s";
  c.subject = proofs::SchedulerSubject{std::make_shared<const proofs::SchedulerQuery>(q), q.kind};
  c.claim = {proofs::to_string(claim), claim};
  return c;
}

// A scheduler claim's key is its whole query: changing any one parameter (or a free parameter's
// bound) changes the key, so a verdict is never reused for another configuration.
TEST(VerdictCache, SchedulerKeyIsTheWholeQuery) {
  using raster::Decomposition;
  proofs::SchedulerQuery base;
  base.kind = "sm90-stream-k";
  base.tiles = std::array<std::int64_t, 3>{5, 1, 1};
  base.cluster = std::array<std::int64_t, 2>{1, 1};
  base.max_swizzle = 1, base.raster = raster::RasterOption::along_n, base.sms = 4, base.k_tiles = 20;
  std::vector<proofs::SchedulerQuery> variants(14, base);
  variants[1].tiles = std::array<std::int64_t, 3>{5, 1, 2};
  variants[2].cluster = std::array<std::int64_t, 2>{2, 1};
  variants[3].max_swizzle = 2;
  variants[4].raster = raster::RasterOption::along_m;
  variants[5].sms = 132;
  variants[6].max_active_clusters = 3;
  variants[7].k_tiles = 21;
  variants[8].splits = 2;
  variants[9].decomposition = Decomposition::stream_k;
  variants[10].reduction = raster::Reduction::nondeterministic;
  variants[11].tiles.reset();  // free tiles, then their bound
  variants[12].tiles.reset(), variants[12].max_tiles = 4;
  variants[13].kind = "sm90-persistent", variants[13].k_tiles.reset();
  std::set<std::string> keys;
  for (const auto& q : variants) keys.insert(cache_key(scheduler_check(q, proofs::SchedulerClaim::exactly_once), "fp"));
  EXPECT_EQ(keys.size(), variants.size());
  proofs::SchedulerQuery g;  // sm90-group: corrected and the free groups' bounds
  g.kind = "sm90-group";
  std::vector<proofs::SchedulerQuery> groups(4, g);
  groups[1].corrected = true;
  groups[2].max_groups = 2;
  groups[3].groups = std::vector<std::array<std::int64_t, 2>>{{2, 3}};
  keys.clear();
  for (const auto& q : groups) keys.insert(cache_key(scheduler_check(q, proofs::SchedulerClaim::exactly_once), "fp"));
  EXPECT_EQ(keys.size(), groups.size());
  EXPECT_EQ(cache_key(scheduler_check(base, proofs::SchedulerClaim::exactly_once), "fp"),
            cache_key(scheduler_check(variants[0], proofs::SchedulerClaim::exactly_once), "fp"));
  EXPECT_NE(cache_key(scheduler_check(base, proofs::SchedulerClaim::exactly_once), "fp"),
            cache_key(scheduler_check(base, proofs::SchedulerClaim::k_exactly_once), "fp"));
}

// PROVED scheduler claims come back from the cache; a refuted one is decided again (its witness
// fresh), and a balance (a measurement, REPORT) is measured again with its number.
TEST(VerdictCache, SchedulerProvedCachedBalanceAndRefutedNot) {
  TempDir d;
  proofs::SchedulerQuery ok;
  ok.kind = "sm90-persistent";
  ok.tiles = std::array<std::int64_t, 3>{132, 64, 1};
  ok.cluster = std::array<std::int64_t, 2>{2, 1};
  ok.max_swizzle = 1, ok.raster = raster::RasterOption::along_n, ok.sms = 132;
  proofs::SchedulerQuery dropped;  // CUTLASS's grouped scheduler drops tile (1, 2) of a 2x3 group
  dropped.kind = "sm90-group";
  dropped.groups = std::vector<std::array<std::int64_t, 2>>{{2, 3}};
  dropped.cluster = std::array<std::int64_t, 2>{1, 1};
  dropped.max_swizzle = 4, dropped.raster = raster::RasterOption::along_m, dropped.sms = 132;
  const std::vector<Check> checks{scheduler_check(ok, proofs::SchedulerClaim::exactly_once), scheduler_check(ok, proofs::SchedulerClaim::balance),
                                  scheduler_check(dropped, proofs::SchedulerClaim::exactly_once)};
  for (int run = 0; run < 2; ++run) {
    const auto r = run_checks(checks, options(d.path, "fp"));
    ASSERT_TRUE(r[0].verdict.is_proved());
    EXPECT_EQ(from_cache(r[0]), run == 1) << r[0].verdict.method;
    ASSERT_TRUE(r[1].verdict.is_proved());
    EXPECT_EQ(proofs::verdict_label(r[1]), "REPORT");
    EXPECT_FALSE(from_cache(r[1]));
    const auto* balance = std::get_if<proofs::BalanceMeasure>(&r[1].evidence);
    ASSERT_NE(balance, nullptr);
    EXPECT_DOUBLE_EQ(balance->max_over_mean, 1.0);  // 8448 tiles over 132 CTAs: 64 each
    ASSERT_TRUE(r[2].verdict.is_refuted());
    EXPECT_NE(r[2].verdict.witness.why.find("tile (m 1, n 2, l 0) is computed by no CTA [groups 2x3,"), std::string::npos) << r[2].verdict.witness.why;
    EXPECT_EQ(exit_code(summarize(r)), 1);
  }
}

}  // namespace
}  // namespace layoutproof::cli
