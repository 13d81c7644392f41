#include "cli/output/scheduler_report.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"
#include "cli/output/html.hpp"
#include "cli/output/report.hpp"
#include "cli/output/svg.hpp"
#include "model/support/checked.hpp"
#include "model/support/error.hpp"

namespace layoutproof::cli {
namespace {

using i64 = std::int64_t;
using svg::num;
using svg::rect;
using svg::text;

constexpr std::size_t kMaxPanels = 16;
constexpr i64 kMaxPanelSide = 256;
constexpr i64 kMaxDrawnTiles = i64{1} << 17;
constexpr i64 kMaxFrames = 64;
constexpr i64 kMaxFrameTiles = i64{1} << 21;
constexpr i64 kMaxAnalysed = i64{1} << 24;

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

std::string k_text(const raster::Work& w) { return "k[" + std::to_string(w.k_begin) + "," + std::to_string(w.k_end) + ")"; }

// "CTA 3 at iteration 2" (stream-K: " k[0,10)").
std::string unit_text(const SchedUnit& u, bool with_k) {
  return "CTA " + std::to_string(u.cta) + " at iteration " + std::to_string(u.w.iter) + (with_k ? " " + k_text(u.w) : std::string());
}

std::string units_text(const std::vector<SchedUnit>& us, bool with_k, i64 k_tiles) {
  std::string s;
  for (std::size_t i = 0; i < us.size(); ++i)
    s += (i ? (i + 1 == us.size() ? " and " : ", ") : "") + unit_text(us[i], with_k) +
         (with_k && us[i].w.k_end == k_tiles ? " (epilogue)" : "");
  return s;
}

bool unit_order(const SchedUnit& a, const SchedUnit& b) {
  return std::tie(a.w.m, a.w.n, a.w.k_begin, a.cta, a.w.iter) < std::tie(b.w.m, b.w.n, b.w.k_begin, b.cta, b.w.iter);
}

// Which k blocks of a tile no unit computes (gaps) and which several do (overlaps), from its
// units' ranges sorted by k_begin. Whole tiles (k_tiles 0) are one block, [0, 1), per unit.
struct Cover {
  std::vector<std::pair<i64, i64>> gaps, overlaps;
};
Cover cover_of(const std::vector<std::pair<i64, i64>>& ranges, i64 k_tiles) {
  Cover c;
  i64 pos = 0;  // the k blocks below pos are covered
  for (const auto& [b, e] : ranges) {
    if (b > pos) c.gaps.push_back({pos, b});
    if (b < pos) c.overlaps.push_back({b, std::min(pos, e)});
    pos = std::max(pos, e);
  }
  if (pos < k_tiles) c.gaps.push_back({pos, k_tiles});
  return c;
}

std::vector<std::pair<i64, i64>> ranges_of(const std::vector<SchedUnit>& us, bool stream) {
  std::vector<std::pair<i64, i64>> r;
  for (const auto& u : us) r.push_back(stream ? std::pair<i64, i64>{u.w.k_begin, u.w.k_end} : std::pair<i64, i64>{0, 1});
  std::sort(r.begin(), r.end());
  return r;
}

// The tile's verdict in words, from its complete unit list.
void describe(TileAnomaly& a, i64 k_tiles) {
  const bool stream = k_tiles > 0;
  const Cover c = cover_of(ranges_of(a.units, stream), stream ? k_tiles : 1);
  a.missing = !c.gaps.empty();
  a.doubled = !c.overlaps.empty();
  const std::string t = "tile " + a.where;
  if (!stream) {
    a.text = a.units.empty() ? t + " is computed by no CTA"
                             : t + " is computed " + std::to_string(a.units.size()) + " times: by " + units_text(a.units, false, 0);
    return;
  }
  const auto blocks = [](const std::pair<i64, i64>& r) { return "k blocks [" + std::to_string(r.first) + ", " + std::to_string(r.second) + ")"; };
  a.text = t + ":";
  if (a.missing) a.text += " " + blocks(c.gaps.front()) + " computed by no CTA" + (a.doubled ? ";" : "");
  if (a.doubled) a.text += " " + blocks(c.overlaps.front()) + " computed twice or more";
  if (!a.missing && !a.doubled) a.text += " split over " + std::to_string(a.units.size()) + " units";
  a.text += a.units.empty() ? " (no unit)" : ": " + units_text(a.units, true, k_tiles);
}

std::string cta_fill(i64 cta, i64 iter, i64 waves, bool faded) {
  const double hue = std::fmod(static_cast<double>(cta) * 137.508, 360.0);
  const double t = waves > 1 ? static_cast<double>(iter) / static_cast<double>(waves - 1) : 0.0;
  const double light = faded ? 93 : 84 - 26 * std::clamp(t, 0.0, 1.0);
  return "hsl(" + std::to_string(static_cast<int>(std::lround(hue))) + (faded ? ",40%," : ",72%,") +
         std::to_string(static_cast<int>(std::lround(light))) + "%)";
}

std::string count_text(i64 n) { return std::to_string(n); }

}  // namespace

SchedulerPicture scheduler_picture(const proofs::Schedule& s) {
  SchedulerPicture p;
  p.config = s.config, p.plan = s.plan, p.ctas = s.ctas, p.k_tiles = s.k_tiles;
  p.grouped = s.problems.size() > 1;
  const bool stream = s.k_tiles > 0;
  std::vector<i64> base;  // each problem's first tile
  for (const auto& pr : s.problems) {
    base.push_back(p.tiles);
    p.tiles = checked_add(p.tiles, checked_mul(checked_mul(pr[0], pr[1]), pr[2]));
  }
  const auto too_large = [&](const std::string& what) {
    SchedulerPicture q;
    q.config = p.config, q.plan = p.plan, q.ctas = p.ctas, q.k_tiles = p.k_tiles, q.tiles = p.tiles, q.grouped = p.grouped;
    q.analysed = false;
    q.left_out.push_back("nothing is drawn: the schedule has " + what + ", more than the report's bound of " + count_text(kMaxAnalysed) +
                         " (the claims' verdicts above still stand)");
    return q;
  };
  if (p.tiles > kMaxAnalysed) return too_large(count_text(p.tiles) + " tiles");

  // The panels: every problem's batches in order, then batches past L as the units reach them.
  std::map<std::pair<i64, i64>, std::size_t> panel_of;
  std::vector<i64> max_m, max_n;
  i64 extra_panels = 0;
  const auto add_panel = [&](i64 g, i64 l, bool outside_l) {
    const auto& pr = s.problems[at(g)];
    SchedPanel sp;
    sp.group = g, sp.l = l, sp.outside_l = outside_l;
    sp.tiles_m = outside_l ? 0 : pr[0], sp.tiles_n = outside_l ? 0 : pr[1];
    panel_of[{g, l}] = p.panels.size();
    p.panels.push_back(sp);
    max_m.push_back(sp.tiles_m - 1), max_n.push_back(sp.tiles_n - 1);
  };
  for (std::size_t g = 0; g < s.problems.size(); ++g)
    for (i64 l = 0; l < s.problems[g][2] && p.panels.size() < kMaxPanels; ++l) add_panel(static_cast<i64>(g), l, false);
  i64 problem_batches = 0;
  for (const auto& pr : s.problems) problem_batches = checked_add(problem_batches, pr[2]);
  p.cells.resize(kMaxPanels);

  std::vector<std::uint8_t> whole(at(p.tiles), 0);  // whole-tile units per tile, saturating at 2
  std::vector<std::pair<i64, SchedUnit>> parts;     // stream-K units of part of a tile's k blocks
  for (i64 cta = 0; cta < s.ctas; ++cta) {
    const std::vector<raster::Work> v = s.visits(cta);
    p.waves = std::max<i64>(p.waves, static_cast<i64>(v.size()));
    p.units = checked_add(p.units, static_cast<i64>(v.size()));
    if (p.units > kMaxAnalysed) return too_large("more than " + count_text(kMaxAnalysed) + " work units");
    if (p.loops.size() < kMaxListed) {
      p.loops.emplace_back();
      p.loop_units.push_back(static_cast<i64>(v.size()));
      for (std::size_t k = 0; k < v.size() && k < kMaxLoopShown; ++k) p.loops.back().push_back({cta, v[k]});
    }
    for (const raster::Work& w : v) {
      const SchedUnit u{cta, w};
      const bool group_ok = w.group >= 0 && w.group < static_cast<i64>(s.problems.size());
      if (group_ok && w.m >= 0 && w.n >= 0 && w.l >= 0) {
        auto it = panel_of.find({w.group, w.l});
        if (it == panel_of.end() && w.l >= s.problems[at(w.group)][2]) {
          if (p.panels.size() < kMaxPanels) add_panel(w.group, w.l, true), it = panel_of.find({w.group, w.l});
          else ++extra_panels;
        }
        if (it != panel_of.end()) {
          max_m[it->second] = std::max(max_m[it->second], w.m), max_n[it->second] = std::max(max_n[it->second], w.n);
          if (w.m < kMaxPanelSide && w.n < kMaxPanelSide) p.cells[it->second].push_back(u);
        }
      }
      const auto* pr = group_ok ? &s.problems[at(w.group)] : nullptr;
      const bool inside = pr && w.m >= 0 && w.n >= 0 && w.l >= 0 && w.m < (*pr)[0] && w.n < (*pr)[1] && w.l < (*pr)[2] &&
                          (!stream || (w.k_begin >= 0 && w.k_begin < w.k_end && w.k_end <= s.k_tiles));
      if (!inside) {
        ++p.outside;
        if (p.outside_units.size() < kMaxListed) p.outside_units.push_back(u);
        continue;
      }
      const i64 t = base[at(w.group)] + (w.l * (*pr)[1] + w.n) * (*pr)[0] + w.m;
      if (!stream || (w.k_begin == 0 && w.k_end == s.k_tiles)) {
        if (whole[at(t)] < 2) ++whole[at(t)];
      } else {
        parts.push_back({t, u});
      }
    }
  }

  // Every tile's count: whole units, or for split stream-K tiles their k blocks' coverage.
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first, a.second.w.k_begin, a.second.cta, a.second.w.iter) < std::tie(b.first, b.second.w.k_begin, b.second.cta, b.second.w.iter);
  });
  const auto tile_at = [&](i64 t) {
    const std::size_t g = at(std::upper_bound(base.begin(), base.end(), t) - base.begin() - 1);
    const auto& pr = s.problems[g];
    const i64 local = t - base[g];
    TileAnomaly a;
    a.group = static_cast<i64>(g), a.m = local % pr[0], a.n = (local / pr[0]) % pr[1], a.l = local / (pr[0] * pr[1]);
    a.where = proofs::tile_text(p.grouped, a.group, a.m, a.n, a.l);
    return a;
  };
  std::unordered_map<i64, std::vector<TileAnomaly*>> need_whole;  // listed tiles whose whole units pass 2 names
  std::size_t pi = 0;
  for (i64 t = 0; t < p.tiles; ++t) {
    const std::size_t first = pi;
    while (pi < parts.size() && parts[pi].first == t) ++pi;
    std::vector<std::pair<i64, i64>> ranges(whole[at(t)], {0, stream ? s.k_tiles : 1});
    for (std::size_t k = first; k < pi; ++k) ranges.push_back({parts[k].second.w.k_begin, parts[k].second.w.k_end});
    std::sort(ranges.begin(), ranges.end());
    const Cover c = cover_of(ranges, stream ? s.k_tiles : 1);
    const bool bad = !c.gaps.empty() || !c.overlaps.empty(), split = pi > first;
    p.missing += !c.gaps.empty();
    p.doubled += !c.overlaps.empty();
    p.split += split;
    for (auto* list : {&p.anomalies, &p.split_tiles}) {
      if (!(list == &p.anomalies ? bad : split) || list->size() >= kMaxListed) continue;
      TileAnomaly a = tile_at(t);
      for (std::size_t k = first; k < pi; ++k) a.units.push_back(parts[k].second);
      list->push_back(a);
    }
  }
  // Name the whole units of the listed tiles (a second run of every loop, only when one has any).
  for (auto* list : {&p.anomalies, &p.split_tiles})
    for (auto& a : *list) {
      const auto& pr = s.problems[at(a.group)];
      const i64 t = base[at(a.group)] + (a.l * pr[1] + a.n) * pr[0] + a.m;
      if (whole[at(t)] > 0) need_whole[t].push_back(&a);
    }
  if (!need_whole.empty())
    for (i64 cta = 0; cta < s.ctas; ++cta)
      for (const raster::Work& w : s.visits(cta)) {
        if (w.group < 0 || w.group >= static_cast<i64>(s.problems.size()) || (stream && !(w.k_begin == 0 && w.k_end == s.k_tiles))) continue;
        const auto& pr = s.problems[at(w.group)];
        if (w.m < 0 || w.n < 0 || w.l < 0 || w.m >= pr[0] || w.n >= pr[1] || w.l >= pr[2]) continue;
        const auto it = need_whole.find(base[at(w.group)] + (w.l * pr[1] + w.n) * pr[0] + w.m);
        if (it != need_whole.end())
          for (TileAnomaly* a : it->second) a->units.push_back({cta, w});
      }
  for (auto* list : {&p.anomalies, &p.split_tiles})
    for (auto& a : *list) {
      std::sort(a.units.begin(), a.units.end(), unit_order);
      describe(a, s.k_tiles);
    }

  // The drawn extent of each panel: the problem and the margin its units reach, within the bounds.
  if (problem_batches > static_cast<i64>(kMaxPanels))
    p.left_out.push_back("only the first " + count_text(static_cast<i64>(kMaxPanels)) + " of the " + count_text(problem_batches) +
                         " (group, batch) panels are drawn; the lists below cover every tile");
  if (extra_panels)
    p.left_out.push_back(count_text(extra_panels) + " work units in batches past L beyond the panel bound are not drawn (they are listed as outside)");
  i64 drawn = 0;
  std::size_t keep = 0;
  for (std::size_t i = 0; i < p.panels.size(); ++i) {
    SchedPanel& sp = p.panels[i];
    sp.rows = std::min(max_m[i] + 1, kMaxPanelSide), sp.cols = std::min(max_n[i] + 1, kMaxPanelSide);
    sp.clipped = max_m[i] + 1 > kMaxPanelSide || max_n[i] + 1 > kMaxPanelSide;
    if (sp.clipped)
      p.left_out.push_back("panel " + std::to_string(i) + " draws tiles m < " + count_text(sp.rows) + ", n < " + count_text(sp.cols) + " of " +
                           count_text(max_m[i] + 1) + " x " + count_text(max_n[i] + 1) + " (the bound of " + count_text(kMaxPanelSide) + " per side)");
    if (i > 0 && drawn + sp.rows * sp.cols > kMaxDrawnTiles) break;
    drawn += sp.rows * sp.cols;
    keep = i + 1;
  }
  if (keep < p.panels.size())
    p.left_out.push_back("panels " + std::to_string(keep) + " to " + std::to_string(p.panels.size() - 1) + " are not drawn (the bound of " +
                         count_text(kMaxDrawnTiles) + " tiles per figure)");
  p.panels.resize(keep);
  p.cells.resize(keep);
  for (auto& c : p.cells) std::sort(c.begin(), c.end(), unit_order);
  p.frames = std::min({p.waves, kMaxFrames, std::max<i64>(1, kMaxFrameTiles / std::max<i64>(drawn, 1))});
  if (p.frames < p.waves)
    p.left_out.push_back("waves " + count_text(p.frames) + " to " + count_text(p.waves - 1) + " have no frame of their own (the bound of " +
                         count_text(kMaxFrames) + " frames and " + count_text(kMaxFrameTiles) + " tiles over all frames); the summary shows them");
  if (s.ctas > static_cast<i64>(kMaxListed))
    p.left_out.push_back("the CTA table lists the first " + count_text(static_cast<i64>(kMaxListed)) + " of the " + count_text(s.ctas) + " CTAs");
  return p;
}

namespace {

struct Layout {
  double cw = 20, ch = 20, width = 900, bottom = 0;
  std::vector<std::pair<double, double>> origin;  // per panel: its tile (0, 0)'s corner
};

Layout layout_of(const SchedulerPicture& p, double top) {
  Layout lay;
  i64 rows = 1, cols = 1;
  for (const auto& sp : p.panels) rows = std::max(rows, sp.rows), cols = std::max(cols, sp.cols);
  const double fit_w = 1100.0 / static_cast<double>(cols), fit_h = 1000.0 / static_cast<double>(rows);
  if (p.k_tiles > 0) {  // wide tiles: room for the k stripes' labels
    lay.cw = std::clamp(fit_w, 4.0, 220.0);
    lay.ch = std::clamp(std::min(lay.cw, fit_h), 4.0, 44.0);
  } else {
    lay.cw = lay.ch = std::clamp(std::min(fit_w, fit_h), 4.0, 44.0);
  }
  double x = 60, y = top, row_h = 0;
  for (const auto& sp : p.panels) {
    const double pw = static_cast<double>(sp.cols) * lay.cw, ph = static_cast<double>(sp.rows) * lay.ch;
    if (x > 60 && x + pw > 1400) x = 60, y += row_h, row_h = 0;
    lay.origin.push_back({x, y + 44});
    lay.width = std::max(lay.width, x + pw + 40);
    x += pw + 90;
    row_h = std::max(row_h, ph + 44 + 24);
  }
  lay.bottom = y + row_h;
  return lay;
}

std::string panel_title(const SchedulerPicture& p, const SchedPanel& sp) {
  std::string t = p.grouped ? "group " + std::to_string(sp.group) + ", " : "";
  t += "batch l " + std::to_string(sp.l) + ": ";
  t += sp.outside_l ? "outside the problem (its L is smaller), visited by the rounding"
                    : std::to_string(sp.tiles_m) + " x " + std::to_string(sp.tiles_n) + " tiles (m down, n across)";
  return t + (sp.clipped ? " [clipped]" : "");
}

// One tile: its units (sorted by k_begin) as stripes, with the marks. wave -1: the summary.
void draw_tile(std::ostringstream& o, const SchedulerPicture& p, const SchedPanel& sp, const SchedUnit* first, const SchedUnit* last,
               i64 m, i64 n, double x, double y, double cw, double ch, i64 wave) {
  const bool stream = p.k_tiles > 0, inside = !sp.outside_l && m < sp.tiles_m && n < sp.tiles_n;
  const i64 count = last - first;
  const i64 k_span = stream ? p.k_tiles : 1;
  std::vector<SchedUnit> all(first, last), seen;
  for (const auto& u : all)
    if (wave < 0 || u.w.iter <= wave) seen.push_back(u);
  const Cover full = cover_of(ranges_of(all, stream), k_span), now = cover_of(ranges_of(seen, stream), k_span);
  const bool missing = inside && !full.gaps.empty(), doubled = inside && !now.overlaps.empty();
  const bool split = stream && (count > 1 || (count == 1 && (first->w.k_begin != 0 || first->w.k_end != p.k_tiles)));
  if (wave < 0) {
    const std::string where = proofs::tile_text(p.grouped, sp.group, m, n, sp.l);
    std::string title = "tile " + where + (inside ? "" : " (outside the problem)") + ": ";
    title += all.empty() ? "computed by no CTA (missing)" : units_text(all, stream, p.k_tiles);
    if (doubled) title += " [computed more than once]";
    else if (missing && !all.empty()) title += " [k blocks missing]";
    o << "<g class=\"" << (missing ? "missing" : doubled ? "doubled" : inside ? "tile" : "outside") << "\"><title>" << xml_escape(title) << "</title>\n";
  }
  const auto span_x = [&](i64 b, i64 e) { return std::pair<double, double>{x + cw * static_cast<double>(b) / static_cast<double>(k_span),
                                                                           cw * static_cast<double>(e - b) / static_cast<double>(k_span)}; };
  for (i64 i = 0; i < count; ++i) {
    const SchedUnit& u = first[i];
    if (wave >= 0 && u.w.iter > wave) continue;
    const bool current = wave < 0 || u.w.iter == wave;
    // Whole tiles computed several times share the tile in equal stripes; stream-K units take their k range.
    // Plain doubles, not a structured binding: the lambda below captures the width (clang before
    // 16 refuses to capture a structured binding).
    const std::pair<double, double> span = stream ? span_x(std::clamp<i64>(u.w.k_begin, 0, k_span), std::clamp<i64>(u.w.k_end, 0, k_span))
                                                  : std::pair<double, double>{x + cw * static_cast<double>(i) / static_cast<double>(count), cw / static_cast<double>(count)};
    const double sx = span.first, sw = span.second;
    std::string attrs = "fill=\"" + cta_fill(u.cta, u.w.iter, p.waves, !current) + "\"";
    attrs += inside ? " stroke=\"#fff\" stroke-width=\"0.6\"" : " fill-opacity=\"0.55\" stroke=\"#444\" stroke-width=\"1\" stroke-dasharray=\"3,2\"";
    rect(o, sx, y, sw, ch, attrs);
    if (!current) continue;
    const std::string who = std::to_string(u.cta), it = std::to_string(u.w.iter);
    const std::string label = count > 1 || split ? who + ":" + it + (stream ? " " + k_text(u.w) : std::string()) : who;
    const double fs = std::clamp(ch * 0.42, 7.0, 12.0);
    const auto fits = [&](const std::string& t) { return static_cast<double>(t.size()) * fs * 0.62 + 2 <= sw && ch >= fs + 2; };
    const std::string shown = fits(label) ? label : fits(who + ":" + it) ? who + ":" + it : fits(who) ? who : "";
    if (!shown.empty()) {
      const bool two_lines = wave < 0 && count == 1 && !split && ch >= 2.4 * fs + 4;
      text(o, sx + sw / 2, y + (two_lines ? ch / 2 - 1 : ch / 2 + fs * 0.35), shown,
           "text-anchor=\"middle\" font-size=\"" + num(fs) + "\"" + (inside ? "" : " fill=\"#444\""));
      if (two_lines) text(o, sx + sw / 2, y + ch / 2 + fs, "i" + it, "text-anchor=\"middle\" font-size=\"" + num(fs * 0.8) + "\" fill=\"#333\"");
    }
    if (split && u.w.k_end == p.k_tiles) {  // the epilogue: a black corner triangle
      const double t = std::min({10.0, sw / 3, ch / 2});
      o << "<polygon points=\"" << num(sx + sw - t) << "," << num(y) << " " << num(sx + sw) << "," << num(y) << " " << num(sx + sw) << ","
        << num(y + t) << "\" fill=\"#000\"/>\n";
    }
  }
  if (missing)  // never computed, in every frame: the missing k blocks (whole tiles: the tile) hatched
    for (const auto& [b, e] : full.gaps) {
      const auto [gx, gw] = span_x(b, e);
      rect(o, gx, y, gw, ch, "fill=\"url(#lp-missing)\"");
    }
  if (doubled)
    for (const auto& [b, e] : now.overlaps) {
      const auto [ox, ow] = stream ? span_x(b, e) : std::pair<double, double>{x, cw};
      rect(o, ox, y, ow, ch, "fill=\"url(#lp-doubled)\"");
    }
  if (missing || doubled) {
    rect(o, x + 1, y + 1, cw - 2, ch - 2, "fill=\"none\" stroke=\"#d00\" stroke-width=\"2.5\"");
    const std::string mark = doubled ? std::to_string(static_cast<i64>(seen.size())) + "x" : "0x";
    if (cw >= 16 && ch >= 12) text(o, x + 3, y + std::min(ch - 2, 11.0), mark, "font-size=\"10\" font-weight=\"bold\" fill=\"#d00\"");
  }
  if (wave < 0) o << "</g>\n";
}

void panel(std::ostringstream& o, const SchedulerPicture& p, std::size_t pi, const Layout& lay, i64 wave) {
  const SchedPanel& sp = p.panels[pi];
  const auto [x0, y0] = lay.origin[pi];
  const double cw = lay.cw, ch = lay.ch;
  text(o, x0, y0 - 28, panel_title(p, sp), "class=\"h2\"");
  const i64 in_m = std::min(sp.tiles_m, sp.rows), in_n = std::min(sp.tiles_n, sp.cols);
  rect(o, x0, y0, static_cast<double>(in_n) * cw, static_cast<double>(in_m) * ch, "fill=\"#fff\"");
  // The grid lines of the problem's tiles; the margin shows only the tiles its units visit.
  for (i64 r = 0; r <= in_m && in_n > 0; ++r)
    o << "<line x1=\"" << num(x0) << "\" y1=\"" << num(y0 + static_cast<double>(r) * ch) << "\" x2=\"" << num(x0 + static_cast<double>(in_n) * cw)
      << "\" y2=\"" << num(y0 + static_cast<double>(r) * ch) << "\" stroke=\"#ccc\" stroke-width=\"0.5\"/>\n";
  for (i64 c = 0; c <= in_n && in_m > 0; ++c)
    o << "<line x1=\"" << num(x0 + static_cast<double>(c) * cw) << "\" y1=\"" << num(y0) << "\" x2=\"" << num(x0 + static_cast<double>(c) * cw)
      << "\" y2=\"" << num(y0 + static_cast<double>(in_m) * ch) << "\" stroke=\"#ccc\" stroke-width=\"0.5\"/>\n";
  const int digits = static_cast<int>(std::to_string(std::max<i64>(sp.cols - 1, 0)).size());
  for (i64 c = 0; c < sp.cols; c += svg::label_step(cw, svg::column_label_space(digits)))
    text(o, x0 + (static_cast<double>(c) + 0.5) * cw, y0 - 5, std::to_string(c), "class=\"lbl\" text-anchor=\"middle\"");
  for (i64 r = 0; r < sp.rows; r += svg::label_step(ch, svg::kRowLabelSpace))
    text(o, x0 - 6, y0 + (static_cast<double>(r) + 0.5) * ch + 4, std::to_string(r), "class=\"lbl\" text-anchor=\"end\"");
  const auto& cells = p.cells[pi];
  std::vector<std::uint8_t> has(at(sp.rows * sp.cols), 0);
  for (std::size_t i = 0; i < cells.size();) {
    std::size_t j = i;
    while (j < cells.size() && cells[j].w.m == cells[i].w.m && cells[j].w.n == cells[i].w.n) ++j;
    const i64 m = cells[i].w.m, n = cells[i].w.n;
    if (m < sp.rows && n < sp.cols) {
      has[at(m * sp.cols + n)] = 1;
      draw_tile(o, p, sp, &cells[i], &cells[i] + (j - i), m, n, x0 + static_cast<double>(n) * cw, y0 + static_cast<double>(m) * ch, cw, ch, wave);
    }
    i = j;
  }
  for (i64 m = 0; m < in_m; ++m)
    for (i64 n = 0; n < in_n; ++n)
      if (!has[at(m * sp.cols + n)])
        draw_tile(o, p, sp, nullptr, nullptr, m, n, x0 + static_cast<double>(n) * cw, y0 + static_cast<double>(m) * ch, cw, ch, wave);
  if (in_m > 0 && in_n > 0)  // the problem's edge: what lies beyond it is the rounding's margin
    rect(o, x0, y0, static_cast<double>(in_n) * cw, static_cast<double>(in_m) * ch, "fill=\"none\" stroke=\"#000\" stroke-width=\"2\"");
}

// The legend, its items wrapped within `width`; returns the bottom y.
double legend(std::ostringstream& o, const SchedulerPicture& p, double top, double width) {
  double x = 60;
  const auto item = [&](const std::string& attrs, const std::string& what, double w) {
    if (x > 60 && x + w > width) x = 60, top += 24;
    rect(o, x, top, 26, 16, attrs);
    text(o, x + 32, top + 12, what, "class=\"lbl\"");
    x += w;
  };
  item("fill=\"" + cta_fill(3, 0, 2, false) + "\"", "a CTA's hue (its number in the tile)", 270);
  item("fill=\"" + cta_fill(3, 1, 2, false) + "\"", "darker: a later iteration", 200);
  item("fill=\"url(#lp-missing)\" stroke=\"#d00\" stroke-width=\"2.5\"", "missing (computed by no CTA)", 240);
  item("fill=\"url(#lp-doubled)\" stroke=\"#d00\" stroke-width=\"2.5\"", "doubled (Nx: times)", 190);
  item("fill=\"" + cta_fill(3, 0, 2, false) + "\" fill-opacity=\"0.55\" stroke=\"#444\" stroke-dasharray=\"3,2\"", "outside the problem", 180);
  if (p.k_tiles > 0) {
    if (x > 60 && x + 330 > width) x = 60, top += 24;
    rect(o, x, top, 26, 16, "fill=\"" + cta_fill(5, 0, 2, false) + "\"");
    o << "<polygon points=\"" << num(x + 19) << "," << num(top) << " " << num(x + 26) << "," << num(top) << " " << num(x + 26) << "," << num(top + 7)
      << "\" fill=\"#000\"/>\n";
    text(o, x + 32, top + 12, "epilogue (k range ends at the last k block)", "class=\"lbl\"");
  }
  return top + 26;
}

const char* kPatterns =
    "<defs><pattern id=\"lp-missing\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
    "<rect width=\"6\" height=\"6\" fill=\"#fff\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#d00\" stroke-width=\"3\"/></pattern>"
    "<pattern id=\"lp-doubled\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
    "<path d=\"M0,0 L6,6 M6,0 L0,6\" stroke=\"#d00\" stroke-width=\"1.2\"/></pattern></defs>\n";

}  // namespace

std::string scheduler_frame_svg(const SchedulerPicture& p, i64 wave, const std::string& title) {
  std::ostringstream o;
  o << kPatterns;
  text(o, 20, 28, title, "class=\"h1\"");
  text(o, 20, 48, p.config, "class=\"lbl\"");
  const std::string what =
      wave < 0 ? "Summary: every work unit; colour = CTA, darker = later iteration (CTAs: " + std::to_string(p.ctas) + ", waves: " + std::to_string(p.waves) + ")"
               : "Wave " + std::to_string(wave) + " of " + std::to_string(p.waves) + ": every CTA's iteration " + std::to_string(wave) +
                     " drawn; earlier iterations faded, later ones not yet";
  const bool bad = p.missing || p.doubled;
  text(o, 20, 66, what, "class=\"lbl\"");
  text(o, 20, 84, !p.analysed ? "not analysed: too large"
                  : bad ? "missing tiles: " + std::to_string(p.missing) + ", tiles computed more than once: " + std::to_string(p.doubled)
                        : "every tile computed exactly once",
       std::string("class=\"h2\" fill=\"") + (bad || !p.analysed ? "#b00" : "#070") + "\"");
  const Layout lay = layout_of(p, 96);
  for (std::size_t i = 0; i < p.panels.size(); ++i) panel(o, p, i, lay, wave);
  // Wide enough for the header's longest line (about 6.6 px a character at 12 px) and the legend.
  const double header = 40 + 6.6 * static_cast<double>(std::max({p.config.size(), what.size(), title.size() * 3 / 2}));
  const double width = std::max({lay.width, header, 900.0});
  const double bottom = legend(o, p, lay.bottom + 6, width);
  return svg::document(o.str(), width, bottom + 8);
}

std::string scheduler_report_html(const SchedulerReportInput& in, const SchedulerPicture& p, const std::string& summary_svg) {
  const bool stream = p.k_tiles > 0;
  std::ostringstream o;
  // The wave flip-book: one rule per frame, CSS alone (the page runs no script).
  std::ostringstream style;
  style << "h2{margin-top:22px}td,th{text-align:left;vertical-align:top}.bad{color:#b00}.good{color:#070}"
           ".sw{display:inline-block;width:14px;height:14px;border:1px solid #888;vertical-align:middle}"
           ".flip input{display:none}.flip label{display:inline-block;border:1px solid #888;padding:1px 6px;margin:1px;cursor:pointer;font-size:12px}"
           ".flip .frames figure{display:none;margin:6px 0}.flip #wave-all:checked~.frames figure{display:block}";
  for (i64 k = 0; k < p.frames; ++k)
    style << ".flip #wave-" << k << ":checked~.frames .f" << k << "{display:block}.flip #wave-" << k << ":checked~.bar label[for=wave-" << k
          << "]{background:#333;color:#fff}";
  o << html_head("layoutproof scheduler report: " + in.kind, style.str()) << "<h1>layoutproof scheduler report: " << xml_escape(in.kind) << "</h1>\n<table>\n"
    << "<tr><th>command</th><td><code>" << xml_escape(in.command) << "</code></td></tr>\n"
    << "<tr><th>drawn</th><td>" << xml_escape(in.drawn) << "</td></tr>\n"
    << "<tr><th>configuration</th><td>" << xml_escape(p.config) << "</td></tr>\n"
    << "<tr><th>scheduler</th><td>" << xml_escape(p.plan) << "</td></tr>\n";
  if (!in.domain.empty()) o << "<tr><th>domain</th><td>" << xml_escape(in.domain) << "</td></tr>\n";
  o << "<tr><th>size</th><td>" << p.ctas << " CTAs, " << p.units << " work units, " << p.tiles << " tiles, " << p.waves << " waves (the longest CTA loop)"
    << (stream ? ", " + std::to_string(p.k_tiles) + " k blocks per tile" : std::string()) << "</td></tr>\n</table>\n";
  if (!p.left_out.empty()) {
    o << "<p class=\"bad\"><b>Left out of the drawing:</b></p>\n<ul>\n";
    for (const auto& s : p.left_out) o << "<li>" << xml_escape(s) << "</li>\n";
    o << "</ul>\n";
  }
  if (!in.claims.empty()) {
    o << "<h2>Claims</h2>\n<table>\n<tr><th>claim</th><th>verdict</th><th>how decided</th><th>witness or detail</th><th>configuration</th></tr>\n";
    for (const auto& c : in.claims) {
      const auto& v = c.result.verdict;
      o << "<tr><td>" << xml_escape(c.claim) << "</td><td class=\"" << xml_escape(c.verdict) << "\"><b>" << xml_escape(c.verdict) << "</b></td><td>"
        << xml_escape(v.method) << "</td><td>" << xml_escape(v.is_refuted() ? "witness: " + v.witness.why : v.detail) << "</td><td>"
        << xml_escape(c.result.config) << "</td></tr>\n";
    }
    o << "</table>\n";
  }
  if (p.analysed) {
    o << "<h2 id=\"anomalies\">Tiles not computed exactly once</h2>\n";
    if (!p.missing && !p.doubled)
      o << "<p class=\"good\">Every one of the " << p.tiles << " tiles is computed exactly once" << (stream ? " (each of its k blocks by one unit)" : "")
        << ".</p>\n";
    else {
      o << "<p class=\"bad\">Missing tiles (computed by no CTA" << (stream ? ", in part or whole" : "") << "): " << p.missing
        << "; tiles computed more than once: " << p.doubled << ". Red in the figures.</p>\n<table>\n<tr><th>tile</th><th>problem</th><th>what</th><th>units (CTA, iteration)</th></tr>\n";
      for (const auto& a : p.anomalies)
        o << "<tr class=\"" << (a.missing ? "missing" : "doubled") << "\"><td>" << xml_escape(a.where) << "</td><td>"
          << (a.missing && a.doubled ? "missing and doubled" : a.missing ? "missing" : "doubled") << "</td><td>" << xml_escape(a.text) << "</td><td>"
          << (a.units.empty() ? std::string("none") : xml_escape(units_text(a.units, stream, p.k_tiles))) << "</td></tr>\n";
      o << "</table>\n";
      if (static_cast<i64>(p.anomalies.size()) < p.missing + p.doubled)
        o << "<p>The first " << p.anomalies.size() << " are listed.</p>\n";
    }
    o << "<h2 id=\"outside\">Work outside the problem</h2>\n";
    if (!p.outside) o << "<p>No work unit lies outside its problem.</p>\n";
    else {
      o << "<p>Work units outside their problem: " << p.outside << " (the scheduler's rounding; the kernel's predication makes them write nothing); "
        << "dashed in the figures' margin.</p>\n<table>\n<tr><th>unit</th><th>tile</th></tr>\n";
      for (const auto& u : p.outside_units)
        o << "<tr><td>" << xml_escape(unit_text(u, stream)) << "</td><td>" << xml_escape(proofs::tile_text(p.grouped, u.w.group, u.w.m, u.w.n, u.w.l))
          << "</td></tr>\n";
      o << "</table>\n";
      if (static_cast<i64>(p.outside_units.size()) < p.outside) o << "<p>The first " << p.outside_units.size() << " are listed.</p>\n";
    }
    if (stream) {
      o << "<h2 id=\"split\">Split tiles</h2>\n<p>" << p.split
        << " tiles are computed by several units, or by one unit of part of their k blocks: drawn as stripes across the tile, one per unit at its k "
           "range; the black corner marks the unit whose range ends at the last k block (it computes the epilogue).</p>\n";
      if (!p.split_tiles.empty()) {
        o << "<table>\n<tr><th>tile</th><th>units (CTA at iteration, k range)</th></tr>\n";
        for (const auto& a : p.split_tiles)
          o << "<tr><td>" << xml_escape(a.where) << "</td><td>" << xml_escape(units_text(a.units, true, p.k_tiles)) << "</td></tr>\n";
        o << "</table>\n";
      }
    }
    o << "<h2>Summary</h2>\n<div class=\"figure\">\n" << summary_svg
      << "</div>\n<p>Also <a href=\"summary.svg\">summary.svg</a>; hover over a tile for its units.</p>\n";
    o << "<h2>Waves</h2>\n";
    if (p.frames == 0) o << "<p class=\"bad\">No CTA computes anything: there is no wave to draw.</p>\n";
    o << "<p>Wave K: every CTA's iteration K (frame files <code>wave_K.svg</code>). Pick a wave, or all:</p>\n<div class=\"flip\">\n";
    for (i64 k = 0; k < p.frames; ++k) o << "<input type=\"radio\" name=\"wave\" id=\"wave-" << k << "\"" << (k == 0 ? " checked" : "") << "/>";
    o << "<input type=\"radio\" name=\"wave\" id=\"wave-all\"/>\n<div class=\"bar\">";
    for (i64 k = 0; k < p.frames; ++k) o << "<label for=\"wave-" << k << "\">" << k << "</label>";
    o << "<label for=\"wave-all\">all</label></div>\n<div class=\"frames\">\n";
    for (i64 k = 0; k < p.frames; ++k)
      o << "<figure class=\"f" << k << "\"><img src=\"wave_" << k << ".svg\" alt=\"wave " << k << "\" loading=\"lazy\"/><figcaption>wave " << k
        << "</figcaption></figure>\n";
    o << "</div>\n</div>\n";
    o << "<h2>CTAs</h2>\n<table>\n<tr><th>CTA</th><th>colour</th><th>units</th><th>loop: (m, n, l" << (stream ? ", k range" : "") << ") by iteration</th></tr>\n";
    for (std::size_t c = 0; c < p.loops.size(); ++c) {
      o << "<tr><td>" << c << "</td><td><span class=\"sw\" style=\"background:" << cta_fill(static_cast<i64>(c), 0, 1, false) << "\"></span></td><td>"
        << p.loop_units[c] << "</td><td>";
      for (const auto& u : p.loops[c])
        o << (u.w.iter ? " " : "") << (p.grouped ? "g" + std::to_string(u.w.group) : std::string()) << "(" << u.w.m << "," << u.w.n << "," << u.w.l
          << (stream ? " " + k_text(u.w) : std::string()) << ")";
      if (p.loop_units[c] > static_cast<i64>(p.loops[c].size())) o << " ... (" << p.loop_units[c] - static_cast<i64>(p.loops[c].size()) << " more)";
      o << "</td></tr>\n";
    }
    o << "</table>\n";
  }
  o << "</body>\n</html>\n";
  return o.str();
}

void write_scheduler_report(const std::string& dir, const SchedulerReportInput& in) {
  if (!in.schedule) throw LayoutError("--report: no schedule to draw");
  const SchedulerPicture p = scheduler_picture(*in.schedule);
  const std::string summary = scheduler_frame_svg(p, -1, "Summary of " + in.kind);
  write_report_file(dir, "summary.svg", summary);
  for (i64 k = 0; k < p.frames; ++k)
    write_report_file(dir, "wave_" + std::to_string(k) + ".svg", scheduler_frame_svg(p, k, in.kind + ": wave " + std::to_string(k)));
  write_report_file(dir, "index.html", scheduler_report_html(in, p, summary));
}

}  // namespace layoutproof::cli
