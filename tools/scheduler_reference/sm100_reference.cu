// The reference for layoutproof's sm100-persistent model (model/raster/persistent_sm100.hpp):
// CUTLASS's own PersistentTileSchedulerSm100 mapping from a block to its tile, run on the GPU over a
// grid of configurations, printed as `layoutproof raster trace sm100-persistent ... --json` prints it
// (each CTA's own block's unit: initial_work_tile_info, swizzle_and_rasterize). The cluster launch
// control that hands CTAs further clusters needs an sm_100 machine; the mapping it feeds is this same
// swizzle_and_rasterize, which compiles and runs on sm_90 (no CLC instruction is instantiated).
// CUTLASS's headers are given at build time, never vendored:
//
//   nvcc -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -I$CUTLASS_DIR/include \
//     -o sm100_reference tools/scheduler_reference/sm100_reference.cu
//   ./sm100_reference > sm100_visits.txt        (GPU machine)
//   python3 tools/scheduler_reference/compare.py build/layoutproof sm100_visits.txt --kind sm100-persistent
//
// Each line: "M N L cluster_m cluster_n max_swizzle raster 0 <json>" (raster 0 heuristic, 1 along-m,
// 2 along-n; the 0 stands where the SM count is for sm90). The host side is the real
// Params::initialize and the scheduler's possibly_transpose_grid of get_tiled_cta_shape_mnl (its
// get_grid_shape); the kernel is launched with the cluster shape as its cluster dimensions.
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "reference.hpp"

#include "cute/tensor.hpp"
#include "cutlass/gemm/kernel/sm100_tile_scheduler.hpp"

using ClusterType = cute::Shape<cute::_1, cute::_1, cute::_1>;  // the type only: the launch gives the cluster
using Scheduler = cutlass::gemm::kernel::detail::PersistentTileSchedulerSm100<ClusterType, 2>;
using Params = typename Scheduler::Params;
using RasterOrderOptions = cutlass::gemm::kernel::detail::RasterOrderOptions;

__global__ void visits(Params params, int* out) {
  if (threadIdx.x != 0) return;
  const int cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  Scheduler s(nullptr, params, cute::block_id_in_cluster());
  const auto w = s.initial_work_tile_info(ClusterType{});
  out[3 * cta] = w.M_idx, out[3 * cta + 1] = w.N_idx, out[3 * cta + 2] = w.L_idx;
}

int main() {
  const int tiles[] = {1, 2, 3, 5, 8, 13, 16};
  const int clusters[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}};
  const int swizzles[] = {1, 2, 4, 8};
  const RasterOrderOptions rasters[] = {RasterOrderOptions::Heuristic, RasterOrderOptions::AlongM, RasterOrderOptions::AlongN};
  int* out = nullptr;
  const size_t cap = 3ull * 16 * 16 * 2;
  if (cudaMalloc(&out, cap * sizeof(int)) != cudaSuccess) return 1;
  std::vector<int> host(cap);
  for (int m : tiles)
    for (int n : tiles)
      for (int l = 1; l <= 2; ++l)
        for (auto& cl : clusters)
          for (int sw : swizzles)
            for (int ri = 0; ri < 3; ++ri) {
              cutlass::KernelHardwareInfo hw;
              hw.sm_count = 148;
              const cutlass::gemm::GemmCoord cluster(cl[0], cl[1], 1);
              const cutlass::gemm::GemmCoord tile(1, 1, 1);
              const cutlass::gemm::BatchedGemmCoord problem(m, n, 1, l);
              Params params;
              params.initialize(problem, tile, cluster, hw, sw, rasters[ri]);
              const dim3 grid = Scheduler::possibly_transpose_grid(params.raster_order_, params.divmod_cluster_shape_m_, params.divmod_cluster_shape_n_,
                                                                   Params::get_tiled_cta_shape_mnl(problem, tile, cluster));
              const int ctas = grid.x * grid.y * grid.z;
              std::printf("%d %d %d %d %d %d %d 0 ", m, n, l, cl[0], cl[1], sw, ri);
              if (size_t(ctas) * 3 > cap) {
                std::printf("ERROR grid %u %u %u\n", grid.x, grid.y, grid.z);
                continue;
              }
              const cudaError_t e = launch_with_cluster(visits, grid, cl[0], cl[1], params, out);
              if (e != cudaSuccess) {
                std::printf("ERROR %s\n", cudaGetErrorString(e));
                cudaGetLastError();
                continue;
              }
              cudaMemcpy(host.data(), out, size_t(ctas) * 3 * sizeof(int), cudaMemcpyDeviceToHost);
              std::string s = "{\"ctas\":[";
              for (int c = 0; c < ctas; ++c)
                s += (c ? ",{\"cta\":" : "{\"cta\":") + std::to_string(c) + ",\"work\":[{\"iter\":0,\"group\":0,\"m\":" + std::to_string(host[3 * c]) +
                     ",\"n\":" + std::to_string(host[3 * c + 1]) + ",\"l\":" + std::to_string(host[3 * c + 2]) + "}]}";
              s += "],\"grid\":[" + std::to_string(grid.x) + "," + std::to_string(grid.y) + "," + std::to_string(grid.z) + "]}";
              std::printf("%s\n", s.c_str());
            }
  return 0;
}
