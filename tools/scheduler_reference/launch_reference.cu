// Which grids of CUTLASS's persistent schedulers can be launched at all: for each configuration,
// the real PersistentTileSchedulerSm90 / StreamK Params::get_grid_shape, then a cluster launch of
// an empty kernel with that grid and the cluster shape (cudaLaunchKernelEx), and its result.
// layoutproof says a grid the cluster does not divide is refused (proofs/raster/scheduler.cpp
// set_launch); this program is the hardware's answer. Headers from -I$CUTLASS_DIR/include:
//
//   nvcc -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -I$CUTLASS_DIR/include \
//     -o launch_reference tools/scheduler_reference/launch_reference.cu
//   ./launch_reference > launches.txt          (GPU machine)
//
// Each line: "kind M N cluster_m cluster_n raster sms gx gy gz ok|ERROR <cuda error>", kind 0
// sm90-persistent, 1 sm90-stream-k (k tiles 1, data-parallel; its grid is not truncated).
#include <cstdio>

#include <cuda_runtime.h>

#include "reference.hpp"

#include "cutlass/gemm/kernel/sm90_tile_scheduler.hpp"
#include "cutlass/gemm/kernel/tile_scheduler_params.h"

using Persistent = cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90Params;
using StreamK = cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90StreamKParams;
using RasterOrderOptions = cutlass::gemm::kernel::detail::RasterOrderOptions;

__global__ void empty() {}

int main() {
  const int tiles[] = {4, 16};
  const int clusters[][2] = {{2, 1}, {1, 2}, {2, 2}, {4, 1}};
  const RasterOrderOptions rasters[] = {RasterOrderOptions::AlongM, RasterOrderOptions::AlongN};
  const int sms_list[] = {3, 5, 17, 20, 66, 131, 132};
  for (int kind = 0; kind < 2; ++kind)
    for (int t : tiles)
      for (auto& cl : clusters)
        for (int ri = 0; ri < 2; ++ri)
          for (int sms : sms_list) {
            cutlass::KernelHardwareInfo hw;
            hw.sm_count = sms;
            hw.max_active_clusters = 0;
            const cutlass::gemm::GemmCoord cluster(cl[0], cl[1], 1);
            const cutlass::gemm::BatchedGemmCoord problem(t, t, 1, 1);
            const cutlass::gemm::GemmCoord tile(1, 1, 1);
            const dim3 grid = kind == 0 ? Persistent::get_grid_shape(problem, tile, cluster, hw, 1, rasters[ri])
                                        : StreamK::get_grid_shape(problem, tile, cluster, hw, 1, rasters[ri]);
            std::printf("%d %d %d %d %d %d %d %u %u %u ", kind, t, t, cl[0], cl[1], ri + 1, sms, grid.x, grid.y, grid.z);
            if (grid.x * grid.y * grid.z == 0) {
              std::printf("ERROR empty grid\n");
              continue;
            }
            const cudaError_t e = launch_with_cluster(empty, grid, cl[0], cl[1]);
            if (e == cudaSuccess) std::printf("ok\n");
            else {
              std::printf("ERROR %s\n", cudaGetErrorString(e));
              cudaGetLastError();
            }
          }
  return 0;
}
