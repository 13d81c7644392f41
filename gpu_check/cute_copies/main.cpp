// cute_copies: runs the real CuTe copies (cute_copies.cu) for Nsight Compute, or prints what
// layoutproof predicts for the same copies (--predict), from the traces of model/kernel_configs.
//   cute_copies --predict > predicted.txt        (no GPU needed)
//   ncu --metrics ... --csv --page raw cute_copies > ncu.csv ; compare.py predicted.txt ncu.csv
// Prediction line: NAME|op|width_bytes|instructions|wavefronts|ideal (all warps of the CTA).
#include <cstdio>
#include <cstring>
#include <string>

#include "gpu_check/cute_copies/cute_copies.hpp"
#include "model/kernel_configs.hpp"
#include "model/kernel_expr.hpp"

namespace {

int predict() {
  using namespace layoutproof;
  for (const KernelConfig& k : kernel_configs()) {
    const std::optional<TiledMma> mma = k.mma.empty() ? std::nullopt : std::optional<TiledMma>(parse_tiled_mma(k.mma));
    const AnyLayout smem = parse_smem_layout(k.smem);
    for (const KernelCopy& c : k.copies) {
      const AddressTrace t = trace_copy(parse_tiled_copy(c.copy, mma), smem, c.side == 'S' ? CopySide::S : CopySide::D);
      long wf = 0, ideal = 0;
      for (const auto& in : t.instructions) {
        const BankReport r = analyze_smem_access(in.access());
        wf += r.wavefronts;
        ideal += r.ideal;
      }
      std::printf("%s: %s|%s|%d|%zu|%ld|%ld\n", k.name.c_str(), c.what.c_str(), to_string(t.op).c_str(), t.width_bytes,
                  t.instructions.size(), wf, ideal);
    }
  }
  return 0;
}

void announce(const char* name) { std::printf("launch %s\n", name); std::fflush(stdout); }

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--predict") == 0) return predict();
  if (const int rc = layoutproof::gpu::cute_copies::run_on_device(announce)) return rc;
  std::printf("done\n");
  return 0;
}
