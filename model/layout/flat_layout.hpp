#pragma once
// FlatLayout: a layout flattened into fixed-size arrays, evaluable on the GPU.
//
// A nested layout and its flattening are the same function of the index (CuTe evaluates an
// index colexicographically over the flattened modes, the last mode unbounded), so kernels in
// gpu_check/ evaluate exactly what model/ and proofs/ talk about:
//   (4,(2,2)):(2,(1,8))  ->  FlatLayout{rank 3, shape {4,2,2}, stride {2,1,8}}.
// A swizzled layout adds its Swizzle and offset: L(i) = Sw(offset + inner(i)).
#include <cstdint>

#include "model/support/host_device.hpp"
#include "model/layout/swizzle.hpp"

namespace layoutproof {

struct FlatLayout {
  static constexpr int kMaxModes = 24;
  int rank = 1;
  std::int64_t shape[kMaxModes] = {1};
  std::int64_t stride[kMaxModes] = {0};
  bool swizzled = false;
  Swizzle swizzle{};
  std::int64_t offset = 0;

  LAYOUTPROOF_HOST_DEVICE std::int64_t size() const {
    std::int64_t n = 1;
    for (int m = 0; m < rank; ++m) n *= shape[m];
    return n;
  }
  // L(idx): divmod through the modes, the last mode taking the remaining quotient.
  LAYOUTPROOF_HOST_DEVICE std::int64_t operator()(std::int64_t idx) const {
    std::int64_t off = 0;
    for (int m = 0; m + 1 < rank; ++m) {
      off += (idx % shape[m]) * stride[m];
      idx /= shape[m];
    }
    off += idx * stride[rank - 1];
    return swizzled ? swizzle.apply(offset + off) : off;
  }
};

}  // namespace layoutproof
