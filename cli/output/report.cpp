#include "cli/output/report.hpp"

#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/html.hpp"
#include "cli/output/results.hpp"
#include "cli/output/svg.hpp"
#include "cli/spec/check_runner.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "model/layout/notation.hpp"

namespace layoutproof::cli {
namespace {

using proofs::BankWitness;

using svg::bank_colour;
using svg::num;
using svg::rect;
using svg::text;

// Lanes per phase, by the bank model's phase split.
int phase_size(const proofs::BankSubject& s) { return phases_of(SmemAccess{s.op, s.width_bytes, {}}).front().second; }

struct Geometry {
  i64 rows = 0, cols = 0;
  double cw = 20, ch = 20;   // cell size
  double x0 = 70, y0 = 120;  // grid origin
};

Geometry geometry(const proofs::BankSubject& s) {
  Geometry g;
  const Layout& l = s.spec.tile.layout;
  g.rows = product(l.shape[0]);
  g.cols = product(l.shape[1]);
  g.cw = std::clamp(1100.0 / static_cast<double>(g.cols), 8.0, 34.0);
  g.ch = std::clamp(std::min(g.cw, 500.0 / static_cast<double>(g.rows)), 8.0, 22.0);
  return g;
}

// Columns of lane tags (14 px high) so that tags of neighbouring rows never overlap.
i64 tag_columns(const Geometry& g) { return svg::label_step(g.ch, 15); }

// Panel 1: the tile, its banks and the witness lanes. Returns the bottom y.
double tile_panel(std::ostringstream& o, const BankReportInput& in, const Geometry& g) {
  const auto& spec = in.subject.spec;
  text(o, g.x0, g.y0 - 44, "Tile " + to_string(spec.tile) + ": each cell is one " + std::to_string(spec.elem_bytes) +
                               "-byte element, coloured and numbered by its bank", "class=\"h2\"");
  const bool small_text = g.cw >= 15;
  // Column labels at vector starts, row labels on every row, as far as they do not overlap.
  const int digits = static_cast<int>(std::to_string(std::max<i64>(g.cols - 1, 0)).size());
  const i64 step = std::max<i64>(spec.vec, svg::label_step(g.cw, svg::column_label_space(digits)));
  const i64 rstep = svg::label_step(g.ch, svg::kRowLabelSpace);
  for (i64 c = 0; c < g.cols; c += step) text(o, g.x0 + (c + 0.5) * g.cw, g.y0 - 6, std::to_string(c), "class=\"lbl\" text-anchor=\"middle\"");
  text(o, g.x0 - 8, g.y0 - 22, "col", "class=\"lbl\" text-anchor=\"end\"");
  text(o, g.x0 - 8, g.y0 - 6, "row", "class=\"lbl\" text-anchor=\"end\"");
  for (i64 r = 0; r < g.rows; ++r) {
    if (r % rstep == 0) text(o, g.x0 - 8, g.y0 + (r + 0.7) * g.ch, std::to_string(r), "class=\"lbl\" text-anchor=\"end\"");
    for (i64 c = 0; c < g.cols; ++c) {
      const int bank = bank_of(byte_address(spec, r, c));
      const double x = g.x0 + c * g.cw, y = g.y0 + r * g.ch;
      rect(o, x, y, g.cw, g.ch, "fill=\"" + bank_colour(bank) + "\" stroke=\"#fff\" stroke-width=\"0.5\"");
      if (small_text && g.ch >= 12) text(o, x + g.cw / 2, y + g.ch * 0.72, std::to_string(bank), "class=\"cell\" text-anchor=\"middle\"");
    }
  }
  // Vector boundaries: a thin grey line every vec columns.
  if (spec.vec > 1)
    for (i64 c = spec.vec; c < g.cols; c += spec.vec)
      o << "<line x1=\"" << num(g.x0 + c * g.cw) << "\" y1=\"" << num(g.y0) << "\" x2=\"" << num(g.x0 + c * g.cw)
        << "\" y2=\"" << num(g.y0 + g.rows * g.ch) << "\" stroke=\"#666\" stroke-width=\"1\"/>\n";
  const double bottom = g.y0 + g.rows * g.ch;
  if (!in.result.witness) return bottom;
  const BankWitness& w = *in.result.witness;
  std::set<int> hot;
  for (const auto& l : w.lanes) hot.insert(l.lane);
  const int ps = phase_size(in.subject);
  const double vw = g.cw * spec.vec;
  // The other active lanes of the conflicting phase: thin dark outlines.
  for (int lane = w.phase * ps; lane < (w.phase + 1) * ps && lane < kWarpLanes; ++lane) {
    const LaneCoord& c = w.all_coords[lane];
    if (w.all_addresses[lane] < 0 || hot.count(lane) || c.row < 0) continue;
    rect(o, g.x0 + c.col * g.cw, g.y0 + c.row * g.ch, vw, g.ch, "fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" stroke-dasharray=\"3,2\"");
  }
  // The conflicting lanes: thick red outlines, and a red tag "L<lane>" in the right margin of
  // the lane's row, joined to the outline by a line (several tags on one row go side by side).
  // On rows lower than a tag, the tags of k consecutive rows go side by side (k = tag_columns).
  std::map<i64, int> per_row;
  const double right = g.x0 + g.cols * g.cw;
  const i64 k = tag_columns(g);
  for (const auto& l : w.lanes) {
    const double x = g.x0 + l.col * g.cw, y = g.y0 + l.row * g.ch;
    rect(o, x, y, vw, g.ch, "fill=\"none\" stroke=\"#d00\" stroke-width=\"3.5\"");
    const double lx = right + 10 + 48.0 * static_cast<double>(per_row[l.row]++ * k + l.row % k), h = std::max(g.ch, 14.0);
    o << "<line x1=\"" << num(x + vw) << "\" y1=\"" << num(y + g.ch / 2) << "\" x2=\"" << num(lx) << "\" y2=\""
      << num(y + g.ch / 2) << "\" stroke=\"#d00\" stroke-width=\"1.5\"/>\n";
    rect(o, lx, y + g.ch / 2 - h / 2, 44, h, "fill=\"#d00\" rx=\"3\"");
    text(o, lx + 22, y + g.ch / 2 + 4, "L" + std::to_string(l.lane), "class=\"lane\" text-anchor=\"middle\"");
  }
  return bottom;
}

// Panel 2: the conflicting phase as 32 bank columns; returns the bottom y.
double bank_panel(std::ostringstream& o, const BankReportInput& in, double top) {
  const BankWitness& w = *in.result.witness;
  const int ps = phase_size(in.subject);
  svg::PhaseView p;
  p.access.op = in.subject.op;
  p.access.width_bytes = in.subject.width_bytes;
  for (int lane = 0; lane < kWarpLanes; ++lane) p.access.lane_addr[static_cast<std::size_t>(lane)] = w.all_addresses[lane];
  p.first = w.phase * ps;
  p.count = ps;
  p.hot_bank = w.bank;
  p.title = "Phase " + std::to_string(w.phase) + " of instruction " + std::to_string(w.instruction) + " (" + w.where +
            "): the 32 banks, one row per distinct 4-byte word = one wavefront";
  return svg::phase_panel(o, p, top);
}

}  // namespace


std::string bank_report_svg(const BankReportInput& in) {
  const Geometry g = geometry(in.subject);
  std::ostringstream body;
  const auto& v = in.result.verdict;
  std::string head = std::string(proofs::to_string(v.kind)) + "  " + in.claim;
  if (in.result.witness)
    head += ": " + std::to_string(in.result.witness->ways) + "-way conflict on bank " +
            std::to_string(in.result.witness->bank) + ", " + std::to_string(in.result.witness->wavefronts) +
            " wavefronts for an ideal of " + std::to_string(in.result.witness->ideal);
  text(body, 20, 30, head, std::string("class=\"h1\" fill=\"") + (v.is_refuted() ? "#b00" : v.is_proved() ? "#070" : "#850") + "\"");
  text(body, 20, 52, in.subject.text(), "class=\"lbl\"");
  double y = tile_panel(body, in, g);
  if (in.result.witness) y = bank_panel(body, in, y + 10);
  y = svg::bank_legend(body, y + 10);
  const double width = std::max(g.x0 + g.cols * g.cw + 112 + 48.0 * static_cast<double>(tag_columns(g)), 70.0 + 36 * 32 + 40);
  return svg::document(body.str(), width, y + 10);
}

std::string bank_report_html(const BankReportInput& in, const std::string& svg, const std::string& svg_file) {
  const auto& v = in.result.verdict;
  std::ostringstream o;
  o << html_head("layoutproof: " + in.claim + " " + proofs::to_string(v.kind)) << "<h1>layoutproof bank report</h1>\n"
    << "<div class=\"figure\">\n" << svg << "</div>\n<p>The figure is also <a href=\"" << xml_escape(svg_file) << "\">" << xml_escape(svg_file) << "</a>.</p>\n"
    << "<h2>Claim and verdict</h2>\n<table>\n"
    << "<tr><th>command</th><td><code>" << xml_escape(in.command) << "</code></td></tr>\n"
    << "<tr><th>access</th><td>" << xml_escape(in.subject.text()) << "</td></tr>\n"
    << "<tr><th>claim</th><td>" << xml_escape(in.claim) << "</td></tr>\n"
    << "<tr><th>verdict</th><td class=\"" << (v.is_refuted() ? "refuted" : v.is_proved() ? "proved" : "") << "\"><b>"
    << proofs::to_string(v.kind) << "</b> [" << xml_escape(v.method) << "]</td></tr>\n";
  if (!v.detail.empty()) o << "<tr><th>detail</th><td>" << xml_escape(v.detail) << "</td></tr>\n";
  if (in.result.witness) {
    const BankWitness& w = *in.result.witness;
    o << "<tr><th>witness instruction</th><td>" << w.instruction << " (" << xml_escape(w.where) << "), phase " << w.phase
      << "</td></tr>\n<tr><th>bank</th><td>" << w.bank << ": " << w.ways << " distinct words</td></tr>\n"
      << "<tr><th>wavefronts</th><td>" << w.wavefronts << " (ideal " << w.ideal << ", conflict degree " << num(w.degree)
      << ")</td></tr>\n</table>\n<h2>Conflicting lanes</h2>\n<table class=\"lanes\">\n"
      << "<tr><th>lane</th><th>coordinate (row,col)</th><th>byte address</th><th>words in bank " << w.bank
      << "</th><th>bank</th></tr>\n";
    for (const auto& l : w.lanes) {
      o << "<tr><td>" << l.lane << "</td><td>(" << l.row << "," << l.col << ")</td><td>" << l.byte_address << "</td><td>";
      for (std::size_t i = 0; i < l.words.size(); ++i) o << (i ? ", " : "") << l.words[i];
      o << "</td><td>" << w.bank << "</td></tr>\n";
    }
  }
  o << "</table>\n</body>\n</html>\n";
  return o.str();
}

void write_bank_report(const std::string& dir, const BankReportInput& in) {
  const std::string svg = bank_report_svg(in);
  write_report_file(dir, "report.svg", svg);
  write_report_file(dir, "index.html", bank_report_html(in, svg));
}

std::string report_index_html(const std::string& title, const std::string& command, const std::vector<ReportRow>& rows,
                              const std::string& figure, const std::string& counts) {
  RunSummary s;  // the head says how many rows repeat an earlier claim of the run, as the table does
  for (const auto& r : rows) {
    s.repeats += r.method.rfind(kRepeatPrefix, 0) == 0;
    if (r.verdict == "PROVED") ++s.proved;
    else if (r.verdict == "REFUTED") ++s.refuted;
    else if (r.verdict == "UNKNOWN") ++s.unknown;
    else if (r.verdict == "REPORT") ++s.reported;
    else ++s.error;
  }
  std::ostringstream o;
  o << html_head(title, "td,th{text-align:left;vertical-align:top}") << "<h1>" << xml_escape(title) << "</h1>\n";
  if (!command.empty()) o << "<p><code>" << xml_escape(command) << "</code></p>\n";
  o << "<p id=\"counts\">" << xml_escape(counts.empty() ? summary_line(rows.size(), s) : counts) << "</p>\n<h2>Summary</h2>\n<table class=\"summary\">\n"
    << "<tr><th>#</th><th>subject</th><th>claim</th><th>verdict</th><th>witness or reason</th><th>detail</th></tr>\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ReportRow& r = rows[i];
    const std::string href = r.href.empty() ? "#claim" + std::to_string(i + 1) : r.href;
    o << "<tr><td>" << i + 1 << "</td><td>" << xml_escape(r.subject) << "</td><td>" << xml_escape(r.claim) << "</td><td class=\""
      << xml_escape(r.verdict) << "\"><b>" << xml_escape(r.verdict) << "</b></td><td>" << xml_escape(r.summary)
      << "</td><td><a href=\"" << xml_escape(href) << "\">details</a></td></tr>\n";
  }
  o << "</table>\n";
  if (!figure.empty()) o << "<h2>Figure</h2>\n<div class=\"figure\">\n" << figure << "</div>\n";
  o << "<h2>Claims</h2>\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ReportRow& r = rows[i];
    o << "<h3 id=\"claim" << i + 1 << "\">" << i + 1 << ". " << xml_escape(r.subject) << ": " << xml_escape(r.claim) << "</h3>\n<p><b class=\""
      << xml_escape(r.verdict) << "\">" << xml_escape(r.verdict) << "</b> [" << xml_escape(r.method) << "]"
      << (r.summary.empty() ? "" : "<br/>" + xml_escape(r.summary));
    if (!r.command.empty()) o << "<br/>command: <code>" << xml_escape(r.command) << "</code>";
    if (!r.href.empty()) o << "<br/><a href=\"" << xml_escape(r.href) << "\">the figure and the witness lanes</a>";
    o << "</p>\n";
  }
  o << "</body>\n</html>\n";
  return o.str();
}

void write_bank_reports(const std::string& dir, const std::vector<BankReportInput>& claims) {
  std::vector<ReportRow> rows;
  std::vector<std::string> svgs;
  std::size_t shown = claims.size();  // the figure on the summary page: the first refuted claim's
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const BankReportInput& in = claims[i];
    const std::string name = "claim" + std::to_string(i + 1);
    svgs.push_back(bank_report_svg(in));
    write_report_file(dir, name + ".svg", svgs.back());
    write_report_file(dir, name + ".html", bank_report_html(in, svgs.back(), name + ".svg"));
    const auto& v = in.result.verdict;
    if (v.is_refuted() && shown == claims.size()) shown = i;
    rows.push_back({in.subject.text(), in.claim, proofs::to_string(v.kind), v.method,
                    in.result.witness ? proofs::describe(*in.result.witness) : v.detail, name + ".html"});
  }
  if (shown == claims.size()) shown = 0;
  const std::string figure = svgs.empty() ? "" : svgs[shown];
  write_report_file(dir, "report.svg", figure);
  write_report_file(dir, "index.html",
                    report_index_html("layoutproof bank report", claims.empty() ? "" : claims.front().command, rows, figure));
}

}  // namespace layoutproof::cli
