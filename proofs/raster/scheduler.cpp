#include "proofs/raster/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "model/support/checked.hpp"
#include "proofs/raster/stream_k_claims.hpp"

namespace layoutproof::proofs {
namespace {

using i64 = std::int64_t;
using raster::PersistentConfig;
using raster::PersistentPlan;
using raster::Work;

std::string raster_text(raster::RasterOption r) {
  return r == raster::RasterOption::along_m ? "along-m" : r == raster::RasterOption::along_n ? "along-n" : "heuristic";
}

// "AxBxC": a grid as the verdicts and plans write it.
std::string grid_text(const std::array<i64, 3>& grid) {
  return std::to_string(grid[0]) + "x" + std::to_string(grid[1]) + "x" + std::to_string(grid[2]);
}

// The launch of get_grid_shape's grid: none when the grid is empty (fewer SMs than a cluster's GPC
// share), not a multiple of the cluster shape (cudaLaunchKernelEx refuses a cluster launch whose
// grid the cluster does not divide; below one GPC get_grid_shape leaves the SM count unrounded), or
// past CUDA's grid limits (x below 2^31, y and z at most 65535: sm100-stream-k's waves along z).
void set_launch(Schedule& s, const std::array<i64, 3>& grid, i64 cluster_m, i64 cluster_n) {
  s.grid = grid;
  s.ctas = checked_mul(checked_mul(grid[0], grid[1]), grid[2]);
  const std::string g = grid_text(grid);
  if (s.ctas == 0) s.no_launch = "get_grid_shape gives grid " + g + ", no CTA, for these SMs and this cluster";
  else if (grid[0] % cluster_m != 0 || grid[1] % cluster_n != 0)
    s.no_launch = "get_grid_shape gives grid " + g + ", not a multiple of the cluster " + std::to_string(cluster_m) + "x" +
                  std::to_string(cluster_n) + ": the hardware refuses the cluster launch";
  else if (grid[0] > (i64{1} << 31) - 1 || grid[1] > 65535 || grid[2] > 65535)
    s.no_launch = "get_grid_shape gives grid " + g + ", past CUDA's grid limits (x below 2^31, y and z at most 65535): the launch fails";
}


// A schedule's loop: `walk`, and `visits` collecting it.
void set_walk(Schedule& s, std::function<void(i64, const raster::WorkVisitor&)> walk) {
  s.walk = std::move(walk);
  s.visits = [w = s.walk](i64 cta) { return raster::collect_walk([&](const raster::WorkVisitor& v) { w(cta, v); }); };
}

// The enumeration's bound: tiles counted in a byte each.
constexpr i64 kMaxEnumeratedTiles = i64{1} << 31;

}  // namespace

std::optional<SchedulerClaim> parse_scheduler_claim(const std::string& s) {
  if (s == "exactly-once") return SchedulerClaim::exactly_once;
  if (s == "in-range") return SchedulerClaim::in_range;
  if (s == "balance") return SchedulerClaim::balance;
  if (s == "k-exactly-once") return SchedulerClaim::k_exactly_once;
  if (s == "launches") return SchedulerClaim::launches;
  return std::nullopt;
}

const char* to_string(SchedulerClaim c) {
  switch (c) {
    case SchedulerClaim::exactly_once: return "exactly-once";
    case SchedulerClaim::in_range: return "in-range";
    case SchedulerClaim::balance: return "balance";
    case SchedulerClaim::k_exactly_once: return "k-exactly-once";
    case SchedulerClaim::launches: return "launches";
  }
  return "?";
}

std::string tile_text(bool grouped, i64 group, i64 m, i64 n, i64 l) {
  return (grouped ? "group " + std::to_string(group) + " " : std::string()) + "(m " + std::to_string(m) + ", n " + std::to_string(n) + ", l " +
         std::to_string(l) + ")";
}

std::string config_text(const PersistentConfig& c) {
  return "tiles " + std::to_string(c.tiles_m) + "x" + std::to_string(c.tiles_n) + "x" + std::to_string(c.tiles_l) + ", cluster " +
         std::to_string(c.cluster_m) + "x" + std::to_string(c.cluster_n) + ", max swizzle " + std::to_string(c.max_swizzle) +
         ", raster " + raster_text(c.raster) + ", " + std::to_string(c.sms) + " SMs" +
         (c.max_active_clusters ? ", " + std::to_string(c.max_active_clusters) + " active clusters" : std::string());
}

std::string config_text(const raster::GroupConfig& c) {
  std::string g;
  for (std::size_t k = 0; k < c.groups.size(); ++k) g += (k ? "," : "") + std::to_string(c.groups[k][0]) + "x" + std::to_string(c.groups[k][1]);
  return "groups " + g + ", cluster " + std::to_string(c.cluster_m) + "x" + std::to_string(c.cluster_n) + ", max swizzle " +
         std::to_string(c.max_swizzle) + ", raster " + raster_text(c.raster) + ", " + std::to_string(c.sms) + " SMs" +
         (c.max_active_clusters ? ", " + std::to_string(c.max_active_clusters) + " active clusters" : std::string()) +
         (c.sm100 ? ", atom m " + std::to_string(c.atom_m) + (c.dynamic_cluster ? ", dynamic cluster" : ", static cluster") : std::string()) +
         (c.corrected ? ", corrected bound" : "");
}

std::string config_text(const raster::StreamKConfig& c) {
  return config_text(c.base) + ", k tiles " + std::to_string(c.k_tiles) + ", splits " + std::to_string(c.splits) + ", decomposition " +
         raster::to_string(c.decomposition) + ", reduction " + raster::to_string(c.reduction);
}

Schedule schedule_of(const raster::StreamKConfig& c) {
  Schedule s;
  const raster::StreamKPlan p = raster::plan_stream_k(c);
  s.config = config_text(c);
  set_launch(s, p.base.grid, c.base.cluster_m, c.base.cluster_n);
  s.plan = "grid " + grid_text(p.base.grid) +
           ", swizzle " + std::to_string(1 << p.base.log_swizzle) + ", " + raster::to_string(p.base.raster) + ", " + raster::to_string(p.mode) +
           (p.mode == raster::Decomposition::split_k ? " " + std::to_string(p.splits) + " splits"
            : p.mode == raster::Decomposition::stream_k
                ? " (" + std::to_string(p.sk_units) + " units over " + std::to_string(p.sk_tiles) + " tiles in " + std::to_string(p.sk_groups) +
                      " groups)"
                : std::string());
  s.problems = {{c.base.tiles_m, c.base.tiles_n, c.base.tiles_l}};
  set_walk(s, [c, p](i64 cta, const raster::WorkVisitor& v) { raster::stream_k_walk(c, p, cta, v); });
  s.rounding = "the scheduler rounds the blocks up to " + std::to_string(p.base.blocks_m) + "x" + std::to_string(p.base.blocks_n);
  s.k_tiles = c.k_tiles;
  s.reduction = c.reduction;
  return s;
}

std::string config_text(const raster::Sm100Config& c) {
  return "tiles " + std::to_string(c.tiles_m) + "x" + std::to_string(c.tiles_n) + "x" + std::to_string(c.tiles_l) + ", cluster " +
         std::to_string(c.cluster_m) + "x" + std::to_string(c.cluster_n) + ", max swizzle " + std::to_string(c.max_swizzle) + ", raster " +
         raster_text(c.raster);
}

Schedule schedule_of(const raster::Sm100Config& c) {
  Schedule s;
  const raster::Sm100Plan p = raster::plan_sm100(c);
  s.config = config_text(c);
  set_launch(s, p.grid, c.cluster_m, c.cluster_n);
  s.plan = "grid " + grid_text(p.grid) + " (every tile launched), " +
           (p.swizzle ? "swizzle " + std::to_string(p.swizzle) : std::string("no swizzle")) + ", " + raster::to_string(p.raster) +
           ", one unit per CTA (no cluster cancelled)";
  s.problems = {{c.tiles_m, c.tiles_n, c.tiles_l}};
  set_walk(s, [c, p](i64 cta, const raster::WorkVisitor& v) {
    for (const Work& w : raster::sm100_visits(c, p, cta))
      if (!v(w)) return;
  });
  s.units = s.ctas;
  s.rounding = "the grid rounds the tiles up to whole clusters, " + std::to_string(p.blocks_m) + "x" + std::to_string(p.blocks_n);
  return s;
}

std::string config_text(const raster::Sm100StreamKConfig& c) { return config_text(c.sk); }

Schedule schedule_of(const raster::Sm100StreamKConfig& c) {
  Schedule s;
  const raster::Sm100StreamKPlan p = raster::plan_sm100_stream_k(c);
  s.config = config_text(c);
  set_launch(s, p.grid, c.sk.base.cluster_m, c.sk.base.cluster_n);
  const std::string grid = "grid " + grid_text(p.grid);
  switch (p.path) {
    case raster::Sm100StreamKPath::stream_k:
      s.plan = grid + " (waves of " + std::to_string(p.sk.sk_units) + " units), swizzle " + std::to_string(1 << p.sk.base.log_swizzle) + ", " +
               raster::to_string(p.sk.base.raster) + ", stream-k (" + std::to_string(p.sk.sk_units) + " units over " + std::to_string(p.sk.sk_tiles) +
               " tiles in " + std::to_string(p.sk.sk_groups) + " groups)";
      s.rounding = "the scheduler rounds the blocks up to " + std::to_string(p.sk.base.blocks_m) + "x" + std::to_string(p.sk.base.blocks_n);
      break;
    case raster::Sm100StreamKPath::split_k:
      s.plan = grid + " (every tile's splits launched), no swizzle, along-m (the SM100 map's identity), split-k " + std::to_string(p.sk.splits) + " splits";
      s.rounding = "the grid rounds the tiles up to whole clusters, " + std::to_string(p.blocks_m) + "x" + std::to_string(p.blocks_n);
      break;
    case raster::Sm100StreamKPath::data_parallel:
      s.plan = grid + " (every tile launched), no swizzle, along-m (the SM100 map's identity), data-parallel";
      s.rounding = "the grid rounds the tiles up to whole clusters, " + std::to_string(p.blocks_m) + "x" + std::to_string(p.blocks_n);
      break;
  }
  s.plan += ", one CLC work id per CTA (no cluster cancelled)";
  s.problems = {{c.sk.base.tiles_m, c.sk.base.tiles_n, c.sk.base.tiles_l}};
  set_walk(s, [p](i64 cta, const raster::WorkVisitor& v) { raster::sm100_stream_k_walk(p, cta, v); });
  if (p.path != raster::Sm100StreamKPath::stream_k) s.units = s.ctas;
  s.k_tiles = c.sk.k_tiles;
  s.reduction = c.sk.reduction;
  return s;
}

Schedule schedule_of(const PersistentConfig& c) {
  Schedule s;
  const PersistentPlan p = raster::plan_persistent(c);
  s.config = config_text(c);
  set_launch(s, p.grid, c.cluster_m, c.cluster_n);
  s.plan = "grid " + grid_text(p.grid) + ", swizzle " +
           std::to_string(1 << p.log_swizzle) + ", " + raster::to_string(p.raster);
  s.problems = {{c.tiles_m, c.tiles_n, c.tiles_l}};
  set_walk(s, [c, p](i64 cta, const raster::WorkVisitor& v) { raster::persistent_walk(c, p, cta, v); });
  s.units = s.ctas > 0 ? p.blocks_per_problem : 0;
  s.rounding = "the scheduler rounds the blocks up to " + std::to_string(p.blocks_m) + "x" + std::to_string(p.blocks_n);
  return s;
}

Schedule schedule_of(const raster::GroupConfig& c) {
  Schedule s;
  const raster::GroupPlan p = raster::plan_group(c);
  s.config = config_text(c);
  set_launch(s, p.grid, c.cluster_m, c.cluster_n);
  s.plan = "grid " + grid_text(p.grid) + ", " +
           raster::to_string(p.raster) + ", host bound " + std::to_string(p.host_blocks) + " of the device's " + std::to_string(p.device_blocks) +
           " swizzle-rounded tiles" + (c.corrected ? " (corrected: the device's)" : "") +
           (c.sm100 && p.grid_blocks != p.host_blocks ? ", grid from " + std::to_string(p.grid_blocks) + " blocks of the " +
                                                            std::to_string(c.atom_m) + "-CTA MMA tile"
                                                      : std::string());
  for (const auto& g : c.groups) s.problems.push_back({g[0], g[1], 1});
  set_walk(s, [c, p](i64 cta, const raster::WorkVisitor& v) { raster::group_walk(c, p, cta, v); });
  s.units = s.ctas > 0 ? std::min(c.corrected ? p.device_blocks : p.host_blocks, p.device_blocks) : 0;
  s.rounding = "each group's tiles are rounded up to its swizzle times the cluster";
  return s;
}

namespace {
SchedulerResult prove_one(const Schedule& s, SchedulerClaim claim, const ProveOptions& o);
}  // namespace

SchedulerResult prove_scheduler(const Schedule& s, SchedulerClaim claim, const ProveOptions& o) {
  SchedulerResult r = prove_one(s, claim, o);
  r.schedule = std::make_shared<const Schedule>(s);
  return r;
}

namespace {
SchedulerResult prove_one(const Schedule& s, SchedulerClaim claim, const ProveOptions& o) {
  if (claim == SchedulerClaim::launches) {
    SchedulerResult r;
    r.config = s.config;
    r.ctas = s.ctas;
    const std::string method = "get_grid_shape's grid (" + s.plan + ") against the cluster launch's rule, for " + s.config;
    if (s.no_launch.empty()) {
      r.verdict = Verdict::proved(method, "the grid of " + std::to_string(s.ctas) + " CTAs launches: the cluster divides it");
    } else {
      Witness wit;
      wit.points.push_back({"grid", -1, grid_text(s.grid), 0, ""});
      wit.why = s.no_launch;
      r.verdict = Verdict::refuted(method, wit);
    }
    return r;
  }
  if (s.k_tiles > 0 && claim != SchedulerClaim::in_range) return prove_k_claim(s, claim, o);
  if (claim == SchedulerClaim::k_exactly_once) {
    SchedulerResult r;
    r.config = s.config;
    r.verdict = Verdict::error("", "k-exactly-once is a claim about stream-K's k ranges: the kinds are sm90-stream-k and sm100-stream-k");
    return r;
  }
  const auto t0 = std::chrono::steady_clock::now();
  SchedulerResult r;
  r.config = s.config;
  const i64 ctas = s.ctas;
  std::vector<i64> base;  // each group's first tile in the count array
  i64 tiles = 0;
  for (const auto& pr : s.problems) {
    base.push_back(tiles);
    tiles = checked_add(tiles, checked_mul(checked_mul(pr[0], pr[1]), pr[2]));
  }
  r.ctas = ctas;
  const std::string method = "enumeration of every CTA's work loop (" + std::to_string(ctas) + " CTAs; " + s.plan + ") for " + s.config;
  if (tiles > kMaxEnumeratedTiles) {
    r.verdict = Verdict::unknown(method, "the problems have " + std::to_string(tiles) + " tiles: more than the enumeration's bound of 2^31");
    return r;
  }
  std::vector<std::uint8_t> count(static_cast<std::size_t>(tiles), 0);
  const auto inside = [&](const Work& w) {
    if (w.group < 0 || w.group >= static_cast<i64>(s.problems.size())) return false;
    const auto& pr = s.problems[static_cast<std::size_t>(w.group)];
    const bool k_inside = s.k_tiles == 0 || (w.k_begin >= 0 && w.k_begin < w.k_end && w.k_end <= s.k_tiles);
    return w.m >= 0 && w.n >= 0 && w.l >= 0 && w.m < pr[0] && w.n < pr[1] && w.l < pr[2] && k_inside;
  };
  const auto index = [&](const Work& w) {
    const auto& pr = s.problems[static_cast<std::size_t>(w.group)];
    return static_cast<std::size_t>(base[static_cast<std::size_t>(w.group)] + (w.l * pr[1] + w.n) * pr[0] + w.m);
  };
  const bool grouped = s.problems.size() > 1;
  const auto where = [&](i64 g, i64 m, i64 n, i64 l) { return tile_text(grouped, g, m, n, l); };
  i64 most = 0;
  for (i64 cta = 0; cta < ctas; ++cta) {
    if ((cta & 63) == 0 && o.smt.deadline.passed()) {
      r.verdict = Verdict::unknown(method, o.smt.deadline.reason());
      return r;
    }
    const std::vector<Work> visits = s.visits(cta);
    most = std::max<i64>(most, static_cast<i64>(visits.size()));
    r.units += static_cast<i64>(visits.size());
    for (const Work& w : visits) {
      if (!inside(w)) {
        if (claim == SchedulerClaim::in_range) {
          const std::vector<Work> again = s.visits(cta);  // replay: the same unit at the same iteration
          const Work& x = again.at(static_cast<std::size_t>(w.iter));
          if (x.m != w.m || x.n != w.n || x.l != w.l || x.group != w.group) {
            r.verdict = Verdict::error(method, "the witness did not replay");
            return r;
          }
          Witness wit;
          wit.points.push_back({"cta " + std::to_string(cta) + ", iteration " + std::to_string(w.iter), -1, where(w.group, w.m, w.n, w.l), 0, ""});
          const auto& pr = s.problems[static_cast<std::size_t>(std::min<i64>(std::max<i64>(w.group, 0), static_cast<i64>(s.problems.size()) - 1))];
          const bool tile_inside = w.m >= 0 && w.n >= 0 && w.l >= 0 && w.m < pr[0] && w.n < pr[1] && w.l < pr[2];
          if (tile_inside) {  // stream-K: the tile is inside, its k range is not
            wit.why = "CTA " + std::to_string(cta) + " at iteration " + std::to_string(w.iter) + " computes k blocks [" + std::to_string(w.k_begin) +
                      ", " + std::to_string(w.k_end) + ") of tile " + where(w.group, w.m, w.n, w.l) + ", outside its " + std::to_string(s.k_tiles) +
                      " k blocks";
            r.verdict = Verdict::refuted(method, wit);
            return r;
          }
          wit.why = "CTA " + std::to_string(cta) + " at iteration " + std::to_string(w.iter) + " computes tile " + where(w.group, w.m, w.n, w.l) +
                    ", outside the " + grid_text(pr) + " problem (" +
                    s.rounding + ")";
          r.verdict = Verdict::refuted(method, wit);
          return r;
        }
        continue;
      }
      std::uint8_t& k = count[index(w)];
      if (k < 2) ++k;
    }
  }
  r.balance_max_over_mean = r.units ? static_cast<double>(most) * static_cast<double>(ctas) / static_cast<double>(r.units) : 0;
  if (claim == SchedulerClaim::balance) {
    char b[160];
    std::snprintf(b, sizeof b, "work units per CTA: max %lld, mean %.2f, max/mean %.3f (reported, not a proof)", static_cast<long long>(most),
                  ctas ? static_cast<double>(r.units) / static_cast<double>(ctas) : 0.0, r.balance_max_over_mean);
    r.verdict = Verdict::proved(method, b);
    return r;
  }
  if (claim == SchedulerClaim::in_range) {
    r.verdict = Verdict::proved(method, "every one of the " + std::to_string(r.units) + " work units lies inside its problem");
    return r;
  }
  i64 missing = 0;
  for (const std::uint8_t k : count) missing += k == 0;
  for (std::size_t t = 0; t < count.size(); ++t) {
    if (count[t] == 1) continue;
    std::size_t g = 0;
    while (g + 1 < base.size() && static_cast<i64>(t) >= base[g + 1]) ++g;
    const auto& pr = s.problems[g];
    const i64 local = static_cast<i64>(t) - base[g];
    const i64 m = local % pr[0], n = (local / pr[0]) % pr[1], l = local / (pr[0] * pr[1]);
    std::vector<std::pair<i64, i64>> who;  // replay: every CTA's loop again
    for (i64 cta = 0; cta < ctas; ++cta)
      for (const Work& w : s.visits(cta))
        if (w.group == static_cast<i64>(g) && w.m == m && w.n == n && w.l == l) who.push_back({cta, w.iter});
    if ((count[t] == 0) != who.empty()) {
      r.verdict = Verdict::error(method, "the witness did not replay");
      return r;
    }
    Witness wit;
    std::string visitors;
    for (const auto& [cta, iter] : who) {
      wit.points.push_back({"cta " + std::to_string(cta) + ", iteration " + std::to_string(iter), -1, where(static_cast<i64>(g), m, n, l), 0, ""});
      visitors += (visitors.empty() ? "" : " and ") + ("CTA " + std::to_string(cta) + " at iteration " + std::to_string(iter));
    }
    if (who.empty()) wit.points.push_back({"missing", -1, where(static_cast<i64>(g), m, n, l), 0, ""});
    wit.why = who.empty() ? "tile " + where(static_cast<i64>(g), m, n, l) + " is computed by no CTA" +
                                (ctas == 0 ? " (" + s.no_launch + ")" : std::string()) +
                                (missing > 1 ? " (" + std::to_string(missing) + " tiles are missing)" : std::string())
                          : "tile " + where(static_cast<i64>(g), m, n, l) + " is computed twice: by " + visitors;
    r.verdict = Verdict::refuted(method, wit);
    return r;
  }
  r.verdict = Verdict::proved(method, "each of the " + std::to_string(tiles) + " tiles is computed by exactly one (CTA, iteration)");
  r.verdict.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace
}  // namespace layoutproof::proofs
