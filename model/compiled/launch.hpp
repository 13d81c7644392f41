#pragma once
// A compiled kernel's launch, planned from what the user gives (`layoutproof ptx`/`sass` flags, a
// spec's `compiled:` entry) and what the file says, before anything runs:
//
//   select_ptx_kernels  which kernels (a TEXT their mangled or demangled name contains)
//   check_ptx_param     each --param / --param-range names a parameter one of them has, with a
//                       value of that parameter's type, and no parameter twice
//   plan_ptx_launches   the two above, then each kernel's launch built: its block (--block, else
//                       .reqntid, else .maxntid), grid (--grid), dynamic shared memory
//                       (--smem-bytes) and parameter bindings (Launch::params, fields, ranges)
//   cxx_signature       the kernel's C++ signature read from its demangled name: the parameters'
//                       signs (PTX's .u32 does not say) and SASS's parameter-buffer layout
//   shared_window       SASS's window of user shared memory, which bounds a lane with no symbol
//   param_assignment    the way back: the --param that fixes a symbol of the run to a value
//
// `what` names the input in messages: "--kernel" / "--param 1" for the command, "kernel" /
// "params: 1" for a spec (whose loader locates the message on the spec's line). Every message is
// a LayoutError (exit 2): a launch the user asked for that CUDA or the kernel does not allow.
//
// Example: `layoutproof ptx k.ptx --param 1=-5` on broadcast(float*, int) plans one launch of
// broadcast: block from its .reqntid, grid 1,1,1, params {free, 0xfffffffb}; `--param 1=4294967296`
// is refused ("parameter 1 (.u32, int in the signature) of _Z9broadcastPfi takes values in
// [-2147483648, 2147483647]").
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/compiled/ptx_exec.hpp"

namespace layoutproof::compiled {

// The parameters a demangled kernel signature names, as far as their types tell their sizes: each
// with its C++ type as written, its byte offset in the parameter buffer (each at its natural
// alignment: how SASS's constant bank lays them out), its size, and its sign, which PTX's .u32
// does not say (u: unsigned types, pointers, bool; s: int, long, short, signed char; b: char,
// floats, vectors). It stops at the first type whose size the name does not tell (a struct, a
// template). `listed`: how many parameters the signature lists (-1: the name is not a signature,
// extern "C"). Example: "stages(float*, int)" -> {float* 0 8 u, int 8 4 s}, listed 2.
struct CxxParam {
  std::string type;
  i64 offset = 0, size = 0;
  TypeKind kind = TypeKind::b;
};
struct CxxSignature {
  std::vector<CxxParam> params;
  i64 listed = -1;
};
CxxSignature cxx_signature(const std::string& demangled);

// A parameter's value as written: its 64 bits (a negative one in two's complement) and its sign,
// so that -1 and 2^64 - 1 stay apart. Decimal (up to 2^64 - 1, down to -2^63) or 0x hex of at most
// 16 digits; LayoutError otherwise, naming `what`. Example: "-1" -> {0xffffffffffffffff, negative}.
struct PtxParamValue {
  u64 bits = 0;
  bool negative = false;
};
PtxParamValue parse_ptx_param_value(const std::string& v, const std::string& what);
// One end of a --param-range (a spec's param_ranges): a signed 64-bit value (the claims read the
// symbol signed). LayoutError naming `what` otherwise.
i64 parse_range_end(const std::string& v, const std::string& what);

// One --param KEY=V or --param-range KEY=LO..HI (a spec's `params:` entry). KEY: I (0-based) or
// NAME (PTX: _Z..._param_2); I+OFF[:BYTES] (bytes OFF.. of parameter I, a field of BYTES = 1, 2, 4
// or 8 bytes; default 4, or 8 for a value past [-2^31, 2^32 - 1]); SASS also @OFF[:BYTES] (bytes of
// the parameter buffer). A range takes I or NAME (SASS: I or @OFF).
//
// The values a parameter of n bits takes follow its C++ type, which the kernel's mangled name
// gives (nvcc declares every integer parameter .u: `int k` is .u32), else its PTX type:
//   unsigned types, pointers, bool                   [0, 2^n - 1]
//   int, long, short, signed char; PTX .s            [-2^(n-1), 2^(n-1) - 1]
//   float, double, char, vectors; PTX .u, .b, .f     either spelling (bits): [-2^(n-1), 2^n - 1]
//   without a C++ type; fields I+OFF, @OFF
// Example: broadcast(float*, int)'s .u32 k takes -5, not 2^31 nor 4294967296; an `unsigned int`
// takes 4294967295, not -1; an extern "C" kernel's .u32 takes -1 and 4294967295 (bits 0xffffffff).
struct PtxParamRequest {
  std::string key;
  std::optional<PtxParamValue> value;  // --param; none: --param-range
  std::pair<i64, i64> range{0, 0};     // --param-range: LO..HI (signed)
  std::string what;                    // "--param 0=4294967296", "params: 1=5": how messages name it
};

struct PtxLaunchRequest {
  std::optional<std::array<i64, 3>> block;  // none: the kernel's .reqntid (.maxntid only bounds it)
  std::string block_given_by = "--block";   // how the output names a given block
  bool allow_empty = false;                 // PtxKernelLaunch::allow_empty
  std::array<i64, 3> grid{1, 1, 1};
  bool grid_given = false;                  // --grid: claims about that grid (else every grid)
  std::optional<std::array<i64, 3>> cta;    // --cta: the CTA run and the claims' (else: counts for (0,0,0), claims for every CTA)
  std::optional<std::array<i64, 3>> cluster;  // --cluster: Launch::cluster
  std::vector<PtxParamRequest> params;      // in the order given
  std::vector<std::pair<std::string, std::string>> assume;  // --assume: (text, how messages name it)
  i64 smem_bytes = -1;                      // dynamic shared memory (-1: not given)
  std::size_t max_paths = 64;               // Launch::max_paths (--max-paths)
};

// A fixed scalar parameter's value as its type (the table above) reads it: "-5" for an int's
// 0xfffffffb, "4294967291" for an unsigned int's (bits: signed).
std::string ptx_param_text(const Function& f, std::size_t slot, u64 bits);

// "16,16,1": a block, grid or CTA as --block/--grid/--cta take it.
std::string dims_text(const std::array<i64, 3>& d);

// CUDA's launch limits (model/bank/bank.hpp kMaxBlockDims, kMaxGridDims): LayoutError naming
// `what`, the dimension and the limit. Example: block 1,1,65 -> "... z is 65; CUDA's limit is 64".
void check_block_dims(const std::array<i64, 3>& block, const std::string& what);
void check_grid_dims(const std::array<i64, 3>& grid, const std::string& what);

// The entries whose name contains `text` (every entry for ""), in file order; LayoutError when none
// does, naming the file's kernels.
std::vector<std::size_t> select_ptx_kernels(const Program& program, const std::string& text, const std::string& what);

// LayoutError (naming params[i].what) unless some kernel of `entries` has the parameter params[i]
// names, every one that has it takes its value (the table above) and a scalar there (at most 8
// bytes, else a field I+OFF), and no earlier params[j] (j < i) gives any of the same bytes.
// Example: --param 1=5 --param _Z9broadcastPfi_param_1=6 -> "... is also given by --param 1=5".
void check_ptx_param(const Program& program, const std::vector<std::size_t>& entries, const std::vector<PtxParamRequest>& params,
                     std::size_t i);

struct PtxKernelLaunch {
  std::size_t entry = 0;
  Launch launch;
  std::string block_from;  // where the block size came from: "--block", ".reqntid", ...
  // The launch may execute no shared-memory instruction (a spec's allow_empty, --allow-empty):
  // then its never-run instructions are no claims, instead of the launch being an error.
  bool allow_empty = false;
};
// Selects, checks every parameter and builds each kernel's launch (a parameter applies to the
// kernels that have it); nothing is decoded (`layoutproof ptx` decodes each kernel as it runs; a spec
// decodes at load, decode_ptx_launches). LayoutError for bad input.
std::vector<PtxKernelLaunch> plan_ptx_launches(const Program& program, const std::string& kernel, const PtxLaunchRequest& request,
                                               const std::string& kernel_what = "--kernel");
// Decodes every planned kernel with its callees (ParseError for a malformed body), stopping with
// DeadlineReached at `deadline`.
void decode_ptx_launches(Program& program, const std::vector<PtxKernelLaunch>& launches,
                         std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);


// The bytes a lane with no shared symbol must lie in. SASS addresses a CTA's shared memory as one
// window and names no symbol: user memory begins at Program::shared_window_base (after the 1 KiB
// the driver reserves) and is as large as the launch's --smem-bytes (static and dynamic together).
// PTX names a symbol for every shared address: no window (`applies` false; a lane is bounded by
// its symbol's placement instead).
// Example: SASS with --smem-bytes 4096 -> {applies, sized, [1024, 5120)}; without -> {applies}.
struct SharedWindow {
  bool applies = false;  // the program addresses shared memory through the window (SASS)
  bool sized = false;    // the launch gives its size (--smem-bytes)
  i64 lo = 0, hi = 0;    // sized: the bytes [lo, hi)
};
SharedWindow shared_window(const Program& program, const Launch& launch);

// The --param that fixes symbol s of a run of kernel f to the value v (its bits), as check_ptx_param
// takes it back: "1=64" for a whole PTX parameter (in its type's spelling: an unsigned one's
// 0xfffffffd is 4294967293), "1+4:4=64" for bytes of one, "@8:4=64" for SASS's buffer (bytes with
// their width, so that a negative value fixes all of them).
std::string param_assignment(const Program& program, const Function& f, const Symbol& s, u64 v);
// The value alone, as param_assignment spells it ("4294967293", "-3").
std::string param_value_text(const Program& program, const Function& f, const Symbol& s, u64 v);

}  // namespace layoutproof::compiled
