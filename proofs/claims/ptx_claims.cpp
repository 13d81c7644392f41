// Claims over a compiled kernel's shared-memory instruction (proofs/claims/ptx_claims.hpp).
#include "proofs/claims/ptx_claims.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <filesystem>

#include "model/compiled/ptx_parse.hpp"

namespace layoutproof::proofs {
namespace {

using Kind = PtxClaim::Kind;

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

std::string launch_text(const ptx::KernelRun& run) {
  const auto dims = [](const std::array<i64, 3>& d) {
    return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
  };
  return "block " + dims(run.block) + ", CTA (0,0,0) of grid " + dims(run.grid);
}

std::string method_text(const ptx::Site& s, const ptx::KernelRun& run) {
  return "exhaustive over the launch (" + launch_text(run) + "): " + std::to_string(s.executed) + " warp issues, " +
         std::to_string(s.trace.instructions.size()) + " distinct";
}

// "lane 3 (thread 35) at byte 140 (bank 3)".
std::string lane_text(const TraceInstruction& in, int l) {
  const i64 a = in.addr[at(l)];
  return "lane " + std::to_string(l) + " (thread " + std::to_string(in.thread[at(l)]) + ") at byte " + std::to_string(a) +
         " (bank " + std::to_string((a / 4) % kBanks) + ")";
}

// The doubts that forbid PROVED (ptx_claims.hpp), as one reason; "" when there are none.
// grouping: the claim depends on how lanes group into issues (divergence matters).
std::string doubt(const ptx::KernelRun& run, const ptx::Site& s, bool grouping) {
  if (!run.stopped.empty()) return "a lane stopped early (" + run.stopped + "): later issues are missing";
  if (s.unknown_issues) return std::to_string(s.unknown_issues) + " issue(s) with a lane not known: " + s.unknown;
  if (s.symbolic_capped) return "more distinct issues with free parameters than the run keeps: not all were checked";
  if (s.patterns_capped) return "more distinct issues than the run keeps: not all were checked";
  const bool grid = run.grid[0] * run.grid[1] * run.grid[2] > 1;
  if (grid && (s.cta_dependent || run.cta_control))
    return std::string(s.cta_dependent ? "addresses or guards" : "branches") +
           " depend on %ctaid and the grid has more than one CTA: CTA (0,0,0) alone was run (--grid 1,1,1 decides that launch)";
  for (const ptx::Pattern& p : s.patterns) {
    if (grouping && p.divergent)
      return "divergent control flow (" + s.divergent + "): how the hardware groups those lanes into issues is not modelled";
  }
  return "";
}

// A pattern may refute when every doubt about it is absent.
bool may_refute(const ptx::KernelRun& run, const ptx::Pattern& p, bool grouping) {
  if (grouping && p.divergent) return false;
  return std::find(run.stopped_warps.begin(), run.stopped_warps.end(), p.warp) == run.stopped_warps.end();
}

// Replays pattern k of the site (its warp re-executed alone) and checks the lanes' addresses and,
// where the pattern kept the data its lanes store (no-overlap's witnesses), their data.
bool replays(const ptx::Program& prog, const ptx::Launch& l, const ptx::KernelRun& run, const ptx::Site& s, i64 k,
             const std::vector<int>& lanes, std::string& why) {
  const ptx::Pattern& p = s.patterns[at(k)];
  std::shared_ptr<const ptx::Written> data;
  const auto a = ptx::replay_issue(prog, run.entry, l, s.function, s.pc, p.warp, p.execution, &data);
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

PtxClaimResult refuted(const ptx::Program& prog, const ptx::Launch& l, const ptx::KernelRun& run, const ptx::Site& s, i64 k,
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

TraceWitness witness_at(const ptx::Site& s, i64 k, std::vector<int> lanes, const std::string& what) {
  const TraceInstruction& in = s.trace.instructions[at(k)];
  TraceWitness w;
  w.instruction = k;
  w.warp = in.warp;
  w.lanes = std::move(lanes);
  w.why = in.where + ": " + what;
  return w;
}

PtxClaimResult bank(const ptx::Program& prog, const ptx::Launch& l, const ptx::KernelRun& run, const ptx::Site& s,
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
  const std::string doubts = doubt(run, s, true);
  if (sub.instructions.empty())
    return {true, doubts.empty() ? Verdict::proved(method, "no issue with an active lane in this launch") : Verdict::unknown(method, doubts),
            std::nullopt};
  TraceClaim tc;
  tc.kind = c.kind == Kind::conflict_free ? TraceClaim::Kind::conflict_free : TraceClaim::Kind::max_ways;
  tc.k = c.k;
  tc.text = c.text;
  // LDGSTS's global side (ptx_exec.cpp's count, model/bank/bank.hpp count_ldgsts_wavefronts): an
  // issue whose shared writes, grouped by the 128-byte global line each lane reads, take more
  // wavefronts than ideal.
  if (s.op == "ldgsts" && c.kind == Kind::conflict_free)
    for (std::size_t j = 0; j < index.size(); ++j) {
      const i64 k = index[j];
      const ptx::Pattern& p = s.patterns[at(k)];
      if (p.ldgsts_wavefronts < 0) continue;
      const SmemAccess acc = s.trace.instructions[at(k)].access();
      const Wavefronts w = count_ldgsts_wavefronts(acc, p.global_line);  // recomputed: the replay of the count
      if (w.wavefronts != p.ldgsts_wavefronts)
        return {true, Verdict::error(method, "the LDGSTS count did not replay on the bank model"), std::nullopt};
      if (w.wavefronts <= w.ideal) continue;
      std::vector<int> lanes;
      std::set<i64> lines;
      for (int lane = 0; lane < kWarpLanes; ++lane)
        if (is_active_lane(s.trace.instructions[at(k)], lane)) lanes.push_back(lane), lines.insert(p.global_line[static_cast<std::size_t>(lane)]);
      return refuted(prog, l, run, s, k,  // refuted() replays the issue
                     witness_at(s, k, lanes,
                                std::to_string(w.wavefronts) + " wavefronts for an ideal of " + std::to_string(w.ideal) +
                                    ": its lanes read " + std::to_string(lines.size()) +
                                    " 128-byte global lines, and LDGSTS writes shared memory line by line (the shared side alone takes " +
                                    std::to_string(count_wavefronts(acc).wavefronts) + ")"),
                     method + "; LDGSTS by global line: exhaustive over the issues");
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
  return {true, std::move(r.verdict), std::nullopt};
}

// A lane's `w` bytes as one hexadecimal number (little-endian: byte 0 is the lowest digits).
std::string data_text(const ptx::Written& d, int lane, int w) {
  static const char* digits = "0123456789abcdef";
  std::string t = "0x";
  for (int j = w - 1; j >= 0; --j) {
    const ptx::u8 b = d.bytes[at(lane)][at(j)];
    t += digits[b >> 4];
    t += digits[b & 15];
  }
  return t;
}

PtxClaimResult lanes_claim(const ptx::Program& prog, const ptx::Launch& l, const ptx::KernelRun& run, const ptx::Site& s,
                           const PtxClaim& c) {
  const std::string method = method_text(s, run);
  const int w = s.width_bytes;
  if (w <= 0) return {true, Verdict::error(method, "the access width is not known (cp.async without a constant size)"), std::nullopt};
  std::string lane_doubt;  // in-bounds: a lane whose symbol or extent is not known
  std::string data_doubt;  // no-overlap: lanes writing common bytes, one's data not known
  i64 lanes_checked = 0;
  for (std::size_t k = 0; k < s.trace.instructions.size(); ++k) {
    const TraceInstruction& in = s.trace.instructions[k];
    const ptx::Pattern& p = s.patterns[k];
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
        if (pl < 0 && prog.shared_window_base >= 0) {  // SASS: the CTA's window, from its reserved bytes on
          const i64 lo = prog.shared_window_base, n = l.dynamic_smem_bytes;
          if (n < 0) {
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
        const ptx::Placement& sym = run.placements[at(pl)];
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
          const ptx::Written* d = p.written.get();
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
  else if (const auto t = parse_trace_claim(text); t && (t->kind == TraceClaim::Kind::conflict_free || t->kind == TraceClaim::Kind::max_ways)) {
    c.kind = t->kind == TraceClaim::Kind::conflict_free ? Kind::conflict_free : Kind::max_ways;
    c.k = t->k;
  } else {
    return std::nullopt;
  }
  return c;
}

namespace {

// A claim on an access the run lists as not counted: UNKNOWN, naming it (never PROVED by omission).
PtxClaimResult not_counted_verdict(const ptx::NotCounted& n, const PtxClaim& c) {
  if (c.kind == Kind::no_overlap && n.loads_only)
    return {false, Verdict::proved("not applicable", "a load: no-overlap is a claim about stores"), std::nullopt};
  return {true, Verdict::unknown("not counted", n.why), std::nullopt};
}

}  // namespace

PtxClaimResult prove_ptx_site(const ptx::Program& prog, const ptx::Launch& l, const ptx::KernelRun& run, const ptx::Site& s,
                              const PtxClaim& c, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  PtxClaimResult r;
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

ptx::u64 parse_ptx_param_value(const std::string& v, const std::string& what) {
  const bool neg = !v.empty() && v[0] == '-';
  const std::string s = neg ? v.substr(1) : v;
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const std::string digits = hex ? s.substr(2) : s;
  const bool ok = !digits.empty() && digits.size() <= (hex ? 16u : 19u) &&
                  digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") == std::string::npos;
  if (!ok) throw LayoutError(what + " needs a decimal or 0x hex integer of 64 bits, not '" + v + "'");
  const ptx::u64 x = std::stoull(digits, nullptr, hex ? 16 : 10);
  if (neg && x > (ptx::u64{1} << 63)) throw LayoutError(what + " needs a value that fits in 64 bits, not '" + v + "'");
  return neg ? 0 - x : x;
}

std::vector<std::size_t> select_ptx_kernels(const ptx::Program& p, const std::string& text, const std::string& what) {
  std::vector<std::size_t> entries = ptx::select_entries(p, text);
  if (!entries.empty()) return entries;
  std::string names;
  for (const ptx::Function& f : p.functions)
    if (f.is_entry) names += (names.empty() ? "" : ", ") + f.name;
  throw LayoutError(text.empty() ? p.file + " has no kernel (.entry with a body)"
                                 : "no kernel of " + p.file + " matches " + what + " '" + text + "' (kernels: " +
                                       (names.empty() ? "none" : names) + ")");
}

namespace {

bool is_index(const std::string& key) { return key.find_first_not_of("0123456789") == std::string::npos; }

// The slot of parameter `key` (an index or a name) in f; nullopt when f has none.
std::optional<std::size_t> param_slot(const ptx::Function& f, const std::string& key, const std::string& what) {
  if (is_index(key)) {
    const i64 i = parse_int_in(key, what + "'s index", 0, 1 << 20);
    if (static_cast<std::size_t>(i) < f.params.size()) return static_cast<std::size_t>(i);
    return std::nullopt;
  }
  for (std::size_t i = 0; i < f.params.size(); ++i)
    if (f.params[i].name == key) return i;
  return std::nullopt;
}

}  // namespace

void check_ptx_param(const ptx::Program& p, const std::vector<std::size_t>& entries, const std::string& whole, const std::string& what) {
  // SASS's parameters are checked per kernel (plan_ptx_launches: their offsets come from each
  // kernel's signature); `I+OFFSET` names bytes inside parameter I, which may be an aggregate.
  if (p.shared_window_base >= 0) return;
  const std::string bare = whole.substr(0, whole.find(':'));
  const std::size_t plus = bare.find('+');
  const std::string key = bare.substr(0, plus);
  if (!key.empty() && key[0] == '@')
    throw LayoutError(what + ": '@OFFSET' names bytes of SASS's parameter buffer; PTX names parameters (I, I+OFFSET, NAME)");
  bool found = false;
  std::size_t most = 0;
  for (const std::size_t e : entries) {
    const ptx::Function& f = p.functions[e];
    most = std::max(most, f.params.size());
    const auto slot = param_slot(f, key, what);
    if (!slot) continue;
    found = true;
    if (f.params[*slot].bytes > 8 && plus == std::string::npos)
      throw LayoutError(what + ": parameter " + std::to_string(*slot) + " of " + f.name + " is a " +
                        std::to_string(f.params[*slot].bytes) + "-byte aggregate; fix its fields with " + key + "+OFFSET=V");
  }
  if (!found && is_index(key))
    throw LayoutError(what + ": no selected kernel has a parameter " + key + " (the most any has is " + std::to_string(most) +
                      ", numbered from 0)");
  if (!found) throw LayoutError(what + ": no selected kernel has a parameter of that name (PTX names them _Z..._param_I)");
}

namespace {

// The byte offset and size of each parameter of a kernel whose demangled signature names only
// scalar and pointer types ("stages(float*, int)" -> (0, 8), (8, 4)): how SASS's constant bank
// lays them out (each at its natural alignment). It stops at the first type whose size is not
// known from its name (a struct, a template): those need @OFFSET=V.
std::vector<std::pair<i64, i64>> sass_parameter_layout(const std::string& sig) {
  std::vector<std::pair<i64, i64>> out;
  std::size_t open = std::string::npos;
  int depth = 0;
  for (std::size_t i = 0; i < sig.size() && open == std::string::npos; ++i) {  // the '(' outside template arguments
    if (sig[i] == '<') ++depth;
    if (sig[i] == '>' && depth > 0) --depth;
    if (sig[i] == '(' && depth == 0) open = i;
  }
  if (open == std::string::npos) return out;
  std::vector<std::string> types;
  std::string cur;
  depth = 0;
  for (std::size_t i = open + 1; i < sig.size(); ++i) {
    const char c = sig[i];
    if (c == '(' || c == '<') ++depth;
    if ((c == ')' || c == '>') && depth > 0) {
      --depth;
      cur += c;
      continue;
    }
    if (c == ')' && depth == 0) {
      types.push_back(cur);
      break;
    }
    if (c == ',' && depth == 0) {
      types.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  static const std::map<std::string, i64> sizes = {
      {"bool", 1}, {"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"short", 2}, {"unsigned short", 2},
      {"int", 4}, {"unsigned int", 4}, {"float", 4}, {"long", 8}, {"unsigned long", 8}, {"long long", 8},
      {"unsigned long long", 8}, {"double", 8}, {"__half", 2}, {"half", 2}, {"int2", 8}, {"float2", 8}, {"uint2", 8},
      {"int4", 16}, {"float4", 16}, {"uint4", 16}, {"double2", 16}, {"longlong2", 16}};
  i64 at = 0;
  for (std::string t : types) {
    while (!t.empty() && t.front() == ' ') t.erase(t.begin());
    while (!t.empty() && t.back() == ' ') t.pop_back();
    if (t.empty() || t == "void") break;
    i64 size = 0;
    if (t.back() == '*' || t.back() == '&') size = 8;
    else {
      for (const std::string q : {"const ", "volatile "})
        if (t.rfind(q, 0) == 0) t = t.substr(q.size());
      for (const std::string q : {" const", " volatile"})
        if (t.size() > q.size() && t.substr(t.size() - q.size()) == q) t.resize(t.size() - q.size());
      const auto it = sizes.find(t);
      if (it == sizes.end()) break;
      size = it->second;
    }
    at = (at + size - 1) / size * size;
    out.push_back({at, size});
    at += size;
  }
  return out;
}

// Applies one fixed parameter to kernel f's launch. PTX: I or NAME (a scalar), I+OFFSET (bytes of
// parameter I). SASS: I (offset from the signature), I+OFFSET, @OFFSET (bytes of the buffer).
void apply_param(const ptx::Program& p, const ptx::Function& f, ptx::Launch& l, const std::string& whole, ptx::u64 v,
                 const std::string& what) {
  const bool sass = p.shared_window_base >= 0;
  // KEY[:BYTES]: a field's width in bytes (1, 2, 4 or 8); without it, 4, or 8 for a value that
  // needs more than 32 bits. A read past the field's bytes is not known (never another field's).
  const std::size_t colon = whole.find(':');
  const std::string key = whole.substr(0, colon);
  i64 bytes = v >> 32 ? 8 : 4;
  if (colon != std::string::npos) {
    bytes = parse_int_in(whole.substr(colon + 1), what + "'s width in bytes", 1, 8);
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) throw LayoutError(what + ": a field is 1, 2, 4 or 8 bytes wide");
    if (bytes < 8 && (v >> (8 * bytes)) != 0) throw LayoutError(what + ": the value does not fit in " + std::to_string(bytes) + " bytes");
  }
  const std::size_t plus = key.find('+');
  const std::string head = key.substr(0, plus);
  const i64 field = plus == std::string::npos ? -1 : parse_int_in(key.substr(plus + 1), what + "'s byte offset", 0, 4095);
  if (!head.empty() && head[0] == '@') {
    l.fields.push_back({0, parse_int_in(head.substr(1), what + "'s byte offset", 0, 4095), bytes, v});
    return;
  }
  if (sass) {
    if (!is_index(head)) throw LayoutError(what + ": SASS has no parameter names; give its index (I, I+OFFSET) or the byte offset (@OFFSET)");
    const std::vector<std::pair<i64, i64>> layout = sass_parameter_layout(ptx::demangle(f.name));
    const i64 i = parse_int_in(head, what + "'s index", 0, 1 << 20);
    if (i >= static_cast<i64>(layout.size()))
      throw LayoutError(what + ": the byte offset of parameter " + head + " of " + f.name + " is not known from its signature (" +
                        std::to_string(layout.size()) + " parameter(s) have known sizes): give the byte offset, @OFFSET=V");
    const auto [at, size] = layout[static_cast<std::size_t>(i)];
    l.fields.push_back({0, at + std::max<i64>(field, 0), field >= 0 ? bytes : size, v});
    return;
  }
  const auto slot = param_slot(f, head, what);
  if (!slot) return;  // a parameter another selected kernel has is not this one's
  if (field >= 0) l.fields.push_back({*slot, field, bytes, v});
  else l.params[*slot] = v;
}

// Applies one --param-range KEY=LO..HI: the symbol of parameter KEY (PTX: I or NAME; SASS: I from
// the signature, or @OFFSET of the buffer) takes the values LO..HI.
void apply_range(const ptx::Program& p, const ptx::Function& f, ptx::Launch& l, const std::string& key, std::pair<i64, i64> r,
                 const std::string& what) {
  if (!key.empty() && key[0] == '@') {
    if (p.shared_window_base < 0) throw LayoutError(what + ": '@OFFSET' names bytes of SASS's parameter buffer; PTX names parameters (I, NAME)");
    l.ranges.push_back({0, parse_int_in(key.substr(1), what + "'s byte offset", 0, 4095), r.first, r.second});
    return;
  }
  if (p.shared_window_base >= 0) {
    if (!is_index(key)) throw LayoutError(what + ": SASS has no parameter names; give its index (I) or the byte offset (@OFFSET)");
    const std::vector<std::pair<i64, i64>> layout = sass_parameter_layout(ptx::demangle(f.name));
    const i64 i = parse_int_in(key, what + "'s index", 0, 1 << 20);
    if (i >= static_cast<i64>(layout.size()))
      throw LayoutError(what + ": the byte offset of parameter " + key + " of " + f.name + " is not known from its signature: give @OFFSET=LO..HI");
    l.ranges.push_back({0, layout[static_cast<std::size_t>(i)].first, r.first, r.second});
    return;
  }
  const auto slot = param_slot(f, key, what);
  if (!slot) return;
  const i64 bits = 8 * f.params[*slot].bytes;
  if (bits < 64 && (r.first < -(i64{1} << (bits - 1)) || r.second >= (i64{1} << (bits - 1))))
    throw LayoutError(what + ": " + std::to_string(r.first) + ".." + std::to_string(r.second) + " is not a range of signed " +
                      std::to_string(bits) + "-bit values (parameter " + std::to_string(*slot) + " of " + f.name + ")");
  l.ranges.push_back({*slot, 0, r.first, r.second});
}

}  // namespace

std::vector<PtxKernelLaunch> plan_ptx_launches(ptx::Program& p, const std::string& kernel, const PtxLaunchRequest& r,
                                               const std::string& kernel_what, const std::string& param_what) {
  const std::vector<std::size_t> entries = select_ptx_kernels(p, kernel, kernel_what);
  for (const auto& [key, v] : r.params) check_ptx_param(p, entries, key, param_what + " " + key);
  for (const auto& [key, v] : r.ranges) check_ptx_param(p, entries, key, param_what + "-range " + key);
  std::vector<PtxKernelLaunch> out;
  for (const std::size_t e : entries) {
    ptx::decode_with_callees(p, e);
    const ptx::Function& f = p.functions[e];
    PtxKernelLaunch k;
    k.entry = e;
    ptx::Launch& l = k.launch;
    if (r.block) l.block = *r.block, k.block_from = r.block_given_by;
    else if (f.reqntid[0] > 0) l.block = f.reqntid, k.block_from = ".reqntid";
    else if (f.maxntid[0] > 0) l.block = f.maxntid, k.block_from = ".maxntid (an upper bound; --block gives the launch's)";
    else if (p.shared_window_base >= 0) throw LayoutError(f.name + ": SASS does not record the block size: give it (--block X[,Y[,Z]])");
    else throw LayoutError(f.name + " has no .reqntid or .maxntid: give the block size (--block X[,Y[,Z]])");
    l.grid = r.grid;
    l.dynamic_smem_bytes = r.smem_bytes;
    l.params.assign(f.params.size(), std::nullopt);
    for (const auto& [key, v] : r.params) apply_param(p, f, l, key, v, param_what + " " + key);
    for (const auto& [key, v] : r.ranges) apply_range(p, f, l, key, v, param_what + "-range " + key);
    out.push_back(std::move(k));
  }
  return out;
}

PtxKernelResult run_ptx_kernel(const ptx::Program& p, const PtxKernelLaunch& k, const std::vector<PtxClaim>& claims,
                               const ProveOptions& o) {
  PtxKernelResult r{k, nullptr, {}};
  if (o.smt.deadline.at && (!r.launch.launch.deadline || *o.smt.deadline.at < *r.launch.launch.deadline))
    r.launch.launch.deadline = *o.smt.deadline.at;
  auto run = std::make_shared<ptx::KernelRun>(ptx::run_kernel(p, k.entry, r.launch.launch));
  std::vector<bool> decided(claims.size(), false);
  for (const ptx::Site& s : run->sites) {
    std::vector<PtxClaimResult> row;
    for (std::size_t c = 0; c < claims.size(); ++c) {
      row.push_back(prove_ptx_site(p, r.launch.launch, *run, s, claims[c], o));
      decided[c] = decided[c] || row.back().applicable;
    }
    r.verdicts.push_back(std::move(row));
  }
  for (const ptx::NotCounted& n : run->not_counted) {
    std::vector<PtxClaimResult> row;
    for (std::size_t c = 0; c < claims.size(); ++c) {
      row.push_back(not_counted_verdict(n, claims[c]));
      decided[c] = decided[c] || row.back().applicable;
    }
    r.not_counted.push_back(std::move(row));
  }
  const std::string kernel = ptx::demangle(run->name);
  for (std::size_t c = 0; c < claims.size(); ++c) {
    if (decided[c]) {
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

namespace {

// "tests/ptx/basic.cu:34" -> {"tests/ptx/basic.cu", 34}; an absolute path under the folder the
// run started in becomes relative to it (code scanning wants the repository's relative paths:
// nvcc writes the path it was given, often absolute). Empty for no .loc.
SourceLocation cuda_location(const std::string& source) {
  const std::size_t colon = source.rfind(':');
  if (source.empty() || colon == std::string::npos || colon == 0) return {};
  const std::string digits = source.substr(colon + 1);
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return {};
  std::string file = source.substr(0, colon);
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (!ec && std::filesystem::path(file).is_absolute()) {
    const std::filesystem::path rel = std::filesystem::path(file).lexically_relative(cwd);
    if (!rel.empty() && *rel.begin() != "..") file = rel.generic_string();
  }
  return {file, static_cast<int>(std::stol(digits)), 0};
}

// The opcode of a statement ("@%p1 st.shared.f32 [%r4], %f1;" -> "st.shared.f32").
std::string opcode_of(const std::string& text) {
  std::size_t b = text.find_first_not_of(" \t");
  if (b != std::string::npos && text[b] == '@') b = text.find_first_not_of(" \t", text.find_first_of(" \t", b));
  if (b == std::string::npos) return text;
  const std::size_t e = text.find_first_of(" \t;", b);
  return text.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

std::string base_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// A result of the entry's check for claim c (its spec location), about `kernel` (and a site).
CheckResult result_for(const Check& entry, std::size_t c, const std::string& kernel, Verdict v) {
  const CompiledEntry& e = *entry.compiled;
  CheckResult r{entry, std::move(v), std::nullopt, std::nullopt, std::nullopt};
  r.check.compiled.reset();
  r.check.claim = e.claims[c].text;
  r.check.where = e.claim_where[c];
  r.check.command = e.command + " --claim " + e.claims[c].text;
  r.check.site.emplace();
  r.check.site->kernel = kernel;
  r.check.site->ptx.file = e.file;
  r.check.access_text = kernel;
  return r;
}

}  // namespace

std::vector<CheckResult> run_compiled(const Check& entry, const ProveOptions& o) {
  const CompiledEntry& e = *entry.compiled;
  ProveOptions opts = o;
  if (e.deadline_s) {  // the entry's own limit, when it comes first
    const Deadline own = Deadline::in_seconds(*e.deadline_s, "deadline_s");
    if (!opts.smt.deadline.at || *own.at < *opts.smt.deadline.at) opts.smt.deadline = own;
  }
  std::vector<CheckResult> out;
  for (const PtxKernelLaunch& k : e.launches) {
    const std::string kernel = ptx::demangle(e.program->functions[k.entry].name);
    PtxKernelResult kr;
    try {
      kr = run_ptx_kernel(*e.program, k, e.claims, opts);
    } catch (const std::exception& ex) {  // a launch the executor refuses: no instruction was decided
      for (std::size_t c = 0; c < e.claims.size(); ++c)
        out.push_back(result_for(entry, c, kernel, Verdict::error("run " + kernel, ex.what())));
      continue;
    }
    const ptx::KernelRun& run = *kr.run;
    std::vector<CheckResult> kernel_results;
    for (std::size_t si = 0; si < run.sites.size(); ++si) {
      const ptx::Site& s = run.sites[si];
      std::shared_ptr<const AddressTrace> site_trace;  // the site's issues, for its witnesses alone
      for (std::size_t c = 0; c < e.claims.size(); ++c) {
        const PtxClaimResult& v = kr.verdicts[si][c];
        if (!v.applicable) continue;
        CheckResult r = result_for(entry, c, kernel, v.verdict);
        r.check.site->ptx.line = static_cast<int>(s.line);
        r.check.site->instruction = s.text;
        r.check.code = cuda_location(s.source);
        r.check.access_text = kernel + ", " + base_name(e.file) + ":" + std::to_string(s.line) + " " + opcode_of(s.text) +
                              (r.check.code.file.empty() ? "" : ", " + base_name(r.check.code.file) + ":" + std::to_string(r.check.code.line));
        r.trace_witness = v.witness;
        if (v.witness) {  // its sentence names every lane, thread and address: the points would repeat it
          r.verdict.witness.why = v.witness->why;
          r.verdict.witness.points.clear();
          // Drawn on the site's issues (JSON addresses, --report): a copy of them, so that the
          // run is dropped with this kernel and a library of kernels holds one run at a time.
          if (!site_trace) site_trace = std::make_shared<const AddressTrace>(s.trace);
          r.check.trace = site_trace;
        }
        kernel_results.push_back(std::move(r));
      }
    }
    for (std::size_t ni = 0; ni < run.not_counted.size(); ++ni) {
      const ptx::NotCounted& n = run.not_counted[ni];
      for (std::size_t c = 0; c < e.claims.size(); ++c) {
        const PtxClaimResult& v = kr.not_counted[ni][c];
        if (!v.applicable) continue;
        CheckResult r = result_for(entry, c, kernel, v.verdict);
        r.check.site->ptx.line = static_cast<int>(n.line);
        r.check.site->instruction = n.text;
        r.check.code = cuda_location(n.source);
        r.check.access_text = kernel + ", " + base_name(e.file) + ":" + std::to_string(n.line) + " " + opcode_of(n.text) + " (not counted)";
        kernel_results.push_back(std::move(r));
      }
    }
    for (std::size_t c = 0; c < e.claims.size(); ++c)
      if (kr.unapplied[c]) kernel_results.push_back(result_for(entry, c, kernel, *kr.unapplied[c]));
    for (auto& r : kernel_results) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace layoutproof::proofs
