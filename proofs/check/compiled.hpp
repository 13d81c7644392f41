#pragma once
// A compiled entry's results: the check of a spec's `compiled:` entry (a CompiledSubject) decided on
// every kernel it plans, one CheckResult per kernel, instruction and claim. run_check
// (proofs/check/run_check.hpp) decides a compiled check with run_compiled; `layoutproof ptx` and
// `sass` build their results with compiled_kernel_results, on an entry made of the command line.
//
// Example: the entry {file: tests/ptx/basic.ptx, kernel: column_read, block: 32, claims:
// [conflict-free]} gives one result per shared-memory instruction of column_read, its check's
// InstructionSubject naming the instruction ("ld.shared.f32 %f2, [%r6];" at its PTX line) and its origin's code the
// instruction's CUDA line (.loc).
#include <string>
#include <vector>

#include "proofs/check/check.hpp"
#include "proofs/claims/ptx_claims.hpp"

namespace layoutproof::proofs {

// One result per (kernel, instruction, claim the instruction is subject to), in PTX order, then
// one UNKNOWN per (access listed as not counted, claim); a kernel with no such instruction gives
// one UNKNOWN per claim (a gate over nothing must not pass), a kernel whose launch is refused one
// ERROR per claim. Each result's check names its subject (the entry), claim, instruction
// (an InstructionSubject: kernel, PTX line) and CUDA line (Origin::code); a REFUTED one's evidence
// holds its instruction's issues (TraceEvidence::trace). A kernel's run is kept only while its results are built.
// @pre check.subject holds a CompiledSubject.
std::vector<CheckResult> run_compiled(const Check& check, const ProveOptions& options);

// The results of one kernel of `check`'s entry, as run_compiled gives them (a kernel that did not
// run: its unapplied UNKNOWNs).
std::vector<CheckResult> compiled_kernel_results(const Check& check, const std::string& kernel, const PtxKernelResult& kr);

}  // namespace layoutproof::proofs
