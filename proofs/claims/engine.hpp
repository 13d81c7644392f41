#pragma once
// What an engine (Z3 or exhaustive) answers before replay: the claim holds, a raw violation,
// unknown (with the reason) or an error. Every family of claims (layout, bank, kernel trace,
// rasterization, a compiled kernel's symbolic accesses) answers with the same Outcome<W>, W its raw
// violation; its decider replays the violation on the model and turns the outcome into a Verdict
// (prove() in proofs/claims/prove.hpp for layout claims).
#include <string>
#include <vector>

#include "proofs/claims/claim.hpp"
#include "proofs/claims/deadline.hpp"

namespace layoutproof::proofs {

enum class OutcomeKind { holds, violated, unknown, error };

// An engine's answer about one claim, W the family's raw violation (Violation for a layout claim:
// the indices the engine picked, before replay).
//   @post kind == holds: text says what was proved; kind == violated: witness is the violation and
//         text is empty or a note; unknown: text is the reason; error: text is the message.
// Example: check_exhaustive on (2,2):(1,1) and "injective" answers
//   {violated, Violation{not_injective, 1, 2}, "", "exhaustive check of 4 indices", {}}.
template <class W>
struct Outcome {
  using Kind = OutcomeKind;
  Kind kind = Kind::error;
  W witness;                         // violated: the raw violation, before replay
  std::string text;                  // holds: what was proved; unknown: reason; error: message
  std::string method;
  std::vector<std::string> queries;  // names of the SMT queries asked
};

// Options for the Z3 engine (proofs/smt/).
struct SmtOptions {
  unsigned timeout_ms = 8000;  // per query; below 10 s so one undecided query ends a command in < 10 s
  unsigned seed = 0;
  unsigned memory_mb = 4096;
  std::string dump_dir;     // non-empty: write every query as SMT-LIB2 there
  Deadline deadline;        // of the whole run: clips every query's timeout (proofs/claims/deadline.hpp)
};

// The exhaustive twin: decides a claim by enumeration. @pre domain_size(s) <= kExhaustiveLimit
// (else an error outcome). Violations are the same minimal ones the Z3 engine reports.
// budget_ms: its time budget (0: none); past it the outcome is unknown, never holds (prove passes
// --timeout-ms clipped to the run's --deadline-s: 2^30 indices take minutes).
inline constexpr i64 kExhaustiveLimit = i64{1} << 30;
Outcome<Violation> check_exhaustive(const Subject& s, const Claim& c, unsigned budget_ms = 0);

// The Z3 engine (proofs/smt/z3_engine.cpp). Never throws: z3::exception becomes an error outcome.
Outcome<Violation> check_z3(const Subject& s, const Claim& c, const SmtOptions& o);

}  // namespace layoutproof::proofs
