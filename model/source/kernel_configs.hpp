#pragma once
// The built-in catalog of real CUTLASS kernel configurations, as data: the copies CUTLASS's SM80
// default configurations (test/unit/gemm/device/default_gemm_configuration.hpp) and its tutorial
// (examples/cute/tutorial/sgemm_sm80.cu) really issue on their staged smem tensors, each written as
// the kernel's C++. Plain C++ (no Z3): the proofs (proofs/catalog/kernel_catalog.hpp) and the GPU
// cross-check (gpu_check/, which measures the traced instructions on the device) both read it.
#include <string>
#include <vector>

#include "model/layout/composed.hpp"
#include "model/trace/trace.hpp"

namespace layoutproof {

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

// k's staged smem tensor and the trace of each of its copies (traces[i] is k.copies[i]), as CuTe
// partitions them (model/trace/tv.hpp): the one place the proofs, the GPU checks and the real-copy
// predictions get a configuration's instructions from. Throws LayoutError on bad C++.
struct TracedConfig {
  AnyLayout smem;
  std::vector<AddressTrace> traces;
};
TracedConfig trace_config(const KernelConfig& k);

}  // namespace layoutproof
