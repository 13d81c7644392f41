// tests/proofs/claims/absolute_base_test.cpp: the smem_ptr form swizzles ABSOLUTE shared-memory byte
// addresses (CuTe's swizzle_ptr; model/layout/composed.hpp absolute_bit_address) in every path that
// computes lane addresses: a kernel trace (model/trace/trace_copy.cpp, --base), and the bank claims'
// access model (make_bank_subject, a spec's base:). At a base that is not a multiple of the swizzle's
// period (1024 B for Sw<3,4,3>) the element form Sw<3,3,3> o L and the smem_ptr form differ; for an
// element-form layout the base simply adds.
#include <gtest/gtest.h>

#include "model/source/kernel_expr.hpp"
#include "model/layout/notation.hpp"
#include "proofs/claims/bank_claims.hpp"

namespace layoutproof::proofs {
namespace {

const char* kMma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})";
const char* kLdsm = "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)";
const char* kSmemPtr = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{},Int<64>{},Int<3>{}))";
const char* kElement =
    "tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))";

AddressTrace trace_at(const char* smem, i64 base) {
  TraceOptions o;
  o.base_address = base;
  const TiledCopy c = parse_tiled_copy(kLdsm, parse_tiled_mma(kMma));
  return trace_copy(c, parse_smem_layout(smem), CopySide::S, o);
}

// Every slice element's byte address is absolute_bit_address(smem, its logical index, 16, base) / 8.
void expect_absolute(const char* smem, i64 base) {
  const AnyLayout l = parse_smem_layout(smem);
  const AddressTrace t = trace_at(smem, base);
  ASSERT_FALSE(t.instructions.empty());
  i64 checked = 0;
  for (const TraceInstruction& in : t.instructions)
    for (std::size_t k = 0; k < in.slice_addrs.size(); ++k) {
      if (in.slice_elems[k] < 0) continue;
      const i64 want = absolute_bit_address(l, IntTuple(in.slice_elems[k]), 16, base);
      ASSERT_EQ(want % 8, 0);
      ASSERT_EQ(in.slice_addrs[k], want / 8) << smem << " base " << base << " " << in.where << " element " << in.slice_elems[k];
      ++checked;
    }
  EXPECT_EQ(checked, 2 * 128 * 64 * 3);  // the A copy reads every element once per warp column (2x2 warps)
}

TEST(AbsoluteBase, TraceOfSmemPtrTileSwizzlesAbsoluteAddresses) {
  ASSERT_TRUE(parse_smem_layout(kSmemPtr).is_smem_ptr());
  for (i64 base : {0, 128, 1024, 1040, 4096 + 384}) expect_absolute(kSmemPtr, base);
  const AddressTrace a = trace_at(kSmemPtr, 1024), b = trace_at(kSmemPtr, 128);
  EXPECT_EQ(a.instructions[0].addr[1], 1024 + 144);  // row 1 of the aligned tile: 128 ^ 16
  EXPECT_EQ(b.instructions[0].addr[0], 144);          // byte_sw(128) = 128 ^ (1 << 4)
  EXPECT_EQ(b.instructions[0].addr[7], 1024);         // byte_sw(128 + 896) = 1024: row 7 wraps into the next period
  // At an aligned base the smem_ptr form and the element form give the same trace; at 128 they differ.
  const AddressTrace e0 = trace_at(kElement, 0), p0 = trace_at(kSmemPtr, 0);
  const AddressTrace e128 = trace_at(kElement, 128);
  ASSERT_EQ(e0.instructions.size(), p0.instructions.size());
  bool differ_at_128 = false;
  for (std::size_t i = 0; i < e0.instructions.size(); ++i) {
    EXPECT_EQ(e0.instructions[i].addr, p0.instructions[i].addr);
    differ_at_128 = differ_at_128 || e128.instructions[i].addr != b.instructions[i].addr;
  }
  EXPECT_TRUE(differ_at_128);
}

TEST(AbsoluteBase, TraceOfElementFormAddsTheBase) {
  const AddressTrace a = trace_at(kElement, 0), b = trace_at(kElement, 128);
  ASSERT_EQ(a.instructions.size(), b.instructions.size());
  for (std::size_t i = 0; i < a.instructions.size(); ++i)
    for (int l = 0; l < kWarpLanes; ++l)
      if (a.instructions[i].addr[l] >= 0) ASSERT_EQ(b.instructions[i].addr[l], a.instructions[i].addr[l] + 128);
  expect_absolute(kElement, 128);  // absolute_bit_address's element-form rule: 8*base + L(x)*bits
}

TEST(AbsoluteBase, TraceRefusesAnSmemPtrTileOfOtherElements) {
  const TiledCopy c = parse_tiled_copy("make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_1>>{})");
  EXPECT_THROW(trace_copy(c, parse_smem_layout("Sw<3,4,3> o smem_ptr[16b](unset) o (32,64):(64,1)"), CopySide::S, {}), LayoutError);
}

// 64-byte rows (8,32):(32,1) of half under Sw<3,4,3>: a 16-byte column read (row-per-lane, vec 8)
// is conflict-free at base 0 in both forms, and at base 64 in the element form (the base adds), but
// the smem_ptr form at base 64 puts rows 0 and 7 at bytes 64 and 576 (both 64 mod 128): refuted.
TEST(AbsoluteBase, BankSubjectOfSmemPtrTileUsesAbsoluteAddresses) {
  const auto subject = [](const char* tile, i64 base) {
    AccessSpec s = make_access(parse_any_layout(tile), 2, 8, PatternKind::row_per_lane);
    s.base_address = base;
    return make_bank_subject(s, SmemOp::ld);
  };
  const char* ptr = "Sw<3,4,3> o smem_ptr[16b](unset) o (8,32):(32,1)";
  const char* element = "Sw<3,3,3> o 0 o (8,32):(32,1)";
  const auto verdict = [](const BankSubject& s) { return prove_bank(s, *parse_bank_claim("conflict-free"), {}).verdict.kind; };
  EXPECT_EQ(verdict(subject(ptr, 0)), Verdict::Kind::proved);
  EXPECT_EQ(verdict(subject(element, 64)), Verdict::Kind::proved);
  EXPECT_EQ(verdict(subject(ptr, 64)), Verdict::Kind::refuted);
  EXPECT_EQ(verdict(subject(ptr, 1024 + 64)), Verdict::Kind::refuted);
  // The addresses are absolute_bit_address's, lane by lane.
  const AnyLayout l = parse_any_layout(ptr);
  const AddressTrace t = trace_of(subject(ptr, 64));
  for (const TraceInstruction& in : t.instructions)
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      if (in.addr[lane] < 0) continue;
      const IntTuple rc = IntTuple::tuple({in.coords[2 * lane], in.coords[2 * lane + 1]});
      ASSERT_EQ(in.addr[lane] * 8, absolute_bit_address(l, rc, 16, 64)) << in.where << " lane " << lane;
    }
  // An smem_ptr tile names its element width: 4-byte accesses of a 16-bit smem_ptr tile are refused.
  EXPECT_THROW(make_bank_subject(make_access(parse_any_layout(ptr), 4, 4, PatternKind::row_per_lane), SmemOp::ld), LayoutError);
}

}  // namespace
}  // namespace layoutproof::proofs
