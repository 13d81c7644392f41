#pragma once
// Checked 64-bit arithmetic: every layout computation goes through these, so an overflow is
// reported as OverflowError instead of wrapping silently.
#include <cstdint>
#include <string>

#include "model/support/error.hpp"

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

// a rounded up to a multiple of b (a >= 0, b > 0), checked: round_up(5, 4) == 8.
inline i64 round_up(i64 a, i64 b) { return checked_mul(ceil_div(a, b), b); }

// An integer as a user writes it (a command-line option, a spec value): an optional '-' and
// decimal digits, within [lo, hi]. Anything else throws LayoutError naming `what` and the range,
// never a library word ("stoi"):
//   parse_int_in("8", "--elem-bytes", 1, 64) == 8
//   parse_int_in("x", "--elem-bytes", 1, 64)  throws "--elem-bytes needs an integer from 1 to 64, not 'x'"
inline i64 parse_int_in(const std::string& v, const std::string& what, i64 lo, i64 hi) {
  const bool neg = !v.empty() && v[0] == '-';
  const std::string digits = neg ? v.substr(1) : v;
  bool ok = !digits.empty() && digits.size() <= 18 && digits.find_first_not_of("0123456789") == std::string::npos;
  i64 x = 0;
  for (std::size_t i = 0; ok && i < digits.size(); ++i) x = x * 10 + (digits[i] - '0');  // < 10^18: no overflow
  if (neg) x = -x;
  if (!ok || x < lo || x > hi)
    throw LayoutError(what + " needs an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not '" + v + "'");
  return x;
}

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
