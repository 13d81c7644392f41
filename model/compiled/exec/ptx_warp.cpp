// One warp of the PTX executor (ptx_machine.hpp WarpRunner): its lanes in lock step, the issue
// each instruction makes, calls through param space, divergence and reconvergence at the
// immediate post-dominator (ptx_cfg.hpp).
#include <algorithm>
#include <numeric>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "model/compiled/ptx_cfg.hpp"
#include "model/compiled/exec/ptx_machine.hpp"
#include "model/compiled/exec/data_equality.hpp"
#include "model/compiled/exec/loop_summary.hpp"
#include "model/compiled/exec/symbolic_if.hpp"

namespace layoutproof::compiled {
namespace {

using OK = Operand::Kind;
constexpr std::size_t kMaxCallDepth = 64;

// Integer and bit arithmetic (ptx_alu.cpp): executed for a group's lanes at once.
bool is_alu(Op op) {
  switch (op) {
    case Op::bra: case Op::call: case Op::ret: case Op::exit: case Op::shfl: case Op::vote: case Op::activemask: case Op::elect:
    case Op::match: case Op::nop: case Op::ld: case Op::st: case Op::ldmatrix: case Op::stmatrix: case Op::cp_async: case Op::atom: case Op::red:
      return false;
    default: return true;
  }
}

}  // namespace

struct WarpRunner::Impl {
 public:
  Impl(const Program& p, std::size_t entry, const Launch& l, Machine& m)
      : p_(p), entry_(entry), l_(l), m_(m),
        loops_(p, m, LoopSummary::Hooks{[this](Lane& ln, const std::string& why) { stop(ln, why); },
                                        [this](u32 fi, u32 pc) { return shared_reachable(fi, pc); }}),
        ifs_(m, l, SymbolicIf::Hooks{[this](Lane& ln, const std::string& why) { stop(ln, why); }}) {}

  // Runs warp w; `on_issue(site, execution, issue)` for every site issue.
  void run_warp(i64 w, const WarpRunner::OnIssue& on_issue) {
    const i64 threads = l_.block[0] * l_.block[1] * l_.block[2];
    cg_groups_.clear();
    cg_open_ = 0;
    conditional_steps_ = 0;
    ifs_.reset();
    loops_.reset();
    RegFile file;
    std::vector<Lane> lanes;
    for (int k = 0; k < kWarpLanes; ++k) {
      const i64 t = w * kWarpLanes + k;
      if (t >= threads) break;
      Lane ln;
      ln.linear = t;
      ln.lane = k;
      ln.tid = {t % l_.block[0], (t / l_.block[0]) % l_.block[1], t / (l_.block[0] * l_.block[1])};
      const Function& f = p_.functions[entry_];
      ln.file = &file;
      file.open(0, f.registers, k, Val{0, uninit(), -1, false});
      ln.stack.push_back({static_cast<u32>(entry_), 0, 0, 0});
      ln.next_slot = f.param_slots;
      lanes.push_back(std::move(ln));
    }
    std::vector<i64> executions;  // site index (site_of) -> issues so far in this warp
    std::vector<int> group;
    // The open divergent regions, innermost last (the SIMT stack); the first holds every lane and
    // never closes.
    std::vector<Region> regions{{lanes.empty() ? 0u : static_cast<u32>((u64{1} << lanes.size()) - 1), 0, 0, kNoJoin, true}};
    bool all_runnable_in_group = true;
    bool same_group = false;  // no region open; the last issue held every unfinished lane and moved them all to the next instruction
    for (;;) {
      int low = same_group ? group.front() : -1;
      if (!same_group) {
        // Close the regions whose unfinished lanes all wait at the join; then the lanes of the
        // innermost region not at its join run, the lowest position first.
        while (regions.size() > 1 && all_joined(lanes, regions.back()))
          if (!next_side(lanes, regions.back())) regions.pop_back();
        const Region& top = regions.back();
        group.clear();
        all_runnable_in_group = true;
        for (int k = 0; k < static_cast<int>(lanes.size()); ++k) {
          const Lane& ln = lanes[static_cast<std::size_t>(k)];
          if (ln.stack.empty() || !((top.mask >> k) & 1) || at_join(ln, top)) continue;
          if (low < 0) {
            low = k;
            group.push_back(k);
            continue;
          }
          const int c = compare(ln, lanes[static_cast<std::size_t>(low)]);
          if (c < 0) {
            low = k;
            all_runnable_in_group = false;
            group.assign(1, k);
          } else if (c == 0) {
            group.push_back(k);
          } else {
            all_runnable_in_group = false;
          }
        }
      }
      if (low < 0) return;  // every lane finished
      if (++steps_ > l_.max_warp_steps) {
        stop_all(lanes, "the launch ran more than " + std::to_string(l_.max_warp_steps) +
                            " warp instructions (a loop whose bound is not known, or a long kernel)");
        return;
      }
      // A path a condition decides that runs on and on is most likely one no launch takes (the data
      // that would send a lane there is not known to be impossible: a loop bound the compiler
      // reads from a value the branch before it compared): its lanes stop, the others go on.
      if (on_data_path(lanes[static_cast<std::size_t>(low)].path) && ++conditional_steps_ > kMaxConditionalSteps) {
        const std::string why = "a path that the data decides ran more than " + std::to_string(kMaxConditionalSteps) +
                                " warp instructions in one warp (a loop the run cannot bound there: possibly a path the data never takes)";
        for (const int k : group) {
          Lane& ln = lanes[static_cast<std::size_t>(k)];
          if (const u32 d = innermost_data_atom(ln.path)) blown_.insert(m_.conds[d].a.c[0]);
          stop(ln, why);
        }
        conditional_steps_ = 0;
        same_group = false;
        continue;
      }
      if ((steps_ & 0xfff) == 0 && l_.deadline && std::chrono::steady_clock::now() >= *l_.deadline) {
        stop_all(lanes, "the deadline was reached while running the kernel");
        return;
      }
      const Lane& first = lanes[static_cast<std::size_t>(low)];
      const Frame fr = first.stack.back();
      const Frame caller = first.stack.size() > 1 ? first.stack[first.stack.size() - 2] : Frame{};
      const u32 depth = static_cast<u32>(first.stack.size());
      const Function& f = p_.functions[fr.function];
      const u32 pc = fr.pc;
      if (loops_.tracking() && loops_.moved(lanes, group, fr.function, pc, depth)) {  // it stopped lanes: choose again
        same_group = false;
        continue;
      }
      if (pc >= f.code.size()) {  // fell off the end of the body: as `ret`
        for (const int k : group) do_return(lanes[static_cast<std::size_t>(k)]);
        same_group = false;
        continue;
      }
      const Instr& in = f.code[pc];
      const bool unmodelled = std::any_of(regions.begin(), regions.end(), [](const Region& r) { return !r.separate; });
      step(lanes, group, unmodelled, f, fr.function, pc, in, executions, on_issue);
      if (split_) regions.push_back(*split_), split_.reset();
      if (ifs_.open())
        for (const int k : group) {
          Lane& ln = lanes[static_cast<std::size_t>(k)];
          if (ln.stack.empty()) ifs_.finished(ln);
          else if (!ln.pending.empty()) ifs_.at_join(ln);
        }
      if (finish_) {  // on_issue has what it ran the warp for
        finish_ = false;
        return;
      }
      // Only bra, call, ret and exit move lanes elsewhere than the next instruction (or stop them).
      const Op op = in.code.op;
      const bool control = op == Op::bra || op == Op::call || op == Op::ret || op == Op::exit;
      if (control) diverge(lanes, group, regions, fr.function, pc, depth, caller);
      same_group = regions.size() == 1 && all_runnable_in_group && !control;
    }
  }

  i64 steps() const { return steps_; }
  bool cta_control() const { return cta_control_; }
  const std::string& stopped() const { return stopped_; }
  const std::string& trapped() const { return trapped_; }
  const std::string& harmless_stop() const { return harmless_; }
  const std::vector<i64>& stopped_warps() const { return stopped_warps_; }
  bool after_stop(std::size_t site) const { return all_after_stop_ || (site < after_stop_.size() && after_stop_[site]); }
  const std::vector<NotCounted>& not_counted() const { return listing_.list(); }
  const std::vector<AsyncOp>& async_ops() const { return listing_.async_ops(); }
  std::function<std::size_t(u32, u32)> site_of;  // (function, pc) -> site index
  bool finish_ = false;  // finish_warp(): end the warp after the current instruction

 private:
  u32 uninit() { return uninit_ ? uninit_ : (uninit_ = m_.reason("a register read before it is written")); }

  // A divergent region (ptx_cfg.hpp): the lanes that were in the issue whose lanes went to
  // different places, and where they meet again: instruction `join` of function `function` at
  // frame depth `depth` (a join past the function's end: the caller's next instruction, one frame
  // up; kNoJoin: nowhere, the lanes finish). `separate`: its paths never share an instruction
  // before the join, so each path's issues hold exactly its lanes (else they are divergent).
  static constexpr u32 kNoJoin = UINT32_MAX;
  // `phase`: a two-sided split of lanes on a condition over the symbols (symbolic_if.hpp), 1
  // while its taken side runs, 2 the other; 0 for any other region.
  struct Region {
    u32 mask = 0;
    u32 depth = 0, function = 0, join = kNoJoin;
    bool separate = true;
    int phase = 0;
  };
  static bool at_join(const Lane& ln, const Region& r) {
    return r.join != kNoJoin && ln.stack.size() == r.depth && ln.stack.back().function == r.function && ln.stack.back().pc == r.join;
  }
  static bool all_joined(const std::vector<Lane>& lanes, const Region& r) {
    for (int k = 0; k < static_cast<int>(lanes.size()); ++k) {
      const Lane& ln = lanes[static_cast<std::size_t>(k)];
      if (((r.mask >> k) & 1) && !ln.stack.empty() && !at_join(ln, r)) return false;
    }
    return true;
  }

  // After a control instruction executed by `group` (all at instruction pc of function fi, frame
  // depth `depth`, called from `caller`): if its lanes went to different places, they meet at the
  // instruction's immediate post-dominator. A region with that same join already innermost
  // absorbs the split (a loop's exit taken in several iterations); else a region opens.
  void diverge(const std::vector<Lane>& lanes, const std::vector<int>& group, std::vector<Region>& regions, u32 fi, u32 pc,
               u32 depth, const Frame& caller) {
    int one = -1;
    u32 mask = 0;
    bool split = false;
    for (const int k : group) {
      const Lane& ln = lanes[static_cast<std::size_t>(k)];
      if (ln.stack.empty()) continue;
      mask |= u32{1} << k;
      if (one < 0) one = k;
      else split = split || compare(ln, lanes[static_cast<std::size_t>(one)]) != 0;
    }
    if (!split) return;
    const Function& f = p_.functions[fi];
    const Cfg& g = cfg_of(fi);
    Region r;
    r.mask = mask;
    const u32 ipdom = g.ipdom[pc];
    if (ipdom == Cfg::kNone) {
      r.separate = false;  // no path to the function's end: no join (the lanes finish)
    } else {
      r.separate = separate(f, fi, pc);
      if (ipdom != g.exit) r.depth = depth, r.function = fi, r.join = ipdom;
      else if (depth > 1) r.depth = depth - 1, r.function = caller.function, r.join = caller.pc + 1;  // where the call returns
    }
    Region& top = regions.back();
    if (r.join != kNoJoin && top.join == r.join && top.depth == r.depth && top.function == r.function) {
      top.separate = top.separate && r.separate;
      return;
    }
    regions.push_back(r);
  }

  // Lexicographic over the frames' pcs (a lane inside a call sits at its call instruction).
  static int compare(const Lane& a, const Lane& b) {
    const std::size_t n = std::min(a.stack.size(), b.stack.size());
    for (std::size_t i = 0; i < n; ++i)
      if (a.stack[i].pc != b.stack[i].pc) return a.stack[i].pc < b.stack[i].pc ? -1 : 1;
    return a.stack.size() < b.stack.size() ? -1 : a.stack.size() > b.stack.size() ? 1 : 0;
  }

  // True when some instruction that may touch shared memory (may_touch_shared: a site, a listed
  // opcode, a generic access, a call) or an indirect branch is reachable from instruction `pc` of
  // function `fi` along its control flow: fall-through and every branch target, loops included.
  // Walks the code of f that control can reach from `from`: branch targets, the next instruction
  // past a guarded branch, ret or exit, a SASS subroutine's code and past its call. visit(k) sees
  // each instruction once and returns false to end the walk. False when it ended so, or where
  // control may go anywhere (an indirect branch, a call to another function). A call for which
  // returns(k) holds (printf) comes back with nothing to see: the walk goes past it unvisited.
  template <class Visit, class Returns>
  static bool walk_code(const Function& f, std::vector<u32> todo, Visit&& visit, Returns&& returns) {
    std::vector<char> seen(f.code.size(), 0);
    while (!todo.empty()) {
      const u32 k = todo.back();
      todo.pop_back();
      if (k >= f.code.size() || seen[k]) continue;
      seen[k] = 1;
      const Instr& in = f.code[k];
      const Op o = in.code.op;
      const bool to_label = in.count > 0 && f.operands[in.first].kind == Operand::Kind::label;
      if (o == Op::call && !to_label && returns(k)) {
        todo.push_back(k + 1);
        continue;
      }
      if (!visit(k)) return false;
      if ((o == Op::call || o == Op::bra) && !to_label) return false;
      if (o == Op::call || o == Op::bra) {
        todo.push_back(f.operands[in.first].index);
        if (o == Op::call || in.guard >= 0) todo.push_back(k + 1);
        continue;
      }
      if ((o == Op::ret || o == Op::exit) && in.guard < 0) continue;
      todo.push_back(k + 1);
    }
    return true;
  }

  // A function without a body that only prints (vprintf: printf's device side).
  static bool prints_only(const Function& callee) { return !callee.decoded && callee.name == "vprintf"; }
  bool calls_printf(const Function& f, const Instr& in) const {
    return in.code.op == Op::call && in.count > 0 && arg(f, in, 0).kind == OK::func && prints_only(p_.functions[arg(f, in, 0).index]);
  }

  bool shared_reachable(u32 fi, u32 pc) {
    const u64 key = (static_cast<u64>(fi) << 32) | pc;
    if (const auto it = reach_.find(key); it != reach_.end()) return it->second;
    const Function& f = p_.functions[fi];
    const bool found = !walk_code(f, {pc}, [&](u32 k) { return !may_touch_shared(f.code[k], m_.mnemonic(f.code[k])); },
                                  [&](u32 k) { return calls_printf(f, f.code[k]); });
    reach_[key] = found;
    return found;
  }

  // On the side of data branch pc where its guard holds (`holds`) or not: where the guard is an
  // equality test that side says holds (exec/data_equality.hpp), the data register takes the
  // other's value.
  void learn(Lane& ln, const Function& f, u32 fi, u32 pc, const Instr& in, bool holds) {
    auto t = targets_.find(fi);
    if (t == targets_.end()) t = targets_.emplace(fi, branch_targets(f)).first;
    const auto e = equality_test(f, t->second, pc);
    if (!e) return;
    const bool g = holds != in.guard_neg;  // the guard register's value on this side
    bool equal = g && e->when;
    if (!g && !e->when) {  // not (x != y && c): x == y where c is true
      const Val cv = e->combine.kind == OK::none ? Val{1, 0, -1, false} : read_operand(m_, ln, f, e->combine, in);
      equal = cv.known() && cv.v != 0;
    }
    const int bits = f.code[e->setp].code.type.bits;
    if (!equal || (bits != 32 && bits != 64)) return;
    const auto data_only = [](const Val& v) { return !v.known() && !v.sym && !cond_of(v); };
    const Val x = read_operand(m_, ln, f, e->x, in), y = read_operand(m_, ln, f, e->y, in);
    const auto take = [&](const Operand& r, Val v) {
      truncate(v, bits);
      reg(ln, r.index) = v;
    };
    if (data_only(x) && (y.known() || y.sym)) take(e->x, y);
    else if (e->y.kind == OK::reg && data_only(y) && (x.known() || x.sym)) take(e->y, x);
  }

  const Cfg& cfg_of(u32 fi) {
    auto it = cfgs_.find(fi);
    if (it == cfgs_.end()) it = cfgs_.emplace(fi, build_cfg(p_.functions[fi])).first;
    return it->second;
  }

  // separate_paths of branch pc of function fi, asked once per branch.
  bool separate(const Function& f, u32 fi, u32 pc) {
    const u64 key = (static_cast<u64>(fi) << 32) | pc;
    if (const auto it = separate_.find(key); it != separate_.end()) return it->second;
    return separate_.emplace(key, separate_paths(f, cfg_of(fi), pc)).first->second;
  }

  // Instruction k goes straight to `join`: it is the join, or an unguarded branch to it.
  static bool straight_to(const Function& f, u32 k, u32 join) {
    if (k == join) return true;
    if (k >= f.code.size()) return false;
    const Instr& x = f.code[k];
    return x.code.op == Op::bra && x.guard < 0 && x.count > 0 && arg(f, x, 0).kind == OK::label && arg(f, x, 0).index == join;
  }

  // A branch, ret or exit whose guard is the condition c over the symbols (taken where c holds):
  // the lane follows the side where the other side is nothing the claims are about, under that
  // side's condition (Lane::path):
  //   - exit, ret of the kernel, or a branch to code that reaches no shared-memory instruction:
  //     the lane goes on past it where c does not hold (`if (i >= n) return;`);
  //   - a branch whose next instruction reaches none: the lane jumps where c holds;
  //   - a forward branch one of whose sides goes straight to the branch's join (an if without
  //     else, separate paths): the lane runs the other side where its condition holds, and at
  //     the join its registers are merged with those it had at the branch (Pending).
  // Anything else (both sides reach shared memory, a call) stops it.
  // Whether a guard the run does not know may become a data atom here: a branch to a label, an
  // exit or a return, whose sides the splits follow (a call stops the lane, as before).
  static bool data_decides(const Function& f, const Instr& in) {
    const Op op = in.code.op;
    return op == Op::exit || op == Op::ret || (op == Op::bra && in.count > 0 && arg(f, in, 0).kind == OK::label);
  }

  void branch_on_cond(Lane& ln, const Function& f, u32 fi, u32 pc, const Instr& in, u32 c) {
    const Op op = in.code.op;
    const std::string at = "line " + std::to_string(in.line);
    const u32 stay = m_.cond_not(c);
    const bool data = c < m_.conds.size() && m_.conds[c].kind == Cond::Kind::data;
    const auto go = [&](u32 cond, u32 to) {
      const u32 path = m_.cond_and(ln.path, cond);
      if (path == Machine::kNoCond) return stop(ln, at + ": more conditions over the symbols than the run keeps");
      ln.path = path;
      ln.stack.back().pc = to;
      if (data) learn(ln, f, fi, pc, in, cond == c);
    };
    if (ln.stack.size() != 1)
      return stop(ln, at + ": a branch on a condition over the symbols (%ctaid, a free parameter, data) inside a called function: its paths are not split");
    if (op == Op::exit || op == Op::ret) return go(stay, pc + 1);
    const Operand& t = arg(f, in, 0);
    if (in.count == 0 || t.kind != OK::label) return stop(ln, at + ": a branch the model cannot follow");
    const u32 target = t.index;  // forward: a back edge in the kernel's frame is the loop summary's (exec/loop_summary.hpp)
    if (!shared_reachable(fi, target)) return go(stay, pc + 1);
    if (!shared_reachable(fi, pc + 1)) return go(c, target);
    const u32 join = cfg_of(fi).ipdom[pc];
    const bool region_taken = straight_to(f, pc + 1, join), region_next = !region_taken && straight_to(f, target, join);
    if (join != Cfg::kNone && join < f.code.size() && separate(f, fi, pc) && (region_taken || region_next)) {
      if (!ifs_.one_sided(ln, fi, join, in.line)) return;
      return region_taken ? go(c, target) : go(stay, pc + 1);
    }
    if (const u32 d = data_atom_in(m_.conds, c))  // the data's own reason: no value to give
      return stop(ln, m_.reasons[static_cast<u32>(m_.conds[d].b.c0)] + " (its sides meet other than at one join after it)");
    stop(ln, at + ": a branch on a condition over the symbols (%ctaid, a free parameter, data) where both sides reach shared memory and "
                  "meet other than at one join after the branch (a goto into shared code, a side that leaves a loop, a call): its "
                  "paths are not split (give the values: --cta, --grid, --param)");
  }

  // A forward branch b of the kernel's frame whose sides both reach shared memory and then meet
  // at its join R = ipdom(b) > b: neither side comes back to b before R nor calls, and the paths
  // are separate (an if/else) unless the condition is the same for every lane (`uniform`: the
  // warp goes one way whole in every launch, so code both sides reach, as ptxas's entry into the
  // middle of an unrolled loop, runs once per side). A side may lie past R (ptxas moves a cold
  // side to the function's end, with a branch back to R). R, or Cfg::kNone.
  u32 if_else_join(const Function& f, u32 fi, u32 pc, u32 target, bool uniform) {
    const u64 key = (static_cast<u64>(fi) << 32) | (static_cast<u64>(pc) << 1) | (uniform ? 1 : 0);
    if (const auto it = if_else_.find(key); it != if_else_.end()) return it->second;
    u32 join = cfg_of(fi).ipdom[pc];
    if (join == Cfg::kNone || join >= f.code.size() || join <= pc || target <= pc || !(uniform || separate(f, fi, pc)) ||
        straight_to(f, pc + 1, join) || straight_to(f, target, join))
      join = Cfg::kNone;
    else {
      std::vector<char> seen(f.code.size(), 0);
      std::vector<u32> todo{pc + 1, target};
      while (!todo.empty() && join != Cfg::kNone) {
        const u32 k = todo.back();
        todo.pop_back();
        if (k == join || (k < f.code.size() && seen[k])) continue;
        if (k == pc || k >= f.code.size() || f.code[k].code.op == Op::call) {
          join = Cfg::kNone;
          break;
        }
        seen[k] = 1;
        for (const u32 w : successors(f, k)) todo.push_back(w);
      }
    }
    if_else_.emplace(key, join);
    return join;
  }

  // The group's forward branch at pc, guarded by a condition over the symbols for some lane, as
  // an if/else both of whose sides reach shared memory (if_else_join): each lane enters the split
  // (symbolic_if.hpp) and the region it opens (split_) runs the sides one after the other. False
  // when the branch is no such if/else (branch_on_cond then takes each lane).
  bool split_if_else(std::vector<Lane>& lanes, const std::vector<int>& group, const Function& f, u32 fi, u32 pc, const Instr& in,
                     const std::array<bool, kWarpLanes>& active, const std::array<u32, kWarpLanes>& guard_unknown,
                     const std::array<bool, kWarpLanes>& guard_cta, const std::array<u32, kWarpLanes>& guard_cond) {
    if (in.code.op != Op::bra || in.guard < 0 || in.count == 0 || arg(f, in, 0).kind != OK::label) return false;
    if (lanes[static_cast<std::size_t>(group.front())].stack.size() != 1) return false;
    const u32 target = arg(f, in, 0).index;
    if (target <= pc || !shared_reachable(fi, target) || !shared_reachable(fi, pc + 1)) return false;
    if (std::none_of(group.begin(), group.end(), [&](int k) { return guard_cond[static_cast<std::size_t>(k)] != 0; })) return false;
    const u32 c0 = guard_cond[static_cast<std::size_t>(group.front())];
    const bool uniform = std::all_of(group.begin(), group.end(), [&](int k) { return guard_cond[static_cast<std::size_t>(k)] == c0; });
    const u32 join = if_else_join(f, fi, pc, target, uniform);
    if (join == Cfg::kNone) return false;
    Region r;
    r.depth = 1, r.function = fi, r.join = join, r.phase = 1;
    for (const int k : group) {
      Lane& ln = lanes[static_cast<std::size_t>(k)];
      const std::size_t s = static_cast<std::size_t>(k);
      if (guard_unknown[s] && !guard_cond[s]) {
        stop(ln, m_.reasons[guard_unknown[s]] + " decides a branch at line " + std::to_string(in.line));
        continue;
      }
      const int decided = guard_cond[s] ? -1 : active[s] ? 1 : 0;
      if (decided >= 0 && guard_cta[s]) ln.cta_path = cta_control_ = true;
      if (ifs_.two_sided(ln, fi, join, in.line, decided, guard_cond[s], target, pc + 1)) r.mask |= u32{1} << k;
    }
    if (r.mask) split_ = r;
    return true;
  }

  // Every lane of region r is at its join. A two-sided split after its taken side: its lanes run
  // the other side (true: the region stays open); after both: they merge. False: it closes.
  bool next_side(std::vector<Lane>& lanes, Region& r) {
    if (r.phase == 0) return false;
    for (int k = 0; k < static_cast<int>(lanes.size()); ++k) {
      Lane& ln = lanes[static_cast<std::size_t>(k)];
      if (!((r.mask >> k) & 1) || ln.stack.empty()) continue;
      if (ln.pending.empty() || !ln.pending.back().two_sided || ln.pending.back().join != r.join) {
        stop(ln, "an if/else on a condition over the symbols whose sides the lane left unbalanced (not modelled)");
        continue;
      }
      if (r.phase == 1) {
        ifs_.next_side(ln);
      } else {
        ifs_.close(ln);
        ifs_.at_join(ln);  // an if without else closing at the same join
      }
    }
    return r.phase++ == 1;
  }

  void stop(Lane& ln, const std::string& why) {
    // A kernel-level lane whose stop point reaches no shared-memory instruction misses nothing the
    // counts and claims are about: it finishes (the reason is kept as a note).
    if (ln.stack.size() == 1 && !shared_reachable(ln.stack.back().function, ln.stack.back().pc) && SymbolicIf::sides_to_come(ln).empty()) {
      if (harmless_.empty()) harmless_ = why;
      ln.stack.clear();
      return;
    }
    if (stopped_.empty()) stopped_ = why;
    mark_reachable_sites(ln);
    const i64 w = ln.linear / kWarpLanes;
    if (stopped_warps_.empty() || stopped_warps_.back() != w) stopped_warps_.push_back(w);
    ln.stack.clear();
    ln.stopped = true;
  }
  // The sites a stopped lane could still have reached from where it stopped (after_stop): those of
  // the kernel's function from its pc on (and past each SASS subroutine call it is in, whose code
  // is the function's own); every site where a call to another function, an indirect branch or a
  // .func frame leads anywhere.
  void mark_reachable_sites(const Lane& ln) {
    if (all_after_stop_) return;
    const u32 fi = ln.stack.front().function;
    std::vector<u32> todo = SymbolicIf::sides_to_come(ln);  // the other side of each if/else it is inside
    todo.push_back(ln.stack.back().pc);
    for (std::size_t k = 1; k < ln.stack.size(); ++k) {
      if (!ln.stack[k].subroutine || ln.stack[k].function != fi) {
        all_after_stop_ = true;
        return;
      }
      todo.push_back(ln.stack[k - 1].pc + 1);  // where the subroutine returns to
    }
    const Function& f = p_.functions[fi];
    const bool bounded = walk_code(f, std::move(todo), [&](u32 k) {
      if (is_site(f.code[k])) {
        const std::size_t s = site_of(fi, k);
        if (s >= after_stop_.size()) after_stop_.resize(s + 1, 0);
        after_stop_[s] = 1;
      }
      return true;
    }, [&](u32 k) { return calls_printf(f, f.code[k]); });
    if (!bounded) all_after_stop_ = true;
  }
  void stop_all(std::vector<Lane>& lanes, const std::string& why) {
    for (Lane& ln : lanes)
      if (!ln.stack.empty()) stop(ln, why);
  }

  // Whether the lane's current frame sees the kernel's parameters: the kernel's own frame, or SASS
  // subroutines called from it.
  static bool in_kernel_scope(const Lane& ln) {
    for (std::size_t k = 1; k < ln.stack.size(); ++k)
      if (!ln.stack[k].subroutine) return false;
    return !ln.stack.empty();
  }

  void do_return(Lane& ln) {
    const Frame done = ln.stack.back();
    ln.stack.pop_back();
    if (ln.stack.empty()) return;
    if (done.subroutine) {
      ++ln.stack.back().pc;
      return;
    }
    Frame& caller = ln.stack.back();
    const Function& cf = p_.functions[caller.function];
    const Function& callee = p_.functions[done.function];
    const Instr& call = cf.code[caller.pc];
    // Return values: the callee's return slots -> the caller's param variables.
    std::vector<Cell> keep;
    for (const Cell& c : ln.cells) {
      if (c.slot < done.param_base) {
        keep.push_back(c);
        continue;
      }
      const u32 local = c.slot - done.param_base;
      if (local >= callee.params.size() && local - callee.params.size() < call.ret_count) {
        const Operand& r = arg(cf, call, 1 + (local - static_cast<u32>(callee.params.size())));
        if (r.kind == OK::param) keep.push_back({caller.param_base + r.index, c.offset, c.value});
      }
    }
    ln.cells = std::move(keep);
    ln.next_slot = done.param_base;
    ++caller.pc;
  }

  void do_call(Lane& ln, const Function& f, const Instr& in) {
    const Operand& target = arg(f, in, 0);
    if (target.kind == OK::label) {  // a SASS subroutine of this function (sass_lower.cpp lower_call)
      if (ln.stack.size() >= kMaxCallDepth)
        return stop(ln, "calls nested deeper than " + std::to_string(kMaxCallDepth) + " at line " + std::to_string(in.line) +
                            ": the call there is not followed");
      Frame next = ln.stack.back();
      next.pc = target.index;
      next.subroutine = true;
      ln.stack.push_back(next);
      return;
    }
    const auto outputs_unknown = [&](const std::string& why) {
      const u32 r = m_.reason_at(in, why);
      Frame& fr = ln.stack.back();
      for (u32 k = 0; k < in.ret_count; ++k) {
        const Operand& o = arg(f, in, 1 + k);
        if (o.kind == OK::param) {
          std::erase_if(ln.cells, [&](const Cell& c) { return c.slot == fr.param_base + o.index; });
          Val v;
          v.why = r;
          ln.cells.push_back({fr.param_base + o.index, -1, v});  // offset -1: every offset
        }
      }
      ++fr.pc;
    };
    // Code the model does not see may touch shared memory: listed (its accesses are not counted),
    // and the caller runs on with the call's results not known.
    if (target.kind != OK::func) {
      listing_.add(ln.stack.back().function, ln.stack.back().pc, in, "an indirect call (what its callee accesses is not seen)", true);
      return outputs_unknown("an indirect call (not modelled)");
    }
    const Function& callee = p_.functions[target.index];
    // printf: CUDA's vprintf formats into the printf buffer in global memory and touches no shared
    // byte (CUDA C++ Programming Guide, "Formatted Output"): the caller runs on, its result not known.
    if (!callee.decoded && prints_only(callee)) return outputs_unknown("printf's result (the characters it wrote: not modelled)");
    if (!callee.decoded) {
      listing_.add(ln.stack.back().function, ln.stack.back().pc, in,
                   "a call to " + callee.name + ", which has no body in this file (what it accesses is not seen)", true);
      return outputs_unknown("a call to " + callee.name + ", which has no body in this file");
    }
    // Deeper calls are cut: the lane stops, so what it would have done is missing (UNKNOWN), never
    // run on past a call that did not happen (an endless recursion never returns).
    if (ln.stack.size() >= kMaxCallDepth)
      return stop(ln, "calls nested deeper than " + std::to_string(kMaxCallDepth) + " at line " + std::to_string(in.line) +
                          ": the call there is not followed");
    Frame next;
    next.function = target.index;
    next.pc = 0;
    // Below 2^28: at most 2^22 registers per function (ptx_parse.hpp) and kMaxCallDepth frames.
    next.reg_base = ln.stack.back().reg_base + p_.functions[ln.stack.back().function].registers;
    next.param_base = ln.next_slot;
    const Frame& fr = ln.stack.back();
    // Arguments: the caller's param variables -> the callee's parameter slots 0, 1, ...
    const u32 args = in.count - 1 - in.ret_count;
    std::vector<Cell> add;
    for (u32 k = 0; k < args && k < callee.params.size(); ++k) {
      const Operand& a = arg(f, in, 1 + in.ret_count + k);
      if (a.kind != OK::param) continue;
      for (const Cell& c : ln.cells)
        if (c.slot == fr.param_base + a.index) add.push_back({next.param_base + k, c.offset, c.value});
    }
    ln.cells.insert(ln.cells.end(), add.begin(), add.end());
    ln.next_slot = next.param_base + callee.param_slots;
    ln.file->open(next.reg_base, callee.registers, ln.lane, Val{0, uninit(), -1, false});
    ln.stack.push_back(next);
  }

  // ld.param: a kernel parameter (the launch's value), or a cell written by st.param / a call.
  // A register holding a kernel parameter's address (its param window value, ptx_ir.hpp
  // kParamWindow: CUTLASS reads its Params struct's fields through one) reads that parameter.
  Val load_param(Lane& ln, const Function& f, const Instr& in, const Operand& a, int bits) {
    const Operand& base = f.operands[a.index];
    const Frame& fr = ln.stack.back();
    Val v;
    u32 index = base.index;
    i64 imm = a.imm;
    if (base.kind != OK::param) {
      const Val r = base.kind == OK::reg ? read_operand(m_, ln, f, base, in) : Val{0, 1, -1, false};
      if (!r.known() || r.v < kParamWindow || r.v >= kParamWindow + (u64{1} << 40) || !in_kernel_scope(ln)) {
        v.why = m_.reason_at(in, "ld.param from an address that is not a parameter (not modelled)");
        return v;
      }
      index = static_cast<u32>((r.v - kParamWindow) >> 20);
      imm = static_cast<i64>((r.v - kParamWindow) & 0xfffff) + a.imm;
    } else {
      const u32 slot = fr.param_base + base.index;
      for (auto c = ln.cells.rbegin(); c != ln.cells.rend(); ++c)
        if (c->slot == slot && (c->offset == a.imm || c->offset == -1)) {
          v = c->value;
          truncate(v, bits);
          return v;
        }
    }
    if (in_kernel_scope(ln) && index < f.params.size()) {  // a kernel parameter
      const i64 want = (bits + 7) / 8;
      for (auto it = l_.fields.rbegin(); it != l_.fields.rend(); ++it)  // the last --param for these bytes wins
        if (it->param == index && imm >= it->offset && imm + want <= it->offset + it->bytes) {
          const i64 shift = 8 * (imm - it->offset);
          v.v = mask_bits(shift >= 64 ? 0 : it->value >> shift, bits);
          return v;
        }
      const ParamDecl& d = f.params[index];
      const std::string who = "parameter " + std::to_string(index) + " (" + d.name + ")";
      if (index >= l_.params.size() || !l_.params[index]) {
        // Free: a symbol (ptx_exec.hpp Term), for a scalar read whole or in part from byte 0, or
        // for bytes of SASS's parameter buffer.
        const bool sass = p_.format == CompiledFormat::sass;
        if (sass || (imm == 0 && d.bytes <= 8 && want <= d.bytes))
          return symbol(index, imm, bits, sass ? "bytes " + std::to_string(imm) + ".." + std::to_string(imm + want - 1) +
                                                            " of the parameter buffer"
                                                      : who, who + " is not fixed by --param");
        v.why = m_.reason(who + " is not fixed by --param");
        return v;
      }
      if (imm != 0 || d.bytes > 8) {
        v.why = m_.reason("byte " + std::to_string(imm) + " of " + who + ", an aggregate (not modelled: --param fixes scalars)");
        return v;
      }
      v.v = mask_bits(*l_.params[index], bits);
      return v;
    }
    v.why = m_.reason_at(in, "a parameter value that was never stored");
    return v;
  }

  // The symbol of `bits` bits at byte `offset` of parameter `param`: the term P_i. Unknown when
  // kMaxSymbols are in use, or its bytes overlap another symbol's without being the same (two
  // symbols must be independent values for the claims' domain to be the parameters' one).
  Val symbol(std::size_t param, i64 offset, int bits, const std::string& name, const std::string& why_text) {
    Val v;
    v.why = m_.reason(why_text);
    const i64 bytes = (bits + 7) / 8;
    std::size_t i = 0;
    for (; i < m_.symbols.size(); ++i) {
      const Symbol& s = m_.symbols[i];
      if (s.kind != Symbol::Kind::param || s.param != param || offset + bytes <= s.offset || s.offset + (s.bits + 7) / 8 <= offset) continue;
      if (s.offset == offset && s.bits == bits) break;
      v.why = m_.reason(why_text + " (read at two widths: not one symbol)");
      return v;
    }
    if (i == m_.symbols.size()) {
      if (i >= static_cast<std::size_t>(kMaxSymbols)) {
        v.why = m_.reason(why_text + " (more than " + std::to_string(kMaxSymbols) + " free parameters: not a symbol)");
        return v;
      }
      Symbol sym;
      sym.param = param, sym.offset = offset, sym.bits = bits, sym.name = name;
      m_.symbols.push_back(sym);
    }
    Term t;
    t.c[i] = 1;
    return m_.symbolic(t, bits, v.why, -1, false);
  }

  // Local memory (Lane::local): a load at a known address gets what this lane last stored there
  // with the same width; anything else (never stored, a partial or wider read, a store to an
  // unknown address before it) is not known, with why.
  Val load_local(Lane& ln, const Instr& in, const Val& at, i64 part, int bits) {
    if (!at.known()) return Val{0, at.why ? at.why : m_.reason_at(in, "a local-memory address not known"), -1, at.cta};
    if (ln.local_lost) return Val{0, ln.local_lost, -1, false};
    const u64 addr = at.v + static_cast<u64>(part);
    for (auto c = ln.local.rbegin(); c != ln.local.rend(); ++c) {
      if (c->addr == addr && c->bytes * 8 == bits) {
        Val v = c->value;
        v.placement = -1;
        return v;
      }
      if (c->addr < addr + static_cast<u64>(bits / 8) && addr < c->addr + static_cast<u64>(c->bytes)) break;  // overlaps differently
    }
    return Val{0, m_.reason_at(in, "a value loaded from local memory that this thread did not store there with that width"), -1, false};
  }
  void store_local(Lane& ln, const Instr& in, const Val& at, i64 part, const Val& value, int bits) {
    if (!at.known()) {
      ln.local.clear();
      ln.local_lost = m_.reason_at(in, "a store to a local-memory address not known (any local value may have changed)");
      return;
    }
    const u64 addr = at.v + static_cast<u64>(part), bytes = static_cast<u64>(bits / 8);
    std::erase_if(ln.local, [&](const LocalCell& c) { return c.addr < addr + bytes && addr < c.addr + static_cast<u64>(c.bytes); });
    Val v = value;
    truncate(v, bits);
    if (ln.local.size() < 4096) ln.local.push_back({addr, bits / 8, v});  // a bound: a lane's stack frame, not its heap
    else ln.local_lost = m_.reason_at(in, "more local-memory values than the model keeps");
  }

  void store_param(Lane& ln, const Function& f, const Instr& in, const Operand& a, const Val& value, int bits) {
    const Operand& base = f.operands[a.index];
    if (base.kind != OK::param) return;
    const u32 slot = ln.stack.back().param_base + base.index;
    std::erase_if(ln.cells, [&](const Cell& c) { return c.slot == slot && (c.offset == a.imm || c.offset == -1); });
    Val v = value;
    truncate(v, bits);
    ln.cells.push_back({slot, a.imm, v});
    (void)in;
  }

  // The byte address of a site's shared-memory operand for one lane.
  // cp.async's global side: each active lane's global byte address, from its second address
  // operand (64-bit); false when some active lane's global address is not known.
  // A global address computed from a free pointer parameter (the usual case: the kernel's A + i)
  // is the same term X for every lane plus the lane's own constant c_l. The count depends on the
  // global side only through the L1 banks (address mod 128) and through whether global minus
  // shared is one constant mod 128 (model/bank/bank.hpp count_ldgsts_measured): the first is the
  // same for every X up to a rotation of whole banks (X keeps each lane aligned to its width,
  // which cp.async requires), the second does not depend on X. So such lanes are counted at the
  // smallest X that aligns lane addresses, c_l + X0; lanes whose terms differ beyond c_l, or mix
  // with known ones, are not known.
  bool global_lines(std::vector<Lane>& lanes, const Function& f, const Instr& in, Issue& is) {
    is.global_line.fill(-1);
    const Operand* g = nullptr;
    for (u32 k = 0, seen = 0; k < in.count; ++k)
      if (arg(f, in, k).kind == OK::addr && seen++ == 1) g = &arg(f, in, k);
    if (!g) return false;
    const Operand& base = f.operands[g->index];
    if (base.kind == OK::none) return false;
    std::optional<Term> common;  // the lanes' term without its constant
    bool any_known = false;
    for (std::size_t s = 0; s < lanes.size() && s < kWarpLanes; ++s) {
      if (is.state[s] != LaneState::active) continue;
      const Val v = read_operand(m_, lanes[s], f, base, in);
      if (v.known()) {
        any_known = true;
        is.global_line[s] = static_cast<i64>(v.v + static_cast<u64>(g->imm));
        continue;
      }
      if (!v.sym || v.symw < 32) return false;
      Term t = m_.terms[v.sym];
      const u64 c = t.c0 + static_cast<u64>(g->imm);
      t.c0 = 0;
      t.w = v.symw;
      if (common && !(*common == t)) return false;
      common = t;
      is.global_line[s] = static_cast<i64>(c & 0xffffffffu);  // only c mod 128 and its 128-byte line matter
    }
    if (!common) return true;
    if (any_known) return false;
    i64 first = -1;
    for (const i64 x : is.global_line)
      if (x >= 0) { first = x; break; }
    const i64 x0 = (16 - first % 16) % 16;  // aligns the first lane to 16 bytes, so to any width
    for (i64& x : is.global_line)
      if (x >= 0) x += x0;
    return true;
  }

  Val address(Lane& ln, const Function& f, const Instr& in, const Operand& a) {
    const Operand& base = f.operands[a.index];
    Val v;
    if (base.kind == OK::none) v.v = 0;
    else v = read_operand(m_, ln, f, base, in);
    if (v.sym && a.imm != 0) {  // term + offset in the 32-bit window: exact for a term of >= 32 bits
      if (v.symw < 32) return Val{0, m_.reason_at(in, "an address whose free-parameter term is narrower than 32 bits"), -1, v.cta};
      Term t = m_.terms[v.sym];
      t.c0 += static_cast<u64>(a.imm);
      Val r = m_.symbolic(t, 32, v.why, v.placement, v.cta);
      r.window = v.window;
      return r;
    }
    if (v.sym) {
      if (v.symw > 32) v.symw = 32;
      return v;
    }
    if (!v.known()) return v;
    v.v = mask_bits(v.v + static_cast<u64>(a.imm), 32);  // the shared window is 32-bit
    return v;
  }

  // cp.async.commit_group / wait_group N for the warp's .cg copies in flight, when a lane runs it
  // (a guard not known leaves them in flight: more copies counted in flight, never fewer).
  void order_copies(const Function& f, const Instr& in, const std::array<bool, kWarpLanes>& active) {
    if (std::find(active.begin(), active.end(), true) == active.end()) return;
    if (in.code.async == Opcode::AsyncGroup::commit) {
      cg_groups_.push_back(cg_open_);
      cg_open_ = 0;
      return;
    }
    const Operand* n = in.count > 0 ? &arg(f, in, 0) : nullptr;
    if (n && n->kind != OK::imm) return;  // a count not known: nothing known to be waited for
    const std::size_t keep = n ? static_cast<std::size_t>(std::max<i64>(n->imm, 0)) : 0;
    if (cg_groups_.size() > keep) cg_groups_.erase(cg_groups_.begin(), cg_groups_.end() - static_cast<std::ptrdiff_t>(keep));
  }

  // elect.sync d|p, membermask: the leader is the lowest lane of the issue that membermask holds.
  // The PTX ISA promises only a deterministic choice; the H200 elects the lowest lane for each of
  // 14 masks that gpu_check/probes/elect.cu tries (full, single lanes 7/16/31, halves, alternate and
  // irregular masks; CUDA 13.0, driver 580). An unknown membermask leaves both unknown.
  void elect(std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
             const Function& f, const Instr& in) {
    if (in.count < 3) return;
    int leader = -1;
    for (const int k : group) {
      if (!active[static_cast<std::size_t>(k)]) continue;
      Lane& ln = lanes[static_cast<std::size_t>(k)];
      const Val mask = read_operand(m_, ln, f, arg(f, in, 2), in);
      if (!mask.known()) {
        write_unknown(ln, f, arg(f, in, 0), mask.why);
        write_unknown(ln, f, arg(f, in, 1), mask.why);
        continue;
      }
      if (leader < 0)
        for (const int j : group)
          if (active[static_cast<std::size_t>(j)] && ((mask.v >> j) & 1)) {
            leader = j;
            break;
          }
      if (leader < 0) {  // a membermask holding no lane of the issue: undefined (the PTX ISA)
        const u32 why = m_.reason_at(in, "elect.sync whose membermask holds no lane that executes it (undefined)");
        write_unknown(ln, f, arg(f, in, 0), why);
        write_unknown(ln, f, arg(f, in, 1), why);
        continue;
      }
      write_operand(ln, f, arg(f, in, 0), Val{static_cast<u64>(leader), 0, -1, false}, 32);
      write_operand(ln, f, arg(f, in, 1), Val{static_cast<u64>(k == leader), 0, -1, false}, 1);
    }
  }

  // match.any / match.all for lane k over the issue's active lanes' values a (their bits at the
  // type's width): not known where some active lane's value is not known.
  void match(std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
             const std::array<Val, kWarpLanes>& a, const Function& f, const Instr& in, int k) {
    const int bits = in.code.type.bits > 0 ? in.code.type.bits : 32;
    Val out, all;
    u64 same = 0, any = 0;
    bool equal = true;
    const Val& mine = a[static_cast<std::size_t>(k)];
    for (const int j : group) {
      const Val& v = a[static_cast<std::size_t>(j)];
      if (!active[static_cast<std::size_t>(j)]) continue;
      if (!v.known()) {
        out.why = all.why = v.why;
        break;
      }
      any |= u64{1} << j;
      if (mask_bits(v.v, bits) == mask_bits(mine.v, bits)) same |= u64{1} << j;
      else equal = false;
    }
    Lane& ln = lanes[static_cast<std::size_t>(k)];
    if (out.known()) {
      out.v = in.code.vote == VoteMode::all ? (equal ? any : 0) : same;
      all.v = equal ? 1 : 0;
    }
    write_operand(ln, f, arg(f, in, 0), out, 32);
    if (in.dual) write_operand(ln, f, arg(f, in, 1), all, 1);
  }

  void collective(std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
                  const Function& f, const Instr& in) {
    const Opcode& c = in.code;
    u64 members = 0;
    for (const int k : group) members |= u64{1} << k;
    if (c.op == Op::activemask) {
      for (const int k : group)
        if (active[static_cast<std::size_t>(k)]) write_operand(lanes[static_cast<std::size_t>(k)], f, arg(f, in, 0), Val{members, 0, -1, false}, 32);
      return;
    }
    if (c.op == Op::elect) return elect(lanes, group, active, f, in);
    const u32 src0 = in.dual ? 2 : 1;
    std::array<Val, kWarpLanes> a{};
    for (const int k : group) a[static_cast<std::size_t>(k)] = read_operand(m_, lanes[static_cast<std::size_t>(k)], f, arg(f, in, src0), in);
    for (const int k : group) {
      if (!active[static_cast<std::size_t>(k)]) continue;
      Lane& ln = lanes[static_cast<std::size_t>(k)];
      if (c.op == Op::match) {
        match(lanes, group, active, a, f, in, k);
        continue;
      }
      if (c.op == Op::vote) {
        Val out;
        u64 ballot = 0;
        bool all = true, any = false, known = true;
        for (const int j : group) {
          const Val& p = a[static_cast<std::size_t>(j)];
          if (!active[static_cast<std::size_t>(j)]) continue;
          if (!p.known()) {
            known = false;
            out.why = p.why;
            break;
          }
          ballot |= static_cast<u64>(p.v != 0) << j;
          all = all && p.v != 0;
          any = any || p.v != 0;
        }
        if (known) out.v = c.vote == VoteMode::ballot ? ballot : c.vote == VoteMode::all ? all : c.vote == VoteMode::any ? any : (all || !any);
        write_operand(ln, f, arg(f, in, 0), out, c.vote == VoteMode::ballot ? 32 : 1);
        continue;
      }
      // shfl.sync.MODE.b32 d[|p], a, b, c, membermask (the PTX ISA's definition).
      const Val b = read_operand(m_, ln, f, arg(f, in, src0 + 1), in);
      const Val cc = read_operand(m_, ln, f, arg(f, in, src0 + 2), in);
      if (!b.known() || !cc.known()) {
        write_unknown(ln, f, arg(f, in, 0), b.known() ? cc.why : b.why);
        if (in.dual) write_unknown(ln, f, arg(f, in, 1), b.known() ? cc.why : b.why);
        continue;
      }
      const i64 lane = k, bval = static_cast<i64>(b.v & 31), cval = static_cast<i64>(cc.v & 31), seg = static_cast<i64>((cc.v >> 8) & 31);
      const i64 max_lane = (lane & seg) | (cval & ~seg), min_lane = lane & seg;
      i64 j = lane;
      bool pval = false;
      switch (c.shfl) {
        case ShflMode::up: j = lane - bval, pval = j >= max_lane; break;
        case ShflMode::down: j = lane + bval, pval = j <= max_lane; break;
        case ShflMode::bfly: j = lane ^ bval, pval = j <= max_lane; break;
        default: j = min_lane | (bval & ~seg), pval = j <= max_lane; break;
      }
      if (!pval) j = lane;
      Val out;
      if (j < 0 || j >= kWarpLanes || std::find(group.begin(), group.end(), static_cast<int>(j)) == group.end() ||
          !active[static_cast<std::size_t>(j)])
        out.why = m_.reason_at(in, "shfl from a lane that does not execute it with this lane (the value is undefined)");
      else out = a[static_cast<std::size_t>(j)], out.placement = -1;
      write_operand(ln, f, arg(f, in, 0), out, 32);
      if (in.dual) write_operand(ln, f, arg(f, in, 1), Val{static_cast<u64>(pval), 0, -1, false}, 1);
    }
  }

  void step(std::vector<Lane>& lanes, const std::vector<int>& group, bool divergent, const Function& f, u32 fi, u32 pc,
            const Instr& in, std::vector<i64>& executions,
            const WarpRunner::OnIssue& on_issue) {
    const Opcode& c = in.code;
    Lane& first = lanes[static_cast<std::size_t>(group.front())];
    if (in.guard < 0 && c.op != Op::unknown && c.op != Op::mbarrier_wait && is_alu(c.op)) {  // most steps: arithmetic, every lane active
      Group g{lanes, *first.file, first.stack.back().reg_base, 0};
      for (const int k : group) {
        g.mask |= u32{1} << k;
        ++lanes[static_cast<std::size_t>(k)].stack.back().pc;
      }
      execute_alu(m_, g, f, in);
      return;
    }
    // Guards: active, inactive, or not known (the lane's effect is then unknown).
    std::array<bool, kWarpLanes> active{};
    std::array<u32, kWarpLanes> guard_unknown{};
    std::array<bool, kWarpLanes> guard_cta{};
    // A guard that is a condition over the symbols: the lane is active where it holds. Everything
    // but a site's issue and a branch treats the lane as one whose guard is not known.
    std::array<u32, kWarpLanes> guard_cond{};
    for (const int k : group) {
      Lane& ln = lanes[static_cast<std::size_t>(k)];
      if (in.guard < 0) {
        active[static_cast<std::size_t>(k)] = true;
        continue;
      }
      const Val g = reg(ln, static_cast<u32>(in.guard));
      guard_cta[static_cast<std::size_t>(k)] = g.cta;
      if (!g.known()) guard_unknown[static_cast<std::size_t>(k)] = g.why;
      else active[static_cast<std::size_t>(k)] = (g.v != 0) != in.guard_neg;
      if (const u32 gc = cond_of(g)) {
        const u32 c = in.guard_neg ? m_.cond_not(gc) : gc;
        if (c != Machine::kNoCond) guard_cond[static_cast<std::size_t>(k)] = c;
      }
      // A branch the kernel's data decides: the lane goes both ways, each under a data atom of its
      // own (ptx_exec.hpp Cond::Kind::data), as under any condition the run cannot decide.
      if (!g.known() && !guard_cond[static_cast<std::size_t>(k)] && ln.stack.size() == 1 && data_decides(f, in) &&
          !blown_.count((static_cast<u64>(fi) << 32) | pc)) {
        const u32 d = m_.data_cond(g.why, in.line, (static_cast<u64>(fi) << 32) | pc);
        if (d != Machine::kNoCond) guard_cond[static_cast<std::size_t>(k)] = d;
      }
    }
    if (c.async != Opcode::AsyncGroup::none) order_copies(f, in, active);
    if (is_site(in)) {
      Issue is;
      is.state.fill(LaneState::absent);
      is.addr.fill(-1);
      is.placement.fill(-1);
      is.divergent = divergent;
      const Operand* a = address_operand(f, in);
      const int addressing = address_lanes(site_smem_op(c));
      // A generic access: a lane whose address is in the shared window is the issue's, one whose
      // address is global (known or a term, not the window's) is not; one not known stays unknown.
      const bool generic = is_generic_access(in);
      bool global_lanes = false;
      std::array<bool, kWarpLanes> global{};
      // The issue's reason is a lane's that is not known at all when there is one: a lane whose
      // address is a free parameter's term only says the parameter is free, not why the issue
      // is undecided (`xor` of P with tid keeps P's term in lane 0 alone).
      bool why_of_term = false;
      for (const int k : group) {
        Lane& ln = lanes[static_cast<std::size_t>(k)];
        const std::size_t s = static_cast<std::size_t>(k);
        if (k >= addressing) {  // ldmatrix/stmatrix: what this lane holds is no address
          is.state[s] = LaneState::inactive;
          continue;
        }
        // A generic access's lane whose address is global touches no shared byte, run or not.
        std::optional<Val> generic_address;  // its address, read once
        if (generic && (active[s] || guard_unknown[s] || guard_cond[s]) && a) {
          const Val& v = generic_address.emplace(address(ln, f, in, *a));
          if (!v.window && v.placement < 0 && (v.known() || v.sym)) {
            is.state[s] = LaneState::inactive;
            global_lanes = global[s] = is.outside = true;
            continue;
          }
          if (v.window) is.window = true;  // in the window, whether its guard or its offset is known or not
        }
        is.cta = is.cta || guard_cta[s] || ln.cta_path;
        if (ln.path && !is.path) is.path = ln.path;
        const u32 when = guard_cond[s] ? m_.cond_and(ln.path, guard_cond[s]) : ln.path;
        if ((guard_unknown[s] && !guard_cond[s]) || when == Machine::kNoCond) {
          is.state[s] = LaneState::unknown;
          is.unknown_lanes = true;
          if (!is.why || why_of_term) is.why = guard_unknown[s] ? guard_unknown[s] : m_.reason_at(in, "too many conditions over the symbols"), why_of_term = false;
          continue;
        }
        if (!active[s] && !guard_cond[s]) {
          is.state[s] = LaneState::inactive;
          continue;
        }
        const Val v = generic_address ? *generic_address : a ? address(ln, f, in, *a) : Val{0, m_.reason_at(in, "no address operand"), -1, false};
        if (generic && !v.window && v.placement >= 0) {  // a shared-space address used as a generic one
          is.state[s] = LaneState::unknown;
          is.unknown_lanes = true;
          if (!is.why) is.why = m_.reason_at(in, "a generic access through a shared-space address not converted with cvta.shared");
          continue;
        }
        if (when) {  // active where `when` holds: its address a term (a constant one when known)
          is.state[s] = LaneState::unknown;
          if (is.when.empty()) is.when.assign(kWarpLanes, 0);
          is.when[s] = when;
          if (is.sym.empty()) is.sym.assign(kWarpLanes, Term{});
          is.placement[s] = v.placement;
          is.cta = is.cta || v.cta;
          if (v.known()) {
            is.sym[s] = Term{};
            is.sym[s].c0 = v.v, is.sym[s].w = 32;
          } else if (v.sym) {
            is.sym[s] = m_.terms[v.sym];
            is.sym[s].w = v.symw;
          } else {
            is.unknown_lanes = true;
            if (!is.why || why_of_term) is.why = v.why, why_of_term = false;
          }
          continue;
        }
        if (!v.known()) {
          is.state[s] = LaneState::unknown;
          if (!is.why || (why_of_term && !v.sym)) is.why = v.why, why_of_term = v.sym != 0;
          if (v.sym) {  // its address for every value of the free parameters
            if (is.sym.empty()) is.sym.assign(kWarpLanes, Term{});
            is.sym[s] = m_.terms[v.sym];
            is.sym[s].w = v.symw;
            is.placement[s] = v.placement;
            is.cta = is.cta || v.cta;
          } else {
            is.unknown_lanes = true;
          }
          continue;
        }
        is.state[s] = LaneState::active;
        is.addr[s] = static_cast<i64>(v.v);
        is.placement[s] = v.placement;
        is.cta = is.cta || v.cta;
      }
      if (generic && is.window && global_lanes) {  // lanes in the window and out of it: not measured
        is.unknown_lanes = true;
        is.why = m_.reason_at(in, "a generic access with lanes both in the shared window and outside it (not measured)");
        for (std::size_t k = 0; k < kWarpLanes; ++k)
          if (global[k]) is.state[k] = LaneState::unknown;
      }
      if (generic && !is.window) listing_.note(lanes, group, active, guard_unknown, f, fi, pc, in);  // not known to touch it: listed as may
      is.written = written_by(lanes, f, in, is);
      if (c.op == Op::cp_async) is.global_known = global_lines(lanes, f, in, is);
      if (c.op == Op::cp_async && c.bypass && std::find(active.begin(), active.end(), true) != active.end()) {
        is.cg_in_flight = std::accumulate(cg_groups_.begin(), cg_groups_.end(), cg_open_);
        ++cg_open_;
      }
      const std::size_t site = site_of(fi, pc);
      if (site >= executions.size()) executions.resize(site + 1, 0);
      on_issue(site, executions[site]++, is);
    } else {
      listing_.note(lanes, group, active, guard_unknown, f, fi, pc, in);
    }
    if (c.op == Op::shfl || c.op == Op::vote || c.op == Op::activemask || c.op == Op::elect || c.op == Op::match)
      collective(lanes, group, active, f, in);
    // A back edge some lane takes under a condition over the symbols: the loop is summarized.
    if (c.op == Op::bra && in.count > 0 && arg(f, in, 0).kind == OK::label && arg(f, in, 0).index <= pc && first.stack.size() == 1 &&
        loops_.back_edge(lanes, group, active, guard_unknown, guard_cond, f, fi, pc, in))
      return;
    if (split_if_else(lanes, group, f, fi, pc, in, active, guard_unknown, guard_cta, guard_cond)) return;
    const bool alu = is_alu(c.op);
    Group alu_lanes{lanes, *first.file, first.stack.back().reg_base, 0};
    for (const int k : group) {
      Lane& ln = lanes[static_cast<std::size_t>(k)];
      const std::size_t s = static_cast<std::size_t>(k);
      if (guard_cond[s] && (c.op == Op::bra || c.op == Op::ret || c.op == Op::exit)) {
        branch_on_cond(ln, f, fi, pc, in, guard_cond[s]);
        continue;
      }
      if (guard_unknown[s]) {
        if (c.op == Op::bra || c.op == Op::ret || c.op == Op::exit || c.op == Op::call) {
          stop(ln, m_.reasons[guard_unknown[s]] + " decides a branch at line " + std::to_string(in.line));
          continue;
        }
        if (in.count > 0 && c.op != Op::st && c.op != Op::red && c.op != Op::stmatrix && c.op != Op::cp_async)
          write_unknown(ln, f, arg(f, in, 0), guard_unknown[s]);
        ++ln.stack.back().pc;
        continue;
      }
      if (guard_cta[s] && (c.op == Op::bra || c.op == Op::ret || c.op == Op::exit || c.op == Op::call)) ln.cta_path = cta_control_ = true;
      if (!active[s] || alu) {
        if (alu && active[s]) alu_lanes.mask |= u32{1} << k;
        ++ln.stack.back().pc;
        continue;
      }
      execute(ln, f, in);
    }
    if (alu_lanes.mask) execute_alu(m_, alu_lanes, f, in);
  }

  // The data of a store issue in which two active lanes write a common byte (ptx_exec.hpp
  // Written); null for any other issue. Lanes of one issue have one width, so some two overlap
  // iff two neighbours in address order do.
  std::shared_ptr<const Written> written_by(std::vector<Lane>& lanes, const Function& f, const Instr& in, const Issue& is) {
    const Opcode& c = in.code;
    if (c.op != Op::st && c.op != Op::stmatrix && c.op != Op::cp_async) return nullptr;
    const i64 w = c.op == Op::st ? i64{type_bytes(c.type)} * c.vec
                  : c.op == Op::stmatrix ? 16
                  : in.count >= 3 && arg(f, in, 2).kind == OK::imm ? arg(f, in, 2).imm : 0;
    if (w <= 0) return nullptr;
    std::array<i64, kWarpLanes> a{};
    int n = 0;
    for (int k = 0; k < kWarpLanes; ++k)
      if (is.state[static_cast<std::size_t>(k)] == LaneState::active) a[static_cast<std::size_t>(n++)] = is.addr[static_cast<std::size_t>(k)];
    std::sort(a.begin(), a.begin() + n);
    bool overlap = false;
    for (int i = 1; i < n && !overlap; ++i) overlap = a[static_cast<std::size_t>(i)] < a[static_cast<std::size_t>(i - 1)] + w;
    if (!overlap) return nullptr;
    auto out = std::make_shared<Written>();
    for (int k = 0; k < kWarpLanes; ++k) {
      const std::size_t s = static_cast<std::size_t>(k);
      if (is.state[s] != LaneState::active) continue;
      std::string& why = out->why[s];
      if (c.op == Op::stmatrix) {
        why = "stmatrix stores data held in other lanes' registers (not modelled)";
        continue;
      }
      if (c.op == Op::cp_async) {
        why = "cp.async copies data from global memory (data is not modelled)";
        continue;
      }
      const int tb = type_bytes(c.type);
      if (w > 16 || tb > 8 || tb <= 0 || in.count < 2) {
        why = "line " + std::to_string(in.line) + ": the stored data's width is not modelled";
        continue;
      }
      const Operand& src = arg(f, in, 1);
      const u32 elements = src.kind == OK::vec ? src.count : 1;
      for (u32 e = 0; e < elements && why.empty(); ++e) {
        const Operand& o = src.kind == OK::vec ? f.operands[src.index + e] : src;
        const Val v = read_operand(m_, lanes[s], f, o, in);
        if (!v.known()) {
          why = m_.reasons[v.why];
          break;
        }
        for (int j = 0; j < tb && static_cast<i64>(e) * tb + j < w; ++j)
          out->bytes[s][static_cast<std::size_t>(e * static_cast<u32>(tb) + static_cast<u32>(j))] = static_cast<u8>(v.v >> (8 * j));
      }
    }
    return out;
  }

  void execute(Lane& ln, const Function& f, const Instr& in) {
    const Opcode& c = in.code;
    Frame& fr = ln.stack.back();
    switch (c.op) {
      case Op::bra: {
        const Operand& t = arg(f, in, 0);
        if (in.count == 0 || t.kind != OK::label) return stop(ln, "line " + std::to_string(in.line) + ": a branch the model cannot follow");
        // A taken branch to itself is taken again forever (nothing runs in between to change its
        // guard): ptxas's trailing `BRA` after EXIT. Stopped here rather than at the step limit.
        if (t.index == fr.pc) return stop(ln, "line " + std::to_string(in.line) + ": a branch to itself (the lane never leaves it)");
        fr.pc = t.index;
        return;
      }
      case Op::ret: return do_return(ln);
      case Op::exit:
        // A trap the lane runs on every launch of the run's domain (no condition over the symbols
        // on its path) aborts the launch: its counts are not the hardware's (it measures none).
        if (c.trap && ln.path == 0 && trapped_.empty()) trapped_ = "line " + std::to_string(in.line) + ": " + m_.mnemonic(in);
        ln.stack.clear();
        return;
      case Op::call: return do_call(ln, f, in);
      case Op::shfl: case Op::vote: case Op::activemask: case Op::elect: case Op::match: case Op::nop: break;
      case Op::ld: case Op::ldmatrix: case Op::atom: {
        const Operand* a = address_operand(f, in);
        if (c.op == Op::ld && c.space == Space::local && a) {
          const Operand& dst = arg(f, in, 0);
          const int bits = type_bytes(c.type) * 8;
          const Val at = address(ln, f, in, *a);
          const u32 parts = dst.kind == OK::vec ? dst.count : 1;
          for (u32 k = 0; k < parts; ++k) {
            const Operand& d = dst.kind == OK::vec ? f.operands[dst.index + k] : dst;
            write_operand(ln, f, d, load_local(ln, in, at, static_cast<i64>(k) * (bits / 8), bits), bits);
          }
          break;
        }
        if (c.op == Op::ld && c.space == Space::param && a) {
          const Operand& dst = arg(f, in, 0);
          const int bits = type_bytes(c.type) * 8;
          if (dst.kind == OK::vec) {
            for (u32 k = 0; k < dst.count; ++k) {
              Operand part = *a;
              part.imm = checked_add(a->imm, static_cast<i64>(k) * (bits / 8));
              write_operand(ln, f, f.operands[dst.index + k], load_param(ln, f, in, part, bits), bits);
            }
          } else {
            write_operand(ln, f, dst, load_param(ln, f, in, *a, bits), bits);
          }
          break;
        }
        const char* what = c.space == Space::shared ? "a value loaded from shared memory (data is not modelled)"
                           : c.space == Space::global ? "a value loaded from global memory (data is not modelled)"
                           : c.space == Space::local ? "a value loaded from local memory (data is not modelled)"
                           : c.space == Space::const_ ? "a value loaded from constant memory (data is not modelled)"
                                                      : "a value loaded from memory (data is not modelled)";
        if (in.count > 0) write_unknown(ln, f, arg(f, in, 0), m_.reason_once(in, 0, [&] { return std::string(what); }));
        break;
      }
      case Op::st: {
        const Operand* a = address_operand(f, in);
        if (c.space == Space::local && a && in.count >= 2) {
          const int bits = type_bytes(c.type) * 8;
          const Operand& src = arg(f, in, 1);
          const Val at = address(ln, f, in, *a);
          const u32 parts = src.kind == OK::vec ? src.count : 1;
          for (u32 k = 0; k < parts; ++k) {
            const Operand& s = src.kind == OK::vec ? f.operands[src.index + k] : src;
            store_local(ln, in, at, static_cast<i64>(k) * (bits / 8), read_operand(m_, ln, f, s, in), bits);
          }
          break;
        }
        if (c.space == Space::param && a && in.count >= 2) {
          const int bits = type_bytes(c.type) * 8;
          const Operand& src = arg(f, in, 1);
          if (src.kind == OK::vec) {
            for (u32 k = 0; k < src.count; ++k) {
              Operand part = *a;
              part.imm = checked_add(a->imm, static_cast<i64>(k) * (bits / 8));
              store_param(ln, f, in, part, read_operand(m_, ln, f, f.operands[src.index + k], in), bits);
            }
          } else {
            store_param(ln, f, in, *a, read_operand(m_, ln, f, src, in), bits);
          }
        }
        break;
      }
      case Op::stmatrix: case Op::cp_async: case Op::red: break;
      default: break;  // is_alu: the whole group at once (step)
    }
    if (!ln.stack.empty() && &ln.stack.back() == &fr) ++fr.pc;
  }

 private:
  const Program& p_;
  std::size_t entry_;
  const Launch& l_;
  Machine& m_;
  LoopSummary loops_;  // loops whose trip count depends on the symbols, run for every iteration at once
  i64 steps_ = 0;
  static constexpr i64 kMaxConditionalSteps = i64{1} << 16;
  i64 conditional_steps_ = 0;  // this warp's steps with its lowest lane on a path the data decides
  u32 data_path_ = 0;          // the last path asked about, and whether it reads a data atom
  bool data_path_has_ = false;
  // The data branches whose paths ran past kMaxConditionalSteps: in later warps their guards stop
  // the lane as any guard not known does, rather than run that path again.
  std::unordered_set<u64> blown_;
  // The data atom of `path` made last (the branch nearest the lane), 0 none.
  u32 innermost_data_atom(u32 path) const {
    u32 best = 0;
    std::vector<u32> todo{path};
    std::unordered_set<u32> seen;
    while (!todo.empty()) {
      const u32 x = todo.back();
      todo.pop_back();
      if (x == 0 || x >= m_.conds.size() || !seen.insert(x).second) continue;
      const Cond& c = m_.conds[x];
      if (c.kind == Cond::Kind::data) {
        if (!best || c.a.c0 > m_.conds[best].a.c0) best = x;
      } else if (c.kind != Cond::Kind::cmp) {
        todo.push_back(c.x), todo.push_back(c.y);
      }
    }
    return best;
  }
  bool on_data_path(u32 path) {
    if (!path) return false;
    if (path != data_path_) data_path_ = path, data_path_has_ = data_atom_in(m_.conds, path) != 0;
    return data_path_has_;
  }
  u32 uninit_ = 0;
  // The running warp's cp.async.cg copies in flight (Issue::cg_in_flight): per committed group not
  // yet waited for, oldest first, and in its open group.
  std::vector<u32> cg_groups_;
  u32 cg_open_ = 0;
  std::vector<char> after_stop_;  // site index -> a stopped lane could have reached it
  bool all_after_stop_ = false;
  bool cta_control_ = false;
  std::string trapped_;  // the first trap a lane ran on its unconditional path
  std::string stopped_;
  std::vector<i64> stopped_warps_;
  NotCountedList listing_{p_, m_};
  std::unordered_map<u64, bool> reach_;     // shared_reachable's answers
  std::string harmless_;                    // the first stop after which no shared access is reachable
  std::unordered_map<u32, Cfg> cfgs_;         // per function, built at its first divergent branch
  std::unordered_map<u32, std::vector<char>> targets_;  // per function, its branch targets (learn)
  SymbolicIf ifs_;                            // branches on conditions over the symbols
  std::optional<Region> split_;               // the region an if/else split (split_if_else) opens
  std::unordered_map<u64, u32> if_else_;      // (function, branch) -> if_else_join
  std::unordered_map<u64, bool> separate_;    // (function, branch) -> separate_paths
};

WarpRunner::WarpRunner(const Program& p, std::size_t entry, const Launch& l, Machine& m) : impl_(std::make_unique<Impl>(p, entry, l, m)) {}
WarpRunner::~WarpRunner() = default;
void WarpRunner::run_warp(i64 w, const OnIssue& on_issue) { impl_->run_warp(w, on_issue); }
void WarpRunner::finish_warp() { impl_->finish_ = true; }
void WarpRunner::set_site_of(std::function<std::size_t(u32, u32)> f) { impl_->site_of = std::move(f); }
i64 WarpRunner::steps() const { return impl_->steps(); }
bool WarpRunner::cta_control() const { return impl_->cta_control(); }
const std::string& WarpRunner::stopped() const { return impl_->stopped(); }
const std::string& WarpRunner::trapped() const { return impl_->trapped(); }
const std::string& WarpRunner::harmless_stop() const { return impl_->harmless_stop(); }
bool WarpRunner::after_stop(std::size_t site) const { return impl_->after_stop(site); }
const std::vector<i64>& WarpRunner::stopped_warps() const { return impl_->stopped_warps(); }
const std::vector<NotCounted>& WarpRunner::not_counted() const { return impl_->not_counted(); }
const std::vector<AsyncOp>& WarpRunner::async_ops() const { return impl_->async_ops(); }

}  // namespace layoutproof::compiled
