#pragma once
// The executor's state (model/compiled/ptx_exec.hpp): one value per register per lane, each either
// known (its bits) or unknown with the reason, and the semantics of the integer and bit opcodes
// (ptx_alu.cpp), evaluated for every lane of one issue at once. Internal to model/compiled/.
//
// Registers are one file per warp, register-major: register r of lane k is file[r * 32 + k], so
// one issue's operand is 32 adjacent values. Every lane of an issue sits in the same frame (the
// same functions at the same call instructions: its register window starts at the same row), so
// an instruction is decoded once and its operands read as rows.
//
// A value also remembers the shared symbol its bits derive from (`placement`: the symbol's address
// plus offsets, possibly XOR-swizzled, as CuTe's smem pointers are), so that `in-bounds` checks an
// address against the symbol it was computed from, not whichever symbol happens to hold it.
//   add/sub/and/or/xor/lop3 with one operand derived from a symbol keep it; mad keeps its addend's;
//   mov, cvt, cvta keep it; selp/min/max keep the chosen operand's; anything else derives from none.
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/compiled/ptx_exec.hpp"

namespace layoutproof::compiled {

// A symbolic value (ptx_exec.hpp Term) is one that is not known (why: the free parameter's
// reason, for every reader unaware of symbols) with `sym` naming its term in Machine::terms and
// `symw` its width: the value is the term mod 2^symw, zero-extended. Code that copies a Val
// unchanged keeps the term; code that makes a new one from `why` drops it (unknown, never wrong).
// The fields fill Val's padding: it stays 24 bytes, so the concrete path does not slow down.
struct Val {
  u64 v = 0;
  u32 why = 0;          // 0: known; else a reason (Machine::reasons)
  int placement = -1;   // the Placement its bits derive from (-1: none)
  bool cta = false;     // depends on %ctaid
  u8 symw = 0;          // sym != 0: the term's width
  bool window = false;  // computed from a generic address in the shared window (cvta.shared)
  // Not known and not a term: its low lowk bits are still v's (a partly known value: ptxas's prmt
  // of a known register's bytes into one never written, as it clears a byte counter; alu.hpp).
  u8 lowk = 0;
  u32 sym = 0;          // 0: not symbolic; else Machine::terms index
  bool known() const { return why == 0; }
};
static_assert(sizeof(Val) == 24, "Val is copied per lane per instruction: keep it small");

// v as a register or memory cell of `bits` bits holds it: a known value masked to them, a term
// truncated (exact), a partly known value known once its known low bits cover them.
inline void truncate(Val& v, int bits) {
  if (!v.known() && !v.sym && v.lowk >= bits) v.why = 0, v.lowk = 0;
  if (v.known()) v.v = mask_bits(v.v, bits);
  else if (v.sym && v.symw > bits) v.symw = static_cast<u8>(bits);
}

// A predicate that is a condition over the symbols (setp of a term: a guard or branch on %ctaid
// or a free parameter) is an unknown Val whose Machine::conds index is kept in `placement` as
// -2 - index: a predicate derives from no shared symbol, and every reader of placements takes
// only those >= 0. Copies keep it; arithmetic on it makes a value derived from nothing.
inline u32 cond_of(const Val& v) { return !v.known() && !v.sym && v.placement <= -2 ? static_cast<u32>(-2 - v.placement) : 0; }
inline Val cond_val(u32 c, u32 why, bool cta) {
  Val v;
  v.why = why;
  v.placement = -2 - static_cast<int>(c);
  v.cta = cta;
  return v;
}

// Whether two values are the same in every field (the same bits, reason, term, placement).
inline bool identical(const Val& a, const Val& b) {
  return a.v == b.v && a.why == b.why && a.placement == b.placement && a.cta == b.cta && a.symw == b.symw && a.window == b.window &&
         a.lowk == b.lowk && a.sym == b.sym;
}

struct Frame {
  u32 function = 0;
  u32 pc = 0;           // the current instruction (a caller frame: its call instruction)
  u32 reg_base = 0;     // this frame's first register row in the warp's RegFile
  u32 param_base = 0;   // this frame's param slots (Lane::cells' slot numbers)
  // A SASS subroutine (CALL.REL to code of the same function): it shares its caller's registers
  // and parameters, and returns past the call.
  bool subroutine = false;
};

// A byte range of param space: a call's argument, a return value, a kernel parameter's field.
struct Cell {
  u32 slot = 0;
  i64 offset = 0;
  Val value;
};

// The registers of one warp: rows of kWarpLanes values (row = a frame's reg_base + register).
struct RegFile {
  std::vector<Val> v;
  Val& at(u32 row, int lane) { return v[static_cast<std::size_t>(row) * kWarpLanes + static_cast<std::size_t>(lane)]; }
  Val* row(u32 r) { return v.data() + static_cast<std::size_t>(r) * kWarpLanes; }
  // Rows [first, first + count) of `lane` become `fill`; the file grows to hold them.
  void open(u32 first, u32 count, int lane, const Val& fill) {
    const std::size_t need = (static_cast<std::size_t>(first) + count) * kWarpLanes;
    if (v.size() < need) v.resize(need, fill);
    for (u32 r = first; r < first + count; ++r) at(r, lane) = fill;
  }
};

// A value this lane stored to its local memory (the stack: SASS's STL, PTX's st.local) at a known
// byte address, `bytes` wide.
struct LocalCell {
  u64 addr = 0;
  int bytes = 0;
  Val value;
};

// Whether two lanes' param cells (local memory) are the same, cell by cell.
inline bool same_cells(const std::vector<Cell>& a, const std::vector<Cell>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].slot != b[k].slot || a[k].offset != b[k].offset || !identical(a[k].value, b[k].value)) return false;
  return true;
}
inline bool same_local(const std::vector<LocalCell>& a, u32 alost, const std::vector<LocalCell>& b, u32 blost) {
  if (a.size() != b.size() || alost != blost) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].addr != b[k].addr || a[k].bytes != b[k].bytes || !identical(a[k].value, b[k].value)) return false;
  return true;
}

struct Lane {
  std::vector<Frame> stack;  // empty: finished
  RegFile* file = nullptr;   // the warp's registers (this lane's column)
  std::vector<Cell> cells;
  // Local memory is the thread's own: what it stored is what it loads. A store to an address not
  // known may have overwritten any cell: the cells are dropped and later loads are not known, why.
  std::vector<LocalCell> local;
  u32 local_lost = 0;
  u32 next_slot = 0;
  std::array<i64, 3> tid{0, 0, 0};
  i64 linear = 0;
  int lane = 0;
  bool stopped = false;      // finished early: a branch or call the model cannot follow
  bool cta_path = false;     // a branch it took depended on %ctaid
  // The condition over the symbols under which this lane is here (Machine::conds; 0: always): the
  // branches on conditions it went past (ptx_warp.cpp branch_on_cond). Its issues hold where it does.
  u32 path = 0;
  // A region the lane runs only where a condition holds (an if without else whose condition is
  // over the symbols): at `join` (instruction, frame depth) its registers are merged with the
  // ones it had at the branch (a register the region changed is not known after it) and its path
  // is `path` again.
  //
  // Two-sided (an if/else both of whose sides reach shared memory, the branch's condition over
  // the symbols for some lane of the warp): every lane of the issue runs the taken side (side 0)
  // where its condition holds, then, when all are at the join, the other side from `other` under
  // `other_path` with the registers it had at the branch; when all are at the join again, each
  // register is what the sides agree on (not known where they differ). A lane whose own branch is
  // known (`decided`: 1 taken, 0 not) runs its side alone and keeps what it computed there.
  struct Pending {
    u32 function = 0, join = 0, depth = 0, line = 0;
    u32 path = 0;
    std::vector<Val> regs;
    std::vector<Cell> cells;
    std::vector<LocalCell> local;
    u32 local_lost = 0;
    bool two_sided = false;
    int decided = -1;
    int side = 0;
    u32 other = 0, other_path = 0;
    // Side 0's registers, cells and local memory at the join (two-sided, decided -1, side 1).
    std::vector<Val> side0_regs;
    std::vector<Cell> side0_cells;
    std::vector<LocalCell> side0_local;
    u32 side0_local_lost = 0;
  };
  std::vector<Pending> pending;
};

struct Machine {
  Machine(const Program& p, const Launch& l) : program(p), launch(l) {}
  const Program& program;
  const Launch& launch;
  std::vector<Placement> placements;
  std::vector<int> placement_of_symbol;  // Program::shared index -> placement (-1: not used)
  std::vector<std::string> reasons{""};
  std::unordered_map<std::string, u32> reason_ids;
  std::vector<std::string> not_modelled;
  // Free parameters' symbols and the affine terms computed from them (terms[0] unused).
  std::vector<Symbol> symbols;
  std::vector<Term> terms{Term{}};
  static constexpr std::size_t kMaxTerms = std::size_t{1} << 21;
  // A symbolic Val for term t at width w (w <= t.w: t is reduced); an unknown one with `why`
  // when the table is full (kMaxTerms: memory stays bounded in a long loop).
  Val symbolic(const Term& t, int w, u32 why, int placement, bool cta);
  // Conditions over the symbols (ptx_exec.hpp Cond; conds[0]: true). cond() adds one (kNoCond
  // when the table is full: the caller then makes the value unknown); cond_and(x, y) is x && y
  // with true (0) folded; cond_not(x) is !x (x != 0). Each passes kNoCond on.
  static constexpr u32 kNoCond = UINT32_MAX;
  // %ctaid / %nctaid of dimension `dim` as a symbol (Launch::every_cta, every_grid), made on first
  // read; unknown when kMaxSymbols are in use.
  Val cta_symbol(Symbol::Kind kind, int dim);
  // The iteration symbol of the loop whose back edge is instruction `pc` of function `fi` (PTX line
  // `line`), made on first use and shared by every warp; -1 when kMaxSymbols are in use.
  int iteration_symbol(u32 fi, u32 pc, u32 line);
  // The derived symbol `d` (ptx_exec.hpp Derived), made on first use (one per distinct definition:
  // every lane that computes (K - 1) >> 3 shares it); -1 when kMaxSymbols are in use.
  int derived(const Derived& d, const std::string& what);
  bool reads_cta = false;  // some lane read %ctaid or %nctaid
  std::vector<Cond> conds{Cond{}};
  std::unordered_multimap<u64, u32> cond_ids;  // a condition's hash -> its ids (ptx_alu.cpp)
  u32 cond(const Cond& c);
  u32 cond_and(u32 x, u32 y);
  u32 cond_not(u32 x);
  // A fresh data atom (ptx_exec.hpp Cond::Kind::data) for a guard not known because of `why` (a
  // reason id), which decides the branch at PTX/SASS line `line`, instruction `at` ((function <<
  // 32) | pc, kept in a.c[0]); kNoCond when the table is full.
  u32 data_cond(u32 why, u32 line, u64 at);
  u64 data_atoms = 0;  // data atoms made so far: the next one's serial
  std::unordered_map<u64, u32> data_reasons;  // (why << 32 | line) -> the atom's reason id

  // The id of a reason text (interned).
  u32 reason(const std::string& text);
  // "line L: what" for an instruction.
  u32 reason_at(const Instr& in, const std::string& what) { return reason("line " + std::to_string(in.line) + ": " + what); }
  // The same, built once per (instruction, kind): the reasons the hot path gives every lane.
  std::unordered_map<const Instr*, u32> once[4];
  // The last instruction asked, per kind: lanes of one issue ask in a row.
  const Instr* once_last[4] = {nullptr, nullptr, nullptr, nullptr};
  u32 once_last_id[4] = {0, 0, 0, 0};
  template <class F>
  u32 reason_once(const Instr& in, int kind, F&& what) {
    if (once_last[kind] == &in) return once_last_id[kind];
    auto [it, fresh] = once[kind].try_emplace(&in, 0);
    if (fresh) it->second = reason_at(in, what());
    once_last[kind] = &in;
    return once_last_id[kind] = it->second;
  }
  std::string mnemonic(const Instr& in) const;
  // Per source operand of an instruction executed for a group: the lanes' values where they are
  // read lane by lane (ptx_alu.cpp). Here, not on the stack: filled only for those operands.
  std::array<std::array<Val, kWarpLanes>, 4> scratch;
};

// Register r of the lane's top frame.
inline Val& reg(Lane& ln, u32 r) { return ln.file->at(ln.stack.back().reg_base + r, ln.lane); }
inline const Val& reg(const Lane& ln, u32 r) { return ln.file->at(ln.stack.back().reg_base + r, ln.lane); }

// The lanes of one issue that execute an instruction (bit k: lane k of `lanes`), all in the same
// frame (`reg_base`).
struct Group {
  std::vector<Lane>& lanes;
  RegFile& file;
  u32 reg_base = 0;
  u32 mask = 0;
};

// Operand k of an instruction.
inline const Operand& arg(const Function& f, const Instr& in, u32 k) { return f.operands[in.first + k]; }

// The operand's value for lane `ln` (registers of its top frame, specials, immediates, symbols).
Val read_operand(Machine& m, const Lane& ln, const Function& f, const Operand& o, const Instr& in);
// Writes `v` (masked to `bits`) to a register operand; a sink or non-register is ignored.
void write_operand(Lane& ln, const Function& f, const Operand& o, Val v, int bits);
// Every register the operand names (a vector's elements) becomes unknown with `why`.
void write_unknown(Lane& ln, const Function& f, const Operand& o, u32 why);
// Executes a non-memory, non-control, non-collective instruction for the group's lanes: decoded
// once, each opcode's semantics a loop over the lanes.
void execute_alu(Machine& m, Group& g, const Function& f, const Instr& in);

// The lanes' state in one issue.
enum class LaneState : u8 { absent, inactive, active, unknown };

struct Issue {
  std::array<LaneState, kWarpLanes> state{};
  std::array<i64, kWarpLanes> addr{};
  std::array<int, kWarpLanes> placement{};
  u32 why = 0;
  bool cta = false, divergent = false;
  std::shared_ptr<const Written> written;  // a store whose active lanes share a byte: their data
  bool global_known = false;  // cp.async: every active lane's global address is known
  std::array<i64, kWarpLanes> global_line{};  // cp.async: each active lane's global byte address
  // cp.async.cg: how many other .cg copies of the warp are in flight when it issues (issued and not
  // waited for by a cp.async.wait_group / DEPBAR.LE SB0).
  u32 cg_in_flight = 0;
  // Per lane, the address term of a lane whose address depends on free parameters (its state is
  // unknown; ptx_exec.hpp SymbolicIssue): empty when there is none. unknown_lanes: some lane's
  // address or guard is not known at all (the issue is then not symbolic).
  std::vector<Term> sym;
  bool unknown_lanes = false;
  // Per lane, the condition under which it is active (Machine::conds; 0: always; empty: none has one).
  std::vector<u32> when;
  // A generic access: some lane's address is in the shared window (those lanes are the issue's),
  // some active lane's is outside it (global: inactive in the issue).
  bool window = false, outside = false;
  // Some lane is here under a path condition (Lane::path: a branch on data or on the symbols): in
  // a launch the warp may not issue it at all, so its executed count is not known. A guard alone
  // does not do this: a predicated-off instruction still issues.
  u32 path = 0;  // such a lane's path (0: none)
};

// Which instructions touch shared memory (ptx_sites.cpp). A site: an instruction the executor
// counts: a shared-memory instruction, or a generic access (ld/st/atom/red without a state space),
// whose lanes touch shared memory where their address is in the shared window (cvta.shared; SASS:
// the high word SR_SWINHI's), decided each time it runs. not_counted_why: why an instruction
// that is not a site touches shared memory from its opcode alone ("" when it does not, or when
// only its address can tell); `mnemonic` is its opcode as written. may_touch_shared: any of these,
// or a call (what a lane that stops there may miss).
bool is_site(const Instr& in);
bool is_generic_access(const Instr& in);
std::string not_counted_why(const Instr& in, const std::string& mnemonic);
bool may_touch_shared(const Instr& in, const std::string& mnemonic);
// The address operand of an access: ld/atom: the second; st/red/cp.async/stmatrix: the first.
const Operand* address_operand(const Function& f, const Instr& in);

// What one run lists as not counted (ptx_exec.hpp NotCounted), each instruction once, and the
// opcodes outside the model it met (Machine::not_modelled).
class NotCountedList {
 public:
  NotCountedList(const Program& p, Machine& m) : p_(p), m_(m) {}
  // After `in` (function fi, instruction pc; not a site) ran for `group`: lists it when it
  // touches shared memory. A generic access is listed when, in some lane that may run it, its
  // address is in the shared window or is not known.
  void note(const std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
            const std::array<u32, kWarpLanes>& guard_unknown, const Function& f, u32 fi, u32 pc, const Instr& in);
  // Lists `in` with why (once); maybe: whether it touches shared memory is not known (a generic
  // address not known, a call into code not seen).
  void add(u32 fi, u32 pc, const Instr& in, const std::string& why, bool maybe = false);
  const std::vector<NotCounted>& list() const { return list_; }
  const std::vector<AsyncOp>& async_ops() const { return async_; }

 private:
  void note_generic(const std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
                    const std::array<u32, kWarpLanes>& guard_unknown, const Function& f, u32 fi, u32 pc, const Instr& in);
  const Program& p_;
  Machine& m_;
  std::vector<NotCounted> list_;
  std::unordered_set<const Instr*> classified_;  // non-site instructions already looked at
  std::unordered_set<const Instr*> listed_;      // the instructions in list_
  // TMA copies, WGMMAs and mbarrier expect_tx (PTX), with their operands; executions per (instruction, warp).
  AsyncOp started(const Lane& ln, u32 fi, u32 pc, const Instr& in, const std::string& mnemonic);
  void record_sass_gmma(const std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active, u32 fi,
                        u32 pc, const Instr& in, const std::string& mnemonic);
  void record_async(const std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
                    const Function& f, u32 fi, u32 pc, const Instr& in, const std::string& mnemonic);
  std::vector<AsyncOp> async_;
  std::unordered_map<u64, i64> async_executions_;
  std::unordered_map<const Instr*, std::string> async_mnemonic_;  // a TMA copy's, WGMMA's (PTX or SASS), expect_tx's or wait's mnemonic; "" for any other
};

// A site's op in the bank model's terms: ldmatrix/stmatrix .xN -> ldsmN/stsmN, cp.async -> ldgsts,
// ld -> ld, anything else (st, atom, red) -> st. Its address_lanes() are the lanes an issue reads
// an address from: the others are not part of the issue (inactive), whatever they hold.
SmemOp site_smem_op(const Opcode& c);

// Runs the warps of a launch one at a time (ptx_warp.cpp): each warp's lanes in lock step, every
// site issue reported to `on_issue(site, execution, issue)`, where site = site_of(function, pc)
// and execution counts the warp's issues of that site from 0.
class WarpRunner {
 public:
  using OnIssue = std::function<void(std::size_t, i64, const Issue&)>;
  WarpRunner(const Program& p, std::size_t entry, const Launch& l, Machine& m);
  ~WarpRunner();
  void set_site_of(std::function<std::size_t(u32, u32)> f);
  void run_warp(i64 w, const OnIssue& on_issue);
  // From on_issue: the warp ends after this instruction, its later issues not run (a replay that
  // has the one issue it re-executes the warp for).
  void finish_warp();
  i64 steps() const;
  bool cta_control() const;
  const std::string& stopped() const;
  const std::string& trapped() const;  // the first trap run where no condition over the symbols held it ("": none)
  const std::string& harmless_stop() const;  // a stop after which no shared access was reachable
  const std::vector<i64>& stopped_warps() const;
  // Whether a lane that stopped could still have reached site `site` (its counts then miss issues).
  bool after_stop(std::size_t site) const;
  const std::vector<NotCounted>& not_counted() const;
  const std::vector<AsyncOp>& async_ops() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};


}  // namespace layoutproof::compiled
