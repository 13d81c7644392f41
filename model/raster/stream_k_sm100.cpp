// sm100-stream-k (model/raster/stream_k_sm100.hpp), statement by statement.
#include "model/raster/stream_k_sm100.hpp"

#include "model/support/checked.hpp"
#include "model/support/error.hpp"

namespace layoutproof::raster {
namespace {

using i64 = std::int64_t;
using u64 = std::uint64_t;

}  // namespace

// The SM90 params' checks are all there is: get_grid_shape's uint32_t z, L times the splits, cannot
// wrap, since the splits used are at most the k tiles (adjust_split_count) and validate(StreamKConfig)
// keeps the tiles times the k tiles below 2^31.
void validate(const Sm100StreamKConfig& c) { validate(c.sk); }

Sm100StreamKPlan plan_sm100_stream_k(const Sm100StreamKConfig& x) {
  validate(x);
  const StreamKConfig& c = x.sk;
  Sm100StreamKPlan p;
  p.config = c;
  p.config.bypass_sm90_occupancy = true;  // initialize: bypass_sm90_occupancy_calculation = true
  p.sk = plan_stream_k(p.config);
  const PersistentConfig& b = c.base;
  // get_tiled_cta_shape_mnl: the CTA tiles rounded up to whole clusters (no swizzle rounding).
  p.blocks_m = round_up(b.tiles_m, b.cluster_m), p.blocks_n = round_up(b.tiles_n, b.cluster_n);
  // convert_work: has_sk_work, is_split_k, else data-parallel.
  p.path = p.sk.sk_units > 0 ? Sm100StreamKPath::stream_k : p.sk.splits > 1 ? Sm100StreamKPath::split_k : Sm100StreamKPath::data_parallel;
  if (p.path == Sm100StreamKPath::stream_k) {
    // get_grid_shape: waves of sk_units_ CTAs (uint32_t waves), x and y divisible by the cluster
    // (sk_units_ is a multiple of the cluster size: get_num_sk_units rounds it down to one).
    const u64 waves = (p.sk.units_per_problem + p.sk.sk_units - 1) / p.sk.sk_units;
    p.grid = {static_cast<i64>(p.sk.sk_units) / b.cluster_n, b.cluster_n, static_cast<i64>(waves)};
  } else {
    p.grid = {p.blocks_m, p.blocks_n, checked_mul(b.tiles_l, static_cast<i64>(p.sk.splits))};
  }
  return p;
}

u64 sm100_stream_k_linear_idx(const Sm100StreamKPlan& p, i64 m, i64 n, i64 l) {
  const i64 cm = p.config.base.cluster_m, cn = p.config.base.cluster_n;
  // truncate_to_cluster_size_m / _n: the first CTA of the block's preferred cluster (the SM90
  // params' major and minor divisors are cluster m and n in either raster).
  const u64 start_m = static_cast<u64>((m / cm) * cm), start_n = static_cast<u64>((n / cn) * cn);
  const u64 gx = static_cast<u64>(p.grid[0]), gy = static_cast<u64>(p.grid[1]);
  const u64 cluster_idx = gy * start_m + start_n;
  const u64 sm_count = gx * gy;
  const u64 cluster_start_linear_id = sm_count * static_cast<u64>(l) + cluster_idx;
  const u64 cta_m = static_cast<u64>(m) - start_m, cta_n = static_cast<u64>(n) - start_n;
  // divmod_cluster_shape_minor_: cluster m along n, cluster n along m.
  if (p.sk.base.raster == RasterAlong::n) return cluster_start_linear_id + static_cast<u64>(cm) * cta_n + cta_m;
  return cluster_start_linear_id + static_cast<u64>(cn) * cta_m + cta_n;
}

std::vector<Work> sm100_stream_k_visits(const Sm100StreamKPlan& p, i64 cta) {
  return collect_walk([&](const WorkVisitor& v) { sm100_stream_k_walk(p, cta, v); });
}

void sm100_stream_k_walk(const Sm100StreamKPlan& p, i64 cta, const WorkVisitor& visit) {
  const i64 gx = p.grid[0], gy = p.grid[1];
  // initial_work_tile_info: swizzle_and_rasterize with no swizzle and along-m is blockIdx itself.
  const i64 m = cta % gx, n = (cta / gx) % gy, z = cta / (gx * gy);
  if (p.path == Sm100StreamKPath::stream_k) {
    // convert_work: to_linear_idx, get_current_work_for_linear_idx; fetch_next_work:
    // continue_current_work while true.
    (void)stream_k_unit_walk(p.config, p.sk, sm100_stream_k_linear_idx(p, m, n, z), 0, visit);
    return;
  }
  Work w;
  w.m = m, w.n = n;
  const i64 k = static_cast<i64>(p.sk.k_tiles_per_output_tile);
  if (p.path == Sm100StreamKPath::data_parallel) {
    w.l = z, w.k_begin = 0, w.k_end = k;
    (void)visit(w);
    return;
  }
  // is_split_k: divmod_splits_(L_idx, Split_idx, z); the first big_units_ splits take one more k block.
  const i64 splits = static_cast<i64>(p.sk.splits), big = static_cast<i64>(p.sk.big_units);
  const i64 per_split = static_cast<i64>(p.sk.k_tiles_per_sk_unit);
  const i64 split = z % splits;
  w.l = z / splits;
  w.k_begin = split * per_split + (split < big ? split : big);
  w.k_end = w.k_begin + per_split + (split < big ? 1 : 0);
  (void)visit(w);
}

}  // namespace layoutproof::raster
