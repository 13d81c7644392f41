#pragma once
// Checked 64-bit arithmetic: every layout computation goes through these, so an overflow is
// reported as OverflowError instead of wrapping silently.
#include <cstdint>
#include <string>

#include "model/error.hpp"

namespace layoutproof {

using i64 = std::int64_t;

inline i64 checked_mul(i64 a, i64 b) {
  i64 r;
  if (__builtin_mul_overflow(a, b, &r))
    throw OverflowError("64-bit overflow: " + std::to_string(a) + " * " + std::to_string(b));
  return r;
}

inline i64 checked_add(i64 a, i64 b) {
  i64 r;
  if (__builtin_add_overflow(a, b, &r))
    throw OverflowError("64-bit overflow: " + std::to_string(a) + " + " + std::to_string(b));
  return r;
}

inline i64 checked_sub(i64 a, i64 b) {
  i64 r;
  if (__builtin_sub_overflow(a, b, &r))
    throw OverflowError("64-bit overflow: " + std::to_string(a) + " - " + std::to_string(b));
  return r;
}

inline i64 signum(i64 a) { return (a > 0) - (a < 0); }

// ceil(a / b) for a >= 0 and b > 0, without overflow in a + b - 1 going unnoticed.
inline i64 ceil_div(i64 a, i64 b) { return checked_add(a, b - 1) / b; }

}  // namespace layoutproof
