#pragma once
// The compiled-kernel soak's abstract kernel (soak.hpp, kind "compiled"): what a random small CUDA
// kernel does to shared memory, generated once (compiled_gen.cpp) and printed twice, as PTX
// (compiled_ptx.cpp) and as SASS in `cuobjdump -sass` form (compiled_sass.cpp). Its truth is
// brute-forced from this structure alone (reference_compiled.cpp): never from the PTX or SASS text
// and never through model/ or proofs/, so a bug in the product's reader, executor, bank model or
// symbolic encoding cannot hide by being shared with its checker.
//
// Semantics (what the reference computes and both printers must encode):
//   - a CTA of bx * by threads, thread t = (t % bx, t / bx); warp w = threads 32w..32w+31 (a last
//     partial warp has fewer lanes); every value is a 32-bit unsigned integer (wrapping);
//   - parameters: a global pointer (kernel parameter 0, never fixed: it feeds only cp.async's global
//     side and the opaque global loads) and scalars P_j (kernel parameter 1 + j) of 8, 16 or 32 bits,
//     read zero-extended to 32 bits;
//   - statements run warp by warp under an active mask, as SIMT hardware runs structured code: an
//     access is one warp-level issue of the mask's lanes (a false guard: the lane is inactive in
//     it); a branch runs its then-part on the lanes whose condition holds and its else-part on the
//     others, each part only when it has a lane; a loop runs its body `trips` times with its
//     counter 0, 1, ... (the same in every lane), or, with a per-lane `bound`, iteration i on the
//     lanes with i < max(1, bound) (a do-while: the counter tested after the body); a call runs its
//     body (PTX: `depth` nested .func calls below the caller; SASS: inlined, as ptxas inlines); a
//     return takes the lanes whose condition holds out of the function it is in (the kernel: they
//     finish), an exit out of the thread;
//   - an access's byte address is base(symbol) + offset + imm (mod 2^32). Symbols are placed in
//     declaration order, each at the next multiple of its alignment, the dynamic one after them at
//     a multiple of 16 (docs/compiled.md "Shared memory"); SASS adds the 1 KiB the driver reserves
//     (0x400) and bounds every access by the whole window (--smem-bytes), PTX by its own symbol.
// Example: bx = 64, P_0 = 3, `st.shared.u32 [s0 + 4 * (tid.x ^ P_0)]` in warp 1 is one issue whose
// lane l writes byte 4 * ((32 + l) ^ 3) of s0.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace soakc {

using i64 = std::int64_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

struct Expr {
  // lane: %laneid (t % 32); ntid: %ntid.x (bx); sra: the arithmetic shift right (of the value read
  // as signed); sel: bit `value` of tid.x set ? k[0] : k[1] (selp / SEL with a per-lane predicate).
  // viaf: k[0] + value, computed by a .func that returns it (PTX: call through param space and back);
  // mulhi: the high 32 bits of the unsigned product; abs: of the value read as signed; sext/zext:
  // the low `value` bits sign- / zero-extended.
  enum class Op { c, tidx, tidy, lane, ntid, loop, param, opaque, add, sub, mul, shl, shr, sra, band, bor, bxor, min, max, sel, viaf,
                  mulhi, abs, sext, zext };
  Op op = Op::c;
  u32 value = 0;        // c: the constant; loop: the loop's level (0 outermost); param: j of P_j; shifts: the amount; sel: the bit
  std::vector<Expr> k;  // operands: two (shifts: one)
};
Expr lit(u32 v);
Expr leaf(Expr::Op op, u32 value = 0);
Expr bin(Expr::Op op, Expr a, Expr b);
Expr shift(Expr::Op op, Expr a, u32 amount);
Expr select(u32 bit, Expr a, Expr b);

// One lane's inputs: tid, the loop counters from the outermost, the parameters' values.
struct Env {
  u32 tidx = 0, tidy = 0, lane = 0, ntid = 0;
  const std::vector<u32>* loops = nullptr;
  const std::vector<u32>* params = nullptr;
};
// The value; nullopt when it depends on an opaque load (data the soak does not model).
std::optional<u32> eval(const Expr& e, const Env& env);
bool mentions(const Expr& e, Expr::Op op);
std::string text(const Expr& e);  // C-like, for messages: "((tid.x ^ P0) << 2)"

// lhs CMP rhs, unsigned.
struct Cond {
  Expr lhs;
  enum class Cmp { lt, ge, eq, ne } cmp = Cmp::lt;
  u32 rhs = 0;
};
std::optional<bool> eval(const Cond& c, const Env& env);

// Forms the product lists as not counted: every claim on them must be UNKNOWN.
enum class Listed { st_async, ld_cluster, generic_ld, generic_st };

struct Access {
  enum class Kind { ld, st, atom, red, ldsm, stsm, cp_async, listed };
  Kind kind = Kind::ld;
  int id = 0;            // the site's number in the kernel (generation order)
  int symbol = 0;        // Kernel::symbols index
  Expr offset;           // bytes from the symbol's base
  u32 imm = 0;           // the address operand's immediate ([r + imm])
  int elem = 4, vec = 1; // ld/st/atom/red: element bytes and vector count; cp.async: elem = its size
  int matrices = 1;      // ldsm/stsm: .x1/.x2/.x4
  bool trans = false;
  std::optional<Cond> guard;
  Expr data;             // st: element j stores data + j (its low elem bytes, zero-extended for 8-byte elements)
  Listed listed = Listed::st_async;
  u32 spell = 0;         // random bits the printers pick spellings and instruction forms from
  int width() const;     // bytes per lane: elem * vec, 16 for ldsm/stsm
  bool writes() const;   // no-overlap applies: st, stsm, cp.async
  bool bank() const;     // conflict-free / max-ways have a rule: not atom, red
};

struct Stmt {
  enum class Kind { access, branch, loop, call, ret };
  Kind kind = Kind::access;
  Access a;
  Cond cond;                          // branch; ret: the lanes that leave
  bool exit = false;                  // ret: exit (the thread), else return (the function)
  std::vector<Stmt> then_, else_;     // branch
  int trips = 1;                      // loop
  std::optional<Expr> bound;          // loop: a per-lane trip count instead
  int depth = 1;                      // call: nested .func calls (PTX)
  std::vector<Stmt> body;             // loop, call
  u32 spell = 0;
};

struct Symbol {
  std::string name;
  i64 bytes = 0;   // dynamic: the launch's --smem-bytes
  int align = 16;
  bool dynamic = false;
  bool local = false;  // PTX: declared inside the kernel's body (placed after the module's, as the last static)
};

struct Param {
  int bits = 32;                        // 8, 16 or 32
  std::optional<u32> fixed;             // --param (concrete), else a free symbol
  std::optional<std::pair<i64, i64>> range;  // free: --param-range LO..HI (signed); none: every value (8-bit only)
};

struct Kernel {
  std::string name = "k";
  int bx = 32, by = 1;
  std::vector<Param> params;
  std::vector<Symbol> symbols;
  std::vector<Stmt> body;
  int ways = 2;              // the max-ways:K claim's K
  u32 spell = 0;
  i64 threads() const { return static_cast<i64>(bx) * by; }
  bool symbolic() const;     // some parameter free
};

// Claims in the order every table uses.
constexpr int kClaims = 5;
enum ClaimIx { kConflictFree, kMaxWays, kAligned, kInBounds, kNoOverlap };
std::string claim_text(int c, int ways);  // "conflict-free", "max-ways:2", ...

enum class Format { ptx, sass };

// Generation (compiled_gen.cpp). `symbolic`: some parameters free, each with a small range.
struct GenOptions {
  bool symbolic = false;
};
Kernel generate(std::uint64_t seed, const GenOptions& o);

// The placement the semantics above give: per symbol, its first byte (SASS: in the window, after
// the reserved 1 KiB). The whole extent is placements.back() + bytes.
std::vector<i64> placements(const Kernel& k, Format f);
i64 window_bytes(const Kernel& k);  // the CTA's shared memory, static and dynamic (SASS: --smem-bytes)

// A printed kernel (compiled_ptx.cpp, compiled_sass.cpp).
struct Printed {
  std::string text;
  std::map<int, u32> line;        // access id -> the line of its instruction (1-based)
  // SASS with free parameters: accesses whose address went through LEA or LOP3 of a value computed
  // from a free parameter (a known defect class of the symbolic path: --skip-known skips them).
  std::set<int> lea_lop3;
  std::vector<std::string> args;  // the command's arguments after FILE: --block, --param, ...
};
Printed print_ptx(const Kernel& k);
Printed print_sass(const Kernel& k);

// ---- the truth (reference_compiled.cpp) ---------------------------------------------------------
//   holds        every issue satisfies the claim at every parameter value of the domain
//   fails        some issue whose lanes are all known breaks it at some value (`why` says where)
//   vacuous      no issue with an active lane at any value
//   unknowable   nothing known breaks it, and some issue has a lane (address, guard or stored data)
//                the product cannot know either (opaque data, stmatrix's and cp.async's data)
//   valid_holds  conflict-free / max-ways: holds on every issue that is a valid access, and some
//                issue is not (misaligned, or past the 227 KiB a block can address: the bank model's
//                precondition; such an access faults and has no wavefronts)
//   invalid      conflict-free / max-ways: no issue is a valid access
//   no_rule      conflict-free / max-ways on atom/red (the bank model has no rule for atomics)
//   not_applicable  no-overlap on loads, atom, red
enum class Truth { holds, fails, vacuous, unknowable, valid_holds, invalid, no_rule, not_applicable };
const char* truth_name(Truth t);

struct SiteTruth {
  std::array<Truth, kClaims> claim{};
  std::array<std::string, kClaims> why;  // fails: the value, warp, execution and lanes
  i64 executed = 0;                      // one value (concrete): warp issues, all-inactive ones included
  std::set<std::array<i64, 32>> issues;  // one value: distinct lane-address vectors (-1 inactive) with an active lane, all known
  bool issues_known = true;              // no issue with a lane not known
  // One value, bank-modelled sites whose issues are all valid and known: the sums over the issues
  // of the soak's own bank model (tests/soak/reference_bank.cpp ref_bank, docs/bank_model.md's
  // rule with its measured merges), the counts `layoutproof ptx` prints.
  i64 wavefronts = 0, ideal = 0;
  bool counts_known = true;
};
struct Truths {
  std::map<int, SiteTruth> sites;   // by access id (counted forms)
  std::set<int> listed;             // listed accesses some warp issued
  bool cut = false;                 // PTX: some lane reaches a call nested 64 deep or more (the model stops there)
  i64 values = 0;                   // parameter values enumerated
};
Truths reference(const Kernel& k, Format f);

}  // namespace soakc
