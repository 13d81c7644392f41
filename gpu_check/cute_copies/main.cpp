// cute_copies: runs the real CuTe copies (cute_copies.cu) for Nsight Compute, or prints what
// layoutproof predicts for the same copies (--predict), from the traces of model/atoms/kernel_configs.
//   cute_copies --predict > predicted.txt        (no GPU needed)
//   ncu --metrics ... --csv --page raw cute_copies > ncu.csv ; compare.py predicted.txt ncu.csv
// Prediction line: NAME|op|width_bytes|instructions|wavefronts|ideal|fused width_bytes|fused
// instructions|fused wavefronts|fused ideal|warps (all warps of the CTA; the fused trace is
// model/trace/trace.hpp's fuse_trace_parts, equal to the CuTe-level one where nothing fuses; a partial
// fusion lists its widths and instruction counts: "16,8|96,192").
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_check/cute_copies/cute_copies.hpp"
#include "model/source/kernel_configs.hpp"
#include "model/bank/bank.hpp"

namespace {

// The layouts `synth --kernel` proposes for the two configurations CUTLASS gets wrong
// (docs/synth_kernel.md), measured the same way (cute_copies.cu launches them after the others).
std::vector<layoutproof::KernelConfig> synthesized() {
  const std::string tf32 = "TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>, Tile<_32,_32,_8>>{}";
  const std::string simt = "TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}";
  return {
      {"synth --kernel tf32 NT 128x128x32", "", "tfloat32_t", tf32,
       "tile_to_shape(composition(Swizzle<2,3,2>{}, Layout<Shape<_32,_4>,Stride<_1,_32>>{}), make_shape(Int<128>{},Int<32>{},Int<3>{}))", "A",
       {{"s2r A UniversalCopy", "make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma)", 'S'},
        {"g2s A cp.async 16 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16,_8>, Stride<_1,_16>>{}, Layout<Shape<_4,_1>>{})", 'D'}}},
      {"synth --kernel tutorial f32 TN 128x128x8", "", "float", simt,
       "tile_to_shape(composition(Swizzle<2,0,5>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}), make_shape(Int<128>{},Int<8>{},Int<3>{}))", "A",
       {{"s2r A UniversalCopy", "make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma)", 'S'},
        {"g2s A cp.async 4 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_1>>{})", 'D'}}},
  };
}

// Copies whose thread's accesses are contiguous and aligned in smem, so nvcc may fuse them
// (model/trace/trace.hpp fuse_trace): launched last by cute_copies.cu.
std::vector<layoutproof::KernelConfig> fused_demos() {
  const std::string f64 =
      "TiledMMA<MMA_Atom<SM80_8x8x4_F64F64F64F64_TN>, Layout<Shape<_2,_2,_1>>, "
      "Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>>{}";
  return {
      {"fusion f64 MN-major 128x16x3", "", "double", f64, "(128,16,3):(1,128,2048)", "A",
       {{"s2r A DefaultCopy", "make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma)", 'S'}}},
      {"fusion f32 pairs MN-major 128x8x3", "", "float", "", "(128,8,3):(1,128,1024)", "A",
       {{"s2r UniversalCopy (32,4) x (2,1)",
         "make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_4>>{}, Layout<Shape<_2,_1>>{})", 'S'}}},
  };
}

// Instructions, wavefronts and ideal of a trace, all warps.
struct Totals {
  std::size_t n = 0;
  long wf = 0, ideal = 0, warps = 0;
};
Totals totals(const layoutproof::AddressTrace& t) {
  Totals s;
  s.n = t.instructions.size();
  std::vector<long> warps;
  for (const auto& in : t.instructions) {
    const layoutproof::BankReport r = layoutproof::analyze_smem_access(in.access());
    s.wf += r.wavefronts;
    s.ideal += r.ideal;
    if (std::find(warps.begin(), warps.end(), in.warp) == warps.end()) warps.push_back(in.warp);
  }
  s.warps = static_cast<long>(warps.size());
  return s;
}

int predict() {
  using namespace layoutproof;
  std::vector<KernelConfig> all = kernel_configs();
  for (KernelConfig& k : synthesized()) all.push_back(std::move(k));
  for (KernelConfig& k : fused_demos()) all.push_back(std::move(k));
  for (const KernelConfig& k : all) {
    const TracedConfig traced = trace_config(k);
    for (std::size_t i = 0; i < k.copies.size(); ++i) {
      const KernelCopy& c = k.copies[i];
      const AddressTrace& t = traced.traces[i];
      // The fused prediction: one part per width (fuse_trace_parts: partial fusion), listed
      // "16,8" / "96,192" with the wavefronts and ideal of all parts summed.
      const Totals a = totals(t);
      std::string widths, counts;
      long wf = 0, ideal = 0;
      for (const AddressTrace& part : fuse_trace_parts(t)) {
        const Totals b = totals(part);
        widths += (widths.empty() ? "" : ",") + std::to_string(part.width_bytes);
        counts += (counts.empty() ? "" : ",") + std::to_string(b.n);
        wf += b.wf, ideal += b.ideal;
      }
      std::printf("%s: %s|%s|%d|%zu|%ld|%ld|%s|%s|%ld|%ld|%ld\n", k.name.c_str(), c.what.c_str(), to_string(t.op).c_str(),
                  t.width_bytes, a.n, a.wf, a.ideal, widths.c_str(), counts.c_str(), wf, ideal, a.warps);
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
