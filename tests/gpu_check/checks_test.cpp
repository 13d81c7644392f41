// Host-side tests of gpu_check/checks.hpp: vector prediction, ldmatrix fragments, round-trip plans,
// probe-case export, bijectivity prediction and the built-in catalog. No GPU needed.
#include "gpu_check/checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include "model/layout/notation.hpp"

namespace layoutproof::gpu {
namespace {

AccessSpec spec(const char* tile, int e, int vec, PatternKind p = PatternKind::row_per_lane, int n = 4) {
  return make_access(parse_any_layout(tile), e, vec, p, n);
}

TEST(PredictVector, SwizzledBlocksOf16BytesAreAllowed) {
  EXPECT_EQ(predict_vector(spec("Sw<3,2,3> o (8,8):(8,1)", 4, 4)).verdict, VectorVerdict::ok);
  EXPECT_EQ(predict_vector(spec("Sw<3,3,3> o (8,64):(64,1)", 2, 8)).verdict, VectorVerdict::ok);
  EXPECT_EQ(predict_vector(spec("Sw<3,4,3> o (8,128):(128,1)", 1, 16)).verdict, VectorVerdict::ok);
}

TEST(PredictVector, SwizzleBelowTheVectorIsMisaligned) {
  const VectorPrediction p = predict_vector(spec("Sw<3,1,3> o (8,16):(16,1)", 4, 4));
  EXPECT_EQ(p.verdict, VectorVerdict::misaligned);
  EXPECT_NE(p.witness.find("byte 72"), std::string::npos) << p.witness;  // row 1: element 18
}

TEST(PredictVector, StridedColumnsAreNonContiguous) {
  const VectorPrediction p = predict_vector(spec("(8,(4,4)):(4,(128,32))", 4, 4));
  EXPECT_EQ(p.verdict, VectorVerdict::non_contiguous);
  // A column-major tile read along its rows starts misaligned (row 1 at byte 4) before anything else.
  EXPECT_EQ(predict_vector(spec("(8,8):(1,8)", 4, 4)).verdict, VectorVerdict::misaligned);
}

TEST(PredictVector, WidestAllowed) {
  EXPECT_EQ(widest_allowed_vec(spec("Sw<3,1,3> o (8,16):(16,1)", 4, 4)), 2);
  EXPECT_EQ(widest_allowed_vec(spec("(8,8):(1,8)", 4, 4)), 1);
  EXPECT_EQ(widest_allowed_vec(spec("Sw<2,0,4> o (16,4):(4,1)", 8, 2)), 1);  // SM80 double K-major
}

TEST(Fragment, Ldmatrix) {
  // .x1: lane t gets row t/4, columns 2*(t%4), +1.
  for (int t = 0; t < 32; ++t)
    for (int h = 0; h < 2; ++h) {
      const FragmentElement f = ldmatrix_fragment(t, 0, h);
      EXPECT_EQ(f.matrix, 0);
      EXPECT_EQ(f.row, t / 4);
      EXPECT_EQ(f.col, 2 * (t % 4) + h);
    }
  EXPECT_EQ(ldmatrix_fragment(5, 3, 1).matrix, 3);
  // Every (matrix, row, col) of .x4 is covered exactly once.
  std::set<std::tuple<int, int, int>> seen;
  for (int t = 0; t < 32; ++t)
    for (int j = 0; j < 4; ++j)
      for (int h = 0; h < 2; ++h) {
        const FragmentElement f = ldmatrix_fragment(t, j, h);
        seen.insert({f.matrix, f.row, f.col});
      }
  EXPECT_EQ(seen.size(), 4u * 8 * 8);
}

TEST(RoundTripPlan, LdmatrixDestinationsCoverTheTileOnce) {
  const RoundTripPlan p = make_round_trip_plan(spec("Sw<3,3,3> o (8,64):(64,1)", 2, 8, PatternKind::ldmatrix, 4), false, true);
  EXPECT_EQ(p.instructions, 2);
  EXPECT_EQ(p.matrix_n, 4);
  std::vector<int> hits(8 * 64, 0);
  for (int d : p.dst)
    if (d >= 0) ++hits.at(d);
  EXPECT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
  // Lane 0 of instruction 0 gives row 0 of matrix 0 (element (0,0) at byte 0); its register 0
  // holds elements (0,0) and (0,1).
  EXPECT_EQ(p.addr[0], 0);
  EXPECT_EQ(p.dst[0], 0);
  EXPECT_EQ(p.dst[1], 1);
  // Lane 9 gives row 1 of matrix 1 (cols 8-15): Sw<3,3,3>(64 + 8) = 72 ^ 8 = 64 -> byte 128.
  EXPECT_EQ(p.addr[9], 128);
}

TEST(RoundTripPlan, VectorsAndScratch) {
  const RoundTripPlan p = make_round_trip_plan(spec("(32,64):(64,1)", 4, 4), true, false);
  EXPECT_EQ(p.instructions, 16);
  EXPECT_EQ(p.width_bytes, 16);
  EXPECT_EQ(p.addr[1], 256);       // lane 1: row 1, col 0
  EXPECT_EQ(p.dst[1], 64);         // logical index row * cols + col
  EXPECT_EQ(p.scratch, 32 * 64 * 4);
  EXPECT_EQ(p.smem_bytes, p.scratch + 256);
}

TEST(Export, ProbeCaseLineAndDistinctNames) {
  SmemAccess a;
  a.op = SmemOp::ldsm2;
  a.width_bytes = 16;
  for (int l = 0; l < 32; ++l) a.lane_addr[l] = l < 16 ? 16 * l : -1;
  const std::string line = probe_case_line("i7", a);
  EXPECT_EQ(line.rfind("i7 ldsm2 16 0 16 32 ", 0), 0u) << line;
  EXPECT_EQ(line.substr(line.size() - 6), " -1 -1");
  std::vector<Check> checks = builtin_checks();
  const std::vector<NamedInstruction> named = distinct_instructions(checks);
  std::set<std::string> keys;
  for (const NamedInstruction& n : named) {
    EXPECT_TRUE(keys.insert(instruction_key(n.access)).second);
    for (std::int64_t x : n.access.lane_addr) EXPECT_LT(x, 48 * 1024);  // the probe's shared-memory size
  }
  EXPECT_EQ(named.front().name, "i0");
}

TEST(Export, ReadNcuJsonl) {
  const std::string path = ::testing::TempDir() + "/ncu_test.jsonl";
  {
    std::ofstream f(path);
    f << "{\"name\": \"i0\", \"op\": \"ld\", \"measured_wavefronts_per_instruction\": 4.0, \"gpu\": \"x\"}\n"
      << "{\"name\": \"i12\", \"measured_wavefronts_per_instruction\": 32}\n";
  }
  const auto m = read_ncu_jsonl(path);
  EXPECT_EQ(m.size(), 2u);
  EXPECT_DOUBLE_EQ(m.at("i0"), 4.0);
  EXPECT_DOUBLE_EQ(m.at("i12"), 32.0);
  std::remove(path.c_str());
}

TEST(Bijectivity, Prediction) {
  EXPECT_TRUE(predict_bijectivity(parse_any_layout("Sw<3,3,3> o (8,64):(64,1)")).bijective);
  const BijectivityPrediction p = predict_bijectivity(parse_any_layout("(4,4):(1,2)"));
  EXPECT_FALSE(p.bijective);
  EXPECT_EQ(p.codomain.size(), 10u);
  bool bij = true;
  std::vector<unsigned> counts(10, 1);
  counts[2] = 2;
  EXPECT_NE(describe_counts(p.codomain, counts, 0, &bij).find("more than once"), std::string::npos);
  EXPECT_FALSE(bij);
  std::vector<unsigned> ok(10, 1);
  describe_counts(p.codomain, ok, 0, &bij);
  EXPECT_TRUE(bij);
  describe_counts(p.codomain, ok, 1, &bij);
  EXPECT_FALSE(bij);
}

TEST(Catalog, EveryAtomHasItsClaimsAndWrongClaimsAreRefutedByTheModel) {
  const std::vector<Check> checks = builtin_checks();
  int bijective = 0, wrong = 0, seeds = 0;
  for (const Check& c : checks) {
    if (c.kind == CheckKind::bijective && c.name.find("Atom") != std::string::npos) {
      ++bijective;
      EXPECT_TRUE(predict_bijectivity(c.layout).bijective) << c.name;
    }
    if (c.name.rfind("seed:", 0) == 0 && c.kind == CheckKind::bank) ++seeds;
    if (!c.deliberately_wrong) continue;
    ++wrong;
    if (c.kind == CheckKind::bijective) EXPECT_FALSE(predict_bijectivity(c.layout).bijective);
    if (c.kind == CheckKind::round_trip) EXPECT_NE(predict_vector(c.spec).verdict, VectorVerdict::ok) << c.name;
    if (c.kind == CheckKind::bank) {
      int worst = 0;
      for (const SmemAccess& a : bank_instructions(c)) worst = std::max(worst, analyze_smem_access(a).wavefronts / analyze_smem_access(a).ideal);
      EXPECT_GT(worst, 1) << c.name;
    }
  }
  EXPECT_EQ(bijective, 42);  // GMMA atoms (40) and UMMA atoms (2); SM80 rows have no "Atom"
  EXPECT_EQ(seeds, 38);
  EXPECT_GE(wrong, 5);
}

// The bank model is invariant under a uniform shift of every lane by a multiple of 128 bytes
// (banks are (byte/4) mod 32): checked on every op and width, on random addresses.
TEST(KernelTraces, ShiftBy128BytesKeepsTheBankModel) {
  std::uint64_t x = 12345;
  auto next = [&] { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  const std::pair<SmemOp, int> ops[] = {{SmemOp::ld, 1},  {SmemOp::ld, 2},     {SmemOp::ld, 4},     {SmemOp::ld, 8},
                                        {SmemOp::ld, 16}, {SmemOp::st, 4},     {SmemOp::st, 16},    {SmemOp::ldgsts, 4},
                                        {SmemOp::ldgsts, 8}, {SmemOp::ldgsts, 16}, {SmemOp::ldsm4, 16}, {SmemOp::stsm2, 16}};
  for (int trial = 0; trial < 3000; ++trial) {
    const auto [op, w] = ops[trial % 12];
    SmemAccess a{op, w, {}};
    const int span = 1 << (4 + next() % 9);  // addresses in [0, 16..4096) so collisions happen
    for (auto& v : a.lane_addr) v = next() % 8 == 0 ? -1 : static_cast<std::int64_t>(next() % span) / w * w + 128 * (next() % 64);
    const SmemAccess b = shift_to_first_bank_row(a);
    std::int64_t lo = -1;
    for (auto v : b.lane_addr)
      if (v >= 0 && (lo < 0 || v < lo)) lo = v;
    if (lo >= 0) EXPECT_LT(lo, 128);
    EXPECT_EQ(analyze_smem_access(a).wavefronts, analyze_smem_access(b).wavefronts) << instruction_key(a);
  }
}

TEST(KernelTraces, EveryKernelCopyIsABankCheckOfItsDistinctInstructions) {
  int kernel = 0, ldgsts = 0, conflicting = 0;
  for (const Check& c : builtin_checks()) {
    if (c.name.rfind("kernel:", 0) != 0) continue;
    ++kernel;
    EXPECT_EQ(c.kind, CheckKind::bank);
    ASSERT_FALSE(c.explicit_instructions.empty()) << c.name;
    if (c.explicit_instructions.front().op == SmemOp::ldgsts) ++ldgsts;
    int worst = 0;
    for (const SmemAccess& a : c.explicit_instructions) {
      const BankReport r = analyze_smem_access(a);
      worst = std::max(worst, r.wavefronts / r.ideal);
    }
    if (worst > 1) ++conflicting;
  }
  EXPECT_GE(kernel, 20);   // two copies of each of the 10+ configurations
  EXPECT_GE(ldgsts, 8);    // the cp.async copies
  EXPECT_GE(conflicting, 3);  // the catalog's three findings
}

TEST(Compare, Tiles) {
  const auto a = source_tile(4, 8, 2, 1);
  auto b = a;
  bool same = false;
  EXPECT_EQ(compare_tiles(a, b, 8, 2, &same), "identical");
  EXPECT_TRUE(same);
  b[2 * (8 + 3)] ^= 1;
  EXPECT_NE(compare_tiles(a, b, 8, 2, &same).find("row 1, col 3"), std::string::npos);
  EXPECT_FALSE(same);
}

}  // namespace
}  // namespace layoutproof::gpu
