// The reference for layoutproof's sm100-stream-k model (model/raster/stream_k_sm100.hpp): CUTLASS's
// own PersistentTileSchedulerSm100StreamK run on the GPU over a grid of configurations, every CTA's
// work units printed as `layoutproof raster trace sm100-stream-k ... --json` prints them (with
// k_begin and k_end). CUTLASS's headers are given at build time, never vendored:
//
//   nvcc -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -I$CUTLASS_DIR/include \
//     -o sm100_stream_k_reference tools/scheduler_reference/sm100_stream_k_reference.cu
//   ./sm100_stream_k_reference > sm100_stream_k_visits.txt   (GPU machine: one line per configuration)
//   python3 tools/scheduler_reference/compare.py build/layoutproof sm100_stream_k_visits.txt --kind sm100-stream-k
//
// Each line: "M N L cluster_m cluster_n max_swizzle raster sms k_tiles splits decomposition <json>",
// as stream_k_reference.cu's. The host side is the real Params::initialize (tile shape 1x1x1: the
// problem's M, N, K are the tiles and k tiles) and Params::get_grid_shape (what the scheduler's
// get_grid_shape returns for the same problem blocks). The device side calls only what runs
// without the cluster launch control (CLC) instructions, which need an sm_100 machine: the
// constructor (the hardware's block_id_in_cluster), initial_work_tile_info (the underlying
// PersistentTileSchedulerSm100's swizzle_and_rasterize of blockIdx, then convert_work), then
// continue_current_work while it returns true: the first branch of fetch_next_work. That is the
// schedule with no cluster cancelled: each CTA its own block's work. Nothing of the CLC path
// (fetch_next_work's second branch) is emulated; the ids it hands out go through the same
// convert_work. The kernel is launched with the cluster shape as its cluster dimensions.
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "reference.hpp"

#include "cute/tensor.hpp"
#include "cutlass/gemm/kernel/sm100_tile_scheduler_stream_k.hpp"
#include "stream_k_grid.hpp"

using Tile = cute::Shape<cute::_1, cute::_1, cute::_1>;
using ClusterType = cute::Shape<cute::_1, cute::_1, cute::_1>;  // the type only: the launch gives the cluster
using Scheduler = cutlass::gemm::kernel::detail::PersistentTileSchedulerSm100StreamK<Tile, ClusterType, 2>;
using Params = typename Scheduler::Params;

constexpr int kMaxVisits = 128;  // per CTA
constexpr int kFields = 5;       // m, n, l, k_begin, k_end
constexpr int kMaxCtas = 4096;

__global__ void visits(Params params, int* out) {
  if (threadIdx.x != 0) return;
  const long long cta = blockIdx.x + static_cast<long long>(gridDim.x) * (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z);
  int* mine = out + cta * (1 + kFields * kMaxVisits);
  Scheduler s(nullptr, params, cute::block_id_in_cluster());
  auto w = s.initial_work_tile_info(ClusterType{});
  int k = 0;
  bool more = w.is_valid();
  while (more && k < kMaxVisits) {
    int* v = mine + 1 + kFields * k;
    v[0] = w.M_idx, v[1] = w.N_idx, v[2] = w.L_idx, v[3] = w.K_idx, v[4] = w.K_idx + static_cast<int>(w.k_tile_count);
    ++k;
    more = s.continue_current_work(w);  // fetch_next_work's first branch
  }
  mine[0] = more ? -1 : k;  // -1: more than kMaxVisits
}

int main() {
  return run_stream_k_grid<Params>({8, 20, 148}, kMaxCtas, 1 + kFields * kMaxVisits, visits,
                                   [](const Params& params, auto problem, auto tile, auto cluster, auto hw, int sw, auto raster) {
                                     return params.get_grid_shape(problem, tile, cluster);
                                   });
}
