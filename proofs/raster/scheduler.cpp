#include "proofs/raster/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "model/support/checked.hpp"

namespace layoutproof::proofs {
namespace {

using i64 = std::int64_t;
using raster::PersistentConfig;
using raster::PersistentPlan;
using raster::Work;

std::string raster_text(raster::RasterOption r) {
  return r == raster::RasterOption::along_m ? "along-m" : r == raster::RasterOption::along_n ? "along-n" : "heuristic";
}

std::string tile_text(i64 m, i64 n, i64 l) { return "(m " + std::to_string(m) + ", n " + std::to_string(n) + ", l " + std::to_string(l) + ")"; }

// The enumeration's bound: tiles counted in a byte each.
constexpr i64 kMaxEnumeratedTiles = i64{1} << 31;

}  // namespace

std::optional<SchedulerClaim> parse_scheduler_claim(const std::string& s) {
  if (s == "exactly-once") return SchedulerClaim::exactly_once;
  if (s == "in-range") return SchedulerClaim::in_range;
  if (s == "balance") return SchedulerClaim::balance;
  return std::nullopt;
}

const char* to_string(SchedulerClaim c) {
  return c == SchedulerClaim::exactly_once ? "exactly-once" : c == SchedulerClaim::in_range ? "in-range" : "balance";
}

std::string config_text(const PersistentConfig& c) {
  return "tiles " + std::to_string(c.tiles_m) + "x" + std::to_string(c.tiles_n) + "x" + std::to_string(c.tiles_l) + ", cluster " +
         std::to_string(c.cluster_m) + "x" + std::to_string(c.cluster_n) + ", max swizzle " + std::to_string(c.max_swizzle) +
         ", raster " + raster_text(c.raster) + ", " + std::to_string(c.sms) + " SMs" +
         (c.max_active_clusters ? ", " + std::to_string(c.max_active_clusters) + " active clusters" : std::string());
}

SchedulerResult prove_scheduler(const PersistentConfig& c, SchedulerClaim claim, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  SchedulerResult r;
  r.config = c;
  const PersistentPlan p = raster::plan_persistent(c);
  const i64 ctas = checked_mul(checked_mul(p.grid[0], p.grid[1]), p.grid[2]);
  const i64 tiles = checked_mul(checked_mul(c.tiles_m, c.tiles_n), c.tiles_l);
  r.ctas = ctas;
  const std::string method = "enumeration of every CTA's work loop (" + std::to_string(ctas) + " CTAs of grid " + std::to_string(p.grid[0]) +
                             "x" + std::to_string(p.grid[1]) + "x" + std::to_string(p.grid[2]) + ", swizzle " +
                             std::to_string(1 << p.log_swizzle) + ", " + raster::to_string(p.raster) + ") for " + config_text(c);
  if (tiles > kMaxEnumeratedTiles || p.blocks_per_problem > kMaxEnumeratedTiles * 4) {
    r.verdict = Verdict::unknown(method, "the problem has " + std::to_string(tiles) + " tiles: more than the enumeration's bound of 2^31");
    return r;
  }
  std::vector<std::uint8_t> count(static_cast<std::size_t>(tiles), 0);
  const auto index = [&](const Work& w) { return static_cast<std::size_t>((w.l * c.tiles_n + w.n) * c.tiles_m + w.m); };
  i64 most = 0;
  for (i64 cta = 0; cta < ctas; ++cta) {
    if ((cta & 63) == 0 && o.smt.deadline.passed()) {
      r.verdict = Verdict::unknown(method, o.smt.deadline.reason());
      return r;
    }
    const std::vector<Work> visits = raster::persistent_visits(c, p, cta);
    most = std::max<i64>(most, static_cast<i64>(visits.size()));
    r.units += static_cast<i64>(visits.size());
    for (const Work& w : visits) {
      const bool inside = w.m >= 0 && w.n >= 0 && w.l >= 0 && w.m < c.tiles_m && w.n < c.tiles_n && w.l < c.tiles_l;
      if (!inside) {
        if (claim == SchedulerClaim::in_range) {
          // Replay: the CTA's loop again, the same work unit at the same iteration.
          const std::vector<Work> again = raster::persistent_visits(c, p, cta);
          const Work& x = again.at(static_cast<std::size_t>(w.iter));
          if (x.m != w.m || x.n != w.n || x.l != w.l) {
            r.verdict = Verdict::error(method, "the witness did not replay");
            return r;
          }
          Witness wit;
          wit.points.push_back({"cta " + std::to_string(cta) + ", iteration " + std::to_string(w.iter), -1, tile_text(w.m, w.n, w.l), 0, ""});
          wit.why = "CTA " + std::to_string(cta) + " at iteration " + std::to_string(w.iter) + " computes tile " + tile_text(w.m, w.n, w.l) +
                    ", outside the " + std::to_string(c.tiles_m) + "x" + std::to_string(c.tiles_n) + "x" + std::to_string(c.tiles_l) +
                    " problem (the scheduler rounds the blocks up to " + std::to_string(p.blocks_m) + "x" + std::to_string(p.blocks_n) + ")";
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
    r.verdict = Verdict::proved(method, "every one of the " + std::to_string(r.units) + " work units lies inside the problem");
    return r;
  }
  for (std::size_t t = 0; t < count.size(); ++t) {
    if (count[t] == 1) continue;
    const i64 m = static_cast<i64>(t) % c.tiles_m, n = (static_cast<i64>(t) / c.tiles_m) % c.tiles_n,
              l = static_cast<i64>(t) / (c.tiles_m * c.tiles_n);
    // Replay: every CTA's loop again, collecting who visits the tile.
    std::vector<std::pair<i64, i64>> who;
    for (i64 cta = 0; cta < ctas; ++cta)
      for (const Work& w : raster::persistent_visits(c, p, cta))
        if (w.m == m && w.n == n && w.l == l) who.push_back({cta, w.iter});
    if ((count[t] == 0) != who.empty()) {
      r.verdict = Verdict::error(method, "the witness did not replay");
      return r;
    }
    Witness wit;
    std::string visitors;
    for (const auto& [cta, iter] : who) {
      wit.points.push_back({"cta " + std::to_string(cta) + ", iteration " + std::to_string(iter), -1, tile_text(m, n, l), 0, ""});
      visitors += (visitors.empty() ? "" : " and ") + ("CTA " + std::to_string(cta) + " at iteration " + std::to_string(iter));
    }
    if (who.empty()) wit.points.push_back({"missing", -1, tile_text(m, n, l), 0, ""});
    wit.why = who.empty() ? "tile " + tile_text(m, n, l) + " is computed by no CTA" +
                                (ctas == 0 ? std::string(" (get_grid_shape gives a grid of no CTA for these SMs and this cluster)") : std::string())
                          : "tile " + tile_text(m, n, l) + " is computed twice: by " + visitors;
    r.verdict = Verdict::refuted(method, wit);
    return r;
  }
  r.verdict = Verdict::proved(method, "each of the " + std::to_string(tiles) + " tiles is computed by exactly one (CTA, iteration)");
  r.verdict.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

SchedulerResult prove_scheduler_domain(const std::vector<PersistentConfig>& domain, const std::string& domain_text, SchedulerClaim claim,
                                       const ProveOptions& o) {
  std::vector<PersistentConfig> order = domain;
  std::stable_sort(order.begin(), order.end(), [](const PersistentConfig& a, const PersistentConfig& b) {
    const i64 ta = a.tiles_m * a.tiles_n * a.tiles_l, tb = b.tiles_m * b.tiles_n * b.tiles_l;
    return ta < tb;
  });
  SchedulerResult last;
  i64 units = 0;
  for (const PersistentConfig& c : order) {
    if (o.smt.deadline.passed()) {
      last.verdict = Verdict::unknown("enumeration over " + domain_text, o.smt.deadline.reason() + " after " + std::to_string(units) + " work units");
      return last;
    }
    SchedulerResult r = prove_scheduler(c, claim, o);
    units += r.units;
    if (!r.verdict.is_proved()) {
      r.verdict.method = "enumeration over " + domain_text + ": the smallest failing configuration, " + r.verdict.method;
      return r;
    }
    last = r;
  }
  last.verdict = Verdict::proved("enumeration over " + domain_text + " (" + std::to_string(order.size()) + " configurations, " +
                                     std::to_string(units) + " work units)",
                                 "holds for every configuration of the domain");
  return last;
}

}  // namespace layoutproof::proofs
