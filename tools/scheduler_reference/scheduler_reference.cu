// The reference for layoutproof's persistent-scheduler models (model/raster/persistent.hpp): CUTLASS's
// own PersistentTileSchedulerSm90, run on the GPU over a grid of configurations, every CTA's visits
// printed in the form of `layoutproof raster trace sm90-persistent ... --json`. CUTLASS's headers are
// given at build time, never vendored:
//
//   nvcc -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -I$CUTLASS_DIR/include \
//     -o scheduler_reference tools/scheduler_reference/scheduler_reference.cu
//   ./scheduler_reference > visits.txt      (GPU machine: one line per configuration)
//   python3 tools/scheduler_reference/compare.py build/layoutproof visits.txt
//
// Each line: "M N L cluster_m cluster_n max_swizzle raster sms <json>", raster 0 heuristic, 1 along-m,
// 2 along-n. The host side is the real Params::initialize and Params::get_grid_shape; the device
// side the real scheduler (its constructor reads blockIdx/gridDim, get_current_work, advance), the
// kernel launched with the cluster shape as its cluster dimensions (cudaLaunchKernelEx), so
// block_id_in_cluster is the hardware's.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "reference.hpp"

#include "cutlass/gemm/kernel/sm90_tile_scheduler.hpp"

using Scheduler = cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90;
using Params = Scheduler::Params;
using RasterOrderOptions = cutlass::gemm::kernel::detail::RasterOrderOptions;

constexpr int kMaxVisits = 4096;  // per CTA

__global__ void visits(Params params, int* out) {
  if (threadIdx.x != 0) return;
  const int cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int* mine = out + static_cast<long long>(cta) * (1 + 3 * kMaxVisits);
  Scheduler s(params);
  auto w = s.get_current_work();
  int k = 0;
  while (w.is_valid() && k < kMaxVisits) {
    mine[1 + 3 * k] = w.M_idx;
    mine[2 + 3 * k] = w.N_idx;
    mine[3 + 3 * k] = w.L_idx;
    ++k;
    s.advance_to_next_work();
    w = s.get_current_work();
  }
  mine[0] = w.is_valid() ? -1 : k;  // -1: more than kMaxVisits
}

int main() {
  const int tiles[] = {1, 2, 3, 5, 7, 8, 13, 16};
  const int clusters[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}};
  const int swizzles[] = {1, 2, 4, 8};
  const RasterOrderOptions rasters[] = {RasterOrderOptions::Heuristic, RasterOrderOptions::AlongM, RasterOrderOptions::AlongN};
  const int sms_list[] = {8, 132};
  int* out = nullptr;
  const size_t cap = 264ull * (1 + 3 * kMaxVisits);
  if (cudaMalloc(&out, cap * sizeof(int)) != cudaSuccess) return 1;
  std::vector<int> host(cap);
  for (int m : tiles)
    for (int n : tiles)
      for (int l = 1; l <= 2; ++l)
        for (auto& cl : clusters)
          for (int sw : swizzles)
            for (int ri = 0; ri < 3; ++ri)
              for (int sms : sms_list) {
                cutlass::KernelHardwareInfo hw;
                hw.sm_count = sms;
                hw.max_active_clusters = 0;
                const cutlass::gemm::GemmCoord cluster(cl[0], cl[1], 1);
                const cutlass::gemm::BatchedGemmCoord problem(m, n, 1, l);
                const dim3 blocks = Params::get_tiled_cta_shape_mnl(problem, cluster, m, n);
                Params params;
                params.initialize(blocks, cluster, hw, sw, rasters[ri]);
                const dim3 grid = Params::get_grid_shape(blocks, cluster, hw, sw, rasters[ri]);
                const int ctas = grid.x * grid.y * grid.z;
                if (ctas > 264) return 2;
                const cudaError_t e = launch_with_cluster(visits, grid, cl[0], cl[1], params, out);
                if (e != cudaSuccess) {
                  std::printf("%d %d %d %d %d %d %d %d ERROR %s\n", m, n, l, cl[0], cl[1], sw, ri, sms, cudaGetErrorString(e));
                  continue;
                }
                cudaMemcpy(host.data(), out, size_t(ctas) * (1 + 3 * kMaxVisits) * sizeof(int), cudaMemcpyDeviceToHost);
                std::printf("%d %d %d %d %d %d %d %d {\"ctas\":[", m, n, l, cl[0], cl[1], sw, ri, sms);
                for (int c = 0; c < ctas; ++c) {
                  const int* mine = host.data() + size_t(c) * (1 + 3 * kMaxVisits);
                  std::printf("%s{\"cta\":%d,\"work\":[", c ? "," : "", c);
                  for (int k = 0; k < mine[0]; ++k)
                    std::printf("%s{\"iter\":%d,\"group\":0,\"m\":%d,\"n\":%d,\"l\":%d}", k ? "," : "", k, mine[1 + 3 * k], mine[2 + 3 * k],
                                mine[3 + 3 * k]);
                  std::printf("]}");
                }
                std::printf("],\"grid\":[%u,%u,%u]}\n", grid.x, grid.y, grid.z);
              }
  return 0;
}
