// NVIDIA/cuda-samples convolutionSeparable (Samples/2_Concepts_and_Techniques/convolutionSeparable/
// convolutionSeparable.cu): the sample's own convolutionRowsGPU and convolutionColumnsGPU, each
// launched ONCE on an image whose grid is one CTA: rows 128 x 4 (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X
// by ROWS_BLOCKDIM_Y), columns 16 x 64 (COLUMNS_BLOCKDIM_X by COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y).
#include "convolutionSeparable.cu"
#include "check.h"

int main() {
  float kernel[KERNEL_LENGTH];
  for (int i = 0; i < KERNEL_LENGTH; ++i) kernel[i] = 1.0f / KERNEL_LENGTH;
  setConvolutionKernel(kernel);
  float* src = lp_buffer<float>(128 * 64);
  float* dst = lp_buffer<float>(128 * 64);
  convolutionRowsGPU(dst, src, ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y);
  lp_check("convolutionRowsKernel");
  convolutionColumnsGPU(dst, src, COLUMNS_BLOCKDIM_X, COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y);
  lp_check("convolutionColumnsKernel");
  return 0;
}
