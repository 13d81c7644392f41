#include "proofs/catalog/kernel_catalog.hpp"


namespace layoutproof::proofs {

std::vector<Check> kernel_checks(const KernelConfig& k) {
  std::vector<Check> out;
  TracedConfig traced = trace_config(k);
  const std::string smem_subject = k.name + ": s" + k.operand;
  // injective, not bijective: padded tiles (the tutorial's (128,8):(1,129)) leave holes on purpose.
  out.push_back(make_check(smem_subject, traced.smem, "injective", std::nullopt));
  for (std::size_t i = 0; i < k.copies.size(); ++i) {
    auto trace = std::make_shared<const AddressTrace>(std::move(traced.traces[i]));
    const std::string subject = k.name + ": " + k.copies[i].what;
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
