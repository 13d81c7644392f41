// tests/proofs/claims/bank_memo_test.cpp: the bank-model memo (proofs/claims/bank_memo.hpp) answers what
// analyze_smem_access answers, on random instructions of every op and width, and instructions
// moved by whole 128-byte blocks (in any order) share one evaluation.
#include <gtest/gtest.h>

#include <random>

#include "model/support/checked.hpp"
#include "model/support/error.hpp"
#include "proofs/claims/bank_memo.hpp"

namespace layoutproof::proofs {
namespace {

SmemAccess random_access(std::mt19937& g, SmemOp op, int width, i64 span) {
  SmemAccess a{op, width, {}};
  std::uniform_int_distribution<i64> addr(0, span / width - 1);
  std::bernoulli_distribution inactive(0.1);
  for (auto& x : a.lane_addr) x = addr(g) * width;
  for (int l = 1; l < kWarpLanes; ++l)
    if (inactive(g)) a.lane_addr[static_cast<std::size_t>(l)] = -1;  // lane 0 stays active
  return a;
}

TEST(BankMemo, AgreesWithTheBankModel) {
  std::mt19937 g(14);
  BankMemo memo;
  const std::vector<std::pair<SmemOp, int>> kinds = {{SmemOp::ld, 4},  {SmemOp::st, 2},    {SmemOp::ld, 8},     {SmemOp::ld, 16},
                                                     {SmemOp::st, 16}, {SmemOp::ldsm4, 16}, {SmemOp::stsm2, 16}, {SmemOp::ldgsts, 16}};
  int n = 0;
  for (const auto& [op, w] : kinds)
    for (i64 span : {128, 512, 4096})
      for (int i = 0; i < 200; ++i, ++n) {
        const SmemAccess a = random_access(g, op, w, span);
        const BankReport rep = analyze_smem_access(a);
        const BankCounts& c = memo.counts(a);
        ASSERT_EQ(c.wavefronts, rep.wavefronts) << to_string(op) << " width " << w;
        ASSERT_EQ(c.ideal, rep.ideal) << to_string(op) << " width " << w;
        ASSERT_DOUBLE_EQ(c.degree, rep.conflict_degree);
      }
  EXPECT_LE(memo.evaluations(), static_cast<std::size_t>(n));
}

TEST(BankMemo, BlockMovesShareOneEvaluation) {
  std::mt19937 g(7);
  BankMemo memo;
  const SmemAccess a = random_access(g, SmemOp::ld, 4, 1024);
  const BankCounts first = memo.counts(a);
  EXPECT_EQ(memo.evaluations(), 1u);
  // Move every 128-byte block to another one, keeping distinct blocks distinct (x -> x + 4096*(block+1)).
  SmemAccess b = a;
  for (auto& x : b.lane_addr)
    if (x >= 0) x += 4096 * ((x >> 7) + 1);
  EXPECT_EQ(BankMemo::key(a), BankMemo::key(b));
  const BankCounts& second = memo.counts(b);
  EXPECT_EQ(memo.evaluations(), 1u);
  EXPECT_EQ(second.wavefronts, first.wavefronts);
  EXPECT_EQ(analyze_smem_access(b).wavefronts, first.wavefronts);
  // Another op or width is another key.
  SmemAccess c = a;
  c.op = SmemOp::st;
  EXPECT_FALSE(BankMemo::key(a) == BankMemo::key(c));
}

TEST(BankMemo, InvalidInstructionThrowsAndLeavesNoEntry) {
  BankMemo memo;
  SmemAccess a{SmemOp::ld, 16, {}};
  a.lane_addr.fill(-1);
  a.lane_addr[0] = 8;  // not a multiple of 16
  EXPECT_THROW(memo.counts(a), LayoutError);
  EXPECT_EQ(memo.evaluations(), 0u);
}

}  // namespace
}  // namespace layoutproof::proofs
