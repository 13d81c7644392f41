#pragma once
// The soundness soak: random claims of every kind, each decided by the
// exhaustive engine, by Z3 and by the independent reference (tests/soak/reference.hpp).
//
//   soundness_soak [--claims N] [--seed S] [--kinds layout,bank,trace,raster] [--quiet]
//   LAYOUTPROOF_SOAK=1 (without --claims): 100,000 claims; else 600 (the ctest smoke size, < 60 s).
//
// Case i of a run draws from std::mt19937_64(seed * 1000003 + i), so `--seed S --first i
// --claims 1` replays case i alone. A disagreement between any two of {z3, exhaustive,
// reference} prints the case, its reproducer (the CLI command line) and the seed, and fails the
// run (exit 1). A z3 UNKNOWN is counted apart and never a disagreement; a PROVED from an engine
// where the reference refutes is counted as a soundness failure (the worst kind).
//
// Compiled kernels (`--kinds compiled`, soak_compiled.cpp; docs/compiled.md "The compiled-kernel soak"):
//
//   soundness_soak --kinds compiled [--kernels N] [--seed S] [--first I] [--jobs J] [--symbolic-percent P]
//                  [--skip-known] [--keep DIR] [--timeout-ms T] [--show] [--quiet]
//   LAYOUTPROOF_SOAK=1 (without --kernels): 20,000 kernels; else 60 (ctest soak.compiled, < 30 s).
//
// Kernel i draws an abstract kernel (compiled_kernel.hpp) from seed * 1000003 + i: a CTA of 32..256
// threads (1-D, 2-D, partial warps) whose shared-memory accesses (ld/st of every width, type, vector
// and memory-order spelling, atom/red, ldmatrix/stmatrix .x1/.x2/.x4 (.trans), cp.async 4/8/16, and
// forms the product lists as not counted) address a symbol by an expression of tid.x/tid.y/%laneid,
// loop counters, constants and 8/16/32-bit parameters (add, sub, mul, shl, shr, sra, and, or, xor,
// min, max, selp, mul.hi, abs, bfe), under guards, if/else, loops (constant or per-lane trip
// counts), early returns and exits, helper .func calls returning a value, and call chains 1 to 70
// deep. It is printed as PTX (compiled_ptx.cpp) and as SASS (compiled_sass.cpp), each run through
// the product in-process (plan_ptx_launches, run_ptx_kernel: what `layoutproof ptx` / `sass` run)
// with every claim; P% of the kernels leave some parameters free, each over a small --param-range
// (or every value of an 8-bit one), so that the brute force (reference_compiled.cpp: the abstract
// kernel run warp by warp for every value, its own phase rule for banks) decides every claim exactly.
// A failure: PROVED where the truth fails (or where it is not knowable, or past a cut call),
// REFUTED where it holds; with one parameter value also a site missing, a listed form not listed,
// issues or wavefronts that differ from the brute force's. UNKNOWN and ERROR are counted, by
// reason, never failures. Each failing run keeps its file in DIR (default $TMPDIR/layoutproof-soak-
// compiled) and prints the command line (`layoutproof ptx FILE --block ... --claim ... --json`),
// the seed and the replay (`--seed S --first i --kernels 1`). `--skip-known` leaves out the two
// defect classes being fixed while this soak was written (ldmatrix/stmatrix .x1/.x2 aligned and
// in-bounds with a free parameter; SASS LEA/LOP3 of a free parameter's value), both fixed since;
// `--show` prints every kernel's PTX and SASS; LAYOUTPROOF_SOAK_VERDICTS=TEXT prints every verdict
// whose text contains TEXT, with its kernel (to find a kernel that shows a reason).
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace soak {

using Rng = std::mt19937_64;
inline std::int64_t uniform(Rng& r, std::int64_t lo, std::int64_t hi) {  // [lo, hi]
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(r);
}
inline bool coin(Rng& r, int percent = 50) { return uniform(r, 0, 99) < percent; }
template <class T>
const T& pick(Rng& r, const std::vector<T>& v) { return v[static_cast<std::size_t>(uniform(r, 0, static_cast<std::int64_t>(v.size()) - 1))]; }

// The three answers for one claim. Engines: "PROVED", "REFUTED", "UNKNOWN", "ERROR".
// Reference: "holds", "fails" or "invalid" (the input is one the product must refuse: ERROR).
struct Case {
  std::string kind;        // layout | bank | trace | raster
  std::string claim;       // the claim's name without its argument ("contiguous", "max-ways")
  std::string exhaustive, z3, reference;
  std::string subject;     // the input text
  std::string repro;       // the CLI command line
  std::string detail;      // engine messages when they disagree
};

struct Tally {
  std::map<std::string, std::map<std::string, std::int64_t>> counts;  // "kind claim" -> "E/Z/R" -> n
  std::int64_t cases = 0, disagreements = 0, soundness = 0, unknown = 0;
  std::vector<std::string> failures;  // printed reports (the first few)
  std::uint64_t seed = 0;
  void add(const Case& c, std::int64_t index);
};

struct Options {
  std::uint64_t seed = 0;
  std::int64_t first = 0;
  bool quiet = false;
};

// One case of each kind, drawn from rng; fills and returns the case (never throws).
Case layout_case(Rng& rng);
Case bank_case(Rng& rng);
Case trace_case(Rng& rng);
Case raster_case(Rng& rng);

// ---- the compiled-kernel kind (soak_compiled.cpp) ----
struct CompiledOptions {
  std::uint64_t seed = 0;
  int symbolic_percent = 40;     // kernels with free parameters (small --param-range domains)
  bool skip_known = false;       // leave out the known defect classes (soak_compiled.cpp Run::compare)
  unsigned timeout_ms = 8000;    // per Z3 query, as the command's
  std::string keep_dir;          // where a disagreeing kernel's file is kept
  bool show = false;             // print every kernel's PTX and SASS
};
struct CompiledTally {
  std::int64_t kernels = 0, symbolic = 0, runs = 0, failing_runs = 0, cut_runs = 0;
  std::int64_t wrong_proved = 0, wrong_refuted = 0, other_failures = 0, skipped_known = 0;
  std::int64_t known_class = 0;  // wrong verdicts in a known defect class (counted in wrong_* too)
  std::int64_t traces_compared = 0, counts_compared = 0;  // sites whose issues / wavefronts were compared (one value)
  double reference_s = 0, product_s = 0;
  std::map<std::string, std::int64_t> verdicts, symbolic_verdicts, cut_verdicts;  // PROVED -> n (all; free parameters; past a cut call)
  std::map<std::string, std::map<std::string, std::int64_t>> table;        // "claim truth" -> verdict -> n
  std::map<std::string, std::int64_t> unknown_by_reason, errors_by_reason;
  std::vector<std::string> reports;                                        // printed disagreements (the first 30)
  void merge(const CompiledTally& o);
};
// Kernel `index` of the run (drawn from seed * 1000003 + index), as PTX and as SASS.
void compiled_case(std::int64_t index, const CompiledOptions& opt, CompiledTally& tally);

// Shell quoting for reproducers.
std::string sh(const std::string& s);

}  // namespace soak
