// cute_copies: runs the real CuTe copies (cute_copies.cu) for Nsight Compute, or prints what
// layoutproof predicts for the same copies (--predict), from the traces of model/kernel_configs.
//   cute_copies --predict > predicted.txt        (no GPU needed)
//   ncu --metrics ... --csv --page raw cute_copies > ncu.csv ; compare.py predicted.txt ncu.csv
// Prediction line: NAME|op|width_bytes|instructions|wavefronts|ideal (all warps of the CTA).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_check/cute_copies/cute_copies.hpp"
#include "model/kernel_configs.hpp"
#include "model/bank.hpp"

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

int predict() {
  using namespace layoutproof;
  std::vector<KernelConfig> all = kernel_configs();
  for (KernelConfig& k : synthesized()) all.push_back(std::move(k));
  for (const KernelConfig& k : all) {
    const TracedConfig traced = trace_config(k);
    for (std::size_t i = 0; i < k.copies.size(); ++i) {
      const KernelCopy& c = k.copies[i];
      const AddressTrace& t = traced.traces[i];
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
