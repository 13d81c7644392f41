#include "proofs/raster/scheduler_query.hpp"

#include <algorithm>
#include <functional>
#include <limits>

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
  // A bound of a free problem does nothing when the problem is given: refused, not ignored.
  if (!is_group(q) && q.max_groups) throw LayoutError("--max-groups bounds free groups: sm90-group and sm100-group only, not " + q.kind);
  if (q.max_tiles && (q.tiles || q.groups))
    throw LayoutError(std::string("--max-tiles bounds a free problem; --") + (q.tiles ? "tiles" : "groups") + " gives it");
  if (q.max_groups && q.groups) throw LayoutError("--max-groups bounds free groups; --groups gives them");
}

// A 2-SM MMA's pair of CTAs lies in one cluster: atom m 2 only where the cluster's m is even.
bool atom_fits(const std::array<i64, 2>& cluster, i64 atom_m) { return cluster[0] % atom_m == 0; }

// CUTLASS's can_implement: splits > 1 only with the heuristic or split-K decomposition.
bool splits_allowed(i64 splits, Decomposition d) { return splits == 1 || d == Decomposition::heuristic || d == Decomposition::split_k; }

// Two parameters given together that CUTLASS refuses together (a free one skips such values).
void refuse_refused_pairs(const SchedulerQuery& q) {
  if (is_sm100_group(q) && q.atom_m && q.cluster && !atom_fits(*q.cluster, *q.atom_m))
    throw LayoutError("--atom-m 2 needs the cluster's M even (a 2-SM MMA's pair of CTAs lies in one cluster), not --cluster " +
                      std::to_string((*q.cluster)[0]) + "x" + std::to_string((*q.cluster)[1]));
  if (is_stream_k(q) && q.splits && q.decomposition && !splits_allowed(*q.splits, *q.decomposition))
    throw LayoutError("--splits " + std::to_string(*q.splits) + " with --decomposition " + raster::to_string(*q.decomposition) +
                      ": CUTLASS's can_implement refuses splits > 1 unless the decomposition is heuristic or split-k");
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

std::int64_t max_tiles_of(const SchedulerQuery& q) {
  if (q.max_tiles) return *q.max_tiles;
  return is_group(q) ? 3 : is_stream_k(q) ? 8 : 16;
}

std::int64_t max_groups_of(const SchedulerQuery& q) { return q.max_groups.value_or(3); }

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
  // The bounds by their values, given or not: a bound equal to the kind's default asks the same.
  SchedulerQuery defaults;
  defaults.kind = q.kind;
  const bool problem_given = is_group(q) ? q.groups.has_value() : q.tiles.has_value();
  if (!problem_given && max_tiles_of(q) != max_tiles_of(defaults)) s += " --max-tiles " + std::to_string(max_tiles_of(q));
  if (is_group(q) && !q.groups && max_groups_of(q) != max_groups_of(defaults)) s += " --max-groups " + std::to_string(max_groups_of(q));
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

namespace {

using Config = std::variant<PersistentConfig, GroupConfig, StreamKConfig, raster::Sm100Config, raster::Sm100StreamKConfig>;

// The values each parameter of a query ranges over: the one given, or the free domain's list.
struct Axes {
  std::vector<std::array<i64, 2>> clusters;
  std::vector<i64> swizzles;
  std::vector<RasterOption> rasters;
  std::vector<i64> sms, atoms;
  std::vector<bool> dynamic;
  std::vector<i64> k_tiles, splits;
  std::vector<Decomposition> decompositions;
};

Axes axes_of(const SchedulerQuery& q) {
  Axes a;
  a.clusters = one_or<std::array<i64, 2>>(q.cluster, {{1, 1}, {2, 1}, {1, 2}, {2, 2}});
  a.swizzles = one_or<i64>(q.max_swizzle, {1, 2, 4, 8});
  a.rasters = one_or<RasterOption>(q.raster, {RasterOption::heuristic, RasterOption::along_m, RasterOption::along_n});
  // Blackwell's SM count is 148 (B200); sm100-persistent launches every tile and takes none.
  a.sms = is_sm100(q) ? std::vector<i64>{0} : one_or<i64>(q.sms, {1, 3, 8, is_sm100_group(q) ? i64{148} : i64{132}});
  // sm100-group: the AtomThrShape's M (2 only where the cluster's M is even) and the cluster type.
  a.atoms = is_sm100_group(q) ? one_or<i64>(q.atom_m, {1, 2}) : std::vector<i64>{1};
  a.dynamic = is_sm100_group(q) ? one_or<bool>(q.dynamic_cluster, {false, true}) : std::vector<bool>{false};
  a.k_tiles = is_stream_k(q) ? one_or<i64>(q.k_tiles, {1, 9, 17, 40}) : std::vector<i64>{0};
  a.splits = is_stream_k(q) ? one_or<i64>(q.splits, {1, 2, 3}) : std::vector<i64>{1};
  a.decompositions = is_stream_k(q) ? one_or<Decomposition>(q.decomposition, {Decomposition::heuristic, Decomposition::data_parallel,
                                                                              Decomposition::split_k, Decomposition::stream_k})
                                    : std::vector<Decomposition>{Decomposition::heuristic};
  return a;
}

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) { return a != 0 && b > kSaturated / a ? kSaturated : a * b; }
std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return b > kSaturated - a ? kSaturated : a + b; }

// The problems of the domain with free bounds `tiles` and `groups`: every list of 1..groups groups
// of tiles x tiles shapes, or tiles x tiles x 2 problems; one when the problem is given.
std::uint64_t problem_count(const SchedulerQuery& q, i64 tiles, i64 groups) {
  const auto t = static_cast<std::uint64_t>(tiles);
  if (!is_group(q)) return q.tiles ? 1 : saturating_mul(saturating_mul(t, t), 2);
  if (q.groups) return 1;
  std::uint64_t level = 1, total = 0;
  for (i64 k = 1; k <= groups; ++k) {
    level = saturating_mul(level, t * t);
    total = saturating_add(total, level);
  }
  return total;
}

// The configurations of the domain with free bounds `tiles` and `groups`, the pairs CUTLASS refuses
// left out (an odd cluster m with a 2-SM MMA; splits > 1 with the data-parallel or stream-K
// decomposition), as the listing leaves them out.
std::uint64_t domain_size(const SchedulerQuery& q, i64 tiles, i64 groups) {
  const Axes a = axes_of(q);
  std::uint64_t cluster_atoms = 0, split_pairs = 0;
  for (const auto& cl : a.clusters)
    for (const i64 atom : a.atoms) cluster_atoms += atom_fits(cl, atom);
  for (const i64 sp : a.splits)
    for (const Decomposition d : a.decompositions) split_pairs += splits_allowed(sp, d);
  std::uint64_t n = problem_count(q, tiles, groups);
  for (const std::uint64_t f : {cluster_atoms, std::uint64_t{a.dynamic.size()}, std::uint64_t{a.swizzles.size()}, std::uint64_t{a.rasters.size()},
                                std::uint64_t{a.sms.size()}, std::uint64_t{a.k_tiles.size()}, split_pairs})
    n = saturating_mul(n, f);
  return n;
}

// The largest bound b in [1, hi] whose domain size(b) fits kMaxDomain (0: none); size grows with b.
i64 largest_fitting(i64 hi, const std::function<std::uint64_t(i64)>& size) {
  i64 best = 0;
  for (i64 b = 1; b <= hi && size(b) <= kMaxDomain; ++b) best = b;
  return best;
}

std::string domain_text(const SchedulerQuery& q) {
  const bool group = is_group(q);
  const std::string t = std::to_string(max_tiles_of(q));
  const std::string problems =
      group ? (q.groups                 ? "the groups given"
               : max_groups_of(q) == 1 ? "one group of M, N in [1, " + t + "]"
                                       : "every list of 1 to " + std::to_string(max_groups_of(q)) + " groups of M, N in [1, " + t + "]")
            : (q.tiles ? "the tiles given" : "tiles M, N in [1, " + t + "], L in {1, 2}");
  std::string text =
      problems + "; " + (q.cluster ? "the cluster given" : "clusters 1x1, 2x1, 1x2, 2x2") + "; " + (q.max_swizzle ? "the swizzle given" : "max swizzle 1, 2, 4, 8") +
      "; " + (q.raster ? "the raster given" : "rasters heuristic, along-m, along-n") +
      (is_sm100(q) ? std::string() : "; " + std::string(q.sms ? "the SMs given" : is_sm100_group(q) ? "SMs 1, 3, 8, 148" : "SMs 1, 3, 8, 132")) +
      (is_sm100_group(q) ? std::string("; ") + (q.atom_m ? "the atom m given" : "atom m 1, 2 (2 where the cluster's m is even)") + "; " +
                               (q.dynamic_cluster ? "the cluster type given" : "static and dynamic clusters")
                         : std::string()) +
      (q.corrected ? "; the corrected bound" : "");
  if (is_stream_k(q))
    text += std::string("; ") + (q.k_tiles ? "the k tiles given" : "k tiles 1, 9, 17, 40") + "; " + (q.splits ? "the splits given" : "splits 1, 2, 3") +
            "; " + (q.decomposition ? "the decomposition given" : "the four decompositions") + " (splits > 1 only where CUTLASS's can_implement takes it)";
  return text;
}

// The parameters left free, as `spelled` names them ("--cluster, --max-swizzle").
std::string free_parameters(const SchedulerQuery& q, const std::function<std::string(const std::string&)>& spelled) {
  std::vector<std::string> free;
  if (!q.cluster) free.push_back("cluster");
  if (!q.max_swizzle) free.push_back("max-swizzle");
  if (!q.raster) free.push_back("raster");
  if (!is_sm100(q) && !q.sms) free.push_back("sms");
  if (is_sm100_group(q) && !q.atom_m) free.push_back("atom-m");
  if (is_sm100_group(q) && !q.dynamic_cluster) free.push_back("cluster-type");
  if (is_stream_k(q) && !q.k_tiles) free.push_back("k-tiles");
  if (is_stream_k(q) && !q.splits) free.push_back("splits");
  if (is_stream_k(q) && !q.decomposition) free.push_back("decomposition");
  std::string s;
  for (std::size_t k = 0; k < free.size(); ++k) s += (k ? ", " : "") + spelled(free[k]);
  return s;
}

// Every list of 1..max_groups groups of M, N in [1, max_tiles], shorter lists first.
std::vector<std::vector<std::array<i64, 2>>> group_lists(const SchedulerQuery& q) {
  if (q.groups) return {*q.groups};
  std::vector<std::array<i64, 2>> shapes;
  for (i64 m = 1; m <= max_tiles_of(q); ++m)
    for (i64 n = 1; n <= max_tiles_of(q); ++n) shapes.push_back({m, n});
  std::vector<std::vector<std::array<i64, 2>>> lists, level{{}};
  for (i64 k = 1; k <= max_groups_of(q); ++k) {
    std::vector<std::vector<std::array<i64, 2>>> next;
    for (const auto& l : level)
      for (const auto& sh : shapes) {
        auto x = l;
        x.push_back(sh);
        next.push_back(x);
      }
    for (const auto& l : next) lists.push_back(l);
    level = next;
  }
  return lists;
}

std::vector<std::array<i64, 3>> tile_problems(const SchedulerQuery& q) {
  if (q.tiles) return {*q.tiles};
  std::vector<std::array<i64, 3>> tiles;
  for (i64 m = 1; m <= max_tiles_of(q); ++m)
    for (i64 n = 1; n <= max_tiles_of(q); ++n)
      for (i64 l = 1; l <= 2; ++l) tiles.push_back({m, n, l});
  return tiles;
}

// Each configuration with its size (total tiles, times k tiles for stream-K), in listing order.
void list_groups(const SchedulerQuery& q, const Axes& a, std::vector<std::pair<i64, Config>>& out) {
  for (const auto& groups : group_lists(q))
    for (const auto& cl : a.clusters)
      for (const i64 s : a.swizzles)
        for (const auto r : a.rasters)
          for (const i64 k : a.sms)
            for (const i64 atom : a.atoms)
              for (const bool dyn : a.dynamic) {
                if (!atom_fits(cl, atom)) continue;
                GroupConfig c;
                c.groups = groups;
                c.cluster_m = cl[0], c.cluster_n = cl[1], c.max_swizzle = s, c.raster = r, c.sms = k, c.corrected = q.corrected;
                c.sm100 = is_sm100_group(q), c.atom_m = atom, c.dynamic_cluster = dyn;
                if (q.max_active_clusters) c.max_active_clusters = *q.max_active_clusters;
                i64 total = 0;
                for (const auto& g : c.groups) total += g[0] * g[1];
                out.push_back({total, c});
              }
}

void list_tiles(const SchedulerQuery& q, const Axes& a, std::vector<std::pair<i64, Config>>& out) {
  for (const auto& t : tile_problems(q))
    for (const auto& cl : a.clusters)
      for (const i64 s : a.swizzles)
        for (const auto r : a.rasters)
          for (const i64 k : a.sms) {
            PersistentConfig b;
            b.tiles_m = t[0], b.tiles_n = t[1], b.tiles_l = t[2];
            b.cluster_m = cl[0], b.cluster_n = cl[1], b.max_swizzle = s, b.raster = r, b.sms = k;
            if (q.max_active_clusters) b.max_active_clusters = *q.max_active_clusters;
            const i64 size = b.tiles_m * b.tiles_n * b.tiles_l;
            if (is_sm100(q)) {
              raster::Sm100Config c;
              c.tiles_m = b.tiles_m, c.tiles_n = b.tiles_n, c.tiles_l = b.tiles_l, c.cluster_m = cl[0], c.cluster_n = cl[1], c.max_swizzle = s, c.raster = r;
              out.push_back({size, c});
              continue;
            }
            if (!is_stream_k(q)) {
              out.push_back({size, b});
              continue;
            }
            for (const i64 kt : a.k_tiles)
              for (const i64 sp : a.splits)
                for (const Decomposition d : a.decompositions) {
                  if (!splits_allowed(sp, d)) continue;
                  StreamKConfig c;
                  c.base = b, c.k_tiles = kt, c.splits = sp, c.decomposition = d;
                  if (q.reduction) c.reduction = *q.reduction;
                  if (q.kind == "sm100-stream-k") out.push_back({checked_mul(size, kt), raster::Sm100StreamKConfig{c}});
                  else out.push_back({checked_mul(size, kt), c});
                }
          }
}

}  // namespace

std::uint64_t scheduler_domain_size(const SchedulerQuery& q) { return domain_size(q, max_tiles_of(q), max_groups_of(q)); }

std::string unlistable_domain(const SchedulerQuery& q, Spelling spelling) {
  refuse_foreign_flags(q);
  const std::uint64_t n = scheduler_domain_size(q);
  if (n <= kMaxDomain) return "";
  const auto spelled = [&](const std::string& flag) {
    if (spelling == Spelling::flags) return "--" + flag;
    std::string key = flag;
    std::replace(key.begin(), key.end(), '-', '_');
    return "'" + key + "'";
  };
  const bool group = is_group(q), problem_free = group ? !q.groups : !q.tiles;
  const i64 tiles = max_tiles_of(q), groups = max_groups_of(q);
  std::string asked = q.max_tiles ? spelled("max-tiles") + " " + std::to_string(tiles) : std::string();
  if (group && q.max_groups) asked += (asked.empty() ? "" : " with ") + spelled("max-groups") + " " + std::to_string(groups);
  std::string s = q.kind + ": " + (asked.empty() ? std::string("the domain") : asked) + " asks for " + std::to_string(n) + " configurations (" +
                  domain_text(q) + "), more than the " + std::to_string(kMaxDomain) + " (2^20) a domain search lists";
  std::vector<std::string> ways;
  if (problem_free) {
    const i64 t = largest_fitting(tiles, [&](i64 b) { return domain_size(q, b, groups); });
    if (t > 0) {
      s += "; with the other parameters as given the largest that fits is " + spelled("max-tiles") + " " + std::to_string(t) + " (M, N in [1, " +
           std::to_string(t) + "])";
      ways.push_back(spelled("max-tiles") + " " + std::to_string(t) + " or less");
    }
    if (group) {
      const i64 g = largest_fitting(groups, [&](i64 b) { return domain_size(q, tiles, b); });
      if (g > 0)
        ways.push_back(spelled("max-groups") + " " + std::to_string(g) + " (" + (g == 1 ? std::string("one group") : "up to " + std::to_string(g) + " groups") +
                       " of M, N in [1, " + std::to_string(tiles) + "])");
    }
    ways.push_back(group ? spelled("groups") + (spelling == Spelling::flags ? " 'M1xN1,...'" : "") : spelled("tiles") + (spelling == Spelling::flags ? " M,N[,L]" : ""));
  }
  const std::string free = free_parameters(q, spelled);
  if (!free.empty()) ways.push_back("fix parameters left free (" + free + ")");
  // sm90-persistent's symbolic engine is not listed: it takes M, N up to 4096 (not balance).
  const std::string z3 = " (Z3 decides M, N up to 4096 at once)";
  if (q.kind == "sm90-persistent" && problem_free && !(q.cluster && q.max_swizzle && q.raster && q.sms))
    ways.push_back("for exactly-once, in-range and launches, " + spelled("cluster") + ", " + spelled("max-swizzle") + ", " + spelled("raster") + " and " +
                   spelled("sms") + " given" + z3);
  else if (q.kind == "sm90-persistent" && problem_free && spelling == Spelling::flags)
    ways.push_back("--engine z3 for exactly-once, in-range and launches" + z3);
  for (std::size_t k = 0; k < ways.size(); ++k) s += (k == 0 ? ": give " : k + 1 == ways.size() ? ", or " : ", ") + ways[k];
  return s;
}

SchedulerDomain scheduler_domain(const SchedulerQuery& q) {
  refuse_foreign_flags(q);
  refuse_refused_pairs(q);
  if (const std::string why = unlistable_domain(q, Spelling::flags); !why.empty()) throw LayoutError(why);
  SchedulerDomain d;
  d.text = domain_text(q);
  const Axes a = axes_of(q);
  std::vector<std::pair<i64, Config>> out;
  if (is_group(q)) list_groups(q, a, out);
  else list_tiles(q, a, out);
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  d.configs.reserve(out.size());
  for (auto& x : out) d.configs.push_back(std::move(x.second));
  return d;
}

Schedule SchedulerDomain::at(std::size_t i) const {
  return std::visit([](const auto& c) { return schedule_of(c); }, configs.at(i));
}

SchedulerResult prove_scheduler_domain(const SchedulerDomain& d, SchedulerClaim claim, const ProveOptions& o) {
  SchedulerResult last;
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

namespace {

// sm90-persistent's exactly-once, in-range and launches with the tiles left free and every other
// parameter given: what prove_persistent_symbolic decides.
bool symbolic_fits(const SchedulerQuery& q, SchedulerClaim claim) {
  return q.kind == "sm90-persistent" && !q.tiles && q.cluster && q.max_swizzle && q.raster && q.sms &&
         (claim == SchedulerClaim::exactly_once || claim == SchedulerClaim::in_range || claim == SchedulerClaim::launches);
}

}  // namespace

bool decided_symbolically(const SchedulerQuery& q, SchedulerClaim claim) {
  if (!symbolic_fits(q, claim)) return false;
  return q.engine == SchedulerQuery::Engine::z3 || (q.engine == SchedulerQuery::Engine::automatic && max_tiles_of(q) > 32);
}

void check_scheduler_query(const SchedulerQuery& q, SchedulerClaim claim) {
  refuse_foreign_flags(q);
  if (q.engine == SchedulerQuery::Engine::z3 && !symbolic_fits(q, claim))
    throw LayoutError("--engine z3 decides sm90-persistent's exactly-once, in-range and launches with --tiles left free and --cluster, "
                      "--max-swizzle, --raster and --sms given; use --engine exhaustive otherwise");
  if (decided_symbolically(q, claim)) return;
  refuse_refused_pairs(q);
  if (const std::string why = unlistable_domain(q, Spelling::flags); !why.empty()) throw LayoutError(why);
}

SchedulerResult prove_scheduler_query(const SchedulerQuery& q, SchedulerClaim claim, const ProveOptions& o) {
  check_scheduler_query(q, claim);
  if (decided_symbolically(q, claim)) {
    PersistentConfig fixed;
    fixed.cluster_m = (*q.cluster)[0], fixed.cluster_n = (*q.cluster)[1], fixed.max_swizzle = *q.max_swizzle, fixed.raster = *q.raster,
    fixed.sms = *q.sms;
    if (q.max_active_clusters) fixed.max_active_clusters = *q.max_active_clusters;
    return prove_persistent_symbolic(fixed, max_tiles_of(q), 2, claim, o);
  }
  const SchedulerDomain d = scheduler_domain(q);
  if (d.size() == 1) return prove_scheduler(d.at(0), claim, o);
  return prove_scheduler_domain(d, claim, o);
}

}  // namespace layoutproof::proofs
