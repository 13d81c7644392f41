#pragma once
// Claims over one shared-memory instruction of a compiled kernel (model/compiled/ptx_exec.hpp),
// decided exhaustively over the concrete launch: every warp of the CTA, every issue.
//
//   conflict-free   every issue takes its ideal wavefronts        } through prove_trace
//   max-ways:K      no phase of any issue holds > K words per bank } (trace_claims.hpp), the same
//                                                                   bank model as `trace`
//   aligned         every active lane's address is a multiple of the access width (ldmatrix and
//                   stmatrix rows: 16 bytes; cp.async: its size); else the instruction faults
//   in-bounds       every active lane's bytes lie inside the shared symbol its address is computed
//                   from (dynamic shared memory: inside --smem-bytes)
//   no-overlap      stores (st, stmatrix, cp.async): no two active lanes of one issue write a
//                   common byte with different data (which one lands is unspecified; equal data
//                   lands the same either way); the data is compared where the executor knows it
//                   (ptx_exec.hpp Written), and lanes sharing bytes with data not known make it
//                   UNKNOWN; not a claim about loads, and atom/red combine rather than overwrite:
//                   not applicable to them
//
// What makes a verdict UNKNOWN instead of PROVED (never a guess): a lane whose address or guard is
// not known (a free parameter, data loaded from memory, ...), a lane that stopped early, more
// distinct issues than the run keeps, an address that depends on %ctaid when the grid has more
// than one CTA (CTA (0,0,0) alone was run), and, for the claims that depend on how lanes group
// into issues (conflict-free, max-ways, no-overlap), a divergent issue (ptx_exec.hpp). A REFUTED
// verdict needs one issue that breaks the claim with every lane known and no such doubt; its
// witness names the PTX line, the CUDA line, the warp, the execution, the lanes, their addresses
// and banks, and it is replayed (the warp re-executed alone, replay_issue) before it is returned.
#include <optional>
#include <string>

#include "model/compiled/ptx_exec.hpp"
#include "proofs/claims/prove.hpp"
#include "proofs/claims/trace_claims.hpp"

namespace layoutproof::proofs {

struct PtxClaim {
  enum class Kind { conflict_free, max_ways, aligned, in_bounds, no_overlap };
  Kind kind = Kind::conflict_free;
  int k = 1;
  std::string text;
};
// nullopt for a name that is not one of these claims; LayoutError for a malformed max-ways:K.
std::optional<PtxClaim> parse_ptx_claim(const std::string& text);

struct PtxClaimResult {
  bool applicable = true;               // false: no-overlap on a load, atom or red (no verdict)
  Verdict verdict;
  std::optional<TraceWitness> witness;  // REFUTED: instruction indexes site.trace.instructions
};

PtxClaimResult prove_ptx_site(const ptx::Program& program, const ptx::Launch& launch, const ptx::KernelRun& run,
                              const ptx::Site& site, const PtxClaim& claim, const ProveOptions& options);

}  // namespace layoutproof::proofs
