#pragma once
// Decides a check of any kind (proofs/check/check.hpp): the one dispatch from a check to the
// room that decides it, above them all so that none of them includes another to reach it:
//   layout, bank, tma, kernel   proofs/claims/ (prove, prove_bank, decide_tma, prove_trace)
//   raster                      proofs/raster/raster.hpp (prove_raster)
//   kernel, layout: synthesize  proofs/synth/kernel_synth.hpp (kernel_synth_verdict: find the
//                               smem layout and prove it)
//   scheduler                   proofs/raster/scheduler_query.hpp (prove_scheduler_query, the query
//                               `layoutproof raster prove` asks)
//   compiled                    proofs/check/compiled.hpp (run_compiled: the entry's kernels run,
//                               one result per kernel, instruction and claim)
//
// Example: run_check(make_check("t", (8,32):(32,1), "bijective", nullopt), {}) gives one result,
// PROVED; a compiled entry with one kernel of three shared-memory instructions and the claims
// [conflict-free, aligned], each instruction subject to both, gives six.
#include <vector>

#include "proofs/check/check.hpp"
#include "proofs/raster/scheduler.hpp"

namespace layoutproof::proofs {

// The results of check c: one for every kind but a compiled entry, which gives one per kernel,
// instruction and claim (proofs/check/compiled.hpp), in the order run_compiled gives them. Never
// throws for a well-formed check (errors become ERROR verdicts).
//   @post a check other than a compiled entry that the run's deadline (o.smt.deadline) passed before
//         it started is UNKNOWN ("deadline", the deadline's reason) and not started; a compiled
//         entry's kernels meet the deadline claim by claim (proofs/claims/ptx_claims.hpp).
//   @post c.deadline_s, when it comes before the run's deadline, is the check's own deadline from
//         its start.
std::vector<CheckResult> run_check(const Check& c, const ProveOptions& o);

// A scheduler check's result from prove_scheduler_query's answer r, as run_check gives it: the
// witness names its configuration, a measured balance is its evidence (BalanceMeasure). `raster
// prove` asks prove_scheduler_query itself (its report draws the answer's schedule) and makes its
// results with this.
CheckResult scheduler_check_result(Check c, const SchedulerResult& r);

}  // namespace layoutproof::proofs
