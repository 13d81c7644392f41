// The reference for layoutproof's sm90-stream-k model (model/raster/stream_k.hpp): CUTLASS's own
// PersistentTileSchedulerSm90StreamK run on the GPU over a grid of configurations, every CTA's work
// units printed as `layoutproof raster trace sm90-stream-k ... --json` prints them (with k_begin and
// k_end). CUTLASS's headers are given at build time, never vendored:
//
//   nvcc -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -I$CUTLASS_DIR/include \
//     -o stream_k_reference tools/scheduler_reference/stream_k_reference.cu
//   ./stream_k_reference > stream_k_visits.txt      (GPU machine: one line per configuration)
//   python3 tools/scheduler_reference/compare.py build/layoutproof stream_k_visits.txt --kind sm90-stream-k
//
// Each line: "M N L cluster_m cluster_n max_swizzle raster sms k_tiles splits decomposition <json>",
// raster 0 heuristic, 1 along-m, 2 along-n; decomposition 0 heuristic, 1 data-parallel, 2 split-k,
// 3 stream-k. The host side is the real Params::initialize (tile shape 1x1x1, so the problem's M, N,
// K are the tiles and k tiles) and Params::get_grid_shape; the device side the real scheduler run as
// the cooperative kernel runs it: its constructor (blockIdx, the hardware's block_id_in_cluster),
// get_current_work, then fetch_next_work (continue_current_work, else advance_to_next_work and
// get_current_work) while the work is valid, launched with the cluster shape as its cluster.
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "reference.hpp"

#include "cute/tensor.hpp"
#include "cutlass/gemm/kernel/sm90_tile_scheduler_stream_k.hpp"
#include "stream_k_grid.hpp"

using Tile = cute::Shape<cute::_1, cute::_1, cute::_1>;
using ClusterType = cute::Shape<cute::_1, cute::_1, cute::_1>;  // the type only: the launch gives the cluster
using Scheduler = cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90StreamK<Tile, ClusterType>;
using Params = typename Scheduler::Params;

constexpr int kMaxVisits = 512;  // per CTA
constexpr int kFields = 5;       // m, n, l, k_begin, k_end

__global__ void visits(Params params, int* out) {
  if (threadIdx.x != 0) return;
  const int cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int* mine = out + static_cast<long long>(cta) * (1 + kFields * kMaxVisits);
  Scheduler s(params);
  auto w = s.get_current_work();
  int k = 0;
  while (w.is_valid() && k < kMaxVisits) {
    int* v = mine + 1 + kFields * k;
    v[0] = w.M_idx, v[1] = w.N_idx, v[2] = w.L_idx, v[3] = w.K_idx, v[4] = w.K_idx + static_cast<int>(w.k_tile_count);
    ++k;
    auto [next, more] = s.fetch_next_work(w);
    w = next;
  }
  mine[0] = w.is_valid() ? -1 : k;  // -1: more than kMaxVisits
}

int main() {
  return run_stream_k_grid<Params>({8, 20, 132}, 264, 1 + kFields * kMaxVisits, visits,
                                   [](const Params& params, auto problem, auto tile, auto cluster, auto hw, int sw, auto raster) {
                                     return Params::get_grid_shape(problem, tile, cluster, hw, sw, raster);
                                   });
}
