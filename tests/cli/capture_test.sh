#!/usr/bin/env bash
# liblayoutproof_capture.so without a GPU: an application that links a stand-in libcuda (whose
# cuTensorMapEncodeTiled succeeds and does nothing) encodes two maps under LD_PRELOAD of the shim;
# the shim's JSON lines must read back with layoutproof tensor-map --tensor-maps as the maps given
# (one valid, one whose box row passes its swizzle span), and the application's own result must be
# the driver's. Usage: capture_test.sh LAYOUTPROOF SHIM
set -u
BIN=$1 SHIM=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
INC=/usr/local/cuda/include
cat > "$T/fake_cuda.cpp" <<'C'
#include <cuda.h>
extern "C" CUresult cuTensorMapEncodeTiled(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                                           const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                           CUtensorMapL2promotion, CUtensorMapFloatOOBfill) { return CUDA_SUCCESS; }
C
cat > "$T/app.cpp" <<'C'
#include <cuda.h>
int main() {
  CUtensorMap tm;
  const cuuint64_t dims[2] = {4096, 4096}, strides[1] = {8192};
  const cuuint32_t box[2] = {64, 128}, wide[2] = {128, 128}, es[2] = {1, 1};
  CUresult a = cuTensorMapEncodeTiled(&tm, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, reinterpret_cast<void*>(0x10000), dims, strides, box, es,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  CUresult b = cuTensorMapEncodeTiled(&tm, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, reinterpret_cast<void*>(0x20000), dims, strides, wide, es,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return a == CUDA_SUCCESS && b == CUDA_SUCCESS ? 0 : 1;
}
C
g++ -shared -fPIC -I"$INC" "$T/fake_cuda.cpp" -o "$T/libcuda_stand_in.so" || exit 1
g++ -I"$INC" "$T/app.cpp" -L"$T" -lcuda_stand_in -Wl,-rpath,"$T" -o "$T/app" || exit 1
LD_PRELOAD=$SHIM LAYOUTPROOF_CAPTURE="$T/maps.jsonl" "$T/app" || { echo "FAIL: the application's encode failed under the shim"; exit 1; }
fail=0
[ "$(wc -l < "$T/maps.jsonl")" = 2 ] || { echo "FAIL: $(wc -l < "$T/maps.jsonl") lines captured, want 2"; fail=1; }
grep -q '"dtype": "bf16", "dims": \[4096, 4096\], "strides": \[8192\], "box": \[64, 128\]' "$T/maps.jsonl" || { echo "FAIL: the first map's fields"; cat "$T/maps.jsonl"; fail=1; }
out=$("$BIN" tensor-map --tensor-maps "$T/maps.jsonl" 2>&1); rc=$?
if [ $rc != 1 ] || ! grep -q 'maps.jsonl:1.*PROVED' <<<"$out" || ! grep -q 'must fit the 128B swizzle' <<<"$out"; then
  echo "FAIL: the capture read back (exit $rc):"; echo "$out"; fail=1
fi
[ $fail = 0 ] && echo "capture: 2 maps captured and read back"
exit $fail
