// The SM90 stream-K scheduler (model/raster/stream_k.hpp), statement by statement; SKP and SK name
// the CUTLASS files as the header does.
#include "model/raster/stream_k.hpp"

#include <algorithm>

#include "model/support/checked.hpp"
#include "model/support/error.hpp"

namespace layoutproof::raster {
namespace {

using i64 = std::int64_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u64 kMinItersPerSkUnit = 8;  // SKP min_iters_per_sk_unit_
constexpr u32 kMaxSkGroups = 8;        // SKP max_sk_groups_

// SKP get_num_sk_tiles.
u32 num_sk_tiles(u64 output_tiles, u64 ctas_per_wave, u64 cluster_size, u32 k_tiles_per_output_tile, Decomposition mode) {
  const u32 full_waves = static_cast<u32>(output_tiles / ctas_per_wave);
  const u32 total_waves = static_cast<u32>((output_tiles + ctas_per_wave - 1) / ctas_per_wave);
  if (mode == Decomposition::data_parallel || mode == Decomposition::split_k) return 0;
  const u32 dp_waves = full_waves > 1 ? full_waves - 1 : 0;
  const u64 dp_tiles = u64{dp_waves} * ctas_per_wave;
  u64 sk_tiles = output_tiles - dp_tiles;
  if (full_waves == total_waves || k_tiles_per_output_tile <= kMinItersPerSkUnit) return 0;
  if (mode == Decomposition::heuristic) {
    const u64 tail_tiles = output_tiles - (u64{full_waves} * ctas_per_wave);
    if (2 * tail_tiles >= ctas_per_wave) return 0;
  }
  sk_tiles = (sk_tiles / cluster_size) * cluster_size;
  return static_cast<u32>(sk_tiles);
}

// SKP get_num_sk_units.
u64 num_sk_units(u64 cluster_size, u64 ctas_per_sk_wave, u32 sk_tiles, u32 k_tiles_per_output_tile) {
  const u64 k_tiles_sk_total = u64{k_tiles_per_output_tile} * sk_tiles;
  u64 min_sized_sk_units = k_tiles_sk_total / kMinItersPerSkUnit;
  min_sized_sk_units = (min_sized_sk_units / cluster_size) * cluster_size;
  return std::min(ctas_per_sk_wave, min_sized_sk_units);
}

// SKP calculate_groups (do_separate_reduction is false: should_perform_separate_reduction).
u32 calculate_groups(RasterAlong order, u32 problem_blocks_m, u32 problem_blocks_n, const PersistentConfig& c, u64 cluster_size,
                     u64 sk_cluster_tiles, u64 sk_units, u32 k_tiles_per_output_tile) {
  const u32 max_groups_problem = order == RasterAlong::m ? problem_blocks_m / static_cast<u32>(c.cluster_m)
                                                         : problem_blocks_n / static_cast<u32>(c.cluster_n);
  u32 groups = std::min(max_groups_problem, kMaxSkGroups);
  u32 fallback_groups = 0;
  const u64 sk_cluster_units = sk_units / cluster_size;
  const auto sk_splits_too_small = [&](u32 g) {
    const u64 total_sk_cluster_tiles = (sk_cluster_tiles / g) * cluster_size;
    const u64 total_sk_k_tiles = total_sk_cluster_tiles * k_tiles_per_output_tile;
    const u64 k_tiles_per_sk_unit = total_sk_k_tiles / (sk_units / g);
    return k_tiles_per_sk_unit < kMinItersPerSkUnit;
  };
  const auto is_ideal = [&](u32 g) { return sk_cluster_units % g == 0 && sk_cluster_tiles % g == 0 && !sk_splits_too_small(g); };
  const auto is_valid = [&](u32 g) { return sk_cluster_units % g == 0 && !sk_splits_too_small(g); };
  while (groups > 1 && !is_ideal(groups)) {
    if (fallback_groups == 0 && is_valid(groups)) fallback_groups = groups;
    --groups;
  }
  if (groups == 1 && fallback_groups > 0) groups = fallback_groups;
  return groups;
}

// SKP adjust_split_count (ktile_start_alignment_count 1).
i64 adjust_split_count(i64 splits, i64 sm_count, i64 k_tiles_per_output_tile) {
  if (splits > sm_count) splits = sm_count;
  if (splits > k_tiles_per_output_tile) splits = k_tiles_per_output_tile;
  return splits;
}

}  // namespace

std::string to_string(Decomposition d) {
  switch (d) {
    case Decomposition::heuristic: return "heuristic";
    case Decomposition::data_parallel: return "data-parallel";
    case Decomposition::split_k: return "split-k";
    case Decomposition::stream_k: return "stream-k";
  }
  return "?";
}

std::string to_string(Reduction r) { return r == Reduction::deterministic ? "deterministic" : "nondeterministic"; }

void validate(const StreamKConfig& c) {
  validate(c.base);
  if (c.k_tiles < 1 || c.k_tiles > (i64{1} << 31) - 1)
    throw LayoutError("--k-tiles " + std::to_string(c.k_tiles) + ": must be from 1 to 2^31 - 1 (k blocks per output tile)");
  if (c.splits < 1 || c.splits > (i64{1} << 20)) throw LayoutError("--splits " + std::to_string(c.splits) + ": must be from 1 to 2^20");
  if (c.splits > 1 && c.decomposition != Decomposition::heuristic && c.decomposition != Decomposition::split_k)
    throw LayoutError("--splits " + std::to_string(c.splits) + " with --decomposition " + to_string(c.decomposition) +
                      ": CUTLASS's can_implement refuses splits > 1 unless the decomposition is heuristic or split-k");
  const PersistentPlan p = plan_persistent(c.base, false);
  if (checked_mul(p.blocks_per_problem, c.k_tiles) > (i64{1} << 31) - 1)
    throw LayoutError("the problem has " + std::to_string(p.blocks_per_problem) + " tiles (after rounding) of " + std::to_string(c.k_tiles) +
                      " k blocks: 2^31 k iterations or more, past the uint32_t k iteration space the scheduler computes in");
}

// SKP initialize -> stream_k_heuristic -> select_decomposition_mode -> set_params.
StreamKPlan plan_stream_k(const StreamKConfig& c) {
  validate(c);
  StreamKPlan p;
  const PersistentConfig& b = c.base;
  p.base = plan_persistent(b, false, c.bypass_sm90_occupancy);  // SKP get_grid_shape: truncate_by_problem_size = false
  const u32 k_tiles_per_output_tile = static_cast<u32>(c.k_tiles);
  const u64 cluster_size = static_cast<u64>(b.cluster_m * b.cluster_n);
  const u64 pbm = static_cast<u64>(p.base.blocks_m), pbn = static_cast<u64>(p.base.blocks_n), pbl = static_cast<u64>(b.tiles_l);
  p.k_tiles_per_output_tile = k_tiles_per_output_tile;

  // select_decomposition_mode.
  u32 groups = 0, sk_tiles = 0, sk_splits = 1;
  u64 sk_units = 0, dp_units = 0, k_tiles_per_group = 0, k_tiles_per_sk_unit = 0, sk_big_groups = 0;
  Decomposition mode = Decomposition::data_parallel;
  if (c.decomposition == Decomposition::split_k || (c.decomposition == Decomposition::heuristic && c.splits > 1)) {
    sk_splits = static_cast<u32>(adjust_split_count(c.splits, b.sms, k_tiles_per_output_tile));
    mode = Decomposition::split_k;
  } else {
    const u64 output_tiles = pbm * pbn * pbl;
    const u64 ctas_per_wave = static_cast<u64>(p.base.grid[0] * p.base.grid[1]);
    const u64 ctas_per_wave_in_full_clusters = (ctas_per_wave / cluster_size) * cluster_size;
    // An empty grid (fewer SMs than a cluster's share): CUTLASS would divide by ctas_per_wave = 0 in
    // get_num_sk_tiles. No CTA runs; exactly-once then names a tile no CTA computes.
    if (ctas_per_wave == 0) return p;
    sk_tiles = num_sk_tiles(output_tiles, ctas_per_wave, cluster_size, k_tiles_per_output_tile, c.decomposition);
    const u64 dp_tiles = output_tiles - sk_tiles;
    dp_units = dp_tiles;
    sk_units = num_sk_units(cluster_size, ctas_per_wave_in_full_clusters, sk_tiles, k_tiles_per_output_tile);
    if (c.decomposition == Decomposition::data_parallel || (c.decomposition == Decomposition::heuristic && sk_tiles == 0) || sk_units == 0) {
      mode = Decomposition::data_parallel;
    } else {
      const u64 sk_cluster_tiles = sk_tiles / cluster_size;
      groups = calculate_groups(p.base.raster, static_cast<u32>(pbm), static_cast<u32>(pbn), b, cluster_size, sk_cluster_tiles, sk_units,
                                k_tiles_per_output_tile);
      const u64 sk_units_per_group = sk_units / groups;
      const u64 sk_tiles_per_group = (sk_cluster_tiles / groups) * cluster_size;
      sk_big_groups = sk_cluster_tiles % groups;
      k_tiles_per_group = u64{k_tiles_per_output_tile} * sk_tiles_per_group;
      k_tiles_per_sk_unit = k_tiles_per_group / sk_units_per_group;
      if (c.decomposition == Decomposition::heuristic && sk_tiles < sk_units && sk_units % sk_tiles == 0) {
        sk_splits = static_cast<u32>(sk_units / sk_tiles);
        mode = Decomposition::split_k;
      } else {
        mode = Decomposition::stream_k;
      }
    }
  }
  p.mode = mode;

  // set_params: set_params_basic for data-parallel (splits 1) and split-K (sk_splits), else
  // set_params_stream_k.
  if (mode != Decomposition::stream_k) {
    const u32 splits = mode == Decomposition::data_parallel ? 1u : sk_splits;
    p.batch = pbm * pbn;
    p.sk_groups = 1;
    p.clusters_mnl = (pbm * pbn * pbl) / cluster_size;
    p.splits = splits;
    p.units_per_problem = pbm * pbn * pbl;
    p.big_units = k_tiles_per_output_tile % splits;
    p.k_tiles_per_sk_unit = k_tiles_per_output_tile / splits;
    p.sk_tiles = 0, p.sk_units = 0, p.sk_units_per_group = 1;
  } else {
    p.batch = pbm * pbn;  // the underlying scheduler's divmod_batch_
    p.sk_groups = groups;
    p.sk_units_per_group = sk_units / groups;
    p.clusters_mnl = sk_units / cluster_size;
    p.splits = 1;
    p.units_per_problem = static_cast<u32>(dp_units + sk_units);
    p.big_units = static_cast<u32>((k_tiles_per_group % sk_units) / cluster_size);
    p.big_groups = static_cast<u32>(sk_big_groups);
    p.sk_tiles = sk_tiles;
    p.sk_units = static_cast<u32>(sk_units);
    p.k_tiles_per_sk_unit = static_cast<u32>(k_tiles_per_sk_unit);
  }
  return p;
}

namespace {

// SK WorkTileInfo (no separate-reduction units in this commit).
struct SkWork {
  i64 m = -1, n = -1, l = -1;
  std::int32_t k_idx = -1;
  u32 k_tile_count = 0, k_tile_remaining = 0;
  bool valid() const { return k_tile_count > 0; }
};

struct Sk {
  const StreamKConfig& c;
  const StreamKPlan& p;
  u64 major() const { return static_cast<u64>(p.base.raster == RasterAlong::n ? c.base.cluster_n : c.base.cluster_m); }
  u64 minor() const { return static_cast<u64>(p.base.raster == RasterAlong::n ? c.base.cluster_m : c.base.cluster_n); }
  u64 cluster_size() const { return major() * minor(); }
  u64 div_cluster_size(u64 v) const { return (v / major()) / minor(); }
  u64 tiles_per_output_tile() const { return p.k_tiles_per_output_tile; }

  // SK get_current_work_cta_m_n_in_cluster.
  void cta_m_n_in_cluster(u64 linear_idx, u64& cta_m, u64& cta_n) const {
    const u64 r = linear_idx - div_cluster_size(linear_idx) * cluster_size();
    if (p.base.raster == RasterAlong::n) cta_n = r / minor(), cta_m = r % minor();
    else cta_m = r / minor(), cta_n = r % minor();
  }

  // SK get_current_work_iter_start_possible_update_work_tile_k_remaining.
  u32 iter_start_update_remaining(u64 linear_idx, SkWork& w) const {
    u64 cluster_linear_work_idx = div_cluster_size(linear_idx);
    const u64 group_idx = cluster_linear_work_idx % p.sk_groups;
    cluster_linear_work_idx = cluster_linear_work_idx / p.sk_groups;
    const u64 sk_cluster_tiles = div_cluster_size(p.sk_tiles);
    u64 sk_cluster_tiles_in_group = sk_cluster_tiles / p.sk_groups;
    if (group_idx < p.big_groups) ++sk_cluster_tiles_in_group;
    const u64 sk_tiles_in_group = sk_cluster_tiles_in_group * cluster_size();
    const u64 k_tiles_in_group = sk_tiles_in_group * tiles_per_output_tile();
    const u64 k_tiles_per_unit_in_group = k_tiles_in_group / p.sk_units_per_group;
    const u64 big_units_in_group = div_cluster_size(k_tiles_in_group - (k_tiles_per_unit_in_group * p.sk_units_per_group));
    const u64 split = cluster_linear_work_idx / p.clusters_mnl;
    cluster_linear_work_idx = cluster_linear_work_idx % p.clusters_mnl;
    const bool is_split_k = p.splits > 1;
    const u64 big_unit_cmp_lhs = is_split_k ? split : cluster_linear_work_idx;
    const u64 big_unit_cmp_rhs = is_split_k ? u64{p.big_units} : big_units_in_group;
    const u64 linear_idx_mult = is_split_k ? tiles_per_output_tile() : k_tiles_per_unit_in_group;
    const u64 k_tiles_per_split = is_split_k ? p.k_tiles_per_sk_unit : k_tiles_per_unit_in_group;
    u32 unit_iter_start = static_cast<u32>((linear_idx_mult * cluster_linear_work_idx) + (k_tiles_per_split * split));
    u64 k_tiles_in_my_split = k_tiles_per_split;
    if (big_unit_cmp_lhs < big_unit_cmp_rhs) {
      unit_iter_start = static_cast<u32>(unit_iter_start + big_unit_cmp_lhs);
      ++k_tiles_in_my_split;
    } else {
      unit_iter_start = static_cast<u32>(unit_iter_start + big_unit_cmp_rhs);
    }
    // divmod_tiles_per_output_tile_ is a FastDivmod of int: the dividend and remainder are int,
    // compared with the uint32_t min_iters_per_sk_unit_ as unsigned.
    const i64 divisor = static_cast<i64>(tiles_per_output_tile());
    if (!is_split_k) {
      const i64 start_tile_k_tile = static_cast<i64>(static_cast<std::int32_t>(unit_iter_start)) % divisor;
      if (static_cast<u32>(start_tile_k_tile) < kMinItersPerSkUnit) {
        unit_iter_start = static_cast<u32>(unit_iter_start - static_cast<u32>(start_tile_k_tile));
        k_tiles_in_my_split += static_cast<u64>(start_tile_k_tile);
      } else if (static_cast<u32>(start_tile_k_tile) > static_cast<u32>(divisor - static_cast<i64>(kMinItersPerSkUnit))) {
        const i64 adjustment_tiles = divisor - start_tile_k_tile;
        unit_iter_start = static_cast<u32>(unit_iter_start + static_cast<u32>(adjustment_tiles));
        k_tiles_in_my_split -= static_cast<u64>(adjustment_tiles);
      }
    }
    if (w.k_tile_count == 0) {  // a new unit
      if (!is_split_k) {
        const u32 initial_unit_iter_end = static_cast<u32>(unit_iter_start + k_tiles_in_my_split);
        const i64 end_tile_k_tile = static_cast<i64>(static_cast<std::int32_t>(initial_unit_iter_end)) % divisor;
        if (static_cast<u32>(end_tile_k_tile) < kMinItersPerSkUnit) k_tiles_in_my_split -= static_cast<u64>(end_tile_k_tile);
        else if (static_cast<u32>(end_tile_k_tile) > static_cast<u32>(divisor - static_cast<i64>(kMinItersPerSkUnit)))
          k_tiles_in_my_split += static_cast<u64>(divisor - end_tile_k_tile);
      }
      w.k_tile_remaining = static_cast<u32>(k_tiles_in_my_split);
    }
    return unit_iter_start;
  }

  // SK update_output_tile_id_and_work_tile_k.
  u64 update_output_tile_id(SkWork& w, u64 linear_idx, u32 unit_iter_start, u64 cta_m, u64 cta_n) const {
    const u64 group_idx = div_cluster_size(linear_idx) % p.sk_groups;
    const u32 unit_iter_end = unit_iter_start + w.k_tile_remaining - 1;
    const u64 output_tile_id_in_group = unit_iter_end / tiles_per_output_tile();
    const u32 output_tile_iter_start = static_cast<u32>(output_tile_id_in_group * tiles_per_output_tile());
    const u32 output_tile_iter_end = static_cast<u32>(output_tile_iter_start + tiles_per_output_tile());
    u64 output_tile_id = (output_tile_id_in_group * p.sk_groups) + group_idx;
    output_tile_id *= cluster_size();
    output_tile_id += (p.base.raster == RasterAlong::n ? cta_n : cta_m) * minor();
    const u32 tile_iter_start = std::max(output_tile_iter_start, unit_iter_start);
    const u32 tile_iter_end = std::min(output_tile_iter_end, static_cast<u32>(unit_iter_end + 1));
    w.k_idx = static_cast<std::int32_t>(tile_iter_start - output_tile_iter_start);
    w.k_tile_count = tile_iter_end - tile_iter_start;
    return output_tile_id;
  }

  // SK update_work_tile_m_n_l (its output_tile_id parameter is uint32_t).
  void update_m_n_l(u32 output_tile_id, SkWork& w, u64 cta_m, u64 cta_n) const {
    const u64 work_idx_l = output_tile_id / p.batch, remainder = output_tile_id % p.batch;
    const auto mn = work_idx_m_and_n(c.base, p.base, remainder / minor(), cta_m, cta_n);
    w.m = mn[0], w.n = mn[1], w.l = static_cast<std::int32_t>(work_idx_l);
  }

  // SK assign_work.
  void assign_work(u64 linear_idx, SkWork& w, u32& unit_iter_start) const {
    u64 cta_m = 0, cta_n = 0;
    cta_m_n_in_cluster(linear_idx, cta_m, cta_n);
    u64 output_tile_id = linear_idx;
    if (linear_idx >= p.sk_units && p.splits == 1) {  // data-parallel work
      output_tile_id = linear_idx - p.sk_units + p.sk_tiles;
      w.k_idx = 0;
      w.k_tile_count = static_cast<u32>(tiles_per_output_tile());
      w.k_tile_remaining = static_cast<u32>(tiles_per_output_tile());
    } else {
      unit_iter_start = iter_start_update_remaining(linear_idx, w);
      output_tile_id = update_output_tile_id(w, linear_idx, unit_iter_start, cta_m, cta_n);
    }
    update_m_n_l(static_cast<u32>(output_tile_id), w, cta_m, cta_n);
  }

  // SK get_current_work_for_linear_idx.
  SkWork current_work(u64 linear_idx, u32& unit_iter_start) const {
    if (linear_idx >= p.units_per_problem * p.splits) return SkWork{};
    SkWork w;
    assign_work(linear_idx, w, unit_iter_start);
    return w;
  }

  // SK continue_current_work_for_linear_idx with fast_assign_work.
  bool continue_work(u64 linear_idx, u32 unit_iter_start, SkWork& w) const {
    w.k_tile_remaining -= w.k_tile_count;
    if (w.k_tile_remaining == 0) return false;
    u64 cta_m = 0, cta_n = 0;
    cta_m_n_in_cluster(linear_idx, cta_m, cta_n);
    const u64 output_tile_id = update_output_tile_id(w, linear_idx, unit_iter_start, cta_m, cta_n);
    update_m_n_l(static_cast<u32>(output_tile_id), w, cta_m, cta_n);
    return w.valid();
  }
};

}  // namespace

std::vector<Work> stream_k_unit_visits(const StreamKConfig& c, const StreamKPlan& p, u64 linear_idx, i64 first_iter) {
  return collect_walk([&](const WorkVisitor& v) { (void)stream_k_unit_walk(c, p, linear_idx, first_iter, v); });
}

bool stream_k_unit_walk(const StreamKConfig& c, const StreamKPlan& p, u64 linear_idx, i64 first_iter, const WorkVisitor& visit) {
  const Sk sk{c, p};
  // More visits than k blocks in the whole problem, plus one, would be a walk that does not end.
  const u64 limit = p.units_per_problem * p.splits * p.k_tiles_per_output_tile + 1;
  u32 unit_iter_start = 0;
  SkWork w = sk.current_work(linear_idx, unit_iter_start);  // get_current_work_for_linear_idx
  for (u64 step = 0; w.valid(); ++step) {
    if (step > limit)
      throw LayoutError("stream-K: linear index " + std::to_string(linear_idx) + " makes more than " + std::to_string(limit) +
                        " iterations (the scheduler's walk does not end)");
    Work x;
    x.iter = checked_add(first_iter, static_cast<i64>(step)), x.m = w.m, x.n = w.n, x.l = w.l;
    x.k_begin = w.k_idx;
    x.k_end = static_cast<i64>(w.k_idx) + static_cast<i64>(w.k_tile_count);
    if (!visit(x)) return false;
    if (!sk.continue_work(linear_idx, unit_iter_start, w)) break;  // continue_current_work_for_linear_idx
  }
  return true;
}

std::vector<Work> stream_k_visits(const StreamKConfig& c, const StreamKPlan& p, i64 cta) {
  return collect_walk([&](const WorkVisitor& v) { stream_k_walk(c, p, cta, v); });
}

void stream_k_walk(const StreamKConfig& c, const StreamKPlan& p, i64 cta, const WorkVisitor& visit) {
  const i64 gx = p.base.grid[0], gy = p.base.grid[1];
  const i64 bx = cta % gx, by = (cta / gx) % gy;
  // SK's constructor: the first linear index; advance_to_next_work adds the grid's size.
  u64 linear_idx = p.base.raster == RasterAlong::n ? static_cast<u64>(bx) + static_cast<u64>(by) * static_cast<u64>(gx)
                                                   : static_cast<u64>(bx) * static_cast<u64>(gy) + static_cast<u64>(by);
  const u64 step = static_cast<u64>(checked_mul(checked_mul(gx, gy), p.base.grid[2]));
  // SK fetch_next_work: continue_current_work, else advance_to_next_work and get_current_work, until
  // a linear index past the problem's units (each unit's visits ending where its k blocks do).
  i64 iter = 0;
  while (linear_idx < p.units_per_problem * p.splits) {
    const i64 first = iter;
    const bool go_on = stream_k_unit_walk(c, p, linear_idx, first, [&](const Work& w) {
      ++iter;
      return visit(w);
    });
    if (!go_on) return;
    if (iter == first) break;  // an invalid unit ends the loop as the kernel's `while (work.is_valid())` does
    linear_idx += step;
  }
}

}  // namespace layoutproof::raster
