// bench/ptx_bench_kernel.hpp: the bench's generated kernel, run at a small size, gives the counts
// the executor gave before it was rewritten for speed (recorded from that version, commit d195094:
// `./build/bench/ptx_bench 2000 T` and the sums below). The executor's speed work must never change
// a count, an address or a distinct issue.
#include <gtest/gtest.h>

#include "bench/ptx_bench_kernel.hpp"
#include "model/compiled/ptx_exec.hpp"
#include "model/compiled/ptx_parse.hpp"

namespace layoutproof::compiled {
namespace {

struct Figures {
  i64 warp_steps = 0, executed = 0, wavefronts = 0, ideal = 0, distinct = 0;
  i64 line_weighted_wavefronts = 0;  // sum over sites of line * wavefronts: which site has which count
  i64 address_sum = 0;               // sum of every active lane's address over the distinct issues
  i64 pattern_counts = 0;            // sum over distinct issues of count * (1 + index in its site)
};

Figures run_bench(long lines, i64 threads) {
  Program p = parse_ptx(bench::bench_kernel(lines), "bench.ptx");
  decode_with_callees(p, 0);
  Launch l;
  l.block = {threads, 1, 1};
  l.params.assign(2, std::nullopt);
  const KernelRun run = run_kernel(p, 0, l);
  Figures f;
  f.warp_steps = run.warp_steps;
  for (const Site& s : run.sites) {
    EXPECT_TRUE(s.counts_known) << s.line;
    EXPECT_TRUE(s.divergent.empty()) << s.line;
    f.executed += s.executed;
    f.wavefronts += s.wavefronts;
    f.ideal += s.ideal;
    f.distinct += static_cast<i64>(s.trace.instructions.size());
    f.line_weighted_wavefronts += static_cast<i64>(s.line) * s.wavefronts;
    for (std::size_t k = 0; k < s.trace.instructions.size(); ++k) {
      f.pattern_counts += s.patterns[k].count * static_cast<i64>(k + 1);
      for (const i64 a : s.trace.instructions[k].addr)
        if (a >= 0) f.address_sum += a;
    }
  }
  return f;
}

TEST(PtxBenchKernel, CountsEqualTheFiguresRecordedBeforeTheSpeedWork) {
  const Figures a = run_bench(2000, 128);
  const Figures b = run_bench(2000, 1024);
  // 2,000 lines: 1,763 instructions, 220 sites (110 loads, 110 stores), every issue distinct.
  EXPECT_EQ(a.warp_steps, 7052);
  EXPECT_EQ(a.executed, 880);
  EXPECT_EQ(a.wavefronts, 1936);
  EXPECT_EQ(a.ideal, 880);
  EXPECT_EQ(a.distinct, 880);
  EXPECT_EQ(a.line_weighted_wavefronts, 1960728);
  EXPECT_EQ(a.address_sum, 126786560);
  EXPECT_EQ(a.pattern_counts, 2200);
  EXPECT_EQ(b.warp_steps, 56416);
  EXPECT_EQ(b.executed, 7040);
  EXPECT_EQ(b.wavefronts, 15488);
  EXPECT_EQ(b.ideal, 7040);
  EXPECT_EQ(b.distinct, 7040);
  EXPECT_EQ(b.line_weighted_wavefronts, 15685824);
  EXPECT_EQ(b.address_sum, 2225397760);
  EXPECT_EQ(b.pattern_counts, 116160);
}

}  // namespace
}  // namespace layoutproof::compiled
