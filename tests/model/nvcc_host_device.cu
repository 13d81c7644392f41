// Compiled by nvcc in the test suite (tests/model/nvcc_check.sh): the device-facing parts of
// model/ must stay host-device code.
#include "model/layout/flat_layout.hpp"
#include "model/layout/swizzle.hpp"

__global__ void evaluate_kernel(layoutproof::FlatLayout l, long long* out) {
  const long long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < l.size()) out[i] = l(i);
}

__global__ void swizzle_kernel(layoutproof::Swizzle s, long long* out) { out[threadIdx.x] = s(threadIdx.x); }
