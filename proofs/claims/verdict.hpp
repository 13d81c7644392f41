#pragma once
// Verdicts are values (conventions.md #2): PROVED / REFUTED{witness} / UNKNOWN{reason} /
// ERROR{message}. Never a bool. A Z3 `unknown` is only ever turned into UNKNOWN.
#include <string>
#include <vector>

#include "model/support/checked.hpp"

namespace layoutproof::proofs {

// One element of a counterexample, as the concrete model computes it.
struct WitnessPoint {
  std::string role;   // e.g. "x", "y", "base", "L2(x)", "missing"
  i64 index = -1;     // logical index (-1 when the point is an offset only)
  std::string coord;  // CuTe notation of the coordinate ("" when none)
  i64 offset = 0;     // what the map produced (or the missing offset), in `unit`s
  // What `offset` counts: "element" (an element offset: layout claims), "byte" (a shared-memory
  // byte address: bank, trace and tma claims), "offset" (a bare swizzle's integer), "index" (a logical
  // index, what an inverse R maps back to), or "" when the
  // point has no offset (its coord says everything, e.g. a rasterization's block -> tile).
  std::string unit = "element";
};

// "x: index 9 (1,1) -> element 73", "lane 8 (thread 8): index 4 (4,0,0) -> byte 512",
// "missing: element 5": every witness line says the unit of its number.
inline std::string point_text(const WitnessPoint& p) {
  std::string s = p.role + ":";
  if (p.index >= 0) s += " index " + std::to_string(p.index);
  if (!p.coord.empty()) s += " " + p.coord;
  if (p.unit.empty()) return s;
  return s + (p.index >= 0 || !p.coord.empty() ? " -> " : " ") + p.unit + " " + std::to_string(p.offset);
}

// A replayed counterexample: the points and one sentence saying why they break the claim.
struct Witness {
  std::vector<WitnessPoint> points;
  std::string why;
};

struct [[nodiscard]] Verdict {
  enum class Kind { proved, refuted, unknown, error };
  Kind kind = Kind::error;
  std::string method;   // "z3", "z3 (compositional)", "exhaustive check of N indices", ...
  std::string detail;   // PROVED: what exactly was proved; UNKNOWN: reason; ERROR: message
  Witness witness;      // REFUTED only
  std::vector<std::string> queries;  // names of the SMT queries behind the verdict
  double time_ms = 0;
  i64 largest_v = 0;    // contiguous: the largest power-of-two V that holds (0: not computed)

  static Verdict proved(std::string method, std::string detail) {
    Verdict v;
    v.kind = Kind::proved;
    v.method = std::move(method);
    v.detail = std::move(detail);
    return v;
  }
  static Verdict refuted(std::string method, Witness w) {
    Verdict v;
    v.kind = Kind::refuted;
    v.method = std::move(method);
    v.witness = std::move(w);
    return v;
  }
  static Verdict unknown(std::string method, std::string reason) {
    Verdict v;
    v.kind = Kind::unknown;
    v.method = std::move(method);
    v.detail = std::move(reason);
    return v;
  }
  static Verdict error(std::string method, std::string message) {
    Verdict v;
    v.kind = Kind::error;
    v.method = std::move(method);
    v.detail = std::move(message);
    return v;
  }
  bool is_proved() const { return kind == Kind::proved; }
  bool is_refuted() const { return kind == Kind::refuted; }
};

inline const char* to_string(Verdict::Kind k) {
  switch (k) {
    case Verdict::Kind::proved: return "PROVED";
    case Verdict::Kind::refuted: return "REFUTED";
    case Verdict::Kind::unknown: return "UNKNOWN";
    case Verdict::Kind::error: return "ERROR";
  }
  return "ERROR";
}

}  // namespace layoutproof::proofs
