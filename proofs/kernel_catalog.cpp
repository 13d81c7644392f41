#include "proofs/kernel_catalog.hpp"

#include "model/kernel_expr.hpp"

namespace layoutproof::proofs {

std::vector<Check> kernel_checks(const KernelConfig& k) {
  std::vector<Check> out;
  const TiledMma mma = parse_tiled_mma(k.mma);
  const AnyLayout smem = parse_smem_layout(k.smem);
  const std::string smem_subject = k.name + ": s" + k.operand;
  // injective, not bijective: padded tiles (the tutorial's (128,8):(1,129)) leave holes on purpose.
  out.push_back(make_check(smem_subject, smem, "injective", std::nullopt));
  for (const KernelCopy& c : k.copies) {
    const TiledCopy copy = parse_tiled_copy(c.copy, mma);
    auto trace = std::make_shared<const AddressTrace>(trace_copy(copy, smem, c.side == 'S' ? CopySide::S : CopySide::D));
    const std::string subject = k.name + ": " + c.what;
    const std::string access = to_string(trace->op) + " " + std::to_string(trace->width_bytes) + " B";
    for (const char* claim : {"conflict-free", "vector-legal", "covers"}) out.push_back(make_kernel_check(subject, trace, claim, access));
  }
  return out;
}

std::vector<Check> kernel_checks() {
  std::vector<Check> out;
  for (const KernelConfig& k : kernel_configs())
    for (Check& c : kernel_checks(k)) out.push_back(std::move(c));
  return out;
}

}  // namespace layoutproof::proofs
