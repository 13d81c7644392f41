#pragma once
// The parameter grid both stream-K reference programs run (stream_k_reference.cu for the SM90
// scheduler, sm100_stream_k_reference.cu for the SM100 one), and the loop that runs it: per
// configuration the real Params::initialize, the scheduler's grid, a cluster launch of `kernel`, and
// one line "M N L cluster_m cluster_n max_swizzle raster sms k_tiles splits decomposition <json>"
// (raster 0 heuristic, 1 along-m, 2 along-n; decomposition 0 heuristic, 1 data-parallel, 2 split-k,
// 3 stream-k). Include after CUTLASS's scheduler header and reference.hpp.
//
//   tiles M, N in {1, 3, 5, 8, 13}, L in {1, 2}; clusters 1x1, 2x1, 1x2, 2x2; max swizzle 1, 4; the
//   three rasters; the SM counts given; k tiles 9, 17, 40; (splits, decomposition) in (1, each of the
//   four), (2, heuristic), (2, split-k), (3, heuristic), (3, split-k) (splits > 1 only where
//   can_implement takes it).
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

// kernel(params, out) records each CTA's visits in `per_cta` ints (visits_json's layout, 5 fields a
// visit); grid_of(params, problem, tile, cluster, hw, max_swizzle, raster) is the scheduler's grid.
// Returns the program's exit code: 0, 1 (no device memory) or 3 (a CTA overflowed its buffer).
template <class Params, class Kernel, class GridOf>
int run_stream_k_grid(const std::vector<int>& sms_list, long long max_ctas, size_t per_cta, Kernel kernel, GridOf grid_of) {
  using RasterOrderOptions = cutlass::gemm::kernel::detail::RasterOrderOptions;
  using DecompositionMode = cutlass::gemm::kernel::detail::DecompositionMode;
  using ReductionMode = cutlass::gemm::kernel::detail::ReductionMode;
  const int tiles[] = {1, 3, 5, 8, 13};
  const int clusters[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}};
  const int swizzles[] = {1, 4};
  const RasterOrderOptions rasters[] = {RasterOrderOptions::Heuristic, RasterOrderOptions::AlongM, RasterOrderOptions::AlongN};
  const int k_list[] = {9, 17, 40};
  const int modes[][2] = {{1, 0}, {1, 1}, {1, 2}, {1, 3}, {2, 0}, {2, 2}, {3, 0}, {3, 2}};
  const DecompositionMode decomps[] = {DecompositionMode::Heuristic, DecompositionMode::DataParallel, DecompositionMode::SplitK,
                                       DecompositionMode::StreamK};
  int* out = nullptr;
  const size_t cap = size_t(max_ctas) * per_cta;
  if (cudaMalloc(&out, cap * sizeof(int)) != cudaSuccess) return 1;
  std::vector<int> host(cap);
  for (int m : tiles)
    for (int n : tiles)
      for (int l = 1; l <= 2; ++l)
        for (auto& cl : clusters)
          for (int sw : swizzles)
            for (int ri = 0; ri < 3; ++ri)
              for (int sms : sms_list)
                for (int kt : k_list)
                  for (auto& md : modes) {
                    cutlass::KernelHardwareInfo hw;
                    hw.sm_count = sms;
                    hw.max_active_clusters = 0;
                    const cutlass::gemm::GemmCoord cluster(cl[0], cl[1], 1);
                    const cutlass::gemm::GemmCoord tile(1, 1, 1);
                    const cutlass::gemm::BatchedGemmCoord problem(m, n, kt, l);
                    Params params;
                    params.initialize(problem, tile, cluster, hw, md[0], sw, rasters[ri], ReductionMode::Deterministic, decomps[md[1]], nullptr);
                    const dim3 grid = grid_of(params, problem, tile, cluster, hw, sw, rasters[ri]);
                    const long long ctas = static_cast<long long>(grid.x) * grid.y * grid.z;
                    std::printf("%d %d %d %d %d %d %d %d %d %d %d ", m, n, l, cl[0], cl[1], sw, ri, sms, kt, md[0], md[1]);
                    if (ctas > max_ctas || ctas == 0) {
                      std::printf("ERROR grid %u %u %u\n", grid.x, grid.y, grid.z);
                      continue;
                    }
                    const cudaError_t e = launch_with_cluster(kernel, grid, cl[0], cl[1], params, out);
                    if (e != cudaSuccess) {
                      std::printf("ERROR %s\n", cudaGetErrorString(e));
                      cudaGetLastError();
                      continue;
                    }
                    cudaMemcpy(host.data(), out, size_t(ctas) * per_cta * sizeof(int), cudaMemcpyDeviceToHost);
                    std::string s;
                    if (!visits_json(host.data(), ctas, per_cta, 5, true, grid, s)) return 3;
                    std::printf("%s\n", s.c_str());
                  }
  return 0;
}
