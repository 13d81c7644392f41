// sm100-persistent (model/raster/persistent_sm100.hpp), statement by statement.
#include "model/raster/persistent_sm100.hpp"

#include "model/support/checked.hpp"
#include "model/support/error.hpp"

namespace layoutproof::raster {
namespace {

using i64 = std::int64_t;

}  // namespace

void validate(const Sm100Config& c) {
  PersistentConfig p;
  p.tiles_m = c.tiles_m, p.tiles_n = c.tiles_n, p.tiles_l = c.tiles_l, p.cluster_m = c.cluster_m, p.cluster_n = c.cluster_n;
  p.max_swizzle = c.max_swizzle;
  validate(p);  // extents, cluster, swizzle: the same rules and messages
  const Sm100Plan s = [&] {
    Sm100Plan x;
    x.blocks_m = round_up(c.tiles_m, c.cluster_m), x.blocks_n = round_up(c.tiles_n, c.cluster_n);
    return x;
  }();
  if (c.tiles_l > 65535) throw LayoutError("--tiles L = " + std::to_string(c.tiles_l) + ": the grid's z is at most 65535 (CUDA)");
  const i64 y_along_m = s.blocks_n, y_along_n = (s.blocks_m / c.cluster_m) * c.cluster_n;
  if (y_along_m > 65535 && y_along_n > 65535)
    throw LayoutError("the grid's y would be " + std::to_string(std::min(y_along_m, y_along_n)) + " blocks or more: CUDA's limit is 65535");
}

Sm100Plan plan_sm100(const Sm100Config& c) {
  validate(c);
  Sm100Plan p;
  // get_tiled_cta_shape_mnl: the tiles rounded up to whole clusters.
  p.blocks_m = round_up(c.tiles_m, c.cluster_m), p.blocks_n = round_up(c.tiles_n, c.cluster_n);
  const i64 clusters_m = p.blocks_m / c.cluster_m, clusters_n = p.blocks_n / c.cluster_n;  // problem_tiles_m_, _n_
  // initialize_swizzle: get_rasterization_order on the clusters; the heuristic's along-n reverts
  // to along-m when the swapped grid's y would pass 65535.
  if (c.raster == RasterOption::heuristic) {
    p.raster = clusters_n > clusters_m ? RasterAlong::m : RasterAlong::n;
    if (p.raster == RasterAlong::n && clusters_m * c.cluster_n > 65535) p.raster = RasterAlong::m;
  } else {
    p.raster = c.raster == RasterOption::along_n ? RasterAlong::n : RasterAlong::m;
  }
  p.swizzle = c.max_swizzle <= 1 ? 0 : c.max_swizzle;
  // get_grid_shape: the rounded tiles; possibly_transpose_grid swaps the clusters of x and y.
  p.grid = {p.blocks_m, p.blocks_n, c.tiles_l};
  if (p.raster == RasterAlong::n) p.grid = {clusters_n * c.cluster_m, clusters_m * c.cluster_n, c.tiles_l};
  return p;
}

std::array<i64, 3> sm100_tile(const Sm100Config& c, const Sm100Plan& p, i64 bx, i64 by, i64 bz) {
  const i64 cm = c.cluster_m, cn = c.cluster_n;
  i64 cta_m = bx, cta_n = by;
  if (p.swizzle > 0) {
    const i64 s = p.swizzle;
    const i64 major = cta_m / cm, off_m = cta_m % cm, minor = cta_n / cn, off_n = cta_n % cn;
    const i64 major_clusters = p.grid[0] / cm;
    const i64 major_div_s = major_clusters / s, first_residual_major = major_div_s * s;
    const i64 first_residual_minor = ((p.grid[1] / cn) / s) * s;
    i64 new_major = major, new_minor = minor;
    if (major < first_residual_major && minor < first_residual_minor) {
      new_major = major / s + major_div_s * (minor % s);
      new_minor = major % s + (minor / s) * s;
    }
    cta_m = new_major * cm + off_m;
    cta_n = new_minor * cn + off_n;
  }
  // possibly_transpose_work_tile.
  if (p.raster == RasterAlong::n) {
    const i64 m = (cta_n / cn) * cm + cta_m % cm, n = (cta_m / cm) * cn + cta_n % cn;
    cta_m = m, cta_n = n;
  }
  return {cta_m, cta_n, bz};
}

std::vector<Work> sm100_visits(const Sm100Config& c, const Sm100Plan& p, i64 cta) {
  const i64 bx = cta % p.grid[0], by = (cta / p.grid[0]) % p.grid[1], bz = cta / (p.grid[0] * p.grid[1]);
  const auto t = sm100_tile(c, p, bx, by, bz);
  Work w;
  w.m = t[0], w.n = t[1], w.l = t[2];
  return {w};
}

}  // namespace layoutproof::raster
