#pragma once
// Running a PTX kernel (model/compiled/ptx_parse.hpp) for every thread of ONE concrete CTA and
// collecting its shared-memory instructions as the project's one address-trace type: one
// AddressTrace per shared-memory instruction of the PTX (its line), holding every warp-level
// issue of it. Every claim and count then goes through the same bank model and trace claims as
// `trace` (proofs/claims/trace_claims.hpp).
//
// Execution is concrete: %tid/%ntid/%ctaid (CTA 0)/%nctaid/%laneid/%warpid, the parameters given
// (--param), and the shared symbols' addresses. Static .shared symbols are laid out in declaration
// order, each at the next multiple of its .align from 0; extern (dynamic) shared memory follows them
// at a 16-byte aligned offset (ptxas's layout for a kernel without a reserved area; sm_90 reserves
// none for user symbols). A value that is not known (a parameter not given, a load from global
// memory, an opcode outside the model) is unknown, never guessed: an address that depends on it
// makes that instruction UNKNOWN, and a branch on it stops the thread (the kernel's claims are then
// UNKNOWN, with the reason).
//
// Warp issues: the lanes of a warp that execute the k-th dynamic instance of a PTX instruction form
// one warp-level issue (lanes whose guard is false are inactive). This is exact for warps that do
// not diverge in control flow (every lane runs the same instruction sequence), which is what the
// kernels this is for (CuTe copies, tiled loops) do; a divergent warp is reported (`divergent`).
#include <optional>
#include <string>
#include <vector>

#include "model/compiled/ptx_parse.hpp"
#include "model/trace/trace.hpp"

namespace layoutproof {

struct PtxLaunch {
  std::array<i64, 3> block{0, 0, 0};      // threads per CTA (x, y, z); 0: from .reqntid
  std::array<i64, 3> grid{1, 1, 1};       // %nctaid; this CTA is (0,0,0)
  std::vector<std::pair<std::string, i64>> params;  // by name, or by index as "#0"
  i64 dynamic_smem_bytes = 0;             // --smem-bytes: the dynamic shared memory's size
  i64 max_steps_per_thread = i64{1} << 22;  // instructions one thread may execute (UNKNOWN beyond)
};

// One shared-memory instruction of the PTX and every warp-level issue of it.
struct PtxSmemSite {
  const PtxInstruction* instruction = nullptr;
  AddressTrace trace;                     // its issues (op, width, 32 lane addresses each)
  std::string unknown;                    // non-empty: some lane's address was not known (why)
  std::string symbol;                     // the shared symbol its lanes address ("" mixed/unknown)
  i64 symbol_base = 0, symbol_bytes = 0;  // its extent (dynamic: --smem-bytes)
};

struct PtxRun {
  std::string kernel;
  std::array<i64, 3> block{0, 0, 0};
  std::vector<PtxSmemSite> sites;         // in PTX order
  std::vector<std::string> not_modelled;  // opcodes met that the executor does not model
  std::string stopped;                    // non-empty: a thread stopped early (why): claims are UNKNOWN
  bool divergent = false;                 // some warp's lanes ran different instruction sequences
};

// Runs `entry` for every thread of one CTA. Throws LayoutError on a launch that is bad input (no
// block size, more than 1024 threads). A parameter the entry does not have is ignored (the caller
// refuses one that no selected entry has).
PtxRun run_ptx(const PtxEntry& entry, const PtxModule& module, const PtxLaunch& launch);

}  // namespace layoutproof
