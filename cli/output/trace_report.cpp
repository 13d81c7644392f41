#include "cli/output/trace_report.hpp"

#include <algorithm>

#include "cli/output/atomic_file.hpp"
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cli/output/escape.hpp"
#include "cli/output/html.hpp"
#include "cli/output/svg.hpp"

namespace layoutproof::cli {
namespace {

using svg::num;
using svg::rect;
using svg::text;

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

constexpr i64 kMaxGridCells = i64{1} << 16;  // larger stages are described, not drawn


// One stage of the smem tensor: mode 0 down, mode 1 across, as the trace's slices fill it.
struct StageGrid {
  i64 rows = 0, cols = 0, stage = 0;
  std::vector<i64> addr;   // byte address of each element (row + rows*col), -1: not moved
  std::vector<int> moves;  // how many (instruction, lane, slot) move it
  bool drawable() const { return rows > 0 && rows * cols <= kMaxGridCells; }
  i64 cell(i64 elem) const { return elem - stage * rows * cols; }
  bool holds(i64 elem) const { return elem >= 0 && elem / (rows * cols) == stage; }
};

StageGrid stage_grid(const AddressTrace& t, i64 stage) {
  StageGrid g;
  if (t.domain_shape.empty()) return g;
  g.rows = t.domain_shape[0];
  g.cols = t.domain_shape.size() > 1 ? t.domain_shape[1] : 1;
  g.stage = stage;
  if (!g.drawable()) return g;
  g.addr.assign(at(g.rows * g.cols), -1);
  g.moves.assign(at(g.rows * g.cols), 0);
  for (const auto& in : t.instructions)
    for (int l = 0; l < kWarpLanes; ++l) {
      if (!is_active_lane(in, l)) continue;
      for (int j = 0; j < in.slice_len; ++j) {
        const std::size_t s = at(l) * at(in.slice_len) + at(j);
        if (s >= in.slice_elems.size() || !g.holds(in.slice_elems[s])) continue;
        const i64 c = g.cell(in.slice_elems[s]);
        g.addr[at(c)] = in.slice_addrs[s];
        ++g.moves[at(c)];
      }
    }
  return g;
}

// The stage of lane `lane`'s first element (0 without slices).
i64 stage_of(const AddressTrace& t, const TraceInstruction& in, int lane) {
  if (t.domain_shape.empty() || in.slice_len <= 0) return 0;
  const i64 stage_size = t.domain_shape[0] * (t.domain_shape.size() > 1 ? t.domain_shape[1] : 1);
  const i64 e = in.slice_elems[at(lane) * at(in.slice_len)];
  return e < 0 ? 0 : e / stage_size;
}

struct Cells {  // cell size and grid origin
  double cw = 20, ch = 20, x0 = 70, y0 = 120;
};

Cells cells_for(const StageGrid& g, double top) {
  Cells c;
  c.cw = std::clamp(1100.0 / static_cast<double>(g.cols), 6.0, 34.0);
  c.ch = std::clamp(std::min(c.cw, 700.0 / static_cast<double>(g.rows)), 4.0, 22.0);
  c.y0 = top + 60;
  return c;
}

void outline_slice(std::ostringstream& o, const StageGrid& g, const Cells& c, const TraceInstruction& in, int lane,
                   const std::string& attrs) {
  for (int j = 0; j < in.slice_len; ++j) {
    const i64 e = in.slice_elems[at(lane) * at(in.slice_len) + at(j)];
    if (!g.holds(e)) continue;
    const i64 cell = g.cell(e);
    rect(o, c.x0 + static_cast<double>(cell / g.rows) * c.cw, c.y0 + static_cast<double>(cell % g.rows) * c.ch, c.cw, c.ch, attrs);
  }
}

// The lanes to draw: hot (red, labelled) and the rest of their phase (dashed).
struct Highlight {
  const TraceInstruction* in = nullptr;
  std::vector<int> hot, phase;
  bool covers = false;  // outline elements moved twice or never instead
  bool stores = false;
};

// Panel: the stage grid with the highlighted lanes; returns the bottom y.
double grid_panel(std::ostringstream& o, const AddressTrace& t, const StageGrid& g, const Highlight& h, double top) {
  std::string title = "smem stage " + std::to_string(g.stage) + ": " + std::to_string(g.rows) + " x " + std::to_string(g.cols) +
                      " elements (mode 0 down, mode 1 across), each coloured and numbered by the bank of its byte address";
  if (!g.drawable()) {
    text(o, 70, top + 30, g.rows == 0 ? "(the trace has no smem shape to draw)" : "(stage of " + std::to_string(g.rows * g.cols) +
                                                                                 " elements: too large to draw)", "class=\"lbl\"");
    return top + 40;
  }
  const Cells c = cells_for(g, top);
  text(o, c.x0, top + 22, title, "class=\"h2\"");
  const bool numbers = c.cw >= 15 && c.ch >= 12;
  const int digits = static_cast<int>(std::to_string(std::max<i64>(g.cols - 1, 0)).size());
  const i64 step = svg::label_step(c.cw, svg::column_label_space(digits));  // labels never overlap
  for (i64 col = 0; col < g.cols; col += step)
    text(o, c.x0 + (static_cast<double>(col) + 0.5) * c.cw, c.y0 - 6, std::to_string(col), "class=\"lbl\" text-anchor=\"middle\"");
  const i64 rstep = svg::label_step(c.ch, svg::kRowLabelSpace);
  for (i64 r = 0; r < g.rows; r += rstep)
    text(o, c.x0 - 8, c.y0 + (static_cast<double>(r) + 0.7) * c.ch, std::to_string(r), "class=\"lbl\" text-anchor=\"end\"");
  for (i64 cell = 0; cell < g.rows * g.cols; ++cell) {
    const double x = c.x0 + static_cast<double>(cell / g.rows) * c.cw, y = c.y0 + static_cast<double>(cell % g.rows) * c.ch;
    const i64 a = g.addr[at(cell)];
    const int bank = a < 0 ? -1 : bank_of(a);
    rect(o, x, y, c.cw, c.ch, "fill=\"" + (bank < 0 ? std::string("#eee") : svg::bank_colour(bank)) + "\" stroke=\"#fff\" stroke-width=\"0.5\"");
    if (numbers && bank >= 0) text(o, x + c.cw / 2, y + c.ch * 0.72, std::to_string(bank), "class=\"cell\" text-anchor=\"middle\"");
  }
  if (h.covers)
    for (i64 cell = 0; cell < g.rows * g.cols; ++cell) {
      const int m = g.moves[at(cell)];
      if (m == 1 || (m > 1 && !h.stores)) continue;
      rect(o, c.x0 + static_cast<double>(cell / g.rows) * c.cw, c.y0 + static_cast<double>(cell % g.rows) * c.ch, c.cw, c.ch,
           "fill=\"none\" stroke=\"#d00\" stroke-width=\"2.5\"");
    }
  if (h.in) {
    for (int l : h.phase)
      if (std::find(h.hot.begin(), h.hot.end(), l) == h.hot.end())
        outline_slice(o, g, c, *h.in, l, "fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" stroke-dasharray=\"3,2\"");
    // Tags "L<lane>" in the right margin, top to bottom by row, never overlapping; a line joins
    // each tag to its lane's first element.
    std::vector<std::pair<i64, int>> tagged;  // (cell of the first element, lane)
    for (int l : h.hot) {
      outline_slice(o, g, c, *h.in, l, "fill=\"none\" stroke=\"#d00\" stroke-width=\"3\"");
      const i64 e = h.in->slice_elems[at(l) * at(h.in->slice_len)];
      if (g.holds(e)) tagged.push_back({g.cell(e), l});
    }
    std::sort(tagged.begin(), tagged.end(), [&](const auto& a, const auto& b) { return a.first % g.rows < b.first % g.rows; });
    const double right = c.x0 + static_cast<double>(g.cols) * c.cw;
    double free_y = c.y0;
    for (const auto& [cell, l] : tagged) {
      const double cy = c.y0 + static_cast<double>(cell % g.rows) * c.ch + c.ch / 2;
      const double cx = c.x0 + (static_cast<double>(cell / g.rows) + 1) * c.cw;
      const double ty = std::max(cy, free_y + 8);
      free_y = ty + 10;
      o << "<line x1=\"" << num(cx) << "\" y1=\"" << num(cy) << "\" x2=\"" << num(right + 10) << "\" y2=\"" << num(ty)
        << "\" stroke=\"#d00\" stroke-width=\"1.2\"/>\n";
      rect(o, right + 10, ty - 8, 44, 16, "fill=\"#d00\" rx=\"3\"");
      text(o, right + 32, ty + 4, "L" + std::to_string(l), "class=\"lane\" text-anchor=\"middle\"");
    }
  }
  return c.y0 + static_cast<double>(g.rows) * c.ch + 10;
}

Highlight highlight(const AddressTrace& t, const TraceReportClaim* claim) {
  Highlight h;
  h.stores = t.smem_is_destination;
  if (!claim) {  // overview: instruction 0, all its active lanes dashed
    h.in = &t.instructions.front();
    for (int l = 0; l < kWarpLanes; ++l)
      if (is_active_lane(*h.in, l)) h.phase.push_back(l);
    return h;
  }
  h.covers = claim->claim == "covers";
  const auto& w = claim->result.witness;
  if (!w || w->instruction < 0 || at(w->instruction) >= t.instructions.size()) return h;
  h.in = &t.instructions[at(w->instruction)];
  h.hot = w->lanes;
  if (w->phase >= 0) {
    const auto phases = phases_of(h.in->access());
    if (at(w->phase) < phases.size())
      for (int l = phases[at(w->phase)].first; l < phases[at(w->phase)].first + phases[at(w->phase)].second; ++l)
        if (is_active_lane(*h.in, l)) h.phase.push_back(l);
  }
  return h;
}

std::string headline(const TraceReportClaim* claim) {
  if (!claim) return "Trace overview: instruction 0 on the smem tile";
  const auto& v = claim->result.verdict;
  std::string s = std::string(proofs::to_string(v.kind)) + "  " + claim->claim;
  if (const auto& w = claim->result.witness; w && w->wavefronts > 0)
    s += ": instruction " + std::to_string(w->instruction) + " takes " + std::to_string(w->wavefronts) + " wavefronts for an ideal of " +
         std::to_string(w->ideal);
  return s;
}

// The lanes of the witness instruction as an HTML table.
std::string lanes_table(const TraceInstruction& in, const std::vector<int>& hot) {
  std::ostringstream o;
  o << "<table class=\"lanes\">\n<tr><th>lane</th><th>thread</th><th>smem coordinate</th><th>byte address</th>"
       "<th>banks (first..last word)</th><th>slice bytes</th></tr>\n";
  for (int l = 0; l < kWarpLanes; ++l) {
    const i64 a = in.addr[at(l)];
    const bool is_hot = std::find(hot.begin(), hot.end(), l) != hot.end();
    o << "<tr" << (is_hot ? " class=\"hot\"" : "") << "><td>" << l << "</td><td>" << (in.thread[at(l)] < 0 ? "-" : std::to_string(in.thread[at(l)]))
      << "</td><td>";
    if (in.coord_rank > 0 && a >= 0) {
      o << "(";
      for (int i = 0; i < in.coord_rank; ++i) o << (i ? "," : "") << in.coords[at(l * in.coord_rank + i)];
      o << ")";
    }
    o << "</td><td>" << (a < 0 ? "inactive" : std::to_string(a)) << "</td><td>";
    if (a >= 0) {
      const i64 last = word_of(a + std::max(in.width_bytes, 1) - 1);
      o << bank_of(a) << (last != word_of(a) ? ".." + std::to_string(bank_of_word(last)) : "");
    }
    o << "</td><td>";
    for (int j = 0; j < in.slice_len && a >= 0; ++j) o << (j ? " " : "") << in.slice_addrs[at(l) * at(in.slice_len) + at(j)];
    o << "</td></tr>\n";
  }
  return o.str() + "</table>\n";
}

const TraceReportClaim* first_refuted(const TraceReportInput& in) {
  for (const auto& c : in.claims)
    if (c.result.verdict.is_refuted()) return &c;
  return nullptr;
}

}  // namespace

std::string trace_report_svg(const AddressTrace& t, const TraceReportClaim* claim) {
  if (t.instructions.empty()) throw LayoutError("--report: the trace has no instruction");
  std::ostringstream body;
  const Highlight h = highlight(t, claim);
  const bool refuted = claim && claim->result.verdict.is_refuted();
  text(body, 20, 30, headline(claim), std::string("class=\"h1\" fill=\"") + (refuted ? "#b00" : claim ? "#070" : "#222") + "\"");
  text(body, 20, 52, t.provenance, "class=\"lbl\"");
  if (claim && claim->result.witness) text(body, 20, 70, claim->result.witness->why.substr(0, 240), "class=\"lbl\"");
  const i64 stage = h.in && !h.hot.empty() ? stage_of(t, *h.in, h.hot.front()) : h.in && !h.phase.empty() ? stage_of(t, *h.in, h.phase.front()) : 0;
  const StageGrid g = stage_grid(t, stage);
  double y = grid_panel(body, t, g, h, 80);
  const auto& w = claim ? claim->result.witness : std::nullopt;
  if (w && w->phase >= 0 && h.in) {
    const auto phases = phases_of(h.in->access());
    svg::PhaseView p;
    p.access = h.in->access();
    p.first = phases[at(w->phase)].first;
    p.count = phases[at(w->phase)].second;
    p.hot_bank = w->bank;
    p.title = "Phase " + std::to_string(w->phase) + " of instruction " + std::to_string(w->instruction) + " (" + h.in->where +
              "): the 32 banks, one row per distinct 4-byte word = one wavefront";
    y = svg::phase_panel(body, p, y + 10);
  }
  y = svg::bank_legend(body, y + 10);
  const double grid_right = g.drawable() ? cells_for(g, 0).x0 + static_cast<double>(g.cols) * cells_for(g, 0).cw + 160 : 0;
  return svg::document(body.str(), std::max(grid_right, 70.0 + 36 * 32 + 40), y + 10);
}

std::string trace_report_html(const TraceReportInput& in) {
  const AddressTrace& t = *in.trace;
  std::ostringstream o;
  o << html_head("layoutproof trace report", "tr.hot td{background:#fdd;font-weight:bold}") << "<h1>layoutproof trace report</h1>\n<table>\n"
    << "<tr><th>command</th><td><code>" << xml_escape(in.command) << "</code></td></tr>\n"
    << "<tr><th>copy</th><td>" << xml_escape(t.provenance) << "</td></tr>\n"
    << "<tr><th>instructions</th><td>" << t.instructions.size() << " x " << to_string(t.op) << ", " << t.width_bytes << " B per lane, "
    << t.threads << " threads</td></tr>\n</table>\n<h2>Claims</h2>\n<table class=\"summary\">\n<tr><th>claim</th><th>verdict</th><th>how decided</th><th>detail</th><th>figure</th></tr>\n";
  // The summary: every claim; a refuted one links to its figure and lanes further down (#claimN).
  for (std::size_t i = 0; i < in.claims.size(); ++i) {
    const auto& c = in.claims[i];
    const auto& v = c.result.verdict;
    o << "<tr><td>" << xml_escape(c.claim) << "</td><td class=\"" << (v.is_refuted() ? "refuted" : v.is_proved() ? "proved" : "") << "\"><b>"
      << proofs::to_string(v.kind) << "</b></td><td>" << xml_escape(v.method) << "</td><td>"
      << xml_escape(c.result.witness ? c.result.witness->why : v.detail) << "</td><td>"
      << (v.is_refuted() ? "<a href=\"#claim" + std::to_string(i + 1) + "\">figure</a>" : std::string("-")) << "</td></tr>\n";
  }
  o << "</table>\n";
  int figure = 0;
  for (std::size_t i = 0; i < in.claims.size(); ++i) {
    const auto& c = in.claims[i];
    if (!c.result.verdict.is_refuted()) continue;
    o << "<h2 id=\"claim" << i + 1 << "\">" << xml_escape(c.claim) << ": refuted</h2>\n<div class=\"figure\">\n" << trace_report_svg(t, &c) << "</div>\n";
    if (figure++ == 0) o << "<p>This figure is also <a href=\"report.svg\">report.svg</a>.</p>\n";
    const auto& w = c.result.witness;
    if (w && w->instruction >= 0 && at(w->instruction) < t.instructions.size())
      o << "<h3>Instruction " << w->instruction << " (" << xml_escape(t.instructions[at(w->instruction)].where) << "): its 32 lanes</h3>\n"
        << lanes_table(t.instructions[at(w->instruction)], w->lanes);
  }
  if (figure == 0)
    o << "<h2>No claim refuted</h2>\n<div class=\"figure\">\n" << trace_report_svg(t, nullptr)
      << "</div>\n<p>Instruction 0 on the smem tile; also <a href=\"report.svg\">report.svg</a>.</p>\n";
  o << "</body>\n</html>\n";
  return o.str();
}

void write_trace_report(const std::string& dir, const TraceReportInput& in) {
  if (!in.trace) throw LayoutError("--report: no trace");
  write_report_file(dir, "report.svg", trace_report_svg(*in.trace, first_refuted(in)));
  write_report_file(dir, "index.html", trace_report_html(in));
}

std::string trace_lanes_table(const TraceInstruction& in, const std::vector<int>& hot) { return lanes_table(in, hot); }

}  // namespace layoutproof::cli
