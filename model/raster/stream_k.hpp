#pragma once
// sm90-stream-k: PersistentTileSchedulerSm90StreamK (CUTLASS 4.x, commit 7107b05), host and device
// side, statement by statement:
//   SKP  include/cutlass/gemm/kernel/tile_scheduler_params.h, PersistentTileSchedulerSm90StreamKParams
//        (initialize, stream_k_heuristic, select_decomposition_mode, get_num_sk_tiles,
//        get_num_sk_units, calculate_groups, set_params_basic, set_params_stream_k,
//        adjust_split_count, get_grid_shape with truncate_by_problem_size = false)
//   SK   include/cutlass/gemm/kernel/sm90_tile_scheduler_stream_k.hpp, PersistentTileSchedulerSm90StreamK
//        (the constructor, get_current_work_for_linear_idx, assign_work,
//        get_current_work_iter_start_possible_update_work_tile_k_remaining,
//        update_output_tile_id_and_work_tile_k, update_work_tile_m_n_l,
//        continue_current_work_for_linear_idx, fetch_next_work, advance_to_next_work)
//
// A work unit is (output tile, k-block range [K_idx, K_idx + k_tile_count)). A stream-K unit owns a
// run of consecutive k blocks over several output tiles and walks them backwards (the tile of its
// last k block first: continue_current_work) before the CTA's linear index advances by the grid's
// size. Split-K gives each tile `splits` units; data-parallel one unit of all its k blocks.
//
// Reduction (SK fixup): a tile computed by several units is summed in a workspace guarded by a
// lock counting the k blocks that arrived. The unit with K_idx 0 stores its partial sum; the
// others wait (deterministic: until the lock equals their K_idx; nondeterministic: until it is at
// least 1), add theirs and raise the lock by their k_tile_count; the final split (K_idx +
// k_tile_count = the tile's k blocks) waits until the lock equals its K_idx, adds the workspace to
// its accumulators and computes the epilogue.
//
// Not modelled (the defaults every CUTLASS kernel of this commit uses): epilogue_subtile 1,
// ktile_start_alignment_count 1, bypass_sm90_occupancy_calculation false; separate reduction is
// "temporarily disabled" there (should_perform_separate_reduction returns false), so there are no
// separate-reduction units.
//
// Integer types follow CUTLASS: unit_iter_start and the k counts are uint32_t, the unit bookkeeping
// uint64_t, FastDivmod exact division. Output tiles times k tiles must stay below 2^31 (the
// uint32_t k iteration space); larger configurations are refused.
//
// Worked example: tiles 1x1x1, k tiles 4, splits 2, decomposition split-k: two units, linear index
// 0 computes k [0, 2), index 1 k [2, 4); with 132 SMs the grid is 132 CTAs (untruncated), CTA 0
// takes the first split and CTA 1 the second (the final split, which computes the epilogue).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/raster/persistent.hpp"

namespace layoutproof::raster {

enum class Decomposition { heuristic, data_parallel, split_k, stream_k };
enum class Reduction { deterministic, nondeterministic };

std::string to_string(Decomposition d);  // "heuristic", "data-parallel", "split-k", "stream-k"
std::string to_string(Reduction r);      // "deterministic", "nondeterministic"

struct StreamKConfig {
  PersistentConfig base;        // tiles, cluster, max swizzle, raster, SMs, max active clusters
  std::int64_t k_tiles = 1;     // k blocks per output tile (ceil(K / tile K))
  std::int64_t splits = 1;      // Arguments::splits
  Decomposition decomposition = Decomposition::heuristic;
  Reduction reduction = Reduction::deterministic;
  // SKP initialize's bypass_sm90_occupancy_calculation: get_grid_shape's wave for clusters of 2 or
  // more CTAs (without max_active_clusters) is the SM count itself, not get_max_cta_occupancy's GPC
  // rule. false for the SM90 kernels; the SM100 stream-K params pass true (stream_k_sm100.hpp).
  bool bypass_sm90_occupancy = false;
};

// The Params fields the device side reads, by their CUTLASS names.
struct StreamKPlan {
  PersistentPlan base;          // the underlying scheduler's swizzle, raster, blocks; grid untruncated
  Decomposition mode = Decomposition::data_parallel;  // what select_decomposition_mode chose
  std::uint64_t batch = 1;                 // divmod_batch_
  std::uint64_t clusters_mnl = 1;          // divmod_clusters_mnl_
  std::uint64_t sk_groups = 1;             // divmod_sk_groups_
  std::uint64_t sk_units_per_group = 1;    // divmod_sk_units_per_group_
  std::uint64_t units_per_problem = 0;     // units_per_problem_
  std::uint64_t k_tiles_per_output_tile = 1;  // divmod_tiles_per_output_tile_
  std::uint64_t splits = 1;                // divmod_splits_
  std::uint32_t big_units = 0, big_groups = 0, sk_tiles = 0, sk_units = 0;
  std::uint64_t k_tiles_per_sk_unit = 0;   // divmod_k_tiles_per_sk_unit_
};

// LayoutError for what CUTLASS refuses (can_implement: splits > 1 only with the heuristic or split-K
// decomposition) or the model cannot hold (output tiles times k tiles at 2^31 or more), and for the
// underlying scheduler's bad extents (validate(PersistentConfig)).
void validate(const StreamKConfig& c);

// SKP initialize and get_grid_shape.
StreamKPlan plan_stream_k(const StreamKConfig& c);

// One linear index's work: SK get_current_work_for_linear_idx, then continue_current_work_for_linear_idx
// while it returns true (a stream-K unit's walk back over its tiles; one visit for a data-parallel
// or split-K unit; none past the problem's units). Iterations numbered from first_iter. LayoutError
// when the walk makes more iterations than the problem has k blocks plus one (a walk that would not
// end).
// The walk returns false when the visitor stopped it.
bool stream_k_unit_walk(const StreamKConfig& c, const StreamKPlan& p, std::uint64_t linear_idx, std::int64_t first_iter,
                        const WorkVisitor& visit);
std::vector<Work> stream_k_unit_visits(const StreamKConfig& c, const StreamKPlan& p, std::uint64_t linear_idx, std::int64_t first_iter);

// One CTA's work loop (the cooperative kernel's `while (work.is_valid())` with fetch_next_work):
// its linear indices' units in order (its first, then each advance_to_next_work's step of the grid's
// size), each with its k range.
void stream_k_walk(const StreamKConfig& c, const StreamKPlan& p, std::int64_t cta, const WorkVisitor& visit);
std::vector<Work> stream_k_visits(const StreamKConfig& c, const StreamKPlan& p, std::int64_t cta);

}  // namespace layoutproof::raster
