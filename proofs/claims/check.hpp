#pragma once
// A check: one claim about one subject, with where it came from. The catalog (proofs/catalog/catalog.hpp)
// and spec files (cli/spec/spec.hpp) produce checks; run_check() (proofs/check/run_check.hpp) decides
// each, of any kind, with the deciders of proofs/claims/, proofs/synth/ and proofs/raster/; the CLI
// prints them (table, JSON, JUnit, SARIF, Markdown, HTML reports).
//
// Claim kinds:
//   layout claims  injective, bijective, surjective:N, contiguous:V[@m], equivalent:L2,
//                  involution, inverse:R                                 (proofs/claims/claim.hpp)
//   bank claims    conflict-free, max-ways:K over every instruction of an access
//                  (proofs/claims/bank_claims.hpp)
//   kernel claims  conflict-free, max-ways:K, vector-legal, covers over the address trace of a
//                  kernel's real copy (a TiledCopy partitioning its staged smem tensor;
//                  proofs/claims/trace_claims.hpp)
//   compiled claims  conflict-free, max-ways:K, aligned, in-bounds, no-overlap over every
//                  shared-memory instruction of a compiled kernel run for one CTA (a spec's
//                  compiled: entry; proofs/check/compiled.hpp run_compiled gives one result per
//                  kernel, instruction and claim)
//   scheduler claims  exactly-once, in-range, balance (a report: REPORT, never PROVED), and
//                  k-exactly-once (sm90-stream-k) over a persistent tile scheduler's configuration
//                  or a domain of them (a spec's schedulers: entry; proofs/raster/scheduler_query.hpp
//                  prove_scheduler_query decides it, as `layoutproof raster prove` does)
//   tma:Sw<B,M,S>[,base=ADDR|,align=N][,box=SHAPE]
//                  what the kernel reads through the element-unit layout is what TMA wrote with its
//                  swizzle Sw<B,M,S>, which acts on ABSOLUTE shared-memory byte addresses (H100,
//                  shared/facts): for every x of the box (default: the whole layout, one integer
//                  coordinate per top-level mode; box=(64,8) takes the first 64 x 8),
//                    8*base + b(L(x)) == 8*Sw(base + floor(b(inner(x))/8)) + b(inner(x)) mod 8,
//                  b(o) = o*bits, base = the buffer's byte address (default 0). Bit addresses, so a
//                  sub-byte element keeps its place in its byte. At a base that is not a multiple
//                  of 2^(M+B+|S|) bytes (1024 for Sw<3,4,3>), the tile-relative layout is not TMA's:
//                  refuted, and the witness says so. Decided by enumeration.
//                  align=N: for every base that is a multiple of N, decided by the multiples of N
//                  below the period P of model/trace/smem_bases.hpp (a base moved by P moves every
//                  address by P); one verdict, whose witness names its base.
//                  Example: Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1), tma:Sw<3,4,3>,align=1024
//                  is PROVED (the one base 0 decides it); align=128 is REFUTED at base 128.
#include <optional>
#include <string>
#include <vector>

#include <memory>

#include "model/trace/trace.hpp"
#include "proofs/claims/bank_claims.hpp"
#include "proofs/claims/prove.hpp"
#include "proofs/claims/trace_claims.hpp"

namespace layoutproof::proofs {

struct SourceLocation {
  std::string file;  // empty: built in
  int line = 0;
  int column = 0;
};

struct KernelSynthRequest;  // proofs/synth/kernel_synth.hpp
struct CompiledEntry;       // proofs/claims/ptx_claims.hpp
struct SchedulerQuery;      // proofs/raster/scheduler_query.hpp

// The claims over a persistent tile scheduler: proofs/raster/scheduler.hpp reads them
// (parse_scheduler_claim) and decides them. Declared here, where a check names its claim, so that
// is_report tells a measurement (balance) from a proof without the room that decides it.
enum class SchedulerClaim { exactly_once, in_range, balance, k_exactly_once, launches };

// The instruction a compiled claim's result is about.
struct CompiledSite {
  std::string kernel;       // the kernel, demangled ("column_read(float*)")
  SourceLocation ptx;       // the instruction's line of the compiled file
  std::string instruction;  // as written there ("ld.shared.f32 %f2, [%r6];")
};

struct Check {
  enum class Kind { layout, bank, tma, kernel, compiled, scheduler };
  Kind kind = Kind::layout;
  std::string subject;      // a name: "GMMA::Layout_K_SW128_Atom (16-bit)", "sA"
  AnyLayout layout;         // the layout the claim is about
  std::string claim;        // as written: "bijective", "conflict-free", "tma:Sw<3,4,3>", ...
  std::string access_text;  // bank claims: "row-per-lane ld 16 B" (empty otherwise)
  std::optional<BankSubject> access;  // bank claims
  int element_bits = 0;     // tma claims (and for display)
  std::shared_ptr<const AddressTrace> trace;  // kernel claims: the copy's instructions
  // kernel kind, a spec smem tensor's `layout: synthesize`: the synth --kernel search decides it
  // (kernel_synth_verdict, proofs/synth/kernel_synth.hpp); `trace` is then empty.
  std::shared_ptr<const KernelSynthRequest> synth;
  // compiled kind: the entry, decided by run_check (through run_compiled), which gives one result per
  // instruction; each result's check has `site` (and `code`: the instruction's CUDA line, from
  // its .loc) instead, and a REFUTED one `trace` (the instruction's issues its witness indexes).
  std::shared_ptr<const CompiledEntry> compiled;
  std::optional<CompiledSite> site;
  // scheduler kind: the question (kind, the parameters given, the free ones' bounds) and the claim
  // (`claim` is its text); run_check decides it with prove_scheduler_query.
  std::shared_ptr<const SchedulerQuery> scheduler;
  SchedulerClaim scheduler_claim{};
  // The check's own time limit in seconds, from its start, when it comes before the run's
  // (a spec's scheduler entry's deadline_s). Empty: the run's alone.
  std::optional<double> deadline_s;
  SourceLocation where;
  SourceLocation code;      // the kernel source the spec names (source: file:line), for SARIF; empty: none
  SourceLocation inlined;   // a compiled instruction inlined into `code` (its call site): the line it came from
  // Kernel claims of a spec: the `layoutproof trace ...` command line that decides this claim on its
  // own (shell-quoted; the report's "command" cell). Under an align: placement it has no --base: the
  // report adds the base its witness names. Scheduler claims: the `layoutproof raster prove ...`
  // line. Empty: none.
  std::string command;

  std::string id() const;   // "subject: claim [access]", unique within a run
};

struct CheckResult {
  Check check;
  Verdict verdict;
  std::optional<BankWitness> bank_witness;  // REFUTED bank claims
  std::optional<TraceWitness> trace_witness;  // REFUTED kernel claims
  // A scheduler's balance claim, measured: work units per CTA, max over mean (over a domain: the
  // largest of its configurations').
  std::optional<double> balance;
  // The check's place among the run's checks (a compiled entry's results share it; a shard's
  // results keep their places in the whole run, so that merged shards read as one run). -1: none.
  std::int64_t position = -1;
  // Against a baseline (check --baseline, cli/spec/baseline.hpp): "new", "fixed" or "unchanged";
  // "" without one.
  std::string change;
  // A result read back from an earlier run's results JSON (`layoutproof merge`,
  // cli/spec/results_reader.hpp) holds no trace: the byte address of each of trace_witness's
  // lanes, as that run's trace gave them (its witness's "addresses"). Empty otherwise.
  std::vector<i64> witness_addresses;
};

// True for a claim that is a measurement, not a proof (a scheduler's balance): its PROVED verdict
// (measured) is shown as REPORT (verdict_label). It is never REFUTED, so whatever it measures it
// never fails a run; one not measured (UNKNOWN: the deadline; ERROR) counts as any undecided claim.
bool is_report(const Check& c);
// The verdict as every output shows it: "REPORT" for a report that was measured, else PROVED,
// REFUTED, UNKNOWN or ERROR.
std::string verdict_label(const CheckResult& r);

struct TmaClaim {
  Swizzle sw;
  i64 base = 0;                 // the buffer's shared-memory byte address
  std::optional<i64> align;     // align=N instead of base=: every multiple of N (a power of two)
  std::optional<IntTuple> box;  // the TMA box (extent per top-level mode); none: the whole layout
};
// nullopt when the text does not start with "tma:"; LayoutError when it does but is malformed.
std::optional<TmaClaim> parse_tma_claim(const std::string& claim);
// Refuses (LayoutError) a tma claim's domain on `l` before anything is enumerated: a box with more
// modes than l, a box extent outside [1, size of l's mode], or more than kTmaDomainLimit elements.
inline constexpr i64 kTmaDomainLimit = i64{1} << 22;
void validate_tma_domain(const AnyLayout& l, const TmaClaim& t, const std::string& claim);

// Decides a tma: check (c.kind == Check::Kind::tma) by enumeration; never throws (a malformed claim
// or domain is an ERROR verdict), and the verdict carries its time. run_check decides a tma check
// with it; kernel synthesis proves its winner's TMA swizzle with it.
// Example: c = make_check("smem", Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1),
// "tma:Sw<3,4,3>,align=1024", nullopt) with c.element_bits = 16 is PROVED (the one base 0 decides it).
Verdict decide_tma(const Check& c);

// A check for a layout or bank claim written as text; throws LayoutError when the claim is
// unknown or a bank claim lacks an access.
Check make_check(std::string subject, AnyLayout layout, const std::string& claim, std::optional<BankSubject> access,
                 SourceLocation where = {});

// A claim over a kernel copy's trace; `access_text` says which copy ("s2r A LDSM_N x4"). Throws
// LayoutError when the claim is not a trace claim.
Check make_kernel_check(std::string subject, std::shared_ptr<const AddressTrace> trace, const std::string& claim,
                        std::string access_text, SourceLocation where = {});

// The exit code of a run is cli/output/results.hpp's exit_code, its one place.

}  // namespace layoutproof::proofs
