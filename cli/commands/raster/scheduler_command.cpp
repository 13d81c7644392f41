#include "cli/commands/raster/scheduler_command.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <ostream>

#include "cli/output/escape.hpp"
#include "cli/run_flags.hpp"
#include "model/raster/persistent.hpp"
#include "model/support/error.hpp"
#include "proofs/raster/scheduler.hpp"

namespace layoutproof::cli {
namespace {

using i64 = std::int64_t;
using raster::PersistentConfig;

struct SchedFlags {
  std::string kind;
  std::optional<std::array<i64, 3>> tiles;
  std::optional<std::array<i64, 2>> cluster;
  std::optional<i64> max_swizzle, sms, max_active_clusters;
  std::optional<raster::RasterOption> raster;
  std::vector<std::string> claims;
  std::optional<std::vector<std::array<i64, 2>>> groups;
  bool corrected = false;
  i64 max_tiles = 16, max_groups = 3;
  bool json = false;
  proofs::ProveOptions opts;
};

// "A,B[,C]" or "AxB[xC]": count numbers, each in [lo, hi].
std::vector<i64> numbers(const std::string& v, const std::string& what, std::size_t lo_count, std::size_t hi_count) {
  std::vector<i64> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t sep = v.find_first_of(",x", at);
    out.push_back(parse_int_in(v.substr(at, sep == std::string::npos ? std::string::npos : sep - at), what, 0, i64{1} << 40));
    if (sep == std::string::npos) break;
    at = sep + 1;
  }
  if (out.size() < lo_count || out.size() > hi_count)
    throw LayoutError(what + " takes " + std::to_string(lo_count) + (hi_count > lo_count ? " to " + std::to_string(hi_count) : "") +
                      " numbers separated by ',' or 'x', not '" + v + "'");
  return out;
}

SchedFlags parse(const std::vector<std::string>& args) {
  SchedFlags f;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto next = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw LayoutError(a + " needs a value (layoutproof raster --help)");
      return args[++i];
    };
    if (a == "--json") f.json = true;
    else if (a == "--tiles") {
      const auto v = numbers(next(), "--tiles", 2, 3);
      f.tiles = std::array<i64, 3>{v[0], v[1], v.size() > 2 ? v[2] : 1};
    } else if (a == "--cluster") {
      const auto v = numbers(next(), "--cluster", 2, 2);
      f.cluster = std::array<i64, 2>{v[0], v[1]};
    } else if (a == "--max-swizzle") f.max_swizzle = parse_int_in(next(), a, 0, i64{1} << 20);
    else if (a == "--sms") f.sms = parse_int_in(next(), a, 0, i64{1} << 20);
    else if (a == "--max-active-clusters") f.max_active_clusters = parse_int_in(next(), a, 0, i64{1} << 20);
    else if (a == "--max-tiles") f.max_tiles = parse_int_in(next(), a, 1, 256);
    else if (a == "--max-groups") f.max_groups = parse_int_in(next(), a, 1, 4);
    else if (a == "--corrected") f.corrected = true;
    else if (a == "--groups") {
      const std::string v = next();
      std::vector<std::array<i64, 2>> gs;
      std::size_t at = 0;
      while (true) {
        const std::size_t comma = v.find(',', at);
        const std::string one = v.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        const auto mn = numbers(one, "--groups' group '" + one + "'", 2, 2);
        gs.push_back({mn[0], mn[1]});
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
      f.groups = gs;
    }
    else if (a == "--raster") {
      const std::string r = next();
      if (r == "along-m") f.raster = raster::RasterOption::along_m;
      else if (r == "along-n") f.raster = raster::RasterOption::along_n;
      else if (r == "heuristic") f.raster = raster::RasterOption::heuristic;
      else throw LayoutError("--raster is along-m, along-n or heuristic, not '" + r + "'");
    } else if (a == "--claim") f.claims.push_back(next());
    else if (a == "--deadline-s") f.opts.smt.deadline = proofs::Deadline::parse(next());
    else if (!a.empty() && a[0] == '-') throw LayoutError("unknown option '" + a + "' for raster " + args[0] + " " + f.kind + " (layoutproof raster --help)");
    else if (f.kind.empty()) f.kind = a;
    else throw LayoutError("raster " + args[0] + " takes one KIND, not also '" + a + "'");
  }
  return f;
}

PersistentConfig fixed(const SchedFlags& f) {
  PersistentConfig c;
  if (!f.tiles) throw LayoutError("raster trace needs --tiles M,N[,L] (the problem in CTA tiles)");
  c.tiles_m = (*f.tiles)[0], c.tiles_n = (*f.tiles)[1], c.tiles_l = (*f.tiles)[2];
  if (f.cluster) c.cluster_m = (*f.cluster)[0], c.cluster_n = (*f.cluster)[1];
  if (f.max_swizzle) c.max_swizzle = *f.max_swizzle;
  if (f.raster) c.raster = *f.raster;
  if (f.sms) c.sms = *f.sms;
  if (f.max_active_clusters) c.max_active_clusters = *f.max_active_clusters;
  return c;
}

raster::GroupConfig fixed_group(const SchedFlags& f) {
  raster::GroupConfig c;
  if (!f.groups) throw LayoutError("raster trace sm90-group needs --groups 'M1xN1,M2xN2,...' (each group's extent in CTA tiles)");
  if (f.tiles) throw LayoutError("sm90-group takes --groups, not --tiles");
  c.groups = *f.groups;
  if (f.cluster) c.cluster_m = (*f.cluster)[0], c.cluster_n = (*f.cluster)[1];
  if (f.max_swizzle) c.max_swizzle = *f.max_swizzle;
  // The grouped scheduler's Arguments default to along-m: CUTLASS applies no heuristic to groups,
  // whose largest dimension changes from group to group.
  c.raster = f.raster ? *f.raster : raster::RasterOption::along_m;
  if (f.sms) c.sms = *f.sms;
  if (f.max_active_clusters) c.max_active_clusters = *f.max_active_clusters;
  c.corrected = f.corrected;
  return c;
}

void trace_json(const std::array<i64, 3>& grid, i64 ctas, const std::function<std::vector<raster::Work>(i64)>& visits, std::ostream& out) {
  out << "{\"ctas\":[";
  for (i64 cta = 0; cta < ctas; ++cta) {
    out << (cta ? "," : "") << "{\"cta\":" << cta << ",\"work\":[";
    const auto v = visits(cta);
    for (std::size_t k = 0; k < v.size(); ++k)
      out << (k ? "," : "") << "{\"iter\":" << v[k].iter << ",\"group\":" << v[k].group << ",\"m\":" << v[k].m << ",\"n\":" << v[k].n
          << ",\"l\":" << v[k].l << "}";
    out << "]}";
  }
  out << "],\"grid\":[" << grid[0] << "," << grid[1] << "," << grid[2] << "]}\n";
}

int run_trace(const SchedFlags& f, std::ostream& out) {
  if (f.kind == "sm90-group") {
    const raster::GroupConfig c = fixed_group(f);
    const raster::GroupPlan p = raster::plan_group(c);
    const i64 ctas = p.grid[0] * p.grid[1] * p.grid[2];
    const auto visits = [&](i64 cta) { return raster::group_visits(c, p, cta); };
    if (f.json) return trace_json(p.grid, ctas, visits, out), 0;
    out << "sm90-group: " << proofs::config_text(c) << "\n  grid " << p.grid[0] << "x" << p.grid[1] << "x" << p.grid[2] << " (" << ctas
        << " CTAs), " << raster::to_string(p.raster) << ", host bound " << p.host_blocks << ", device tiles " << p.device_blocks << "\n";
    for (i64 cta = 0; cta < ctas; ++cta) {
      out << "  CTA " << cta << ":";
      for (const auto& w : visits(cta)) out << " g" << w.group << "(" << w.m << "," << w.n << ")";
      out << "\n";
    }
    return 0;
  }
  if (f.groups) throw LayoutError("sm90-persistent takes --tiles, not --groups");
  const PersistentConfig c = fixed(f);
  const raster::PersistentPlan p = raster::plan_persistent(c);
  const i64 ctas = p.grid[0] * p.grid[1] * p.grid[2];
  const auto visits = [&](i64 cta) { return raster::persistent_visits(c, p, cta); };
  if (f.json) return trace_json(p.grid, ctas, visits, out), 0;
  out << "sm90-persistent: " << proofs::config_text(c) << "\n  grid " << p.grid[0] << "x" << p.grid[1] << "x" << p.grid[2] << " (" << ctas
      << " CTAs), swizzle " << (1 << p.log_swizzle) << ", " << raster::to_string(p.raster) << ", blocks " << p.blocks_m << "x" << p.blocks_n
      << " per batch after rounding\n";
  for (i64 cta = 0; cta < ctas; ++cta) {
    out << "  CTA " << cta << ":";
    for (const auto& w : visits(cta)) out << " (" << w.m << "," << w.n << "," << w.l << ")";
    out << "\n";
  }
  return 0;
}

// The domain of every flag not given (the header's), as schedules smallest first, and as text.
std::vector<proofs::Schedule> domain_of(const SchedFlags& f, std::string& text) {
  const bool group = f.kind == "sm90-group";
  std::vector<std::vector<std::array<i64, 2>>> group_lists;  // sm90-group
  std::vector<std::array<i64, 3>> tiles;                      // sm90-persistent
  if (group) {
    if (f.tiles) throw LayoutError("sm90-group takes --groups, not --tiles");
    if (f.groups) group_lists.push_back(*f.groups);
    else {
      const i64 side = std::min<i64>(f.max_tiles, 3);
      std::vector<std::array<i64, 2>> shapes;
      for (i64 m = 1; m <= side; ++m)
        for (i64 n = 1; n <= side; ++n) shapes.push_back({m, n});
      std::vector<std::vector<std::array<i64, 2>>> level{{}};
      for (i64 k = 1; k <= f.max_groups; ++k) {
        std::vector<std::vector<std::array<i64, 2>>> next;
        for (const auto& l : level)
          for (const auto& sh : shapes) {
            auto x = l;
            x.push_back(sh);
            next.push_back(x);
          }
        for (const auto& l : next) group_lists.push_back(l);
        level = next;
      }
    }
  } else {
    if (f.groups) throw LayoutError("sm90-persistent takes --tiles, not --groups");
    if (f.tiles) tiles.push_back(*f.tiles);
    else
      for (i64 m = 1; m <= f.max_tiles; ++m)
        for (i64 n = 1; n <= f.max_tiles; ++n)
          for (i64 l = 1; l <= 2; ++l) tiles.push_back({m, n, l});
  }
  const std::vector<std::array<i64, 2>> clusters = f.cluster ? std::vector<std::array<i64, 2>>{*f.cluster}
                                                             : std::vector<std::array<i64, 2>>{{1, 1}, {2, 1}, {1, 2}, {2, 2}};
  const std::vector<i64> swizzles = f.max_swizzle ? std::vector<i64>{*f.max_swizzle} : std::vector<i64>{1, 2, 4, 8};
  const std::vector<raster::RasterOption> rasters =
      f.raster ? std::vector<raster::RasterOption>{*f.raster}
               : std::vector<raster::RasterOption>{raster::RasterOption::heuristic, raster::RasterOption::along_m, raster::RasterOption::along_n};
  const std::vector<i64> sms = f.sms ? std::vector<i64>{*f.sms} : std::vector<i64>{1, 3, 8, 132};
  const std::string problems =
      group ? (f.groups ? "the groups given"
                        : "every list of 1 to " + std::to_string(f.max_groups) + " groups of M, N in [1, " + std::to_string(std::min<i64>(f.max_tiles, 3)) + "]")
            : (f.tiles ? "the tiles given" : "tiles M, N in [1, " + std::to_string(f.max_tiles) + "], L in {1, 2}");
  text = problems + "; " + (f.cluster ? "the cluster given" : "clusters 1x1, 2x1, 1x2, 2x2") + "; " +
         (f.max_swizzle ? "the swizzle given" : "max swizzle 1, 2, 4, 8") + "; " + (f.raster ? "the raster given" : "rasters heuristic, along-m, along-n") +
         "; " + (f.sms ? "the SMs given" : "SMs 1, 3, 8, 132") + (f.corrected ? "; the corrected bound" : "");
  std::vector<std::pair<i64, proofs::Schedule>> out;
  const std::size_t problems_count = group ? group_lists.size() : tiles.size();
  for (std::size_t pi = 0; pi < problems_count; ++pi)
    for (const auto& cl : clusters)
      for (const i64 s : swizzles)
        for (const auto r : rasters)
          for (const i64 k : sms) {
            if (group) {
              raster::GroupConfig c;
              c.groups = group_lists[pi];
              c.cluster_m = cl[0], c.cluster_n = cl[1], c.max_swizzle = s, c.raster = r, c.sms = k, c.corrected = f.corrected;
              if (f.max_active_clusters) c.max_active_clusters = *f.max_active_clusters;
              i64 total = 0;
              for (const auto& g : c.groups) total += g[0] * g[1];
              out.push_back({total, proofs::schedule_of(c)});
            } else {
              PersistentConfig c;
              c.tiles_m = tiles[pi][0], c.tiles_n = tiles[pi][1], c.tiles_l = tiles[pi][2];
              c.cluster_m = cl[0], c.cluster_n = cl[1], c.max_swizzle = s, c.raster = r, c.sms = k;
              if (f.max_active_clusters) c.max_active_clusters = *f.max_active_clusters;
              out.push_back({c.tiles_m * c.tiles_n * c.tiles_l, proofs::schedule_of(c)});
            }
          }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<proofs::Schedule> sorted;
  for (auto& x : out) sorted.push_back(std::move(x.second));
  return sorted;
}

int run_prove(const SchedFlags& f, std::ostream& out) {
  if (f.claims.empty()) throw LayoutError("raster prove " + f.kind + " needs --claim exactly-once|in-range|balance");
  std::string text;
  const std::vector<proofs::Schedule> domain = domain_of(f, text);
  int refuted = 0, other = 0;
  std::string json = "{\"kind\":" + json_str(f.kind) + ",\"claims\":[";
  for (std::size_t i = 0; i < f.claims.size(); ++i) {
    const auto claim = proofs::parse_scheduler_claim(f.claims[i]);
    if (!claim) throw LayoutError("unknown scheduler claim '" + f.claims[i] + "' (exactly-once, in-range, balance)");
    const proofs::SchedulerResult r = domain.size() == 1 ? proofs::prove_scheduler(domain[0], *claim, f.opts)
                                                         : proofs::prove_scheduler_domain(domain, text, *claim, f.opts);
    const proofs::Verdict& v = r.verdict;
    refuted += v.is_refuted();
    other += !v.is_refuted() && !v.is_proved();
    const std::string detail = v.is_refuted() ? "witness: " + v.witness.why + " [" + r.config + "]" : v.detail;
    // balance is a measurement, not a claim: it is reported, never shown as PROVED.
    const std::string kind = *claim == proofs::SchedulerClaim::balance && v.is_proved() ? "REPORT" : proofs::to_string(v.kind);
    if (!f.json) out << kind << "  " << f.claims[i] << "  " << detail << "  [" << v.method << "]\n";
    json += std::string(i ? "," : "") + "{\"claim\":" + json_str(f.claims[i]) + ",\"verdict\":" + json_str(kind) +
            ",\"method\":" + json_str(v.method) + ",\"detail\":" + json_str(detail) + ",\"config\":" + json_str(r.config) +
            (*claim == proofs::SchedulerClaim::balance ? ",\"balance\":" + std::to_string(r.balance_max_over_mean) : std::string()) + "}";
  }
  if (f.json) out << json << "]}\n";
  return refuted ? 1 : other ? 3 : 0;
}

}  // namespace

bool is_scheduler_kind(const std::string& kind) { return kind == "sm90-persistent" || kind == "sm90-group"; }

int run_scheduler_command(const std::string& sub, const std::vector<std::string>& args, std::ostream& out) {
  const SchedFlags f = parse(args);
  if (!is_scheduler_kind(f.kind))
    throw LayoutError("raster " + sub + " " + (f.kind.empty() ? std::string("needs a KIND") : "'" + f.kind + "'") +
                      ": the scheduler kinds are sm90-persistent and sm90-group (sm90-stream-k is not modelled yet)");
  return sub == "trace" ? run_trace(f, out) : run_prove(f, out);
}

}  // namespace layoutproof::cli
