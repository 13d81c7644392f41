#pragma once
// The PTX program as the executor runs it: a small IR that model/compiled/ptx_parse.hpp builds from
// the text nvcc emits and model/compiled/ptx_exec.hpp executes for every thread of a launch.
//
// Definitions.
//   Program   every module of one file (`cuobjdump -ptx` prints one module after another): the
//             functions' names and where their bodies are, each module's `.file` table and its
//             module-scope `.shared` symbols. Bodies are decoded on demand (one function at a
//             time), so a 50 MB file costs its text plus the function being run, not an IR of all.
//   Function  an `.entry` or `.func`: its parameters, its decoded instructions, labels resolved to
//             instruction indices, registers numbered densely (every `.reg` declaration, inline-asm
//             scopes included, gets fresh numbers: `{ .reg .u32 tmp; ... }` shadows nothing).
//   Instr     one statement `[@[!]p] opcode.mods operands;`: the opcode decoded (Op plus its
//             modifiers), the operands resolved (register number, immediate, special register,
//             symbol, label, address `[base+offset]`), its PTX line and the CUDA line of the `.loc`
//             before it. An opcode outside the model keeps Op::unknown and its text: the executor
//             makes what it writes unknown, never guesses.
// Example: `mad.lo.s32 %r41, %r1, 132, %r40;` -> Instr{op mad, lo, type s32, operands [reg 41,
// reg 1, imm 132, reg 40]}.
#include <array>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/support/checked.hpp"

namespace layoutproof::compiled {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

enum class Op : std::uint16_t {
  unknown,
  // integer and bit arithmetic
  mov, add, sub, mul, mad, mul24, mad24, div, rem, abs, neg, min, max, and_, or_, xor_, not_, cnot, shl, shr, shf,
  bfe, bfi, prmt, lop3, clz, popc, brev, bfind, cvt, cvta, setp, selp,
  // the f32 reciprocal SASS's integer division starts from (MUFU.RCP of I2F.RP: sass_lower.cpp)
  rcp,
  // memory
  ld, st, ldmatrix, stmatrix, cp_async, atom, red,
  // control
  bra, call, ret, exit,
  // warp-collective; elect.sync d|p, membermask (SASS ELECT): the lowest lane of the issue in
  // membermask is the leader (d: its lane id in every lane, p: true in it alone);
  // match.any.sync.b32|b64 d, a, membermask: the mask of the lanes whose a equals this
  // lane's; match.all.sync d|p, a, membermask: every lane's mask where all are equal, else 0 (p:
  // whether they are) (SASS MATCH.ANY/.ALL, .U64 on a register pair)
  shfl, vote, activemask, elect, match,
  // mbarrier.try_wait / test_wait (SASS SYNCS.PHASECHK): the wait completes, so its predicate
  // destination is true. A kernel spins on it until the barrier's phase completes, which it does in
  // any launch that finishes; the spin's extra iterations re-run only the wait itself.
  mbarrier_wait,
  // no register result, no effect on addresses (barriers, fences, cp.async groups, prefetch, ...)
  nop,
};

// SASS's generic addresses: the shared window is where the high word is SR_SWINHI's value, and the
// low word is then the shared address. The reader gives SR_SWINHI this value (no real global
// pointer has it: 2^48 is past every user-space address), marked as the window's (Val::window), so
// a generic LD/ST/ATOM whose high word is it touches shared memory at its low word.
constexpr std::uint64_t kSharedWindowHi = 0x10000;
// PTX: the address of a kernel parameter (`mov.b64 %rd, k_param_0`, what a __grid_constant__
// CUtensorMap's address and cvta.param start from) is kParamWindow + (its slot << 20) + offset: a
// value no global pointer has, from which the TMA claims tell which parameter holds the tensor map.
constexpr std::uint64_t kParamWindow = 0x7ffe000000000000ull;

// A type suffix: .b32 -> {b, 32}; .pred -> {pred, 1}; .f16x2 -> {f, 32}.
enum class TypeKind : u8 { none, b, u, s, f, pred };
struct Type {
  TypeKind kind = TypeKind::none;
  u8 bits = 0;
  bool is_signed() const { return kind == TypeKind::s; }
  bool is_float() const { return kind == TypeKind::f; }
};

enum class Space : u8 { none, generic, shared, shared_cluster, global, local, param, const_, other };

// setp's comparison; equ .. geu are true when an operand is NaN, num and nan ask whether one is
// (floating-point types only).
enum class Cmp : u8 { none, eq, ne, lt, le, gt, ge, lo, ls, hi, hs, equ, neu, ltu, leu, gtu, geu, num, nan };
enum class BoolOp : u8 { none, and_, or_, xor_ };
enum class ShflMode : u8 { none, up, down, bfly, idx };
enum class VoteMode : u8 { none, all, any, uni, ballot };
// A conversion's rounding (.rn .rz .rm .rp; to an integer .rni .rzi .rmi .rpi): none is cvt's
// default (round to nearest even for a floating-point result or source, exact otherwise).
enum class Round : u8 { none, rn, rz, rm, rp };

// The decoded opcode: what `mad.lo.s32` says beyond its operands.
struct Opcode {
  Op op = Op::unknown;
  Type type;            // the (last) type suffix; cvt: the destination type
  Type src;             // cvt: the source type
  Space space = Space::none;
  Cmp cmp = Cmp::none;  // setp
  BoolOp boolop = BoolOp::none;
  ShflMode shfl = ShflMode::none;
  VoteMode vote = VoteMode::none;
  u8 vec = 1;           // .v2/.v4 (ld/st)
  u8 matrices = 0;      // ldmatrix/stmatrix .x1/.x2/.x4
  bool wide = false, hi = false, lo = false, sat = false, carry = false;  // .wide .hi .lo .sat .cc/addc
  bool to = false;      // cvta.to
  bool left = false, clamp = false;  // shf.l / .clamp
  bool shiftamt = false;  // bfind.shiftamt
  bool uni = false;     // bra.uni / call.uni
  bool trans = false;   // ldmatrix/stmatrix .trans
  bool m8n8 = false;    // ldmatrix/stmatrix .m8n8 with .b16 (the modelled shape)
  bool bulk = false;    // cp.async.bulk..., cp.async.bulk.tensor: not lane-addressed
  bool prmt_default = true;  // prmt without a mode (.f4e, .b4e, ... are not modelled)
  bool float_op = false;     // a floating-point opcode whose results are not modelled (half precision, sqrt, ex2, ...)
  Round rnd = Round::none;   // cvt's and floating-point arithmetic's rounding
  bool ftz = false;          // .ftz: subnormal inputs and results are flushed to zero
  // A PTX add/sub without a rounding whose operand a mul without one writes: ptxas may fuse the
  // two into an fma (model/compiled/ptx_body.cpp mark_contractible), so its result is not known.
  bool contractible = false;
  bool bypass = false;  // cp.async.cg (SASS LDGSTS.BYPASS): the copy bypasses L1
  // An Op::exit that is a trap (PTX trap, SASS BPT.TRAP): the lane ends there as at exit, and the
  // launch aborts (a launch that concretely traps has no counts: the hardware measures nothing).
  bool trap = false;
  // An Op::nop that orders a warp's cp.async copies: `commit` closes its open group
  // (cp.async.commit_group, SASS LDGDEPBAR); `wait` waits until at most N of its committed groups
  // are pending, N its immediate operand, 0 without one (cp.async.wait_group N, wait_all; SASS
  // DEPBAR.LE SB0, N).
  enum class AsyncGroup : u8 { none, commit, wait };
  AsyncGroup async = AsyncGroup::none;
};

// Decodes `mnemonic` (the opcode with its modifiers, "ld.shared.v4.u32"). Never throws: an opcode
// outside the model is Op::unknown.
Opcode decode_opcode(std::string_view mnemonic);

// The byte width of one element of a type (.b128 -> 16, .pred -> 0).
int type_bytes(Type t);

// Special registers (%tid.x, ...): the ones the executor knows, and `other` (unknown value).
enum class Special : u8 {
  tid_x, tid_y, tid_z, ntid_x, ntid_y, ntid_z, ctaid_x, ctaid_y, ctaid_z, nctaid_x, nctaid_y, nctaid_z,
  laneid, warpid, lanemask_eq, lanemask_lt, lanemask_le, lanemask_gt, lanemask_ge,
  // the CTA's place in its cluster (Launch::cluster, --cluster): %cluster_ctaid.x/y/z,
  // %cluster_nctaid.x/y/z, %cluster_ctarank, %cluster_nctarank
  cluster_ctaid_x, cluster_ctaid_y, cluster_ctaid_z, cluster_nctaid_x, cluster_nctaid_y, cluster_nctaid_z, cluster_ctarank,
  cluster_nctarank, other,
};
// nullopt for a name that is not a special register ("%tid.x" -> tid_x, "%clock" -> other).
bool special_register(std::string_view name, Special& out);

struct Operand {
  enum class Kind : u8 {
    none,
    reg,      // index: register number; neg: `!%p`
    imm,      // imm: the bits (integers and 0f/0d float literals alike)
    special,  // special
    shared,   // index: shared symbol (Program::shared); its address
    var,      // index: another module variable (.global/.const): its address is not known
    param,    // index: the function's param slot (kernel/function parameters, call-site .param)
    label,    // index: instruction index (after resolution)
    func,     // index: function (Program::functions)
    vec,      // index: first operand in Function::operands, count: how many ({%r1, %r2})
    addr,     // base: the operand at `index` in Function::operands; imm: the byte offset; a tensor
              // address [map, {c0, c1}]: count coordinates after the base
    sink,     // `_`
    unknown_name,  // a name declared nowhere in this file: its value is not known (index: name id)
  };
  Kind kind = Kind::none;
  bool neg = false;
  Special special = Special::other;
  u32 index = 0;
  u32 count = 0;
  u32 pos = 0;  // PTX: the byte offset of its first character in Program::text (for errors)
  i64 imm = 0;
};
static_assert(sizeof(Operand) == 24, "an operand per argument of every instruction: keep it small");

struct Instr {
  Opcode code;
  i64 guard = -1;          // predicate register (-1: none)
  bool guard_neg = false;  // @!%p
  bool never = false;      // SASS @!PT: the guard is constant false, the instruction never takes effect
  u32 first = 0;           // operands: Function::operands[first .. first + count)
  u32 count = 0;
  u32 line = 0;            // 1-based PTX line of the opcode
  u32 loc_file = 0, loc_line = 0;  // CUDA source position of the last `.loc` (0: none)
  u32 call_file = 0, call_line = 0;  // where that code was inlined, outermost (`inlined_at`; 0: not inlined)
  u32 text_begin = 0, text_end = 0;  // the statement in Program::text (for messages and --json)
  // call: the function (Program::functions index), the return and argument param operands are
  // the first operands ([ret..., args...]; ret_count of them are returns).
  u32 ret_count = 0;
  bool dual = false;       // `setp ... %p|%q` / `shfl ... %r|%p`: the first two operands are both written
  i64 sass_offset = -1;    // SASS: the instruction's /*0230*/ offset (-1: PTX)
};

struct SharedSymbol {
  std::string name;
  i64 align = 1;
  i64 bytes = 0;           // static size; 0 for extern (dynamic) symbols
  bool dynamic = false;    // `.extern .shared ... name[]`: the dynamic shared memory
  int module = 0;
  int owner = -1;          // the function it is declared in (-1: module scope)
  u32 line = 0;
};

struct ParamDecl {
  std::string name;
  Type type;               // .u32, .b8 (aggregates: bytes > type bytes)
  i64 bytes = 0;
};

struct Function {
  std::string name;
  bool is_entry = false;
  int module = 0;
  u32 line = 0;            // the line of `.entry`/`.func`
  std::vector<ParamDecl> params;   // param slots 0..params.size()-1
  std::vector<ParamDecl> returns;  // .func return params: slots params.size()..
  u32 param_slots = 0;     // params + returns + call-site .param declarations
  std::array<i64, 3> reqntid{0, 0, 0}, maxntid{0, 0, 0};
  std::vector<Instr> code;
  std::vector<Operand> operands;
  u32 registers = 0;
  // Register names for messages: (first register number, name or prefix, count of a <N> range).
  struct RegRange {
    u32 first = 0, count = 0;
    std::string name;      // "%r" for %r<53> (count 53), "tmp" for a plain declaration (count 1)
    bool ranged = false;   // a <N> range: register first + i is name + i
  };
  std::vector<RegRange> reg_names;
  std::vector<std::string> unknown_names;
  bool decoded = false;
  std::string register_name(u32 r) const;
};

struct Module {
  std::string version, target;
  std::map<u32, std::string> files;  // .file N "path"
};

// Where an undecoded function body lies in the text.
struct BodyRange {
  std::size_t begin = 0, end = 0;  // byte offsets of the text between the braces
  u32 line = 0;                    // the line `begin` is on
  std::size_t line_start = 0;      // byte offset of that line's first character
  bool has_body = false;           // a declaration alone (`.extern .func f(...);`) has none
};

// The run's deadline while reading and decoding (none: no limit). Past it, reading stops with
// DeadlineReached: not bad input, and nothing half-read is returned; the caller reports what was
// not decided as UNKNOWN. what(): where it stopped ("while reading k.ptx, at line 1200").
using ReadDeadline = std::optional<std::chrono::steady_clock::time_point>;
struct DeadlineReached : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Throws DeadlineReached(where()) when `deadline` has passed; `where` is only built then.
template <class Where>
void check_deadline(const ReadDeadline& deadline, Where&& where) {
  if (deadline && std::chrono::steady_clock::now() >= *deadline) throw DeadlineReached(where());
}

// The format a program was read from: each reader says it (ptx_parse.hpp parse_ptx, sass_parse.hpp
// parse_sass), and what differs between them (SASS names no shared symbols and no parameters:
// its shared memory is one window, its parameters one buffer) asks it, never a field's sentinel.
enum class CompiledFormat { ptx, sass };

struct Program {
  CompiledFormat format = CompiledFormat::ptx;
  std::string file;
  std::string text;                // the whole file (bodies are decoded from it)
  std::vector<Module> modules;
  std::vector<Function> functions; // every .entry and .func, in file order
  std::vector<BodyRange> bodies;   // parallel to functions
  std::vector<SharedSymbol> shared;  // module-scope symbols, then (as bodies are decoded) local ones
  std::vector<std::string> vars;   // other module variables (.global, .const)
  // The names a body sees before its own declarations: per module, its .shared symbols and its
  // functions (a function's name shadows a symbol's); then every module variable. Built once, by
  // the first decode, so that each body costs itself alone however many kernels the file holds.
  std::vector<std::unordered_map<std::string, std::pair<Operand::Kind, u32>>> module_names;
  std::unordered_map<std::string, u32> var_names;
  // SASS: where user shared memory begins in the CTA's window (the 1 KiB the driver reserves comes
  // first); addresses are window offsets and name no symbol. PTX: 0, unused (its symbols are
  // placed from 0 by the run, ptx_exec.hpp).
  i64 shared_window_base = 0;
  // The CUDA source position "path:line" of an instruction ("" without .loc): the user's line,
  // i.e. for code inlined from a header (a CuTe copy, a helper) the outermost call site, in the
  // kernel's own code; inlined_of gives the line it was inlined from ("" when not inlined).
  // Example: copy_sm80.hpp:64 inlined at k.cu:120 -> source_of "k.cu:120", inlined_of "copy_sm80.hpp:64".
  std::string source_of(const Function& f, const Instr& in) const;
  std::string inlined_of(const Function& f, const Instr& in) const;
  // The statement as written, white space collapsed to single spaces.
  std::string text_of(const Instr& in) const;
};

}  // namespace layoutproof::compiled
