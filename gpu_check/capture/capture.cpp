// liblayoutproof_capture.so: logs the tensor maps an application encodes, as the JSON lines
// `layoutproof tensor-map --tensor-maps` and `ptx --tensor-maps` read (docs/hopper.md).
//
//   LD_PRELOAD=build/gpu_check/liblayoutproof_capture.so LAYOUTPROOF_CAPTURE=maps.jsonl ./app
//
// It interposes cuTensorMapEncodeTiled (an application linking libcuda), and cuGetProcAddress_v2
// (one that asks the driver for the entry point), passes each call to the driver and appends one
// line per successful encode: dtype, dims, strides, box, elem_strides, interleave, swizzle, l2, oob
// and address. Which kernel and parameter receive the map the driver call does not say: add
// "kernel" and "param" to a line for `ptx --tensor-maps`. Not seen: an application whose CUDA
// runtime is linked statically and fetches the entry point through it (cudaGetDriverEntryPoint
// resolves inside libcudart_static), and cuTensorMapEncodeIm2col (not modelled). A value the
// reader does not know (a CUDA 12.8 packed dtype, a swizzle atom mode) is written by its enum
// number, which the reader refuses at its line rather than guess.
#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace {

using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                            const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
using GetProc = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

Encode driver_encode = nullptr;  // the driver's, as cuGetProcAddress returned it (else RTLD_NEXT)
std::mutex log_mutex;

std::string dtype_name(CUtensorMapDataType t) {
  static const char* names[] = {"u8", "u16", "u32", "s32", "u64", "s64", "f16", "f32", "f64", "bf16", "f32_ftz", "tf32", "tf32_ftz"};
  const int i = static_cast<int>(t);
  return i >= 0 && i < 13 ? names[i] : "cuda_dtype_" + std::to_string(i);
}

std::string list(const cuuint64_t* v, cuuint32_t n) {
  std::string s = "[";
  for (cuuint32_t i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(static_cast<unsigned long long>(v[i]));
  return s + "]";
}
std::string list(const cuuint32_t* v, cuuint32_t n) {
  std::string s = "[";
  for (cuuint32_t i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

void log_map(CUtensorMapDataType dt, cuuint32_t rank, void* addr, const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
             const cuuint32_t* es, CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  static const char* swz[] = {"none", "32B", "64B", "128B"};
  static const char* ils[] = {"none", "16B", "32B"};
  static const char* l2s[] = {"none", "64B", "128B", "256B"};
  const auto name = [](int v, const char* const* t, int n) { return v >= 0 && v < n ? std::string(t[v]) : "enum_" + std::to_string(v); };
  std::string line = "{\"dtype\": \"" + dtype_name(dt) + "\", \"dims\": " + list(dims, rank) + ", \"strides\": " +
                     list(strides, rank > 0 ? rank - 1 : 0) + ", \"box\": " + list(box, rank) + ", \"elem_strides\": " + list(es, rank) +
                     ", \"interleave\": \"" + name(static_cast<int>(il), ils, 3) + "\", \"swizzle\": \"" + name(static_cast<int>(sw), swz, 4) +
                     "\", \"l2\": \"" + name(static_cast<int>(l2), l2s, 4) + "\", \"oob\": \"" + (oob == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE ? "zero" : "nan") +
                     "\", \"address\": " + std::to_string(reinterpret_cast<unsigned long long>(addr)) + "}\n";
  std::lock_guard<std::mutex> lock(log_mutex);
  const char* path = std::getenv("LAYOUTPROOF_CAPTURE");
  FILE* f = path && *path ? std::fopen(path, "a") : stderr;
  if (!f) return;
  std::fputs(line.c_str(), f);
  if (f != stderr) std::fclose(f);
}

CUresult encode_and_log(CUtensorMap* tm, CUtensorMapDataType dt, cuuint32_t rank, void* addr, const cuuint64_t* dims, const cuuint64_t* strides,
                        const cuuint32_t* box, const cuuint32_t* es, CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion l2,
                        CUtensorMapFloatOOBfill oob) {
  Encode real = driver_encode ? driver_encode : reinterpret_cast<Encode>(dlsym(RTLD_NEXT, "cuTensorMapEncodeTiled"));
  if (!real) return CUDA_ERROR_NOT_FOUND;
  const CUresult r = real(tm, dt, rank, addr, dims, strides, box, es, il, sw, l2, oob);
  if (r == CUDA_SUCCESS) log_map(dt, rank, addr, dims, strides, box, es, il, sw, l2, oob);
  return r;
}

}  // namespace

extern "C" CUresult cuTensorMapEncodeTiled(CUtensorMap* tm, CUtensorMapDataType dt, cuuint32_t rank, void* addr, const cuuint64_t* dims,
                                           const cuuint64_t* strides, const cuuint32_t* box, const cuuint32_t* es, CUtensorMapInterleave il,
                                           CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  return encode_and_log(tm, dt, rank, addr, dims, strides, box, es, il, sw, l2, oob);
}

extern "C" CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version, cuuint64_t flags, CUdriverProcAddressQueryResult* status) {
  static const GetProc real = reinterpret_cast<GetProc>(dlsym(RTLD_NEXT, "cuGetProcAddress_v2"));
  if (!real) return CUDA_ERROR_NOT_FOUND;
  const CUresult r = real(symbol, pfn, version, flags, status);
  if (r == CUDA_SUCCESS && symbol && pfn && *pfn && std::strcmp(symbol, "cuTensorMapEncodeTiled") == 0) {
    driver_encode = reinterpret_cast<Encode>(*pfn);
    *pfn = reinterpret_cast<void*>(&encode_and_log);
  }
  return r;
}
