// One check after each launch of a driver: synchronize, print the launch's name and "ok", or print
// the error and exit 1 (a launch that failed must not be measured as if it ran).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static void lp_check(const char* what) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
  std::printf("%s: ok\n", what);
}

// A device buffer of n elements of T, filled with small deterministic values (i % 7, scaled), so
// data-dependent loops terminate and sums stay finite.
template <class T> static T* lp_buffer(size_t n, double scale = 0.25) {
  T* d = nullptr;
  T* h = static_cast<T*>(std::malloc(n * sizeof(T)));
  for (size_t i = 0; i < n; ++i) h[i] = static_cast<T>(double(i % 7) * scale);
  if (cudaMalloc(&d, n * sizeof(T)) != cudaSuccess ||
      cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice) != cudaSuccess) {
    std::printf("buffer of %zu elements: allocation failed\n", n);
    std::exit(1);
  }
  std::free(h);
  return d;
}
