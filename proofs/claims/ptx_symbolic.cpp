// Claims over issues whose addresses are affine in free parameters (proofs/claims/ptx_claims.hpp, "Free parameters").
#include "proofs/claims/ptx_claims.hpp"

#include <unordered_map>

#include <algorithm>
#include <limits>
#include <optional>

#include "model/bank/bank.hpp"

namespace layoutproof::proofs {
namespace {

using Kind = PtxClaim::Kind;
std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

// A witness whose values make other issues of the instruction fault (not valid accesses) is
// replaced by one where they are valid, asking Z3 again with their validity required: at most
// this many times (each round excludes every issue that faulted at the last witness).
constexpr int kFaultRounds = 4;

// The symbols condition x (the run's table) reads, one bit each; memo: per condition, once.
compiled::u32 cond_symbols(const std::vector<compiled::Cond>& conds, compiled::u32 x, std::unordered_map<compiled::u32, compiled::u32>& memo) {
  if (x == 0) return 0;
  if (const auto it = memo.find(x); it != memo.end()) return it->second;
  const compiled::Cond& c = conds.at(x);
  compiled::u32 bits = 0;
  if (c.kind != compiled::Cond::Kind::cmp) {
    bits = cond_symbols(conds, c.x, memo) | cond_symbols(conds, c.y, memo);
  } else {
    for (std::size_t i = 0; i < compiled::kMaxSymbols; ++i)
      if (compiled::mask_bits(c.a.c[i], std::min(c.a.w, c.w)) != 0 || compiled::mask_bits(c.b.c[i], std::min(c.b.w, c.w)) != 0) bits |= compiled::u32{1} << i;
  }
  memo.emplace(x, bits);
  return bits;
}

// Per symbol, whether it appears in some lane of the site's symbolic issues (its address or its
// condition), or in the definition of a derived symbol that does.
std::vector<char> used_symbols(const compiled::KernelRun& run, const compiled::Site& s) {
  compiled::u32 bits = 0;
  std::unordered_map<compiled::u32, compiled::u32> memo;
  for (const compiled::SymbolicIssue& is : s.symbolic)
    for (int l = 0; l < kWarpLanes; ++l) {
      if (!is.active[at(l)]) continue;
      bits |= cond_symbols(run.conds, is.when[at(l)], memo);
      for (std::size_t j = 0; j < compiled::kMaxSymbols; ++j)
        if (compiled::mask_bits(is.addr[at(l)].c[j], is.addr[at(l)].w) != 0) bits |= compiled::u32{1} << j;
    }
  std::vector<char> u(run.symbols.size(), 0);
  for (std::size_t j = 0; j < u.size(); ++j) u[j] = (bits >> j) & 1;
  for (std::size_t j = run.symbols.size(); j-- > 0;)  // a definition names earlier symbols only
    if (u[j] && run.symbols[j].kind == compiled::Symbol::Kind::derived)
      for (std::size_t x = 0; x < j; ++x)
        if (run.symbols[j].def.a.c[x] || run.symbols[j].def.b.c[x]) u[x] = 1;
  return u;
}
bool is_cta(const compiled::Symbol& s) { return s.kind == compiled::Symbol::Kind::ctaid || s.kind == compiled::Symbol::Kind::nctaid; }
bool is_iteration(const compiled::Symbol& s) { return s.kind == compiled::Symbol::Kind::iteration; }
bool is_derived(const compiled::Symbol& s) { return s.kind == compiled::Symbol::Kind::derived; }
// "iteration 4 of the loop at line 31" for the iteration symbol's value i (iteration 1 + i).
std::string iteration_text(const compiled::Symbol& s, compiled::u64 i) {
  return "iteration " + std::to_string(i + 1) + " of the loop at line " + std::to_string(s.dim);
}
// The first data atom (ptx_exec.hpp Cond::Kind::data) some lane of the issue runs under, 0 none.
compiled::u32 issue_data(const compiled::KernelRun& run, const compiled::SymbolicIssue& is) {
  for (int l = 0; l < kWarpLanes; ++l)
    if (is.active[at(l)] && is.when[at(l)])
      if (const compiled::u32 d = compiled::data_atom_in(run.conds, is.when[at(l)])) return d;
  return 0;
}
// What data atom d is: the site's first data reason (the run keeps those as text).
std::string data_reason(const compiled::KernelRun&, const compiled::Site& s, compiled::u32) {
  return s.data_why.empty() ? std::string("a branch the data decides") : s.data_why;
}
bool any_when(const compiled::Site& s) {
  for (const compiled::SymbolicIssue& is : s.symbolic)
    for (const compiled::u32 w : is.when)
      if (w) return true;
  return false;
}

const compiled::Launch::Range* range_of(const compiled::Launch& l, const compiled::Symbol& s) {
  const compiled::Launch::Range* r = nullptr;
  if (s.kind != compiled::Symbol::Kind::param) return nullptr;
  for (const auto& x : l.ranges)
    if (x.param == s.param && x.offset == s.offset) r = &x;  // the last one given wins
  return r;
}

std::string issue_where(const compiled::Site& s, const compiled::SymbolicIssue& is) {
  return "line " + std::to_string(s.line) + (s.source.empty() ? "" : " (" + s.source + ")") + ", warp " + std::to_string(is.warp) +
         ", execution " + std::to_string(is.execution);
}

bool is_grouping(const PtxClaim& c) { return c.kind == Kind::conflict_free || c.kind == Kind::max_ways; }

// The issue's access at the symbols' values `p`: its address lanes' bytes (-1: inactive), as the
// bank model takes it.
SmemAccess access_at(const compiled::KernelRun& run, const compiled::Site& s, const compiled::SymbolicIssue& is, const std::vector<compiled::u64>& p) {
  SmemAccess a{s.trace.op, s.width_bytes, {}};
  a.lane_addr.fill(-1);
  for (int l = 0; l < address_lanes(s.trace.op); ++l)
    if (is.active[at(l)] && compiled::evaluate(run.conds, is.when[at(l)], p)) a.lane_addr[at(l)] = static_cast<i64>(compiled::evaluate(is.addr[at(l)], p));
  return a;
}

// Whether the bank model takes the access (bank.hpp validate: the one definition of a valid one).
bool valid_access(const SmemAccess& a) {
  try {
    validate(a);
    return true;
  } catch (const LayoutError&) {
    return false;
  }
}

// The query over the site's symbolic issues that may decide claim c, or the verdict that ends it
// before any query (a range that does not fit its symbol).
struct Prepared {
  SymbolicQuery q;                 // the violation query's issues: those not settled by the bank model
  std::vector<const compiled::SymbolicIssue*> all;  // every issue of the domain (whether one runs, is valid)
  std::vector<std::size_t> index;  // q.issues[k] = s.symbolic[index[k]]
  std::string doubt;               // what forbids PROVED ("" none)
  std::optional<Verdict> early;
};

// The ranges of --param-range as the query's per-symbol domain; an error for one that does not fit.
std::optional<std::string> add_ranges(const compiled::Launch& l, const compiled::KernelRun& run, SymbolicQuery& q) {
  for (const compiled::Symbol& sym : run.symbols) {
    q.symbol_bits.push_back(sym.bits);
    const auto* r = range_of(l, sym);
    if (r && sym.bits < 64 && (r->lo < -(i64{1} << (sym.bits - 1)) || r->hi >= (i64{1} << sym.bits)))
      return "--param-range " + std::to_string(r->lo) + ".." + std::to_string(r->hi) + " does not fit " + sym.name + " (" +
             std::to_string(sym.bits) + "-bit)";
    // A range past the signed maximum reads its bits unsigned: LO..HI in [0, 2^bits) as given.
    if (r && sym.bits < 64 && r->hi >= (i64{1} << (sym.bits - 1)) && r->lo >= 0)
      return "--param-range " + std::to_string(r->lo) + ".." + std::to_string(r->hi) + " of " + sym.name +
             " reaches past its signed maximum: give a signed range";
    q.ranges.push_back(r ? std::optional<std::pair<i64, i64>>({r->lo, r->hi}) : std::nullopt);
  }
  return std::nullopt;
}

// in-bounds: per address lane, the bytes [lo, hi) its access must lie in (a lane in doubt: no
// bound, never a violation; the doubt is recorded).
std::array<std::pair<i64, i64>, kWarpLanes> lane_bounds(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run,
                                                        const compiled::Site& s, const compiled::SymbolicIssue& is, std::string& doubt) {
  std::array<std::pair<i64, i64>, kWarpLanes> b{};
  const compiled::SharedWindow window = compiled::shared_window(prog, l);
  for (int ln = 0; ln < kWarpLanes; ++ln) {
    b[at(ln)] = {0, i64{1} << 33};
    if (!is.active[at(ln)] || ln >= address_lanes(s.trace.op)) continue;
    const int pl = is.placement[at(ln)];
    if (pl < 0 && window.applies) {
      if (!window.sized) {
        if (doubt.empty()) doubt = "SASS names no shared symbols: give the CTA's shared memory size (--smem-bytes N)";
        continue;
      }
      b[at(ln)] = {window.lo, window.hi};
    } else if (pl < 0) {
      if (doubt.empty()) doubt = issue_where(s, is) + ": lane " + std::to_string(ln) + "'s address is not computed from one shared symbol";
    } else if (run.placements[at(pl)].bytes < 0) {
      if (doubt.empty()) doubt = "'" + prog.shared[run.placements[at(pl)].symbol].name + "' is dynamic shared memory: give its size (--smem-bytes N)";
    } else {
      b[at(ln)] = {run.placements[at(pl)].base, run.placements[at(pl)].base + run.placements[at(pl)].bytes};
    }
  }
  return b;
}

// A bank claim holds on issue `is` at every value of the symbols without Z3, when every active
// lane's address is one common term X plus its own constant c_l (the same symbols' coefficients and
// width; the lanes' conditions may differ) and no phase of the lanes at c_l - min c + r has two
// lanes in one bank at different words (max-ways:K: K + 1 words), for every offset r < 128 that
// keeps the lanes aligned. That is the claim's own definition (the pairs Z3 would look for), which
// no subset of the lanes breaks where all of them do not; a valid access puts X at one of those
// offsets mod 128 (it aligns its lanes), and 128 bytes more on every lane keep each lane's bank and
// which lanes share a word. (Lanes of a 32-bit term that are valid together do not wrap apart:
// their spread is below 2^32 - 227 KiB.)
bool holds_at_every_offset(const PtxClaim& c, const compiled::Site& s, const compiled::SymbolicIssue& is) {
  const int w = s.width_bytes, lanes = address_lanes(s.trace.op);
  int first = -1;
  i64 lo = 0, hi = 0;
  for (int l = 0; l < lanes; ++l) {
    if (!is.active[at(l)]) continue;
    const compiled::Term& t = is.addr[at(l)];
    if (first < 0) {
      first = l;
      if (t.w != 32) return false;
    }
    const compiled::Term& f = is.addr[at(first)];
    if (t.w != f.w) return false;
    for (std::size_t i = 0; i < t.c.size(); ++i)
      if (compiled::mask_bits(t.c[i], 32) != compiled::mask_bits(f.c[i], 32)) return false;
    const i64 c0 = static_cast<i64>(compiled::mask_bits(t.c0, 32));
    lo = first == l ? c0 : std::min(lo, c0), hi = first == l ? c0 : std::max(hi, c0);
  }
  if (first < 0 || w <= 0 || hi - lo >= kSmemBytes) return false;
  for (int l = 0; l < lanes; ++l)
    if (is.active[at(l)] && (static_cast<i64>(compiled::mask_bits(is.addr[at(l)].c0, 32)) - lo) % w != 0) return false;  // never all aligned
  for (i64 r = 0; r < 128; r += w) {
    SmemAccess a{s.trace.op, w, {}};
    a.lane_addr.fill(-1);
    for (int l = 0; l < lanes; ++l)
      if (is.active[at(l)]) a.lane_addr[at(l)] = static_cast<i64>(compiled::mask_bits(is.addr[at(l)].c0, 32)) - lo + r;
    if (!valid_access(a)) return false;
    int ways = 1;
    for (const auto& col : analyze_smem_access(a).collisions) ways = std::max(ways, col.ways());
    if (ways > (c.kind == Kind::conflict_free ? 1 : c.k)) return false;
  }
  return true;
}

// aligned holds on `is` at every value when each active lane's constant and coefficients are
// multiples of the width (a power of two dividing 2^32: the address mod the width is theirs).
bool always_aligned(const compiled::Site& s, const compiled::SymbolicIssue& is) {
  const compiled::u64 w = static_cast<compiled::u64>(s.width_bytes);
  if (w == 0 || (w & (w - 1)) != 0) return false;
  for (int l = 0; l < address_lanes(s.trace.op); ++l) {
    if (!is.active[at(l)]) continue;
    const compiled::Term& t = is.addr[at(l)];
    if (t.w < 5 || compiled::mask_bits(t.c0, t.w) % w != 0) return false;
    for (const compiled::u64 x : t.c)
      if (compiled::mask_bits(x, t.w) % w != 0) return false;
  }
  return true;
}

// The address a term always is (no symbol's coefficient survives its width), or nullopt.
std::optional<i64> constant_address(const compiled::Term& t) {
  for (const compiled::u64 x : t.c)
    if (compiled::mask_bits(x, t.w) != 0) return std::nullopt;
  return static_cast<i64>(compiled::mask_bits(t.c0, t.w));
}

// in-bounds holds on `is` at every value when each active lane's address is a constant whose
// bytes lie inside its bound.
bool constant_inside(const compiled::Site& s, const compiled::SymbolicIssue& is, const std::array<std::pair<i64, i64>, kWarpLanes>& bounds) {
  for (int l = 0; l < address_lanes(s.trace.op); ++l) {
    if (!is.active[at(l)]) continue;
    const std::optional<i64> a = constant_address(is.addr[at(l)]);
    if (!a || *a < bounds[at(l)].first || *a + s.width_bytes > bounds[at(l)].second) return false;
  }
  return true;
}

// Every active lane's address is a constant and the lanes together are a valid access (aligned,
// inside the 227 KiB): no value makes the issue fault.
bool constant_valid(const compiled::Site& s, const compiled::SymbolicIssue& is) {
  SmemAccess a{s.trace.op, s.width_bytes, {}};
  a.lane_addr.fill(-1);
  for (int l = 0; l < address_lanes(s.trace.op); ++l) {
    if (!is.active[at(l)]) continue;
    const std::optional<i64> x = constant_address(is.addr[at(l)]);
    if (!x) return false;
    a.lane_addr[at(l)] = *x;
  }
  return valid_access(a);
}

Prepared prepare(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s, const PtxClaim& c,
                 const std::string& method) {
  Prepared p;
  SymbolicQuery& q = p.q;
  q.name = c.text;
  q.op = s.trace.op;
  q.width_bytes = s.width_bytes;
  q.k = c.k;
  q.kind = c.kind == Kind::conflict_free ? SymbolicQuery::Kind::conflict_free
           : c.kind == Kind::max_ways    ? SymbolicQuery::Kind::max_ways
           : c.kind == Kind::aligned     ? SymbolicQuery::Kind::aligned
                                         : SymbolicQuery::Kind::in_bounds;
  q.symbols = run.symbols;
  q.grid = run.grid;
  q.every_grid = run.every_grid;
  q.conds = &run.conds;
  q.assumptions = &l.assumptions;
  if (const auto bad = add_ranges(l, run, q)) {
    p.early = Verdict::error(method, *bad);
    return p;
  }
  p.doubt = s.symbolic_capped ? "more distinct issues with free parameters than the run keeps: not all were checked" : "";
  for (std::size_t k = 0; k < s.symbolic.size(); ++k) {
    const compiled::SymbolicIssue& is = s.symbolic[k];
    const bool stopped = std::find(run.stopped_warps.begin(), run.stopped_warps.end(), is.warp) != run.stopped_warps.end();
    if ((is_grouping(c) && is.divergent) || stopped) {
      if (p.doubt.empty()) p.doubt = issue_where(s, is) + ": " + (stopped ? "its warp stopped early (" + run.stopped + "): later issues are missing" : "divergent: how lanes group is not modelled");
      continue;
    }
    p.all.push_back(&is);
    // Issues the claim holds on at every value without Z3 are not asked about (no violation to look for).
    if (is_grouping(c) && holds_at_every_offset(c, s, is)) continue;
    if (c.kind == Kind::aligned && always_aligned(s, is)) continue;
    if (c.kind == Kind::in_bounds) {
      const auto bounds = lane_bounds(prog, l, run, s, is, p.doubt);
      if (constant_inside(s, is, bounds)) continue;
      q.bounds.push_back(bounds);
    }
    q.issues.push_back(&is);
    p.index.push_back(k);
  }
  return p;
}

// What a witness's values do when they are fixed as --param (conventions 5: only what replays is
// reported). Two checks, both on the concrete path: the witness issue re-executed alone
// (replay_issue) must put its address lanes at the terms' values and break the claim again there
// (the bank model re-run, the alignment or the bounds), and the whole launch re-run with those
// values must give the claim REFUTED on this instruction (prove_ptx_site: what `--param` prints).
struct Replay {
  // undecided: the concrete re-run cannot decide the claim there either (a lane stops early, a
  // value it does not know): no refutation, and no disagreement to report as an error.
  enum class Kind { refutes, faults, fails, undecided } kind = Kind::fails;
  std::string values, params;          // "parameter 1 (...) = 5"; " --param 1=5"
  std::vector<WitnessPoint> points;    // the same, one per symbol (role its name, index its value), then "replay"
  std::string what;                    // refutes, faults: the violation; fails, undecided: why it did not replay
  std::string faults;                  // faults: the launch re-run's message (another issue faults)
  std::vector<std::size_t> faulting;   // faults: the query's issues that are not valid accesses there
};

// The violation on the replayed addresses `a` of the witness issue, with the claim's own
// definition; "" when there is none.
std::string violation_on(const compiled::Program& prog, const compiled::KernelRun& run, const compiled::Site& s, const PtxClaim& c,
                         const compiled::SymbolicIssue& is, const std::array<i64, kWarpLanes>& a, const Outcome<SymbolicViolation>& z,
                         const std::pair<i64, i64>* bound) {
  const auto lane_text = [&](int ln) {
    const i64 ad = a[at(ln)];
    return "lane " + std::to_string(ln) + " (thread " + std::to_string(is.warp * kWarpLanes + ln) + ") at byte " + std::to_string(ad) +
           " (bank " + std::to_string(bank_of(ad)) + ")";
  };
  const int w = s.width_bytes;
  if (is_grouping(c)) {
    const BankReport b = analyze_smem_access(SmemAccess{s.trace.op, w, a});
    int ways = 1;
    for (const auto& col : b.collisions) ways = std::max(ways, col.ways());
    if (c.kind == Kind::conflict_free ? b.wavefronts <= b.ideal : ways <= c.k) return "";
    std::string what = std::to_string(b.wavefronts) + " wavefronts for an ideal of " + std::to_string(b.ideal) + " (" + std::to_string(ways) + "-way); ";
    for (std::size_t k = 0; k < z.witness.lanes.size(); ++k) what += (k ? ", " : "") + lane_text(z.witness.lanes[k]);
    return what;
  }
  const int ln = z.witness.lanes.at(0);
  const i64 ad = a[at(ln)];
  if (ln >= address_lanes(s.trace.op) || ad < 0) return "";
  if (c.kind == Kind::aligned) {
    if (ad % w == 0) return "";
    return lane_text(ln) + " is not a multiple of " + std::to_string(w) + " bytes: the " + std::to_string(w) + "-byte access faults";
  }
  const auto [lo, hi] = *bound;
  if (ad >= lo && ad + w <= hi) return "";
  const int pl = is.placement[at(ln)];
  const std::string where = pl >= 0 ? "'" + prog.shared[run.placements[at(pl)].symbol].name + "'" : "the CTA's shared memory";
  return lane_text(ln) + ": bytes " + std::to_string(ad) + ".." + std::to_string(ad + w - 1) + " are outside " + where + " (bytes " +
         std::to_string(lo) + ".." + std::to_string(hi - 1) + ")";
}

// The claim decided by the concrete path on the same instruction of the launch re-run with the
// witness's values fixed.
PtxClaimResult decided_again(const compiled::Program& prog, const compiled::Launch& fixed, const compiled::KernelRun& run, const compiled::Site& s,
                             const PtxClaim& c, const ProveOptions& o) {
  try {
    const compiled::KernelRun again = compiled::run_kernel(prog, run.entry, fixed);
    for (const compiled::Site& x : again.sites)
      if (x.function == s.function && x.pc == s.pc) return prove_ptx_site(prog, fixed, again, x, c, o);
    return {true, Verdict::error("replay", "the instruction is missing from the re-run launch"), std::nullopt};
  } catch (const LayoutError& e) {
    return {true, Verdict::error("replay", e.what()), std::nullopt};
  }
}

Replay replay(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s, const PtxClaim& c,
              const ProveOptions& o, const Prepared& p, const Outcome<SymbolicViolation>& z) {
  Replay r;
  const compiled::SymbolicIssue& is = *p.q.issues.at(z.witness.issue);
  compiled::Launch fixed = l;
  // The symbols this instruction's addresses use are fixed, the others stay free: the re-run is
  // the printed command (the others decide nothing here: every issue of the site is one term).
  std::array<i64, 3> cta{0, 0, 0}, grid = run.grid;
  bool cta_fixed = false;
  const std::vector<char> uses = used_symbols(run, s);
  for (std::size_t i = 0; i < run.symbols.size(); ++i) {
    const compiled::Symbol& sym = run.symbols[i];
    if (!uses[i] || is_derived(sym)) continue;  // a derived one follows from the others
    WitnessPoint pt;
    pt.role = sym.name, pt.unit = "";
    pt.index = static_cast<i64>(z.witness.values[i]), pt.coord = std::to_string(z.witness.values[i]);
    if (is_iteration(sym)) {  // not a launch's value: the re-run runs every iteration
      r.values += (r.values.empty() ? "" : ", ") + iteration_text(sym, z.witness.values[i]);
      r.points.push_back(std::move(pt));
      continue;
    }
    r.values += (r.values.empty() ? "" : ", ") + sym.name + " = ";
    if (is_cta(sym)) {  // the launch re-run is that CTA of that grid
      (sym.kind == compiled::Symbol::Kind::ctaid ? cta : grid)[at(sym.dim)] = static_cast<i64>(z.witness.values[i]);
      r.values += std::to_string(z.witness.values[i]);
      r.points.push_back(std::move(pt));
      cta_fixed = true;
      continue;
    }
    fixed.fields.push_back({sym.param, sym.offset, (sym.bits + 7) / 8, z.witness.values[i]});
    r.params += " --param " + compiled::param_assignment(prog, prog.functions[run.entry], sym, z.witness.values[i]);
    const std::string value = compiled::param_value_text(prog, prog.functions[run.entry], sym, z.witness.values[i]);
    r.values += value;
    // The value as its type reads it (the index where it fits one: a pointer's may not).
    pt.coord = value;
    if (z.witness.values[i] > static_cast<compiled::u64>(std::numeric_limits<i64>::max())) pt.index = -1;
    r.points.push_back(std::move(pt));
  }
  if (run.every_cta) {
    // Every CTA of the run was symbolic: the re-run is one concrete CTA (the witness's, else the
    // first) of a grid holding it (the witness's %nctaid where it names one).
    for (std::size_t i = 0; i < run.symbols.size(); ++i)
      if (run.symbols[i].kind == compiled::Symbol::Kind::nctaid && !uses[i]) grid[at(run.symbols[i].dim)] = 1;
    for (std::size_t d = 0; d < 3; ++d) grid[d] = std::max(grid[d], cta[d] + 1);
    fixed.cta = cta, fixed.grid = grid, fixed.cta_chosen = true, fixed.every_cta = fixed.every_grid = false;
    if (cta_fixed || run.every_grid) r.params += " --grid " + dims_text(grid) + " --cta " + dims_text(cta);
  }
  WitnessPoint flags;
  flags.role = "replay", flags.unit = "", flags.coord = r.params.empty() ? "" : r.params.substr(1);
  r.points.push_back(std::move(flags));
  const auto fails = [&](const std::string& why) {
    r.what = "the witness (" + r.values + ") did not replay: " + why;
    return r;
  };
  // An issue with lanes active under a condition is the same warp-level issue in the concrete
  // run only where the run takes the same paths: the launch re-run decides it.
  const bool conditional = std::any_of(is.when.begin(), is.when.end(), [](compiled::u32 w) { return w != 0; });
  const auto a = compiled::replay_issue(prog, run.entry, fixed, s.function, s.pc, is.warp, is.execution);
  const SmemAccess want = access_at(run, s, is, z.witness.values);
  std::string mismatch = a ? "" : "the issue does not exist or is not known with" + r.params;
  for (int ln = 0; a && mismatch.empty() && ln < address_lanes(s.trace.op); ++ln)
    if ((*a)[at(ln)] != want.lane_addr[at(ln)])
      mismatch = "lane " + std::to_string(ln) + " is at byte " + std::to_string((*a)[at(ln)]) + " when re-executed with" + r.params;
  // The issue is missing from the concrete run: a disagreement, unless that run cannot decide the
  // claim either (the launch re-run below says which).
  if (!mismatch.empty() && !conditional && a) return fails(mismatch);
  if (mismatch.empty()) {
    r.what = violation_on(prog, run, s, c, is, *a, z, c.kind == Kind::in_bounds ? &p.q.bounds.at(z.witness.issue)[at(z.witness.lanes.at(0))] : nullptr);
    if (r.what.empty() && !conditional) return fails("the claim holds on the re-executed issue");
  }
  const PtxClaimResult again = decided_again(prog, fixed, run, s, c, o);
  if (again.verdict.is_refuted()) {
    r.kind = Replay::Kind::refutes;
    if (r.what.empty())
      r.what = "the launch re-run: " + (again.verdict.detail.empty() ? again.verdict.witness.why : again.verdict.detail);
    return r;
  }
  const auto undecided = [&](const std::string& why) {
    fails(why);
    r.kind = Replay::Kind::undecided;
    return r;
  };
  if (!mismatch.empty()) {
    const std::string why = mismatch + "; the launch re-run gives " + to_string(again.verdict.kind) + " (" + again.verdict.detail + ")";
    return again.verdict.kind == Verdict::Kind::unknown ? undecided(why) : fails(why);
  }
  if (is_grouping(c) && again.verdict.kind == Verdict::Kind::error)
    for (std::size_t k = 0; k < p.q.issues.size(); ++k)
      if (!valid_access(access_at(run, s, *p.q.issues[k], z.witness.values))) r.faulting.push_back(k);
  if (!r.faulting.empty()) {
    r.kind = Replay::Kind::faults;
    r.faults = again.verdict.detail;
    return r;
  }
  const std::string why = "the launch re-run with" + r.params + " gives " + to_string(again.verdict.kind) + " for " + c.text + " here (" +
                          again.verdict.detail + ")";
  return again.verdict.kind == Verdict::Kind::unknown ? undecided(why) : fails(why);
}

// The witness of a violation that replayed (`faults`: only on its issue; the launch faults there).
PtxClaimResult refuted(const compiled::Site& s, const compiled::SymbolicIssue& is, const Replay& r, const std::string& method,
                       const std::vector<std::string>& queries, const std::string& faults) {
  Witness vw;
  vw.why = r.values + " (replayed with" + r.params + faults + "): " + issue_where(s, is) + ": " + r.what;
  vw.points = r.points;
  Verdict v = Verdict::refuted(method, std::move(vw));
  v.detail = v.witness.why;
  v.queries = queries;
  return {true, std::move(v), std::nullopt};
}

// The small box a far witness is asked for again in: a free parameter without a range in 1..4096,
// an iteration below 256 (none for a symbol already ranged or too narrow to leave it).
std::optional<std::pair<i64, i64>> small_box(const compiled::Symbol& sym, const std::optional<std::pair<i64, i64>>& range) {
  if (range) return std::nullopt;
  if (sym.kind == compiled::Symbol::Kind::param && sym.bits > 13) return std::pair<i64, i64>{1, 4096};
  if (sym.kind == compiled::Symbol::Kind::iteration && sym.bits > 9) return std::pair<i64, i64>{0, 255};
  return std::nullopt;
}

// A violation the concrete run could not decide is often far out (a negative size whose unsigned
// loop runs 2^31 times, iteration 10^6): asked again inside small_box, a smaller one replays. Only
// a REFUTED that replayed is returned (a witness in part of the domain refutes the whole).
std::optional<PtxClaimResult> refute_small(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s,
                                           const PtxClaim& c, const ProveOptions& o, Prepared& p, const std::string& method) {
  const auto saved = p.q.ranges;
  const std::string name = p.q.name;
  bool narrowed = false;
  for (std::size_t i = 0; i < run.symbols.size() && i < p.q.ranges.size(); ++i)
    if (const auto box = small_box(run.symbols[i], p.q.ranges[i])) p.q.ranges[i] = box, narrowed = true;
  std::optional<PtxClaimResult> got;
  if (narrowed) {
    p.q.name = c.text + ".small";
    Outcome<SymbolicViolation> z = check_symbolic_z3(p.q, o.smt);
    if (z.kind == OutcomeKind::violated && !issue_data(run, *p.q.issues.at(z.witness.issue))) {
      const Replay r = replay(prog, l, run, s, c, o, p, z);
      if (r.kind == Replay::Kind::refutes) got = refuted(s, *p.q.issues[z.witness.issue], r, method, z.queries, "");
    }
  }
  p.q.ranges = saved;
  p.q.name = name;
  return got;
}

// Whether the witness `values` leave small_box (read signed, at each symbol's width).
bool far_witness(const compiled::KernelRun& run, const SymbolicQuery& q, const std::vector<compiled::u64>& values) {
  for (std::size_t i = 0; i < run.symbols.size() && i < values.size() && i < q.ranges.size(); ++i) {
    const auto box = small_box(run.symbols[i], q.ranges[i]);
    const i64 x = compiled::sign_extend(values[i], run.symbols[i].bits);
    if (box && (x < box->first || x > box->second)) return true;
  }
  return false;
}

// Asks for a violation and replays it; while its values make other issues of the instruction
// fault, asks again with those issues' validity required (kFaultRounds). A violation whose values
// always make some issue fault is still a violation of the claim (at values where its issue is a
// valid access): it is reported with what the re-run launch does there.
std::optional<PtxClaimResult> refute(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s,
                                     const PtxClaim& c, const ProveOptions& o, Prepared& p, const std::string& method,
                                     Outcome<SymbolicViolation>& z) {
  std::optional<std::pair<Replay, Outcome<SymbolicViolation>>> faulted;
  for (int round = 0;; ++round) {
    if (z.kind != OutcomeKind::violated) break;
    // Lanes that run the witness issue only where the data decides: the violation needs data no
    // concrete launch can be asked for, so it is no refutation.
    if (const compiled::u32 d = issue_data(run, *p.q.issues.at(z.witness.issue)))
      return PtxClaimResult{true,
                            Verdict::unknown(method, "broken where the data takes some values (" + issue_where(s, *p.q.issues.at(z.witness.issue)) +
                                                         ", under " + data_reason(run, s, d) +
                                                         "): whether the kernel's data ever takes them is not known"),
                            std::nullopt};
    // A far witness (a size past 4096 or below 1, an iteration past 255) may run the concrete
    // launch for 2^24 steps before it is undecided: a smaller one is asked for first.
    const bool asked_small = round == 0 && far_witness(run, p.q, z.witness.values);
    if (asked_small)
      if (std::optional<PtxClaimResult> small = refute_small(prog, l, run, s, c, o, p, method)) return small;
    Replay r = replay(prog, l, run, s, c, o, p, z);
    if (r.kind == Replay::Kind::refutes) return refuted(s, *p.q.issues[z.witness.issue], r, method, z.queries, "");
    if (r.kind == Replay::Kind::fails) return PtxClaimResult{true, Verdict::error(method, r.what), std::nullopt};
    if (r.kind == Replay::Kind::undecided) {
      if (!asked_small)  // the same query again finds nothing new
        if (std::optional<PtxClaimResult> small = refute_small(prog, l, run, s, c, o, p, method)) return small;
      return PtxClaimResult{true, Verdict::unknown(method, "a violation at values the concrete run cannot decide: " + r.what), std::nullopt};
    }
    for (const std::size_t k : r.faulting) p.q.valid_issues.push_back(k);
    faulted = {std::move(r), z};
    if (round + 1 == kFaultRounds) break;
    p.q.name = c.text + ".without_faults" + std::to_string(round + 1);  // the re-asked queries, named apart
    z = check_symbolic_z3(p.q, o.smt);
  }
  if (!faulted) return std::nullopt;
  const auto& [r, fz] = *faulted;
  const std::string searched =
      z.kind == OutcomeKind::holds      ? "at no value where those issues are valid accesses is the claim broken"
      : z.kind == OutcomeKind::violated ? "every violation found in " + std::to_string(kFaultRounds) + " rounds made some issue fault"
                                                  : "whether a violation exists where they are valid is not known (" + z.text + ")";
  const compiled::SymbolicIssue& other = *p.q.issues[r.faulting[0]];
  return refuted(s, *p.q.issues[fz.witness.issue], r, method, fz.queries,
                 ": this issue alone; at these values " + std::to_string(r.faulting.size()) + " other issue(s) of this instruction fault (" +
                     issue_where(s, other) + " first), so the launch re-run with them reports ERROR for " + c.text + " here (" + r.faults +
                     "); " + searched);
}

}  // namespace

namespace {
// Whether some launch is in the domain (CTA, grid, ranges, assumptions): the query and its model.
SymbolicQuery domain_query(const compiled::Launch& l, const compiled::KernelRun& run) {
  SymbolicQuery q;
  q.kind = SymbolicQuery::Kind::satisfiable;
  q.name = "assumptions";
  q.symbols = run.symbols;
  q.grid = run.grid;
  q.every_grid = run.every_grid;
  q.conds = &run.conds;
  q.assumptions = &l.assumptions;
  return q;
}
}  // namespace

DomainCheck check_domain(const compiled::Launch& l, const compiled::KernelRun& run, const ProveOptions& o) {
  DomainCheck d;
  if (run.symbols.empty() && l.assumptions.empty()) return d;
  SymbolicQuery q = domain_query(l, run);
  if (const auto bad = add_ranges(l, run, q)) {
    if (!l.assumptions.empty()) d.vacuous = Verdict::error("assumptions", *bad);
    return d;
  }
  // First a launch of the sizes kernels run at (every parameter without a range in 64..1024), where
  // loops go on and guards let lanes through, so that the point settles the most; else any.
  SymbolicQuery typical = q;
  typical.name = "domain_point";
  for (std::size_t i = 0; i < run.symbols.size(); ++i)
    if (run.symbols[i].kind == compiled::Symbol::Kind::param && !typical.ranges[i] && run.symbols[i].bits > 11)
      typical.ranges[i] = std::pair<i64, i64>{64, 1024};
  Outcome<SymbolicViolation> z = check_symbolic_z3(typical, o.smt);
  if (z.kind != OutcomeKind::violated) z = check_symbolic_z3(q, o.smt);
  if (z.kind == OutcomeKind::violated) {
    std::vector<compiled::u64> p = z.witness.values;
    for (std::size_t i = 0; i < run.symbols.size() && i < p.size(); ++i)
      if (is_iteration(run.symbols[i])) p[i] = 0;
    d.point = compiled::symbol_values(run.symbols, std::move(p));
    return d;
  }
  if (l.assumptions.empty()) return d;
  std::string texts;
  for (const compiled::Assumption& a : l.assumptions) texts += (texts.empty() ? "" : ", ") + a.what;
  if (z.kind == OutcomeKind::holds)
    d.vacuous = Verdict::error("z3 over the launch's domain", "vacuous: no launch (" + claims_domain_text(l) + ", the --param values and ranges) meets " +
                                                                texts + ": a claim over no launch proves nothing");
  else
    d.vacuous = Verdict::unknown("z3 over the launch's domain", "whether any launch meets " + texts + " is not known (" + z.text + ")");
  return d;
}

std::string symbolic_domain(const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s) {
  std::string out, loops;
  bool cta = false;
  const std::vector<char> uses = used_symbols(run, s);
  for (std::size_t i = 0; i < run.symbols.size(); ++i) {
    if (!uses[i]) continue;
    const compiled::Symbol& sym = run.symbols[i];
    if (is_derived(sym)) continue;
    if (is_cta(sym)) {
      cta = true;
      continue;
    }
    if (is_iteration(sym)) {
      loops += (loops.empty() ? "every iteration of the loop at line " : " and of the loop at line ") + std::to_string(sym.dim);
      continue;
    }
    const auto* r = range_of(l, sym);
    out += (out.empty() ? "" : " and ") +
           (r ? "every value " + std::to_string(r->lo) + ".." + std::to_string(r->hi) + " (--param-range)"
              : "every " + std::to_string(sym.bits) + "-bit value") +
           " of " + sym.name;
  }
  if (cta) out = "every CTA of " + (run.every_grid ? std::string("every grid") : "grid " + dims_text(run.grid)) + (out.empty() ? "" : " and ") + out;
  if (!loops.empty()) out += (out.empty() ? "" : ", ") + loops;
  if (!s.data_why.empty()) out += (out.empty() ? "" : ", ") + std::string("every way the data decides its branches (") + s.data_why + ")";
  std::string assumed;
  for (const compiled::Assumption& a : l.assumptions) assumed += (assumed.empty() ? "" : " and ") + a.text;
  if (!assumed.empty()) out += (out.empty() ? "every launch" : "") + std::string(" where ") + assumed;
  return out.empty() ? "no free parameter" : "for " + out;
}

PtxClaimResult with_symbolic(const compiled::Program& prog, const compiled::Launch& l, const compiled::KernelRun& run, const compiled::Site& s,
                             const PtxClaim& c, const ProveOptions& o, PtxClaimResult concrete) {
  if (s.symbolic.empty() || !concrete.applicable || concrete.verdict.is_refuted() || concrete.verdict.kind == Verdict::Kind::error)
    return concrete;
  const std::string domain = symbolic_domain(l, run, s);
  const std::string method = "z3 over " + std::to_string(s.symbolic.size()) +
                             " distinct issue(s) whose addresses or guards are affine in symbols (free parameters, %ctaid, %nctaid), " + domain;
  const auto unknown = [&](const std::string& why) { return PtxClaimResult{true, Verdict::unknown(method, why), std::nullopt}; };
  const bool grouping = is_grouping(c);
  if (c.kind == Kind::no_overlap) return unknown("no-overlap is not decided where addresses depend on free parameters");
  if (grouping && !s.bank_modelled) return concrete;
  if (s.width_bytes <= 0) return concrete;
  Prepared p = prepare(prog, l, run, s, c, method);
  if (p.early) return {true, std::move(*p.early), std::nullopt};
  const SymbolicQuery& q = p.q;
  if (p.all.empty() && !p.doubt.empty()) return unknown(p.doubt);  // every issue was in doubt (a stopped warp)

  Outcome<SymbolicViolation> z = check_symbolic_z3(q, o.smt);
  if (z.kind == OutcomeKind::error) return {true, Verdict::error(method, z.text), std::nullopt};
  if (auto r = refute(prog, l, run, s, c, o, p, method, z)) return std::move(*r);
  if (z.kind == OutcomeKind::unknown) return unknown(z.text);
  // The bank claims hold wherever the bank model applies (validate: every lane aligned and below
  // the 227 KiB a block can address). At any other value the access faults (a misaligned or out
  // of range shared address): it has no wavefronts, and aligned / in-bounds are the claims about
  // it. The verdict's domain says so; a domain with no valid value at all proves nothing.
  // A bank claim asks first whether some value makes an issue valid, which makes one of its lanes
  // active too (validate: no access without an active lane): then some launch runs it.
  // At the domain's one launch (KernelRun::domain_point) an issue with an active (valid) lane
  // settles both questions without Z3.
  bool runs_at_point = false, valid_at_point = false;
  if (run.domain_point)
    for (const compiled::SymbolicIssue* is : p.all) {
      const SmemAccess a = access_at(run, s, *is, *run.domain_point);
      if (std::none_of(a.lane_addr.begin(), a.lane_addr.end(), [](i64 x) { return x >= 0; })) continue;
      runs_at_point = true;
      valid_at_point = valid_at_point || valid_access(a);
    }
  std::optional<Outcome<SymbolicViolation>> some_valid;
  if (grouping && valid_at_point) {
    some_valid.emplace();
    some_valid->kind = OutcomeKind::violated;
  } else if (grouping) {
    SymbolicQuery a = q;
    a.issues = p.all;
    a.valid_issues.clear();
    a.kind = SymbolicQuery::Kind::some_valid;
    a.name = c.text + ".some_valid";
    some_valid = check_symbolic_z3(a, o.smt);
  }
  if (p.doubt.empty() && !p.all.empty() && any_when(s) && !runs_at_point && !(some_valid && some_valid->kind == OutcomeKind::violated)) {
    // lanes active under conditions: some launch must run one, or nothing was proved
    SymbolicQuery a = q;
    a.issues = p.all;
    a.kind = SymbolicQuery::Kind::some_active;
    a.name = c.text + ".some_active";
    const Outcome<SymbolicViolation> some = check_symbolic_z3(a, o.smt);
    if (some.kind == OutcomeKind::holds)
      return unknown("NOT RUN: in no launch of the domain (" + domain.substr(domain.rfind("for ", 0) == 0 ? 4 : 0) +
                     ") does a lane execute the instruction, so nothing is known of its accesses");
    if (some.kind != OutcomeKind::violated) return unknown(some.text);
  }
  std::string faults;
  if (grouping) {
    const Outcome<SymbolicViolation>& some = *some_valid;
    if (some.kind == OutcomeKind::holds)
      return unknown("vacuous: at no value of the free parameters is an issue a valid access (aligned, inside the 227 KiB a block can address)");
    if (some.kind != OutcomeKind::violated) return unknown(some.text);
    SymbolicQuery a = q;
    a.issues.clear();
    for (const compiled::SymbolicIssue* is : p.all)
      if (!constant_valid(s, *is)) a.issues.push_back(is);  // the others are valid wherever they run
    a.valid_issues.clear();
    a.kind = SymbolicQuery::Kind::valid;
    a.name = c.text + ".valid";
    const Outcome<SymbolicViolation> v = check_symbolic_z3(a, o.smt);
    if (v.kind == OutcomeKind::violated) {
      std::string values;
      const std::vector<char> uses = used_symbols(run, s);
      for (std::size_t i = 0; i < run.symbols.size(); ++i)
        if (uses[i] && !is_derived(run.symbols[i]))
          values += (values.empty() ? "" : ", ") +
                    (is_iteration(run.symbols[i]) ? iteration_text(run.symbols[i], v.witness.values[i])
                                                  : run.symbols[i].name + " = " + compiled::param_value_text(prog, prog.functions[run.entry], run.symbols[i], v.witness.values[i]));
      faults = "; at values where a lane's address is not a multiple of " + std::to_string(s.width_bytes) +
               " bytes or lies past the 227 KiB a block can address (" + values +
               ", for one) the access faults and has no wavefronts: aligned and in-bounds decide those";
    } else if (v.kind != OutcomeKind::holds) {
      return unknown(v.text);
    }
  }
  if (!concrete.verdict.is_proved()) return concrete;
  if (!p.doubt.empty()) return unknown(p.doubt);
  // cp.async reads its global words through the L1 banks too; the issues with free parameters keep
  // no global side (SymbolicIssue), so their shared side alone proves nothing.
  if (s.op == "ldgsts" && c.kind == Kind::conflict_free)
    return unknown("the shared side takes its ideal wavefronts for every value of the free parameters, but the global side of " +
                   std::to_string(p.all.size()) + " issue(s) with free parameters is not decided (whether their global reads meet in an L1 bank)");
  const std::string what = c.kind == Kind::conflict_free ? "no two active lanes of one phase hit one bank at different words"
                           : c.kind == Kind::max_ways    ? "no bank of any phase holds " + std::to_string(c.k + 1) + " distinct words"
                           : c.kind == Kind::aligned     ? "every active lane's address is a multiple of " + std::to_string(s.width_bytes) + " bytes"
                                                         : "every active lane's " + std::to_string(s.width_bytes) + " bytes lie inside its shared symbol";
  const std::size_t direct = p.all.size() - q.issues.size();
  const std::string settled = direct == 0 ? ""
                              : "; " + std::to_string(direct) + " of them decided without a query (" +
                                    (grouping ? "one term plus each lane's constant, the bank model at every offset"
                                              : "their addresses constant or multiples of the width in every symbol") + ")";
  Verdict v = Verdict::proved(method + settled + "; " + concrete.verdict.method,
                              what + ", " + domain + (faults.empty() ? "" : " at which the access is valid") + " (" +
                                  std::to_string(p.all.size()) + " issue(s) with free parameters" +
                                  (s.trace.instructions.empty() ? "" : "; the other issues: " + concrete.verdict.detail) + ")" + faults);
  v.queries = z.queries;
  return {true, std::move(v), std::nullopt};
}

}  // namespace layoutproof::proofs
