// GPU check of model/raster/raster.hpp: each block records the tile it visits, computed on the
// device by the same LAYOUTPROOF_HOST_DEVICE functions the proofs talk about; the host compares
// with the model and checks the seed's counterexample (grid (1,2), tile_size 1: two blocks on one
// tile) happens on the GPU too.
// Build and run: nvcc -std=c++20 -I. -arch=sm_90 gpu_check/raster/raster_check.cu -o raster_check && ./raster_check
#include <cstdio>
#include <set>
#include <utility>
#include <vector>

#include "model/raster/raster.hpp"

using namespace layoutproof::raster;

__global__ void record(Kind kind, u32 param, uint2* out) {
  if (threadIdx.x != 0) return;
  const Tile t = apply_builtin(kind, blockIdx.x, blockIdx.y, gridDim.x, gridDim.y, param);
  out[blockIdx.y * gridDim.x + blockIdx.x] = make_uint2(t.x, t.y);
}

const char* to_string_kind(Kind k) {
  static const char* names[] = {"row-major", "seed", "seed-fixed", "cutlass", "morton", "formula"};
  return names[static_cast<int>(k)];
}

struct Case {
  Kind kind;
  u32 param, p0, p1;
};

int main() {
  const Case cases[] = {
      {Kind::seed, 1, 1, 2},        // the Z3 counterexample: blocks (0,0), (0,1) -> tile (0,0)
      {Kind::seed, 4, 8, 8},        // square: the article's example shape
      {Kind::seed, 4, 32, 32},      // 4096^3 GEMM with 128x128 tiles
      {Kind::seed, 3, 10, 7},       // residual strip and gridDim.x != gridDim.y
      {Kind::seed_fixed, 3, 10, 7},
      {Kind::cutlass, 1, 1, 1},     // no-op block (1,0) -> tile (0,1)
      {Kind::cutlass, 3, 32, 32},
      {Kind::cutlass, 2, 5, 7},
      {Kind::morton, 0, 1, 2},      // block (0,1) -> tile (1,0), outside (1,2)
      {Kind::morton, 0, 16, 16},
      {Kind::row_major, 0, 33, 5},
  };
  int failures = 0;
  for (const Case& c : cases) {
    const Grid g = launch_grid(c.kind, c.p0, c.p1, c.param), tiles = tile_grid(c.kind, c.p0, c.p1);
    const std::size_t n = std::size_t{g.x} * g.y;
    uint2* d = nullptr;
    cudaMalloc(&d, n * sizeof(uint2));
    cudaMemset(d, 0xFF, n * sizeof(uint2));
    record<<<dim3(g.x, g.y), 32>>>(c.kind, c.param, d);
    std::vector<uint2> h(n);
    const cudaError_t err = cudaMemcpy(h.data(), d, n * sizeof(uint2), cudaMemcpyDeviceToHost);
    cudaFree(d);
    if (err != cudaSuccess) {
      std::printf("CUDA error: %s\n", cudaGetErrorString(err));
      return 2;
    }
    int mismatches = 0, out_of_bounds = 0, collisions = 0;
    std::set<std::pair<u32, u32>> seen;
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        const uint2 dev = h[std::size_t{by} * g.x + bx];
        const Tile host = apply_builtin(c.kind, bx, by, g.x, g.y, c.param);
        if (dev.x != host.x || dev.y != host.y) ++mismatches;
        if (dev.x >= tiles.x || dev.y >= tiles.y) ++out_of_bounds;
        else if (!seen.insert({dev.x, dev.y}).second) ++collisions;
      }
    const long missing = static_cast<long>(tiles.x) * tiles.y - static_cast<long>(seen.size());
    std::printf("%-10s param %u dims (%u,%u) launch (%u,%u): %zu blocks, model mismatches %d, out-of-bounds %d, "
                "collisions %d, tiles never visited %ld\n",
                to_string_kind(c.kind), c.param, c.p0, c.p1, g.x, g.y, n, mismatches, out_of_bounds, collisions, missing);
    failures += mismatches;
  }
  std::printf(failures ? "FAIL: the device disagrees with the model\n" : "OK: every block's tile equals the model's\n");
  return failures ? 1 : 0;
}
