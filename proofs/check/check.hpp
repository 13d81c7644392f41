#pragma once
// A check and its result: every command and the spec runner build checks, run_check
// (proofs/check/run_check.hpp) decides each, and cli/output/results.hpp presents the results.
//
//   Check  = {name, CheckSubject, CheckClaim, Origin}   one claim about one subject, and where it came from
//   Result = {Check, Verdict, Evidence}       the verdict, and what its witness points into
//
// The subject is one alternative per family, each holding exactly what its decider reads; the
// claim is parsed once, when the check is made (its text kept as written), and its form is the
// one its subject's decider takes:
//   subject              claim form     decided by
//   LayoutSubject        Claim          prove (proofs/claims/prove.hpp): injective, bijective, ...
//   AccessSubject        BankClaim      prove_bank: conflict-free, max-ways:K over every instruction of an access
//   TmaSubject           TmaClaim       decide_tma (proofs/claims/tma_claim.hpp)
//   TensorMapSubject     (none)         decide_tensor_map_valid: tensor-map-valid (tma_claim.hpp)
//   CopySubject          TraceClaim     prove_trace: a kernel copy's trace (conflict-free, max-ways:K,
//                                       vector-legal, covers)
//   SynthSubject         (synthesize)   kernel_synth_verdict: a spec smem tensor's `layout: synthesize`
//   CompiledSubject      (the entry's)  run_compiled (proofs/check/compiled.hpp): one result per
//                                       kernel, instruction and claim, each about an InstructionSubject
//   SchedulerSubject     SchedulerClaim prove_scheduler_query: exactly-once, in-range, balance (a
//                                       report: REPORT, never PROVED), k-exactly-once
//   RasterizationSubject RasterClaim    prove_raster: bijective, injective, in-bounds, surjective
//   RecordedSubject      (as read)      nothing: a result read back from an earlier run's JSON
//                                       (merge, --baseline), which keeps what the JSON says
//
// Example: make_check("t", (8,32):(32,1), "bijective", nullopt) is a check about
// LayoutSubject{(8,32):(32,1)} whose claim's form is Claim{bijective}; run_check gives one result,
// PROVED, whose evidence is empty (a layout's witness is the verdict's own points).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "model/trace/trace.hpp"
#include "proofs/claims/bank_claims.hpp"
#include "proofs/claims/prove.hpp"
#include "proofs/claims/ptx_claims.hpp"
#include "model/support/source_location.hpp"
#include "proofs/claims/tma_claim.hpp"
#include "proofs/claims/trace_claims.hpp"
#include "proofs/raster/raster.hpp"
#include "proofs/raster/scheduler.hpp"
#include "proofs/raster/scheduler_query.hpp"
#include "proofs/synth/kernel_synth.hpp"

namespace layoutproof::proofs {

// ---- What a check is about ----

// Each subject has a `text`: the access of its check's id ("conflict-free [row-per-lane ld 16 B]"),
// which names the instruction, copy, access pattern or kind the claim is about beside the check's
// name; empty for a layout's own claims.
struct LayoutSubject {
  AnyLayout layout;  // for a bare swizzle: layout.swizzle holds it (proofs/claims/claim.hpp Subject)
  bool bare_swizzle = false;
  std::string text;
};
// A bank claim's access: the tile, the instruction and its width. `text` names it in the check's
// id ("row-per-lane ld 16 B").
struct AccessSubject {
  AnyLayout layout;
  BankSubject access;
  std::string text;
};
struct TmaSubject {
  AnyLayout layout;
  int element_bits = 0;
  std::string text;
};
// A TMA tensor map as the host encodes it (model/hopper/tensor_map.hpp); `text` its spec.
struct TensorMapSubject {
  hopper::TensorMap map;
  std::string text;
};
// A kernel copy's trace (its instructions); `text` says which copy ("s2r A LDSM_N x4").
struct CopySubject {
  std::shared_ptr<const AddressTrace> trace;
  std::string text;
};
// A spec smem tensor whose layout the synth --kernel search finds, then proves.
struct SynthSubject {
  std::shared_ptr<const KernelSynthRequest> request;
  std::string text;  // "shape (128,64), 2 copies"
};
// A compiled entry, before it runs: its kernels, launches and claims.
struct CompiledSubject {
  std::shared_ptr<const CompiledEntry> entry;
  std::string text;  // "kernel column_read of basic.ptx"
};
// One instruction of a compiled kernel, as run_compiled's results name it.
struct CompiledSite {
  std::string kernel;       // the kernel, demangled ("column_read(float*)")
  SourceLocation ptx;       // the instruction's line of the compiled file
  std::string instruction;  // as written there ("ld.shared.f32 %f2, [%r6];")
};
struct InstructionSubject {
  CompiledSite site;
  SourceLocation inlined;  // inlined into the check's code line (its call site): the line it came from
  std::string text;        // "column_read(float*), basic.ptx:225 ld.shared.f32, basic.cu:34"
};
struct SchedulerSubject {
  std::shared_ptr<const SchedulerQuery> query;
  std::string text;  // its kind ("sm90-persistent")
};
// A threadblock rasterization over its grids (proofs/raster/raster.hpp).
struct RasterizationSubject {
  RasterSubject raster;
  std::string text;
};

// The kind of check, as the outputs group and label it.
enum class CheckKind { layout, bank, tma, kernel, compiled, scheduler, raster };

// A result read back from a results JSON: its kind as the JSON's shape tells it, its layout when
// it names one, its access text. It decides nothing; the presenters read it as the run wrote it.
struct RecordedSubject {
  CheckKind kind = CheckKind::layout;
  std::optional<AnyLayout> layout;
  std::string text;
};

using CheckSubject = std::variant<LayoutSubject, AccessSubject, TmaSubject, TensorMapSubject, CopySubject, SynthSubject,
                             CompiledSubject, InstructionSubject, SchedulerSubject, RasterizationSubject, RecordedSubject>;

// ---- The claim, parsed once ----

struct CheckClaim {
  std::string text;  // as written: "bijective", "conflict-free", "tma:Sw<3,4,3>", ...
  // The form the subject's decider takes; monostate for a compiled entry (its claims are the
  // entry's) and for a result read back (a scheduler's holds its SchedulerClaim).
  std::variant<std::monostate, Claim, BankClaim, TmaClaim, TraceClaim, PtxClaim, SchedulerClaim, RasterClaim> form;
};

// ---- Where it came from ----

struct Origin {
  SourceLocation where;  // the spec node; empty file: the command line or the built-in catalog
  SourceLocation code;   // the kernel source the check is about (a spec's source: file:line, a
                         // compiled instruction's CUDA line), for SARIF; empty: none
  // The command line that decides this check on its own (shell-quoted; the report's "command"
  // cell): a spec kernel claim's `layoutproof trace ...` (under an align: placement without
  // --base: the report adds the base its witness names), a scheduler claim's `layoutproof raster
  // prove ...`, a compiled claim's `layoutproof ptx ... --claim C`. Empty: none.
  std::string command;
};

struct Check {
  std::string name;  // the subject's name: "GMMA::Layout_K_SW128_Atom (16-bit)", "sA"
  CheckSubject subject;
  CheckClaim claim;
  Origin origin;
  // The check's own time limit in seconds, from its start, when it comes before the run's (a
  // spec's scheduler entry's deadline_s). Empty: the run's alone.
  std::optional<double> deadline_s;

  CheckKind kind() const;
  std::string id() const;  // "name: claim [access]", unique within a run
};

// What the subject says of itself, for the presenters: the access text of the id ("" for a layout
// or tma subject), the layout it is about (none: a trace, an entry, a scheduler, a recorded
// result without one), the compiled instruction (none: not one).
const std::string& access_text(const Check& c);
std::string& access_text(Check& c);
const AnyLayout* layout_of(const Check& c);
const CompiledSite* site_of(const Check& c);
const SourceLocation* inlined_of(const Check& c);  // a compiled instruction's inlined-from line, when it has one

// ---- The result ----

// A refuted trace claim's witness (a kernel copy's or a compiled instruction's) and the issues it
// indexes. A result read back from a results JSON has no trace: `addresses` holds the byte address
// of each witness lane as that run's trace gave them (its witness's "addresses").
struct TraceEvidence {
  TraceWitness witness;
  std::shared_ptr<const AddressTrace> trace;
  std::vector<i64> addresses;
};
// A scheduler's balance, measured: work units per CTA, max over mean (over a domain: the largest
// of its configurations').
struct BalanceMeasure {
  double max_over_mean = 0;
};
// What a result's verdict points into beyond its own witness (a layout or tma claim's points are
// the verdict's): a refuted bank claim's instruction, lanes and bank; a refuted trace claim's
// issues; a measured balance. Empty otherwise.
using Evidence = std::variant<std::monostate, BankWitness, TraceEvidence, BalanceMeasure>;

struct CheckResult {
  CheckResult() = default;
  CheckResult(Check c, Verdict v, Evidence e = {}) : check(std::move(c)), verdict(std::move(v)), evidence(std::move(e)) {}

  Check check;
  Verdict verdict;
  Evidence evidence;
  // The check's place among the run's checks (a compiled entry's results share it; a shard's
  // results keep their places in the whole run, so that merged shards read as one run). -1: none.
  std::int64_t position = -1;
  // Against a baseline (check --baseline, cli/spec/baseline.hpp): "new", "fixed" or "unchanged";
  // "" without one.
  std::string change;
};

// True for a claim that is a measurement, not a proof (a scheduler's balance): its PROVED verdict
// (measured) is shown as REPORT (verdict_label). It is never REFUTED, so whatever it measures it
// never fails a run; one not measured (UNKNOWN: the deadline; ERROR) counts as any undecided claim.
bool is_report(const Check& c);
// The verdict as every output shows it: "REPORT" for a report that was measured, else PROVED,
// REFUTED, UNKNOWN or ERROR.
std::string verdict_label(const CheckResult& r);

// ---- Making checks ----

// A check for a layout, tma or bank claim written as text, which it parses (a tma claim's domain
// validated on the layout, of element_bits-bit elements); throws LayoutError when the claim is
// unknown or a bank claim lacks an access.
Check make_check(std::string name, AnyLayout layout, const std::string& claim, std::optional<BankSubject> access,
                 SourceLocation where = {}, int element_bits = 0);

// A claim over a kernel copy's trace; `access_text` says which copy ("s2r A LDSM_N x4"). Throws
// LayoutError when the claim is not a trace claim.
Check make_kernel_check(std::string name, std::shared_ptr<const AddressTrace> trace, const std::string& claim,
                        std::string access_text, SourceLocation where = {});

// The exit code of a run is cli/output/results.hpp's exit_code, its one place.

}  // namespace layoutproof::proofs
