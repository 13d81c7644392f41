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

// Shell quoting for reproducers.
std::string sh(const std::string& s);

}  // namespace soak
