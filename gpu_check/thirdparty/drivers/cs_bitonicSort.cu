// NVIDIA/cuda-samples sortingNetworks (Samples/2_Concepts_and_Techniques/sortingNetworks/
// bitonicSort.cu): the sample's own bitonicSort on one array of SHARED_SIZE_LIMIT keys (one CTA of
// bitonicSortShared), then bitonicSortShared1 and bitonicMergeShared, the long-array path's shared
// kernels, launched directly as one CTA of SHARED_SIZE_LIMIT / 2 threads.
#include "bitonicSort.cu"
#include "check.h"

int main() {
  const uint n = SHARED_SIZE_LIMIT;
  uint* srcKey = lp_buffer<uint>(2 * n, 13.0);
  uint* srcVal = lp_buffer<uint>(2 * n, 1.0);
  uint* dstKey = lp_buffer<uint>(2 * n, 0.0);
  uint* dstVal = lp_buffer<uint>(2 * n, 0.0);
  bitonicSort(dstKey, dstVal, srcKey, srcVal, 1, n, 1);
  lp_check("bitonicSortShared (bitonicSort)");
  bitonicSortShared1<<<1, n / 2>>>(dstKey, dstVal, srcKey, srcVal);
  lp_check("bitonicSortShared1");
  bitonicMergeShared<<<1, n / 2>>>(dstKey, dstVal, dstKey, dstVal, 2 * n, 2 * n, 1);
  lp_check("bitonicMergeShared");
  return 0;
}
