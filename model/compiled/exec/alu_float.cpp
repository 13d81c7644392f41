// The ALU's floating-point conversions and reciprocal (alu.hpp), evaluated concretely in IEEE
// binary32/binary64 where the inputs are known: what decides an address or a branch in the code
// ptxas emits for integer division (I2F.U32.RP, MUFU.RCP, F2I.FTZ.U32.TRUNC.NTZ) and in float
// index arithmetic. An input not known gives a result not known; nothing is approximated.
//   int -> float   the rounding asked for (.rn default, .rz, .rm, .rp), exact: the integer is
//                  compared with its nearest float in long double, which holds every 64-bit integer
//   float -> int   .rni/.rzi/.rmi/.rpi (default .rni); NaN -> 0; out of range saturates (PTX's
//                  cvt to an integer always does)
//   float -> float f32 <-> f64: exact widening, narrowing to nearest (.rn; other roundings: not known)
//   .ftz           a subnormal f32 input or result becomes zero of its sign
//   rcp            f32 1/x rounded to nearest: only lowered for MUFU.RCP of an I2F.RP value, the
//                  estimate ptxas's division refines into an exact quotient whatever its last bit
// Example: cvt.rp.f32.u32 of 3 -> 0x40400000 (3.0); cvt.rzi.u32.f32 of 0x4f800000 (2^32) -> 0xffffffff.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "model/compiled/exec/alu.hpp"
#include "model/compiled/exec/float_arith.hpp"

namespace layoutproof::compiled::alu {
namespace {

float as_f32(u64 bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits)); }
double as_f64(u64 bits) { return std::bit_cast<double>(bits); }
u64 bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }
u64 bits_of(double d) { return std::bit_cast<u64>(d); }
float flush(float f, bool ftz) { return ftz && std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }

// x (exactly representable in long double) rounded to T in mode r.
template <class T>
T round_to(long double x, Round r) {
  T near = static_cast<T>(x);  // the host rounds to nearest even
  if (r == Round::none || r == Round::rn || std::isnan(x)) return near;
  const long double back = static_cast<long double>(near);
  if (back == x) return near;
  const bool above = back > x;
  if (r == Round::rp) return above ? near : std::nextafter(near, std::numeric_limits<T>::infinity());
  if (r == Round::rm) return above ? std::nextafter(near, -std::numeric_limits<T>::infinity()) : near;
  // rz: toward zero
  if (x > 0) return above ? std::nextafter(near, T(0)) : near;
  return above ? near : std::nextafter(near, T(0));
}

// A float rounded to an integer of `bits` bits (signed or not), saturating; NaN -> 0.
u64 to_integer(long double x, Round r, int bits, bool sgn) {
  if (std::isnan(x)) return 0;
  long double i = r == Round::rz ? std::trunc(x) : r == Round::rm ? std::floor(x) : r == Round::rp ? std::ceil(x) : std::nearbyint(x);
  if (r == Round::none || r == Round::rn) {  // to nearest, ties to even, whatever the host's mode
    const long double f = std::floor(x), d = x - f;
    i = d < 0.5L ? f : d > 0.5L ? f + 1 : (std::fmod(f, 2.0L) == 0 ? f : f + 1);
  }
  if (sgn) {
    const long double lo = -std::ldexp(1.0L, bits - 1), hi = std::ldexp(1.0L, bits - 1) - 1;
    if (i <= lo) return static_cast<u64>(static_cast<i64>(lo));
    if (i >= hi) return bits >= 64 ? static_cast<u64>(INT64_MAX) : (u64{1} << (bits - 1)) - 1;
    return static_cast<u64>(static_cast<i64>(i));
  }
  if (i <= 0) return 0;
  if (i >= std::ldexp(1.0L, bits) - 1) return bits >= 64 ? ~u64{0} : (u64{1} << bits) - 1;
  return static_cast<u64>(i);
}

}  // namespace

void Issue::float_convert() {
  const int sb = c.src.bits;
  const bool from_float = c.src.is_float(), to_float = fl;
  if ((from_float && sb != 32 && sb != 64) || (to_float && bits != 32 && bits != 64))
    return not_modelled(m.mnemonic(in) + ": a half-precision conversion (not modelled)");
  if (from_float && to_float && bits < sb && c.rnd != Round::none && c.rnd != Round::rn)
    return not_modelled(m.mnemonic(in) + ": a narrowing float conversion with a directed rounding (not modelled)");
  if (c.sat && to_float) return not_modelled(m.mnemonic(in) + ": .sat to a float (not modelled)");
  Col ca;
  gather(ca, 0);
  return each(g.mask, [&](int k) __attribute__((always_inline)) {
    const Val a = ca[k];
    if (unknown_of(k, {&a})) return;
    long double x;
    if (from_float) x = sb == 32 ? static_cast<long double>(flush(as_f32(a.v), c.ftz)) : static_cast<long double>(as_f64(a.v));
    else x = c.src.is_signed() ? static_cast<long double>(sign_extend(a.v, sb)) : static_cast<long double>(mask_bits(a.v, sb));
    u64 r;
    if (to_float) r = bits == 32 ? bits_of(flush(round_to<float>(x, c.rnd), c.ftz)) : bits_of(round_to<double>(x, c.rnd));
    else r = to_integer(x, c.rnd, bits, sgn);
    put(k, result(r, {&a}), bits);
  });
}

void Issue::reciprocal() {
  if (!fl || bits != 32) return not_modelled(m.mnemonic(in) + ": a reciprocal other than f32 (not modelled)");
  Col ca;
  gather(ca, 0);
  return each(g.mask, [&](int k) __attribute__((always_inline)) {
    const Val a = ca[k];
    if (unknown_of(k, {&a})) return;
    const float x = flush(as_f32(a.v), c.ftz);
    put(k, result(bits_of(flush(1.0f / x, c.ftz)), {&a}), 32);
  });
}

// add sub mul fma(mad) div min max abs neg on .f32/.f64, concretely (float_arith.hpp; setp is
// select's):
// an input not known gives a result not known, and so does a result whose bits are not modelled.
void Issue::floating() {
  if (bits != 32 && bits != 64) return not_modelled(m.mnemonic(in) + ": half-precision arithmetic (not modelled)");
  if (c.contractible)
    return not_modelled(m.mnemonic(in) + " of a product no rounding keeps apart: ptxas may fuse the two into one fma (not modelled)");
  FloatForm form{FloatOp::add, bits, c.rnd, c.ftz, c.sat};
  int arity = 2;
  switch (c.op) {
    case Op::add: form.op = FloatOp::add; break;
    case Op::sub: form.op = FloatOp::sub; break;
    case Op::mul: form.op = FloatOp::mul; break;
    case Op::mad: form.op = FloatOp::fma, arity = 3; break;
    case Op::div: form.op = FloatOp::div; break;
    case Op::min: form.op = FloatOp::min; break;
    case Op::max: form.op = FloatOp::max; break;
    case Op::abs: form.op = FloatOp::abs, arity = 1; break;
    case Op::neg: form.op = FloatOp::neg, arity = 1; break;
    default: return not_modelled(m.mnemonic(in) + ": floating-point arithmetic (not modelled)");
  }
  Col s0, s1, s2;
  gather(s0, 0);
  if (arity > 1) gather(s1, 1);
  if (arity > 2) gather(s2, 2);
  return each(g.mask, [&](int k) __attribute__((always_inline)) {
    const Val a = s0[k], b = arity > 1 ? s1[k] : Val{}, cc = arity > 2 ? s2[k] : Val{};
    if (unknown_of(k, {&a, arity > 1 ? &b : nullptr, arity > 2 ? &cc : nullptr})) return;
    const std::optional<u64> r = float_arith(form, a.v, b.v, cc.v);
    if (!r) return put(k, unknown(m.reason_at(in, m.mnemonic(in) + ": a NaN result of f64 arithmetic (its bits are not modelled)")), 64);
    put(k, result(*r, {&a, &b, &cc}), bits);
  });
}

}  // namespace layoutproof::compiled::alu
