// The results JSON reads back (cli/spec/results_reader.hpp): every result a run wrote is rebuilt so
// that the presenters write it again as it was (@post), and what its run could not have written is
// refused, naming the file and the result.
#include "cli/spec/results_reader.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "cli/output/results.hpp"
#include "cli/spec/baseline.hpp"
#include "cli/spec/check_runner.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof::cli {
namespace {

using proofs::Check;
using proofs::CheckResult;
using json = nlohmann::ordered_json;

struct TempFile {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("lp_results_reader_" + std::to_string(std::random_device{}()) + ".json");
  ~TempFile() { std::filesystem::remove(path); }
  std::string write(const json& doc) const {
    std::ofstream(path) << doc.dump();
    return path.string();
  }
};

// A run's results of every shape the presenters distinguish: proved, a refuted layout claim (its
// witness points), a repeat, a bank and a kernel claim's refutation (their witnesses, the kernel's
// lane addresses), a compiled instruction's, a scheduler's REPORT, a baseline mark.
std::vector<CheckResult> sample() {
  const std::vector<Check> checks{proofs::make_check("sw", parse_any_layout("Sw<3,3,3> o (8,64):(64,1)"), "bijective", {}),
                                  proofs::make_check("aliased", parse_any_layout("(8,8):(8,0)"), "injective", {}),
                                  proofs::make_check("again", parse_any_layout("Sw<3,3,3> o (8,64):(64,1)"), "bijective", {})};
  std::vector<CheckResult> rs = run_checks(checks, RunOptions{});
  EXPECT_TRUE(is_repeat(rs[2])) << rs[2].verdict.method;
  const AnyLayout aliased = parse_any_layout("(8,8):(8,0)");
  CheckResult bank = rs[1];
  bank.check.name = "sA_naive", bank.check.claim = {"conflict-free", {}};
  bank.check.subject = proofs::RecordedSubject{proofs::CheckKind::bank, aliased, "ldmatrix ldsm4 16 B"};
  proofs::BankWitness b;
  b.where = "8x16B matrices 0-3", b.bank = 0, b.ways = 2, b.wavefronts = 8, b.ideal = 4, b.degree = 2;
  b.lanes = {{0, 0, 0, 0, {0}}, {1, 1, 0, 128, {32}}};
  bank.evidence = b;
  CheckResult kernel = rs[1];
  kernel.check.name = "sA s2r", kernel.check.claim = {"conflict-free", {}};
  kernel.check.subject = proofs::RecordedSubject{proofs::CheckKind::kernel, aliased, "ld 4 B"};
  kernel.evidence = proofs::TraceEvidence{proofs::TraceWitness{3, 0, {0, 1}, 0, 5, 2, 2, 1, {0, 17}, "lanes 0 and 17 meet in bank 5"}, nullptr,
                                          {20, 148}};
  kernel.check.origin.code = {"kernel.cu", 34, 0};
  kernel.change = "new";
  CheckResult compiled = kernel;
  compiled.check.subject = proofs::InstructionSubject{proofs::CompiledSite{"column_read(float*)", {"basic.ptx", 225, 0}, "ld.shared.f32 %f2, [%r6];"},
                                                      {"basic.cu", 12, 0}, "column_read(float*), basic.ptx:225 ld.shared.f32"};
  CheckResult report = rs[0];
  report.check.name = "gemm", report.check.claim = {"balance", proofs::SchedulerClaim::balance};
  report.check.subject = proofs::RecordedSubject{proofs::CheckKind::scheduler, std::nullopt, "sm90-persistent"};
  report.evidence = proofs::BalanceMeasure{1.25};
  rs.insert(rs.end(), {bank, kernel, compiled, report});
  for (std::size_t i = 0; i < rs.size(); ++i) rs[i].position = static_cast<std::int64_t>(i);
  return rs;
}

// The document with each item's position, as a shard's JSON has it.
json shard_doc(const std::vector<CheckResult>& rs) {
  json doc = results_json("spec.yaml", rs, summarize(rs));
  for (std::size_t i = 0; i < rs.size(); ++i) doc["results"][i]["position"] = rs[i].position;
  return doc;
}

TEST(ResultsReader, EveryResultWritesAgainAsItWas) {
  const std::vector<CheckResult> rs = sample();
  TempFile f;
  const std::vector<CheckResult> back = results_of(read_results_file(f.write(shard_doc(rs)), "merge"), "merge");
  ASSERT_EQ(back.size(), rs.size());
  EXPECT_EQ(results_json("spec.yaml", back, summarize(back)).dump(), results_json("spec.yaml", rs, summarize(rs)).dump());
  for (std::size_t i = 0; i < rs.size(); ++i) {
    EXPECT_EQ(back[i].position, rs[i].position);
    EXPECT_EQ(witness_line(back[i]), witness_line(rs[i])) << rs[i].check.id();
    EXPECT_EQ(group_of(back[i]), group_of(rs[i]));
  }
  EXPECT_NE(witness_line(back[4]).find("lane 17 (byte 148)"), std::string::npos) << witness_line(back[4]);  // the addresses its trace gave
  EXPECT_EQ(proofs::verdict_label(back[6]), "REPORT");
  EXPECT_EQ(back[0].check.kind(), proofs::CheckKind::layout);
  EXPECT_EQ(back[3].check.kind(), proofs::CheckKind::bank);
  EXPECT_EQ(back[4].check.kind(), proofs::CheckKind::kernel);
  EXPECT_EQ(back[5].check.kind(), proofs::CheckKind::compiled);
  EXPECT_EQ(back[6].check.kind(), proofs::CheckKind::scheduler);
  ASSERT_NE(proofs::inlined_of(back[5].check), nullptr);  // the instruction's inlined-from line reads back
  EXPECT_EQ(proofs::inlined_of(back[5].check)->line, 12);
  const RunSummary a = summarize(rs), b = summarize(back);
  EXPECT_EQ(exit_code(a), exit_code(b));
  EXPECT_EQ(summary_line(rs.size(), a), summary_line(back.size(), b));
  EXPECT_EQ(b.repeats, 1);
  EXPECT_EQ(b.reported, 1);
  EXPECT_EQ(b.new_refuted, 2);  // the kernel claim's and the compiled instruction's
}

// What its run could not have written: refused, naming the file and the result.
TEST(ResultsReader, RefusesWhatNoRunWrote) {
  const std::vector<CheckResult> rs = sample();
  const auto refused = [&](const std::function<void(json&)>& change, const std::string& says) {
    json doc = shard_doc(rs);
    change(doc);
    TempFile f;
    const std::string path = f.write(doc);
    try {
      (void)results_of(read_results_file(path, "merge"), "merge");
      ADD_FAILURE() << "accepted: " << says;
    } catch (const LayoutError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(path), std::string::npos) << m;
      EXPECT_NE(m.find(says), std::string::npos) << m;
    }
  };
  refused([](json& d) { d["results"][0]["verdict"] = "MAYBE"; }, "the verdict 'MAYBE'");
  refused([](json& d) { d["results"][0]["id"] = "sw: injective"; }, "is not its subject, claim and access");
  refused([](json& d) { d["results"][1]["witness_text"] = "no reason"; }, "witness_text");
  refused([](json& d) { d["results"][1]["witness"] = nullptr; }, "REFUTED without a witness");
  refused([](json& d) { d["results"][3]["witness"].erase("bank"); }, "not of its shape");
  refused([](json& d) { d["results"][0].erase("method"); }, "has no \"method\"");
  refused([](json& d) { d["results"][0]["layout"] = "(8,64):(64,"; }, "does not read back");
  refused([](json& d) { d["results"][0]["position"] = -2; }, "negative position");
  refused([](json& d) { d["results"][6]["verdict"] = "PROVED"; }, "balance");
}

// --baseline reads through the same reader: its envelope checks and messages.
TEST(ResultsReader, TheBaselineReadsThroughIt) {
  TempFile f;
  const std::string path = f.write(json{{"results", json::array({{{"id", "a: bijective"}, {"verdict", "PROVED"}}})}});
  EXPECT_EQ(read_baseline(path).verdicts.at("a: bijective"), "PROVED");
  const std::string bad = f.write(json{{"results", 3}});
  try {
    (void)read_baseline(bad);
    ADD_FAILURE() << "a document without a results array";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("--baseline " + bad + ": not a results document"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)read_results_file(path + ".missing", "merge"), LayoutError);
}

// Every shard of one spec names the same claims; another spec's differ.
TEST(ResultsReader, ClaimsFingerprintNamesTheClaims) {
  const std::vector<Check> a{proofs::make_check("x", parse_any_layout("(8,8):(8,1)"), "bijective", {})};
  std::vector<Check> b = a;
  b.push_back(proofs::make_check("y", parse_any_layout("(8,8):(8,1)"), "bijective", {}));
  EXPECT_EQ(claims_fingerprint(std::vector<Check>{}), "14650fb0739d0383");  // the hash's basis, shard_of's
  EXPECT_EQ(claims_fingerprint(a), claims_fingerprint(a));
  EXPECT_NE(claims_fingerprint(a), claims_fingerprint(b));
  EXPECT_NE(claims_fingerprint({b[1], b[0]}), claims_fingerprint(b));  // the order is the positions' meaning
  EXPECT_EQ(claims_fingerprint(a).size(), 16u);
}

}  // namespace
}  // namespace layoutproof::cli
