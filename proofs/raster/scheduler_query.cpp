#include "proofs/raster/scheduler_query.hpp"

#include <algorithm>

#include "model/raster/stream_k.hpp"
#include "model/support/checked.hpp"
#include "model/support/error.hpp"

namespace layoutproof::proofs {
namespace {

using i64 = std::int64_t;
using raster::Decomposition;
using raster::GroupConfig;
using raster::PersistentConfig;
using raster::RasterOption;
using raster::StreamKConfig;

bool is_group(const SchedulerQuery& q) { return q.kind == "sm90-group" || q.kind == "sm100-group"; }
bool is_sm100_group(const SchedulerQuery& q) { return q.kind == "sm100-group"; }
bool is_stream_k(const SchedulerQuery& q) { return is_stream_k_kind(q.kind); }
bool is_sm100(const SchedulerQuery& q) { return q.kind == "sm100-persistent"; }

// The flags that do not apply to the kind: LayoutError naming the first.
void refuse_foreign_flags(const SchedulerQuery& q) {
  if (!is_scheduler_kind(q.kind))
    throw LayoutError((q.kind.empty() ? std::string("a scheduler KIND is needed") : "'" + q.kind + "' is not a scheduler kind") +
                      ": the scheduler kinds are " + scheduler_kinds_text());
  if (is_group(q) && q.tiles) throw LayoutError(q.kind + " takes --groups, not --tiles");
  if (!is_group(q) && q.groups) throw LayoutError(q.kind + " takes --tiles, not --groups");
  if (!is_group(q) && q.corrected)
    throw LayoutError("--corrected is the grouped scheduler's fixed early-exit bound: sm90-group and sm100-group only");
  if (!is_sm100_group(q) && (q.atom_m || q.dynamic_cluster))
    throw LayoutError(std::string(q.atom_m ? "--atom-m" : "--cluster-type") + " applies to sm100-group only (its host grid), not " + q.kind);
  if (is_sm100(q) && (q.sms || q.max_active_clusters))
    throw LayoutError(std::string(q.sms ? "--sms" : "--max-active-clusters") +
                      " does not apply to sm100-persistent: it launches a CTA for every tile and its CTAs take more through the cluster "
                      "launch control hardware");
  if (!is_stream_k(q)) {
    const char* flag = q.k_tiles ? "--k-tiles" : q.splits ? "--splits" : q.decomposition ? "--decomposition" : q.reduction ? "--reduction" : nullptr;
    if (flag) throw LayoutError(std::string(flag) + " applies to sm90-stream-k and sm100-stream-k only, not " + q.kind);
  }
}

template <class T>
std::vector<T> one_or(const std::optional<T>& given, std::vector<T> all) {
  return given ? std::vector<T>{*given} : all;
}

}  // namespace

const std::vector<std::string>& scheduler_kinds() {
  static const std::vector<std::string> kinds{"sm90-persistent", "sm90-group", "sm90-stream-k", "sm100-persistent", "sm100-group", "sm100-stream-k"};
  return kinds;
}

bool is_stream_k_kind(const std::string& kind) { return kind == "sm90-stream-k" || kind == "sm100-stream-k"; }

std::string scheduler_kinds_text() {
  const auto& k = scheduler_kinds();
  std::string s;
  for (std::size_t i = 0; i < k.size(); ++i) s += (i == 0 ? "" : i + 1 == k.size() ? " and " : ", ") + k[i];
  return s;
}

bool is_scheduler_kind(const std::string& kind) {
  const auto& k = scheduler_kinds();
  return std::find(k.begin(), k.end(), kind) != k.end();
}

std::string scheduler_flags(const SchedulerQuery& q) {
  std::string s = q.kind;
  const auto num = [&](const char* flag, const std::optional<i64>& v) {
    if (v) s += std::string(" ") + flag + " " + std::to_string(*v);
  };
  if (q.tiles) s += " --tiles " + std::to_string((*q.tiles)[0]) + "," + std::to_string((*q.tiles)[1]) + "," + std::to_string((*q.tiles)[2]);
  if (q.groups) {
    s += " --groups ";
    for (std::size_t g = 0; g < q.groups->size(); ++g)
      s += (g ? "," : "") + std::to_string((*q.groups)[g][0]) + "x" + std::to_string((*q.groups)[g][1]);
  }
  if (q.cluster) s += " --cluster " + std::to_string((*q.cluster)[0]) + "," + std::to_string((*q.cluster)[1]);
  num("--max-swizzle", q.max_swizzle);
  if (q.raster)
    s += std::string(" --raster ") + (*q.raster == RasterOption::along_m ? "along-m" : *q.raster == RasterOption::along_n ? "along-n" : "heuristic");
  num("--sms", q.sms);
  num("--max-active-clusters", q.max_active_clusters);
  num("--atom-m", q.atom_m);
  if (q.dynamic_cluster) s += *q.dynamic_cluster ? " --cluster-type dynamic" : " --cluster-type static";
  num("--k-tiles", q.k_tiles);
  num("--splits", q.splits);
  if (q.decomposition) s += " --decomposition " + raster::to_string(*q.decomposition);
  if (q.reduction) s += " --reduction " + raster::to_string(*q.reduction);
  if (q.corrected) s += " --corrected";
  const SchedulerQuery defaults;
  const bool problem_given = is_group(q) ? q.groups.has_value() : q.tiles.has_value();
  if (!problem_given && q.max_tiles != defaults.max_tiles) s += " --max-tiles " + std::to_string(q.max_tiles);
  if (is_group(q) && !q.groups && q.max_groups != defaults.max_groups) s += " --max-groups " + std::to_string(q.max_groups);
  return s;
}

Schedule fixed_schedule(const SchedulerQuery& q) {
  refuse_foreign_flags(q);
  const auto common = [&](auto& c) {
    if (q.cluster) c.cluster_m = (*q.cluster)[0], c.cluster_n = (*q.cluster)[1];
    if (q.max_swizzle) c.max_swizzle = *q.max_swizzle;
    if (q.raster) c.raster = *q.raster;
    if (q.sms) c.sms = *q.sms;
    if (q.max_active_clusters) c.max_active_clusters = *q.max_active_clusters;
  };
  if (is_group(q)) {
    if (!q.groups) throw LayoutError(q.kind + " needs --groups 'M1xN1,M2xN2,...' (each group's extent in CTA tiles)");
    GroupConfig c;
    c.groups = *q.groups;
    c.sm100 = is_sm100_group(q);
    if (q.atom_m) c.atom_m = *q.atom_m;
    if (q.dynamic_cluster) c.dynamic_cluster = *q.dynamic_cluster;
    // The grouped scheduler's Arguments default to along-m: CUTLASS applies no heuristic to groups,
    // whose largest dimension changes from group to group.
    c.raster = RasterOption::along_m;
    common(c);
    c.corrected = q.corrected;
    return schedule_of(c);
  }
  if (!q.tiles) throw LayoutError(q.kind + " needs --tiles M,N[,L] (the problem in CTA tiles)");
  if (is_sm100(q)) {
    raster::Sm100Config c;
    c.tiles_m = (*q.tiles)[0], c.tiles_n = (*q.tiles)[1], c.tiles_l = (*q.tiles)[2];
    if (q.cluster) c.cluster_m = (*q.cluster)[0], c.cluster_n = (*q.cluster)[1];
    if (q.max_swizzle) c.max_swizzle = *q.max_swizzle;
    if (q.raster) c.raster = *q.raster;
    return schedule_of(c);
  }
  PersistentConfig b;
  b.tiles_m = (*q.tiles)[0], b.tiles_n = (*q.tiles)[1], b.tiles_l = (*q.tiles)[2];
  common(b);
  if (!is_stream_k(q)) return schedule_of(b);
  if (!q.k_tiles) throw LayoutError(q.kind + " needs --k-tiles K (k blocks per output tile)");
  StreamKConfig c;
  c.base = b;
  c.k_tiles = *q.k_tiles;
  if (q.splits) c.splits = *q.splits;
  if (q.decomposition) c.decomposition = *q.decomposition;
  if (q.reduction) c.reduction = *q.reduction;
  if (q.kind == "sm100-stream-k") return schedule_of(raster::Sm100StreamKConfig{c});
  return schedule_of(c);
}

SchedulerDomain scheduler_domain(const SchedulerQuery& q) {
  SchedulerDomain d;
  std::string& text = d.text;
  refuse_foreign_flags(q);
  const bool group = is_group(q), stream_k = is_stream_k(q);
  std::vector<std::vector<std::array<i64, 2>>> group_lists;  // sm90-group
  std::vector<std::array<i64, 3>> tiles;                      // the others
  const i64 group_side = std::min<i64>(q.max_tiles, 3);
  // Stream-K multiplies the domain by its k tiles, splits and decompositions (32): its free tiles
  // stop at 8 so the domain stays listable.
  const i64 tiles_side = stream_k ? std::min<i64>(q.max_tiles, 8) : q.max_tiles;
  if (group) {
    if (q.groups) group_lists.push_back(*q.groups);
    else {
      std::vector<std::array<i64, 2>> shapes;
      for (i64 m = 1; m <= group_side; ++m)
        for (i64 n = 1; n <= group_side; ++n) shapes.push_back({m, n});
      std::vector<std::vector<std::array<i64, 2>>> level{{}};
      for (i64 k = 1; k <= q.max_groups; ++k) {
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
  } else if (q.tiles) {
    tiles.push_back(*q.tiles);
  } else {
    for (i64 m = 1; m <= tiles_side; ++m)
      for (i64 n = 1; n <= tiles_side; ++n)
        for (i64 l = 1; l <= 2; ++l) tiles.push_back({m, n, l});
  }
  const auto clusters = one_or<std::array<i64, 2>>(q.cluster, {{1, 1}, {2, 1}, {1, 2}, {2, 2}});
  const auto swizzles = one_or<i64>(q.max_swizzle, {1, 2, 4, 8});
  const auto rasters = one_or<RasterOption>(q.raster, {RasterOption::heuristic, RasterOption::along_m, RasterOption::along_n});
  // Blackwell's SM count is 148 (B200); sm100-persistent launches every tile and takes none.
  const auto sms = is_sm100(q) ? std::vector<i64>{0} : one_or<i64>(q.sms, {1, 3, 8, is_sm100_group(q) ? i64{148} : i64{132}});
  // sm100-group: the AtomThrShape's M (2 only where the cluster's M is even) and the cluster type.
  const auto atoms = is_sm100_group(q) ? one_or<i64>(q.atom_m, {1, 2}) : std::vector<i64>{1};
  const auto dynamic = is_sm100_group(q) ? one_or<bool>(q.dynamic_cluster, {false, true}) : std::vector<bool>{false};
  const auto k_tiles = one_or<i64>(q.k_tiles, {1, 9, 17, 40});
  const auto splits = one_or<i64>(q.splits, {1, 2, 3});
  const auto decompositions =
      one_or<Decomposition>(q.decomposition, {Decomposition::heuristic, Decomposition::data_parallel, Decomposition::split_k, Decomposition::stream_k});
  const std::string problems =
      group ? (q.groups ? "the groups given"
                        : "every list of 1 to " + std::to_string(q.max_groups) + " groups of M, N in [1, " + std::to_string(group_side) + "]")
            : (q.tiles ? "the tiles given" : "tiles M, N in [1, " + std::to_string(tiles_side) + "], L in {1, 2}");
  text = problems + "; " + (q.cluster ? "the cluster given" : "clusters 1x1, 2x1, 1x2, 2x2") + "; " +
         (q.max_swizzle ? "the swizzle given" : "max swizzle 1, 2, 4, 8") + "; " + (q.raster ? "the raster given" : "rasters heuristic, along-m, along-n") +
         (is_sm100(q) ? std::string() : "; " + std::string(q.sms ? "the SMs given" : is_sm100_group(q) ? "SMs 1, 3, 8, 148" : "SMs 1, 3, 8, 132")) +
         (is_sm100_group(q) ? std::string("; ") + (q.atom_m ? "the atom m given" : "atom m 1, 2 (2 where the cluster's m is even)") + "; " +
                                  (q.dynamic_cluster ? "the cluster type given" : "static and dynamic clusters")
                            : std::string()) +
         (q.corrected ? "; the corrected bound" : "");
  if (stream_k)
    text += std::string("; ") + (q.k_tiles ? "the k tiles given" : "k tiles 1, 9, 17, 40") + "; " + (q.splits ? "the splits given" : "splits 1, 2, 3") +
            "; " + (q.decomposition ? "the decomposition given" : "the four decompositions") + " (splits > 1 only where CUTLASS's can_implement takes it)";
  const std::size_t problems_count = group ? group_lists.size() : tiles.size();
  std::uint64_t count = static_cast<std::uint64_t>(problems_count) * clusters.size() * swizzles.size() * rasters.size() * sms.size() * atoms.size() *
                       dynamic.size();
  if (stream_k) count *= k_tiles.size() * splits.size() * decompositions.size();
  if (count > kMaxDomain) {
    d.oversized = count;
    return d;
  }
  std::vector<std::pair<i64, std::variant<PersistentConfig, GroupConfig, StreamKConfig, raster::Sm100Config, raster::Sm100StreamKConfig>>> out;
  for (std::size_t pi = 0; pi < problems_count; ++pi)
    for (const auto& cl : clusters)
      for (const i64 s : swizzles)
        for (const auto r : rasters)
          for (const i64 k : sms) {
            if (group) {
              for (const i64 atom : atoms)
                for (const bool dyn : dynamic) {
                  if (cl[0] % atom != 0) {  // a 2-SM MMA needs the cluster's M even
                    if (q.atom_m && q.cluster)
                      throw LayoutError("--atom-m 2 needs the cluster's M even (a 2-SM MMA's pair of CTAs lies in one cluster), not --cluster " +
                                        std::to_string(cl[0]) + "x" + std::to_string(cl[1]));
                    continue;
                  }
                  GroupConfig c;
                  c.groups = group_lists[pi];
                  c.cluster_m = cl[0], c.cluster_n = cl[1], c.max_swizzle = s, c.raster = r, c.sms = k, c.corrected = q.corrected;
                  c.sm100 = is_sm100_group(q), c.atom_m = atom, c.dynamic_cluster = dyn;
                  if (q.max_active_clusters) c.max_active_clusters = *q.max_active_clusters;
                  i64 total = 0;
                  for (const auto& g : c.groups) total += g[0] * g[1];
                  out.push_back({total, c});
                }
              continue;
            }
            PersistentConfig b;
            b.tiles_m = tiles[pi][0], b.tiles_n = tiles[pi][1], b.tiles_l = tiles[pi][2];
            b.cluster_m = cl[0], b.cluster_n = cl[1], b.max_swizzle = s, b.raster = r, b.sms = k;
            if (q.max_active_clusters) b.max_active_clusters = *q.max_active_clusters;
            const i64 size = b.tiles_m * b.tiles_n * b.tiles_l;
            if (is_sm100(q)) {
              raster::Sm100Config c;
              c.tiles_m = b.tiles_m, c.tiles_n = b.tiles_n, c.tiles_l = b.tiles_l, c.cluster_m = cl[0], c.cluster_n = cl[1], c.max_swizzle = s, c.raster = r;
              out.push_back({size, c});
              continue;
            }
            if (!stream_k) {
              out.push_back({size, b});
              continue;
            }
            for (const i64 kt : k_tiles)
              for (const i64 sp : splits)
                for (const Decomposition d : decompositions) {
                  if (sp > 1 && d != Decomposition::heuristic && d != Decomposition::split_k) {
                    if (q.splits && q.decomposition)  // both given: the user asked for what CUTLASS refuses
                      throw LayoutError("--splits " + std::to_string(sp) + " with --decomposition " + raster::to_string(d) +
                                        ": CUTLASS's can_implement refuses splits > 1 unless the decomposition is heuristic or split-k");
                    continue;
                  }
                  StreamKConfig c;
                  c.base = b, c.k_tiles = kt, c.splits = sp, c.decomposition = d;
                  if (q.reduction) c.reduction = *q.reduction;
                  if (q.kind == "sm100-stream-k") out.push_back({checked_mul(size, kt), raster::Sm100StreamKConfig{c}});
                  else out.push_back({checked_mul(size, kt), c});
                }
          }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  d.configs.reserve(out.size());
  for (auto& x : out) d.configs.push_back(std::move(x.second));
  return d;
}

Schedule SchedulerDomain::at(std::size_t i) const {
  return std::visit([](const auto& c) { return schedule_of(c); }, configs.at(i));
}

SchedulerResult prove_scheduler_domain(const SchedulerDomain& d, SchedulerClaim claim, const ProveOptions& o) {
  SchedulerResult last;
  if (d.oversized > 0) {
    last.verdict = Verdict::unknown("enumeration over " + d.text, "the domain has " + std::to_string(d.oversized) + " configurations, more than the " +
                                                                       std::to_string(kMaxDomain) + " enumeration takes: fix more parameters or lower --max-tiles" +
                                                                       " (sm90-persistent: --engine z3 with --cluster, --max-swizzle, --raster and --sms given)");
    return last;
  }
  if (d.size() == 0) {
    last.verdict = Verdict::error("enumeration over " + d.text, "the domain holds no configuration");
    return last;
  }
  i64 units = 0;
  SchedulerResult worst;  // balance: the configuration with the largest max over mean
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (o.smt.deadline.passed()) {
      last.verdict = Verdict::unknown("enumeration over " + d.text, o.smt.deadline.reason() + " after " + std::to_string(i) + " of " +
                                                                        std::to_string(d.size()) + " configurations (" + std::to_string(units) + " work units)");
      return last;
    }
    SchedulerResult r = prove_scheduler(d.at(i), claim, o);
    units += r.units;
    if (!r.verdict.is_proved()) {
      r.verdict.method = "enumeration over " + d.text + ": the smallest failing configuration, " + r.verdict.method;
      return r;
    }
    if (i == 0 || r.balance_max_over_mean > worst.balance_max_over_mean) worst = r;
    last = r;
  }
  if (claim == SchedulerClaim::balance) {
    // A measurement over the domain: its worst configuration, with that configuration's numbers.
    worst.verdict = Verdict::proved("enumeration over " + d.text + " (" + std::to_string(d.size()) + " configurations, " + std::to_string(units) +
                                        " work units)",
                                    "the worst of the " + std::to_string(d.size()) + " configurations, " + worst.config + ": " + worst.verdict.detail);
    return worst;
  }
  last.verdict = Verdict::proved("enumeration over " + d.text + " (" + std::to_string(d.size()) + " configurations, " + std::to_string(units) +
                                     " work units)",
                                 "holds for every configuration of the domain");
  return last;
}

SchedulerResult prove_scheduler_query(const SchedulerQuery& q, SchedulerClaim claim, const ProveOptions& o) {
  refuse_foreign_flags(q);
  const bool symbolic_fits = q.kind == "sm90-persistent" && !q.tiles && q.cluster && q.max_swizzle && q.raster && q.sms &&
                             (claim == SchedulerClaim::exactly_once || claim == SchedulerClaim::in_range || claim == SchedulerClaim::launches);
  if (q.engine == SchedulerQuery::Engine::z3 && !symbolic_fits)
    throw LayoutError("--engine z3 decides sm90-persistent's exactly-once, in-range and launches with --tiles left free and --cluster, "
                      "--max-swizzle, --raster and --sms given; use --engine enumeration otherwise");
  if (symbolic_fits && (q.engine == SchedulerQuery::Engine::z3 || (q.engine == SchedulerQuery::Engine::automatic && q.max_tiles > 32))) {
    PersistentConfig fixed;
    fixed.cluster_m = (*q.cluster)[0], fixed.cluster_n = (*q.cluster)[1], fixed.max_swizzle = *q.max_swizzle, fixed.raster = *q.raster,
    fixed.sms = *q.sms;
    if (q.max_active_clusters) fixed.max_active_clusters = *q.max_active_clusters;
    return prove_persistent_symbolic(fixed, q.max_tiles, 2, claim, o);
  }
  const SchedulerDomain d = scheduler_domain(q);
  if (d.oversized == 0 && d.size() == 1) return prove_scheduler(d.at(0), claim, o);
  return prove_scheduler_domain(d, claim, o);
}

}  // namespace layoutproof::proofs
