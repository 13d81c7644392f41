// The reference for layoutproof's sm100-group model (model/raster/persistent.hpp, GroupConfig with
// arch sm100): CUTLASS's own PersistentTileSchedulerSm100Group run on the GPU over a grid of group
// lists and configurations, every CTA's visits printed as `layoutproof raster trace sm100-group ...
// --json` prints them. The scheduler is static (IsDynamicPersistent false: no cluster launch control
// instruction is instantiated), so it compiles for sm_90 and runs on an H100/H200. CUTLASS's headers
// are given at build time, never vendored:
//
//   nvcc -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -I$CUTLASS_DIR/include \
//     -o sm100_group_reference tools/scheduler_reference/sm100_group_reference.cu
//   ./sm100_group_reference > sm100_group_visits.txt          (GPU machine)
//   python3 tools/scheduler_reference/compare.py build/layoutproof sm100_group_visits.txt --kind sm100-group
//
// Each line: "G M0 N0 ... cluster_m cluster_n max_swizzle raster sms atom_m dynamic <json>" (raster 0
// heuristic, 1 along-m, 2 along-n; atom_m the AtomThrShape's M, 2 for a 2-SM MMA; dynamic 1 when the
// cluster shape is a run-time one, hw_info.cluster_shape). The host side is the real
// to_underlying_arguments (the CTA tile = the MMA tile / AtomThrShape; get_tiled_cta_shape_mnl with
// the host problem shapes; Params::initialize) and the real get_grid_shape, called as the grouped
// kernel (sm100_gemm_array_tma_warpspecialized.hpp get_grid_shape) calls it: with the MMA tile shape.
// The device side is the real scheduler as the kernel drives it: its constructor,
// initial_work_tile_info, then advance_to_next_work (the scheduler warp: the linear index plus the
// grid's size, the work written to the response buffer) and fetch_next_work (the consumer: the work
// read back) until the work is invalid, run by a whole warp, the cluster shape as the launch's cluster.
// A list's configurations are launched together and synchronized once.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "reference.hpp"

#include "cute/tensor.hpp"
#include "cutlass/pipeline/pipeline.hpp"
#include "cutlass/gemm/group_array_problem_shape.hpp"
#include "cutlass/gemm/kernel/sm100_tile_scheduler_group.hpp"

using ProblemShape = cute::Shape<int, int, int>;
using Groups = cutlass::gemm::GroupProblemShape<ProblemShape>;
using Scheduler = cutlass::gemm::kernel::detail::PersistentTileSchedulerSm100Group<Groups, 2>;
using Params = typename Scheduler::Params;
using WorkTileInfo = typename Scheduler::WorkTileInfo;
using RasterOrderOptions = cutlass::gemm::kernel::detail::RasterOrderOptions;

// The scheduler pipeline's protocol with one warp as both its producer and its consumer: the one
// stage's hand-over is the warp's own synchronization (the response is written by one elected lane).
struct OneWarpState {
  __device__ int index() const { return 0; }
};
struct OneWarpPipeline {
  __device__ void producer_acquire(OneWarpState) {}
  // Called by the elected lane alone: a __syncwarp here, met by the other lanes at consumer_wait's,
  // made each launch take about 75 ms on an H200 (and is not needed: consumer_wait's orders the write).
  __device__ void producer_commit(OneWarpState) {}
  __device__ void consumer_wait(OneWarpState) { __syncwarp(); }
  __device__ void consumer_release(OneWarpState) { __syncwarp(); }
};

constexpr int kMaxVisits = 128;  // past the most any CTA takes here (2 groups of 5x5 tiles)

template <class ClusterShape>
__global__ void visits(Params params, ClusterShape cluster, int* out) {
  __shared__ WorkTileInfo response[2];
  const int cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int* mine = out + static_cast<long long>(cta) * (1 + 3 * kMaxVisits);
  Scheduler s(response, params, cute::block_id_in_cluster());
  OneWarpPipeline pipe;
  OneWarpState state;
  WorkTileInfo w = s.initial_work_tile_info(cluster);
  int k = 0;
  while (w.is_valid() && k < kMaxVisits) {
    if (threadIdx.x == 0) {
      mine[1 + 3 * k] = w.M_idx;
      mine[2 + 3 * k] = w.N_idx;
      mine[3 + 3 * k] = w.L_idx;  // the group
    }
    ++k;
    s.advance_to_next_work(pipe, state);
    w = cute::get<0>(s.fetch_next_work(w, pipe, state));
  }
  if (threadIdx.x == 0) mine[0] = w.is_valid() ? -1 : k;
}

// `host` (no GPU needed, run on the build machine): the host side alone, the real
// to_underlying_arguments and get_grid_shape over a wider grid (group lists up to 200 tiles a mode,
// clusters up to 4x2 and 2x4, 1 to 160 SMs, max_active_clusters 0, 4, 100), one line each:
// "G M0 N0 ... cluster_m cluster_n raster sms atom_m dynamic max_active_clusters grid_x grid_y grid_z".
// Without arguments: every list of 1 or 2 groups of M, N in {1, 2, 3, 5}, max swizzle 1, 2, 4, 8,
// 8, 20 and 148 SMs. `focus`: nine lists chosen for the swizzle's rounding and the group search
// (2x3, 3x3, 5x5, 2x3,1x1, 1x1,2x3, 3x2,5x3, 5x5,2x2, 3x5,5x3, 2x2,3x3), max swizzle 1 and 4, 8 and
// 148 SMs. Both: the four clusters, the AtomThrShape M 1 and 2 (2 where the cluster's M is even),
// static and run-time cluster shapes, the three rasters.
// The real host side for one configuration: the grid the grouped kernel launches.
template <class Tile, class Atom, class Cluster>
dim3 host_grid(Groups const& shapes, Tile tile, Atom atom_shape, Cluster cluster, cutlass::KernelHardwareInfo const& hw,
               typename Scheduler::Arguments const& args) {
  const Params params = Scheduler::to_underlying_arguments(shapes, tile, atom_shape, cluster, hw, args);
  return Scheduler::get_grid_shape(params, shapes, tile, atom_shape, cutlass::detail::select_cluster_shape(cluster, hw.cluster_shape), hw);
}

template <int CM, int CN>
dim3 host_grid_static(Groups const& shapes, int atom, cutlass::KernelHardwareInfo const& hw, typename Scheduler::Arguments const& args) {
  using namespace cute;
  using C = Shape<Int<CM>, Int<CN>, _1>;
  return atom == 1 ? host_grid(shapes, Shape<_1, _1, _1>{}, Shape<_1, _1, _1>{}, C{}, hw, args)
                   : host_grid(shapes, Shape<_2, _1, _1>{}, Shape<_2, _1, _1>{}, C{}, hw, args);
}

int host_only() {
  using namespace cute;
  const std::vector<std::vector<int>> lists = {{1, 1}, {3, 2}, {7, 5}, {40, 3}, {16, 16, 3, 100}, {200, 1}};
  const int clusters[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 1}, {1, 4}, {4, 2}, {2, 4}};
  const RasterOrderOptions rasters[] = {RasterOrderOptions::Heuristic, RasterOrderOptions::AlongM, RasterOrderOptions::AlongN};
  const int sms_list[] = {1, 3, 5, 8, 17, 19, 20, 21, 40, 100, 147, 148, 160};
  const int active[] = {0, 4, 100};
  for (const auto& l : lists) {
    const int groups = static_cast<int>(l.size() / 2);
    std::vector<ProblemShape> hshapes;
    for (int g = 0; g < groups; ++g) hshapes.push_back(ProblemShape{l[2 * g], l[2 * g + 1], 1});
    Groups shapes{groups, nullptr, hshapes.data()};
    for (auto& cl : clusters)
      for (int atom = 1; atom <= 2; ++atom)
        for (int dynamic = 0; dynamic <= 1; ++dynamic)
          for (int ri = 0; ri < 3; ++ri)
            for (int sms : sms_list)
              for (int mac : active) {
                if (atom == 2 && cl[0] % 2 != 0) continue;
                cutlass::KernelHardwareInfo hw;
                hw.sm_count = sms;
                hw.max_active_clusters = mac;
                hw.cluster_shape = dim3(cl[0], cl[1], 1);
                typename Scheduler::Arguments args{1, rasters[ri]};
                dim3 grid;
                if (dynamic)
                  grid = atom == 1 ? host_grid(shapes, Shape<_1, _1, _1>{}, Shape<_1, _1, _1>{}, Shape<int, int, _1>{cl[0], cl[1], _1{}}, hw, args)
                                   : host_grid(shapes, Shape<_2, _1, _1>{}, Shape<_2, _1, _1>{}, Shape<int, int, _1>{cl[0], cl[1], _1{}}, hw, args);
                else if (cl[0] == 1 && cl[1] == 1) grid = host_grid_static<1, 1>(shapes, atom, hw, args);
                else if (cl[0] == 2 && cl[1] == 1) grid = host_grid_static<2, 1>(shapes, atom, hw, args);
                else if (cl[0] == 1 && cl[1] == 2) grid = host_grid_static<1, 2>(shapes, atom, hw, args);
                else if (cl[0] == 2 && cl[1] == 2) grid = host_grid_static<2, 2>(shapes, atom, hw, args);
                else if (cl[0] == 4 && cl[1] == 1) grid = host_grid_static<4, 1>(shapes, atom, hw, args);
                else if (cl[0] == 1 && cl[1] == 4) grid = host_grid_static<1, 4>(shapes, atom, hw, args);
                else if (cl[0] == 4 && cl[1] == 2) grid = host_grid_static<4, 2>(shapes, atom, hw, args);
                else grid = host_grid_static<2, 4>(shapes, atom, hw, args);
                std::printf("%d", groups);
                for (int v : l) std::printf(" %d", v);
                std::printf(" %d %d %d %d %d %d %d %u %u %u\n", cl[0], cl[1], ri, sms, atom, dynamic, mac, grid.x, grid.y, grid.z);
              }
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "host") return host_only();
  const bool focus = argc > 1 && std::string(argv[1]) == "focus";
  const int sides[] = {1, 2, 3, 5};
  std::vector<std::vector<int>> lists;
  if (focus) {
    lists = {{2, 3}, {3, 3}, {5, 5}, {2, 3, 1, 1}, {1, 1, 2, 3}, {3, 2, 5, 3}, {5, 5, 2, 2}, {3, 5, 5, 3}, {2, 2, 3, 3}};
  } else {
    for (int a : sides)
      for (int b : sides) lists.push_back({a, b});
    for (int a : sides)
      for (int b : sides)
        for (int c : sides)
          for (int d : sides) lists.push_back({a, b, c, d});
  }
  const int clusters[][2] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}};
  const std::vector<int> swizzles = focus ? std::vector<int>{1, 4} : std::vector<int>{1, 2, 4, 8};
  const RasterOrderOptions rasters[] = {RasterOrderOptions::Heuristic, RasterOrderOptions::AlongM, RasterOrderOptions::AlongN};
  const std::vector<int> sms_list = focus ? std::vector<int>{8, 148} : std::vector<int>{8, 20, 148};
  constexpr int kMaxCtas = 296;
  constexpr size_t kPerCta = 1 + 3 * kMaxVisits;
  // One list's configurations are launched back to back, each into its own slice of `out`, and
  // synchronized once.
  constexpr size_t kSlices = 432 * size_t(kMaxCtas);
  int* out = nullptr;
  ProblemShape* dshapes = nullptr;
  if (cudaMalloc(&out, kSlices * kPerCta * sizeof(int)) != cudaSuccess || cudaMalloc(&dshapes, 8 * sizeof(ProblemShape)) != cudaSuccess) return 1;
  std::vector<int> host(kSlices * kPerCta);
  struct Pending {
    std::string head, error;
    dim3 grid;
    size_t at = 0;
  };
  for (const auto& l : lists) {
    const int groups = static_cast<int>(l.size() / 2);
    std::vector<ProblemShape> hshapes;
    for (int g = 0; g < groups; ++g) hshapes.push_back(ProblemShape{l[2 * g], l[2 * g + 1], 1});
    cudaMemcpy(dshapes, hshapes.data(), groups * sizeof(ProblemShape), cudaMemcpyHostToDevice);
    Groups shapes{groups, dshapes, hshapes.data()};
    std::vector<Pending> pending;
    size_t used = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (auto& cl : clusters)
      for (int atom = 1; atom <= 2; ++atom)
        for (int dynamic = 0; dynamic <= 1; ++dynamic)
          for (int sw : swizzles)
            for (int ri = 0; ri < 3; ++ri)
              for (int sms : sms_list) {
                if (atom == 2 && cl[0] % 2 != 0) continue;  // can_implement: a 2-SM MMA needs the cluster's M even
                cutlass::KernelHardwareInfo hw;
                hw.sm_count = sms;
                hw.cluster_shape = dim3(cl[0], cl[1], 1);
                typename Scheduler::Arguments args{sw, rasters[ri]};
                Pending p;
                p.head = std::to_string(groups);
                for (int v : l) p.head += " " + std::to_string(v);
                for (int v : {cl[0], cl[1], sw, ri, sms, atom, dynamic}) p.head += " " + std::to_string(v);
                const auto run = [&](auto tile, auto atom_shape, auto cluster) {
                  // sm100_gemm_array_tma_warpspecialized.hpp: to_underlying_arguments(problem_shapes, TileShape{},
                  // AtomThrShapeMNK{}, ClusterShape{}, ...) and get_grid_shape(params, problem_shapes, TileShape{},
                  // AtomThrShapeMNK{}, select_cluster_shape(ClusterShape{}, hw_info.cluster_shape), hw_info).
                  const Params params = Scheduler::to_underlying_arguments(shapes, tile, atom_shape, cluster, hw, args);
                  const auto selected = cutlass::detail::select_cluster_shape(cluster, hw.cluster_shape);
                  p.grid = Scheduler::get_grid_shape(params, shapes, tile, atom_shape, selected, hw);
                  const int ctas = p.grid.x * p.grid.y * p.grid.z;
                  if (ctas > kMaxCtas || ctas == 0) {
                    p.error = "ERROR grid " + std::to_string(p.grid.x) + " " + std::to_string(p.grid.y) + " " + std::to_string(p.grid.z);
                    return;
                  }
                  p.at = used;
                  used += size_t(ctas) * kPerCta;
                  const cudaError_t e = launch_with_cluster_async(visits<decltype(selected)>, p.grid, cl[0], cl[1], params, selected, out + p.at);
                  if (e != cudaSuccess) {
                    p.error = std::string("ERROR ") + cudaGetErrorString(e);
                    cudaGetLastError();
                  }
                };
                using cute::_1;
                using cute::_2;
                using cute::Shape;
                const auto with_cluster = [&](auto tile, auto atom_shape) {
                  if (dynamic) run(tile, atom_shape, Shape<int, int, _1>{cl[0], cl[1], _1{}});
                  else if (cl[0] == 1 && cl[1] == 1) run(tile, atom_shape, Shape<_1, _1, _1>{});
                  else if (cl[0] == 2 && cl[1] == 1) run(tile, atom_shape, Shape<_2, _1, _1>{});
                  else if (cl[0] == 1 && cl[1] == 2) run(tile, atom_shape, Shape<_1, _2, _1>{});
                  else run(tile, atom_shape, Shape<_2, _2, _1>{});
                };
                // The CTA tile is 1x1 (the problem shapes are in tiles); a 2-SM MMA's tile is 2 CTAs along M.
                if (atom == 1) with_cluster(Shape<_1, _1, _1>{}, Shape<_1, _1, _1>{});
                else with_cluster(Shape<_2, _1, _1>{}, Shape<_2, _1, _1>{});
                pending.push_back(p);
              }
    const auto t1 = std::chrono::steady_clock::now();
    const cudaError_t e = cudaDeviceSynchronize();
    const auto t2 = std::chrono::steady_clock::now();
    std::fprintf(stderr, "list %zu: %zu configurations, launches %.1f ms, synchronization %.1f ms\n", &l - lists.data(), pending.size(),
                 std::chrono::duration<double, std::milli>(t1 - t0).count(), std::chrono::duration<double, std::milli>(t2 - t1).count());
    if (e == cudaSuccess) cudaMemcpy(host.data(), out, used * sizeof(int), cudaMemcpyDeviceToHost);
    for (const Pending& p : pending) {
      if (e != cudaSuccess || !p.error.empty()) {
        std::printf("%s %s\n", p.head.c_str(), e != cudaSuccess ? (std::string("ERROR ") + cudaGetErrorString(e)).c_str() : p.error.c_str());
        continue;
      }
      const int ctas = p.grid.x * p.grid.y * p.grid.z;
      std::string s = p.head + " {\"ctas\":[";
      for (int c = 0; c < ctas; ++c) {
        const int* m = host.data() + p.at + size_t(c) * kPerCta;
        s += (c ? ",{\"cta\":" : "{\"cta\":") + std::to_string(c) + ",\"work\":[";
        for (int k = 0; k < m[0]; ++k)
          s += (k ? ",{\"iter\":" : "{\"iter\":") + std::to_string(k) + ",\"group\":" + std::to_string(m[3 + 3 * k]) +
               ",\"m\":" + std::to_string(m[1 + 3 * k]) + ",\"n\":" + std::to_string(m[2 + 3 * k]) + ",\"l\":0}";
        s += "]}";
      }
      s += "],\"grid\":[" + std::to_string(p.grid.x) + "," + std::to_string(p.grid.y) + "," + std::to_string(p.grid.z) + "]}";
      std::printf("%s\n", s.c_str());
    }
    std::fflush(stdout);
  }
  return 0;
}
