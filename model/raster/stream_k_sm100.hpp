#pragma once
// sm100-stream-k: PersistentTileSchedulerSm100StreamK (CUTLASS 4.x, commit 7107b05), the Blackwell
// stream-K scheduler: the SM90 stream-K unit assignment (model/raster/stream_k.hpp) fed with work
// ids that the cluster launch control (CLC) hardware hands out, as PersistentTileSchedulerSm100
// (model/raster/persistent_sm100.hpp) gets them.
//   host   tile_scheduler_params.h PersistentTileSchedulerSm100StreamKParams::initialize: sk_params_
//          the SM90 stream-K params (every heuristic of stream_k.hpp) with
//          bypass_sm90_occupancy_calculation = true; sm100_params_ the SM100 params with max swizzle 0
//          and raster along-m (no swizzle, no grid swap: the SM100 map is the identity).
//          get_grid_shape: with stream-K units (sk_units_ > 0), waves of sk_units_ CTAs,
//          grid (sk_units_ / cluster n, cluster n, ceil(units_per_problem_ / sk_units_)); else the
//          problem blocks (the tiles rounded up to whole clusters) times the splits along z,
//          grid (blocks m, blocks n, L * splits).
//   device sm100_tile_scheduler_stream_k.hpp: initial_work_tile_info (the SM100 scheduler's
//          swizzle_and_rasterize of blockIdx, the identity here, then convert_work); convert_work's
//          three paths: has_sk_work: to_linear_idx (the block's cluster, cluster_idx =
//          gridDim.y * start m + start n, plus gridDim.x * gridDim.y * z, plus the CTA's place in its
//          cluster, minor-major as the SM90 scheduler numbers it) and the SM90
//          get_current_work_for_linear_idx; is_split_k: the block's own tile, l = z / splits, split =
//          z % splits, k range split * (K / splits) + min(split, K % splits), one more k block for the
//          first K % splits splits; else (is_dp_only) the block's own tile, all its k blocks.
//          fetch_next_work: continue_current_work (the SM90 continue_current_work_for_linear_idx: a
//          stream-K unit's walk back over its tiles) while it returns true, then a CLC id through
//          convert_work.
//
// The schedule with no cluster cancelled (what the model gives each CTA): the CTA at block
// (x, y, z) of the grid computes its own block's work, convert_work(x, y, z), then its
// continue_current_work walk, and nothing more (every cluster was launched: no try_cancel
// succeeds). In stream-K mode that is the SM90 unit of linear index to_linear_idx(x, y, z), a
// bijection from the grid onto [0, waves * sk_units_) (indices at or past units_per_problem_ are
// invalid: no work); the first sk_units_ indices are the stream-K units, the rest data-parallel
// tiles sk_tiles_, sk_tiles_ + 1, ... through the SM90 raster and swizzle.
//
// Why the claims over that schedule speak for every order the CLC hardware may pick:
//   - Every cluster of the grid is either launched (its CTAs start with their own blockIdx) or
//     cancelled by exactly one try_cancel, whose first CTA id goes to every CTA of the requesting
//     cluster; each adds its own block_id_in_cluster (swizzle_and_rasterize's offsets), so the CTA
//     at offset (i, j) receives block (cx * cm + i, cy * cn + j, z) of the cancelled cluster: the
//     very block whose work the no-cancel schedule gives the CTA at that block. (This needs the
//     launched cluster to be the preferred one, which the stream-K can_implement demands: the
//     fallback cluster shape must equal it.)
//   - convert_work and continue_current_work read only that block, the params and the state
//     convert_work itself sets (the linear index, unit_iter_start): the SM90 scheduler recomputes
//     the CTA's place in its cluster from the linear index (get_current_work_cta_m_n_in_cluster),
//     so a block's work units are the same whichever CTA computes them, whenever.
//   So in every order the units computed are the union over the grid's blocks of their no-cancel
//   work, each block once: exactly-once, k-exactly-once's partition of every tile's k blocks,
//   in-range (properties of that union) and launches (of the grid) hold for every order iff they
//   hold here. balance is reported per block (per CLC work id), not per SM: with CLC an SM computes
//   several blocks' work. The fix-up run of k-exactly-once puts every block resident at once; its
//   success shows that no unit's wait depends, directly or through other waits, on itself (each
//   waits only on stream-K units, linear indices below sk_units_, the z = 0 wave). It does not
//   show that the hardware keeps the awaited units' clusters resident or launchable: the grid is
//   larger than the device by design, and a deterministic wait on a stream-K unit whose cluster
//   can be neither launched nor cancelled because every slot holds a waiting CTA is outside it.
//
// Not modelled: ForceDataParallel (a tile N of 192 forces the data-parallel decomposition: give
// --decomposition data-parallel, the splits asked are then ignored); ktile_start_alignment_count 2
// (even k starts, which sm100_sparse_gemm_tma_warpspecialized.hpp asks for; the other kernels pass
// 1); fallback clusters (refused by can_implement, as above).
//
// Worked example: tiles 9x1x1, k tiles 20, 4 SMs, cluster 1x1, raster heuristic (along-n): the
// SM90 heuristic keeps 4 data-parallel tiles and makes the other 5 stream-K tiles, 100 k blocks, in
// 4 units of 25; units_per_problem_ 8, so grid 4x1x2 (two waves of 4). Block (x, 0, z) has linear
// index 4 z + x. The z = 0 blocks are the stream-K units, each moved to tile boundaries when within
// 8 k blocks of one: CTA 0 computes tile (m 0) whole; CTA 1 k [0, 10) of tile (m 2), then walks
// back to tile (m 1) whole; CTA 2 tile (m 3) whole, then k [10, 20) of tile (m 2), its final split
// (the fix-up: it waits until CTA 1's lock reaches 10); CTA 3 tile (m 4). The z = 1 blocks, CTAs
// 4..7, are the data-parallel tiles (m 5..8), all 20 k blocks each. (sm90-stream-k runs the same
// units on a 1x4x1 grid: CTA 0 tile (m 0), then tile (m 5).) tests/raster/raster_cli_test.sh
// traces it.
#include <array>
#include <cstdint>
#include <vector>

#include "model/raster/stream_k.hpp"

namespace layoutproof::raster {

// The configuration: the SM90 stream-K scheduler's (the SM100 params take the same arguments), a
// type of its own so that the claims and the queries tell the two kinds apart.
struct Sm100StreamKConfig {
  StreamKConfig sk;
};

// convert_work's branch, fixed by the params for the whole grid.
enum class Sm100StreamKPath { stream_k, split_k, data_parallel };

struct Sm100StreamKPlan {
  StreamKConfig config;                          // the configuration, bypass_sm90_occupancy set
  StreamKPlan sk;                                // sk_params_
  Sm100StreamKPath path = Sm100StreamKPath::data_parallel;
  std::array<std::int64_t, 3> grid{1, 1, 1};     // get_grid_shape
  std::int64_t blocks_m = 0, blocks_n = 0;       // problem_blocks: the tiles rounded up to whole clusters
};

// LayoutError for what the SM90 stream-K params refuse (validate(StreamKConfig)); a grid past CUDA's
// limits (the waves along z over 65535) is the launches claim's to refute, not an error.
void validate(const Sm100StreamKConfig& c);

// PersistentTileSchedulerSm100StreamKParams::initialize and get_grid_shape (c.sk.bypass_sm90_occupancy
// is ignored: these params always bypass).
Sm100StreamKPlan plan_sm100_stream_k(const Sm100StreamKConfig& c);

// to_linear_idx for the CTA tile (m, n, l) that swizzle_and_rasterize gives (stream-K path).
std::uint64_t sm100_stream_k_linear_idx(const Sm100StreamKPlan& p, std::int64_t m, std::int64_t n, std::int64_t l);

// The CTA x + gx * (y + gy * z) of plan.grid: its own block's work and its continue_current_work
// walk (the schedule with no cluster cancelled), iterations from 0; empty for an invalid unit.
void sm100_stream_k_walk(const Sm100StreamKPlan& p, std::int64_t cta, const WorkVisitor& visit);
std::vector<Work> sm100_stream_k_visits(const Sm100StreamKPlan& p, std::int64_t cta);

}  // namespace layoutproof::raster
