// Claims over issues whose addresses are affine in free parameters (proofs/claims/ptx_claims.hpp, "Free parameters").
#include "proofs/claims/ptx_claims.hpp"

#include <algorithm>

#include "model/bank/bank.hpp"

namespace layoutproof::proofs {
namespace {

using Kind = PtxClaim::Kind;
std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

// Whether symbol i appears in some lane of the site's symbolic issues.
bool used(const ptx::Site& s, std::size_t i) {
  for (const ptx::SymbolicIssue& is : s.symbolic)
    for (int l = 0; l < kWarpLanes; ++l)
      if (is.active[at(l)] && ptx::mask_bits(is.addr[at(l)].c[i], is.addr[at(l)].w) != 0) return true;
  return false;
}

const ptx::Launch::Range* range_of(const ptx::Launch& l, const ptx::Symbol& s) {
  const ptx::Launch::Range* r = nullptr;
  for (const auto& x : l.ranges)
    if (x.param == s.param && x.offset == s.offset) r = &x;  // the last one given wins
  return r;
}

// A symbol's value as its signed two's complement (what --param reads back).
i64 signed_value(ptx::u64 v, int bits) { return ptx::sign_extend(v, bits); }

// The --param that fixes symbol `s` to v: "1=64" (PTX), "@8=64" (SASS's buffer).
std::string param_text(const ptx::Program& prog, const ptx::Symbol& s, ptx::u64 v) {
  const std::string value = std::to_string(signed_value(v, s.bits));
  if (prog.shared_window_base >= 0) return "@" + std::to_string(s.offset) + "=" + value;
  return std::to_string(s.param) + (s.offset ? "+" + std::to_string(s.offset) : "") + "=" + value;
}

std::string issue_where(const ptx::Site& s, const ptx::SymbolicIssue& is) {
  return "line " + std::to_string(s.line) + (s.source.empty() ? "" : " (" + s.source + ")") + ", warp " + std::to_string(is.warp) +
         ", execution " + std::to_string(is.execution);
}

}  // namespace

std::string symbolic_domain(const ptx::Launch& l, const ptx::KernelRun& run, const ptx::Site& s) {
  std::string out;
  for (std::size_t i = 0; i < run.symbols.size(); ++i) {
    if (!used(s, i)) continue;
    const ptx::Symbol& sym = run.symbols[i];
    const auto* r = range_of(l, sym);
    out += (out.empty() ? "" : " and ") +
           (r ? "every value " + std::to_string(r->lo) + ".." + std::to_string(r->hi) + " (--param-range)"
              : "every " + std::to_string(sym.bits) + "-bit value") +
           " of " + sym.name;
  }
  return out.empty() ? "no free parameter" : "for " + out;
}

PtxClaimResult with_symbolic(const ptx::Program& prog, const ptx::Launch& l, const ptx::KernelRun& run, const ptx::Site& s,
                             const PtxClaim& c, const ProveOptions& o, PtxClaimResult concrete) {
  if (s.symbolic.empty() || !concrete.applicable || concrete.verdict.is_refuted() || concrete.verdict.kind == Verdict::Kind::error)
    return concrete;
  const std::string domain = symbolic_domain(l, run, s);
  const std::string method = "z3 over " + std::to_string(s.symbolic.size()) +
                             " distinct issue(s) whose addresses are affine in free parameters, " + domain;
  const auto unknown = [&](const std::string& why) { return PtxClaimResult{true, Verdict::unknown(method, why), std::nullopt}; };
  const bool grouping = c.kind == Kind::conflict_free || c.kind == Kind::max_ways;
  if (c.kind == Kind::no_overlap) return unknown("no-overlap is not decided where addresses depend on free parameters");
  if (grouping && !s.bank_modelled) return concrete;
  if (s.width_bytes <= 0) return concrete;
  std::string doubt = s.symbolic_capped ? "more distinct issues with free parameters than the run keeps: not all were checked" : "";

  SymbolicQuery q;
  q.name = c.text;
  q.op = s.trace.op;
  q.width_bytes = s.width_bytes;
  q.k = c.k;
  for (const ptx::Symbol& sym : run.symbols) {
    q.symbol_bits.push_back(sym.bits);
    const auto* r = range_of(l, sym);
    if (r && sym.bits < 64 && (r->lo < -(i64{1} << (sym.bits - 1)) || r->hi >= (i64{1} << sym.bits)))
      return {true, Verdict::error(method, "--param-range " + std::to_string(r->lo) + ".." + std::to_string(r->hi) + " does not fit " +
                                               sym.name + " (" + std::to_string(sym.bits) + "-bit)"),
              std::nullopt};
    // A range past the signed maximum reads its bits unsigned: LO..HI in [0, 2^bits) as given.
    if (r && sym.bits < 64 && r->hi >= (i64{1} << (sym.bits - 1)) && r->lo >= 0)
      return {true, Verdict::error(method, "--param-range " + std::to_string(r->lo) + ".." + std::to_string(r->hi) + " of " + sym.name +
                                               " reaches past its signed maximum: give a signed range"),
              std::nullopt};
    q.ranges.push_back(r ? std::optional<std::pair<i64, i64>>({r->lo, r->hi}) : std::nullopt);
  }
  std::vector<std::size_t> index;  // q.issues[k] = s.symbolic[index[k]]
  for (std::size_t k = 0; k < s.symbolic.size(); ++k) {
    const ptx::SymbolicIssue& is = s.symbolic[k];
    const bool stopped = std::find(run.stopped_warps.begin(), run.stopped_warps.end(), is.warp) != run.stopped_warps.end();
    if ((grouping && is.divergent) || stopped) {
      if (doubt.empty()) doubt = issue_where(s, is) + ": " + (stopped ? "its warp stopped early" : "divergent: how lanes group is not modelled");
      continue;
    }
    if (c.kind == Kind::in_bounds) {
      std::array<std::pair<i64, i64>, kWarpLanes> b{};
      for (int ln = 0; ln < kWarpLanes; ++ln) {
        b[at(ln)] = {0, i64{1} << 33};  // a lane in doubt: no bound (never a violation)
        if (!is.active[at(ln)]) continue;
        const int pl = is.placement[at(ln)];
        if (pl < 0 && prog.shared_window_base >= 0) {
          if (l.dynamic_smem_bytes < 0) {
            if (doubt.empty()) doubt = "SASS names no shared symbols: give the CTA's shared memory size (--smem-bytes N)";
            continue;
          }
          b[at(ln)] = {prog.shared_window_base, prog.shared_window_base + l.dynamic_smem_bytes};
        } else if (pl < 0) {
          if (doubt.empty()) doubt = issue_where(s, is) + ": lane " + std::to_string(ln) + "'s address is not computed from one shared symbol";
        } else if (run.placements[at(pl)].bytes < 0) {
          if (doubt.empty()) doubt = "'" + prog.shared[run.placements[at(pl)].symbol].name + "' is dynamic shared memory: give its size (--smem-bytes N)";
        } else {
          b[at(ln)] = {run.placements[at(pl)].base, run.placements[at(pl)].base + run.placements[at(pl)].bytes};
        }
      }
      q.bounds.push_back(b);
    }
    q.issues.push_back(&is);
    index.push_back(k);
  }

  q.kind = c.kind == Kind::conflict_free ? SymbolicQuery::Kind::conflict_free
           : c.kind == Kind::max_ways    ? SymbolicQuery::Kind::max_ways
           : c.kind == Kind::aligned     ? SymbolicQuery::Kind::aligned
                                         : SymbolicQuery::Kind::in_bounds;
  const SymbolicOutcome z = check_symbolic_z3(q, o.smt);
  if (z.kind == SymbolicOutcome::Kind::error) return {true, Verdict::error(method, z.text), std::nullopt};
  if (z.kind == SymbolicOutcome::Kind::violated) {
    // Replay: the witness's values fixed as --param, the warp re-executed concretely, its lanes'
    // addresses equal to the terms' values, and the claim broken again on them.
    const ptx::SymbolicIssue& is = s.symbolic[index.at(z.issue)];
    ptx::Launch fixed = l;
    std::string params, values;
    for (std::size_t i = 0; i < run.symbols.size(); ++i) {
      const ptx::Symbol& sym = run.symbols[i];
      fixed.fields.push_back({sym.param, sym.offset, (sym.bits + 7) / 8, z.values[i]});
      if (!used(s, i)) continue;
      params += " --param " + param_text(prog, sym, z.values[i]);
      values += (values.empty() ? "" : ", ") + sym.name + " = " + std::to_string(signed_value(z.values[i], sym.bits));
    }
    const auto error = [&](const std::string& why) { return PtxClaimResult{true, Verdict::error(method, why), std::nullopt}; };
    const auto a = ptx::replay_issue(prog, run.entry, fixed, s.function, s.pc, is.warp, is.execution);
    if (!a) return error("the witness (" + values + ") did not replay: the issue does not exist or is not known with" + params);
    for (int ln = 0; ln < kWarpLanes; ++ln) {
      const bool act = (*a)[at(ln)] >= 0;
      if (act != is.active[at(ln)] || (act && static_cast<ptx::u64>((*a)[at(ln)]) != ptx::evaluate(is.addr[at(ln)], z.values)))
        return error("the witness (" + values + ") did not replay: lane " + std::to_string(ln) + " is at byte " +
                     std::to_string((*a)[at(ln)]) + " when re-executed with" + params);
    }
    const auto lane_text = [&](int ln) {
      const i64 ad = (*a)[at(ln)];
      return "lane " + std::to_string(ln) + " (thread " + std::to_string(is.warp * kWarpLanes + ln) + ") at byte " + std::to_string(ad) +
             " (bank " + std::to_string((ad / 4) % kBanks) + ")";
    };
    std::string what;
    const int w = s.width_bytes;
    if (grouping) {
      const BankReport b = analyze_smem_access(SmemAccess{s.trace.op, w, *a});
      int ways = 1;
      for (const auto& col : b.collisions) ways = std::max(ways, col.ways());
      const bool again = c.kind == Kind::conflict_free ? b.wavefronts > b.ideal : ways > c.k;
      if (!again) return error("the witness (" + values + ") did not replay on the bank model");
      what = std::to_string(b.wavefronts) + " wavefronts for an ideal of " + std::to_string(b.ideal) + " (" + std::to_string(ways) +
             "-way); ";
      for (std::size_t k = 0; k < z.lanes.size(); ++k) what += (k ? ", " : "") + lane_text(z.lanes[k]);
    } else {
      const int ln = z.lanes.at(0);
      const i64 ad = (*a)[at(ln)];
      if (c.kind == Kind::aligned) {
        if (ad % w == 0) return error("the witness (" + values + ") did not replay: lane " + std::to_string(ln) + " is aligned");
        what = lane_text(ln) + " is not a multiple of " + std::to_string(w) + " bytes: the " + std::to_string(w) + "-byte access faults";
      } else {
        const auto [lo, hi] = q.bounds.at(z.issue)[at(ln)];
        if (ad >= lo && ad + w <= hi) return error("the witness (" + values + ") did not replay: lane " + std::to_string(ln) + " is in bounds");
        const int pl = is.placement[at(ln)];
        const std::string where = pl >= 0 ? "'" + prog.shared[run.placements[at(pl)].symbol].name + "'" : "the CTA's shared memory";
        what = lane_text(ln) + ": bytes " + std::to_string(ad) + ".." + std::to_string(ad + w - 1) + " are outside " + where + " (bytes " +
               std::to_string(lo) + ".." + std::to_string(hi - 1) + ")";
      }
    }
    Witness vw;
    vw.why = values + " (replayed with" + params + "): " + issue_where(s, is) + ": " + what;
    Verdict v = Verdict::refuted(method, std::move(vw));
    v.detail = v.witness.why;
    v.queries = z.queries;
    return {true, std::move(v), std::nullopt};
  }
  if (z.kind == SymbolicOutcome::Kind::unknown) return unknown(z.text);
  // The bank claims hold wherever the bank model applies (validate: every lane aligned and below
  // the 227 KiB a block can address). At any other value the access faults (a misaligned or out
  // of range shared address): it has no wavefronts, and aligned / in-bounds are the claims about
  // it. The verdict's domain says so; a domain with no valid value at all proves nothing.
  std::string faults;
  if (grouping) {
    SymbolicQuery a = q;
    a.kind = SymbolicQuery::Kind::some_valid;
    a.name = c.text + ".some_valid";
    const SymbolicOutcome some = check_symbolic_z3(a, o.smt);
    if (some.kind == SymbolicOutcome::Kind::holds)
      return unknown("vacuous: at no value of the free parameters is an issue a valid access (aligned, inside the 227 KiB a block can address)");
    if (some.kind != SymbolicOutcome::Kind::violated) return unknown(some.text);
    a.kind = SymbolicQuery::Kind::valid;
    a.name = c.text + ".valid";
    const SymbolicOutcome v = check_symbolic_z3(a, o.smt);
    if (v.kind == SymbolicOutcome::Kind::violated) {
      std::string values;
      for (std::size_t i = 0; i < run.symbols.size(); ++i)
        if (used(s, i)) values += (values.empty() ? "" : ", ") + run.symbols[i].name + " = " + std::to_string(signed_value(v.values[i], run.symbols[i].bits));
      faults = "; at values where a lane's address is not a multiple of " + std::to_string(s.width_bytes) +
               " bytes or lies past the 227 KiB a block can address (" + values +
               ", for one) the access faults and has no wavefronts: aligned and in-bounds decide those";
    } else if (v.kind != SymbolicOutcome::Kind::holds) {
      return unknown(v.text);
    }
  }
  if (!concrete.verdict.is_proved()) return concrete;
  if (!doubt.empty()) return unknown(doubt);
  const std::string what = c.kind == Kind::conflict_free ? "no two active lanes of one phase hit one bank at different words"
                           : c.kind == Kind::max_ways    ? "no bank of any phase holds " + std::to_string(c.k + 1) + " distinct words"
                           : c.kind == Kind::aligned     ? "every active lane's address is a multiple of " + std::to_string(s.width_bytes) + " bytes"
                                                         : "every active lane's " + std::to_string(s.width_bytes) + " bytes lie inside its shared symbol";
  Verdict v = Verdict::proved(method + "; " + concrete.verdict.method,
                              what + ", " + domain + (faults.empty() ? "" : " at which the access is valid") + " (" +
                                  std::to_string(q.issues.size()) + " issue(s) with free parameters" +
                                  (s.trace.instructions.empty() ? "" : "; the other issues: " + concrete.verdict.detail) + ")" + faults);
  v.queries = z.queries;
  return {true, std::move(v), std::nullopt};
}

}  // namespace layoutproof::proofs
