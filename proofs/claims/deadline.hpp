#pragma once
// A deadline for a whole run (--deadline-s S): `check`, `catalog`, `prove` with several claims,
// `synth`, `trace` claims. --timeout-ms bounds one Z3 query; the deadline bounds them all.
//
// Rule: a verdict that was not reached by the deadline is UNKNOWN "deadline of S s reached", never
// PROVED (nor REFUTED or ERROR: the run's answer is what it decided in time, so a rerun with the same
// deadline on a faster machine can only decide more). Every Z3 query's timeout is clipped to the
// time left (Session::check), and each proof entry point (prove, prove_bank, prove_trace) and the
// check runner call expire() on what they return.
// Example: a spec of 50 claims run with --deadline-s 0.01 -> the first claims may be PROVED, every
// claim finished after 10 ms is UNKNOWN, and the exit code is 3 (no claim refuted).
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "model/support/error.hpp"
#include "proofs/claims/verdict.hpp"

namespace layoutproof::proofs {

struct Deadline {
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> at;  // empty: no deadline
  double seconds = 0;                   // as given, for the message

  // A deadline `s` seconds from now; s in (0, 10^6] (LayoutError otherwise, naming `what`).
  static Deadline in_seconds(double s, const std::string& what = "--deadline-s") {
    if (!(s > 0 && s <= 1e6)) throw LayoutError(what + " needs a number of seconds in (0, 1000000]");
    Deadline d;
    d.seconds = s;
    d.at = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
    return d;
  }
  // From a command-line value: a decimal number of seconds ("10", "0.5").
  static Deadline parse(const std::string& v, const std::string& what = "--deadline-s") {
    const bool ok = !v.empty() && v.size() <= 12 && v.find_first_not_of("0123456789.") == std::string::npos &&
                    v.find('.') == v.rfind('.') && v != ".";
    if (!ok) throw LayoutError(what + " needs a number of seconds, not '" + v + "'");
    return in_seconds(std::stod(v), what);
  }

  bool passed() const { return at && Clock::now() >= *at; }
  // A query timeout no later than the deadline (at least 1 ms: Z3 reads 0 as "no timeout").
  unsigned clip_ms(unsigned timeout_ms) const {
    if (!at) return timeout_ms;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*at - Clock::now()).count();
    return left <= 1 ? 1u : left < timeout_ms ? static_cast<unsigned>(left) : timeout_ms;
  }
  std::string reason() const {
    char b[64];
    std::snprintf(b, sizeof b, "deadline of %g s reached", seconds);
    return b;
  }
  // `v` if it was reached in time; UNKNOWN otherwise. An ERROR after the deadline is UNKNOWN too:
  // a query clipped to the time left answers `unknown`, which a vacuity check reports as an error.
  Verdict expire(Verdict v) const {
    if (!passed() || v.kind == Verdict::Kind::unknown) return v;
    Verdict u = Verdict::unknown(v.method, reason() + (v.kind == Verdict::Kind::error ? " (then: " + v.detail + ")" : ""));
    u.time_ms = v.time_ms;
    u.queries = std::move(v.queries);
    return u;
  }
};

}  // namespace layoutproof::proofs
