// The one dispatch from a check to its decider (proofs/check/run_check.hpp).
#include "proofs/check/run_check.hpp"

#include <chrono>

#include "proofs/check/compiled.hpp"
#include "proofs/raster/scheduler_query.hpp"
#include "proofs/synth/kernel_synth.hpp"

namespace layoutproof::proofs {
namespace {

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// A check that gives one result (every kind but a compiled entry), decided under o.
CheckResult decide(const Check& c, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  CheckResult r{c, Verdict::error("", "not run"), std::nullopt, std::nullopt, std::nullopt};
  try {
    switch (c.kind) {
      case Check::Kind::layout:
        r.verdict = prove(Subject{c.layout, false}, parse_claim(c.claim), o);
        break;
      case Check::Kind::bank: {
        BankResult b = prove_bank(*c.access, *parse_bank_claim(c.claim), o);
        r.verdict = std::move(b.verdict);
        r.bank_witness = std::move(b.witness);
        break;
      }
      case Check::Kind::tma:
        r.verdict = decide_tma(c);
        break;
      case Check::Kind::kernel: {
        if (c.synth) {
          r.verdict = kernel_synth_verdict(*c.synth, o);
          break;
        }
        TraceResult t = prove_trace(*c.trace, *parse_trace_claim(c.claim), o);
        r.verdict = std::move(t.verdict);
        if (t.witness && r.verdict.witness.why.empty()) r.verdict.witness.why = t.witness->why;
        r.trace_witness = std::move(t.witness);
        break;
      }
      case Check::Kind::compiled:  // run_check hands it to run_compiled
        r.verdict = Verdict::error("", "a compiled entry gives one result per instruction");
        break;
      case Check::Kind::scheduler: {
        SchedulerResult s = prove_scheduler_query(*c.scheduler, c.scheduler_claim, o);
        r.verdict = o.smt.deadline.expire(std::move(s.verdict));
        // The witness names its configuration, as `raster prove` prints it: the domain's search
        // reports the smallest failing one, which the check's text alone does not tell.
        if (r.verdict.is_refuted()) r.verdict.witness.why += " [" + s.config + "]";
        if (c.scheduler_claim == SchedulerClaim::balance && r.verdict.is_proved()) r.balance = s.balance_max_over_mean;
        break;
      }
    }
  } catch (const std::exception& e) {
    r.verdict = Verdict::error("", e.what());
  }
  if (r.verdict.time_ms == 0) r.verdict.time_ms = elapsed_ms(t0);
  return r;
}

}  // namespace

std::vector<CheckResult> run_check(const Check& c, const ProveOptions& options) {
  // Its kernels run even past the deadline: each claim at each instruction says so.
  if (c.kind == Check::Kind::compiled) return run_compiled(c, options);
  const Deadline& deadline = options.smt.deadline;
  if (deadline.passed())  // not started by the deadline: UNKNOWN
    return {CheckResult{c, Verdict::unknown("deadline", deadline.reason()), std::nullopt, std::nullopt, std::nullopt}};
  if (!c.deadline_s) return {decide(c, options)};
  ProveOptions own = options;  // the check's own limit, when it comes first
  const Deadline d = Deadline::in_seconds(*c.deadline_s, "deadline_s");
  if (!own.smt.deadline.at || *d.at < *own.smt.deadline.at) own.smt.deadline = d;
  return {decide(c, own)};
}

}  // namespace layoutproof::proofs
