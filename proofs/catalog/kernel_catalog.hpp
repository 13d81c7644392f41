#pragma once
// The checks of the built-in kernel configurations (model/source/kernel_configs.hpp): the copies CUTLASS's SM80 default
// configurations (test/unit/gemm/device/default_gemm_configuration.hpp) and its tutorial
// (examples/cute/tutorial/sgemm_sm80.cu) really issue on their staged smem tensors, each traced
// exactly as CuTe partitions it (model/trace/tv.hpp) and checked for
//   conflict-free, vector-legal, covers        per copy (proofs/claims/trace_claims.hpp)
//   injective                                   the staged smem layout (padding leaves holes)
// Where CUTLASS's own configuration conflicts, the catalog REFUTES it with the witness: a finding
// about CUTLASS, reported by the main job (which exits 0), gated by `check`.
#include <string>
#include <vector>

#include "model/source/kernel_configs.hpp"
#include "proofs/check/check.hpp"

namespace layoutproof::proofs {

using layoutproof::KernelConfig;
using layoutproof::KernelCopy;
using layoutproof::kernel_configs;

// The checks of one configuration / of all (subjects "SM80 f16 TN 128x128x32: s2r A LDSM_N x4").
std::vector<Check> kernel_checks(const KernelConfig& k);
std::vector<Check> kernel_checks();

}  // namespace layoutproof::proofs
