// The reference for layoutproof's sm90-group model (model/raster/persistent.hpp): CUTLASS's own
// PersistentTileSchedulerSm90Group run on the GPU over a grid of group lists and configurations,
// every CTA's visits printed as `layoutproof raster trace sm90-group ... --json` prints them.
// CUTLASS's headers are given at build time, never vendored:
//
//   nvcc -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -I$CUTLASS_DIR/include \
//     -o group_reference tools/scheduler_reference/group_reference.cu
//   ./group_reference > group_visits.txt          (GPU machine)
//   python3 tools/scheduler_reference/compare.py build/layoutproof group_visits.txt
//
// Each line: "G M0 N0 ... cluster_m cluster_n max_swizzle raster sms <json>" (raster 0 heuristic,
// 1 along-m, 2 along-n). The host side is the real to_underlying_arguments (get_tiled_cta_shape_mnl
// with the host problem shapes, Params::initialize) and get_grid_shape; the device side the real
// scheduler: its constructor, and get_current_work_for_linear_idx (the warp's group search and the
// tile) for the linear indices advance_to_next_work steps through (the current one plus the grid's
// size), run by a whole warp as the kernel runs it, with the cluster shape as the launch's cluster.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "reference.hpp"

#include "cute/tensor.hpp"
#include "cutlass/pipeline/pipeline.hpp"
#include "cutlass/gemm/group_array_problem_shape.hpp"
#include "cutlass/gemm/kernel/sm90_tile_scheduler_group.hpp"

using ProblemShape = cute::Shape<int, int, int>;
using Groups = cutlass::gemm::GroupProblemShape<ProblemShape>;
using Scheduler = cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90Group<Groups, 2>;
using Params = typename Scheduler::Params;
using RasterOrderOptions = cutlass::gemm::kernel::detail::RasterOrderOptions;
using Tile = cute::Shape<cute::_1, cute::_1, cute::_1>;

// Reaches the scheduler's own linear index and grid size (protected members).
struct Probe : Scheduler {
  using Scheduler::Scheduler;
  __device__ uint64_t linear() const { return this->current_work_linear_idx_; }
  __device__ uint64_t grid() const { return this->total_grid_size_; }
};

constexpr int kMaxVisits = 1024;

__global__ void visits(Params params, int* out) {
  const int cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int* mine = out + static_cast<long long>(cta) * (1 + 4 * kMaxVisits);
  Probe s(params, nullptr);
  uint64_t linear = s.linear();
  int k = 0;
  auto w = s.get_current_work_for_linear_idx(linear);
  while (w.is_valid() && k < kMaxVisits) {
    if (threadIdx.x == 0) {
      mine[1 + 4 * k] = w.M_idx;
      mine[2 + 4 * k] = w.N_idx;
      mine[3 + 4 * k] = w.L_idx;  // the group
      mine[4 + 4 * k] = 0;
    }
    ++k;
    linear += s.grid();
    w = s.get_current_work_for_linear_idx(linear);
  }
  if (threadIdx.x == 0) mine[0] = w.is_valid() ? -1 : k;
}

int main() {
  const int sides[] = {1, 2, 3, 5};
  std::vector<std::vector<int>> lists;
  for (int a : sides)
    for (int b : sides) lists.push_back({a, b});
  for (int a : sides)
    for (int b : sides)
      for (int c : sides)
        for (int d : sides) lists.push_back({a, b, c, d});
  const int clusters[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}};
  const int swizzles[] = {1, 2, 4, 8};
  const RasterOrderOptions rasters[] = {RasterOrderOptions::Heuristic, RasterOrderOptions::AlongM, RasterOrderOptions::AlongN};
  const int sms_list[] = {8, 132};
  int* out = nullptr;
  ProblemShape* dshapes = nullptr;
  const size_t cap = 264ull * (1 + 4 * kMaxVisits);
  if (cudaMalloc(&out, cap * sizeof(int)) != cudaSuccess || cudaMalloc(&dshapes, 8 * sizeof(ProblemShape)) != cudaSuccess) return 1;
  std::vector<int> host(cap);
  for (const auto& l : lists) {
    const int groups = static_cast<int>(l.size() / 2);
    std::vector<ProblemShape> hshapes;
    for (int g = 0; g < groups; ++g) hshapes.push_back(ProblemShape{l[2 * g], l[2 * g + 1], 1});
    cudaMemcpy(dshapes, hshapes.data(), groups * sizeof(ProblemShape), cudaMemcpyHostToDevice);
    Groups shapes{groups, dshapes, hshapes.data()};
    for (auto& cl : clusters)
      for (int sw : swizzles)
        for (int ri = 0; ri < 3; ++ri)
          for (int sms : sms_list) {
            cutlass::KernelHardwareInfo hw;
            hw.sm_count = sms;
            typename Scheduler::Arguments args{sw, rasters[ri]};
            Params params;
            dim3 grid;
            const auto plan = [&](auto cluster) {  // the cluster shape is static, as in a kernel
              params = Scheduler::to_underlying_arguments(shapes, Tile{}, cluster, hw, args);
              grid = Scheduler::get_grid_shape(params, shapes, Tile{}, cluster, hw, args);
            };
            if (cl[0] == 1 && cl[1] == 1) plan(cute::Shape<cute::_1, cute::_1, cute::_1>{});
            else if (cl[0] == 2 && cl[1] == 1) plan(cute::Shape<cute::_2, cute::_1, cute::_1>{});
            else if (cl[0] == 1 && cl[1] == 2) plan(cute::Shape<cute::_1, cute::_2, cute::_1>{});
            else plan(cute::Shape<cute::_2, cute::_2, cute::_1>{});
            const int ctas = grid.x * grid.y * grid.z;
            std::printf("%d", groups);
            for (int v : l) std::printf(" %d", v);
            std::printf(" %d %d %d %d %d ", cl[0], cl[1], sw, ri, sms);
            if (ctas > 264 || ctas == 0) {
              std::printf("ERROR grid %u %u %u\n", grid.x, grid.y, grid.z);
              continue;
            }
            const cudaError_t e = launch_with_cluster(visits, grid, cl[0], cl[1], params, out);
            if (e != cudaSuccess) {
              std::printf("ERROR %s\n", cudaGetErrorString(e));
              continue;
            }
            cudaMemcpy(host.data(), out, size_t(ctas) * (1 + 4 * kMaxVisits) * sizeof(int), cudaMemcpyDeviceToHost);
            std::printf("{\"ctas\":[");
            for (int c = 0; c < ctas; ++c) {
              const int* mine = host.data() + size_t(c) * (1 + 4 * kMaxVisits);
              std::printf("%s{\"cta\":%d,\"work\":[", c ? "," : "", c);
              for (int k = 0; k < mine[0]; ++k)
                std::printf("%s{\"iter\":%d,\"group\":%d,\"m\":%d,\"n\":%d,\"l\":0}", k ? "," : "", k, mine[3 + 4 * k], mine[1 + 4 * k], mine[2 + 4 * k]);
              std::printf("]}");
            }
            std::printf("],\"grid\":[%u,%u,%u]}\n", grid.x, grid.y, grid.z);
          }
  }
  return 0;
}
