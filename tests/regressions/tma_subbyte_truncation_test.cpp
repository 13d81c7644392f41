// Review finding (no property seed): tma:Sw claims compared truncated byte addresses
// bytes(o) = o*bits/8, so for sub-byte elements (i4, e2m1) a layout that permutes the elements
// inside one byte passed as TMA's swizzle: Sw<1,0,1> o 0 o (4):(1) with 4-bit elements puts
// element 2 in the high nibble of byte 1 (element offset 3), TMA's identity swizzle Sw<0,4,3>
// leaves it in the low nibble (offset 2), yet tma:Sw<0,4,3> was PROVED.
// Fixed: check_tma compares bit addresses (bytes move whole; an element keeps its bit position).
#include <gtest/gtest.h>

#include "model/layout/notation.hpp"
#include "proofs/check/run_check.hpp"

namespace layoutproof::proofs {
namespace {

CheckResult run_tma(const char* layout, const char* claim, int bits) {
  return run_check(make_check("t", parse_any_layout(layout), claim, std::nullopt, {}, bits), ProveOptions{}).front();
}

TEST(Regression, TmaSubByteTruncation_nibbleSwap) {
  const CheckResult r = run_tma("Sw<1,0,1> o 0 o (4):(1)", "tma:Sw<0,4,3>", 4);
  EXPECT_TRUE(r.verdict.is_refuted()) << to_string(r.verdict.kind) << " " << r.verdict.detail;
  // What must still hold: the plain layout, a byte-level match, and the catalog's 4-bit-free atoms.
  EXPECT_TRUE(run_tma("(4):(1)", "tma:Sw<0,4,3>", 4).verdict.is_proved());
  EXPECT_TRUE(run_tma("Sw<1,1,1> o 0 o (8):(1)", "tma:Sw<1,0,1>", 4).verdict.is_proved());
  EXPECT_TRUE(run_tma("Sw<3,5,3> o 0 o (8,256):(256,1)", "tma:Sw<3,4,3>", 4).verdict.is_proved());
  EXPECT_TRUE(run_tma("Sw<3,4,3> o 0 o (8,64):(64,1)", "tma:Sw<3,4,3>", 8).verdict.is_proved());
}

}  // namespace
}  // namespace layoutproof::proofs
