#pragma once
// Claims over one shared-memory instruction of a compiled kernel (model/compiled/ptx_exec.hpp),
// decided exhaustively over the concrete launch: every warp of the CTA, every issue.
//
//   conflict-free   every issue takes its ideal wavefronts        } through prove_trace
//   max-ways:K      no phase of any issue holds > K words per bank } (trace_claims.hpp), the same
//                                                                   bank model as `trace`
//   aligned         every active lane's address is a multiple of the access width (ldmatrix and
//                   stmatrix rows: 16 bytes; cp.async: its size); else the instruction faults
//   in-bounds       every active lane's bytes lie inside the shared symbol its address is computed
//                   from (dynamic shared memory: inside --smem-bytes)
//   no-overlap      stores (st, stmatrix, cp.async): no two active lanes of one issue write a
//                   common byte with different data (which one lands is unspecified; equal data
//                   lands the same either way); the data is compared where the executor knows it
//                   (ptx_exec.hpp Written), and lanes sharing bytes with data not known make it
//                   UNKNOWN; not a claim about loads, and atom/red combine rather than overwrite:
//                   not applicable to them
//
// What makes a verdict UNKNOWN instead of PROVED (never a guess): a lane whose address or guard is
// not known (a free parameter, data loaded from memory, ...), a lane that stopped early (a branch
// the model cannot decide, calls nested deeper than the executor follows, its step limit, the
// deadline: every claim on the kernel then, since what the lane would have done is missing), more
// distinct issues than the run keeps, an address that depends on %ctaid when the grid has more
// than one CTA (CTA (0,0,0) alone was run), and, for the claims that depend on how lanes group
// into issues (conflict-free, max-ways, no-overlap), a divergent issue (ptx_exec.hpp). A REFUTED
// verdict needs one issue that breaks the claim with every lane known and no such doubt; its
// witness names the PTX line, the CUDA line, the warp, the execution, the lanes, their addresses
// and banks, and it is replayed (the warp re-executed alone, replay_issue) before it is returned.
#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/compiled/launch.hpp"
#include "model/compiled/ptx_exec.hpp"
#include "proofs/claims/prove.hpp"
#include "proofs/claims/tma_claim.hpp"
#include "model/support/source_location.hpp"
#include "proofs/claims/trace_claims.hpp"

namespace layoutproof::proofs {

struct PtxClaim {
  // operand_contract, tma_aligned, descriptor_valid, tensor_map_valid: the Hopper contract claims on the TMA copies and WGMMAs a run
  // lists as not counted (proofs/claims/tma_claim.hpp decide_async_claim), with the tensor maps
  // the host encodes bound to the kernel's parameters (--tensor-map).
  enum class Kind { conflict_free, max_ways, aligned, in_bounds, no_overlap, operand_contract, tma_aligned, descriptor_valid, tensor_map_valid };
  Kind kind = Kind::conflict_free;
  int k = 1;
  std::string text;
  std::vector<TensorMapBinding> tensor_maps;
};
// nullopt for a name that is not one of these claims; LayoutError for a malformed max-ways:K.
std::optional<PtxClaim> parse_ptx_claim(const std::string& text);

struct PtxClaimResult {
  bool applicable = true;               // false: no-overlap on a load, atom or red (no verdict)
  Verdict verdict;
  std::optional<TraceWitness> witness;  // REFUTED: instruction indexes site.trace.instructions
};

PtxClaimResult prove_ptx_site(const compiled::Program& program, const compiled::Launch& launch, const compiled::KernelRun& run,
                              const compiled::Site& site, const PtxClaim& claim, const ProveOptions& options);

// ---- A launch and its claims: the one path of `layoutproof ptx` and of a spec's `compiled:` entry ----
//
// The launch is planned in model/compiled/launch.hpp (select_ptx_kernels, check_ptx_param,
// plan_ptx_launches: the kernels, their parameters' values, block, grid, dynamic shared memory);
// here it is run and its claims decided:
//   run_ptx_kernel      one planned kernel (decoded now, with its callees) run for every thread of
//                       its CTA, every claim decided on every shared-memory instruction
// and proofs/check/compiled.hpp turns its verdicts into results: run_compiled, a spec's compiled
// check, one CheckResult per (kernel, instruction, claim).
//
// The launch's names, as this room's callers have always spelled them (proofs::plan_ptx_launches):
// they are model/compiled/launch.hpp's.
using compiled::check_block_dims;
using compiled::check_grid_dims;
using compiled::dims_text;
using compiled::check_ptx_param;
using compiled::decode_ptx_launches;
using compiled::parse_ptx_param_value;
using compiled::plan_ptx_launches;
using compiled::ptx_param_text;
using compiled::PtxKernelLaunch;
using compiled::PtxLaunchRequest;
using compiled::PtxParamRequest;
using compiled::PtxParamValue;
using compiled::select_ptx_kernels;

struct PtxKernelResult {
  PtxKernelLaunch launch;
  std::shared_ptr<const compiled::KernelRun> run;
  std::vector<std::vector<PtxClaimResult>> verdicts;     // per site, per claim
  std::vector<std::vector<PtxClaimResult>> not_counted;  // per run->not_counted access, per claim
  std::vector<std::optional<Verdict>> unapplied;         // per claim: no instruction is subject to it
  std::string not_run;  // why the kernel did not run ("": it ran; else no run, unapplied UNKNOWN)
};
// The kernel (and its callees) must be decoded (decode_ptx_launches). The run stops at the
// options' deadline (o.smt.deadline), as the claims do. Each claim is decided on every site
// (prove_ptx_site); on every access the run lists as not counted it is UNKNOWN, naming the access
// and why (not applicable: no-overlap on a load); and a claim that no instruction of the kernel,
// counted or listed, is subject to is UNKNOWN for the kernel (a claim about nothing proves
// nothing). LayoutError for a launch the executor refuses (static + dynamic shared memory past
// 227 KiB, ...).
// What the claims of a launch are about: "every CTA of every grid", "every CTA of grid 4,1,1",
// or "CTA (1,0,0) of grid 4,1,1 alone" (--cta); the count table is always one concrete CTA's.
std::string claims_domain_text(const compiled::Launch& launch);

PtxKernelResult run_ptx_kernel(const compiled::Program& program, const PtxKernelLaunch& kernel, const std::vector<PtxClaim>& claims,
                               const ProveOptions& options);
// A kernel the run's deadline passed before: no run, no instruction known, every claim UNKNOWN
// for the kernel (unapplied) with `why` ("deadline of 8 s reached before this kernel ran").
PtxKernelResult skipped_ptx_kernel(const PtxKernelLaunch& kernel, const std::vector<PtxClaim>& claims, const std::string& why);

// A spec's compiled: entry, read and planned when the spec is loaded (a check's CompiledSubject, proofs/check/check.hpp).
struct CompiledEntry {
  std::string file;                                // the compiled file, as results name it
  std::shared_ptr<const compiled::Program> program;     // its kernels decoded (shared by the entries on one file)
  std::vector<PtxKernelLaunch> launches;
  std::vector<PtxClaim> claims;
  std::vector<SourceLocation> claim_where;         // parallel to claims: each claim in the spec
  std::optional<double> deadline_s;                // the entry's own limit (from its start)
  std::string command;                             // `layoutproof ptx ...` deciding it alone, without --claim
};

// The entry's results, one per (kernel, instruction, claim): proofs/check/compiled.hpp.

// ---- Free parameters: issues whose addresses are affine in them (proofs/claims/ptx_symbolic.cpp) ----
//
// Claims over the issues of a compiled kernel whose lanes' addresses are affine terms in free
// parameters (model/compiled/ptx_exec.hpp Term, SymbolicIssue), decided for EVERY value of the
// parameters at once with Z3 (proofs/smt/trace_z3.cpp), over the symbols' whole range or the
// range the launch states (Launch::ranges, --param-range I=LO..HI).
//
//   symbol   P_i : (_ BitVec bits_i), LO <= P_i <= HI (signed) when a range is given
//   address  a_l = zext(extract(w-1..0, c0 + sum_i c_i * zext64(P_i)))   (the Term, exactly)
//   lanes    l < address_lanes(op) (bank.hpp: ldmatrix/stmatrix .xN read 8N row addresses)
//   aligned      sat? some active lane: a_l mod width != 0
//   in-bounds    sat? some active lane: a_l < lo_l or a_l + width > hi_l   (its symbol's bytes)
//   conflict-free / max-ways:K: the trace encoding's picks (trace_z3.cpp encode_picks: one bank
//                model), each lane's word W_l = a_l / 4 a term instead of a table constant, at
//                values where the picked issue is valid (every active lane aligned and below
//                227 KiB: the bank model's precondition), and the issues of valid_issues too;
//                `valid` asks whether some value is not
//
// PROVED only from unsat over the whole stated domain; REFUTED only with a model that replays
// (with_symbolic): its values fixed as --param, the witness issue re-executed alone breaks the
// claim on its address lanes, and the launch re-run with them gives the claim REFUTED on the
// instruction (prove_ptx_site, the concrete path); else ERROR. A bank claim's model at which other
// issues of the instruction fault (the re-run is ERROR there) is asked again with their validity
// required, a few rounds; a violation found only where some issue faults is reported saying so.
// UNKNOWN when Z3 answers unknown (the project's timeout).
struct SymbolicQuery {
  // valid: what the bank model takes (bank.hpp validate): every used active lane aligned and
  // below kSmemBytes. The bank claims search only values where the picked issue is valid.
  // some_valid: whether some value makes some issue valid (else a bank claim would be vacuous).
  // some_active: whether some value makes some lane of some issue active (else no launch runs it).
  // satisfiable: whether some launch is in the domain at all (its issues may be none).
  enum class Kind { conflict_free, max_ways, aligned, in_bounds, valid, some_valid, some_active, satisfiable } kind = Kind::aligned;
  int k = 1;                                        // max-ways:K
  std::string name;                                 // the queries' names
  SmemOp op = SmemOp::ld;
  int width_bytes = 4;
  std::vector<int> symbol_bits;                     // per symbol
  std::vector<std::optional<std::pair<i64, i64>>> ranges;  // per symbol: LO..HI (signed), none: all
  // %ctaid / %nctaid symbols (compiled::Symbol::Kind): 0 <= ctaid_d < nctaid_d, where nctaid_d is
  // the grid's when the launch fixes it (every_grid false), else 1 <= nctaid_d <= its limit.
  std::vector<compiled::Symbol> symbols;            // per symbol: its kind and dimension
  std::array<i64, 3> grid{1, 1, 1};
  bool every_grid = false;
  const std::vector<compiled::Cond>* conds = nullptr;  // the run's: what the issues' `when` name
  const std::vector<compiled::Assumption>* assumptions = nullptr;  // the launch's (--assume): part of the domain
  std::vector<const compiled::SymbolicIssue*> issues;
  // in-bounds: per issue, per lane, the bytes [lo, hi) its access must lie in
  std::vector<std::array<std::pair<i64, i64>, kWarpLanes>> bounds;
  // conflict-free / max-ways: issues (indexes into `issues`) that must be valid accesses too,
  // besides the picked one: a witness then lies where none of them faults
  std::vector<std::size_t> valid_issues;
};

// A raw violation of a symbolic query, before replay.
struct SymbolicViolation {
  std::size_t issue = 0;              // the issue (SymbolicQuery::issues index)
  std::vector<int> lanes;             // its lanes (bank claims: the picks)
  std::vector<compiled::u64> values;  // each symbol's value (its bits, unsigned)
};

// Never throws (z3 exceptions become an error outcome).
Outcome<SymbolicViolation> check_symbolic_z3(const SymbolicQuery& q, const SmtOptions& o);


// Claim c on the site's issues whose addresses depend on free parameters, combined with
// `concrete`, the verdict over its other issues (prove_ptx_site): REFUTED if either part is
// (a symbolic witness replayed with its values fixed, else ERROR), UNKNOWN if either part is not
// decided, PROVED when both are, saying its domain. `concrete` alone when there are none.
PtxClaimResult with_symbolic(const compiled::Program& program, const compiled::Launch& launch, const compiled::KernelRun& run,
                             const compiled::Site& site, const PtxClaim& claim, const ProveOptions& options, PtxClaimResult concrete);

// "for every 32-bit value of parameter 1 (_Z9broadcastPfi_param_1)" (or "every value 0..63
// (--param-range) of ...") for the symbols the site's symbolic issues use, joined by "and".
std::string symbolic_domain(const compiled::Launch& launch, const compiled::KernelRun& run, const compiled::Site& site);

// The launch's domain (CTA, grid, parameter ranges, --assume) asked once: `vacuous` is ERROR when
// assumptions are given and no launch meets them (every claim would be vacuous), UNKNOWN when Z3
// cannot tell; `point` is one launch of it (KernelRun::domain_point) where there are symbols.
struct DomainCheck {
  std::optional<Verdict> vacuous;
  std::optional<std::vector<compiled::u64>> point;
};
DomainCheck check_domain(const compiled::Launch& launch, const compiled::KernelRun& run, const ProveOptions& options);

}  // namespace layoutproof::proofs
