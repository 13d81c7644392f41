#pragma once
// sm100-persistent: PersistentTileSchedulerSm100 (CUTLASS 4.x, commit 7107b05), whose mapping from a
// launched cluster to a tile differs from sm90-persistent's:
//   host   tile_scheduler_params.h PersistentTileSchedulerSm100Params::initialize / initialize_swizzle:
//          the tiles rounded up to whole clusters (get_tiled_cta_shape_mnl), the raster from the
//          problem's clusters (get_rasterization_order; the heuristic's along-n reverts to along-m
//          when the swapped grid's y, clusters along m times cluster n, would pass 65535), the
//          swizzle size max_swizzle itself (no log, no rounding of the problem; 1 or less: off).
//          sm100_tile_scheduler.hpp get_grid_shape: every tile launched (grid = the rounded tiles),
//          x and y swapped in clusters for along-n (possibly_transpose_grid).
//   device sm100_tile_scheduler.hpp swizzle_and_rasterize (and possibly_transpose_work_tile): a
//          cluster's coordinates, outside the residual clusters past the last whole swizzle in
//          either mode, remapped new_major = major / S + (major_clusters / S) * (minor % S),
//          new_minor = major % S + (minor / S) * S; then transposed back for along-n.
//
// There is no static loop: each CTA starts with its own block's tile (initial_work_tile_info), and
// a CTA that finishes early asks the cluster launch control hardware to cancel a cluster not yet
// launched and takes that cluster's id through the same swizzle_and_rasterize. Which CTA computes
// which tile then depends on the hardware, but every cluster id of the grid is computed once,
// launched or cancelled, so a tile is computed exactly once iff the map from the grid to tiles is a
// bijection onto them. The model gives each CTA its own block's unit, the schedule with no cluster
// cancelled; the claims hold for every order the hardware picks.
//
// Example: tiles 4x4x1, cluster 1x1, max swizzle 2, along-m: grid 4x4x1; block (2, 1) is cluster
// (major 2, minor 1): new_major = 2 / 2 + (4 / 2) * (1 % 2) = 3, new_minor = 2 % 2 + (1 / 2) * 2 = 0:
// tile (m 3, n 0).
#include <array>
#include <cstdint>
#include <vector>

#include "model/raster/persistent.hpp"

namespace layoutproof::raster {

struct Sm100Config {
  std::int64_t tiles_m = 1, tiles_n = 1, tiles_l = 1;
  std::int64_t cluster_m = 1, cluster_n = 1;  // powers of two up to 16
  std::int64_t max_swizzle = 1;               // a power of two; 1: no swizzle
  RasterOption raster = RasterOption::heuristic;
};

struct Sm100Plan {
  std::array<std::int64_t, 3> grid{1, 1, 1};
  RasterAlong raster = RasterAlong::m;
  std::int64_t swizzle = 0;   // divmod_swizzle_size_.divisor (0: off)
  std::int64_t blocks_m = 0, blocks_n = 0;  // the tiles rounded up to whole clusters
};

// LayoutError for extents below 1 or past 2^31 (2^40 in all), clusters and swizzles that are not
// powers of two, and a grid past CUDA's limits (y or z over 65535).
void validate(const Sm100Config& c);
Sm100Plan plan_sm100(const Sm100Config& c);

// swizzle_and_rasterize for the block (bx, by, bz) of plan.grid: its tile (m, n, l).
std::array<std::int64_t, 3> sm100_tile(const Sm100Config& c, const Sm100Plan& p, std::int64_t bx, std::int64_t by, std::int64_t bz);

// The CTA x + gx * (y + gy * z): its own block's unit (iteration 0).
std::vector<Work> sm100_visits(const Sm100Config& c, const Sm100Plan& p, std::int64_t cta);

}  // namespace layoutproof::raster
