// algebra_bench: the guard on `layoutproof algebra -` (docs/performance.md, "Layout algebra"). In one
// process it runs a query file through the same batch path as the command and, in turn, a fixed
// cheap reference: the layout ((4,8),(8,4),(4,8)):((1,4),(32,256),(1024,4096)) evaluated at each of
// its 32,768 indices, 8 times. Each is timed three times on this thread's CPU clock and the fastest
// run kept, so a busy machine slows both alike; the figure judged is their ratio, never a time.
//   bench/algebra_bench QUERIES [MAX_RATIO]     (MAX_RATIO: default 10; exit 1 above it)
// The 10,000 queries of `bench/gen_algebra_queries.py 10000 1` ran at a ratio of 1.6-2.0 when this
// guard was written, and at 94-107 while the checks enumerated the large compositions CuTe does not prove.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/commands/algebra_command.hpp"
#include "model/layout/layout.hpp"
#include "model/layout/notation.hpp"

using namespace layoutproof;

namespace {

constexpr int kRounds = 3;
constexpr int kReferenceRepeats = 8;

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// The reference: plain layout evaluation, the arithmetic every algebra operation is built on.
i64 reference(const Layout& l) {
  i64 sum = 0;
  const i64 n = size(l);
  for (int r = 0; r < kReferenceRepeats; ++r)
    for (i64 i = 0; i < n; ++i) sum += evaluate(l, i);
  return sum;
}

// Runs every query; returns the number of result lines (each query gives one).
long run_queries(const std::string& queries) {
  std::istringstream in(queries);
  std::ostringstream out;
  cli::run_algebra_batch(in, out);
  const std::string text = out.str();
  return static_cast<long>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: algebra_bench QUERIES [MAX_RATIO]\n");
    return 2;
  }
  std::ifstream file(argv[1]);
  if (!file) {
    std::fprintf(stderr, "algebra_bench: cannot read %s\n", argv[1]);
    return 2;
  }
  std::stringstream buffer;
  buffer << file.rdbuf();
  const std::string queries = buffer.str();
  const long expected = static_cast<long>(std::count(queries.begin(), queries.end(), '\n'));
  const double max_ratio = argc > 2 ? std::atof(argv[2]) : 10.0;
  const Layout ref_layout = parse_layout("((4,8),(8,4),(4,8)):((1,4),(32,256),(1024,4096))");

  double best_queries = 1e300, best_reference = 1e300;
  i64 checksum = 0;
  for (int round = 0; round < kRounds; ++round) {
    const double t0 = thread_cpu_ms();
    checksum += reference(ref_layout);
    const double t1 = thread_cpu_ms();
    const long lines = run_queries(queries);
    const double t2 = thread_cpu_ms();
    if (lines != expected) {
      std::fprintf(stderr, "algebra_bench: %ld result lines for %ld queries\n", lines, expected);
      return 1;
    }
    best_reference = std::min(best_reference, t1 - t0);
    best_queries = std::min(best_queries, t2 - t1);
  }
  const double ratio = best_queries / best_reference;
  std::printf("algebra_bench: %ld queries %.1f ms, reference %.1f ms (checksum %lld), ratio %.2f (bound %.2f; fastest of %d, thread CPU time)\n",
              expected, best_queries, best_reference, static_cast<long long>(checksum), ratio, max_ratio, kRounds);
  if (ratio > max_ratio) {
    std::printf("algebra_bench: FAILED: the queries cost %.2f times the reference, above the bound %.2f\n", ratio, max_ratio);
    return 1;
  }
  return 0;
}
