// model/bank/bank.hpp's one bank formula (word_of, bank_of_word, bank_of): the definitions'
// worked examples, and the bank model's own collisions landing in the banks it names.
// The wavefront counts against H100 measurements are tests/bank/'s.
#include "model/bank/bank.hpp"

#include <gtest/gtest.h>

namespace layoutproof {
namespace {

TEST(BankOf, TheDefinitionsExamples) {
  EXPECT_EQ(word_of(140), 35);
  EXPECT_EQ(bank_of(140), 3);
  EXPECT_EQ(bank_of(128), 0);
  EXPECT_EQ(bank_of(4100), 1);
  EXPECT_EQ(bank_of(127), 31);
  // A 16-byte access at byte 124: words 31..34, banks 31, 0, 1, 2.
  EXPECT_EQ(word_of(124), 31);
  EXPECT_EQ(word_of(124 + 16 - 1), 34);
  EXPECT_EQ(bank_of_word(33), 1);
  // The bytes of one word share its bank; 128 bytes later is the same bank again.
  for (std::int64_t a = 0; a < 4 * 128; ++a) {
    EXPECT_EQ(bank_of(a), bank_of(a - a % kBankBytes));
    EXPECT_EQ(bank_of(a), bank_of(a + kBanks * kBankBytes));
    EXPECT_EQ(bank_of(a), static_cast<int>((a / 4) % 32));
  }
}

TEST(BankOf, TheModelsCollisionsAreInTheBanksItNames) {
  // Lane l at byte 128 * l: every lane in bank 0, 32 distinct words: one 32-way collision.
  SmemAccess a{SmemOp::ld, 4, {}};
  for (int l = 0; l < kWarpLanes; ++l) a.lane_addr[static_cast<std::size_t>(l)] = 128 * l;
  const BankReport r = analyze_smem_access(a);
  ASSERT_EQ(r.collisions.size(), 1u);
  EXPECT_EQ(r.collisions[0].bank, bank_of(128 * 5));
  for (const std::int64_t w : r.collisions[0].words) EXPECT_EQ(bank_of_word(w), r.collisions[0].bank);
}

}  // namespace
}  // namespace layoutproof
