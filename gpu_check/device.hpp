#pragma once
// The host interface of the gpu_check kernels (implemented in kernels.cu). Plain C++ so the driver
// logic compiles without nvcc. Every function reports CUDA errors as text, never aborts.
#include <cstdint>
#include <string>
#include <vector>

#include "gpu_check/checks.hpp"

namespace layoutproof::gpu {

struct DeviceInfo {
  bool present = false;
  std::string name, error;
  int major = 0, minor = 0;
};
DeviceInfo query_device();

// Each index i < n adds 1 to count[L(i)] when 0 <= L(i) < slots, else to `outside`.
struct BijectivityMeasure {
  std::vector<unsigned> counts;
  unsigned long long outside = 0;
  std::string error;
};
BijectivityMeasure device_bijectivity(const FlatLayout& l, std::int64_t n, std::int64_t slots);

// Runs the plan on `src` (rows * cols elements, row-major) and returns the tile that came back.
// error: the CUDA error (for instance "misaligned address"), the context is then unusable.
struct RoundTripMeasure {
  std::vector<unsigned char> out;
  std::string error;
};
RoundTripMeasure device_round_trip(const RoundTripPlan& p, const std::vector<unsigned char>& src);

// Cycles per warp-instruction of `a`, executed in a loop by 8 warps of one block (same lane
// addresses in every warp), timed with clock64. Negative on error (text in *error).
double device_cycles_per_instruction(const SmemAccess& a, std::string* error);

}  // namespace layoutproof::gpu
