#pragma once
// Floating-point arithmetic as the GPU does it, bit for bit, where its inputs are known: what
// decides a branch or an address when a kernel computes one in float (SASS FADD/FMUL/FFMA/FSETP/
// FMNMX, PTX add/sub/mul/fma/min/max/setp on .f32 and .f64). IEEE 754 binary32/binary64 with the
// rounding each instruction names, and the GPU's rules where IEEE leaves a choice, measured on the
// H200 (gpu_check/probes/float_ops.cu; tests/compiled/float_ops.tar.xz holds every case it ran):
//   rounding   .rn (and none: nearest even), .rz, .rm, .rp; fma is fused (one rounding); div is
//              IEEE's correctly rounded quotient (PTX div.rn/.rz/.rm/.rp; not measured: the PTX ISA's)
//   .ftz       f32 only: a subnormal input is a zero of its sign, and a result tiny before
//              rounding (below 2^-126 exactly) is a zero of its sign, even one that rounds to 2^-126
//   .sat       the result clamped to [+0.0, 1.0]; NaN and -0.0 -> +0.0
//   NaN        an f32 result that is NaN is 0x7fffffff (the canonical NaN), whatever the inputs;
//              an f64 NaN result is not modelled (nullopt): the GPU's payload rules there are not
//              measured beyond the probe's cases
//   min, max   a NaN operand gives the other one (two NaNs: NaN); -0 < +0
//   neg, abs   the sign bit alone (SASS's -x and |x| operands); of a NaN: not modelled (ptxas may
//              lower a PTX neg.f32 to an FADD, which gives the canonical NaN)
//   setp       eq ne lt le gt ge are false on a NaN operand; equ neu ltu leu gtu geu are true on
//              one; num: neither is NaN; nan: either is
// Example: float_arith({FloatOp::add, 32, Round::rz, false, false}, 0x3f800000, 0x33800000) is
// 0x3f800000 (1 + 2^-24 rounded toward zero); with Round::rp, 0x3f800001.
#include <optional>

#include "model/compiled/ptx_ir.hpp"

namespace layoutproof::compiled::alu {

enum class FloatOp : u8 { add, sub, mul, fma, div, min, max, neg, abs };

struct FloatForm {
  FloatOp op = FloatOp::add;
  int bits = 32;             // 32 or 64
  Round rnd = Round::none;   // none: nearest even
  bool ftz = false;
  bool sat = false;
};

// The result's bits (a, b, c: the operands' bits; fma: a * b + c; neg, abs: a alone), or nullopt
// where the GPU's bits are not modelled (an f64 NaN result, neg or abs of a NaN, a width other than
// 32 or 64).
std::optional<u64> float_arith(const FloatForm& f, u64 a, u64 b = 0, u64 c = 0);

// setp's comparison of a and b (bits wide, .ftz flushing f32 subnormal inputs); nullopt for a
// comparison that is not a float one (lo, ls, hi, hs).
std::optional<bool> float_compare(Cmp cmp, int bits, bool ftz, u64 a, u64 b);

}  // namespace layoutproof::compiled::alu
