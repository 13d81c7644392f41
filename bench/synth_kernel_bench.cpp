// Speed of `synth --kernel` (target: a 128x128x64, 3-stage configuration answers in < 1 s).
// Three configurations of a 128x128x64 kernel's A tile, (128,64,3): f16 TN (SM80_16x8x16 MMA,
// LDSM_N x4 reads, 16-byte cp.async writes), tf32 NT (UniversalCopy reads of the MMA's A, 16-byte
// MN-major cp.async) and the SIMT tutorial's (UniversalFMA 16x16 reads, 4-byte cp.async writes).
// Each iteration parses the copies and runs the whole synthesis (search, ranking, proofs of the
// winner), as `layoutproof synth --kernel` does; the winner must be found and proved.
//   Usage: synth_kernel_bench [--benchmark_repetitions=5] (Google Benchmark flags)
#include <benchmark/benchmark.h>

#include "model/source/kernel_expr.hpp"
#include "proofs/synth/kernel_synth.hpp"

using namespace layoutproof;
using namespace layoutproof::proofs;

namespace {

struct Config {
  const char* element;
  const char* mma;
  const char* s2r;
  const char* g2s;
};

const Config kF16Tn{"half_t", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})",
                    "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)",
                    "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
                    "Layout<Shape<_1,_8>>{})"};
const Config kTf32Nt{"tfloat32_t",
                     "TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>, Tile<_32,_32,_8>>{}",
                     "make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma)",
                     "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16,_8>, "
                     "Stride<_1,_16>>{}, Layout<Shape<_4,_1>>{})"};
const Config kSimt{"float", "TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}",
                   "make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma)",
                   "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, "
                   "Layout<Shape<_1,_1>>{})"};

void synth(benchmark::State& state, const Config& c) {
  i64 members = 0;
  for (auto _ : state) {
    KernelSynthRequest q;
    q.shape = {128, 64, 3};
    q.element = c.element;
    const TiledMma mma = parse_tiled_mma(c.mma);
    q.copies.push_back({parse_tiled_copy(c.s2r, mma), CopySide::S});
    q.copies.push_back({parse_tiled_copy(c.g2s, mma), CopySide::D});
    const KernelSynthResult r = synthesize_kernel(q);
    if (!r.all_proved()) {
      state.SkipWithError("the winner was not found and proved");
      return;
    }
    members = r.family_size;
    benchmark::DoNotOptimize(r.ranked.data());
  }
  state.counters["members"] = static_cast<double>(members);
}

}  // namespace

BENCHMARK_CAPTURE(synth, f16_tn_128x128x64x3, kF16Tn)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK_CAPTURE(synth, tf32_nt_128x128x64x3, kTf32Nt)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK_CAPTURE(synth, simt_tn_128x128x64x3, kSimt)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

BENCHMARK_MAIN();
