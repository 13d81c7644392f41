// The cuBLAS entry points that the third-party helpers reference (their cuBLAS baselines and setup),
// defined so a driver links without libcublas: the drivers launch only the hand-written kernels, so
// none of these is ever called; each aborts if one were.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cublasLt.h>

[[noreturn]] static void cublas_never_called(const char* name) {
  std::fprintf(stderr, "driver called %s, which it never links\n", name);
  std::exit(1);
}
#define LP_NEVER(ret, name, ...) \
  extern "C" ret CUBLASWINAPI name(__VA_ARGS__) { cublas_never_called(#name); }
