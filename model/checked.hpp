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

// A shared-memory byte address as users write it: decimal or 0x hexadecimal, in [0, 2^40]. A
// leading 0 is refused rather than read as octal ("010" is not byte 8). Throws LayoutError naming
// `what` ("--base", "base=").
inline i64 parse_byte_address(const std::string& v, const std::string& what) {
  const bool hex = v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
  const std::string digits = hex ? v.substr(2) : v;
  const bool ok_digits = !digits.empty() && digits.size() <= 12 && (hex || digits == "0" || digits[0] != '0') &&
                         digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") == std::string::npos;
  const i64 x = ok_digits ? std::stoll(digits, nullptr, hex ? 16 : 10) : -1;
  if (x < 0 || x > (i64{1} << 40))
    throw LayoutError(what + " needs a byte address in [0, 2^40], decimal or 0x hex, not '" + v + "'");
  return x;
}

}  // namespace layoutproof
