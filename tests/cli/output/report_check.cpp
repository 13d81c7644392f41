// tests/cli/output/report_check.cpp: the bank report (cli/output/report.hpp) without a browser: the SVG and
// the HTML are well-formed (every tag closed in order) and show the colliding lanes of 32x40 Sw<2,2,3>.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

#include "cli/output/report.hpp"
#include "model/layout/notation.hpp"
#include "tests/cli/output/xml_tags.hpp"

namespace layoutproof::cli {
namespace {

BankReportInput seed_32x40() {
  AccessSpec spec;
  spec.tile = parse_any_layout("Sw<2,2,3> o (32,40):(40,1)");
  spec.elem_bytes = 4;
  spec.vec = 4;
  spec.pattern = PatternKind::row_per_lane;
  const proofs::BankSubject s = proofs::make_bank_subject(spec, SmemOp::ld);
  return {"layoutproof prove ...", "conflict-free", s, proofs::prove_bank(s, *proofs::parse_bank_claim("conflict-free"), {})};
}

TEST(BankReport, SvgAndHtmlAreWellFormedAndShowTheCollidingLanes) {
  const BankReportInput in = seed_32x40();
  ASSERT_TRUE(in.result.verdict.is_refuted());
  const std::string svg = bank_report_svg(in), html = bank_report_html(in, svg);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(check_tags(svg, false), "");
  EXPECT_EQ(check_tags(html, true), "");
  for (const char* lane : {">L0<", ">L5<"}) {
    EXPECT_NE(svg.find(lane), std::string::npos) << lane;
    EXPECT_NE(html.find(lane), std::string::npos) << lane;
  }
  EXPECT_NE(svg.find("2-way conflict on bank 0"), std::string::npos);
  EXPECT_NE(html.find("<td>768</td>"), std::string::npos);           // lane 5's byte address
  EXPECT_NE(html.find("Sw&lt;2,2,3&gt;"), std::string::npos);        // escaped notation
  EXPECT_EQ(html.find("Sw<2,2,3>"), std::string::npos);
  EXPECT_NE(html.find("href=\"report.svg\""), std::string::npos);
}

// The y of every row label (class lbl, text-anchor end, a number) of a bank report's tile panel.
std::vector<double> row_label_ys(const std::string& svg) {
  std::vector<double> ys;
  const std::regex label(R"re(<text x="([0-9.]+)" y="([0-9.]+)" class="lbl" text-anchor="end">([0-9]+)</text>)re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator(); ++it)
    ys.push_back(std::stod((*it)[2]));
  return ys;
}

// Labels stay legible on a 128-row tile: row labels at least a 12 px font's height
// apart, never one per 8 px row; the first and the last labelled rows cover the tile; lane tags
// never overlap.
TEST(BankReport, LabelsOfA128RowTileDoNotOverlap) {
  AccessSpec spec;
  spec.tile = parse_any_layout("(128,64):(64,1)");
  spec.elem_bytes = 4;
  spec.vec = 1;
  spec.pattern = PatternKind::row_per_lane;
  const proofs::BankSubject s = proofs::make_bank_subject(spec, SmemOp::ld);
  const BankReportInput in{"layoutproof prove ...", "conflict-free", s,
                           proofs::prove_bank(s, *proofs::parse_bank_claim("conflict-free"), {})};
  ASSERT_TRUE(in.result.verdict.is_refuted());
  const std::string svg = bank_report_svg(in);
  EXPECT_EQ(check_tags(svg, false), "");
  EXPECT_NE(svg.find(".lbl{font-size:12px"), std::string::npos);  // labels keep their 12 px font
  const std::vector<double> ys = row_label_ys(svg);
  ASSERT_GE(ys.size(), 32u);   // every 2nd or 4th row at 8 px a row
  ASSERT_LE(ys.size(), 64u);   // not all 128
  for (std::size_t i = 1; i < ys.size(); ++i) EXPECT_GE(ys[i] - ys[i - 1], 13.0) << "row labels " << i - 1 << " and " << i;
  // Lane tags (rect of width 44, 14 high): no two overlap.
  std::vector<std::pair<double, double>> tags;
  const std::regex tag(R"re(<rect x="([0-9.]+)" y="([0-9.]+)" width="44" height="14")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tag); it != std::sregex_iterator(); ++it)
    tags.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  ASSERT_EQ(tags.size(), 32u);  // the 32 lanes of the 32-way bank
  for (std::size_t i = 0; i < tags.size(); ++i)
    for (std::size_t j = i + 1; j < tags.size(); ++j)
      EXPECT_FALSE(std::abs(tags[i].first - tags[j].first) < 44 && std::abs(tags[i].second - tags[j].second) < 14)
          << "tags " << i << " and " << j << " overlap";
}

// prove --report DIR with several claims: DIR/index.html lists every claim with its verdict and
// links each to its detail page, which exists; DIR/report.svg is the refuted claim's figure.
TEST(BankReport, SummaryPageListsEveryClaimWithItsDetail) {
  const BankReportInput refuted = seed_32x40();
  BankReportInput proved = refuted;
  proved.claim = "max-ways:2";
  proved.result = proofs::prove_bank(proved.subject, *proofs::parse_bank_claim("max-ways:2"), {});
  ASSERT_TRUE(proved.result.verdict.is_proved());
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("lp_summary_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  write_bank_reports(dir.string(), {proved, refuted});
  const auto read = [&](const char* name) {
    std::ifstream f(dir / name);
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  const std::string index = read("index.html");
  EXPECT_EQ(check_tags(index, true), "");
  EXPECT_NE(index.find("2 claims: 1 proved, 1 refuted, 0 unknown, 0 error"), std::string::npos);
  for (const char* s : {"<td>max-ways:2</td><td class=\"PROVED\">", "<td>conflict-free</td><td class=\"REFUTED\">",
                        "href=\"claim1.html\"", "href=\"claim2.html\"", ">L5<"})
    EXPECT_NE(index.find(s), std::string::npos) << s;
  EXPECT_NE(read("claim2.html").find("<td>768</td>"), std::string::npos);  // the refuted claim's lanes
  EXPECT_NE(read("claim2.html").find("href=\"claim2.svg\""), std::string::npos);
  EXPECT_EQ(read("report.svg"), read("claim2.svg"));
  EXPECT_NE(read("claim1.svg").find("PROVED"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace layoutproof::cli
