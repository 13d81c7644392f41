#pragma once
// The claims of proofs/raster/scheduler.hpp over a schedule whose units carry k ranges (stream-K):
// exactly-once (each tile's final split once), k-exactly-once (every (tile, k block) once, and the
// fix-up protocol run to completion) and balance (k blocks per CTA). prove_scheduler sends them here.
#include "proofs/raster/scheduler.hpp"

namespace layoutproof::proofs {

SchedulerResult prove_k_claim(const Schedule& s, SchedulerClaim claim, const ProveOptions& o);

}  // namespace layoutproof::proofs
