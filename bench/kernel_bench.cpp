// Speed of kernel-configuration claims (target: < 20 ms for the trace and every claim of a
// 128x128x64, 3-stage, 4-warp SM80 configuration's copies). Parses the kernel's C++, traces the
// g2s cp.async copy and the s2r LDSM copy of sA, and decides conflict-free, vector-legal and
// covers on both, `reps` times; prints the median wall time. Usage: kernel_bench [reps]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "model/source/kernel_expr.hpp"
#include "proofs/claims/trace_claims.hpp"

using namespace layoutproof;

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 21;
  const char* mma_text = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})";
  const char* smem_text =
      "tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))";
  const char* copies[2][2] = {
      {"make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})", "D"},
      {"make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)", "S"}};
  proofs::ProveOptions o;
  o.engine = proofs::EngineChoice::exhaustive;
  std::vector<double> times;
  int proved = 0;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    proved = 0;
    const TiledMma mma = parse_tiled_mma(mma_text);
    const AnyLayout smem = parse_smem_layout(smem_text);
    for (const auto& c : copies) {
      const TiledCopy copy = parse_tiled_copy(c[0], mma);
      const AddressTrace t = trace_copy(copy, smem, c[1][0] == 'S' ? CopySide::S : CopySide::D);
      for (const char* claim : {"conflict-free", "vector-legal", "covers"})
        proved += proofs::prove_trace(t, *proofs::parse_trace_claim(claim), o).verdict.is_proved();
    }
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  std::printf("SM80 f16 128x128x64x3, 4 warps: parse + trace 2 copies + 6 claims (%d proved): median %.2f ms, min %.2f ms over %d runs\n",
              proved, times[times.size() / 2], times.front(), reps);
  return proved == 6 ? 0 : 1;
}
