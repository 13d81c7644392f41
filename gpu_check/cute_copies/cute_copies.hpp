#pragma once
// The real CuTe copies of the built-in kernel configurations (cute_copies.cu, compiled from
// CUTLASS's headers): one launch per copy, announced by name before it starts.
namespace layoutproof::gpu::cute_copies {

// g: a zeroed global buffer of at least 1 MiB; sink: 1024 unsigned.
void run_all(const void* g, unsigned* sink, void (*announce)(const char*));
// Allocates the buffers and runs every copy; 77 (printing "SKIPPED: no CUDA device") without a GPU.
int run_on_device(void (*announce)(const char*));

}  // namespace layoutproof::gpu::cute_copies
