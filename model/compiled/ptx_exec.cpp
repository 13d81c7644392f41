// The PTX executor (ptx_exec.hpp): warps in lock step, shared-memory issues grouped into sites,
// counted by the bank model and kept, deduplicated, as address traces.
#include "model/compiled/ptx_exec.hpp"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "model/compiled/ptx_machine.hpp"

namespace layoutproof::ptx {
namespace {

using OK = Operand::Kind;
constexpr std::size_t kMaxCallDepth = 64;

const Operand& arg(const Function& f, const Instr& in, u32 k) { return f.operands[in.first + k]; }

bool is_site(const Instr& in) {
  const Opcode& c = in.code;
  switch (c.op) {
    case Op::ld: case Op::st: case Op::atom: case Op::red: return c.space == Space::shared;
    case Op::ldmatrix: case Op::stmatrix: return c.m8n8 && c.matrices > 0 && c.space != Space::shared_cluster;
    case Op::cp_async: return true;
    default: return false;
  }
}

// A shared-memory opcode the model does not address lane by lane (listed, never counted).
bool shared_but_not_lane_addressed(const Instr& in, const std::string& mnemonic) {
  if (is_site(in)) return false;
  return in.code.space == Space::shared || in.code.space == Space::shared_cluster || in.code.bulk ||
         mnemonic.find("shared") != std::string::npos || mnemonic.rfind("wgmma", 0) == 0 ||
         in.code.op == Op::ldmatrix || in.code.op == Op::stmatrix;
}

struct SiteShape {
  std::string op;
  SmemOp smem = SmemOp::ld;
  int width = 0;
  bool writes = false, bank = true;
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
    case Op::ldmatrix: case Op::stmatrix: {
      const bool ld = c.op == Op::ldmatrix;
      s.smem = ld ? (c.matrices == 4 ? SmemOp::ldsm4 : c.matrices == 2 ? SmemOp::ldsm2 : SmemOp::ldsm1)
                  : (c.matrices == 4 ? SmemOp::stsm4 : c.matrices == 2 ? SmemOp::stsm2 : SmemOp::stsm1);
      s.op = to_string(s.smem);
      s.width = 16;
      s.writes = !ld;
      break;
    }
    case Op::cp_async:
      s.op = "ldgsts";
      s.smem = SmemOp::ldgsts;
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

// The address operand of a site: ld/atom: the second; st/red/cp.async/stmatrix: the first.
const Operand* address_operand(const Function& f, const Instr& in) {
  for (u32 k = 0; k < in.count; ++k)
    if (arg(f, in, k).kind == OK::addr) return &arg(f, in, k);
  return nullptr;
}

// Integer and bit arithmetic (ptx_alu.cpp): executed for a group's lanes at once.
bool is_alu(Op op) {
  switch (op) {
    case Op::bra: case Op::call: case Op::ret: case Op::exit: case Op::shfl: case Op::vote: case Op::activemask: case Op::nop:
    case Op::ld: case Op::st: case Op::ldmatrix: case Op::stmatrix: case Op::cp_async: case Op::atom: case Op::red:
      return false;
    default: return true;
  }
}

// The lanes' state in one issue.
enum class LaneState : u8 { absent, inactive, active, unknown };

struct Issue {
  std::array<LaneState, kWarpLanes> state{};
  std::array<i64, kWarpLanes> addr{};
  std::array<int, kWarpLanes> placement{};
  u32 why = 0;
  bool cta = false, divergent = false;
  std::shared_ptr<const Written> written;  // a store whose active lanes share a byte: their data
};

class Runner {
 public:
  Runner(const Program& p, std::size_t entry, const Launch& l, Machine& m) : p_(p), entry_(entry), l_(l), m_(m) {}

  // Runs warp w; `on_issue(site, execution, issue)` for every site issue.
  void run_warp(i64 w, const std::function<void(std::size_t, i64, const Issue&)>& on_issue) {
    const i64 threads = l_.block[0] * l_.block[1] * l_.block[2];
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
    bool all_unfinished_in_group = true;
    bool same_group = false;  // the last issue held every unfinished lane and moved them all to the next instruction
    for (;;) {
      // The lowest position among unfinished lanes; the lanes there form the issue.
      int low = same_group ? group.front() : -1;
      if (!same_group) group.clear(), all_unfinished_in_group = true;
      for (int k = 0; !same_group && k < static_cast<int>(lanes.size()); ++k) {
        if (lanes[static_cast<std::size_t>(k)].stack.empty()) continue;
        if (low < 0) {
          low = k;
          group.push_back(k);
          continue;
        }
        const int c = compare(lanes[static_cast<std::size_t>(k)], lanes[static_cast<std::size_t>(low)]);
        if (c < 0) {
          low = k;
          all_unfinished_in_group = false;
          group.assign(1, k);
        } else if (c == 0) {
          group.push_back(k);
        } else {
          all_unfinished_in_group = false;
        }
      }
      if (low < 0) return;
      if (++steps_ > l_.max_warp_steps) {
        stop_all(lanes, "the launch ran more than " + std::to_string(l_.max_warp_steps) +
                            " warp instructions (a loop whose bound is not known, or a long kernel)");
        return;
      }
      if ((steps_ & 0xfff) == 0 && l_.deadline && std::chrono::steady_clock::now() >= *l_.deadline) {
        stop_all(lanes, "the deadline was reached while running the kernel");
        return;
      }
      const Frame& fr = lanes[static_cast<std::size_t>(low)].stack.back();
      const Function& f = p_.functions[fr.function];
      const u32 pc = fr.pc;
      if (pc >= f.code.size()) {  // fell off the end of the body: as `ret`
        for (const int k : group) do_return(lanes[static_cast<std::size_t>(k)]);
        same_group = false;
        continue;
      }
      const Instr& in = f.code[pc];
      step(lanes, group, !all_unfinished_in_group, f, fr.function, pc, in, executions, on_issue);
      // Only bra, call, ret and exit move lanes elsewhere than the next instruction (or stop them).
      const Op op = in.code.op;
      same_group = all_unfinished_in_group && op != Op::bra && op != Op::call && op != Op::ret && op != Op::exit;
    }
  }

  i64 steps() const { return steps_; }
  bool cta_control() const { return cta_control_; }
  const std::string& stopped() const { return stopped_; }
  const std::string& harmless_stop() const { return harmless_; }
  const std::vector<i64>& stopped_warps() const { return stopped_warps_; }
  std::function<std::size_t(u32, u32)> site_of;  // (function, pc) -> site index

 private:
  u32 uninit() { return uninit_ ? uninit_ : (uninit_ = m_.reason("a register read before it is written")); }

  // Lexicographic over the frames' pcs (a lane inside a call sits at its call instruction).
  static int compare(const Lane& a, const Lane& b) {
    const std::size_t n = std::min(a.stack.size(), b.stack.size());
    for (std::size_t i = 0; i < n; ++i)
      if (a.stack[i].pc != b.stack[i].pc) return a.stack[i].pc < b.stack[i].pc ? -1 : 1;
    return a.stack.size() < b.stack.size() ? -1 : a.stack.size() > b.stack.size() ? 1 : 0;
  }

  // True when some shared-memory instruction (or a call, an indirect branch, an opcode outside the
  // model that may touch shared memory) is reachable from instruction `pc` of function `fi` along
  // its control flow: fall-through and every branch target, loops included.
  bool shared_reachable(u32 fi, u32 pc) {
    const u64 key = (static_cast<u64>(fi) << 32) | pc;
    if (const auto it = reach_.find(key); it != reach_.end()) return it->second;
    const Function& f = p_.functions[fi];
    std::vector<char> seen(f.code.size(), 0);
    std::vector<u32> todo{pc};
    bool found = false;
    while (!todo.empty() && !found) {
      const u32 k = todo.back();
      todo.pop_back();
      if (k >= f.code.size() || seen[k]) continue;
      seen[k] = 1;
      const Instr& in = f.code[k];
      const Op o = in.code.op;
      if (is_site(in) || o == Op::call || shared_but_not_lane_addressed(in, m_.mnemonic(in))) {
        found = true;
        break;
      }
      if (o == Op::bra) {
        if (in.count == 0 || arg(f, in, 0).kind != OK::label) {
          found = true;  // an indirect branch: anywhere
          break;
        }
        todo.push_back(arg(f, in, 0).index);
        if (in.guard >= 0) todo.push_back(k + 1);
        continue;
      }
      if ((o == Op::ret || o == Op::exit) && in.guard < 0) continue;
      todo.push_back(k + 1);
    }
    reach_[key] = found;
    return found;
  }

  void stop(Lane& ln, const std::string& why) {
    // A kernel-level lane whose stop point reaches no shared-memory instruction misses nothing the
    // counts and claims are about: it finishes (the reason is kept as a note).
    if (ln.stack.size() == 1 && !shared_reachable(ln.stack.back().function, ln.stack.back().pc)) {
      if (harmless_.empty()) harmless_ = why;
      ln.stack.clear();
      return;
    }
    if (stopped_.empty()) stopped_ = why;
    const i64 w = ln.linear / kWarpLanes;
    if (stopped_warps_.empty() || stopped_warps_.back() != w) stopped_warps_.push_back(w);
    ln.stack.clear();
    ln.stopped = true;
  }
  void stop_all(std::vector<Lane>& lanes, const std::string& why) {
    for (Lane& ln : lanes)
      if (!ln.stack.empty()) stop(ln, why);
  }

  void do_return(Lane& ln) {
    const Frame done = ln.stack.back();
    ln.stack.pop_back();
    if (ln.stack.empty()) return;
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
    if (target.kind != OK::func) return outputs_unknown("an indirect call (not modelled)");
    const Function& callee = p_.functions[target.index];
    if (!callee.decoded) return outputs_unknown("a call to " + callee.name + ", which has no body in this file");
    if (ln.stack.size() >= kMaxCallDepth) return outputs_unknown("calls nested deeper than " + std::to_string(kMaxCallDepth));
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
  Val load_param(Lane& ln, const Function& f, const Instr& in, const Operand& a, int bits) {
    const Operand& base = f.operands[a.index];
    const Frame& fr = ln.stack.back();
    Val v;
    if (base.kind != OK::param) {
      v.why = m_.reason_at(in, "ld.param from an address that is not a parameter (not modelled)");
      return v;
    }
    const u32 slot = fr.param_base + base.index;
    for (auto c = ln.cells.rbegin(); c != ln.cells.rend(); ++c)
      if (c->slot == slot && (c->offset == a.imm || c->offset == -1)) {
        v = c->value;
        if (v.known()) v.v = mask_bits(v.v, bits);
        return v;
      }
    if (ln.stack.size() == 1 && base.index < f.params.size()) {  // a kernel parameter
      const i64 want = (bits + 7) / 8;
      for (auto it = l_.fields.rbegin(); it != l_.fields.rend(); ++it)  // the last --param for these bytes wins
        if (it->param == base.index && a.imm >= it->offset && a.imm + want <= it->offset + it->bytes) {
          const i64 shift = 8 * (a.imm - it->offset);
          v.v = mask_bits(shift >= 64 ? 0 : it->value >> shift, bits);
          return v;
        }
      const ParamDecl& d = f.params[base.index];
      const std::string who = "parameter " + std::to_string(base.index) + " (" + d.name + ")";
      if (base.index >= l_.params.size() || !l_.params[base.index]) {
        v.why = m_.reason(who + " is not fixed by --param");
        return v;
      }
      if (a.imm != 0 || d.bytes > 8) {
        v.why = m_.reason("byte " + std::to_string(a.imm) + " of " + who + ", an aggregate (not modelled: --param fixes scalars)");
        return v;
      }
      v.v = mask_bits(*l_.params[base.index], bits);
      return v;
    }
    v.why = m_.reason_at(in, "a parameter value that was never stored");
    return v;
  }

  void store_param(Lane& ln, const Function& f, const Instr& in, const Operand& a, const Val& value, int bits) {
    const Operand& base = f.operands[a.index];
    if (base.kind != OK::param) return;
    const u32 slot = ln.stack.back().param_base + base.index;
    std::erase_if(ln.cells, [&](const Cell& c) { return c.slot == slot && (c.offset == a.imm || c.offset == -1); });
    Val v = value;
    if (v.known()) v.v = mask_bits(v.v, bits);
    ln.cells.push_back({slot, a.imm, v});
    (void)in;
  }

  // The byte address of a site's shared-memory operand for one lane.
  Val address(Lane& ln, const Function& f, const Instr& in, const Operand& a) {
    const Operand& base = f.operands[a.index];
    Val v;
    if (base.kind == OK::none) v.v = 0;
    else v = read_operand(m_, ln, f, base, in);
    if (!v.known()) return v;
    v.v = mask_bits(v.v + static_cast<u64>(a.imm), 32);  // the shared window is 32-bit
    return v;
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
    const u32 src0 = in.dual ? 2 : 1;
    std::array<Val, kWarpLanes> a{};
    for (const int k : group) a[static_cast<std::size_t>(k)] = read_operand(m_, lanes[static_cast<std::size_t>(k)], f, arg(f, in, src0), in);
    for (const int k : group) {
      if (!active[static_cast<std::size_t>(k)]) continue;
      Lane& ln = lanes[static_cast<std::size_t>(k)];
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
            const std::function<void(std::size_t, i64, const Issue&)>& on_issue) {
    const Opcode& c = in.code;
    // Guards: active, inactive, or not known (the lane's effect is then unknown).
    std::array<bool, kWarpLanes> active{};
    std::array<u32, kWarpLanes> guard_unknown{};
    std::array<bool, kWarpLanes> guard_cta{};
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
    }
    if (is_site(in)) {
      Issue is;
      is.state.fill(LaneState::absent);
      is.addr.fill(-1);
      is.placement.fill(-1);
      is.divergent = divergent;
      const Operand* a = address_operand(f, in);
      for (const int k : group) {
        Lane& ln = lanes[static_cast<std::size_t>(k)];
        const std::size_t s = static_cast<std::size_t>(k);
        is.cta = is.cta || guard_cta[s] || ln.cta_path;
        if (guard_unknown[s]) {
          is.state[s] = LaneState::unknown;
          if (!is.why) is.why = guard_unknown[s];
          continue;
        }
        if (!active[s]) {
          is.state[s] = LaneState::inactive;
          continue;
        }
        const Val v = a ? address(ln, f, in, *a) : Val{0, m_.reason_at(in, "no address operand"), -1, false};
        if (!v.known()) {
          is.state[s] = LaneState::unknown;
          if (!is.why) is.why = v.why;
          continue;
        }
        is.state[s] = LaneState::active;
        is.addr[s] = static_cast<i64>(v.v);
        is.placement[s] = v.placement;
        is.cta = is.cta || v.cta;
      }
      is.written = written_by(lanes, f, in, is);
      const std::size_t site = site_of(fi, pc);
      if (site >= executions.size()) executions.resize(site + 1, 0);
      on_issue(site, executions[site]++, is);
    } else if ((c.op == Op::unknown || c.op == Op::nop) && noted_.insert(&in).second) {
      const std::string mn = m_.mnemonic(in);
      if (shared_but_not_lane_addressed(in, mn)) not_lane_addressed(in.line, mn);
      if (c.op == Op::unknown) note_not_modelled(mn);
    }
    if (c.op == Op::shfl || c.op == Op::vote || c.op == Op::activemask) collective(lanes, group, active, f, in);
    const bool alu = is_alu(c.op);
    Lane& first = lanes[static_cast<std::size_t>(group.front())];
    Group alu_lanes{lanes, *first.file, first.stack.back().reg_base, 0};
    for (const int k : group) {
      Lane& ln = lanes[static_cast<std::size_t>(k)];
      const std::size_t s = static_cast<std::size_t>(k);
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
        fr.pc = t.index;
        return;
      }
      case Op::ret: return do_return(ln);
      case Op::exit: ln.stack.clear(); return;
      case Op::call: return do_call(ln, f, in);
      case Op::shfl: case Op::vote: case Op::activemask: case Op::nop: break;
      case Op::ld: case Op::ldmatrix: case Op::atom: {
        const Operand* a = address_operand(f, in);
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

  void not_lane_addressed(u32 line, const std::string& mn) {
    if (std::find(nla_.begin(), nla_.end(), std::make_pair(line, mn)) == nla_.end()) nla_.push_back({line, mn});
  }
  void note_not_modelled(const std::string& mn) {
    if (std::find(m_.not_modelled.begin(), m_.not_modelled.end(), mn) == m_.not_modelled.end()) m_.not_modelled.push_back(mn);
  }

 public:
  std::vector<std::pair<u32, std::string>> nla_;

 private:
  const Program& p_;
  std::size_t entry_;
  const Launch& l_;
  Machine& m_;
  i64 steps_ = 0;
  u32 uninit_ = 0;
  bool cta_control_ = false;
  std::string stopped_;
  std::vector<i64> stopped_warps_;
  std::unordered_set<const Instr*> noted_;  // unmodelled instructions already listed
  std::unordered_map<u64, bool> reach_;     // shared_reachable's answers
  std::string harmless_;                    // the first stop after which no shared access is reachable
};

// Static symbols in declaration order from 0, each aligned; dynamic after them (ptx_exec.hpp).
void place_symbols(const Program& p, std::size_t entry, const Launch& l, Machine& m) {
  std::vector<bool> used(p.shared.size(), false);
  std::vector<std::size_t> todo{entry};
  std::vector<bool> seen(p.functions.size(), false);
  while (!todo.empty()) {
    const std::size_t fi = todo.back();
    todo.pop_back();
    if (seen[fi]) continue;
    seen[fi] = true;
    for (const Operand& o : p.functions[fi].operands) {
      if (o.kind == OK::shared && o.index < used.size()) used[o.index] = true;
      if (o.kind == OK::func && p.functions[o.index].decoded) todo.push_back(o.index);
    }
  }
  m.placement_of_symbol.assign(p.shared.size(), -1);
  i64 at = 0, dyn_align = 16;
  for (u32 i = 0; i < p.shared.size(); ++i) {
    const SharedSymbol& s = p.shared[i];
    if (!used[i]) continue;
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
  for (u32 i = 0; i < p.shared.size(); ++i)
    if (used[i] && p.shared[i].dynamic) {
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

KernelRun run_kernel(const Program& p, std::size_t entry, const Launch& l) {
  check_launch(p, entry, l);
  Machine m(p, l);
  place_symbols(p, entry, l, m);
  KernelRun run;
  run.name = p.functions[entry].name;
  run.entry = entry;
  run.block = l.block;
  run.grid = l.grid;
  run.threads = l.block[0] * l.block[1] * l.block[2];
  run.placements = m.placements;
  // Sites: every shared-memory instruction of the kernel and the functions it calls, in PTX order.
  std::unordered_map<u64, std::size_t> site_index;
  std::vector<std::size_t> fns{entry};
  for (std::size_t i = 0; i < fns.size(); ++i)
    for (const Operand& o : p.functions[fns[i]].operands)
      if (o.kind == OK::func && p.functions[o.index].decoded && std::find(fns.begin(), fns.end(), o.index) == fns.end())
        fns.push_back(o.index);
  for (const std::size_t fi : fns) {
    const Function& f = p.functions[fi];
    for (u32 pc = 0; pc < f.code.size(); ++pc) {
      const Instr& in = f.code[pc];
      if (!is_site(in)) continue;
      Site s;
      s.function = static_cast<u32>(fi);
      s.pc = pc;
      s.line = in.line;
      s.source = p.source_of(f, in);
      s.text = p.text_of(in);
      const SiteShape sh = shape_of(f, in);
      s.op = sh.op;
      s.width_bytes = sh.width;
      s.writes = sh.writes;
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
  };
  std::vector<FlatIndex> first_of(run.sites.size());
  std::vector<std::vector<Known>> known(run.sites.size());
  std::size_t patterns = 0;
  Runner r(p, entry, l, m);
  r.site_of = [&](u32 fi, u32 pc) { return site_index.at((static_cast<u64>(fi) << 32) | pc); };
  i64 warp = 0;
  const auto on_issue = [&](std::size_t si, i64 execution, const Issue& is) {
    Site& s = run.sites[si];
    ++s.executed;
    if (is.cta) s.cta_dependent = true;
    if (is.cta && (l.grid[0] * l.grid[1] * l.grid[2] > 1)) run.cta_dependent_any = true;
    if (is.divergent && s.divergent.empty())
      s.divergent = "warp " + std::to_string(warp) + ", execution " + std::to_string(execution) +
                    ": other lanes of the warp wait at another instruction";
    bool any_unknown = false, any_active = false;
    for (const LaneState st : is.state) any_unknown = any_unknown || st == LaneState::unknown, any_active = any_active || st == LaneState::active;
    if (any_unknown) {
      ++s.unknown_issues;
      s.counts_known = false;
      if (s.unknown.empty()) s.unknown = m.reasons[is.why];
      return;
    }
    if (!any_active) return;
    // Counts the issue's wavefronts (bank-modelled sites) from `counts`, or records why not.
    const auto count = [&](const Wavefronts& counts, bool invalid, const std::string& error) {
      if (!s.bank_modelled || invalid) {
        s.counts_known = false;
        if (invalid && s.invalid.empty()) s.invalid = "warp " + std::to_string(warp) + ", execution " + std::to_string(execution) + ": " + error;
        return;
      }
      s.wavefronts = checked_add(s.wavefronts, counts.wavefronts);
      s.ideal = checked_add(s.ideal, counts.ideal);
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
          (s.patterns[k].written == is.written || (s.patterns[k].written && is.written && *s.patterns[k].written == *is.written))) {
        count(chain[k].counts, chain[k].invalid, "");
        ++s.patterns[k].count;
        s.patterns[k].divergent = s.patterns[k].divergent || is.divergent;
        s.patterns[k].cta_dependent = s.patterns[k].cta_dependent || is.cta;
        return;
      }
    Known fresh;
    std::string error;
    if (s.bank_modelled) {
      try {
        fresh.counts = count_wavefronts(SmemAccess{s.trace.op, s.width_bytes, is.addr});
      } catch (const LayoutError& e) {
        fresh.invalid = true;
        error = e.what();
      }
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
    pt.written = is.written;
    s.patterns.push_back(pt);
  };
  const i64 warps = ceil_div(run.threads, kWarpLanes);
  for (warp = 0; warp < warps; ++warp) r.run_warp(warp, on_issue);
  run.stopped = r.stopped();
  run.stopped_warps = r.stopped_warps();
  run.warp_steps = r.steps();
  run.cta_control = r.cta_control();
  run.not_lane_addressed = r.nla_;
  std::sort(run.not_lane_addressed.begin(), run.not_lane_addressed.end());
  run.not_modelled = m.not_modelled;
  if (!r.harmless_stop().empty())
    run.not_modelled.push_back("a lane finished early where no shared-memory instruction is reachable (" + r.harmless_stop() + ")");
  return run;
}

std::optional<std::array<i64, kWarpLanes>> replay_issue(const Program& p, std::size_t entry, const Launch& l, u32 function,
                                                        u32 pc, i64 warp, i64 execution) {
  check_launch(p, entry, l);
  Machine m(p, l);
  place_symbols(p, entry, l, m);
  Runner r(p, entry, l, m);
  r.site_of = [](u32, u32) { return std::size_t{0}; };
  std::optional<std::array<i64, kWarpLanes>> out;
  bool bad = false;
  const u64 want = (static_cast<u64>(function) << 32) | pc;
  // Each lane's address as this warp alone computes it; the site is identified by its position.
  r.site_of = [&](u32 fi, u32 ipc) { return static_cast<std::size_t>((static_cast<u64>(fi) << 32) | ipc) == want ? 1u : 0u; };
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
  });
  if (bad) return std::nullopt;
  return out;
}

}  // namespace layoutproof::ptx
