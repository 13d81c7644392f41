// scheduler_bench [Z3_MAX_TILES]: persistent tile scheduler claims timed (docs/performance.md,
// "Tile schedulers"): exactly-once of a 132-SM, 1024x1024-tile sm90-persistent configuration (the
// target: < 1 s), k-exactly-once of a 132-SM stream-K configuration, the grouped scheduler's domain
// search, and sm90-persistent's exactly-once over symbolic M, N up to 16 .. Z3_MAX_TILES (default 64).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "proofs/raster/scheduler_query.hpp"

using namespace layoutproof;
using namespace layoutproof::proofs;

namespace {

void row(const char* what, const SchedulerQuery& q, SchedulerClaim claim, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const SchedulerResult r = prove_scheduler_query(q, claim, o);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-64s %-14s %-8s %10.1f ms  %lld units\n", what, to_string(claim), to_string(r.verdict.kind), ms, static_cast<long long>(r.units));
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t z3_max = argc > 1 ? std::atoll(argv[1]) : 64;
  ProveOptions o;
  SchedulerQuery p;
  p.kind = "sm90-persistent";
  p.tiles = std::array<std::int64_t, 3>{1024, 1024, 1};
  p.cluster = std::array<std::int64_t, 2>{2, 1};
  p.max_swizzle = 8, p.raster = raster::RasterOption::heuristic, p.sms = 132;
  row("sm90-persistent 1024x1024 tiles, cluster 2x1, swizzle 8, 132 SMs", p, SchedulerClaim::exactly_once, o);
  SchedulerQuery s;
  s.kind = "sm90-stream-k";
  s.tiles = std::array<std::int64_t, 3>{33, 17, 1};
  s.cluster = std::array<std::int64_t, 2>{1, 1};
  s.max_swizzle = 1, s.raster = raster::RasterOption::heuristic, s.sms = 132, s.k_tiles = 64;
  s.decomposition = raster::Decomposition::stream_k, s.splits = 1;
  row("sm90-stream-k 33x17 tiles, 64 k tiles, stream-k, 132 SMs", s, SchedulerClaim::k_exactly_once, o);
  SchedulerQuery g;
  g.kind = "sm90-group";
  g.max_swizzle = 4, g.cluster = std::array<std::int64_t, 2>{1, 1}, g.corrected = true;
  row("sm90-group corrected, every list of 1..3 groups up to 3x3", g, SchedulerClaim::exactly_once, o);
  for (std::int64_t t = 16; t <= z3_max; t *= 4) {
    SchedulerQuery z = p;
    z.tiles.reset();
    z.max_tiles = t;
    z.engine = SchedulerQuery::Engine::z3;
    ProveOptions zo;
    zo.smt.timeout_ms = 600000;
    const std::string what = "sm90-persistent, Z3, every M, N in [1, " + std::to_string(t) + "], L in [1, 2]";
    row(what.c_str(), z, SchedulerClaim::exactly_once, zo);
  }
  return 0;
}
