#include "model/raster/persistent.hpp"

#include <algorithm>

#include "model/support/checked.hpp"
#include "model/support/error.hpp"

namespace layoutproof::raster {
namespace {

using i64 = std::int64_t;
using u64 = std::uint64_t;

bool pow2(i64 v) { return v > 0 && (v & (v - 1)) == 0; }

i64 round_up(i64 a, i64 b) { return checked_mul((a + b - 1) / b, b); }

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

PersistentPlan plan_persistent(const PersistentConfig& c) {
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
  // get_grid_shape (truncate_by_problem_size = true).
  const i64 total = p.blocks_per_problem;
  const i64 cluster_size = c.cluster_m * c.cluster_n;
  p.grid = p.raster == RasterAlong::n ? std::array<i64, 3>{c.cluster_m, 1, 1} : std::array<i64, 3>{1, c.cluster_n, 1};
  i64& along = p.raster == RasterAlong::n ? p.grid[1] : p.grid[0];
  if (cluster_size == 1) along = std::min(c.sms, total);
  else if (c.max_active_clusters != 0 && c.max_active_clusters * cluster_size <= c.sms)
    along = p.raster == RasterAlong::n ? std::min(c.max_active_clusters * c.cluster_n, total / c.cluster_m)
                                       : std::min(c.max_active_clusters * c.cluster_m, total / c.cluster_n);
  else {
    const i64 cta_per_device = max_cta_occupancy(18, cluster_size, c.sms);
    along = p.raster == RasterAlong::n ? std::min(cta_per_device / c.cluster_m, total / c.cluster_m)
                                       : std::min(cta_per_device / c.cluster_n, total / c.cluster_n);
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
  const bool along_n = p.raster == RasterAlong::n;
  const u64 shape_major = static_cast<u64>(along_n ? c.cluster_n : c.cluster_m);  // divmod_cluster_shape_major_
  const u64 shape_minor = static_cast<u64>(along_n ? c.cluster_m : c.cluster_n);  // divmod_cluster_shape_minor_
  const u64 blk_major = static_cast<u64>(along_n ? p.blocks_n / c.cluster_n : p.blocks_m / c.cluster_m);  // divmod_cluster_blk_major_
  const u64 blk_per_grid_dim = remainder / shape_minor;
  // sm90_tile_scheduler.hpp get_work_idx_m_and_n; block_id_in_cluster = blockIdx % cluster shape.
  const u64 cta_m_in_cluster = static_cast<u64>(bx % c.cluster_m), cta_n_in_cluster = static_cast<u64>(by % c.cluster_n);
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
  w.valid = true;
  w.m = along_n ? minor : major;
  w.n = along_n ? major : minor;
  w.l = static_cast<i64>(work_l);
  return w;
}

std::vector<Work> persistent_visits(const PersistentConfig& c, const PersistentPlan& p, i64 cta) {
  const i64 gx = p.grid[0], gy = p.grid[1];
  const i64 bx = cta % gx, by = (cta / gx) % gy;
  // static_tile_scheduler.hpp's constructor: the first linear index and the grid's size.
  u64 linear = p.raster == RasterAlong::n ? static_cast<u64>(bx) + static_cast<u64>(by) * static_cast<u64>(gx)
                                          : static_cast<u64>(bx) * static_cast<u64>(gy) + static_cast<u64>(by);
  const u64 step = static_cast<u64>(checked_mul(checked_mul(gx, gy), p.grid[2]));
  std::vector<Work> out;
  for (i64 iter = 0;; ++iter) {
    const WorkTile w = persistent_tile(c, p, linear, bx, by);
    if (!w.valid) break;
    out.push_back({iter, w.m, w.n, w.l});
    linear += step;
  }
  return out;
}

}  // namespace layoutproof::raster
