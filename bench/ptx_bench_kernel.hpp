#pragma once
// The kernel bench/ptx_bench.cpp runs: `lines` lines of generated PTX with CuTe-like address math
// (mad, an XOR swizzle, shifts) and a shared store or load every 9 lines, one .loc per group.
// tests/model/compiled/ptx_bench_kernel_test.cpp runs it at a small size and checks its counts
// against the figures the executor gave before it was made faster (they must never change).
// Example: bench_kernel(2000) has 1,763 instructions and 220 shared-memory sites.
#include <string>

namespace layoutproof::bench {

inline std::string bench_kernel(long lines) {
  std::string s = ".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry _Z5benchPfi(\n\t.param .u64 _Z5benchPfi_param_0,\n"
                  "\t.param .u32 _Z5benchPfi_param_1\n)\n{\n\t.reg .pred \t%p<4>;\n\t.reg .f32 \t%f<8>;\n\t.reg .b32 \t%r<40>;\n"
                  "\t.shared .align 16 .b8 _ZZ5benchPfiE4smem[32768];\n\tmov.u32 \t%r1, %tid.x;\n\tmov.u32 \t%r2, _ZZ5benchPfiE4smem;\n";
  long line = 15;
  for (long k = 0; line + 10 < lines; ++k, line += 9) {
    const long c = k % 64;
    s += "\t.loc\t1 " + std::to_string(10 + c) + " 3\n";
    s += "\tmad.lo.s32 \t%r3, %r1, " + std::to_string(1 + (k % 5)) + ", " + std::to_string(c * 32) + ";\n";
    s += "\tshr.u32 \t%r4, %r3, 3;\n";
    s += "\tand.b32 \t%r5, %r4, 7;\n";
    s += "\txor.b32 \t%r6, %r3, %r5;\n";
    s += "\tand.b32 \t%r7, %r6, 8191;\n";
    s += "\tshl.b32 \t%r8, %r7, 2;\n";
    s += "\tadd.s32 \t%r9, %r2, %r8;\n";
    s += k % 2 ? "\tst.shared.f32 \t[%r9], %f1;\n" : "\tld.shared.f32 \t%f1, [%r9];\n";
  }
  s += "\tret;\n}\n\t.file\t1 \"bench.cu\"\n";
  return s;
}

}  // namespace layoutproof::bench
