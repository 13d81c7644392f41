#pragma once
// A question about a persistent tile scheduler, as the command line (`raster trace|prove KIND ...`)
// and a spec's `schedulers:` section both ask it: the kind, the parameters fixed, and the bounds of
// the ones left free. One place turns it into the schedules the claims enumerate
// (proofs/raster/scheduler.hpp), so both inputs mean the same thing.
//
//   kind             sm90-persistent | sm90-group | sm90-stream-k
//   tiles (M,N,L)    the problem in CTA tiles (persistent, stream-K)
//   groups           each group's (M, N) in CTA tiles (sm90-group)
//   cluster, max_swizzle, raster, sms, max_active_clusters
//   k_tiles, splits, decomposition, reduction   (sm90-stream-k)
//
// Free parameters range over (smallest configurations first):
//   tiles M, N in [1, max_tiles], L in {1, 2}; groups: every list of 1..max_groups groups of
//   M, N in [1, min(max_tiles, 3)]; clusters 1x1, 2x1, 1x2, 2x2; max swizzle 1, 2, 4, 8; the three
//   rasters; SMs 1, 3, 8, 132; stream-K: k tiles 1, 4, 9, 17, splits 1, 2, 3, the four
//   decompositions.
//
// Example: {kind sm90-persistent, tiles 3x5x1} leaves the cluster, swizzle, raster and SMs free:
// 4 * 4 * 3 * 4 = 192 schedules, the text "the tiles given; clusters 1x1, 2x1, 1x2, 2x2; ...".
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/raster/persistent.hpp"
#include "proofs/raster/scheduler.hpp"

namespace layoutproof::proofs {

struct SchedulerQuery {
  std::string kind;
  std::optional<std::array<std::int64_t, 3>> tiles;
  std::optional<std::vector<std::array<std::int64_t, 2>>> groups;
  std::optional<std::array<std::int64_t, 2>> cluster;
  std::optional<std::int64_t> max_swizzle, sms, max_active_clusters;
  std::optional<raster::RasterOption> raster;
  std::optional<std::int64_t> k_tiles, splits;                 // sm90-stream-k
  std::optional<raster::Decomposition> decomposition;          // sm90-stream-k
  std::optional<raster::Reduction> reduction;                  // sm90-stream-k
  bool corrected = false;                                      // sm90-group: the fixed early-exit bound
  std::int64_t max_tiles = 16, max_groups = 3;                 // the free parameters' bounds
};

// The kinds a query takes: sm90-persistent, sm90-group, sm90-stream-k.
bool is_scheduler_kind(const std::string& kind);
const std::vector<std::string>& scheduler_kinds();

// The query as `layoutproof raster prove KIND` takes it: every parameter given, as its flag, in one
// order ("sm90-persistent --tiles 32,16,1 --cluster 2,1 --max-swizzle 4 --raster heuristic --sms 132");
// --max-tiles / --max-groups when a free problem uses a bound other than the default. Words and
// numbers only (no shell quoting needed). Two queries with the same text ask the same question.
std::string scheduler_flags(const SchedulerQuery& q);

// The one schedule of a query whose problem is given (trace): LayoutError naming the flag when the
// kind needs one that is missing or takes one that does not apply (--groups for sm90-persistent,
// --k-tiles for sm90-group, ...). The parameters not given take CUTLASS's defaults (cluster 1x1,
// max swizzle 1, raster heuristic (along-m for groups), 132 SMs, splits 1, decomposition heuristic,
// reduction deterministic).
Schedule fixed_schedule(const SchedulerQuery& q);

// Every configuration of the query's domain, smallest first (total tiles, then k tiles, then the
// order of the lists above), held as configurations: a schedule is made when the search reaches it.
struct SchedulerDomain {
  std::string text;  // the domain in words, for the verdict
  std::vector<std::variant<raster::PersistentConfig, raster::GroupConfig, raster::StreamKConfig>> configs;
  std::size_t size() const { return configs.size(); }
  Schedule at(std::size_t i) const;
};
SchedulerDomain scheduler_domain(const SchedulerQuery& q);

// Every configuration of a domain in order; the first failing one is the witness. UNKNOWN when
// the deadline stops the search, never PROVED. balance (a measurement) reports the domain's worst
// configuration: the largest max over mean, its configuration and numbers (the first such in order).
SchedulerResult prove_scheduler_domain(const SchedulerDomain& d, SchedulerClaim claim, const ProveOptions& o);

// The claim decided over the query's domain: one configuration when everything is fixed, else the
// domain search (prove_scheduler_domain).
SchedulerResult prove_scheduler_query(const SchedulerQuery& q, SchedulerClaim claim, const ProveOptions& o);

}  // namespace layoutproof::proofs
