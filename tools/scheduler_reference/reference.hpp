#pragma once
// What the reference programs share: the cluster launch and the JSON line of recorded visits.
//
// launch_with_cluster: the one launch: a one-warp-per-CTA kernel over `grid` with the cluster shape
// (cluster_m, cluster_n, 1) as its cluster dimensions (cudaLaunchKernelEx), so block_id_in_cluster
// is the hardware's. launch_with_cluster synchronizes, so a launch the hardware refuses or a fault
// returns its error; launch_with_cluster_async returns the launch's own error only (a refused
// cluster shape), for a caller that launches many configurations and synchronizes once.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

template <class... Params, class... Args>
cudaError_t launch_with_cluster_async(void (*kernel)(Params...), dim3 grid, int cluster_m, int cluster_n, Args... args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = dim3(32, 1, 1);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster_m;
  attr[0].val.clusterDim.y = cluster_n;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, kernel, args...);
}

template <class... Params, class... Args>
cudaError_t launch_with_cluster(void (*kernel)(Params...), dim3 grid, int cluster_m, int cluster_n, Args... args) {
  cudaError_t e = launch_with_cluster_async(kernel, grid, cluster_m, cluster_n, args...);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return e;
}

// The recorded visits as `layoutproof raster trace KIND ... --json` prints them. `host` holds, per
// CTA, `per_cta` ints: the visit count (-1: more than the buffer holds), then `fields` ints a visit:
// m, n, l, and with k ranges k_begin, k_end.
// Returns false (after a message) when a CTA's visits overflowed its buffer.
inline bool visits_json(const int* host, long long ctas, size_t per_cta, int fields, bool with_k, dim3 grid, std::string& s) {
  s = "{\"ctas\":[";
  for (long long c = 0; c < ctas; ++c) {
    const int* mine = host + size_t(c) * per_cta;
    if (mine[0] < 0) {
      std::fprintf(stderr, "CTA %lld made more visits than its buffer holds\n", c);
      return false;
    }
    s += (c ? ",{\"cta\":" : "{\"cta\":") + std::to_string(c) + ",\"work\":[";
    for (int k = 0; k < mine[0]; ++k) {
      const int* v = mine + 1 + fields * k;
      s += (k ? ",{\"iter\":" : "{\"iter\":") + std::to_string(k) + ",\"group\":0,\"m\":" + std::to_string(v[0]) + ",\"n\":" +
           std::to_string(v[1]) + ",\"l\":" + std::to_string(v[2]);
      if (with_k) s += ",\"k_begin\":" + std::to_string(v[3]) + ",\"k_end\":" + std::to_string(v[4]);
      s += "}";
    }
    s += "]}";
  }
  s += "],\"grid\":[" + std::to_string(grid.x) + "," + std::to_string(grid.y) + "," + std::to_string(grid.z) + "]}";
  return true;
}
