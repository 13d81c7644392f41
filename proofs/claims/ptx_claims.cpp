// Claims over a compiled kernel's shared-memory instruction (proofs/claims/ptx_claims.hpp).
#include "proofs/claims/ptx_claims.hpp"

#include <algorithm>
#include <chrono>
#include <set>
#include <unordered_map>

#include "model/bank/bank.hpp"
#include "model/compiled/ptx_parse.hpp"  // demangle

namespace layoutproof::proofs {
namespace {

using Kind = PtxClaim::Kind;

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

std::string launch_text(const compiled::KernelRun& run) {
  if (run.every_cta)
    return "block " + dims_text(run.block) + ", every CTA of " + (run.every_grid ? "every grid" : "grid " + dims_text(run.grid));
  return "block " + dims_text(run.block) + ", CTA (" + dims_text(run.cta) + ") of grid " + dims_text(run.grid) + (run.cta_chosen ? " (that CTA alone)" : "");
}

std::string method_text(const compiled::Site& s, const compiled::KernelRun& run) {
  return "exhaustive over the launch (" + launch_text(run) + "): " + std::to_string(s.executed) + " warp issues, " +
         std::to_string(s.trace.instructions.size()) + " distinct";
}

// "lane 3 (thread 35) at byte 140 (bank 3)".
std::string lane_text(const TraceInstruction& in, int l) {
  const i64 a = in.addr[at(l)];
  return "lane " + std::to_string(l) + " (thread " + std::to_string(in.thread[at(l)]) + ") at byte " + std::to_string(a) +
         " (bank " + std::to_string(bank_of(a)) + ")";
}

// CTA (0,0,0) alone ran one of several and the site's addresses or guards, or the kernel's
// branches, depend on %ctaid: another CTA may issue it differently, or at all (--cta names one).
bool one_cta_of_many(const compiled::KernelRun& run) {
  return run.grid[0] * run.grid[1] * run.grid[2] > 1 && !run.cta_chosen && !run.every_cta;
}
bool other_ctas_may_differ(const compiled::KernelRun& run, const compiled::Site& s) {
  return one_cta_of_many(run) && (s.cta_dependent || run.cta_control);
}

// The doubts that forbid PROVED (ptx_claims.hpp), as one reason; "" when there are none.
// grouping: the claim depends on how lanes group into issues (divergence matters).
std::string doubt(const compiled::KernelRun& run, const compiled::Site& s, bool grouping) {
  if (!run.stopped.empty()) return "a lane stopped early (" + run.stopped + "): later issues are missing";
  if (s.unknown_issues) return std::to_string(s.unknown_issues) + " issue(s) with a lane not known: " + s.unknown;
  if (s.symbolic_capped) return "more distinct issues with free parameters than the run keeps: not all were checked";
  if (s.patterns_capped) return "more distinct issues than the run keeps: not all were checked";
  if (other_ctas_may_differ(run, s))
    return std::string(s.cta_dependent ? "addresses or guards" : "branches") +
           " depend on %ctaid and the grid has more than one CTA: CTA (0,0,0) alone was run (--cta X,Y,Z decides one CTA, "
           "--grid 1,1,1 a one-CTA launch)";
  for (const compiled::Pattern& p : s.patterns) {
    if (grouping && p.divergent)
      return "divergent control flow (" + s.divergent + "): how the hardware groups those lanes into issues is not modelled";
  }
  return "";
}

// Whether any lane of the launch executed the site (an issue with an active lane, known or free);
// an issue whose lanes were not known counts as run (its doubt is said). `@!PT` instructions issue
// with no active lane: Nsight Compute counts them executed, but they touch nothing.
bool ran(const compiled::Site& s) {
  if (s.unknown_issues > 0 || !s.symbolic.empty()) return true;
  for (const TraceInstruction& in : s.trace.instructions)
    for (int lane = 0; lane < kWarpLanes; ++lane)
      if (is_active_lane(in, lane)) return true;
  return false;
}

// A pattern may refute when every doubt about it is absent.
bool may_refute(const compiled::KernelRun& run, const compiled::Pattern& p, bool grouping) {
  if (grouping && p.divergent) return false;
  return std::find(run.stopped_warps.begin(), run.stopped_warps.end(), p.warp) == run.stopped_warps.end();
}

// Replays pattern k of the site (its warp re-executed alone) and checks the lanes' addresses and,
// where the pattern kept the data its lanes store (no-overlap's witnesses), their data.
bool replays(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s, i64 k,
             const std::vector<int>& lanes, std::string& why) {
  const compiled::Pattern& p = s.patterns[at(k)];
  std::shared_ptr<const compiled::Written> data;
  const auto a = compiled::replay_issue(prog, run.entry, l, s.function, s.pc, p.warp, p.execution, &data);
  if (!a) {
    why = "the witness issue (warp " + std::to_string(p.warp) + ", execution " + std::to_string(p.execution) + ") did not replay";
    return false;
  }
  for (const int lane : lanes)
    if ((*a)[at(lane)] != s.trace.instructions[at(k)].addr[at(lane)]) {
      why = "the witness did not replay: lane " + std::to_string(lane) + " is at byte " + std::to_string((*a)[at(lane)]) +
            " when re-executed";
      return false;
    }
  if (p.written)
    for (const int lane : lanes)
      if (!data || data->bytes[at(lane)] != p.written->bytes[at(lane)] || data->why[at(lane)] != p.written->why[at(lane)]) {
        why = "the witness did not replay: lane " + std::to_string(lane) + " stores other data when re-executed";
        return false;
      }
  return true;
}

PtxClaimResult refuted(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s, i64 k,
                       TraceWitness w, const std::string& method) {
  std::string why;
  if (!replays(prog, l, run, s, k, w.lanes, why)) return {true, Verdict::error(method, why), std::nullopt};
  Witness vw;
  const TraceInstruction& in = s.trace.instructions[at(k)];
  for (const int lane : w.lanes)
    vw.points.push_back({"lane " + std::to_string(lane) + " (thread " + std::to_string(in.thread[at(lane)]) + ")", -1, "",
                         in.addr[at(lane)], "byte"});
  vw.why = w.why;
  w.instruction = k;
  w.warp = in.warp;
  w.copy_coord = {in.index};
  return {true, Verdict::refuted(method, std::move(vw)), std::move(w)};
}

TraceWitness witness_at(const compiled::Site& s, i64 k, std::vector<int> lanes, const std::string& what) {
  const TraceInstruction& in = s.trace.instructions[at(k)];
  TraceWitness w;
  w.instruction = k;
  w.warp = in.warp;
  w.lanes = std::move(lanes);
  w.why = in.where + ": " + what;
  return w;
}

PtxClaimResult bank(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s,
                    const PtxClaim& c, const ProveOptions& o) {
  const std::string method = method_text(s, run);
  if (!s.bank_modelled)
    return {true, Verdict::unknown(method, s.op + ".shared: the bank model has no rule for atomics (not measured)"), std::nullopt};
  // The issues that may decide: all but the divergent ones (which only make PROVED impossible).
  AddressTrace sub = s.trace;
  sub.instructions.clear();
  std::vector<i64> index;
  for (std::size_t k = 0; k < s.patterns.size(); ++k)
    if (may_refute(run, s.patterns[k], true)) {
      sub.instructions.push_back(s.trace.instructions[k]);
      index.push_back(static_cast<i64>(k));
    }
  const std::string doubts = s.generic && s.width_bytes < 4 ? std::string(compiled::kNarrowGenericWhy) : doubt(run, s, true);
  if (sub.instructions.empty())
    return {true, doubts.empty() ? Verdict::proved(method, "no issue with an active lane in this launch") : Verdict::unknown(method, doubts),
            std::nullopt};
  TraceClaim tc;
  tc.kind = c.kind == Kind::conflict_free ? TraceClaim::Kind::conflict_free : TraceClaim::Kind::max_ways;
  tc.k = c.k;
  tc.text = c.text;
  // LDGSTS's global side (ptx_exec.cpp's count, model/bank/bank.hpp count_ldgsts_measured): an
  // issue whose global reads (the L1 banks of its global words) take more wavefronts than ideal.
  // An issue whose global side was not counted refutes nothing there, and proves nothing either:
  // its shared side alone cannot make the claim PROVED (global_undecided).
  i64 global_undecided = 0;
  if (s.op == "ldgsts" && c.kind == Kind::conflict_free)
    for (std::size_t j = 0; j < index.size(); ++j) {
      const i64 k = index[j];
      const compiled::Pattern& p = s.patterns[at(k)];
      if (p.ldgsts_wavefronts < 0) {
        ++global_undecided;
        continue;
      }
      const SmemAccess acc = s.trace.instructions[at(k)].access();
      // Recomputed by the rule that counted it (ptx_exec.cpp count_ldgsts): the replay of the count.
      const std::optional<Wavefronts> measured = count_ldgsts_measured(acc, p.global_line);
      if (!measured) {
        ++global_undecided;
        continue;
      }
      // A 4-byte copy whose shared side already conflicts is refuted below, by its shared side's witness.
      if (s.width_bytes < 8 && count_wavefronts(acc).wavefronts > count_wavefronts(acc).ideal) continue;
      const Wavefronts w = *measured;
      if (w.wavefronts != p.ldgsts_wavefronts)
        return {true, Verdict::error(method, "the LDGSTS count did not replay on the bank model"), std::nullopt};
      if (w.wavefronts <= w.ideal) continue;
      std::vector<int> lanes;
      for (int lane = 0; lane < kWarpLanes; ++lane)
        if (is_active_lane(s.trace.instructions[at(k)], lane)) lanes.push_back(lane);
      return refuted(prog, l, run, s, k,  // refuted() replays the issue
                     witness_at(s, k, lanes,
                                std::to_string(w.wavefronts) + " wavefronts for an ideal of " + std::to_string(w.ideal) +
                                    ": LDGSTS reads its global words through the L1 banks one lane per bank at a time, and its "
                                    "lanes' global addresses meet in a bank (the shared side alone takes " +
                                    std::to_string(count_wavefronts(acc).wavefronts) + ")"),
                     method + "; LDGSTS global and shared banks: exhaustive over the issues");
    }
  TraceResult r = prove_trace(sub, tc, o);
  r.verdict.method = method + "; " + r.verdict.method;
  if (r.verdict.is_refuted() && r.witness) {
    const i64 k = index[at(r.witness->instruction)];
    TraceWitness w = *r.witness;
    // Replay: the warp re-executed, the bank model re-run on its addresses, the violation again.
    std::string why;
    if (!replays(prog, l, run, s, k, w.lanes, why)) return {true, Verdict::error(r.verdict.method, why), std::nullopt};
    const BankReport b = analyze_smem_access(s.trace.instructions[at(k)].access());
    int ways = 1;
    for (const auto& col : b.collisions) ways = std::max(ways, col.ways());
    const bool again = c.kind == Kind::conflict_free ? b.wavefronts > b.ideal : ways > c.k;
    if (!again) return {true, Verdict::error(r.verdict.method, "the witness did not replay on the bank model"), std::nullopt};
    w.instruction = k;
    w.copy_coord = {s.trace.instructions[at(k)].index};
    r.verdict.witness.why = w.why;
    return {true, std::move(r.verdict), std::move(w)};
  }
  if (r.verdict.is_proved() && !doubts.empty()) return {true, Verdict::unknown(r.verdict.method, doubts), std::nullopt};
  if (r.verdict.is_proved() && global_undecided > 0)
    return {true,
            Verdict::unknown(r.verdict.method, "the shared side takes its ideal wavefronts, but the global side of " +
                                                   std::to_string(global_undecided) + " issue(s) is not counted" +
                                                   (s.invalid.empty() ? "" : " (" + s.invalid + ")") +
                                                   ": whether their global reads meet in an L1 bank is not decided"),
            std::nullopt};
  return {true, std::move(r.verdict), std::nullopt};
}

// A lane's `w` bytes as one hexadecimal number (little-endian: byte 0 is the lowest digits).
std::string data_text(const compiled::Written& d, int lane, int w) {
  static const char* digits = "0123456789abcdef";
  std::string t = "0x";
  for (int j = w - 1; j >= 0; --j) {
    const compiled::u8 b = d.bytes[at(lane)][at(j)];
    t += digits[b >> 4];
    t += digits[b & 15];
  }
  return t;
}

PtxClaimResult lanes_claim(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s,
                           const PtxClaim& c) {
  const std::string method = method_text(s, run);
  const int w = s.width_bytes;
  if (w <= 0) return {true, Verdict::error(method, "the access width is not known (cp.async without a constant size)"), std::nullopt};
  std::string lane_doubt;  // in-bounds: a lane whose symbol or extent is not known
  std::string data_doubt;  // no-overlap: lanes writing common bytes, one's data not known
  i64 lanes_checked = 0;
  const compiled::SharedWindow window = compiled::shared_window(prog, l);
  for (std::size_t k = 0; k < s.trace.instructions.size(); ++k) {
    const TraceInstruction& in = s.trace.instructions[k];
    const compiled::Pattern& p = s.patterns[k];
    const bool grouping = c.kind == Kind::no_overlap;
    std::vector<std::pair<i64, int>> spans;  // no-overlap: (address, lane)
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      if (!is_active_lane(in, lane)) continue;
      ++lanes_checked;
      const i64 a = in.addr[at(lane)];
      if (c.kind == Kind::aligned && a % w != 0 && may_refute(run, p, false))
        return refuted(prog, l, run, s, static_cast<i64>(k),
                       witness_at(s, static_cast<i64>(k), {lane},
                                  lane_text(in, lane) + " is not a multiple of " + std::to_string(w) + " bytes: the " +
                                      std::to_string(w) + "-byte access faults"),
                       method);
      if (c.kind == Kind::in_bounds) {
        const int pl = p.placement[at(lane)];
        if (pl < 0 && window.applies) {  // SASS: the CTA's window, from its reserved bytes on
          const i64 lo = window.lo, n = window.hi - window.lo;
          if (!window.sized) {
            if (lane_doubt.empty())
              lane_doubt = "SASS names no shared symbols: give the CTA's shared memory size, static and dynamic (--smem-bytes N)";
            continue;
          }
          if ((a < lo || a + w > lo + n) && may_refute(run, p, false))
            return refuted(prog, l, run, s, static_cast<i64>(k),
                           witness_at(s, static_cast<i64>(k), {lane},
                                      lane_text(in, lane) + ": bytes " + std::to_string(a) + ".." + std::to_string(a + w - 1) +
                                          " are outside the CTA's shared memory (bytes " + std::to_string(lo) + ".." +
                                          std::to_string(lo + n - 1) + " of its window, after the 1 KiB reserved)"),
                           method);
          if (grouping) spans.push_back({a, lane});
          continue;
        }
        if (pl < 0) {
          if (lane_doubt.empty())
            lane_doubt = in.where + ": lane " + std::to_string(lane) + "'s address is not computed from one shared symbol";
          continue;
        }
        const compiled::Placement& sym = run.placements[at(pl)];
        const std::string& name = prog.shared[sym.symbol].name;
        if (sym.bytes < 0) {
          if (lane_doubt.empty()) lane_doubt = "'" + name + "' is dynamic shared memory: give its size (--smem-bytes N)";
          continue;
        }
        if ((a < sym.base || a + w > sym.base + sym.bytes) && may_refute(run, p, false))
          return refuted(prog, l, run, s, static_cast<i64>(k),
                         witness_at(s, static_cast<i64>(k), {lane},
                                    lane_text(in, lane) + ": bytes " + std::to_string(a) + ".." + std::to_string(a + w - 1) +
                                        " are outside '" + name + "' (bytes " + std::to_string(sym.base) + ".." +
                                        std::to_string(sym.base + sym.bytes - 1) + ")"),
                         method);
      }
      if (grouping) spans.push_back({a, lane});
    }
    if (grouping && may_refute(run, p, true)) {
      // Every pair of lanes whose bytes meet (sorted by address: j's span starts inside i's). Equal
      // data there is no conflict; different known data is; data not known decides nothing.
      std::sort(spans.begin(), spans.end());
      for (std::size_t i = 0; i < spans.size(); ++i)
        for (std::size_t j = i + 1; j < spans.size() && spans[j].first < spans[i].first + w; ++j) {
          const int x = std::min(spans[i].second, spans[j].second), y = std::max(spans[i].second, spans[j].second);
          const i64 ax = in.addr[at(x)], ay = in.addr[at(y)];
          const i64 lo = std::max(ax, ay), hi = std::min(ax, ay) + w;  // the common bytes [lo, hi)
          const compiled::Written* d = p.written.get();
          const std::string& why = !d ? std::string("the executor kept no data for this issue") : !d->why[at(x)].empty() ? d->why[at(x)] : d->why[at(y)];
          if (!d || !d->why[at(x)].empty() || !d->why[at(y)].empty()) {
            if (data_doubt.empty())
              data_doubt = in.where + ": lanes " + std::to_string(x) + " and " + std::to_string(y) + " write byte " + std::to_string(lo) +
                           " and whether their data is equal is not known (lane " + std::to_string(d && d->why[at(x)].empty() ? y : x) +
                           "'s: " + why + ")";
            continue;
          }
          bool equal = true;
          for (i64 b = lo; b < hi && equal; ++b) equal = d->bytes[at(x)][at(b - ax)] == d->bytes[at(y)][at(b - ay)];
          if (equal) continue;
          return refuted(prog, l, run, s, static_cast<i64>(k),
                         witness_at(s, static_cast<i64>(k), {x, y},
                                    lane_text(in, x) + " and " + lane_text(in, y) + " write common bytes (" + std::to_string(w) +
                                        " bytes each) with different data, " + data_text(*d, x, w) + " and " + data_text(*d, y, w) +
                                        ": which value lands is unspecified"),
                         method);
        }
    }
  }
  const std::string doubts = doubt(run, s, c.kind == Kind::no_overlap);
  if (!doubts.empty()) return {true, Verdict::unknown(method, doubts), std::nullopt};
  if (!lane_doubt.empty()) return {true, Verdict::unknown(method, lane_doubt), std::nullopt};
  if (!data_doubt.empty()) return {true, Verdict::unknown(method, data_doubt), std::nullopt};
  const std::string what = c.kind == Kind::aligned   ? "every active lane's address is a multiple of " + std::to_string(w) + " bytes"
                           : c.kind == Kind::in_bounds ? "every active lane's " + std::to_string(w) + " bytes lie inside its shared symbol"
                                                       : "no two active lanes of an issue write a common byte with different data";
  return {true, Verdict::proved(method, what + " (" + std::to_string(lanes_checked) + " lanes)"),
          std::nullopt};
}

}  // namespace

std::optional<PtxClaim> parse_ptx_claim(const std::string& text) {
  PtxClaim c;
  c.text = text;
  if (text == "aligned") c.kind = Kind::aligned;
  else if (text == "in-bounds") c.kind = Kind::in_bounds;
  else if (text == "no-overlap") c.kind = Kind::no_overlap;
  else if (text == "operand-contract") c.kind = Kind::operand_contract;
  else if (text == "tma-aligned") c.kind = Kind::tma_aligned;
  else if (text == "descriptor-valid") c.kind = Kind::descriptor_valid;
  else if (text == "tensor-map-valid") c.kind = Kind::tensor_map_valid;
  else if (const auto t = parse_trace_claim(text); t && (t->kind == TraceClaim::Kind::conflict_free || t->kind == TraceClaim::Kind::max_ways)) {
    c.kind = t->kind == TraceClaim::Kind::conflict_free ? Kind::conflict_free : Kind::max_ways;
    c.k = t->k;
  } else {
    return std::nullopt;
  }
  return c;
}

namespace {

// The Hopper contract claim a claim is (decide_async_claim), or none for a lane-addressed one.
std::optional<AsyncClaim> async_claim(const PtxClaim& c) {
  switch (c.kind) {
    case Kind::operand_contract: return AsyncClaim::operand_contract;
    case Kind::tma_aligned: return AsyncClaim::tma_aligned;
    case Kind::descriptor_valid: return AsyncClaim::descriptor_valid;
    case Kind::tensor_map_valid: return AsyncClaim::tensor_map_valid;
    default: return std::nullopt;
  }
}

// A claim on an access the run lists as not counted: UNKNOWN, naming it (never PROVED by omission).
PtxClaimResult not_counted_verdict(const compiled::Program& p, const compiled::KernelRun& run, const compiled::NotCounted& n, const PtxClaim& c) {
  if (const auto a = async_claim(c)) {
    if (auto v = decide_async_claim(p, run, n, *a, c.tensor_maps)) return {true, std::move(*v), std::nullopt};
    return {false, Verdict::proved("not applicable", c.text + " is a claim about TMA copies and WGMMAs"), std::nullopt};
  }
  if (c.kind == Kind::no_overlap && n.loads_only)
    return {false, Verdict::proved("not applicable", "a load: no-overlap is a claim about stores"), std::nullopt};
  return {true, Verdict::unknown("not counted", n.why), std::nullopt};
}

}  // namespace

PtxClaimResult prove_ptx_site(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s,
                              const PtxClaim& c, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  PtxClaimResult r;
  if (async_claim(c)) {  // about TMA copies and WGMMAs alone
    r.applicable = false;
    r.verdict = Verdict::proved("not applicable", c.text + " is a claim about TMA copies and WGMMAs, not lane-addressed accesses");
    return r;
  }
  if (c.kind == Kind::no_overlap && (!s.writes || !s.bank_modelled)) {
    r.applicable = false;
    r.verdict = Verdict::proved("not applicable", s.writes ? "atom/red combine values: no-overlap is not a claim about them"
                                                             : "a load: no-overlap is a claim about stores");
    return r;
  }
  if (o.smt.deadline.passed()) {
    r.verdict = Verdict::unknown("deadline", o.smt.deadline.reason());
    return r;
  }
  if (s.never) {  // `@!PT LDS RZ, [RZ]`, ptxas's placeholder: no access in any launch, so no claim about one
    r.applicable = false;
    r.verdict = Verdict::proved("not applicable", "@!PT: its guard is constant false, it never accesses memory");
    return r;
  }
  // Another CTA may run what CTA (0,0,0) did not: that doubt is said instead (below).
  if (!ran(s) && run.stopped.empty() && !other_ctas_may_differ(run, s)) {  // nothing is proved about an instruction no lane ran
    r.verdict = Verdict::unknown("not run", "NOT RUN: no lane of this launch (" + launch_text(run) + ") executes the instruction" +
                                                (s.executed > 0 ? " (its " + std::to_string(s.executed) + " issues had every lane's guard false)" : "") +
                                                ", so nothing is known of its accesses");
    return r;
  }
  try {
    r = c.kind == Kind::conflict_free || c.kind == Kind::max_ways ? bank(prog, l, run, s, c, o) : lanes_claim(prog, l, run, s, c);
    r = with_symbolic(prog, l, run, s, c, o, std::move(r));
  } catch (const LayoutError& e) {
    r = {true, Verdict::error(method_text(s, run), e.what()), std::nullopt};
  }
  r.verdict.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.verdict = o.smt.deadline.expire(std::move(r.verdict));
  if (!r.verdict.is_refuted()) r.witness.reset();
  return r;
}


std::string claims_domain_text(const compiled::Launch& l) {
  if (l.every_cta) return "every CTA of " + (l.every_grid ? std::string("every grid") : "grid " + dims_text(l.grid));
  return "CTA (" + dims_text(l.cta) + ") of grid " + dims_text(l.grid) + " alone";
}

PtxKernelResult run_ptx_kernel(const compiled::Program& p, const PtxKernelLaunch& k, const std::vector<PtxClaim>& claims,
                               const ProveOptions& o) {
  PtxKernelResult r{k, nullptr, {}};
  if (o.smt.deadline.at && (!r.launch.launch.deadline || *o.smt.deadline.at < *r.launch.launch.deadline))
    r.launch.launch.deadline = *o.smt.deadline.at;
  // The counts are one concrete CTA's (Nsight Compute's); the claims are about the launch's
  // domain: every CTA (of every grid) unless --cta (--grid) fixes it. Where no lane read %ctaid or
  // %nctaid, every CTA of every grid runs as the concrete one does: its run decides the claims.
  auto run = std::make_shared<compiled::KernelRun>(compiled::run_kernel(p, k.entry, compiled::concrete_launch(r.launch.launch)));
  std::shared_ptr<compiled::KernelRun> claims_run = run;
  const compiled::Launch& claims_launch = r.launch.launch;
  if (claims_launch.every_cta && run->reads_cta) {
    claims_run = std::make_shared<compiled::KernelRun>(compiled::run_kernel(p, k.entry, claims_launch));
    // Nothing the claims run lists as not counted is left out of the table's list.
    for (const compiled::NotCounted& n : claims_run->not_counted)
      if (std::none_of(run->not_counted.begin(), run->not_counted.end(),
                       [&](const compiled::NotCounted& x) { return x.function == n.function && x.pc == n.pc; }))
        run->not_counted.push_back(n);
  } else if (claims_launch.every_cta) {
    run->every_cta = true, run->every_grid = claims_launch.every_grid;
  }
  DomainCheck domain = check_domain(claims_launch, *claims_run, o);
  claims_run->domain_point = std::move(domain.point);
  if (const auto& v = domain.vacuous) {  // a domain with no launch: every claim says so
    r.verdicts.assign(run->sites.size(), std::vector<PtxClaimResult>(claims.size(), PtxClaimResult{true, *v, std::nullopt}));
    r.not_counted.assign(run->not_counted.size(), std::vector<PtxClaimResult>(claims.size(), PtxClaimResult{true, *v, std::nullopt}));
    r.unapplied.assign(claims.size(), run->sites.empty() && run->not_counted.empty() ? std::optional<Verdict>(*v) : std::nullopt);
    r.run = std::move(run);
    return r;
  }
  std::vector<bool> decided(claims.size(), false);
  const compiled::Launch decide = claims_run == run ? compiled::concrete_launch(claims_launch) : claims_launch;  // the claims run's launch
  // Both runs list the program's sites, paired by instruction. A generic access is a site where
  // its run saw a lane in the shared window (ptx_exec.cpp settle_generic_sites), so the runs may
  // differ there: one the claims run did not see touch shared memory has no claim decided, and
  // one only it saw is listed as not counted (its claims UNKNOWN), never left out.
  const auto key = [](const auto& x) { return (static_cast<std::uint64_t>(x.function) << 32) | x.pc; };
  std::unordered_map<std::uint64_t, const compiled::Site*> claims_site;
  for (const compiled::Site& cs : claims_run->sites) claims_site.emplace(key(cs), &cs);
  for (const compiled::Site& cs : claims_run->sites)
    if (std::none_of(run->sites.begin(), run->sites.end(), [&](const compiled::Site& s) { return key(s) == key(cs); }) &&
        std::none_of(run->not_counted.begin(), run->not_counted.end(), [&](const compiled::NotCounted& n) { return key(n) == key(cs); })) {
      compiled::NotCounted n;
      n.function = cs.function, n.pc = cs.pc, n.line = cs.line, n.sass_offset = cs.sass_offset;
      n.source = cs.source, n.inlined = cs.inlined, n.text = cs.text, n.loads_only = !cs.writes;
      n.why = "touches shared memory in some launch of the claims' domain (" + claims_domain_text(claims_launch) +
              ") but not in the counted one: not counted there, its claims not decided";
      run->not_counted.push_back(std::move(n));
    }
  for (const compiled::Site& s : run->sites) {
    const auto it = claims_site.find(key(s));
    std::vector<PtxClaimResult> row;
    for (std::size_t c = 0; c < claims.size(); ++c) {
      if (it == claims_site.end())
        row.push_back({true, Verdict::unknown("not decided", "the claims' domain (" + claims_domain_text(claims_launch) +
                                                                 ") ran no lane of this generic access in the shared window"), std::nullopt});
      else
        row.push_back(prove_ptx_site(p, decide, *claims_run, *it->second, claims[c], o));
      decided[c] = decided[c] || row.back().applicable;
    }
    r.verdicts.push_back(std::move(row));
  }
  for (const compiled::NotCounted& n : run->not_counted) {
    std::vector<PtxClaimResult> row;
    for (std::size_t c = 0; c < claims.size(); ++c) {
      row.push_back(not_counted_verdict(p, *claims_run, n, claims[c]));
      decided[c] = decided[c] || row.back().applicable;
    }
    r.not_counted.push_back(std::move(row));
  }
  const std::string kernel = compiled::demangle(run->name);
  // A gate over nothing must not pass: a launch in which no lane touches shared memory (a size
  // parameter of 0, a guard every thread fails) is an error unless the entry says it may be empty,
  // and then its never-run instructions are not claims at all.
  bool any_ran = !run->not_counted.empty() || !claims_run->stopped.empty() || (one_cta_of_many(*run) && run->cta_control);  // another CTA may
  for (const compiled::Site& s : claims_run->sites) any_ran = any_ran || ran(s);
  if (!any_ran && !run->sites.empty()) {
    for (std::vector<PtxClaimResult>& row : r.verdicts)
      for (PtxClaimResult& v : row)
        if (k.allow_empty) v.applicable = false;
    if (!k.allow_empty) {
      for (std::size_t c = 0; c < claims.size(); ++c)
        r.unapplied.push_back(Verdict::error("run " + kernel, "this launch (" + launch_text(*run) + ") executes none of the kernel's " +
                                                                  std::to_string(run->sites.size()) + " shared-memory instructions" +
                                                                  (run->trapped.empty() ? "" : " (it traps first, at " + run->trapped + ")") +
                                                                  ": a gate over nothing proves nothing "
                                                                  "(allow_empty: true, or --allow-empty, if that is intended)"));
      r.run = std::move(run);
      return r;
    }
  }
  for (std::size_t c = 0; c < claims.size(); ++c) {
    if (decided[c] || (k.allow_empty && !any_ran)) {
      r.unapplied.emplace_back();
      continue;
    }
    const std::string why = !run->stopped.empty() ? "a lane stopped early (" + run->stopped + ") before any shared-memory instruction"
                            : run->sites.empty()  ? kernel + " has no lane-addressed shared-memory instruction: the claim is about none"
                                                  : kernel + " has no instruction the claim applies to (" + claims[c].text +
                                                        ": stores, stmatrix, cp.async)";
    r.unapplied.push_back(Verdict::unknown("run " + kernel, why));
  }
  r.run = std::move(run);
  return r;
}

PtxKernelResult skipped_ptx_kernel(const PtxKernelLaunch& k, const std::vector<PtxClaim>& claims, const std::string& why) {
  PtxKernelResult r;
  r.launch = k;
  r.not_run = why;
  r.unapplied.assign(claims.size(), Verdict::unknown("deadline", why));
  return r;
}

}  // namespace layoutproof::proofs
