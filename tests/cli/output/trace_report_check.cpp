// tests/cli/output/trace_report_check.cpp: the trace report (cli/output/trace_report.hpp) without a browser,
// on the tutorial's padded (128,8):(1,129) f32 tile written by 4-byte cp.async (4 wavefronts for an
// ideal of 1, lanes 3, 10, 17, 24 on bank 3): well-formed SVG and HTML that show those lanes, the
// conflicting phase, and elements outlined when covers fails.
#include <gtest/gtest.h>

#include <regex>

#include "cli/output/trace_report.hpp"
#include "model/source/kernel_expr.hpp"
#include "tests/cli/output/xml_tags.hpp"

namespace layoutproof::cli {
namespace {

AddressTrace padded_cp_async(const char* smem) {
  const TiledCopy c = parse_tiled_copy(
      "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})", std::nullopt);
  return trace_copy(c, parse_smem_layout(smem), CopySide::D);
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (auto i = s.find(what); i != std::string::npos; i = s.find(what, i + 1)) ++n;
  return n;
}

TraceReportClaim decide(const AddressTrace& t, const char* claim) {
  return {claim, proofs::prove_trace(t, *proofs::parse_trace_claim(claim), {})};
}

TEST(TraceReport, ConflictShowsTheWitnessLanesAndPhase) {
  const AddressTrace t = padded_cp_async("(128,8,3):(1,129,1032)");
  const TraceReportInput in{"layoutproof trace ...", &t, {decide(t, "conflict-free"), decide(t, "covers")}};
  ASSERT_TRUE(in.claims[0].result.verdict.is_refuted());
  ASSERT_TRUE(in.claims[1].result.verdict.is_proved());
  const std::string svg = trace_report_svg(t, &in.claims[0]), html = trace_report_html(in);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(check_tags(svg, false), "");
  EXPECT_EQ(check_tags(html, true), "");
  for (const char* lane : {">L3<", ">L10<", ">L17<", ">L24<"}) EXPECT_NE(svg.find(lane), std::string::npos) << lane;
  EXPECT_NE(svg.find("takes 4 wavefronts for an ideal of 1"), std::string::npos);
  EXPECT_NE(svg.find("Phase 0 of instruction 0"), std::string::npos);
  EXPECT_NE(svg.find("smem stage 0: 128 x 8 elements"), std::string::npos);
  // The lanes table marks the four colliding lanes and gives lane 24's byte address 12.
  EXPECT_EQ(count(html, "<tr class=\"hot\">"), 4);
  EXPECT_NE(html.find("<tr class=\"hot\"><td>24</td><td>24</td><td>(3,0,0)</td><td>12</td>"), std::string::npos);
  // The summary lists both claims; the refuted one links to its figure.
  EXPECT_NE(html.find("<a href=\"#claim1\">figure</a>"), std::string::npos);
  EXPECT_NE(html.find("<h2 id=\"claim1\">conflict-free: refuted</h2>"), std::string::npos);
  EXPECT_EQ(count(html, "<a href=\"#claim"), 1);  // covers is proved: no figure
  // The 128-row stage keeps its row labels legible: every k-th row, at least 13 px apart.
  const std::regex label(R"re(<text x="[0-9.]+" y="([0-9.]+)" class="lbl" text-anchor="end">[0-9]+</text>)re");
  std::vector<double> ys;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator(); ++it)
    ys.push_back(std::stod((*it)[1]));
  ASSERT_GE(ys.size(), 16u);
  ASSERT_LT(ys.size(), 128u);
  for (std::size_t i = 1; i < ys.size(); ++i) EXPECT_GE(ys[i] - ys[i - 1], 13.0) << i;
}

TEST(TraceReport, NoRefutationDrawsTheOverview) {
  const AddressTrace t = padded_cp_async("(128,8):(1,128)");
  const TraceReportInput in{"layoutproof trace ...", &t, {decide(t, "covers")}};
  const std::string html = trace_report_html(in);
  EXPECT_EQ(check_tags(html, true), "");
  EXPECT_NE(html.find("No claim refuted"), std::string::npos);
  EXPECT_EQ(html.find("class=\"hot\""), std::string::npos);
}

TEST(TraceReport, CoversRefutationOutlinesTheElementsWrittenTwice) {
  // Lane 1 of instruction 0 made to write lane 0's element: element 0 written twice, element 8
  // (lane 1's own, (0,1)) never.
  AddressTrace t = padded_cp_async("(128,8):(1,128)");
  TraceInstruction& in = t.instructions[0];
  in.slice_elems[1] = in.slice_elems[0];
  const TraceReportClaim c = decide(t, "covers");
  ASSERT_TRUE(c.result.verdict.is_refuted());
  const std::string svg = trace_report_svg(t, &c);
  EXPECT_EQ(check_tags(svg, false), "");
  // Two red outlines from the move counts (the twice-written and the never-written element).
  EXPECT_EQ(count(svg, "fill=\"none\" stroke=\"#d00\" stroke-width=\"2.5\""), 2);
}

}  // namespace
}  // namespace layoutproof::cli
