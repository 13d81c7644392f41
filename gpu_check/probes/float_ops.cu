// What the GPU's floating-point arithmetic gives, bit for bit, for the PTX forms the executor
// evaluates concretely (model/compiled/exec/alu_float.cpp): add, sub, mul, fma in f32 (.rn .rz .rm
// .rp, with and without .ftz, .sat) and f64 (.rn .rz .rm .rp), min and max, and setp's
// comparisons, over special values (zeros, subnormals, infinities, NaN, the largest finite, one
// ulp around 1) and a fixed pseudo-random set.
//   nvcc -arch=sm_90a -o float_ops gpu_check/probes/float_ops.cu && ./float_ops > tests/compiled/float_ops.txt
// prints one line per case: "FORM A B C RESULT", every value as hex bits (C is 0 for two-operand
// forms; a setp's RESULT is 0 or 1). tests/model/compiled/exec/alu_float_test.cpp compares the model
// with every line.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define F32_BIN(NAME, PTX)                                                                          \
  __device__ unsigned NAME(unsigned a, unsigned b) {                                                \
    unsigned d;                                                                                     \
    asm(PTX " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));                                             \
    return d;                                                                                       \
  }
#define F32_FMA(NAME, PTX)                                                                          \
  __device__ unsigned NAME(unsigned a, unsigned b, unsigned c) {                                    \
    unsigned d;                                                                                     \
    asm(PTX " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));                                 \
    return d;                                                                                       \
  }
#define F32_CMP(NAME, CMP)                                                                          \
  __device__ unsigned NAME(unsigned a, unsigned b) {                                                \
    unsigned d;                                                                                     \
    asm("{ .reg .pred p; setp." CMP ".f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(d) : "r"(a), "r"(b)); \
    return d;                                                                                       \
  }
#define F64_BIN(NAME, PTX)                                                                          \
  __device__ unsigned long long NAME(unsigned long long a, unsigned long long b) {                  \
    unsigned long long d;                                                                           \
    asm(PTX " %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b));                                             \
    return d;                                                                                       \
  }
#define F64_FMA(NAME, PTX)                                                                          \
  __device__ unsigned long long NAME(unsigned long long a, unsigned long long b, unsigned long long c) { \
    unsigned long long d;                                                                           \
    asm(PTX " %0, %1, %2, %3;" : "=l"(d) : "l"(a), "l"(b), "l"(c));                                 \
    return d;                                                                                       \
  }

// Each form: its PTX text is its name in the output.
#define EACH_F32_BIN(X)                                                                             \
  X(add_rn, "add.rn.f32") X(add_rz, "add.rz.f32") X(add_rm, "add.rm.f32") X(add_rp, "add.rp.f32")   \
  X(add_ftz, "add.rn.ftz.f32") X(add_sat, "add.rn.sat.f32") X(add_plain, "add.f32")                 \
  X(sub_rn, "sub.rn.f32") X(sub_rz, "sub.rz.f32") X(sub_ftz, "sub.rn.ftz.f32")                      \
  X(mul_rn, "mul.rn.f32") X(mul_rz, "mul.rz.f32") X(mul_rm, "mul.rm.f32") X(mul_rp, "mul.rp.f32")   \
  X(mul_ftz, "mul.rn.ftz.f32") X(mul_sat, "mul.rn.sat.f32") X(mul_plain, "mul.f32")                 \
  X(min_f, "min.f32") X(max_f, "max.f32") X(min_ftz, "min.ftz.f32") X(max_ftz, "max.ftz.f32")
#define EACH_F32_FMA(X)                                                                             \
  X(fma_rn, "fma.rn.f32") X(fma_rz, "fma.rz.f32") X(fma_rm, "fma.rm.f32") X(fma_rp, "fma.rp.f32")   \
  X(fma_ftz, "fma.rn.ftz.f32") X(fma_sat, "fma.rn.sat.f32")
#define EACH_F32_CMP(X)                                                                             \
  X(eq, "eq") X(ne, "ne") X(lt, "lt") X(le, "le") X(gt, "gt") X(ge, "ge") X(equ, "equ") X(neu, "neu") \
  X(ltu, "ltu") X(leu, "leu") X(gtu, "gtu") X(geu, "geu") X(num, "num") X(nan, "nan")
#define EACH_F64_BIN(X)                                                                             \
  X(dadd_rn, "add.rn.f64") X(dadd_rz, "add.rz.f64") X(dadd_rm, "add.rm.f64") X(dadd_rp, "add.rp.f64") \
  X(dmul_rn, "mul.rn.f64") X(dmul_rz, "mul.rz.f64") X(dmul_rm, "mul.rm.f64") X(dmul_rp, "mul.rp.f64") \
  X(dmin, "min.f64") X(dmax, "max.f64")
#define EACH_F64_FMA(X)                                                                             \
  X(dfma_rn, "fma.rn.f64") X(dfma_rz, "fma.rz.f64") X(dfma_rm, "fma.rm.f64") X(dfma_rp, "fma.rp.f64")

#define DEF_BIN(N, P) F32_BIN(N, P)
#define DEF_FMA(N, P) F32_FMA(N, P)
#define DEF_CMP(N, P) F32_CMP(cmp_##N, P)
#define DEF_DBIN(N, P) F64_BIN(N, P)
#define DEF_DFMA(N, P) F64_FMA(N, P)
EACH_F32_BIN(DEF_BIN)
EACH_F32_FMA(DEF_FMA)
EACH_F32_CMP(DEF_CMP)
EACH_F64_BIN(DEF_DBIN)
EACH_F64_FMA(DEF_DFMA)

__global__ void f32_kernel(const unsigned* a, const unsigned* b, const unsigned* c, int n, unsigned* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned* o = out + static_cast<size_t>(i) * 64;
  int k = 0;
#define RUN_BIN(N, P) o[k++] = N(a[i], b[i]);
#define RUN_FMA(N, P) o[k++] = N(a[i], b[i], c[i]);
#define RUN_CMP(N, P) o[k++] = cmp_##N(a[i], b[i]);
  EACH_F32_BIN(RUN_BIN)
  EACH_F32_FMA(RUN_FMA)
  EACH_F32_CMP(RUN_CMP)
}

__global__ void f64_kernel(const unsigned long long* a, const unsigned long long* b, const unsigned long long* c, int n,
                           unsigned long long* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long* o = out + static_cast<size_t>(i) * 32;
  int k = 0;
#define RUN_DBIN(N, P) o[k++] = N(a[i], b[i]);
#define RUN_DFMA(N, P) o[k++] = N(a[i], b[i], c[i]);
  EACH_F64_BIN(RUN_DBIN)
  EACH_F64_FMA(RUN_DFMA)
}

static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static unsigned long long next() {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}

int main() {
  const unsigned s32[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u, 0x3f800000u, 0xbf800000u,
                          0x3f800001u, 0x3f7fffffu, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                          0x40490fdbu, 0x34000000u, 0x33800000u, 0x3f000000u, 0x4b000000u, 0x00400000u};
  std::vector<unsigned> a, b, c;
  for (unsigned x : s32)
    for (unsigned y : s32) a.push_back(x), b.push_back(y), c.push_back(s32[(x ^ y) % 20]);
  for (int r = 0; r < 800; ++r) {  // random bits, random magnitudes near 1, and near cancellation
    unsigned x = static_cast<unsigned>(next()), y = static_cast<unsigned>(next()), z = static_cast<unsigned>(next());
    if (r % 3 == 1) x = 0x3f000000u | (x & 0x80ffffffu), y = 0x3f000000u | (y & 0x80ffffffu), z = 0x3f000000u | (z & 0x80ffffffu);
    if (r % 3 == 2) y = x ^ 0x80000000u ^ (y & 0x7u), z = (z & 0x807fffffu) | 0x33000000u;
    a.push_back(x), b.push_back(y), c.push_back(z);
  }
  const int n = static_cast<int>(a.size());
  unsigned *da, *db, *dc, *dout;
  cudaMalloc(&da, n * 4), cudaMalloc(&db, n * 4), cudaMalloc(&dc, n * 4), cudaMalloc(&dout, n * 64 * 4);
  cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), n * 4, cudaMemcpyHostToDevice);
  f32_kernel<<<(n + 127) / 128, 128>>>(da, db, dc, n, dout);
  std::vector<unsigned> out(static_cast<size_t>(n) * 64);
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) return 2;
  const char* names[] = {
#define NAME_BIN(N, P) P,
#define NAME_CMP(N, P) "setp." P ".f32",
      EACH_F32_BIN(NAME_BIN) EACH_F32_FMA(NAME_BIN) EACH_F32_CMP(NAME_CMP)};
  const int two = 21, three = 6, cmps = 14;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < two + three + cmps; ++k)
      std::printf("%s %08x %08x %08x %08x\n", names[k], a[i], b[i], k >= two && k < two + three ? c[i] : 0u,
                  out[static_cast<size_t>(i) * 64 + k]);

  const unsigned long long s64[] = {0ull, 0x8000000000000000ull, 1ull, 0x0010000000000000ull, 0x3ff0000000000000ull,
                                    0xbff0000000000000ull, 0x3ff0000000000001ull, 0x7fefffffffffffffull,
                                    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                                    0x3ca0000000000000ull, 0x400921fb54442d18ull, 0x3fe0000000000000ull};
  std::vector<unsigned long long> A, B, C;
  for (auto x : s64)
    for (auto y : s64) A.push_back(x), B.push_back(y), C.push_back(s64[(x ^ y) % 14]);
  for (int r = 0; r < 400; ++r) {
    unsigned long long x = next(), y = next(), z = next();
    if (r % 2) x = 0x3fe0000000000000ull | (x & 0x800fffffffffffffull), y = 0x3fe0000000000000ull | (y & 0x800fffffffffffffull),
    z = 0x3c90000000000000ull | (z & 0x800fffffffffffffull);
    A.push_back(x), B.push_back(y), C.push_back(z);
  }
  const int m = static_cast<int>(A.size());
  unsigned long long *dA, *dB, *dC, *dO;
  cudaMalloc(&dA, m * 8), cudaMalloc(&dB, m * 8), cudaMalloc(&dC, m * 8), cudaMalloc(&dO, m * 32 * 8);
  cudaMemcpy(dA, A.data(), m * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), m * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dC, C.data(), m * 8, cudaMemcpyHostToDevice);
  f64_kernel<<<(m + 127) / 128, 128>>>(dA, dB, dC, m, dO);
  std::vector<unsigned long long> O(static_cast<size_t>(m) * 32);
  cudaMemcpy(O.data(), dO, O.size() * 8, cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) return 2;
  const char* dnames[] = {EACH_F64_BIN(NAME_BIN) EACH_F64_FMA(NAME_BIN)};
  const int dtwo = 10, dthree = 4;
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < dtwo + dthree; ++k)
      std::printf("%s %016llx %016llx %016llx %016llx\n", dnames[k], A[i], B[i], k >= dtwo ? C[i] : 0ull,
                  O[static_cast<size_t>(i) * 32 + k]);
  return 0;
}
