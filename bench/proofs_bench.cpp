// proofs_bench [MAX_LOG2 [EXHAUSTIVE_MAX_LOG2]]: bijectivity of Sw<3,4,3> o (2^r,2^c):(2^c,1)
// (row-major, 2^k elements) by Z3 and by the exhaustive twin; prints one row per size.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "model/layout/notation.hpp"
#include "proofs/claims/prove.hpp"

using namespace layoutproof;
using namespace layoutproof::proofs;

int main(int argc, char** argv) {
  const int max_k = argc > 1 ? std::atoi(argv[1]) : 30;
  const int ex_max = argc > 2 ? std::atoi(argv[2]) : 30;
  std::printf("%-44s %8s %12s %-8s %14s %-8s\n", "layout", "elements", "z3_ms", "z3", "exhaustive_ms", "exh");
  for (int k = 10; k <= max_k; k += 2) {
    const int cols = k / 2, rows = k - cols;
    const std::string text = "Sw<3,4,3> o (" + std::to_string(1L << rows) + "," + std::to_string(1L << cols) + "):(" +
                             std::to_string(1L << cols) + ",1)";
    const Subject s = parse_subject(text);
    const Claim c = parse_claim("bijective");
    ProveOptions z;
    z.engine = EngineChoice::z3;
    const Verdict vz = prove(s, c, z);
    double ex_ms = -1;
    std::string ex = "skipped";
    if (k <= ex_max) {
      ProveOptions e;
      e.engine = EngineChoice::exhaustive;
      const Verdict ve = prove(s, c, e);
      ex_ms = ve.time_ms;
      ex = to_string(ve.kind);
    }
    std::printf("%-44s %8s %12.1f %-8s %14.1f %-8s\n", text.c_str(), ("2^" + std::to_string(k)).c_str(), vz.time_ms,
                to_string(vz.kind), ex_ms, ex.c_str());
  }
  return 0;
}
