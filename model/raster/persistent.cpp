#include "model/raster/persistent.hpp"

#include <algorithm>

#include "model/support/checked.hpp"
#include "model/support/error.hpp"

namespace layoutproof::raster {
namespace {

using i64 = std::int64_t;
using u64 = std::uint64_t;

bool pow2(i64 v) { return v > 0 && (v & (v - 1)) == 0; }

// tile_scheduler_params.h get_log_swizzle_size.
int log_swizzle_size(i64 problem_ctas_m, i64 problem_ctas_n, i64 max_swizzle) {
  const i64 min_cta_dim = std::min(problem_ctas_m, problem_ctas_n);
  if (max_swizzle >= 8 && min_cta_dim >= 6) return 3;
  if (max_swizzle >= 4 && min_cta_dim >= 3) return 2;
  if (max_swizzle >= 2 && min_cta_dim >= 2) return 1;
  return 0;
}

// tile_scheduler_params.h get_rasterization_order.
RasterAlong raster_order(i64 tiles_m, i64 tiles_n, RasterOption o) {
  if (o == RasterOption::heuristic) return tiles_n > tiles_m ? RasterAlong::m : RasterAlong::n;
  return o == RasterOption::along_n ? RasterAlong::n : RasterAlong::m;
}

// tile_scheduler_params.h get_max_cta_occupancy (max_sm_per_gpc = 18, GH100's GPCs).
i64 max_cta_occupancy(i64 max_sm_per_gpc, i64 cluster_size, i64 sm_count) {
  const i64 min_num_gpc = sm_count < max_sm_per_gpc ? 1 : sm_count / max_sm_per_gpc;
  const i64 per_gpc = max_sm_per_gpc - (max_sm_per_gpc % cluster_size);
  i64 cta_per_device = min_num_gpc * per_gpc;
  const i64 residual = sm_count < max_sm_per_gpc ? 0 : sm_count % max_sm_per_gpc;
  cta_per_device += residual - (residual % cluster_size);
  return sm_count < cta_per_device ? sm_count : cta_per_device;
}

}  // namespace

std::string to_string(RasterAlong r) { return r == RasterAlong::m ? "along-m" : "along-n"; }

void validate(const PersistentConfig& c) {
  const auto extent = [](i64 v, const char* what) {
    if (v < 1) throw LayoutError(std::string(what) + " must be at least 1, not " + std::to_string(v));
    if (v > (i64{1} << 31)) throw LayoutError(std::string(what) + " = " + std::to_string(v) + " is more than 2^31 (CUTLASS's uint32 tile counts)");
  };
  extent(c.tiles_m, "--tiles M");
  extent(c.tiles_n, "--tiles N");
  extent(c.tiles_l, "--tiles L");
  if (!pow2(c.cluster_m) || !pow2(c.cluster_n) || c.cluster_m > 16 || c.cluster_n > 16)
    throw LayoutError("--cluster " + std::to_string(c.cluster_m) + "x" + std::to_string(c.cluster_n) +
                      ": each extent must be a power of two up to 16 (FastDivmodU64Pow2 divides by the cluster shape)");
  if (!pow2(c.max_swizzle) || c.max_swizzle > (i64{1} << 20))
    throw LayoutError("--max-swizzle " + std::to_string(c.max_swizzle) + ": must be a power of two (1, 2, 4, 8, ...)");
  if (c.sms < 1 || c.sms > 1 << 20) throw LayoutError("--sms " + std::to_string(c.sms) + ": must be from 1 to 2^20");
  if (c.max_active_clusters < 0) throw LayoutError("--max-active-clusters must not be negative");
  const i64 total = checked_mul(checked_mul(round_up(c.tiles_m, 8 * c.cluster_m), round_up(c.tiles_n, 8 * c.cluster_n)), c.tiles_l);
  if (total > (i64{1} << 40))
    throw LayoutError("the problem has " + std::to_string(total) + " tiles (after rounding): more than 2^40, the model's bound");
}

PersistentPlan plan_persistent(const PersistentConfig& c, bool truncate_by_problem_size, bool bypass_sm90_occupancy_calculation) {
  validate(c);
  PersistentPlan p;
  // get_tiled_cta_shape_mnl: the CTA tiles rounded up to whole clusters.
  const i64 problem_m = round_up(c.tiles_m, c.cluster_m), problem_n = round_up(c.tiles_n, c.cluster_n);
  // initialize / get_grid_shape: the swizzle from the cluster-rounded blocks, then rounded to it.
  p.log_swizzle = log_swizzle_size(problem_m, problem_n, c.max_swizzle);
  p.blocks_m = round_up(problem_m, (i64{1} << p.log_swizzle) * c.cluster_m);
  p.blocks_n = round_up(problem_n, (i64{1} << p.log_swizzle) * c.cluster_n);
  p.blocks_per_problem = checked_mul(checked_mul(p.blocks_m, p.blocks_n), c.tiles_l);
  p.raster = raster_order(p.blocks_m, p.blocks_n, c.raster);
  // get_grid_shape: possibly_truncate(x, y) is min(x, y), or x when not truncating.
  const i64 total = p.blocks_per_problem;
  const auto truncate = [&](i64 x, i64 y) { return truncate_by_problem_size ? std::min(x, y) : x; };
  const i64 cluster_size = c.cluster_m * c.cluster_n;
  p.grid = p.raster == RasterAlong::n ? std::array<i64, 3>{c.cluster_m, 1, 1} : std::array<i64, 3>{1, c.cluster_n, 1};
  i64& along = p.raster == RasterAlong::n ? p.grid[1] : p.grid[0];
  if (cluster_size == 1) along = truncate(c.sms, total);
  else if (c.max_active_clusters != 0 && c.max_active_clusters * cluster_size <= c.sms)
    along = p.raster == RasterAlong::n ? truncate(c.max_active_clusters * c.cluster_n, total / c.cluster_m)
                                       : truncate(c.max_active_clusters * c.cluster_m, total / c.cluster_n);
  else {
    const i64 cta_per_device = bypass_sm90_occupancy_calculation ? c.sms : max_cta_occupancy(18, cluster_size, c.sms);
    along = p.raster == RasterAlong::n ? truncate(cta_per_device / c.cluster_m, total / c.cluster_m)
                                       : truncate(cta_per_device / c.cluster_n, total / c.cluster_n);
  }
  // along may be 0 (fewer SMs than one cluster's GPC share): the real code launches no CTA, and
  // exactly-once says which tile is then computed by none.
  return p;
}

WorkTile persistent_tile(const PersistentConfig& c, const PersistentPlan& p, u64 linear, i64 bx, i64 by) {
  WorkTile w;
  // static_tile_scheduler.hpp get_current_work_for_linear_idx.
  if (linear >= static_cast<u64>(p.blocks_per_problem)) return w;
  const u64 per_batch = static_cast<u64>(p.blocks_m) * static_cast<u64>(p.blocks_n);  // divmod_batch_
  const u64 work_l = linear / per_batch, remainder = linear % per_batch;
  const u64 blk_per_grid_dim = remainder / static_cast<u64>(p.raster == RasterAlong::n ? c.cluster_m : c.cluster_n);
  // block_id_in_cluster = blockIdx % cluster shape.
  const auto mn = work_idx_m_and_n(c, p, blk_per_grid_dim, static_cast<u64>(bx % c.cluster_m), static_cast<u64>(by % c.cluster_n));
  w.valid = true;
  w.m = mn[0];
  w.n = mn[1];
  w.l = static_cast<i64>(work_l);
  return w;
}

std::array<i64, 2> work_idx_m_and_n(const PersistentConfig& c, const PersistentPlan& p, u64 blk_per_grid_dim, u64 cta_m_in_cluster,
                                    u64 cta_n_in_cluster) {
  const bool along_n = p.raster == RasterAlong::n;
  const u64 shape_major = static_cast<u64>(along_n ? c.cluster_n : c.cluster_m);  // divmod_cluster_shape_major_
  const u64 shape_minor = static_cast<u64>(along_n ? c.cluster_m : c.cluster_n);  // divmod_cluster_shape_minor_
  const u64 blk_major = static_cast<u64>(along_n ? p.blocks_n / c.cluster_n : p.blocks_m / c.cluster_m);  // divmod_cluster_blk_major_
  const u64 cluster_id = blk_per_grid_dim / shape_major, cluster_major_offset = blk_per_grid_dim % shape_major;
  const u64 cluster_minor_offset = along_n ? cta_m_in_cluster : cta_n_in_cluster;
  const u64 offset = cluster_id & ((u64{1} << p.log_swizzle) - 1);
  const u64 extra = cluster_id >> p.log_swizzle;
  const u64 cluster_idx_minor_div_swizzle = extra / blk_major, cluster_idx_major = extra % blk_major;
  const u64 cluster_idx_minor = cluster_idx_minor_div_swizzle * (u64{1} << p.log_swizzle) + offset;
  // The real code narrows both to int32_t.
  const auto i32 = [](u64 v) { return static_cast<i64>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v))); };
  const i64 minor = i32(cluster_idx_minor * shape_minor + cluster_minor_offset);
  const i64 major = i32(cluster_idx_major * shape_major + cluster_major_offset);
  return along_n ? std::array<i64, 2>{minor, major} : std::array<i64, 2>{major, minor};
}

std::vector<Work> collect_walk(const std::function<void(const WorkVisitor&)>& walk) {
  std::vector<Work> out;
  walk([&](const Work& w) {
    out.push_back(w);
    return true;
  });
  return out;
}

std::vector<Work> persistent_visits(const PersistentConfig& c, const PersistentPlan& p, i64 cta) {
  return collect_walk([&](const WorkVisitor& v) { persistent_walk(c, p, cta, v); });
}

void persistent_walk(const PersistentConfig& c, const PersistentPlan& p, i64 cta, const WorkVisitor& visit) {
  const i64 gx = p.grid[0], gy = p.grid[1];
  const i64 bx = cta % gx, by = (cta / gx) % gy;
  // static_tile_scheduler.hpp's constructor: the first linear index and the grid's size.
  u64 linear = p.raster == RasterAlong::n ? static_cast<u64>(bx) + static_cast<u64>(by) * static_cast<u64>(gx)
                                          : static_cast<u64>(bx) * static_cast<u64>(gy) + static_cast<u64>(by);
  const u64 step = static_cast<u64>(checked_mul(checked_mul(gx, gy), p.grid[2]));
  for (i64 iter = 0;; ++iter) {
    const WorkTile w = persistent_tile(c, p, linear, bx, by);
    if (!w.valid || !visit({iter, w.m, w.n, w.l})) break;
    linear += step;
  }
}

}  // namespace layoutproof::raster

namespace layoutproof::raster {

void validate(const GroupConfig& c) {
  if (c.groups.empty()) throw LayoutError("--groups needs at least one group (M1xN1,M2xN2,...)");
  if (c.groups.size() > 4096) throw LayoutError("--groups: " + std::to_string(c.groups.size()) + " groups, more than the model's 4096");
  std::int64_t total = 0;
  for (std::size_t g = 0; g < c.groups.size(); ++g) {
    for (const std::int64_t v : c.groups[g])
      if (v < 1 || v > (std::int64_t{1} << 31))
        throw LayoutError("--groups: group " + std::to_string(g) + " has an extent " + std::to_string(v) + " (each must be from 1 to 2^31)");
    total = checked_add(total, checked_mul(c.groups[g][0] + 8 * c.cluster_m, c.groups[g][1] + 8 * c.cluster_n));
  }
  if (total > (std::int64_t{1} << 40)) throw LayoutError("the groups have more than 2^40 tiles together: the model's bound");
  PersistentConfig p;
  p.cluster_m = c.cluster_m, p.cluster_n = c.cluster_n, p.max_swizzle = c.max_swizzle, p.sms = c.sms, p.max_active_clusters = c.max_active_clusters;
  validate(p);  // cluster, swizzle, SMs
  if (!c.sm100 && (c.atom_m != 1 || c.dynamic_cluster))
    throw LayoutError(std::string(c.atom_m != 1 ? "--atom-m" : "--cluster-type dynamic") + " is sm100-group's (a Blackwell MMA's and cluster's), not sm90-group's");
  if (c.atom_m != 1 && c.atom_m != 2) throw LayoutError("--atom-m " + std::to_string(c.atom_m) + ": the AtomThrShape's M is 1 or 2 (a 2-SM MMA)");
  if (c.cluster_m % c.atom_m != 0)
    throw LayoutError("--atom-m 2 needs the cluster's M even (a 2-SM MMA's pair of CTAs lies in one cluster), not --cluster " +
                      std::to_string(c.cluster_m) + "x" + std::to_string(c.cluster_n));
}

namespace {

struct GroupShape {
  std::int64_t total = 0, along = 0;  // swizzle-rounded tiles; blocks along the raster order
  int log_swizzle = 0;
};

// The device's view of one group (the scheduler's constructor and get_work_idx_m_and_n).
GroupShape group_shape(const GroupConfig& c, RasterAlong r, std::size_t g) {
  GroupShape s;
  const std::int64_t m = c.groups[g][0], n = c.groups[g][1];
  s.log_swizzle = log_swizzle_size(m, n, c.max_swizzle);
  const std::int64_t bm = round_up(m, (std::int64_t{1} << s.log_swizzle) * c.cluster_m);
  const std::int64_t bn = round_up(n, (std::int64_t{1} << s.log_swizzle) * c.cluster_n);
  s.total = checked_mul(bm, bn);
  s.along = r == RasterAlong::n ? bn : bm;
  return s;
}

}  // namespace

GroupPlan plan_group(const GroupConfig& c) {
  validate(c);
  GroupPlan p;
  // get_tiled_cta_shape_mnl with host problem shapes: the cluster-rounded tiles of every group.
  std::int64_t total = 0;
  for (const auto& g : c.groups) total = checked_add(total, checked_mul(round_up(g[0], c.cluster_m), round_up(g[1], c.cluster_n)));
  p.host_blocks = total;  // initialize: problem_blocks (total, 1, 1)
  const std::int64_t blocks_m = round_up(total, c.cluster_m), blocks_n = round_up(1, c.cluster_n);
  p.raster = raster_order(blocks_m, blocks_n, c.raster);
  for (std::size_t g = 0; g < c.groups.size(); ++g) p.device_blocks = checked_add(p.device_blocks, group_shape(c, p.raster, g).total);
  // get_grid_shape. sm100: the wrapper's get_tiled_cta_shape_mnl of the MMA tile, atom_m CTAs along
  // m (ceil(M / atom_m) of them), then PersistentTileSchedulerSm100GroupParams::get_grid_shape with
  // the params' raster; sm90: PersistentTileSchedulerSm90GroupParams::get_grid_shape.
  std::int64_t grid_total = p.host_blocks;
  if (c.sm100) {
    grid_total = 0;
    for (const auto& g : c.groups)
      grid_total = checked_add(grid_total, checked_mul(round_up((g[0] + c.atom_m - 1) / c.atom_m, c.cluster_m), round_up(g[1], c.cluster_n)));
  }
  p.grid_blocks = grid_total;
  const std::int64_t problem_total = checked_mul(round_up(grid_total, c.cluster_m), round_up(1, c.cluster_n));
  const std::int64_t cluster_size = c.cluster_m * c.cluster_n;
  p.grid = p.raster == RasterAlong::n ? std::array<std::int64_t, 3>{c.cluster_m, 1, 1} : std::array<std::int64_t, 3>{1, c.cluster_n, 1};
  std::int64_t& along = p.raster == RasterAlong::n ? p.grid[1] : p.grid[0];
  const std::int64_t major = p.raster == RasterAlong::n ? c.cluster_n : c.cluster_m;  // the cluster's extent along `along`
  const std::int64_t minor = p.raster == RasterAlong::n ? c.cluster_m : c.cluster_n;
  if (c.sm100 && c.dynamic_cluster)  // "with preferred clusters": the largest grid, rounded to the cluster
    along = std::min(c.sms, problem_total) / minor / major * major;
  else if (cluster_size == 1) along = std::min(c.sms, problem_total);
  else if (c.max_active_clusters != 0 && c.max_active_clusters * cluster_size <= c.sms)
    along = c.max_active_clusters * major;
  else {
    const std::int64_t cta_per_device = max_cta_occupancy(c.sm100 ? 20 : 18, cluster_size, c.sms);  // GB100's and GH100's SMs per GPC
    along = std::min(cta_per_device / minor, problem_total / minor);
  }
  return p;
}

std::vector<Work> group_visits(const GroupConfig& c, const GroupPlan& p, std::int64_t cta) {
  return collect_walk([&](const WorkVisitor& v) { group_walk(c, p, cta, v); });
}

void group_walk(const GroupConfig& c, const GroupPlan& p, std::int64_t cta, const WorkVisitor& visit) {
  const std::int64_t gx = p.grid[0], gy = p.grid[1];
  const std::int64_t bx = cta % gx, by = (cta / gx) % gy;
  const bool along_n = p.raster == RasterAlong::n;
  std::uint64_t linear = along_n ? static_cast<std::uint64_t>(bx) + static_cast<std::uint64_t>(by) * static_cast<std::uint64_t>(gx)
                                 : static_cast<std::uint64_t>(bx) * static_cast<std::uint64_t>(gy) + static_cast<std::uint64_t>(by);
  const std::uint64_t step = static_cast<std::uint64_t>(checked_mul(checked_mul(gx, gy), p.grid[2]));
  const std::uint64_t bound = static_cast<std::uint64_t>(c.corrected ? p.device_blocks : p.host_blocks);
  const std::uint64_t shape_major = static_cast<std::uint64_t>(along_n ? c.cluster_n : c.cluster_m);
  const std::uint64_t shape_minor = static_cast<std::uint64_t>(along_n ? c.cluster_m : c.cluster_n);
  // The CTA's group state: the constructor starts at group 0.
  std::size_t g = 0;
  std::uint64_t start = 0;
  GroupShape s = group_shape(c, p.raster, 0);
  for (std::int64_t iter = 0;; ++iter) {
    if (linear >= bound) break;  // pre_processed_problem_shapes: past blocks_across_problem_
    while (g < c.groups.size() && linear >= start + static_cast<std::uint64_t>(s.total)) {
      start += static_cast<std::uint64_t>(s.total);
      if (++g < c.groups.size()) s = group_shape(c, p.raster, g);
    }
    if (g >= c.groups.size()) break;
    const std::uint64_t blk_per_grid_dim = (linear - start) / shape_minor;
    const std::uint64_t cluster_id = blk_per_grid_dim / shape_major, cluster_major_offset = blk_per_grid_dim % shape_major;
    const std::uint64_t cluster_minor_offset = static_cast<std::uint64_t>(along_n ? bx : by);
    const std::uint64_t offset = cluster_id & ((std::uint64_t{1} << s.log_swizzle) - 1);
    const std::uint64_t extra = cluster_id >> s.log_swizzle;
    const std::uint64_t blk_major = static_cast<std::uint64_t>(s.along) / shape_major;
    const std::uint64_t minor_idx = (extra / blk_major) * (std::uint64_t{1} << s.log_swizzle) + offset, major_idx = extra % blk_major;
    const auto i32 = [](std::uint64_t v) { return static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v))); };
    const std::int64_t minor = i32(minor_idx * shape_minor + cluster_minor_offset), major = i32(major_idx * shape_major + cluster_major_offset);
    if (!visit({iter, along_n ? minor : major, along_n ? major : minor, 0, static_cast<std::int64_t>(g)})) break;
    linear += step;
  }
}

}  // namespace layoutproof::raster
