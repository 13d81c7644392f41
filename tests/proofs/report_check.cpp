// tests/proofs/report_check.cpp: the bank report (cli/report.hpp) without a browser: the SVG and
// the HTML are well-formed (every tag closed in order) and show the colliding lanes of 32x40 Sw<2,2,3>.
#include <gtest/gtest.h>

#include "cli/report.hpp"
#include "model/notation.hpp"
#include "tests/proofs/xml_tags.hpp"

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

}  // namespace
}  // namespace layoutproof::cli
