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
  std::map<std::string, std::int64_t> verdicts, symbolic_verdicts;         // PROVED -> n (all; kernels with free parameters)
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
