#pragma once
// Persistent tile schedulers: which output tiles each CTA of a persistent GEMM computes, in which
// order, modelled exactly on CUTLASS 4.x's own code (commit 7107b05). A persistent kernel launches a
// grid smaller than the problem and walks each CTA over many tiles:
//
//   idx = the CTA's first linear index; while (work = tile(idx)).valid: compute work; idx += grid size
//
// Definitions (CTA tiles throughout; a "tile" is one CTA's output tile):
//   tiles (M, N, L)     the problem's extent in CTA tiles (M = ceil(problem m / tile m), ...)
//   cluster (cm, cn)    the thread-block cluster; powers of two (FastDivmodU64Pow2)
//   max_swizzle         the largest swizzle the user allows (1, 2, 4, 8, ...)
//   raster              along-m, along-n, or heuristic (along-m when N > M after rounding)
//   sms                 the SM count the host gives get_grid_shape (hw_info.sm_count)
//
// sm90-persistent, PersistentTileSchedulerSm90 (cutlass/gemm/kernel/sm90_tile_scheduler.hpp,
// static_tile_scheduler.hpp, tile_scheduler_params.h):
//   host:   problem_blocks = tiles rounded up to cluster multiples (get_tiled_cta_shape_mnl);
//           log_swizzle = get_log_swizzle_size(M, N, max_swizzle); blocks rounded up to
//           (1 << log_swizzle) * cluster along m and n (initialize); raster (get_rasterization_order);
//           the grid (get_grid_shape: cluster-major, truncated by the problem's blocks; cluster size 1:
//           the SM count; larger clusters: max_active_clusters, else get_max_cta_occupancy's GPC rule).
//   device: the first linear index is blockIdx.x + blockIdx.y * gridDim.x along n (x * gridDim.y + y
//           along m); a linear index below blocks_per_problem maps to (m, n, l) through
//           get_work_idx_m_and_n's swizzle; advance adds the grid's size.
// The rounding up means the real code visits tiles outside the problem when the tiles are not a
// multiple of the swizzle and cluster: those work units carry m >= M or n >= N (the kernel's
// predication makes them write nothing); `in-range` says so.
//
// Example: tiles (4, 4, 1), cluster 1x1, max_swizzle 1, along-n, sms 4: grid (1, 4, 1); CTA c
// takes linear indices c, c + 4, c + 8, c + 12, which along n are the tiles (m 0, n c), (1, c),
// (2, c), (3, c): the column n = c, top to bottom.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace layoutproof::raster {

enum class RasterOption { heuristic, along_m, along_n };
enum class RasterAlong { m, n };

struct PersistentConfig {
  std::int64_t tiles_m = 1, tiles_n = 1, tiles_l = 1;  // the problem in CTA tiles
  std::int64_t cluster_m = 1, cluster_n = 1;           // powers of two
  std::int64_t max_swizzle = 1;
  RasterOption raster = RasterOption::heuristic;
  std::int64_t sms = 132;
  std::int64_t max_active_clusters = 0;                // 0: get_max_cta_occupancy's rule
};

// One work unit a CTA computes: its tile (m, n, l) of problem `group` at iteration `iter` of the
// CTA's loop (group 0 for the one-problem schedulers).
// Stream-K work units also carry their k-block range [k_begin, k_end) of the tile (0 and the
// tile's k blocks for the other schedulers, which always compute whole tiles).
struct Work {
  std::int64_t iter = 0, m = 0, n = 0, l = 0, group = 0;
  std::int64_t k_begin = 0, k_end = 0;
};

// A CTA's work loop, streamed: each *_walk calls the visitor on every unit in loop order and stops
// when it returns false, holding nothing (raster trace writes each unit as it comes: a loop of 2^31
// units costs no memory). Each *_visits collects its walk.
using WorkVisitor = std::function<bool(const Work&)>;

struct PersistentPlan {
  std::array<std::int64_t, 3> grid{1, 1, 1};  // get_grid_shape
  int log_swizzle = 0;
  RasterAlong raster = RasterAlong::n;
  std::int64_t blocks_m = 0, blocks_n = 0;    // the problem's blocks after the swizzle's rounding
  std::int64_t blocks_per_problem = 0;        // blocks_m * blocks_n * L
};

// LayoutError for a configuration the real code cannot take (an extent below 1, a cluster extent
// that is not a power of two, a max_swizzle that is not one, more than 2^31 tiles along a mode or
// 2^40 in all), naming what and where.
void validate(const PersistentConfig& c);

// The host side: CUTLASS's initialize and get_grid_shape for this configuration. The stream-K
// scheduler asks get_grid_shape not to truncate the grid by the problem's size (a grid of all the
// SMs even for one tile); the SM100 stream-K params also bypass the occupancy rule
// (bypass_sm90_occupancy_calculation: a cluster of 2 or more CTAs without max_active_clusters gets
// the SM count itself, not get_max_cta_occupancy's GPC share).
PersistentPlan plan_persistent(const PersistentConfig& c, bool truncate_by_problem_size = true, bool bypass_sm90_occupancy_calculation = false);

// sm90_tile_scheduler.hpp get_work_idx_m_and_n: the tile (m, n) of a linear index's position in its
// batch, `blk_per_grid_dim` (the remainder divided by the cluster's minor extent), for the CTA at
// (cta_m_in_cluster, cta_n_in_cluster) of its cluster. Both results narrowed to int32_t as there.
std::array<std::int64_t, 2> work_idx_m_and_n(const PersistentConfig& c, const PersistentPlan& p, std::uint64_t blk_per_grid_dim,
                                             std::uint64_t cta_m_in_cluster, std::uint64_t cta_n_in_cluster);

// The device side for one CTA: the linear block index `cta` (x + gx * (y + gy * z) of plan.grid),
// its work units in loop order.
void persistent_walk(const PersistentConfig& c, const PersistentPlan& plan, std::int64_t cta, const WorkVisitor& visit);
std::vector<Work> persistent_visits(const PersistentConfig& c, const PersistentPlan& plan, std::int64_t cta);

// The work unit of one linear index (get_current_work_for_linear_idx with get_work_idx_m_and_n),
// for the CTA at block (bx, by) of the grid; valid = linear < blocks_per_problem.
struct WorkTile {
  bool valid = false;
  std::int64_t m = 0, n = 0, l = 0;
};
WorkTile persistent_tile(const PersistentConfig& c, const PersistentPlan& plan, std::uint64_t linear, std::int64_t bx, std::int64_t by);

std::string to_string(RasterAlong r);

// sm90-group, PersistentTileSchedulerSm90Group (sm90_tile_scheduler_group.hpp, tile_scheduler_params.h
// PersistentTileSchedulerSm90GroupParams), with the host's problem shapes given (as a grouped GEMM
// launched from the host has them): each group's extent in CTA tiles.
//   host:   total = sum over groups of its tiles rounded up to whole clusters (get_tiled_cta_shape_mnl);
//           problem blocks (total, 1, 1); blocks_across_problem_ = total; raster from
//           (round_up(total, cm), round_up(1, cn)); the grid as get_grid_shape.
//   device: each group's tiles rounded up to (1 << its own swizzle) * cluster (its log swizzle from
//           its own M, N); the groups laid end to end in that rounded size; a linear index past the
//           host's blocks_across_problem_ is invalid; the group found by scanning forward from the
//           CTA's current one (the warp's speculative search, done in order); the tile as
//           get_work_idx_m_and_n with the minor offset blockIdx.x (along n) or blockIdx.y (along m).
// The host's bound counts cluster-rounded tiles, the device swizzle-rounded ones: with a swizzle
// of 2 or more, linear indices of the last groups' real tiles can lie past the bound, and those
// tiles are never computed. `corrected` bounds the device by the swizzle-rounded total instead.
//
// sm100-group, PersistentTileSchedulerSm100Group (sm100_tile_scheduler_group.hpp; tile_scheduler_params.h
// PersistentTileSchedulerSm100GroupParams): a wrapper around the sm90 scheduler above, not around
// sm100_static_tile_scheduler.hpp and not driven by the cluster launch control (IsDynamicPersistent
// is the sm90 scheduler's false). Its params_sm90_ are the sm90 group's, initialize'd from the CTA
// tile (to_underlying_arguments: cta_shape = shape_div(tile_shape, atom_thr_shape)); its device
// calls (constructor, initial_work_tile_info, advance_to_next_work, fetch_next_work) forward to the
// sm90 scheduler, so each CTA runs the static loop above: its linear index, then + the grid's size.
// The grouped kernel (sm100_gemm_array_tma_warpspecialized.hpp) calls advance_to_next_work once a
// work unit in its scheduler warp, so the trace is every CTA's real sequence. What differs is the
// host's grid, the wrapper's get_grid_shape:
//   - get_tiled_cta_shape_mnl is called with the kernel's TileShape, the MMA tile, not the CTA tile:
//     a 2-SM MMA (AtomThrShape M = atom_m = 2) counts each group's tiles along m as ceil(M / atom_m)
//     (ceil(ceil(m / cta) / 2) = ceil(m / (2 cta))), rounded up to the cluster; the device's bound
//     (blocks_across_problem_, from the CTA tile) does not change.
//   - PersistentTileSchedulerSm100GroupParams::get_grid_shape, with the raster of the params: for a
//     static cluster shape the sm90 rule with Blackwell's 20-SM GPCs (max_sm_per_gpc = 20); for a
//     cluster shape given at run time (hw_info.cluster_shape, is_static_cluster_shape false) the
//     "preferred clusters" grid: the major extent ((min(sms, blocks) / c_minor) / c_major) * c_major.
// A run-time cluster's fallback shape (hw_info.cluster_shape_fallback) changes no work unit: the
// device derives its linear index and minor offset from blockIdx and the params' cluster shape only.
// Example: groups 4x1, cluster 2x1, atom_m 2, static, 148 SMs, along-m: the host counts
// round_up(ceil(4 / 2), 2) = 2 blocks and gives grid 2x1x1 (min(148 / 1, 2 / 1)); the device's bound is
// round_up(4, 2) = 4: CTA 0 takes linear 0, 2, tiles (m 0, n 0), (2, 0); CTA 1 linear 1, 3: (1, 0),
// (3, 0). Every tile once, on half the CTAs a 1-SM MMA gets. groups 2x3, max swizzle 4, 8 SMs drops
// tile (1, 2) as sm90-group does (the device code is the same).
struct GroupConfig {
  std::vector<std::array<std::int64_t, 2>> groups;  // each group's (M, N) in CTA tiles
  std::int64_t cluster_m = 1, cluster_n = 1;
  std::int64_t max_swizzle = 1;
  RasterOption raster = RasterOption::heuristic;
  std::int64_t sms = 132;
  std::int64_t max_active_clusters = 0;
  bool corrected = false;
  // sm100-group's host (its device is sm90-group's): sm100 selects the wrapper's get_grid_shape;
  // atom_m is the AtomThrShape's M (1, or 2 for a 2-SM MMA; the cluster's M a multiple of it);
  // dynamic_cluster: the cluster shape is given at run time (the preferred-cluster grid).
  bool sm100 = false;
  std::int64_t atom_m = 1;
  bool dynamic_cluster = false;
};

struct GroupPlan {
  std::array<std::int64_t, 3> grid{1, 1, 1};
  RasterAlong raster = RasterAlong::n;
  std::int64_t host_blocks = 0;     // blocks_across_problem_
  std::int64_t device_blocks = 0;   // the groups' swizzle-rounded tiles together
  std::int64_t grid_blocks = 0;     // the blocks get_grid_shape truncates by (sm100: of the MMA tile)
};

// LayoutError beyond validate(PersistentConfig)'s: no group, more than 4096, an extent out of
// [1, 2^31], 2^40 tiles in all; atom_m or a dynamic cluster for sm90; atom_m not 1 or 2, or not
// dividing the cluster's M.
void validate(const GroupConfig& c);
GroupPlan plan_group(const GroupConfig& c);
void group_walk(const GroupConfig& c, const GroupPlan& plan, std::int64_t cta, const WorkVisitor& visit);
std::vector<Work> group_visits(const GroupConfig& c, const GroupPlan& plan, std::int64_t cta);

// The units a walk gives, collected.
std::vector<Work> collect_walk(const std::function<void(const WorkVisitor&)>& walk);

}  // namespace layoutproof::raster
