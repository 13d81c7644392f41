#pragma once
// Claims about persistent tile schedulers (model/raster/persistent.hpp), decided by complete
// enumeration of every CTA's work loop, for one configuration or every configuration of a stated
// domain:
//
//   exactly-once   every tile (m < M, n < N, l < L) is computed by exactly one (CTA, iteration)
//   in-range       no work unit points outside the problem (m >= M, n >= N or l >= L)
//   balance        reported, not a proof: work units per CTA, max over mean (stream-K: k blocks
//                  per CTA, max over mean)
//   launches       the grid get_grid_shape gives launches: it has a CTA, the cluster shape divides
//                  it (cudaLaunchKernelEx refuses a cluster launch of any other grid), and its y and
//                  z are at most 65535 and its x below 2^31 (CUDA's grid limits). The
//                  other claims are about the visits the scheduler's code computes for that grid
//                  whether or not the hardware would launch it.
//
// Stream-K (a schedule with k_tiles > 0, whose units carry k ranges):
//   exactly-once   every tile's epilogue is computed by exactly one (CTA, iteration): the unit
//                  whose k range ends at the tile's last k block (its final split)
//   k-exactly-once every (tile, k block) is accumulated by exactly one (CTA, iteration), and the
//                  fix-up protocol (model/raster/stream_k.hpp) completes with every CTA of the grid
//                  resident: each split tile's partial sums are reduced by exactly one unit, its
//                  final split, after all its other contributors arrived; no CTA waits forever.
//                  Decided by running the protocol over every CTA's loop in lock-step rounds.
//
// A REFUTED witness names the configuration, the tile, and the CTA(s) and iteration(s) that
// visit it (none for a missing tile), and is replayed by re-running those CTAs' loops before it is
// returned. A domain search returns the first failing configuration in order of increasing total
// tiles (the smallest), then tiles M, N, the cluster, the swizzle, the raster, the SM count.
//
// Example: tiles 3x5x1, cluster 1x1, max swizzle 2, raster along-n, 4 SMs: exactly-once PROVED
// (every one of the 15 tiles once), in-range REFUTED: the swizzle rounds the blocks up to 4x6, so
// CTA 3 computes tile (m 3, n ...) outside the 3x5 problem.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/raster/persistent.hpp"
#include "model/raster/persistent_sm100.hpp"
#include "model/raster/stream_k.hpp"
#include "model/raster/stream_k_sm100.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::proofs {

// The claims over a persistent tile scheduler: exactly-once, in-range, balance (a measurement: a
// check shows it as REPORT, proofs/check/check.hpp is_report), k-exactly-once, launches.
enum class SchedulerClaim { exactly_once, in_range, balance, k_exactly_once, launches };
// nullopt for a name that is not one of these claims.
std::optional<SchedulerClaim> parse_scheduler_claim(const std::string& s);
const char* to_string(SchedulerClaim c);

// A scheduler for one configuration, as the claims see it: its CTAs' loops and its problems.
struct Schedule {
  std::string config;                                   // config_text
  std::string plan;                                     // "grid 1x4x1, swizzle 2, along-n"
  std::int64_t ctas = 0;                                // the CTAs of get_grid_shape's grid
  std::string no_launch;                                // why the hardware would launch none of them, if so
  std::vector<std::array<std::int64_t, 3>> problems;    // per group: (M, N, L) in CTA tiles
  std::function<std::vector<raster::Work>(std::int64_t)> visits;  // a CTA's work loop (collects `walk`)
  std::function<void(std::int64_t, const raster::WorkVisitor&)> walk;  // the same loop, streamed
  // Every CTA's units together where the plan gives their number without walking (each linear
  // index below the bound is one CTA's unit once: sm90-persistent, the group kinds; one unit per
  // CTA: sm100-persistent, sm100-stream-k's split-K and data-parallel paths); -1: only a walk
  // counts them (stream-K units walking over several tiles).
  std::int64_t units = -1;
  std::string rounding;                                  // why work outside a problem can appear
  std::array<std::int64_t, 3> grid{1, 1, 1};            // get_grid_shape's grid
  std::int64_t k_tiles = 0;                              // stream-K: k blocks per tile; 0: whole tiles
  raster::Reduction reduction = raster::Reduction::deterministic;  // stream-K's fix-up
};
Schedule schedule_of(const raster::PersistentConfig& c);
Schedule schedule_of(const raster::GroupConfig& c);
Schedule schedule_of(const raster::StreamKConfig& c);
Schedule schedule_of(const raster::Sm100Config& c);
Schedule schedule_of(const raster::Sm100StreamKConfig& c);

struct SchedulerResult {
  Verdict verdict;
  std::string config;                 // the configuration decided (REFUTED: the witness's)
  double balance_max_over_mean = 0;   // balance
  std::int64_t units = 0, ctas = 0;   // work units and CTAs enumerated (the last configuration)
  // The schedule `config` names, to draw it (REFUTED: the witness's); empty when no one
  // configuration was enumerated (a symbolic proof, a domain too large to list).
  std::shared_ptr<const Schedule> schedule;
};

// One configuration, every CTA's loop enumerated. The deadline (o.smt.deadline) makes it UNKNOWN.
SchedulerResult prove_scheduler(const Schedule& s, SchedulerClaim claim, const ProveOptions& o);

// "tiles 3x5x1, cluster 1x1, max swizzle 2, raster along-n, 4 SMs" for messages.
// A tile as every witness (and the report, cli/output/scheduler_report.cpp) writes it:
// "(m 1, n 2, l 0)", with "group 1 " before it when the schedule has several problems.
std::string tile_text(bool grouped, std::int64_t group, std::int64_t m, std::int64_t n, std::int64_t l);

std::string config_text(const raster::PersistentConfig& c);
std::string config_text(const raster::GroupConfig& c);
std::string config_text(const raster::StreamKConfig& c);
std::string config_text(const raster::Sm100Config& c);
std::string config_text(const raster::Sm100StreamKConfig& c);

}  // namespace layoutproof::proofs
