// NVIDIA/cuda-samples histogram256 (Samples/2_Concepts_and_Techniques/histogram/histogram256.cu):
// shared-memory atomics. histogram256Kernel and mergeHistogram256Kernel launched ONCE each,
// directly with one CTA of the sample's block size (its launcher's grids are larger than one CTA).
#include "histogram256.cu"
#include "check.h"

int main() {
  // One CTA takes at most 64 * 252 bytes: the sample bounds its 8-bit per-thread counters so.
  const uint byteCount = 64 * 252;
  uint* data = lp_buffer<uint>(byteCount / sizeof(uint), 37.0);
  uint* partial = lp_buffer<uint>(HISTOGRAM256_BIN_COUNT * 4, 0.0);
  uint* hist = lp_buffer<uint>(HISTOGRAM256_BIN_COUNT, 0.0);
  histogram256Kernel<<<1, HISTOGRAM256_THREADBLOCK_SIZE>>>(partial, data, byteCount / sizeof(uint));
  lp_check("histogram256Kernel");
  mergeHistogram256Kernel<<<1, MERGE_THREADBLOCK_SIZE>>>(hist, partial, 1);
  lp_check("mergeHistogram256Kernel");
  return 0;
}
