#pragma once
// The reference programs' one launch: a one-warp-per-CTA kernel over `grid` with the cluster shape
// (cluster_m, cluster_n, 1) as its cluster dimensions (cudaLaunchKernelEx), so block_id_in_cluster
// is the hardware's. launch_with_cluster synchronizes, so a launch the hardware refuses or a fault
// returns its error; launch_with_cluster_async returns the launch's own error only (a refused
// cluster shape), for a caller that launches many configurations and synchronizes once.
#include <cuda_runtime.h>

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
