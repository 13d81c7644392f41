// NVIDIA/cuda-samples histogram64 (Samples/2_Concepts_and_Techniques/histogram/histogram64.cu):
// shared-memory atomics. histogram64Kernel and mergeHistogram64Kernel launched ONCE each,
// directly with one CTA of the sample's block size (its launcher's grids are larger than one CTA).
#include "histogram64.cu"
#include "check.h"

int main() {
  // One CTA takes at most 64 * 252 bytes: the sample bounds its 8-bit per-thread counters so.
  const uint byteCount = 64 * 252;
  uint* data = lp_buffer<uint>(byteCount / sizeof(uint), 37.0);
  uint* partial = lp_buffer<uint>(HISTOGRAM64_BIN_COUNT * 4, 0.0);
  uint* hist = lp_buffer<uint>(HISTOGRAM64_BIN_COUNT, 0.0);
  histogram64Kernel<<<1, HISTOGRAM64_THREADBLOCK_SIZE>>>(partial, (data_t*)data, byteCount / sizeof(data_t));
  lp_check("histogram64Kernel");
  mergeHistogram64Kernel<<<1, MERGE_THREADBLOCK_SIZE>>>(hist, partial, 1);
  lp_check("mergeHistogram64Kernel");
  return 0;
}
