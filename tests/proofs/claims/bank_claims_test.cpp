// tests/proofs/claims/bank_claims_test.cpp: the seed cases of the bank model (verdicts as measured on the H100 in
// shared/hardware/h100_shared_memory_wavefronts.jsonl: conflict-free iff every measured instruction
// needs exactly its ideal wavefronts), a max-ways case, and Z3 against the exhaustive oracle.
#include <gtest/gtest.h>

#include <random>

#include "model/layout/notation.hpp"
#include "proofs/claims/bank_claims.hpp"

namespace layoutproof::proofs {
namespace {

BankSubject access(const std::string& tile, int elem_bytes, int vec, PatternKind p, SmemOp op = SmemOp::ld) {
  return make_bank_subject(make_access(parse_any_layout(tile), elem_bytes, vec, p), op);
}

BankResult run(const BankSubject& s, const std::string& claim, EngineChoice e = EngineChoice::automatic) {
  ProveOptions o;
  o.engine = e;
  return prove_bank(s, *parse_bank_claim(claim), o);
}

// Both engines give `expected`; a refutation carries a replayed witness with > 1 ways.
void expect(const BankSubject& s, const std::string& claim, Verdict::Kind expected) {
  for (EngineChoice e : {EngineChoice::automatic, EngineChoice::z3, EngineChoice::exhaustive}) {
    const BankResult r = run(s, claim, e);
    ASSERT_EQ(r.verdict.kind, expected) << s.text() << " " << claim << ": " << r.verdict.method << " " << r.verdict.detail;
    if (expected == Verdict::Kind::refuted) {
      ASSERT_TRUE(r.witness.has_value());
      EXPECT_GT(r.witness->ways, 1);
      EXPECT_GT(r.witness->wavefronts, r.witness->ideal);
      EXPECT_GE(r.witness->lanes.size(), 2u);
    }
  }
}

constexpr auto P = Verdict::Kind::proved;
constexpr auto R = Verdict::Kind::refuted;

TEST(BankSeeds, Column32x64F32OneColumnPerWarp) {  // measured: 32, 1, 4, 4, 16 wavefronts
  expect(access("(32,64):(64,1)", 4, 1, PatternKind::row_per_lane), "conflict-free", R);
  expect(access("Sw<5,0,6> o (32,64):(64,1)", 4, 1, PatternKind::row_per_lane), "conflict-free", P);
  expect(access("Sw<5,0,8> o (32,64):(64,1)", 4, 1, PatternKind::row_per_lane), "conflict-free", R);
  expect(access("Sw<5,2,6> o (32,64):(64,1)", 4, 1, PatternKind::row_per_lane), "conflict-free", R);
  expect(access("Sw<5,2,8> o (32,64):(64,1)", 4, 1, PatternKind::row_per_lane), "conflict-free", R);
}

TEST(BankSeeds, Vec4F32RowPerLane) {  // measured wavefronts per instruction (ideal 4)
  expect(access("(32,64):(64,1)", 4, 4, PatternKind::row_per_lane), "conflict-free", R);             // 32
  expect(access("Sw<3,2,4> o (32,64):(64,1)", 4, 4, PatternKind::row_per_lane), "conflict-free", P);  // 4
  expect(access("(32,48):(48,1)", 4, 4, PatternKind::row_per_lane), "conflict-free", R);             // 16
  expect(access("Sw<3,2,4> o (32,48):(48,1)", 4, 4, PatternKind::row_per_lane), "conflict-free", R);  // 8
  expect(access("Sw<2,2,3> o (32,48):(48,1)", 4, 4, PatternKind::row_per_lane), "conflict-free", P);  // 4
  expect(access("(32,40):(40,1)", 4, 4, PatternKind::row_per_lane), "conflict-free", R);             // 8
  expect(access("Sw<2,2,3> o (32,40):(40,1)", 4, 4, PatternKind::row_per_lane), "conflict-free", R);  // 8
}

TEST(BankSeeds, Tile32x40Sw223NamesTheCollidingLanes) {
  const BankResult r = run(access("Sw<2,2,3> o (32,40):(40,1)", 4, 4, PatternKind::row_per_lane), "conflict-free");
  ASSERT_EQ(r.verdict.kind, R) << r.verdict.detail;
  const BankWitness& w = *r.witness;
  EXPECT_EQ(w.instruction, 0);
  EXPECT_EQ(w.where, "rows 0-31, columns 0-3");
  EXPECT_EQ(w.phase, 0);
  EXPECT_EQ(w.bank, 0);
  ASSERT_EQ(w.lanes.size(), 2u);
  EXPECT_EQ(w.lanes[0].lane, 0);
  EXPECT_EQ(w.lanes[1].lane, 5);
  EXPECT_EQ(w.lanes[0].byte_address, 0);
  EXPECT_EQ(w.lanes[1].byte_address, 768);  // row 5: offset 200 -> Sw<2,2,3> -> 192, x 4 bytes
  EXPECT_EQ(w.lanes[1].row, 5);
  EXPECT_EQ(w.wavefronts, 8);  // the H100 measured 8
  EXPECT_EQ(w.ideal, 4);
  EXPECT_NE(r.verdict.witness.why.find("lanes 0 (0,0) at byte 0, 5 (5,0) at byte 768"), std::string::npos) << r.verdict.witness.why;
}

TEST(BankSeeds, F16Tile8x64Sw333ReadsAndLdmatrix) {  // measured: 4, 4, 2, 1 (conflict-free); none: 32, 32, 16, 8
  for (const char* t : {"Sw<3,3,3> o (8,64):(64,1)", "(8,64):(64,1)", "Sw<2,3,3> o (8,64):(64,1)"}) {
    const auto want = std::string(t).rfind("Sw<3,3,3>", 0) == 0 ? P : R;
    expect(access(t, 2, 8, PatternKind::row_per_lane), "conflict-free", want);
    for (SmemOp op : {SmemOp::ldsm1, SmemOp::ldsm2, SmemOp::ldsm4})
      expect(access(t, 2, 8, PatternKind::ldmatrix, op), "conflict-free", want);
  }
}

TEST(BankSeeds, I8Tile8x128Sw343) {  // measured: 4 (ideal 4) with Sw<3,4,3>, 32 without
  expect(access("Sw<3,4,3> o (8,128):(128,1)", 1, 16, PatternKind::row_per_lane), "conflict-free", P);
  expect(access("(8,128):(128,1)", 1, 16, PatternKind::row_per_lane), "conflict-free", R);
}

TEST(BankClaims, MaxWays) {  // Sw<5,2,8>: 16 wavefronts per instruction (one 16-way bank), Sw<5,0,8>: 4
  const BankSubject s = access("Sw<5,2,8> o (32,64):(64,1)", 4, 1, PatternKind::row_per_lane);
  expect(s, "max-ways:15", R);
  expect(s, "max-ways:16", P);
  expect(access("Sw<5,0,8> o (32,64):(64,1)", 4, 1, PatternKind::row_per_lane), "max-ways:4", P);
  expect(access("Sw<5,0,8> o (32,64):(64,1)", 4, 1, PatternKind::row_per_lane), "max-ways:3", R);
  const BankResult r = run(s, "max-ways:4");
  ASSERT_TRUE(r.witness.has_value());
  EXPECT_EQ(r.witness->ways, 16);
  EXPECT_EQ(r.witness->lanes.size(), 16u);
}

// The witness is the worst bank, not the first: (8,12):(34,1) f32 read linearly has a
// 3-way bank in instruction 0 and a 4-way one in instruction 1 (lanes 0, 10, 20, 30 at words 76,
// 108, 140, 172, all in bank 12; bank 13 has 4 words too, the smaller bank wins). Every engine
// shows instruction 1, replayed.
TEST(BankClaims, WitnessIsTheWorstBank) {
  const BankSubject s = access("(8,12):(34,1)", 4, 1, PatternKind::linear);
  for (const char* claim : {"conflict-free", "max-ways:2"})
    for (EngineChoice e : {EngineChoice::automatic, EngineChoice::z3, EngineChoice::exhaustive}) {
      const BankResult r = run(s, claim, e);
      ASSERT_EQ(r.verdict.kind, R) << claim << ": " << r.verdict.detail;
      ASSERT_TRUE(r.witness.has_value());
      EXPECT_EQ(r.witness->instruction, 1) << claim;
      EXPECT_EQ(r.witness->ways, 4) << claim;
      EXPECT_EQ(r.witness->bank, 12) << claim;
      ASSERT_EQ(r.witness->lanes.size(), 4u) << claim;
      EXPECT_EQ(r.witness->lanes[3].lane, 30) << claim;
      EXPECT_EQ(r.witness->wavefronts, 4) << claim;
    }
}

TEST(BankClaims, DefaultVectorIs16Bytes) {  // one default for prove, spec files and synth
  EXPECT_EQ(default_vec(1), 16);
  EXPECT_EQ(default_vec(2), 8);
  EXPECT_EQ(default_vec(4), 4);
  EXPECT_EQ(default_vec(8), 2);
  EXPECT_EQ(default_vec(16), 1);
  EXPECT_EQ(default_vec(32), 1);
}

TEST(BankClaims, ThreadLayoutAndLinear) {
  // lane l reads column 0 of row l: the row-per-lane read as a thread layout (colexicographic index = row)
  AccessSpec spec;
  spec.tile = parse_any_layout("Sw<5,0,6> o (32,64):(64,1)");
  spec.elem_bytes = 4;
  spec.pattern = PatternKind::thread_layout;
  spec.thread_layout = parse_layout("32:1");
  expect(make_bank_subject(spec, SmemOp::ld), "conflict-free", P);
  spec.tile = parse_any_layout("(32,64):(64,1)");
  expect(make_bank_subject(spec, SmemOp::ld), "conflict-free", R);
  expect(access("(32,64):(64,1)", 4, 4, PatternKind::linear), "conflict-free", P);
}

TEST(BankClaims, ParseAndErrors) {
  EXPECT_FALSE(parse_bank_claim("injective").has_value());
  EXPECT_EQ(parse_bank_claim("max-ways:3")->k, 3);
  EXPECT_THROW(parse_bank_claim("max-ways:0"), LayoutError);
  EXPECT_THROW(parse_bank_claim("max-ways"), LayoutError);
  AccessSpec spec;
  spec.tile = parse_any_layout("(8,64):(64,1)");
  spec.elem_bytes = 2;
  spec.vec = 8;
  spec.pattern = PatternKind::ldmatrix;
  EXPECT_THROW(make_bank_subject(spec, SmemOp::ld), LayoutError);
  // A misaligned base address is bad input, refused before any proof (exit 2, not ERROR).
  spec.pattern = PatternKind::row_per_lane;
  spec.base_address = 4;
  EXPECT_THROW(make_bank_subject(spec, SmemOp::ld), LayoutError);
}

// Z3 against the exhaustive oracle on random small (tile, swizzle, pattern) cases.
TEST(BankAgreement, Z3MatchesExhaustiveOnRandomSmallCases) {
  std::mt19937 rng(20261123);
  auto pick = [&](std::initializer_list<int> xs) { return *(xs.begin() + rng() % xs.size()); };
  int proved = 0, refuted = 0, skipped = 0;
  for (int n = 0; n < 300; ++n) {
    const int elem = pick({1, 2, 4, 8});
    const int rows = pick({8, 16, 24, 32, 48, 64});
    const int cols = pick({8, 16, 32, 40, 64});
    const bool row_major = rng() % 4 != 0;  // column-major tiles are read one element per lane
    std::string tile = "(" + std::to_string(rows) + "," + std::to_string(cols) + "):" +
                       (row_major ? "(" + std::to_string(cols) + ",1)" : "(1," + std::to_string(rows) + ")");
    const int b = static_cast<int>(rng() % 4), m = static_cast<int>(rng() % 5), s = b + static_cast<int>(rng() % 4);
    if (b > 0) tile = "Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + "> o " + tile;
    AccessSpec spec;
    spec.tile = parse_any_layout(tile);
    spec.elem_bytes = elem;
    SmemOp op = SmemOp::ld;
    const int kind = static_cast<int>(rng() % 3);
    if (!row_major) {
      spec.pattern = kind == 1 ? PatternKind::linear : PatternKind::row_per_lane;
      spec.vec = 1;
    } else if (kind == 2 && 16 % elem == 0 && cols % (16 / elem) == 0) {
      spec.pattern = PatternKind::ldmatrix;
      spec.vec = 16 / elem;
      op = std::array{SmemOp::ldsm1, SmemOp::ldsm2, SmemOp::ldsm4}[rng() % 3];
    } else {
      spec.pattern = kind == 1 ? PatternKind::linear : PatternKind::row_per_lane;
      do spec.vec = pick({1, 2, 4, 8, 16}) / 1; while (spec.vec * elem > 16 || cols % spec.vec != 0);
    }
    const BankSubject sub = make_bank_subject(spec, op);
    const BankClaim claim = *parse_bank_claim(rng() % 4 == 0 ? "max-ways:" + std::to_string(1 + rng() % 4) : "conflict-free");
    const BankResult ex = check_bank_exhaustive(sub, claim);
    const Outcome<BankViolation> z = check_bank_z3(sub, claim, SmtOptions{});
    const std::string what = sub.text() + " " + claim.text;
    if (ex.verdict.kind == Verdict::Kind::error) {  // e.g. a swizzle that misaligns vectors: both refuse
      ASSERT_NE(ex.verdict.detail.find("invalid access"), std::string::npos) << what << ": " << ex.verdict.detail;
      EXPECT_EQ(run(sub, claim.text, EngineChoice::z3).verdict.kind, Verdict::Kind::error) << what;
      ++skipped;
      continue;
    }
    ASSERT_TRUE(z.kind == OutcomeKind::holds || z.kind == OutcomeKind::violated) << what << ": " << z.text;
    ASSERT_EQ(ex.verdict.is_proved(), z.kind == OutcomeKind::holds) << what;
    // and the full pipeline (Z3, replay, cross-check) agrees with the oracle
    const BankResult full = run(sub, claim.text, EngineChoice::z3);
    ASSERT_EQ(full.verdict.kind, ex.verdict.kind) << what << ": " << full.verdict.detail;
    (ex.verdict.is_proved() ? proved : refuted) += 1;
  }
  RecordProperty("proved", proved);
  RecordProperty("refuted", refuted);
  EXPECT_LT(skipped, 100);
  EXPECT_GT(proved, 20);
  EXPECT_GT(refuted, 20);
}

}  // namespace
}  // namespace layoutproof::proofs
