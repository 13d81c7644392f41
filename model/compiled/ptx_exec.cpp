// The PTX executor (ptx_exec.hpp): sites, symbol placement, each warp run (ptx_warp.cpp) and its
// shared-memory issues grouped into sites, counted by the bank model and kept, deduplicated, as
// address traces.
#include "model/compiled/ptx_exec.hpp"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "model/compiled/exec/alu.hpp"
#include "model/compiled/exec/ptx_machine.hpp"
#include "model/compiled/ptx_parse.hpp"

namespace layoutproof::compiled {

SmemOp site_smem_op(const Opcode& c) {
  switch (c.op) {
    case Op::ld: return SmemOp::ld;
    case Op::ldmatrix: return c.matrices == 4 ? SmemOp::ldsm4 : c.matrices == 2 ? SmemOp::ldsm2 : SmemOp::ldsm1;
    case Op::stmatrix: return c.matrices == 4 ? SmemOp::stsm4 : c.matrices == 2 ? SmemOp::stsm2 : SmemOp::stsm1;
    case Op::cp_async: return SmemOp::ldgsts;
    default: return SmemOp::st;
  }
}

namespace {

using OK = Operand::Kind;

struct SiteShape {
  std::string op;
  SmemOp smem = SmemOp::ld;
  int width = 0;
  bool writes = false, bank = true, bypass = false;
};

SiteShape shape_of(const Function& f, const Instr& in) {
  const Opcode& c = in.code;
  SiteShape s;
  switch (c.op) {
    case Op::ld: case Op::st:
      s.op = c.op == Op::ld ? "ld" : "st";
      s.smem = c.op == Op::ld ? SmemOp::ld : SmemOp::st;
      s.width = type_bytes(c.type) * c.vec;
      s.writes = c.op == Op::st;
      break;
    case Op::ldmatrix: case Op::stmatrix:
      s.smem = site_smem_op(c);
      s.op = to_string(s.smem);
      s.width = 16;
      s.writes = c.op == Op::stmatrix;
      break;
    case Op::cp_async:
      s.op = "ldgsts";
      s.smem = SmemOp::ldgsts;
      s.bypass = c.bypass;
      s.width = in.count >= 3 && arg(f, in, 2).kind == OK::imm ? static_cast<int>(arg(f, in, 2).imm) : 0;
      s.writes = true;
      break;
    default:  // atom, red
      s.op = c.op == Op::atom ? "atom" : "red";
      s.width = type_bytes(c.type) * c.vec;
      s.writes = true;
      s.bank = false;
      break;
  }
  return s;
}

// LDGSTS's count (model/bank/bank.hpp; docs/bank_model.md, "cp.async"): with its global side known
// (or known up to a common pointer, ptx_warp.cpp global_lines), the measured H200 rule where it is
// exact (count_ldgsts_measured). Any other copy is not counted (`invalid`, with why): its
// wavefronts depend on global addresses that are not known, or on how two conflicting sides pair,
// and the hardware varies there (measured above the rule's sum in 214 of 339 such cases).
void count_ldgsts(const Site& s, const Issue& is, Wavefronts& counts, i64& ldgsts, bool& invalid, std::string& why) {
  const SmemAccess a{SmemOp::ldgsts, s.width_bytes, is.addr};
  if (!is.global_known) {
    invalid = true;
    why = "cp.async: its wavefronts depend on its global addresses (the L1 banks it reads), which are not known here";
    return;
  }
  if (s.bypass) {  // cp.async.cg: measured where every lane copies, each its own 16 bytes
    if (const auto w = count_ldgsts_bypass(a, is.global_line)) {
      counts = *w;
      ldgsts = counts.wavefronts;
      return;
    }
    invalid = true;
    why = "cp.async.cg with a lane that does not copy, or lanes sharing 16 bytes: Nsight Compute's count for it is not the "
          "active lanes' addresses' (measured: 25 wavefronts for 8 contiguous lanes; docs/bank_model.md, \"cp.async\")";
    return;
  }
  if (const auto w = count_ldgsts_measured(a, is.global_line)) {
    counts = *w;
    ldgsts = counts.wavefronts;
    return;
  }
  invalid = true;
  const WavefrontBounds b = ldgsts_bounds(a, is.global_line);
  why = "cp.async whose global and shared banks both conflict (and are not aligned mod 128): its wavefronts depend on how the "
        "two sides pair, which the H200 sweep shows varies (docs/bank_model.md, \"cp.async\"); measured bounds for this issue: " +
        std::to_string(b.lo) + " to " + std::to_string(b.hi);
}

// Static symbols from 0, each aligned, dynamic after them (ptx_exec.hpp), in the order a Program
// in which only this kernel was decoded lists them: module scope in declaration order, then each
// function's own, function by function in kernel_functions order (so a Program shared with other
// kernels places them where the kernel's own would).
void place_symbols(const Program& p, std::size_t entry, const Launch& l, Machine& m) {
  // Proportional to the kernel, not to the file (a file of many kernels declares many symbols).
  const std::vector<std::size_t> fns = kernel_functions(p, entry);
  std::vector<u32> order;
  for (const std::size_t fi : fns)
    for (const Operand& o : p.functions[fi].operands)
      if (o.kind == OK::shared && o.index < p.shared.size()) order.push_back(o.index);
  std::sort(order.begin(), order.end());
  order.erase(std::unique(order.begin(), order.end()), order.end());
  const auto rank_of = [&](u32 i) {  // module scope first, then by the owning function's place in fns
    const int owner = p.shared[i].owner;
    return owner < 0 ? std::size_t{0} : 1 + static_cast<std::size_t>(std::find(fns.begin(), fns.end(), static_cast<std::size_t>(owner)) - fns.begin());
  };
  std::stable_sort(order.begin(), order.end(), [&](u32 a, u32 b) { return rank_of(a) < rank_of(b); });
  m.placement_of_symbol.assign(order.empty() ? 0 : *std::max_element(order.begin(), order.end()) + std::size_t{1}, -1);
  i64 at = 0, dyn_align = 16;
  for (const u32 i : order) {
    const SharedSymbol& s = p.shared[i];
    if (s.dynamic) {
      dyn_align = std::max(dyn_align, s.align);
      continue;
    }
    at = checked_mul(ceil_div(at, s.align), s.align);
    m.placement_of_symbol[i] = static_cast<int>(m.placements.size());
    m.placements.push_back({i, at, s.bytes});
    at = checked_add(at, s.bytes);
  }
  if (at > kSmemBytes)
    throw LayoutError(p.functions[entry].name + " declares " + std::to_string(at) + " bytes of static shared memory, more than the " +
                      std::to_string(kSmemBytes) + " a block can have");
  const i64 dyn = checked_mul(ceil_div(at, dyn_align), dyn_align);
  if (l.dynamic_smem_bytes >= 0 && checked_add(dyn, l.dynamic_smem_bytes) > kSmemBytes)
    throw LayoutError("--smem-bytes " + std::to_string(l.dynamic_smem_bytes) + ": with " + std::to_string(dyn) +
                      " bytes of static shared memory before it, more than the " + std::to_string(kSmemBytes) + " a block can have");
  for (const u32 i : order)
    if (p.shared[i].dynamic) {
      m.placement_of_symbol[i] = static_cast<int>(m.placements.size());
      m.placements.push_back({i, dyn, l.dynamic_smem_bytes});
    }
}

// key -> value for nonzero 64-bit keys: open addressing, linear probing, a power-of-two table at
// most half full (one cache line per lookup, where a node-based map misses twice).
class FlatIndex {
 public:
  // The value of `key`, or nullptr.
  u32* find(u64 key) {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = key & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key == 0) return nullptr;
    }
  }
  void set(u64 key, u32 value) {
    if (u32* v = find(key)) {
      *v = value;
      return;
    }
    if (2 * (used_ + 1) > slots_.size()) grow();
    insert(key, value);
    ++used_;
  }

 private:
  struct Slot {
    u64 key = 0;
    u32 value = 0;
  };
  void insert(u64 key, u32 value) {
    std::size_t i = key & (slots_.size() - 1);
    while (slots_[i].key != 0) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = {key, value};
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(std::max<std::size_t>(16, 2 * old.size()), Slot{});
    for (const Slot& x : old)
      if (x.key != 0) insert(x.key, x.value);
  }
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
};

// Distinct issues with free-parameter terms kept per site: each costs a Z3 query's share; beyond
// this the site's claims are UNKNOWN (Site::symbolic_capped).
constexpr std::size_t kMaxSymbolicIssues = 4096;

u64 pattern_hash(const Issue& is) {
  u64 h = 1469598103934665603ull;
  for (int k = 0; k < kWarpLanes; ++k) {
    const std::size_t s = static_cast<std::size_t>(k);
    h = (h ^ static_cast<u64>(is.addr[s] + 2)) * 1099511628211ull;
    h = (h ^ static_cast<u64>(is.placement[s] + 2)) * 1099511628211ull;
  }
  return h;
}

void check_launch(const Program& p, std::size_t entry, const Launch& l) {
  const Function& f = p.functions[entry];
  for (const i64 b : l.block)
    if (b < 1) throw LayoutError(f.name + ": the block needs at least one thread in each dimension");
  const i64 threads = checked_mul(checked_mul(l.block[0], l.block[1]), l.block[2]);
  if (threads > kMaxBlockThreads)
    throw LayoutError("a block of " + std::to_string(threads) + " threads; a thread block has at most " + std::to_string(kMaxBlockThreads));
  for (const i64 g : l.grid)
    if (g < 1 || g > (i64{1} << 31)) throw LayoutError("--grid needs 1 to 2^31 CTAs in each dimension");
  if (l.params.size() > f.params.size())
    throw LayoutError(f.name + " has " + std::to_string(f.params.size()) + " parameters; --param names parameter " +
                      std::to_string(l.params.size() - 1));
  if (!f.decoded) throw LayoutError(f.name + " has no body to run");
}

}  // namespace

namespace {
// What Nsight Compute counts for a wgmma.mma_async, measured on the H100 (sm_90, as the H200;
// tests/hopper/hgmma_counts: m64nNk16 bf16 for N = 64, 128, 256 under every swizzle and none, A
// in shared memory or registers; m64nNk32 e4m3 for N = 64, 128): every warp of the warpgroup
// executes it once, and the warpgroup reads A's 64 rows and B's N rows of one 32-byte k-block in
// 128-byte wavefronts, a quarter per warp: 4 (A in shared memory) + N / 16 per warp execution,
// ideal the same. Other types and shapes were not measured: no counts (nullopt).
std::optional<i64> wgmma_wavefronts(const std::string& mnemonic, bool a_registers) {
  // The shape and types, in PTX's spelling (wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16)
  // or SASS's (HGMMA.64x128x16.F32.BF16, QGMMA.64x64x32.F32.E4M3.E4M3): N, and the rest after it.
  struct Spelling {
    std::string prefix, bf16, e4m3;
  };
  static const Spelling spellings[] = {{"wgmma.mma_async.sync.aligned.m64n", "k16.f32.bf16.bf16", "k32.f32.e4m3.e4m3"},
                                       {"HGMMA.64x", "x16.F32.BF16", ""},
                                       {"QGMMA.64x", "", "x32.F32.E4M3.E4M3"}};
  for (const Spelling& sp : spellings) {
    if (mnemonic.rfind(sp.prefix, 0) != 0) continue;
    const int n = std::atoi(mnemonic.c_str() + sp.prefix.size());
    const std::size_t after = sp.prefix.size() + std::to_string(n).size();
    if (after > mnemonic.size()) return std::nullopt;  // no shape after the prefix
    const std::string rest = mnemonic.substr(after);
    const bool bf16 = !sp.bf16.empty() && rest == sp.bf16, e4m3 = !sp.e4m3.empty() && rest == sp.e4m3;
    if (!(n == 64 || n == 128 || n == 256) || !(bf16 || (e4m3 && !a_registers && n <= 128))) return std::nullopt;
    return (a_registers ? 0 : 4) + n / 16;
  }
  return std::nullopt;
}

// A wgmma's counts on a launch whose run is concrete and whole (no symbol, no stopped lane, no
// trap): its executions (one per warp) times the measured rule, on its not-counted row.
void wgmma_counts(KernelRun& run) {
  if (!run.symbols.empty() || !run.stopped.empty() || !run.trapped.empty()) return;
  for (NotCounted& n : run.not_counted) {
    i64 executions = 0;
    std::optional<i64> per;
    bool same = true;
    for (const AsyncOp& a : run.async_ops) {
      if (a.kind != AsyncOp::Kind::wgmma || a.function != n.function || a.pc != n.pc) continue;
      const std::optional<i64> w = a.guarded ? std::nullopt : wgmma_wavefronts(a.mnemonic, a.a_registers);
      same = same && w && (!per || *per == *w);
      per = w, ++executions;
    }
    if (executions == 0 || !same || !per) continue;
    const i64 wf = checked_mul(executions, *per);
    n.counts = std::array<i64, 3>{executions, wf, wf};
    n.why += "; its executed, wavefronts and ideal are the rule measured on the H100 (per warp execution 4 wavefronts for A in shared "
             "memory and N/16 for B, ideal the same; tests/hopper/hgmma_counts), in the totals";
  }
}

std::string trap_why(const KernelRun& run) {
  return "the launch traps (" + run.trapped + "): the hardware aborts it and measures nothing";
}
}  // namespace

std::string counts_unknown(const KernelRun& run, const Site& s) {
  if (!run.trapped.empty()) return trap_why(run);
  if (!run.stopped.empty() && s.after_stop) return "a lane stopped early (" + run.stopped + ") where it could still reach this: its issues are missing";
  if (s.counts_known) return "";
  if (!s.unknown.empty()) return std::to_string(s.unknown_issues) + " issue(s) with a lane not known: " + s.unknown;
  if (!s.invalid.empty()) return "the bank model refused an issue: " + s.invalid;
  if (!s.data_why.empty()) return "it runs only where the data decides (" + s.data_why + "): which lanes run it, and how often, is not known";
  if (!s.symbolic.empty()) return "addresses or guards that depend on free parameters: counted for no value of them (give --param)";
  return "more distinct issues than the run keeps";
}

std::string executed_unknown(const KernelRun& run, const Site& s) {
  if (!run.trapped.empty()) return trap_why(run);
  if (!run.stopped.empty() && s.after_stop) return "a lane stopped early (" + run.stopped + ") where it could still reach this: its issues are missing";
  return s.executed_why;
}

std::string totals_unknown(const KernelRun& run) {
  if (!run.trapped.empty()) return trap_why(run);
  for (const NotCounted& n : run.not_counted)
    if (!n.outside_totals && !n.counts) return "line " + std::to_string(n.line) + ": " + n.why + " (the totals would leave it out)";
  return "";
}

KernelTotals kernel_totals(const KernelRun& run) {
  KernelTotals t;
  t.why = totals_unknown(run);
  t.executed_known = t.counts_known = t.why.empty();
  for (const Site& s : run.sites) {
    t.executed += s.executed, t.wavefronts += s.wavefronts, t.ideal += s.ideal;
    t.executed_known = t.executed_known && executed_unknown(run, s).empty();
    t.counts_known = t.counts_known && counts_unknown(run, s).empty();
  }
  for (const NotCounted& n : run.not_counted)
    if (n.counts) t.executed += (*n.counts)[0], t.wavefronts += (*n.counts)[1], t.ideal += (*n.counts)[2];
  return t;
}

// A generic access is a site where some lane's address was in the shared window: it is counted, and
// its listing (an execution whose lanes were all not known) is dropped, its unknown issues making
// its counts unknown. A generic access whose active lanes were all global (or not known) touched no
// shared byte the run saw: it is no site (listed as one that may, where an address was not known).
// One no lane ran stays a site, NOT RUN: where its address would be is not known.
static void settle_generic_sites(KernelRun& run) {
  std::vector<Site> kept;
  kept.reserve(run.sites.size());
  for (Site& s : run.sites) {
    if (!s.generic) {
      kept.push_back(std::move(s));
      continue;
    }
    const auto listed = std::find_if(run.not_counted.begin(), run.not_counted.end(),
                                     [&](const NotCounted& n) { return n.function == s.function && n.pc == s.pc; });
    if (!s.in_window && (s.outside_window || listed != run.not_counted.end())) continue;  // its lanes were global (or not known)
    if (listed != run.not_counted.end()) {
      s.counts_known = false;
      if (s.unknown.empty()) s.unknown = listed->why;
      run.not_counted.erase(listed);
    }
    kept.push_back(std::move(s));
  }
  run.sites = std::move(kept);
}

KernelRun run_kernel(const Program& p, std::size_t entry, const Launch& l) {
  check_launch(p, entry, l);
  Machine m(p, l);
  place_symbols(p, entry, l, m);
  KernelRun run;
  run.name = p.functions[entry].name;
  run.entry = entry;
  run.block = l.block;
  run.grid = l.grid;
  run.cta = l.cta;
  run.cta_chosen = l.cta_chosen;
  run.threads = l.block[0] * l.block[1] * l.block[2];
  run.placements = m.placements;
  // Sites: every shared-memory instruction of the kernel and the functions it calls, in PTX order.
  std::unordered_map<u64, std::size_t> site_index;
  for (const std::size_t fi : kernel_functions(p, entry)) {
    const Function& f = p.functions[fi];
    for (u32 pc = 0; pc < f.code.size(); ++pc) {
      const Instr& in = f.code[pc];
      if (!is_site(in)) continue;
      Site s;
      s.function = static_cast<u32>(fi);
      s.pc = pc;
      s.line = in.line;
      s.sass_offset = in.sass_offset;
      s.source = p.source_of(f, in);
      s.inlined = p.inlined_of(f, in);
      s.never = in.never;
      s.generic = is_generic_access(in);
      s.text = p.text_of(in);
      const SiteShape sh = shape_of(f, in);
      s.op = sh.op;
      s.width_bytes = sh.width;
      s.writes = sh.writes;
      s.bypass = sh.bypass;
      s.bank_modelled = sh.bank;
      s.trace.op = sh.smem;
      s.trace.width_bytes = sh.width;
      s.trace.threads = run.threads;
      s.trace.smem_is_destination = sh.writes;
      s.trace.provenance = p.file + ":" + std::to_string(in.line) + (s.source.empty() ? "" : " (" + s.source + ")") + ": " + s.text;
      s.trace.name = "line " + std::to_string(in.line) + ": " + m.mnemonic(in);
      run.sites.push_back(std::move(s));
    }
  }
  std::sort(run.sites.begin(), run.sites.end(), [](const Site& a, const Site& b) { return a.line < b.line; });
  for (std::size_t i = 0; i < run.sites.size(); ++i)
    site_index[(static_cast<u64>(run.sites[i].function) << 32) | run.sites[i].pc] = i;

  // The distinct issues of every site, found by hash: `first_of[site]` maps a hash to the site's
  // latest pattern with that hash, `known[site][k].next` chains the site's patterns of one hash.
  // Each pattern keeps its bank counts: an issue equal to a known pattern is not counted again.
  struct Known {
    u32 next = UINT32_MAX;
    Wavefronts counts;
    bool invalid = false;
    i64 ldgsts = -1;  // LDGSTS with its global side known (-1: not known)
  };
  std::vector<FlatIndex> first_of(run.sites.size());
  std::vector<std::unordered_multimap<u64, u32>> symbolic_index(run.sites.size());  // hash -> Site::symbolic index
  std::vector<std::vector<Known>> known(run.sites.size());
  std::size_t patterns = 0;
  WarpRunner r(p, entry, l, m);
  r.set_site_of([&](u32 fi, u32 pc) { return site_index.at((static_cast<u64>(fi) << 32) | pc); });
  i64 warp = 0;
  const auto on_issue = [&](std::size_t si, i64 execution, const Issue& is) {
    Site& s = run.sites[si];
    ++s.executed;
    if (is.path && s.executed_why.empty()) {
      const u32 d = data_atom_in(m.conds, is.path);
      s.executed_why = d ? "it runs only where the data decides (" + m.reasons[static_cast<u32>(m.conds[d].b.c0)] + "): how often a launch issues it is not known"
                         : "it runs only where a condition over the symbols holds (a free parameter, %ctaid, a loop run for every iteration at once): how often a launch issues it is not known";
    }
    s.in_window = s.in_window || is.window;
    s.outside_window = s.outside_window || is.outside;
    if (is.cta) s.cta_dependent = true;
    if (is.cta && (l.grid[0] * l.grid[1] * l.grid[2] > 1)) run.cta_dependent_any = true;
    if (is.divergent && s.divergent.empty())
      s.divergent = "warp " + std::to_string(warp) + ", execution " + std::to_string(execution) +
                    ": inside a divergent region whose paths meet before they reconverge";
    bool any_unknown = false, any_active = false;
    for (const LaneState st : is.state) any_unknown = any_unknown || st == LaneState::unknown, any_active = any_active || st == LaneState::active;
    if (any_unknown && !is.unknown_lanes && !is.sym.empty()) {  // every lane known or a term: kept for the claims
      s.counts_known = false;
      SymbolicIssue si2;
      si2.warp = warp;
      si2.execution = execution;
      si2.count = 1;
      si2.placement = is.placement;
      si2.divergent = is.divergent;
      si2.cta_dependent = is.cta;
      for (std::size_t k = 0; k < kWarpLanes; ++k) {
        si2.active[k] = is.state[k] == LaneState::active || is.state[k] == LaneState::unknown;
        if (is.state[k] == LaneState::unknown) si2.addr[k] = is.sym[k];
        else if (is.state[k] == LaneState::active) si2.addr[k].c0 = static_cast<u64>(is.addr[k]), si2.addr[k].w = 32;
        if (!is.when.empty()) si2.when[k] = is.when[k];
      }
      // Distinct issues by hash (each lane's condition and address constant, the cheap fields):
      // under data atoms every issue is new, and a scan of all would be quadratic.
      u64 hk = 1469598103934665603ull;
      for (std::size_t k = 0; k < kWarpLanes; ++k)
        hk = (((hk ^ si2.when[k]) * 1099511628211ull) ^ (si2.addr[k].c0 + (si2.active[k] ? 1 : 0))) * 1099511628211ull;
      auto& index = symbolic_index[si];
      for (auto [it, end] = index.equal_range(hk); it != end; ++it) {
        SymbolicIssue& o = s.symbolic[it->second];
        if (o.when == si2.when && o.active == si2.active && o.placement == si2.placement && o.addr == si2.addr) {
          ++o.count;
          o.divergent = o.divergent || si2.divergent;
          o.cta_dependent = o.cta_dependent || si2.cta_dependent;
          return;
        }
      }
      if (s.symbolic.size() >= kMaxSymbolicIssues) {
        s.symbolic_capped = true;
        return;
      }
      index.emplace(hk, static_cast<u32>(s.symbolic.size()));
      s.symbolic.push_back(si2);
      return;
    }
    if (any_unknown) {
      ++s.unknown_issues;
      s.counts_known = false;
      if (s.unknown.empty()) s.unknown = m.reasons[is.why];
      return;
    }
    if (!any_active) return;
    // A cp.async.cg issued with two or more of its warp's .cg copies in flight: which copy Nsight
    // Compute charges a deep pipeline's extra wavefronts to follows the copies in flight, not the
    // addresses (gpu_check/probes/cg_stages.cu: 24 for 16 at the 4th of 4 stages, 10 for 16 at the
    // 3rd of 8, 200 for 32 at the 8th of 8; exact with one or none in flight): not known.
    if (s.bypass && is.cg_in_flight >= 2) {
      s.counts_known = false;
      if (s.invalid.empty())
        s.invalid = "warp " + std::to_string(warp) + ", execution " + std::to_string(execution) + ": cp.async.cg issued with " +
                    std::to_string(is.cg_in_flight) +
                    " other .cg copies of its warp in flight: the wavefronts Nsight Compute counts for a deep .cg pipeline follow the "
                    "copies in flight, not the addresses (docs/bank_model.md, \"cp.async\")";
    }
    // Counts the issue's wavefronts (bank-modelled sites) from `counts`, or records why not.
    const auto count = [&](const Wavefronts& counts, bool invalid, const std::string& error) {
      if ((!s.bank_modelled && s.op != "atom" && s.op != "red") || invalid) {
        s.counts_known = false;
        if (invalid && s.invalid.empty()) s.invalid = "warp " + std::to_string(warp) + ", execution " + std::to_string(execution) + ": " + error;
        return;
      }
      s.wavefronts = checked_add(s.wavefronts, counts.wavefronts);
      s.ideal = checked_add(s.ideal, counts.hw_ideal);  // the hardware's, as every count table prints it
    };
    const u64 h = pattern_hash(is);
    // Mixed so that the low bits (the table's index) depend on every bit; never 0 (the empty key).
    // Two issues of one key share a chain; the addresses decide.
    u64 key = h * 0xbf58476d1ce4e5b9ull;
    key = (key ^ (key >> 31)) | 1;
    auto& chain = known[si];
    u32* const head = first_of[si].find(key);
    for (u32 k = head ? *head : UINT32_MAX; k != UINT32_MAX; k = chain[k].next)
      if (s.trace.instructions[k].addr == is.addr && s.patterns[k].placement == is.placement &&
          (s.patterns[k].ldgsts_wavefronts < 0) == !is.global_known &&
          (!is.global_known || s.patterns[k].global_line == is.global_line) &&
          (s.patterns[k].written == is.written || (s.patterns[k].written && is.written && *s.patterns[k].written == *is.written))) {
        count(chain[k].counts, chain[k].invalid, "");
        ++s.patterns[k].count;
        s.patterns[k].divergent = s.patterns[k].divergent || is.divergent;
        s.patterns[k].cta_dependent = s.patterns[k].cta_dependent || is.cta;
        return;
      }
    Known fresh;
    std::string error;
    try {
      if (s.generic && s.width_bytes < 4) {
        fresh.invalid = true;
        error = kNarrowGenericWhy;
      } else if (s.bank_modelled) {
        fresh.counts = count_wavefronts(SmemAccess{s.trace.op, s.width_bytes, is.addr});
        if (s.trace.op == SmemOp::ldgsts) count_ldgsts(s, is, fresh.counts, fresh.ldgsts, fresh.invalid, error);
      } else if (const auto w = count_atomic_wavefronts(atomic_kind(s.text), SmemAccess{SmemOp::st, s.width_bytes, is.addr})) {
        fresh.counts = *w;  // measured atomics (model/bank/bank.hpp count_atomic_wavefronts)
      } else {
        fresh.invalid = true;
        error = "no measured bank rule for this atomic (docs/bank_model.md, \"Atomics\")";
      }
    } catch (const LayoutError& e) {
      fresh.invalid = true;
      error = e.what();
    }
    count(fresh.counts, fresh.invalid, error);
    if (patterns >= l.max_patterns) {
      s.patterns_capped = true;
      return;
    }
    ++patterns;
    const Instr& in = p.functions[s.function].code[s.pc];
    TraceInstruction ti;
    ti.op = s.trace.op;
    ti.width_bytes = s.width_bytes;
    ti.addr = is.addr;
    ti.thread.fill(-1);
    for (int k = 0; k < kWarpLanes; ++k)
      if (is.state[static_cast<std::size_t>(k)] == LaneState::active) ti.thread[static_cast<std::size_t>(k)] = warp * kWarpLanes + k;
    ti.warp = warp;
    ti.index = execution;
    ti.where = "line " + std::to_string(in.line) + (s.source.empty() ? "" : " (" + s.source + ")") + ", warp " + std::to_string(warp) +
               ", execution " + std::to_string(execution);
    const u32 index = static_cast<u32>(s.trace.instructions.size());
    fresh.next = head ? *head : UINT32_MAX;
    first_of[si].set(key, index);
    chain.push_back(fresh);
    s.trace.instructions.push_back(std::move(ti));
    Pattern pt;
    pt.warp = warp;
    pt.execution = execution;
    pt.count = 1;
    pt.placement = is.placement;
    pt.divergent = is.divergent;
    pt.cta_dependent = is.cta;
    pt.ldgsts_wavefronts = fresh.ldgsts;
    pt.global_line = is.global_line;
    pt.written = is.written;
    s.patterns.push_back(pt);
  };
  const i64 warps = ceil_div(run.threads, kWarpLanes);
  for (warp = 0; warp < warps; ++warp) r.run_warp(warp, on_issue);
  run.stopped = r.stopped();
  run.trapped = r.trapped();
  run.stopped_warps = r.stopped_warps();
  for (std::size_t i = 0; i < run.sites.size(); ++i) run.sites[i].after_stop = r.after_stop(i);
  run.warp_steps = r.steps();
  run.cta_control = r.cta_control();
  run.not_counted = r.not_counted();
  run.async_ops = r.async_ops();
  wgmma_counts(run);
  settle_generic_sites(run);
  std::stable_sort(run.not_counted.begin(), run.not_counted.end(), [](const NotCounted& a, const NotCounted& b) { return a.line < b.line; });
  run.not_modelled = m.not_modelled;
  run.symbols = m.symbols;
  run.conds = m.conds;
  for (Site& s : run.sites)  // the first data atom an issue of the site runs under names why
    for (std::size_t k = 0; k < s.symbolic.size() && s.data_why.empty(); ++k)
      for (const u32 w : s.symbolic[k].when)
        if (const u32 d = w ? data_atom_in(run.conds, w) : 0) {
          s.data_why = m.reasons[static_cast<u32>(run.conds[d].b.c0)];
          break;
        }
  run.every_cta = l.every_cta;
  run.every_grid = l.every_grid;
  run.reads_cta = m.reads_cta;
  if (!r.harmless_stop().empty())
    run.not_modelled.push_back("a lane finished early where no shared-memory instruction is reachable (" + r.harmless_stop() + ")");
  return run;
}

std::vector<u64> symbol_values(const std::vector<Symbol>& symbols, std::vector<u64> p) {
  using Op = Derived::Op;
  if (p.size() < symbols.size()) p.resize(symbols.size(), 0);
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    const Derived& d = symbols[i].def;
    if (symbols[i].kind != Symbol::Kind::derived) continue;
    const int n = d.in_w;
    const auto read = [&](const Term& t, int w) { return mask_bits(evaluate(t, p), std::min(t.w, w)); };
    const u64 a = read(d.a, n);
    const bool shift = d.op == Op::shl || d.op == Op::shr_u || d.op == Op::shr_s;
    const u64 b = shift ? read(d.b, 32) : read(d.b, n);
    const i64 sa = sign_extend(a, n), sb = sign_extend(b, n);
    using u128 = unsigned __int128;
    using i128 = __int128;
    u64 r = 0;
    switch (d.op) {
      case Op::add: r = a + b; break;
      case Op::sub: r = a - b; break;
      case Op::mul: r = a * b; break;
      case Op::mulhi_u: r = static_cast<u64>((static_cast<u128>(a) * static_cast<u128>(b)) >> n); break;
      case Op::mulhi_s: r = static_cast<u64>(static_cast<u128>(static_cast<i128>(sa) * static_cast<i128>(sb)) >> n); break;
      case Op::mulwide_u: r = a * b; break;
      case Op::mulwide_s: r = static_cast<u64>(sa * sb); break;
      case Op::div_u: r = b ? a / b : ~u64{0}; break;
      case Op::div_s: r = sb ? static_cast<u64>(sa / sb) : ~u64{0}; break;
      case Op::rem_u: r = b ? a % b : a; break;
      case Op::rem_s: r = sb ? static_cast<u64>(sa % sb) : a; break;
      case Op::min_u: r = std::min(a, b); break;
      case Op::min_s: r = static_cast<u64>(std::min(sa, sb)); break;
      case Op::max_u: r = std::max(a, b); break;
      case Op::max_s: r = static_cast<u64>(std::max(sa, sb)); break;
      case Op::and_: r = a & b; break;
      case Op::or_: r = a | b; break;
      case Op::xor_: r = a ^ b; break;
      case Op::shl: r = b >= static_cast<u64>(n) ? 0 : a << b; break;
      case Op::shr_u: r = b >= static_cast<u64>(n) ? 0 : a >> b; break;
      case Op::shr_s: r = static_cast<u64>(sa >> std::min<u64>(b, static_cast<u64>(n - 1))); break;
      default: break;
    }
    p[i] = mask_bits(r, d.w);
  }
  return p;
}

bool evaluate(const std::vector<Cond>& conds, u32 c, const std::vector<u64>& p) {
  if (c == 0) return true;
  const Cond& x = conds.at(c);
  switch (x.kind) {
    case Cond::Kind::cmp: return alu::compare(x.cmp, evaluate(x.a, p), evaluate(x.b, p), x.w, x.is_signed);
    case Cond::Kind::not_: return !evaluate(conds, x.x, p);
    case Cond::Kind::and_: return evaluate(conds, x.x, p) && evaluate(conds, x.y, p);
    case Cond::Kind::or_: return evaluate(conds, x.x, p) || evaluate(conds, x.y, p);
    case Cond::Kind::xor_: return evaluate(conds, x.x, p) != evaluate(conds, x.y, p);
    case Cond::Kind::data: return false;
  }
  return false;
}

u32 data_atom_in(const std::vector<Cond>& conds, u32 c) {
  // Iterative: a long loop's paths nest deeply.
  std::vector<u32> todo{c};
  std::unordered_set<u32> seen;
  while (!todo.empty()) {
    const u32 x = todo.back();
    todo.pop_back();
    if (x == 0 || x >= conds.size() || !seen.insert(x).second) continue;
    const Cond& k = conds[x];
    if (k.kind == Cond::Kind::data) return x;
    if (k.kind != Cond::Kind::cmp) todo.push_back(k.x), todo.push_back(k.y);
  }
  return 0;
}

Launch concrete_launch(const Launch& l) {
  Launch c = l;
  c.every_cta = c.every_grid = false;
  return c;
}

u64 evaluate(const Term& t, const std::vector<u64>& p) {
  u64 v = t.c0;
  for (std::size_t i = 0; i < p.size() && i < t.c.size(); ++i) v += t.c[i] * p[i];
  return mask_bits(v, t.w);
}

std::optional<std::array<i64, kWarpLanes>> replay_issue(const Program& p, std::size_t entry, const Launch& l, u32 function,
                                                        u32 pc, i64 warp, i64 execution, std::shared_ptr<const Written>* written) {
  check_launch(p, entry, l);
  Machine m(p, l);
  place_symbols(p, entry, l, m);
  WarpRunner r(p, entry, l, m);
  std::optional<std::array<i64, kWarpLanes>> out;
  bool bad = false;
  const u64 want = (static_cast<u64>(function) << 32) | pc;
  // Each lane's address as this warp alone computes it; the site is identified by its position.
  r.set_site_of([&](u32 fi, u32 ipc) { return static_cast<std::size_t>((static_cast<u64>(fi) << 32) | ipc) == want ? 1u : 0u; });
  r.run_warp(warp, [&](std::size_t is_target, i64 exec, const Issue& is) {
    if (!is_target || exec != execution) return;
    std::array<i64, kWarpLanes> a;
    a.fill(-1);
    for (int k = 0; k < kWarpLanes; ++k) {
      const std::size_t s = static_cast<std::size_t>(k);
      if (is.state[s] == LaneState::unknown) bad = true;
      if (is.state[s] == LaneState::active) a[s] = is.addr[s];
    }
    out = a;
    if (written) *written = is.written;
    r.finish_warp();  // the issue is all a replay compares: the warp's rest is not run
  });
  if (bad) return std::nullopt;
  return out;
}

}  // namespace layoutproof::compiled
