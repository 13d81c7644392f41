// Every kernel launch of a driver, with its parameter buffer: for kernels whose parameters are
// structs (CuTe's shapes, strides, layouts and tiled copies, passed by value), the SASS run needs
// the buffer's bytes, which only the launch knows. A driver that includes this header (and links
// with -cudart shared -lcuda -ldl) defines __cudaLaunchKernel, which CUDA 13's <<<...>>> stubs call,
// before the CUDA runtime's: it prints one line per launch,
//   LP_LAUNCH <mangled name> grid X,Y,Z block X,Y,Z smem N params @0x0=V,@0x4=V,...
// (every 4-byte word of the buffer, from cuKernelGetParamInfo's offsets and sizes), then launches
// it through the runtime's own __cudaLaunchKernel. The words go into gpu_check/thirdparty/launches.txt
// as the launch's --param list.
#pragma once
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

// CUDA 13's <<<...>>> stubs call __cudaLaunchKernel with the kernel's handle (crt/host_runtime.h).
extern "C" cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t smem,
                                                    cudaStream_t stream) {
  using Launch = cudaError_t (*)(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t);
  static const Launch real = reinterpret_cast<Launch>(dlsym(RTLD_NEXT, "__cudaLaunchKernel"));
  const CUkernel k = reinterpret_cast<CUkernel>(kernel);
  const char* name = "?";
  cuKernelGetName(&name, k);
  std::vector<unsigned char> buffer;
  for (size_t i = 0;; ++i) {
    size_t offset = 0, size = 0;
    if (cuKernelGetParamInfo(k, i, &offset, &size) != CUDA_SUCCESS) break;
    if (buffer.size() < offset + size) buffer.resize(offset + size, 0);
    std::memcpy(buffer.data() + offset, args[i], size);
  }
  buffer.resize((buffer.size() + 3) / 4 * 4, 0);
  std::printf("LP_LAUNCH %s grid %u,%u,%u block %u,%u,%u smem %zu params ", name, grid.x, grid.y, grid.z, block.x, block.y,
              block.z, smem);
  for (size_t w = 0; w < buffer.size(); w += 4) {
    unsigned v = 0;
    std::memcpy(&v, buffer.data() + w, 4);
    std::printf("%s@0x%zx=0x%x", w ? "," : "", w, v);
  }
  std::printf("\n");
  return real ? real(kernel, grid, block, args, smem, stream) : cudaErrorUnknown;
}
