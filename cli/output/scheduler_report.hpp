#pragma once
// The picture of a persistent tile scheduler's order (`raster trace|prove KIND ... --report DIR`,
// KIND sm90-persistent, sm90-group or sm90-stream-k), drawn the way one draws a rasterization by
// hand:
//
//   DIR/index.html    self-contained (inline CSS, no script, no network): the configuration, each
//                     claim's verdict, the tiles not computed exactly once and the work outside the
//                     problem listed with their CTAs and iterations, the summary figure inline, the
//                     wave frames (a no-script flip book), every CTA's loop
//   DIR/summary.svg   the whole schedule
//   DIR/wave_K.svg    wave K: every CTA's iteration K (K = 0 .. longest loop - 1)
//
// A figure draws one panel per (problem, batch l): the M x N tile grid, m down, n across (sm90-group:
// one problem per group). A tile is filled with its CTA's hue (golden-angle hues, so neighbouring
// CTAs differ), darker for later iterations, its CTA number written in it when it fits. In wave K the
// tiles of iteration K are drawn so, the earlier ones faded, the later ones not yet. Marked
// unmistakably in every figure:
//   missing   a tile (stream-K: a k block of it) computed by no CTA: red hatching, red border, "0x"
//   doubled   a tile (stream-K: a k block) computed twice or more: one stripe per unit, red
//             cross-hatching, red border, "2x" (the count)
//   outside   a unit the scheduler's rounding sends past the problem (m >= M, n >= N, l >= L):
//             drawn in the margin beyond the problem's thick border, faded, with a dashed outline
// Stream-K: a tile computed by several units (or by one unit of part of its k blocks) is split into
// stripes across its width, one per unit at its k range, labelled CTA:iteration k[a,b) when it fits;
// the unit whose k range ends at the tile's last k block (it computes the epilogue) carries a black
// corner triangle.
//
// Bounds, each stated in the HTML when it applies (never silently): at most 16 panels, 256 x 256
// tiles per panel, 2^17 tiles drawn per figure, 64 wave frames and 2^21 tiles over all frames (so
// a 132-SM 64 x 64 schedule draws all its 32 waves); schedules of more than 2^24 tiles or work
// units are not analysed (the claims' verdicts still stand).
//
// Example: sm90-group, groups 2x3, max swizzle 4, 132 SMs: 6 CTAs, one wave; the summary shows tile
// (m 1, n 2) hatched red ("computed by no CTA": the same tile exactly-once's witness names) and CTA
// 5's unit (m 0, n 3) dashed in the margin right of the 2 x 3 problem.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/raster/persistent.hpp"
#include "proofs/raster/scheduler.hpp"

namespace layoutproof::cli {

// One work unit: which CTA computes it, at which iteration of its loop (Work::iter).
struct SchedUnit {
  std::int64_t cta = 0;
  raster::Work w;
};

// A tile not computed exactly once. Whole tiles count their units; stream-K tiles count each of
// their k blocks, so a stream-K tile is `missing` when a k block has no unit and `doubled` when one
// has two (a tile may be both).
struct TileAnomaly {
  std::int64_t group = 0, m = 0, n = 0, l = 0;
  bool missing = false, doubled = false;
  std::vector<SchedUnit> units;   // every unit on the tile, in order of k_begin, CTA, iteration
  std::string where;              // "(m 1, n 2, l 0)", "group 1 (m 0, n 0, l 0)" as the claims' witnesses write it
  std::string text;               // "tile (m 1, n 2, l 0) is computed by no CTA"
};

// One panel: problem `group`'s batch `l`, its tiles m < rows (down), n < cols (across).
struct SchedPanel {
  std::int64_t group = 0, l = 0;
  std::int64_t tiles_m = 0, tiles_n = 0;  // the problem's extent; 0 x 0 for a batch l >= L
  std::int64_t rows = 0, cols = 0;        // drawn: the problem and the margin its units visit, capped
  bool clipped = false;                   // rows or cols cut at the panel bound
  bool outside_l = false;                 // a batch l >= L that the rounding visits
};

// The analysed schedule: what every figure and the HTML draw.
struct SchedulerPicture {
  std::string config, plan;
  std::int64_t ctas = 0, units = 0, tiles = 0;
  std::int64_t waves = 0;                  // the longest CTA loop
  std::int64_t k_tiles = 0;                // stream-K: k blocks per tile; 0: whole tiles
  bool grouped = false;                    // several problems (tiles named "group g (m, n, l)")
  bool analysed = true;                    // false: too large (why in `left_out`)
  std::vector<SchedPanel> panels;          // drawn
  std::vector<std::vector<SchedUnit>> cells;  // per panel: its units, ordered by (m, n, k_begin, cta, iter)
  std::int64_t missing = 0, doubled = 0;   // tiles, counted over the whole schedule
  std::vector<TileAnomaly> anomalies;      // the first kMaxListed of them, in tile order
  std::int64_t outside = 0;                // units outside their problem
  std::vector<SchedUnit> outside_units;    // the first kMaxListed
  std::int64_t split = 0;                  // stream-K: tiles computed by several units or in part
  std::vector<TileAnomaly> split_tiles;    // the first kMaxListed (missing/doubled set where so)
  std::int64_t frames = 0;                 // wave frames drawn: min(waves, the bounds)
  std::vector<std::string> left_out;       // what the bounds left out, one sentence each
  std::vector<std::vector<SchedUnit>> loops;  // the first kMaxListed CTAs' loops, each cut at kMaxLoopShown units
  std::vector<std::int64_t> loop_units;       // their lengths
};
inline constexpr std::size_t kMaxListed = 256;
inline constexpr std::size_t kMaxLoopShown = 64;

// Every CTA's loop run once (twice when tiles are computed more than once, to name their units).
SchedulerPicture scheduler_picture(const proofs::Schedule& s);
// The figure of wave `wave` (0 .. frames - 1), or with wave -1 the summary of the whole schedule.
std::string scheduler_frame_svg(const SchedulerPicture& p, std::int64_t wave, const std::string& title);

struct SchedulerReportClaim {
  std::string claim;     // as written
  std::string verdict;   // PROVED, REFUTED, UNKNOWN, ERROR; REPORT for balance
  proofs::SchedulerResult result;
};

struct SchedulerReportInput {
  std::string command;                          // the command line that produced it
  std::string kind;                             // sm90-persistent, sm90-group, sm90-stream-k
  const proofs::Schedule* schedule = nullptr;   // the configuration drawn
  std::string drawn;                            // why this one: "the configuration traced", "the witness of ..."
  std::string domain;                           // prove: the domain searched, in words; trace: ""
  std::vector<SchedulerReportClaim> claims;     // prove
};

// The page; `summary_svg` is scheduler_frame_svg(p, -1, ...), shown inline.
std::string scheduler_report_html(const SchedulerReportInput& in, const SchedulerPicture& p, const std::string& summary_svg);

// Writes the report's files into DIR, a report folder being built (publish_report_folder,
// cli/output/atomic_file.hpp). Throws LayoutError naming the file that cannot be written.
void write_scheduler_report(const std::string& dir, const SchedulerReportInput& in);

}  // namespace layoutproof::cli
