// ptx_bench: a generated kernel of 40,000 PTX lines (CuTe-like address math: mad, XOR swizzle,
// shifts; a shared store or load every 9 lines: bench/ptx_bench_kernel.hpp) read, decoded and run for every thread
// with every site counted by the bank model. Prints the time of each step; exits 1 past 2 s.
//   bench/ptx_bench [LINES] [THREADS]      (docs/performance.md)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/ptx_bench_kernel.hpp"
#include "model/compiled/ptx_parse.hpp"
#include "model/compiled/ptx_exec.hpp"

using namespace layoutproof;

int main(int argc, char** argv) {
  const long lines = argc > 1 ? std::atol(argv[1]) : 40000;
  const long threads = argc > 2 ? std::atol(argv[2]) : 128;
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  std::string text = bench::bench_kernel(lines);
  const auto t1 = clock::now();
  compiled::Program p = compiled::parse_ptx(std::move(text), "bench.ptx");
  const auto t2 = clock::now();
  compiled::decode_with_callees(p, 0);
  const auto t3 = clock::now();
  compiled::Launch l;
  l.block = {threads, 1, 1};
  l.params.assign(2, std::nullopt);
  const compiled::KernelRun run = compiled::run_kernel(p, 0, l);
  const auto t4 = clock::now();
  i64 executed = 0, wavefronts = 0, ideal = 0, distinct = 0;
  for (const auto& s : run.sites)
    executed += s.executed, wavefronts += s.wavefronts, ideal += s.ideal, distinct += static_cast<i64>(s.trace.instructions.size());
  const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  const double total = ms(t1, t4);
  std::printf("ptx_bench: %ld lines, %zu bytes, %zu instructions, %zu shared-memory sites, %ld threads\n", lines, p.text.size(),
              p.functions[0].code.size(), run.sites.size(), threads);
  std::printf("  generate %.1f ms | read %.1f ms | decode %.1f ms | run + count %.1f ms | total %.1f ms (limit 2000)\n", ms(t0, t1),
              ms(t1, t2), ms(t2, t3), ms(t3, t4), total);
  std::printf("  %lld warp instructions executed, %lld shared-memory issues (%lld distinct), %lld wavefronts, %lld ideal\n",
              static_cast<long long>(run.warp_steps), static_cast<long long>(executed), static_cast<long long>(distinct),
              static_cast<long long>(wavefronts), static_cast<long long>(ideal));
  return total < 2000 ? 0 : 1;
}
