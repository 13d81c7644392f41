#pragma once
// Errors of the layout model. Every operation either returns the layout CuTe returns or throws
// one of these; it never returns a wrong layout.
#include <stdexcept>
#include <string>

namespace layoutproof {

// Input that violates an operation's precondition (divisibility, rank, injectivity, ...).
// The message names the condition and the modes involved.
struct LayoutError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A 64-bit intermediate result overflowed; it is reported, never wrapped.
struct OverflowError : LayoutError {
  using LayoutError::LayoutError;
};

}  // namespace layoutproof
