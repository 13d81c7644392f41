// ptx_bench: a generated kernel of 40,000 PTX lines (CuTe-like address math: mad, XOR swizzle,
// shifts; a shared store and load every 8 lines; 4 warps) read, decoded and run for every thread
// with every site counted by the bank model. Prints the time of each step; exits 1 past 2 s.
//   bench/ptx_bench [LINES] [THREADS]      (docs/performance.md)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "model/compiled/ptx_parse.hpp"
#include "model/compiled/ptx_exec.hpp"

using namespace layoutproof;

std::string generate(long lines) {
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

int main(int argc, char** argv) {
  const long lines = argc > 1 ? std::atol(argv[1]) : 40000;
  const long threads = argc > 2 ? std::atol(argv[2]) : 128;
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  std::string text = generate(lines);
  const auto t1 = clock::now();
  ptx::Program p = ptx::parse_ptx(std::move(text), "bench.ptx");
  const auto t2 = clock::now();
  ptx::decode_with_callees(p, 0);
  const auto t3 = clock::now();
  ptx::Launch l;
  l.block = {threads, 1, 1};
  l.params.assign(2, std::nullopt);
  const ptx::KernelRun run = ptx::run_kernel(p, 0, l);
  const auto t4 = clock::now();
  i64 executed = 0, wavefronts = 0;
  for (const auto& s : run.sites) executed += s.executed, wavefronts += s.wavefronts;
  const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  const double total = ms(t1, t4);
  std::printf("ptx_bench: %ld lines, %zu bytes, %zu instructions, %zu shared-memory sites, %ld threads\n", lines, p.text.size(),
              p.functions[0].code.size(), run.sites.size(), threads);
  std::printf("  generate %.1f ms | read %.1f ms | decode %.1f ms | run + count %.1f ms | total %.1f ms (limit 2000)\n", ms(t0, t1),
              ms(t1, t2), ms(t2, t3), ms(t3, t4), total);
  std::printf("  %lld warp instructions executed, %lld shared-memory issues, %lld wavefronts\n",
              static_cast<long long>(run.warp_steps), static_cast<long long>(executed), static_cast<long long>(wavefronts));
  return total < 2000 ? 0 : 1;
}
