// Floating-point arithmetic as the GPU does it (model/compiled/exec/float_arith.hpp).
//
// The host's IEEE arithmetic computes each result in the instruction's rounding: the rounding
// direction is set around the one operation (and put back), the operands read through volatile so
// that the compiler neither folds nor moves the operation out of it.
#include "model/compiled/exec/float_arith.hpp"

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>

namespace layoutproof::compiled::alu {
namespace {

int fe_mode(Round r) {
  switch (r) {
    case Round::rz: return FE_TOWARDZERO;
    case Round::rm: return FE_DOWNWARD;
    case Round::rp: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

// The rounding direction r while it lives; the one before it after.
class RoundingScope {
 public:
  explicit RoundingScope(Round r) : saved_(std::fegetround()) { std::fesetround(fe_mode(r)); }
  ~RoundingScope() { std::fesetround(saved_); }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

 private:
  int saved_;
};

template <class T>
T flushed(T x, bool ftz) {
  return ftz && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(T(0), x) : x;
}

// min/max: a NaN operand gives the other; -0 orders below +0.
template <class T>
T min_max(T a, T b, bool is_min) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b && a == T(0)) return std::signbit(a) == is_min ? a : b;
  return is_min ? (b < a ? b : a) : (b > a ? b : a);
}

// .ftz on an f32 result: the GPU flushes a result that is tiny BEFORE rounding (below the least
// normal, 2^-126, in magnitude), even where rounding would reach 2^-126 (measured: 2^-126 times
// (1 - 2^-24) is +0 under .ftz). The exact result is compared with 2^-126 in double (round to
// nearest, the caller's rounding not yet set): a sum, difference or product of two f32 values is
// exact there; an fma's sum of its exact product and c is split into a double and its exact error
// (TwoSum); a quotient that rounds onto 2^-126 is placed by the sign of its exact residual.
bool tiny_before_rounding(FloatOp op, float a, float b, float c) {
  const double least = std::ldexp(1.0, -126);
  double s = 0, e = 0;  // the exact result is s + e, |e| at most half an ulp of s
  switch (op) {
    case FloatOp::add: s = double(a) + double(b); break;
    case FloatOp::sub: s = double(a) - double(b); break;
    case FloatOp::mul: s = double(a) * double(b); break;
    case FloatOp::fma: {
      const double p = double(a) * double(b), q = double(c);
      s = p + q;
      const double bb = s - p;
      e = (p - (s - bb)) + (q - bb);
      break;
    }
    case FloatOp::div: {
      s = double(a) / double(b);
      if (std::fabs(s) == least) {
        // a/b - s = -(s*b - a)/b: the residual's sign against b's says which side of s a/b is.
        const double residual = std::fma(s, double(b), -double(a));
        e = residual == 0 ? 0 : (std::signbit(residual) == std::signbit(double(b)) ? -1.0 : 1.0) * std::ldexp(1.0, -1000);
      }
      break;
    }
    default: return false;
  }
  if (s == 0 && e == 0) return false;
  if (std::fabs(s) != least) return std::fabs(s) < least;
  return std::signbit(s) ? e > 0 : e < 0;  // on 2^-126 itself: below it exactly when e points inward
}

// add sub mul fma div min max (neg and abs are float_arith's: the sign bit alone).
template <class T>
T compute(const FloatForm& f, T a, T b, T c) {
  const bool ftz = f.ftz && f.bits == 32;
  a = flushed(a, ftz), b = flushed(b, ftz), c = flushed(c, ftz);
  volatile T x = a, y = b, z = c;
  T r;
  bool tiny = false;
  if constexpr (sizeof(T) == 4) {
    if (ftz) tiny = tiny_before_rounding(f.op, a, b, c);  // false for min and max
  }
  switch (f.op) {
    case FloatOp::min: r = min_max<T>(x, y, true); break;
    case FloatOp::max: r = min_max<T>(x, y, false); break;
    default: {
      const RoundingScope scope(f.rnd);
      switch (f.op) {
        case FloatOp::add: r = x + y; break;
        case FloatOp::sub: r = x - y; break;
        case FloatOp::mul: r = x * y; break;
        case FloatOp::div: r = x / y; break;
        default: r = std::fma(T(x), T(y), T(z)); break;
      }
      volatile T kept = r;  // computed inside the scope
      r = kept;
    }
  }
  r = tiny ? std::copysign(T(0), r) : flushed(r, ftz);
  // .sat: [+0, 1]; NaN and every negative value, -0 too, are +0 (measured).
  if (f.sat) r = std::isnan(r) || std::signbit(r) ? T(0) : r > T(1) ? T(1) : r;
  return r;
}

}  // namespace

std::optional<u64> float_arith(const FloatForm& f, u64 a, u64 b, u64 c) {
  if (f.bits == 32) {
    const auto f32 = [](u64 v) { return std::bit_cast<float>(static_cast<std::uint32_t>(v)); };
    if ((f.op == FloatOp::neg || f.op == FloatOp::abs) && std::isnan(f32(a))) return std::nullopt;
    if (f.op == FloatOp::neg) return (a ^ 0x80000000u) & 0xffffffffu;
    if (f.op == FloatOp::abs) return a & 0x7fffffffu;
    const float r = compute<float>(f, f32(a), f32(b), f32(c));
    if (std::isnan(r)) return u64{0x7fffffffu};  // the GPU's canonical NaN (measured)
    return std::bit_cast<std::uint32_t>(r);
  }
  if (f.bits == 64) {
    if ((f.op == FloatOp::neg || f.op == FloatOp::abs) && std::isnan(std::bit_cast<double>(a))) return std::nullopt;
    if (f.op == FloatOp::neg) return a ^ (u64{1} << 63);
    if (f.op == FloatOp::abs) return a & ~(u64{1} << 63);
    const double r = compute<double>(f, std::bit_cast<double>(a), std::bit_cast<double>(b), std::bit_cast<double>(c));
    if (std::isnan(r)) return std::nullopt;
    return std::bit_cast<u64>(r);
  }
  return std::nullopt;
}

std::optional<bool> float_compare(Cmp cmp, int bits, bool ftz, u64 a, u64 b) {
  double x, y;
  if (bits == 32) {
    x = flushed(std::bit_cast<float>(static_cast<std::uint32_t>(a)), ftz);
    y = flushed(std::bit_cast<float>(static_cast<std::uint32_t>(b)), ftz);
  } else if (bits == 64) {
    x = std::bit_cast<double>(a), y = std::bit_cast<double>(b);
  } else {
    return std::nullopt;
  }
  const bool nan = std::isnan(x) || std::isnan(y);
  switch (cmp) {
    case Cmp::eq: return !nan && x == y;
    case Cmp::ne: return !nan && x != y;
    case Cmp::lt: return !nan && x < y;
    case Cmp::le: return !nan && x <= y;
    case Cmp::gt: return !nan && x > y;
    case Cmp::ge: return !nan && x >= y;
    case Cmp::equ: return nan || x == y;
    case Cmp::neu: return nan || x != y;
    case Cmp::ltu: return nan || x < y;
    case Cmp::leu: return nan || x <= y;
    case Cmp::gtu: return nan || x > y;
    case Cmp::geu: return nan || x >= y;
    case Cmp::num: return !nan;
    case Cmp::nan: return nan;
    default: return std::nullopt;
  }
}

}  // namespace layoutproof::compiled::alu
