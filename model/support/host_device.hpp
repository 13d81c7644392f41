#pragma once
// LAYOUTPROOF_HOST_DEVICE marks the functions that gpu_check kernels run on the device
// (like CuTe's CUTE_HOST_DEVICE): the same code the proofs talk about.
#if defined(__CUDACC__)
#define LAYOUTPROOF_HOST_DEVICE __host__ __device__
#else
#define LAYOUTPROOF_HOST_DEVICE
#endif
