#pragma once
// The built-in catalog of real CUTLASS kernel configurations: the copies CUTLASS's SM80 default
// configurations (test/unit/gemm/device/default_gemm_configuration.hpp) and its tutorial
// (examples/cute/tutorial/sgemm_sm80.cu) really issue on their staged smem tensors, each traced
// exactly as CuTe partitions it (model/tv.hpp) and checked for
//   conflict-free, vector-legal, covers        per copy (proofs/trace_claims.hpp)
//   injective                                   the staged smem layout (padding leaves holes)
// Where CUTLASS's own configuration conflicts, the catalog REFUTES it with the witness: a finding
// about CUTLASS, reported by the main job (which exits 0), gated by `check`.
#include <string>
#include <vector>

#include "proofs/check.hpp"

namespace layoutproof::proofs {

struct KernelCopy {
  std::string what;   // "s2r A LDSM_N x4"
  std::string copy;   // the kernel's C++
  char side = 'S';    // S: smem is the source; D: the destination
};

struct KernelConfig {
  std::string name;      // "SM80 f16 TN 128x128x32"
  std::string source;    // the CUTLASS file it comes from
  std::string element;   // smem element type
  std::string mma;       // the TiledMMA's C++ (empty: none)
  std::string smem;      // the staged smem tensor's C++ (operand A or B)
  std::string operand;   // "A" or "B"
  std::vector<KernelCopy> copies;
};

const std::vector<KernelConfig>& kernel_configs();

// The checks of one configuration / of all (subjects "SM80 f16 TN 128x128x32: s2r A LDSM_N x4").
std::vector<Check> kernel_checks(const KernelConfig& k);
std::vector<Check> kernel_checks();

}  // namespace layoutproof::proofs
