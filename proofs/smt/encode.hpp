#pragma once
// Bit-vector encodings of layouts and swizzles (two's complement, width w chosen by width_for()
// so that no intermediate value can wrap: every value the formulas build is bounded in magnitude
// by 2^(w-2)).
//
//   coordinates   c_k : (_ BitVec w), 0 <= c_k < s_k   for the flattened leaves s_k:d_k
//   index         idx(c) = sum_k c_k * P_k,   P_k = s_0 * ... * s_(k-1)        (colexicographic)
//   inner offset  L(c) = sum_k c_k * d_k                                (bvmul by constants, bvadd)
//   at an index   L(x) = sum_k ((x bvudiv P_k) bvurem s_k) * d_k   for 0 <= x < size (non power
//                 of two shapes through division and remainder)
//   swizzle       Sw(v) = v bvxor shift(v bvand yyy_msk, S),  shift = bvlshr by S (S >= 0) or
//                 bvshl by -S (S < 0)
//   composed      Sw(off + L(c))
#include <z3++.h>

#include <vector>

#include "model/layout/composed.hpp"

namespace layoutproof::proofs::smt {

struct Coords {
  std::vector<z3::expr> c;  // one per flattened leaf
  z3::expr domain;          // the conjunction of 0 <= c_k < s_k
  z3::expr index;           // idx(c)
};

class Encoder {
 public:
  Encoder(z3::context& ctx, unsigned width) : ctx_(ctx), w_(width) {}
  unsigned width() const { return w_; }
  z3::expr k(i64 v) const { return ctx_.bv_val(static_cast<int64_t>(v), w_); }
  z3::expr var(const std::string& name) const { return ctx_.bv_const(name.c_str(), w_); }

  Coords coords(const Layout& l, const std::string& prefix) const;
  z3::expr inner(const Layout& l, const std::vector<z3::expr>& c) const;
  z3::expr at_index(const Layout& l, const z3::expr& x) const;  // @pre 0 <= x < size(l)
  z3::expr swizzle(const Swizzle& s, const z3::expr& v) const;
  z3::expr compose(const AnyLayout& l, const z3::expr& inner_offset) const;  // Sw(off + inner)

 private:
  z3::context& ctx_;
  unsigned w_;
};

// The smallest safe width for values up to `bound` in magnitude (2 extra bits: sign and one
// addition of two bounded values). Throws LayoutError when it exceeds 64.
unsigned width_for(i64 bound);
// max |offset| a layout (with its offset and swizzle) can produce over its domain, its size and
// 2^span of its swizzle: everything an encoding of it builds.
i64 magnitude(const AnyLayout& l);

}  // namespace layoutproof::proofs::smt
