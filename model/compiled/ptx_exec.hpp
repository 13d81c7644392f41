#pragma once
// Running a decoded PTX kernel (model/compiled/ptx_ir.hpp) for every thread of ONE concrete CTA and
// collecting its shared-memory instructions as the project's one address-trace type
// (model/trace/trace.hpp): one AddressTrace per shared-memory instruction of the PTX (a site),
// holding each distinct warp-level issue of it. Every count and claim then goes through the same
// bank model (model/bank/bank.hpp) and trace claims (proofs/claims/trace_claims.hpp) as `trace`.
//
// Values. Execution is concrete: %tid, %ntid (the block), %ctaid (CTA (0,0,0)), %nctaid (the
// grid), %laneid and %lanemask_* (from the linear thread index: lane = linear % 32), the kernel
// parameters fixed by the launch, and the shared symbols' addresses. Anything else is UNKNOWN and
// carries its reason: a parameter left free, a value loaded from memory (global, local, shared:
// data is never modelled), a floating-point result, %warpid (the hardware's warp slot, not
// tid/32), an opcode outside the model. An address that depends on one is UNKNOWN, never
// guessed; a branch on one stops the lane (its warp's later issues are missing: the run says so).
//
// Warps and issues. Each warp runs its 32 lanes in lock step: at every step the lanes that are not
// finished and sit at the lowest position (the instruction index, under the call stack) execute
// that instruction together as ONE warp-level issue; lanes whose guard `@p` is false are inactive
// in it. For a warp whose lanes take the same branches (guards may differ) this is exactly the
// hardware's issue: the k-th execution of an instruction by the warp.
// Divergence. When the lanes of an issue go to different places (a branch, a guarded call, ret or
// exit), they reconverge at the instruction's immediate post-dominator in the function's
// control-flow graph (model/compiled/ptx_cfg.hpp; past the function's end: the caller's next
// instruction), where nvcc's convergence barriers (BSSY/BSYNC) put them together again: the lanes
// that reach it wait there until the others have, and then run on as one issue. Until then each
// path runs alone, the lowest position first, and each of its instructions is one issue of that
// path's lanes, which is what the hardware issues (a region nested inside opens its own join).
// Example: `if (lane < 16) s[a] = x; else s[b] = y; v = s[c];` -> two stores of 16 lanes, one load
// of 32. Where the paths of a region can meet before its join (ptx_cfg.hpp: not separate: a jump
// into shared code, a loop without a single exit), or no join exists (an endless loop), how the
// hardware groups the lanes is not modelled: every issue while that region is open is marked
// divergent, and the claims that depend on grouping (bank conflicts, overlap) are UNKNOWN there.
//
// Shared memory. Static `.shared` symbols used by the kernel (and the functions it calls) are laid
// out from byte 0, module-scope ones in declaration order, then each function's own (the kernel's
// first, then its callees' as ptx_parse.hpp kernel_functions walks them), each at the next
// multiple of its alignment (`.align`, else its element size); dynamic (`extern`) shared memory
// starts after them at the next multiple of max(16, its .align). ptxas may order symbols
// otherwise, and sm_80/sm_90 place every user symbol after 1 KiB of reserved shared memory; both
// move a symbol by a multiple of its alignment, which changes no bank conflict, wavefront count
// or alignment verdict of accesses within one symbol (a common shift by a multiple of the access
// width maps banks to banks one to one).
// `--smem-bytes` is the dynamic shared memory's size (in-bounds needs it for dynamic accesses).
//
// Counts (Nsight Compute's, for one CTA): per site, executed = warp-level issues (all lanes
// guarded off included), wavefronts and ideal = the bank model's sums over the issues with an
// active lane. atom/red are recorded (aligned, in-bounds) but the bank model has no rule for them:
// their wavefronts are not known.
//
// Nothing cut is invisible. A lane the model cannot follow stops (KernelRun::stopped names why:
// a branch on a value not known, calls nested deeper than kMaxCallDepth, the step limit, the
// deadline), and a stop makes every claim on the kernel UNKNOWN: the issues it would have made
// are missing. The one exception: a kernel-level lane from whose position no instruction that may
// touch shared memory is reachable misses nothing (noted, not a stop). An instruction that touches
// shared memory and is not a site is listed (NotCounted), never left out.
#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/compiled/assume.hpp"
#include "model/compiled/ptx_ir.hpp"
#include "model/trace/trace.hpp"

namespace layoutproof::compiled {

// Free parameters as symbols. A parameter (or bytes of one) that no --param fixes is a SYMBOL
// P_i: its bits, read unsigned (0 <= P_i < 2^bits). A value computed from symbols stays exact as
// long as it is an affine term
//   value = (c0 + c_0 * P_0 + ... + c_(n-1) * P_(n-1)) mod 2^w      (Term; w <= 64)
// add/sub, mul/shl by a constant, mad with a constant factor, neg/not, mov, truncations (cvt to
// fewer bits, and with a low mask 2^j - 1), zero extensions, and bit operations whose other
// operands are known (and/or/xor/lop3, bfe from bit 0) where the result is again one term (they
// only clear, set or flip the term's known low bits, flip its top bit or truncate it: ptx_alu.cpp
// masked_term) keep that form; an operation at a width wider than its symbolic operand's w (whose
// wrap-around it cannot express), a sign extension, and every other operation (comparisons,
// shifts right, division, min/max, products of two symbols) make the value unknown, naming why.
// A branch or guard that depends on a symbol is
// never decided (the lane stops, the guard is not known), so every issue a run records happens
// for every value of the symbols, with each lane's address the same term: the claims decide it
// for all values at once (proofs/claims/ptx_claims.hpp).
// Example: broadcast(float* out, int k) reads s[k]: every lane's address is (s + 4 * P_0) mod 2^32.
inline u64 mask_bits(u64 v, int bits) { return bits >= 64 ? v : v & ((u64{1} << bits) - 1); }
inline i64 sign_extend(u64 v, int bits) {
  if (bits >= 64) return static_cast<i64>(v);
  const u64 m = u64{1} << (bits - 1);
  return static_cast<i64>((mask_bits(v, bits) ^ m) - m);
}

constexpr int kMaxSymbols = 16;
struct Term {
  int w = 64;
  u64 c0 = 0;
  std::array<u64, kMaxSymbols> c{};
  bool operator==(const Term&) const = default;
};
// A value that is not affine in the symbols, computed from them by one operation (a trip count
// (K - 1) >> 3, min(K, 64), the product of a loop's iteration and a symbolic stride): a symbol of
// its own, `w` bits, equal to op(a, b) with each operand read at in_w bits (a Term at its width,
// zero-extended, as a register holds it). The claims' encoding defines it so (proofs/smt), so it
// is exact: nothing is lost but the affine form. Shift amounts are read at 32 bits (in_w >= 32).
struct Derived {
  enum class Op : u8 { none, add, sub, mul, mulhi_u, mulhi_s, mulwide_u, mulwide_s, div_u, div_s, rem_u, rem_s,
                       min_u, min_s, max_u, max_s, and_, or_, xor_, shl, shr_u, shr_s };
  Op op = Op::none;
  int w = 32, in_w = 32;
  Term a, b;
  bool operator==(const Derived&) const = default;
};
// Besides parameters, a launch whose claims are about every CTA (Launch::every_cta) makes %ctaid
// a symbol per dimension read (0 <= ctaid < nctaid), and one about every grid (every_grid)
// %nctaid too (1 <= nctaid.x < 2^31, 1 <= nctaid.y, nctaid.z <= 65535): 32 bits each. A loop
// whose trip count depends on the symbols is run once for all its iterations (exec/loop_summary.hpp):
// its iteration is a symbol i of 64 bits (`param`: the function, `offset`: the back edge's
// instruction; `dim`: its PTX line), the body run with i standing for iteration 1 + i. A derived
// symbol is `def` of earlier ones.
struct Symbol {
  enum class Kind : u8 { param, ctaid, nctaid, iteration, derived };
  std::size_t param = 0;  // Function::params index (SASS: 0, the parameter buffer)
  i64 offset = 0;         // its first byte inside that parameter
  int bits = 32;          // its width: the load's
  std::string name;       // "parameter 1 (_Z9broadcastPfi_param_1)"
  Kind kind = Kind::param;
  int dim = 0;            // ctaid, nctaid: 0 x, 1 y, 2 z
  Derived def;            // derived: what it is
};
// The term's value for symbol values `p` (missing ones 0; a derived symbol's: see symbol_values).
u64 evaluate(const Term& t, const std::vector<u64>& p);
// Every symbol's value from the values `p` of the others (a parameter, the CTA, an iteration): each
// derived one computed from its definition, as the claims' encoding defines it (its concrete twin).
std::vector<u64> symbol_values(const std::vector<Symbol>& symbols, std::vector<u64> p);

// A condition over the symbols: what a guard or a branch that depends on them decides. A
// comparison of two terms at width w (setp's: eq ne, lt le gt ge signed or not, lo ls hi hs), or
// the boolean combination of two conditions (x, y: KernelRun::conds indexes; not_: x alone).
// Index 0 of a conds table is "true" (no condition). Example: `if (blockIdx.x * 256 + tid < n)`
// in lane 3 is cmp{lt, unsigned, 32, 256 ctaid.x + 3, P_n}.
//
// A data atom (Kind::data) is a branch the kernel's data decides: a lane's guard on a value the
// model does not know (one loaded from memory, an opcode outside the model). It is a free Boolean
// of its own, one per lane per execution of the branch (a.c0: its serial number; b.c0: the
// reason's id, Machine::reasons / KernelRun::data_why), with x = y = 0 so that every walker of the
// table sees a leaf. Both sides run (exec/symbolic_if.hpp, exec/loop_summary.hpp), so a claim is
// decided for every value the data may take; a violation needs data the run cannot produce, so it
// is never REFUTED (proofs/claims/ptx_symbolic.cpp), and an issue under a data atom has no count.
// Example: `if (s[tid] > s[tid + 1]) swap(...)`: the stores run in lane k where d_k holds.
struct Cond {
  enum class Kind : u8 { cmp, not_, and_, or_, xor_, data };
  Kind kind = Kind::cmp;
  Cmp cmp = Cmp::eq;
  bool is_signed = false;
  int w = 32;
  Term a, b;
  u32 x = 0, y = 0;
};
// The condition's value for symbol values `p` (conds: its table). A data atom has no value in the
// symbols: it reads false (a caller deciding anything from the value asks data_atom_in first).
bool evaluate(const std::vector<Cond>& conds, u32 c, const std::vector<u64>& p);
// The first data atom condition c reads (its index in conds), 0 when it reads none.
u32 data_atom_in(const std::vector<Cond>& conds, u32 c);

struct Launch {
  std::array<i64, 3> block{0, 0, 0};          // threads per CTA (x, y, z); all > 0
  std::array<i64, 3> grid{1, 1, 1};           // %nctaid
  std::array<i64, 3> cta{0, 0, 0};            // %ctaid: the one CTA run (each < grid's)
  bool cta_chosen = false;                    // the CTA was asked for (--cta): verdicts are about it alone
  // The cluster's shape (--cluster): none, %cluster_* are not known (a kernel that reads them needs
  // it: the launch attribute says it, the PTX need not).
  std::optional<std::array<i64, 3>> cluster;
  // The claims' domain: every CTA of the grid (no --cta: %ctaid a symbol) and of every grid (no
  // --grid: %nctaid a symbol too). The run for counts is a concrete one (concrete_launch).
  bool every_cta = false, every_grid = false;
  std::vector<std::optional<u64>> params;     // per kernel parameter: its value, or free (nullopt)
  // Bytes inside a parameter (an aggregate's field, or SASS's one parameter buffer): `bytes` bytes
  // at `offset` of parameter `param` hold `value` (little-endian). A read inside one field is known.
  struct Field {
    std::size_t param = 0;
    i64 offset = 0, bytes = 8;
    u64 value = 0;
  };
  std::vector<Field> fields;
  i64 dynamic_smem_bytes = -1;                // -1: not given
  // The domain of a free parameter's symbol (--param-range I=LO..HI): LO <= P <= HI, its bits read
  // signed. Not used by the run (it decides nothing with a symbol); the claims assume it.
  struct Range {
    std::size_t param = 0;
    i64 offset = 0;  // the symbol's first byte in the parameter (SASS: in the buffer)
    i64 lo = 0, hi = 0;
  };
  std::vector<Range> ranges;
  // What the launches of the claims' domain satisfy besides (--assume; model/compiled/assume.hpp),
  // bound to this launch: the claims assume them; the run decides nothing with them.
  std::vector<Assumption> assumptions;
  i64 max_warp_steps = i64{1} << 24;          // warp-level instruction executions, whole CTA
  // Paths one lane runs at once (--max-paths): each open if on a condition over the symbols
  // doubles them (ptx_machine.hpp Lane::Pending); past this the lane stops, its sites UNKNOWN.
  std::size_t max_paths = 64;
  std::size_t max_patterns = std::size_t{1} << 20;  // distinct issues kept for claims, all sites
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

struct Placement {
  u32 symbol = 0;  // Program::shared index
  i64 base = 0;
  i64 bytes = 0;   // dynamic: the launch's --smem-bytes (-1: not given)
};

// What the active lanes of a store issue write, kept only for issues in which two active lanes
// write a common byte (no-overlap compares their data there: equal data is not a conflict).
// A lane's bytes are its source operands' values, little-endian, element after element
// (`st.shared.v2.u32 [a], {%r3, %r6}`: %r3's 4 bytes, then %r6's); `why` is empty when every byte
// is known, else why not (a value loaded from memory, stmatrix's data held by other lanes, ...).
struct Written {
  std::array<std::array<u8, 16>, kWarpLanes> bytes{};
  std::array<std::string, kWarpLanes> why{};
  bool operator==(const Written&) const = default;
};

// The lanes of an issue are those the instruction reads an address from (model/bank/bank.hpp
// address_lanes: ldmatrix/stmatrix .xN lanes 0..8N-1, else all): lanes 8N..31 are inactive in it
// whatever they hold.
// One distinct warp-level issue of a site (parallel to the site's trace.instructions).
struct Pattern {
  i64 warp = 0, execution = 0;   // its first occurrence: the warp's execution-th issue of the site
  i64 count = 0;                 // issues with exactly these lanes
  std::array<int, kWarpLanes> placement{};  // per active lane: the Placement its address derives from (-1: none)
  bool divergent = false;
  bool cta_dependent = false;
  std::shared_ptr<const Written> written;  // stores whose active lanes share a byte (else null)
  i64 ldgsts_wavefronts = -1;    // cp.async with its global side known: its wavefronts (0: not known)
  std::array<i64, kWarpLanes> global_line{};  // (the lanes' global byte addresses; compared to dedupe)
};

// A distinct warp-level issue of a site in which some active lane's address is an affine term in
// free parameters (Symbol) and every other lane is known: its lanes' addresses for every value.
// A known lane's address is the constant term. The claims decide these with Z3.
struct SymbolicIssue {
  i64 warp = 0, execution = 0, count = 0;
  std::array<bool, kWarpLanes> active{};     // the lane may be active: it is where `when` holds
  std::array<u32, kWarpLanes> when{};        // KernelRun::conds index (0: always)
  std::array<Term, kWarpLanes> addr{};       // active lanes: the byte address (w <= 32)
  std::array<int, kWarpLanes> placement{};
  bool divergent = false;
  bool cta_dependent = false;
};

// Why a generic access of 1 or 2 bytes has no count: the H200 sweep measured 4, 8 and 16.
inline constexpr const char* kNarrowGenericWhy =
    "a generic access of fewer than 4 bytes: its wavefronts on the shared window are not measured (docs/bank_model.md, \"Generic accesses\")";

struct Site {
  u32 function = 0, pc = 0;      // Program::functions index and instruction index
  u32 line = 0;                  // PTX line (SASS: the listing's line)
  i64 sass_offset = -1;          // SASS: the instruction's /*0230*/ offset (-1: PTX)
  std::string source;            // CUDA "path:line" of the .loc ("" without): the outermost call site when inlined
  std::string inlined;           // the line it was inlined from ("" not inlined; Program::inlined_of)
  std::string text;              // the statement as written
  std::string op;                // ld | st | ldsm1..4 | stsm1..4 | ldgsts | atom | red
  int width_bytes = 0;           // per lane (16 for ldmatrix/stmatrix rows)
  bool writes = false;           // st, stmatrix, cp.async (and atom/red: read-modify-write)
  bool bypass = false;           // cp.async.cg / LDGSTS.BYPASS (count_ldgsts: its ideal is its phases')
  bool bank_modelled = true;     // false for atom/red
  bool never = false;            // SASS @!PT: no lane ever executes it, in any launch (Instr::never)
  bool generic = false;          // a generic ld/st/atom/red: counted where its lanes' addresses are in the shared window
  bool in_window = false;        // generic: some issue had a lane in the shared window
  bool outside_window = false;   // generic: some issue had an active lane outside it (global)
  bool after_stop = false;       // a lane that stopped could still have reached it: issues missing
  i64 executed = 0, wavefronts = 0, ideal = 0;
  // Why `executed` is not the launch's count ("" it is; executed_unknown() adds a stopped lane's):
  // an issue ran under a path condition (Issue::path), so a launch may issue it fewer times.
  std::string executed_why;
  bool counts_known = true;      // false: some issue's wavefronts are not known (see the reasons)
  AddressTrace trace;            // the distinct issues with every lane known
  std::vector<Pattern> patterns; // parallel to trace.instructions
  i64 unknown_issues = 0;
  std::string unknown;           // why some lane's address or guard was not known (the first)
  std::string invalid;           // why the bank model refused an issue (the first)
  std::string divergent;         // the first divergent issue ("" none)
  bool patterns_capped = false;  // more distinct issues than the launch keeps: claims UNKNOWN
  bool cta_dependent = false;    // some issue's addresses or guards depended on %ctaid
  std::vector<SymbolicIssue> symbolic;  // issues whose addresses depend on free parameters
  bool symbolic_capped = false;  // more such issues than the run keeps: claims UNKNOWN
  // Some issue runs only where the kernel's data decides (a data atom, Cond::Kind::data): the
  // first such reason ("line 12: a value loaded from shared memory ... decides the branch at line
  // 14"), "" when none. Its counts are not known; its claims hold for every value of the data or
  // are UNKNOWN.
  std::string data_why;
};

// An instruction the run executed that touches (or may touch) shared memory and is not a site:
// listed with why, never silently left out. Every claim on the kernel is UNKNOWN for it
// (proofs/claims/ptx_claims.hpp), so a kernel with one is never PROVED whole.
// Examples: `st.async.shared::cluster...` (distributed shared memory), `cp.async.bulk.tensor...`
// (TMA), `ldmatrix...m16n16...b8`, `mbarrier.*`, `wgmma.mma_async` (descriptors), a generic
// `ld`/`st`/`atom` whose address came from cvta.shared (or is not known), a call into code this
// file does not hold.
struct NotCounted {
  u32 function = 0, pc = 0;      // Program::functions index and instruction index
  u32 line = 0;                  // PTX line (SASS: the listing's line)
  i64 sass_offset = -1;
  std::string source;            // CUDA "path:line" of the .loc ("" without): the outermost call site when inlined
  std::string inlined;           // the line it was inlined from ("" not inlined)
  std::string text;              // the statement as written
  std::string why;               // "st.async... touches shared memory and is not counted: ..."
  bool loads_only = false;       // a load: no-overlap is not a claim about it
  // Nsight Compute counts it among no shared-memory instruction (no LDS/STS/... opcode, 0 shared
  // wavefronts; measured on the H200: mbarrier operations, SASS SYNCS and ARRIVES, and the
  // non-tensor cp.async.bulk, UBLKCP): the kernel's totals do not depend on it (totals_unknown).
  bool outside_totals = false;
  // Its counts where a measured rule gives them though it has no lane addresses (executed,
  // wavefronts, ideal; wgmma_counts): they add to the kernel's totals.
  std::optional<std::array<i64, 3>> counts;
};

// A TMA copy (cp.async.bulk.tensor), a WGMMA (wgmma.mma_async), an expect_tx or an mbarrier wait
// the run executed, PTX: not lane-addressed (listed as not counted), its operands as the run
// computed them, for the Hopper contract claims (proofs/claims/tma_claim.hpp). Per executing lane
// for a copy and an expect_tx, per warp for a WGMMA and a wait (its first active lane's operands;
// the warp's lanes must agree).
struct AsyncOp {
  enum class Kind : std::uint8_t { tma_load, tma_store, wgmma, expect_tx, wait } kind = Kind::tma_load;
  u32 function = 0, pc = 0, line = 0;
  i64 warp = 0, execution = 0;   // the warp's execution-th run of the instruction
  int lane = 0;
  std::string mnemonic;          // "cp.async.bulk.tensor.2d...", "wgmma.mma_async...m64n64k16.f32.bf16.bf16"
  // A copy: its shared address (none: not known, smem_why says why) and its tensor map's kernel
  // parameter and byte offset in it (none: the operand is not a parameter's address: map_why).
  std::optional<u64> smem;
  std::string smem_why;
  std::optional<std::pair<std::size_t, i64>> map_param;
  std::string map_why;
  // A copy: the mbarrier its completion signals; an expect_tx (mbarrier.arrive.expect_tx,
  // mbarrier.expect_tx): its mbarrier (in smem) and the bytes it expects (tx).
  // A wait (mbarrier.try_wait/test_wait): its mbarrier, and the phase parity it waits for (none:
  // a state token, or a value not known).
  std::optional<u64> barrier, tx, parity;
  bool multicast = false;  // a copy's .multicast::cluster: its box lands in other CTAs too
  // A copy: its tensor coordinates, innermost first (an element each; none where not known).
  std::vector<std::optional<i64>> coords;
  // A WGMMA: its A and B descriptors (A none with desc_why empty: A from registers), and whether an
  // operand is transposed (16-bit types' imm-trans-a/b not both 0: MN-major, or not an immediate).
  std::optional<u64> desc_a, desc_b;
  std::string desc_why;
  bool transposed = false;
  bool a_registers = false;  // A from registers (wgmma's {a regs} form): only B is read from shared memory
  // Its executions are not the launch's count: a guarded SASS HGMMA (Nsight Compute counts it
  // executed where its lanes are off too), or one run under a condition over the symbols or the
  // data (Lane::path: a branch on data, a loop run for every iteration at once).
  bool guarded = false;
  // A WGMMA: its accumulator (the D registers as written: wgmmas on one accumulate into it) and
  // scale-d (false: D = A B, the accumulator starts again; none: not known).
  std::string accumulator;
  std::optional<bool> scale_d;
};

struct KernelRun {
  std::string name;
  std::size_t entry = 0;
  std::array<i64, 3> block{0, 0, 0}, grid{1, 1, 1}, cta{0, 0, 0};
  bool cta_chosen = false;       // Launch::cta_chosen
  i64 threads = 0;
  std::vector<Placement> placements;
  std::vector<Site> sites;       // in PTX order
  std::string stopped;           // a lane stopped early (why): later issues are missing
  std::string trapped;           // a lane trapped (where): the launch aborts, no count is the hardware's
  std::vector<i64> stopped_warps;
  std::vector<NotCounted> not_counted;  // in line order
  std::vector<AsyncOp> async_ops;       // in execution order, warp after warp
  std::vector<std::string> not_modelled;  // opcodes whose results were made unknown
  i64 warp_steps = 0;
  bool cta_dependent_any = false;  // some address or guard of a site depended on %ctaid
  bool cta_control = false;        // some lane's branch or return depended on %ctaid: which sites
                                   // another CTA reaches, and how often, is not known from CTA 0
  std::vector<Symbol> symbols;     // the free parameters' symbols the run met (Term::c's order)
  // One launch of the claims' domain, as the symbols' values (every iteration symbol 0: a loop's
  // iteration 1, which runs wherever the loop goes on; derived ones computed): the claims fill it
  // (proofs/claims/ptx_claims.hpp domain_point) to settle "does some launch run this" without Z3.
  std::optional<std::vector<u64>> domain_point;
  std::vector<Cond> conds{Cond{}}; // the conditions SymbolicIssue::when names ([0]: true)
  bool every_cta = false, every_grid = false;  // Launch's: %ctaid / %nctaid were symbols
  bool reads_cta = false;          // some lane read %ctaid or %nctaid
};

// The launch of the counts: `l` with its CTA and grid concrete (CTA (0,0,0) unless --cta, grid
// 1,1,1 unless --grid), as Nsight Compute measures one CTA of one launch.
Launch concrete_launch(const Launch& l);

// Why a site's wavefronts and ideal are not known ("" when they are): a lane of the run stopped
// where it could still reach the site (its later issues missing), an issue with a lane not known, an issue the bank model refused, issues
// affine in free parameters (decided for every value, counted for none), more distinct issues than
// kept. Every count table prints "?" (JSON null, with this as "counts_unknown") where it is not "".
std::string counts_unknown(const KernelRun& run, const Site& s);
// Why the site's executed count is not known ("" when it is): a lane that stopped could still
// reach it, or it ran under a path condition (Site::executed_why). Every presenter prints "?"
// (JSON null) for it then.
std::string executed_unknown(const KernelRun& run, const Site& s);
// Why the kernel's totals (executed, wavefronts and ideal summed over its sites) are not known
// beyond what the sites' own reasons say ("" when nothing else is missing): an access listed as not
// counted that Nsight Compute may count among the shared-memory instructions (a generic access
// whose address is not known, a shared::cluster access, an ldmatrix shape outside the model, a
// TMA tensor copy, a call into code the file does not hold: "line L: why"). Every presenter prints
// "?" (JSON null) for the totals then: their sum would leave that access out.
std::string totals_unknown(const KernelRun& run);
// The kernel's totals as every presenter prints them: executed, wavefronts and ideal summed over
// its sites and the listed instructions a measured rule counts (NotCounted::counts), each known
// only where every part is (executed_unknown, counts_unknown) and totals_unknown says nothing.
struct KernelTotals {
  i64 executed = 0, wavefronts = 0, ideal = 0;
  bool executed_known = true, counts_known = true;
  std::string why;  // totals_unknown's
};
KernelTotals kernel_totals(const KernelRun& run);

// Runs program.functions[entry] (decoded with its callees: ptx_parse.hpp decode_with_callees).
// Throws LayoutError for a launch that is bad input (a block of no or more than 1024 threads, a
// parameter count that does not match, static + dynamic shared memory past 227 KiB).
KernelRun run_kernel(const Program& program, std::size_t entry, const Launch& launch);

// Re-executes warp `warp` alone and returns its lanes' addresses (-1: inactive) in its
// `execution`-th issue of instruction (function, pc); nullopt when that issue does not exist or a
// lane's address is not known (a free parameter's symbol included: a replay is concrete). Witnesses are replayed through this before they are printed;
// `written`, when given, receives that issue's stored data (Pattern::written; null when none).
std::optional<std::array<i64, kWarpLanes>> replay_issue(const Program& program, std::size_t entry, const Launch& launch,
                                                        u32 function, u32 pc, i64 warp, i64 execution,
                                                        std::shared_ptr<const Written>* written = nullptr);

}  // namespace layoutproof::compiled
