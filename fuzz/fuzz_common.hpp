#pragma once
// What every fuzz target checks (docs/fuzzing.md): an input is accepted, or refused with a
// LayoutError (ParseError, OverflowError: exit 2 in the CLI, one located line). Anything else is a
// finding that libFuzzer reports and saves: a signal, a sanitizer report, another exception
// (std::out_of_range from stoi, std::bad_alloc, YAML::Exception, ...), a timeout, or a broken
// invariant (FUZZ_REQUIRE: a printed value that does not parse back to the same value, ...).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "model/support/error.hpp"

namespace layoutproof::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

// Runs f; a refusal (LayoutError) is a fine answer to a malformed input. True when f returned.
template <class F>
bool accepted(F&& f) {
  try {
    f();
    return true;
  } catch (const LayoutError&) {
    return false;
  }
}

[[noreturn]] inline void broken(const char* what, const std::string& a, const std::string& b) {
  std::fprintf(stderr, "invariant broken: %s\n  first:  %s\n  second: %s\n", what, a.c_str(), b.c_str());
  std::abort();
}

}  // namespace layoutproof::fuzz

// An invariant beyond "no crash": aborts (a libFuzzer finding) with both texts when it fails.
#define FUZZ_REQUIRE(cond, what, a, b) \
  do {                                 \
    if (!(cond)) ::layoutproof::fuzz::broken(what, a, b); \
  } while (0)
