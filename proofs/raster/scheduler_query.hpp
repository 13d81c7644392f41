#pragma once
// A question about a persistent tile scheduler, as the command line (`raster trace|prove KIND ...`)
// and a spec's `schedulers:` section both ask it: the kind, the parameters fixed, and the bounds of
// the ones left free. One place turns it into the schedules the claims enumerate
// (proofs/raster/scheduler.hpp), so both inputs mean the same thing.
//
//   kind             sm90-persistent | sm90-group | sm90-stream-k | sm100-persistent | sm100-group | sm100-stream-k
//   tiles (M,N,L)    the problem in CTA tiles (persistent, stream-K)
//   groups           each group's (M, N) in CTA tiles (sm90-group, sm100-group)
//   cluster, max_swizzle, raster, sms, max_active_clusters
//   atom_m, dynamic_cluster                     (sm100-group: the 2-SM MMA, a run-time cluster shape)
//   k_tiles, splits, decomposition, reduction   (sm90-stream-k, sm100-stream-k)
//
// Free parameters range over (smallest configurations first):
//   tiles M, N in [1, max_tiles], L in {1, 2}; groups: every list of 1..max_groups groups of
//   M, N in [1, max_tiles]; clusters 1x1, 2x1, 1x2, 2x2; max swizzle 1, 2, 4, 8; the three
//   rasters; SMs 1, 3, 8, 132 (sm100-group: 148); sm100-group: atom m 1, 2 (2 where the cluster's m
//   is even), static and dynamic clusters; stream-K: k tiles 1, 9, 17, 40, splits 1, 2, 3, the four
//   decompositions (splits > 1 only with the heuristic and split-K ones).
// max_tiles defaults to 16 (sm90-persistent, sm100-persistent), 8 (the stream-K kinds) or 3 (the
// group kinds), max_groups to 3: the domains a default query lists stay below kMaxDomain. A bound
// given is the domain asked for: it is enumerated whole, or the query is refused (LayoutError,
// exit 2) naming the largest bounds that fit; it is never cut to a smaller domain.
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
  std::optional<std::int64_t> k_tiles, splits;                 // the stream-K kinds
  std::optional<raster::Decomposition> decomposition;          // the stream-K kinds
  std::optional<raster::Reduction> reduction;                  // the stream-K kinds
  bool corrected = false;                                      // the group kinds: the fixed early-exit bound
  std::optional<std::int64_t> atom_m;                          // sm100-group: AtomThrShape's M, 1 or 2
  std::optional<bool> dynamic_cluster;                         // sm100-group: the cluster shape given at run time
  // How a domain is decided: enumeration of every configuration, or Z3 over symbolic M, N, L
  // (sm90-persistent with --tiles left free and every other parameter given; exactly-once and
  // in-range); auto picks Z3 there when max_tiles > 32, else enumeration.
  enum class Engine { automatic, enumeration, z3 } engine = Engine::automatic;
  // The free problem's bounds; not given: the kind's defaults (max_tiles_of, max_groups_of).
  std::optional<std::int64_t> max_tiles, max_groups;
};

// The bound of a free problem's M and N: q.max_tiles, else 16, 8 for the stream-K kinds, 3 for the
// group kinds.
std::int64_t max_tiles_of(const SchedulerQuery& q);
// The most groups of a free group problem: q.max_groups, else 3.
std::int64_t max_groups_of(const SchedulerQuery& q);

// The kinds a query takes: sm90-persistent, sm90-group, sm90-stream-k, sm100-persistent,
// sm100-group, sm100-stream-k.
bool is_scheduler_kind(const std::string& kind);
// The kinds whose units carry k ranges (--k-tiles, --splits, ..., k-exactly-once): sm90-stream-k,
// sm100-stream-k.
bool is_stream_k_kind(const std::string& kind);
const std::vector<std::string>& scheduler_kinds();
std::string scheduler_kinds_text();  // "sm90-persistent, ..., sm100-persistent and sm100-group"

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
  std::vector<std::variant<raster::PersistentConfig, raster::GroupConfig, raster::StreamKConfig, raster::Sm100Config, raster::Sm100StreamKConfig>>
      configs;
  std::size_t size() const { return configs.size(); }
  Schedule at(std::size_t i) const;
};
// The most configurations a domain search lists. A query whose domain has more is refused, with
// the largest bounds that fit: never searched in part, never cut to a smaller domain.
inline constexpr std::uint64_t kMaxDomain = std::uint64_t{1} << 20;

// How a refusal names the bounds: as `raster prove` flags ("--max-tiles 64") or as a spec's keys
// ("'max_tiles' 64").
enum class Spelling { flags, spec_keys };

// The number of configurations scheduler_domain lists for q, without listing them (saturating).
std::uint64_t scheduler_domain_size(const SchedulerQuery& q);

// Empty when q's domain can be listed (at most kMaxDomain configurations); else why not, in
// `spelling`'s words: the configurations asked for, and the largest max_tiles (and, for the group
// kinds, max_groups) that fit with the other parameters as given, e.g.
//   {sm90-stream-k, sms 132, cluster 2x1, max_tiles 64}:
//   "sm90-stream-k: --max-tiles 64 asks for 3145728 configurations (tiles M, N in [1, 64], ...),
//    more than the 1048576 (2^20) a domain search lists; with the other parameters as given the
//    largest that fits is --max-tiles 36 (M, N in [1, 36]): give --max-tiles 36 or less,
//    --tiles M,N[,L], or fix parameters left free (--max-swizzle, --raster, --k-tiles, ...)"
std::string unlistable_domain(const SchedulerQuery& q, Spelling spelling);

// The domain; LayoutError (unlistable_domain's message, as flags) when it has more than kMaxDomain
// configurations, and for two given parameters CUTLASS refuses together.
SchedulerDomain scheduler_domain(const SchedulerQuery& q);

// True when prove_scheduler_query decides `claim` with Z3 over the whole domain at once
// (prove_persistent_symbolic) rather than by listing it.
bool decided_symbolically(const SchedulerQuery& q, SchedulerClaim claim);

// Every configuration of a domain in order; the first failing one is the witness (the result's
// schedule, which a report draws). UNKNOWN when the deadline stops the search, never PROVED;
// ERROR for a domain that holds no configuration.
// balance (a measurement) reports the domain's worst configuration: the largest max over mean, its
// configuration and numbers (the first such in order).
SchedulerResult prove_scheduler_domain(const SchedulerDomain& d, SchedulerClaim claim, const ProveOptions& o);

// The query refused before anything is decided (LayoutError, as flags): flags that do not apply to
// the kind, --engine z3 where it does not apply, and, for a claim decided by listing the domain,
// parameters CUTLASS refuses together and a domain of more than kMaxDomain configurations
// (unlistable_domain). `raster prove` asks it for every claim before it proves the first.
void check_scheduler_query(const SchedulerQuery& q, SchedulerClaim claim);

// The claim decided over the query's domain: one configuration when everything is fixed, else the
// symbolic engine where the query's engine picks it (prove_persistent_symbolic), else the domain
// search (prove_scheduler_domain). LayoutError when check_scheduler_query refuses the query.
SchedulerResult prove_scheduler_query(const SchedulerQuery& q, SchedulerClaim claim, const ProveOptions& o);

// sm90-persistent's exactly-once and in-range for every M, N in [1, max_tiles] and L in
// [1, max_l] at once (max_tiles <= 4096, max_l <= 16), the other parameters fixed as given: Z3
// over bit-vectors (proofs/smt/scheduler_z3.cpp says the queries). A sat answer is minimized and
// that configuration decided by enumeration (its witness replayed); UNKNOWN when Z3 or the
// symbolic argument does not decide. prove_scheduler_domain is its exhaustive twin.
SchedulerResult prove_persistent_symbolic(const raster::PersistentConfig& fixed, std::int64_t max_tiles, std::int64_t max_l,
                                          SchedulerClaim claim, const ProveOptions& o);

}  // namespace layoutproof::proofs
