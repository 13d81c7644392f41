#pragma once
// RapidCheck generators for kernel copies and warp-wide shared-memory instructions.
// Header-only; link layoutproof_properties. Valid by construction, shrinking toward small tiles,
// no swizzle, one stage, base 0 and low addresses.
//
//   copy_cases()   a TiledCopy as a kernel writes it (C++), a smem layout it tiles, the side:
//     make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{},
//                     Layout<Shape<_1,_8>,Stride<_8,_1>>{})  over  Sw<3,3,3> o 0 o (32,64,2):(64,1,2048)
//     or make_tiled_copy_A/B(Copy_Atom<SM75_U32xN_LDSM_N | SM75_U16x2N_LDSM_T, half_t>{}, mma) of
//     make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_Wm,_Wn,_1>>{}) over an (M or N, K) tile.
//   smem_accesses()  one valid instruction (model/bank/bank.hpp validate()): op, width and 32 lane
//     addresses, multiples of the width, some lanes inactive (-1), at least one active.
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "model/bank/bank.hpp"
#include "model/layout/composed.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof::gen {

struct CopyCase {
  std::string copy;        // the TiledCopy's C++
  std::string mma;         // the TiledMMA's C++ ("" when none)
  std::string element;     // half_t, float, ...
  int element_bytes = 2;
  std::string smem;        // CuTe notation, modes (MN, K[, stages])
  std::vector<i64> shape;  // the smem tensor's extents
  bool destination = false;  // the copy writes the smem tensor (partition_D)
  i64 base = 0;            // byte address of element 0
};

inline std::string cute_layout_cpp(i64 m, i64 n, bool row_major) {
  const std::string shape = "Shape<_" + std::to_string(m) + ",_" + std::to_string(n) + ">";
  return row_major ? "Layout<" + shape + ",Stride<_" + std::to_string(n) + ",_1>>{}" : "Layout<" + shape + ">{}";
}

// A power of two p split into (m, p / m), m a power of two; shrinks toward m = 1.
inline std::pair<i64, i64> split_pow2(i64 p) {
  int bits = 0;
  while ((i64{1} << bits) < p) ++bits;
  const i64 m = i64{1} << *rc::gen::inRange(0, bits + 1);
  return {m, p / m};
}

// The smem tensor: K-major (E0,E1):(E1+pad,1) or MN-major (E0,E1):(1,E0+pad), stages one stage
// apart, sometimes swizzled (Sw<B,M,S> o 0 o ..., S >= B: a bijection of each atom's offsets).
inline std::string draw_smem(const std::vector<i64>& shape) {
  const bool kmajor = *rc::gen::arbitrary<bool>();
  const i64 pad = *rc::gen::weightedElement<i64>({{4, 0}, {1, 1}, {1, 4}});
  const i64 d0 = kmajor ? shape[1] + pad : 1, d1 = kmajor ? 1 : shape[0] + pad;
  std::string sh = "(" + std::to_string(shape[0]) + "," + std::to_string(shape[1]);
  std::string st = "(" + std::to_string(d0) + "," + std::to_string(d1);
  if (shape.size() > 2) {
    sh += "," + std::to_string(shape[2]);
    st += "," + std::to_string((shape[0] + (kmajor ? 0 : pad)) * (shape[1] + (kmajor ? pad : 0)));
  }
  const std::string plain = sh + "):" + st + ")";
  if (!*rc::gen::weightedElement<int>({{1, 0}, {2, 1}})) return plain;
  const int b = *rc::gen::inRange(1, 4), m = *rc::gen::inRange(0, 5), s = b + *rc::gen::inRange(0, 3);
  return "Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + "> o 0 o " + plain;
}

inline rc::Gen<CopyCase> copy_cases() {
  return rc::gen::exec([] {
    CopyCase c;
    const i64 stages = *rc::gen::element<i64>(1, 2);
    c.base = 128 * *rc::gen::inRange<i64>(0, 4);
    if (*rc::gen::weightedElement<int>({{2, 0}, {1, 1}})) {
      // An LDSM copy of an MMA operand (smem is the source).
      const bool a = *rc::gen::arbitrary<bool>();
      const i64 wm = *rc::gen::element<i64>(1, 2), wn = *rc::gen::element<i64>(1, 2);
      const bool trans = *rc::gen::arbitrary<bool>();
      const int n = a ? *rc::gen::element(4, 2) : 2;  // B's 8-column warp tile has values for .x2 only
      const std::string op = trans ? "SM75_U16x" + std::to_string(2 * n) + "_LDSM_T" : "SM75_U32x" + std::to_string(n) + "_LDSM_N";
      c.mma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_" + std::to_string(wm) + ",_" +
              std::to_string(wn) + ",_1>>{})";
      c.copy = std::string("make_tiled_copy_") + (a ? "A" : "B") + "(Copy_Atom<" + op + ", half_t>{}, mma)";
      c.element = "half_t";
      c.element_bytes = 2;
      const i64 mn = (a ? 16 * wm : 8 * wn) * *rc::gen::element<i64>(1, 2, 4), k = 16 * *rc::gen::element<i64>(1, 2, 4);
      c.shape = {mn, k};
    } else {
      struct El {
        const char* name;
        int bytes;
      };
      const El el = *rc::gen::element(El{"half_t", 2}, El{"float", 4}, El{"int8_t", 1}, El{"double", 8});
      const int bits = std::max(8 * el.bytes, *rc::gen::element(128, 64, 32));
      const bool cp = bits >= 32 && *rc::gen::arbitrary<bool>();
      const std::string reg = "uint" + std::to_string(bits) + "_t";
      const i64 vals = bits / (8 * el.bytes);
      const auto [tm, tn] = split_pow2(*rc::gen::element<i64>(32, 64, 128, 16));
      const auto [vm, vn] = split_pow2(vals);
      c.copy = "make_tiled_copy(Copy_Atom<" + std::string(cp ? "SM80_CP_ASYNC_CACHEALWAYS<" : "UniversalCopy<") + reg +
               ">, " + el.name + ">{}, " + cute_layout_cpp(tm, tn, *rc::gen::arbitrary<bool>()) + ", " +
               cute_layout_cpp(vm, vn, *rc::gen::arbitrary<bool>()) + ")";
      c.element = el.name;
      c.element_bytes = el.bytes;
      c.destination = cp || *rc::gen::arbitrary<bool>();
      c.shape = {tm * vm * *rc::gen::element<i64>(1, 2), tn * vn * *rc::gen::element<i64>(1, 2)};
    }
    if (stages > 1) c.shape.push_back(stages);
    c.smem = draw_smem(c.shape);
    return c;
  });
}

inline rc::Gen<SmemAccess> smem_accesses() {
  return rc::gen::exec([] {
    SmemAccess a;
    a.op = *rc::gen::element(SmemOp::ld, SmemOp::st, SmemOp::ldsm1, SmemOp::ldsm2, SmemOp::ldsm4, SmemOp::stsm1,
                             SmemOp::stsm2, SmemOp::stsm4, SmemOp::ldgsts);
    a.width_bytes = is_matrix_op(a.op) ? 16 : *rc::gen::element(4, 1, 2, 8, 16);
    // Addresses drawn from a small window (so lanes share banks and words often) or a wide one.
    const i64 window = *rc::gen::element<i64>(512, 4096, 128);
    const int active_percent = *rc::gen::element(100, 50, 90, 10);
    for (int l = 0; l < kWarpLanes; ++l) {
      const bool on = *rc::gen::inRange(0, 100) < active_percent;
      a.lane_addr[static_cast<std::size_t>(l)] = on ? a.width_bytes * *rc::gen::inRange<i64>(0, window / a.width_bytes) : -1;
    }
    const int lanes = is_matrix_op(a.op) ? 8 * matrix_count(a.op) : kWarpLanes;
    bool any = false;
    for (int l = 0; l < lanes; ++l) any = any || a.lane_addr[static_cast<std::size_t>(l)] >= 0;
    if (!any) a.lane_addr[0] = 0;
    return a;
  });
}

}  // namespace layoutproof::gen

namespace layoutproof {
inline void showValue(const gen::CopyCase& c, std::ostream& os) {
  os << "layoutproof trace --side " << (c.destination ? "D" : "S") << " --element " << c.element << " --smem '" << c.smem
     << "' --copy '" << c.copy << "'" << (c.mma.empty() ? "" : " --mma '" + c.mma + "'")
     << (c.base ? " --base " + std::to_string(c.base) : "");
}
inline void showValue(const SmemAccess& a, std::ostream& os) {
  os << "layoutproof bank --op " << to_string(a.op) << " --width " << a.width_bytes << " --addresses ";
  for (int l = 0; l < kWarpLanes; ++l) os << (l ? "," : "") << a.lane_addr[static_cast<std::size_t>(l)];
}
}  // namespace layoutproof
