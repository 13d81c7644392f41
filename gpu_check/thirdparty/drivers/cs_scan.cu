// NVIDIA/cuda-samples scan (Samples/2_Concepts_and_Techniques/scan/scan.cu): the sample's own
// scanExclusiveShort on one array of 4 * THREADBLOCK_SIZE elements (its grid is then one CTA), then
// scanExclusiveShared2 and uniformUpdate, the large scan's other two kernels, launched directly
// with one CTA of THREADBLOCK_SIZE threads and the arguments scanExclusiveLarge gives them for its
// largest array, MAX_LARGE_ARRAY_SIZE = 4 * THREADBLOCK_SIZE^2 elements (N = arrayLength = 256).
#include "scan.cu"
#include "check.h"

int main() {
  const uint n = 4 * THREADBLOCK_SIZE;
  const uint large = 4 * THREADBLOCK_SIZE * THREADBLOCK_SIZE, tops = large / (4 * THREADBLOCK_SIZE);
  uint* src = lp_buffer<uint>(large, 1.0);
  uint* dst = lp_buffer<uint>(large, 0.0);
  uint* buf = lp_buffer<uint>(large, 1.0);
  scanExclusiveShort(dst, src, 1, n);
  lp_check("scanExclusiveShared (scanExclusiveShort)");
  scanExclusiveShared2<<<1, THREADBLOCK_SIZE>>>(buf, dst, src, tops, tops);
  lp_check("scanExclusiveShared2");
  uniformUpdate<<<1, THREADBLOCK_SIZE>>>((uint4*)dst, buf);
  lp_check("uniformUpdate");
  return 0;
}
