#pragma once
// Claims over the issues of a compiled kernel whose lanes' addresses are affine terms in free
// parameters (model/compiled/ptx_exec.hpp Term, SymbolicIssue), decided for EVERY value of the
// parameters at once with Z3 (proofs/smt/trace_z3.cpp), over the symbols' whole range or the
// range the launch states (Launch::ranges, --param-range I=LO..HI).
//
//   symbol   P_i : (_ BitVec bits_i), LO <= P_i <= HI (signed) when a range is given
//   address  a_l = zext(extract(w-1..0, c0 + sum_i c_i * zext64(P_i)))   (the Term, exactly)
//   aligned      sat? some active lane: a_l mod width != 0
//   in-bounds    sat? some active lane: a_l < lo_l or a_l + width > hi_l   (its symbol's bytes)
//   conflict-free / max-ways:K: the trace encoding's picks (trace_z3.cpp encode_picks: one bank
//                model), each lane's word W_l = a_l / 4 a term instead of a table constant, at
//                values where the picked issue is valid (every used active lane aligned and below
//                227 KiB: the bank model's precondition); `valid` asks whether some value is not
//
// PROVED only from unsat over the whole stated domain; REFUTED only with a model whose parameter
// values, fixed as --param, make the concrete run show the violation (replayed by the caller);
// UNKNOWN when Z3 answers unknown (the project's timeout).
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/compiled/ptx_exec.hpp"
#include "proofs/claims/engine.hpp"

namespace layoutproof::proofs {

struct SymbolicQuery {
  // valid: what the bank model takes (bank.hpp validate): every used active lane aligned and
  // below kSmemBytes. The bank claims search only values where the picked issue is valid.
  // some_valid: whether some value makes some issue valid (else a bank claim would be vacuous).
  enum class Kind { conflict_free, max_ways, aligned, in_bounds, valid, some_valid } kind = Kind::aligned;
  int k = 1;                                        // max-ways:K
  std::string name;                                 // the queries' names
  SmemOp op = SmemOp::ld;
  int width_bytes = 4;
  std::vector<int> symbol_bits;                     // per symbol
  std::vector<std::optional<std::pair<i64, i64>>> ranges;  // per symbol: LO..HI (signed), none: all
  std::vector<const ptx::SymbolicIssue*> issues;
  // in-bounds: per issue, per lane, the bytes [lo, hi) its access must lie in
  std::vector<std::array<std::pair<i64, i64>, kWarpLanes>> bounds;
};

struct SymbolicOutcome {
  enum class Kind { holds, violated, unknown, error } kind = Kind::error;
  std::string text;
  std::size_t issue = 0;     // violated: the issue (SymbolicQuery::issues index)
  std::vector<int> lanes;    // violated: its lanes (bank claims: the picks)
  std::vector<ptx::u64> values;   // violated: each symbol's value (its bits, unsigned)
  std::vector<std::string> queries;
};

// Never throws (z3 exceptions become an error outcome).
SymbolicOutcome check_symbolic_z3(const SymbolicQuery& q, const SmtOptions& o);

}  // namespace layoutproof::proofs

#include "proofs/claims/ptx_claims.hpp"

namespace layoutproof::proofs {

// Claim c on the site's issues whose addresses depend on free parameters, combined with
// `concrete`, the verdict over its other issues (prove_ptx_site): REFUTED if either part is
// (a symbolic witness replayed with its values fixed, else ERROR), UNKNOWN if either part is not
// decided, PROVED when both are, saying its domain. `concrete` alone when there are none.
PtxClaimResult with_symbolic(const ptx::Program& program, const ptx::Launch& launch, const ptx::KernelRun& run,
                             const ptx::Site& site, const PtxClaim& claim, const ProveOptions& options, PtxClaimResult concrete);

// "for every 32-bit value of parameter 1 (_Z9broadcastPfi_param_1)" (or "every value 0..63
// (--param-range) of ...") for the symbols the site's symbolic issues use, joined by "and".
std::string symbolic_domain(const ptx::Launch& launch, const ptx::KernelRun& run, const ptx::Site& site);

}  // namespace layoutproof::proofs
