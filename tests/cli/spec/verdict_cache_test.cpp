// The verdict cache cannot lie: a verdict is reused only under the same code
// fingerprint, and a deadline turns what was not decided in time into UNKNOWN, never PROVED.
#include "cli/spec/verdict_cache.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "cli/spec/check_runner.hpp"
#include "model/layout/notation.hpp"

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
  store_cached(d.path, CheckResult{c, Verdict::proved("old code", "planted"), std::nullopt, std::nullopt, std::nullopt}, "fp-old");
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
  EXPECT_EQ(proofs::exit_code(run_checks(checks, o)), 3);
  EXPECT_THROW(proofs::Deadline::parse("0"), LayoutError);
  EXPECT_THROW(proofs::Deadline::parse("abc"), LayoutError);
  EXPECT_EQ(proofs::Deadline::parse("2.5").seconds, 2.5);
}

}  // namespace
}  // namespace layoutproof::cli
