// The one dispatch from a check to its decider (proofs/check/run_check.hpp).
#include "proofs/check/run_check.hpp"

#include <chrono>

#include "model/support/overload.hpp"
#include "proofs/check/compiled.hpp"
#include "proofs/raster/scheduler_query.hpp"
#include "proofs/synth/kernel_synth.hpp"

namespace layoutproof::proofs {
namespace {

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The verdict of a check that gives one result (every kind but a compiled entry), decided under
// o, and its evidence.
struct Decided {
  Verdict verdict;
  Evidence evidence;
};

Decided decide_subject(const Check& c, const ProveOptions& o) {
  const CheckClaim& claim = c.claim;
  return std::visit(
      Overload{
          [&](const LayoutSubject& s) -> Decided { return {prove(Subject{s.layout, s.bare_swizzle}, std::get<Claim>(claim.form), o), {}}; },
          [&](const AccessSubject& s) -> Decided {
            BankResult b = prove_bank(s.access, std::get<BankClaim>(claim.form), o);
            Evidence e;
            if (b.witness) e = std::move(*b.witness);
            return {std::move(b.verdict), std::move(e)};
          },
          [&](const TmaSubject& s) -> Decided { return {decide_tma(s.layout, s.element_bits, std::get<TmaClaim>(claim.form), claim.text), {}}; },
          [&](const TensorMapSubject& s) -> Decided { return {decide_tensor_map_valid(s.map), {}}; },
          [&](const CopySubject& s) -> Decided {
            TraceResult t = prove_trace(*s.trace, std::get<TraceClaim>(claim.form), o);
            Decided d{std::move(t.verdict), {}};
            if (t.witness) {
              if (d.verdict.witness.why.empty()) d.verdict.witness.why = t.witness->why;
              d.evidence = TraceEvidence{std::move(*t.witness), s.trace, {}};
            }
            return d;
          },
          [&](const SynthSubject& s) -> Decided { return {kernel_synth_verdict(*s.request, o), {}}; },
          [&](const CompiledSubject&) -> Decided {  // run_check hands it to run_compiled
            return {Verdict::error("", "a compiled entry gives one result per instruction"), {}};
          },
          [&](const InstructionSubject&) -> Decided {
            return {Verdict::error("", "a compiled instruction's claim is decided with its entry's run"), {}};
          },
          [&](const SchedulerSubject& s) -> Decided {
            SchedulerResult r = prove_scheduler_query(*s.query, std::get<SchedulerClaim>(claim.form), o);
            r.verdict = o.smt.deadline.expire(std::move(r.verdict));
            CheckResult res = scheduler_check_result(c, r);
            return {std::move(res.verdict), std::move(res.evidence)};
          },
          [&](const RasterizationSubject& s) -> Decided {
            RasterResult r = prove_raster(s.raster, std::get<RasterClaim>(claim.form), o);
            if (r.witness) r.verdict.witness = raster_witness(s.raster, *r.witness);
            return {std::move(r.verdict), {}};
          },
          [&](const RecordedSubject&) -> Decided {
            return {Verdict::error("", "a result read back from a results file is not decided again"), {}};
          }},
      c.subject);
}

CheckResult decide(const Check& c, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  CheckResult r{c, Verdict::error("", "not run"), {}};
  try {
    Decided d = decide_subject(c, o);
    r.verdict = std::move(d.verdict);
    r.evidence = std::move(d.evidence);
  } catch (const std::exception& e) {
    r.verdict = Verdict::error("", e.what());
  }
  if (r.verdict.time_ms == 0) r.verdict.time_ms = elapsed_ms(t0);
  return r;
}

}  // namespace

CheckResult scheduler_check_result(Check c, const SchedulerResult& r) {
  CheckResult res{std::move(c), r.verdict, {}};
  // The witness names its configuration: the domain's search reports the smallest failing one,
  // which the check's text alone does not tell.
  if (res.verdict.is_refuted()) res.verdict.witness.why += " [" + r.config + "]";
  // balance is a measurement, not a claim: it is reported (REPORT), never shown as PROVED.
  if (is_report(res.check) && res.verdict.is_proved()) res.evidence = BalanceMeasure{r.balance_max_over_mean};
  return res;
}

std::vector<CheckResult> run_check(const Check& c, const ProveOptions& options) {
  // Its kernels run even past the deadline: each claim at each instruction says so.
  if (std::holds_alternative<CompiledSubject>(c.subject)) return run_compiled(c, options);
  const Deadline& deadline = options.smt.deadline;
  if (deadline.passed())  // not started by the deadline: UNKNOWN
    return {CheckResult{c, Verdict::unknown("deadline", deadline.reason()), {}}};
  if (!c.deadline_s) return {decide(c, options)};
  ProveOptions own = options;  // the check's own limit, when it comes first
  const Deadline d = Deadline::in_seconds(*c.deadline_s, "deadline_s");
  if (!own.smt.deadline.at || *d.at < *own.smt.deadline.at) own.smt.deadline = d;
  return {decide(c, own)};
}

}  // namespace layoutproof::proofs
