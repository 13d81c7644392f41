// tests/proofs/claims/trace_claims_test.cpp: claims over hand-built address traces (conflict-free, 2-way,
// 32-way, ldsm with ignored lanes, misaligned and split vectors, double-written and missing
// elements), canned patterns as traces, the JSON form, and the exhaustive twin rule: Z3 and the
// exhaustive engine agree on a few hundred random small traces.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <random>

#include "model/layout/notation.hpp"
#include "proofs/claims/bank_claims.hpp"
#include "proofs/claims/trace_claims.hpp"

namespace layoutproof::proofs {
namespace {

constexpr auto P = Verdict::Kind::proved;
constexpr auto R = Verdict::Kind::refuted;
constexpr auto E = Verdict::Kind::error;

using Lanes = std::array<i64, kWarpLanes>;

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// One instruction of warp `warp`: lane l at addrs[l] (-1 inactive), thread 32*warp + l,
// coordinate (warp, l), a contiguous slice of width/elem elements, logical index = byte / elem.
TraceInstruction instr(SmemOp op, int width, const Lanes& addrs, i64 warp, i64 index, int elem = 4) {
  TraceInstruction in;
  in.op = op;
  in.width_bytes = width;
  in.addr = addrs;
  in.warp = warp;
  in.index = index;
  in.copy_coord = {index};
  in.coord_rank = 2;
  in.coords.assign(2 * kWarpLanes, -1);
  in.slice_len = std::max(1, width / elem);
  in.slice_addrs.assign(static_cast<std::size_t>(in.slice_len) * kWarpLanes, -1);
  in.slice_elems.assign(in.slice_addrs.size(), -1);
  for (int l = 0; l < kWarpLanes; ++l) {
    in.thread[l] = addrs[l] < 0 ? -1 : 32 * warp + l;
    if (addrs[l] < 0) continue;
    in.coords[2 * l] = warp;
    in.coords[2 * l + 1] = l;
    for (int j = 0; j < in.slice_len; ++j) {
      in.slice_addrs[l * in.slice_len + j] = addrs[l] + j * elem;
      in.slice_elems[l * in.slice_len + j] = (addrs[l] + j * elem) / elem;
    }
  }
  return in;
}

AddressTrace trace(SmemOp op, int width, const std::vector<Lanes>& instructions, int elem = 4) {
  AddressTrace t;
  t.provenance = "hand-built";
  t.op = op;
  t.width_bytes = width;
  t.element_bytes = elem;
  t.smem_is_destination = is_store(op);
  for (std::size_t k = 0; k < instructions.size(); ++k)
    t.instructions.push_back(instr(op, width, instructions[k], static_cast<i64>(k) / 2, static_cast<i64>(k) % 2, elem));
  t.threads = 32 * ((static_cast<i64>(instructions.size()) + 1) / 2);
  i64 top = 0;
  for (const auto& in : t.instructions)
    for (i64 a : in.addr) top = std::max(top, a + width);
  t.domain_size = top / elem;
  return t;
}

Lanes lanes(i64 (*f)(int)) {
  Lanes a;
  for (int l = 0; l < kWarpLanes; ++l) a[l] = f(l);
  return a;
}

TraceResult run(const AddressTrace& t, const std::string& claim, EngineChoice e = EngineChoice::automatic) {
  ProveOptions o;
  o.engine = e;
  return prove_trace(t, *parse_trace_claim(claim), o);
}

// Every engine gives `want` (bank claims: z3 too, cross-checked); returns the automatic result.
TraceResult expect(const AddressTrace& t, const std::string& claim, Verdict::Kind want) {
  TraceResult first;
  for (EngineChoice e : {EngineChoice::automatic, EngineChoice::exhaustive, EngineChoice::z3}) {
    TraceResult r = run(t, claim, e);
    EXPECT_EQ(r.verdict.kind, want) << claim << ": " << r.verdict.method << ": " << r.verdict.detail << r.verdict.witness.why;
    EXPECT_EQ(r.witness.has_value(), want == R) << claim;
    if (e == EngineChoice::automatic) first = std::move(r);
  }
  return first;
}

const Lanes kRow32 = lanes([](int l) -> i64 { return 4 * l; });        // 32 consecutive words
const Lanes kColumn = lanes([](int l) -> i64 { return 128 * l; });     // one bank, 32 words

TEST(TraceClaims, Parse) {
  EXPECT_EQ(parse_trace_claim("conflict-free")->kind, TraceClaim::Kind::conflict_free);
  EXPECT_EQ(parse_trace_claim("max-ways:4")->k, 4);
  EXPECT_EQ(parse_trace_claim("vector-legal")->kind, TraceClaim::Kind::vector_legal);
  EXPECT_EQ(parse_trace_claim("covers")->kind, TraceClaim::Kind::covers);
  EXPECT_FALSE(parse_trace_claim("injective").has_value());
  EXPECT_THROW(parse_trace_claim("max-ways:0"), LayoutError);
}

TEST(TraceClaims, ConflictFree) {
  const AddressTrace t = trace(SmemOp::ld, 4, {kRow32, lanes([](int l) -> i64 { return 128 + 4 * l; })});
  const TraceResult r = expect(t, "conflict-free", P);
  EXPECT_EQ(r.verdict.method, "exhaustive: bank model on all 2 instructions (1 warp)");
  EXPECT_EQ(r.verdict.detail, "every instruction takes its ideal wavefronts (2 x ld.32, 1 wavefront each)");
  const TraceResult z = run(t, "conflict-free", EngineChoice::z3);
  EXPECT_TRUE(has(z.verdict.method, "z3 (symbolic over 2 instructions x 32 lanes")) << z.verdict.method;
  EXPECT_TRUE(has(z.verdict.method, "cross-checked by the bank model")) << z.verdict.method;
  EXPECT_FALSE(z.verdict.queries.empty());
}

TEST(TraceClaims, TwoWayNamesLanesThreadsCoordinatesAndWords) {
  Lanes a = kRow32;
  a[5] = 128;  // lane 5: bank 0 again, word 32 (lane 0: word 0)
  // instruction 0 conflict-free, 1 and 2 both 2-way: the worst is the first of them
  const AddressTrace t = trace(SmemOp::ld, 4, {kRow32, a, a});
  const TraceResult r = expect(t, "conflict-free", R);
  const TraceWitness& w = *r.witness;
  EXPECT_EQ(w.instruction, 1);
  EXPECT_EQ(w.warp, 0);
  EXPECT_EQ(w.copy_coord, std::vector<i64>{1});
  EXPECT_EQ(w.phase, 0);
  EXPECT_EQ(w.bank, 0);
  EXPECT_EQ(w.ways, 2);
  EXPECT_EQ(w.wavefronts, 2);
  EXPECT_EQ(w.ideal, 1);
  EXPECT_EQ(w.lanes, (std::vector<int>{0, 5}));
  EXPECT_TRUE(has(w.why, "lane 0 (thread 0, (0,0)) at byte 0 word 0, lane 5 (thread 5, (0,5)) at byte 128 word 32")) << w.why;
  EXPECT_TRUE(has(w.why, "2 wavefronts for an ideal of 1")) << w.why;
  EXPECT_TRUE(has(w.why, "(2 of 3 instructions exceed their ideal)")) << w.why;
  ASSERT_EQ(r.verdict.witness.points.size(), 2u);
  EXPECT_EQ(r.verdict.witness.points[1].offset, 128);
  EXPECT_EQ(r.verdict.witness.points[1].coord, "(0,5)");
  // the z3 route reports the same (worst) instruction after replaying its own violation
  const TraceResult z = run(t, "conflict-free", EngineChoice::z3);
  ASSERT_TRUE(z.witness.has_value());
  EXPECT_EQ(z.witness->instruction, 1);
  EXPECT_TRUE(has(z.verdict.method, "replayed")) << z.verdict.method;
  expect(t, "max-ways:2", P);
  expect(t, "max-ways:1", R);
}

TEST(TraceClaims, WorstInstructionWins) {
  Lanes two = kRow32;
  two[1] = 128;
  const AddressTrace t = trace(SmemOp::ld, 4, {two, kColumn, kColumn});
  const TraceResult r = expect(t, "conflict-free", R);
  EXPECT_EQ(r.witness->instruction, 1);  // 32 wavefronts beat 2; the tie with instruction 2 goes to the first
  EXPECT_EQ(r.witness->wavefronts, 32);
  EXPECT_EQ(r.witness->ways, 32);
  EXPECT_EQ(r.witness->lanes.size(), 32u);
  const TraceResult m = expect(t, "max-ways:8", R);
  EXPECT_EQ(m.witness->instruction, 1);
  EXPECT_EQ(m.witness->ways, 32);
  EXPECT_TRUE(has(m.witness->why, "holds 32 distinct words, more than 8")) << m.witness->why;
  expect(t, "max-ways:31", R);
  const TraceResult ok = expect(t, "max-ways:32", P);
  EXPECT_TRUE(has(ok.verdict.detail, "at most 32")) << ok.verdict.detail;
}

TEST(TraceClaims, WideAccessesUseHalfAndQuarterWarps) {
  // ld.64: lane l at 8l -> 256 bytes, each half-warp covers the 32 banks once: 2 phases, ideal 2
  const AddressTrace t64 = trace(SmemOp::st, 8, {lanes([](int l) -> i64 { return 8 * l; })});
  expect(t64, "conflict-free", P);
  // st.128: lanes 0 and 8 on bank 0 are in different quarters (no conflict), lanes 0 and 2 are not
  const AddressTrace t128 = trace(SmemOp::st, 16, {lanes([](int l) -> i64 { return 16 * (l % 8) + 128 * (l / 8); })});
  expect(t128, "conflict-free", P);
  const AddressTrace bad = trace(SmemOp::st, 16, {lanes([](int l) -> i64 { return 64 * l; })});
  const TraceResult r = expect(bad, "conflict-free", R);
  EXPECT_EQ(r.witness->ideal, 4);
  EXPECT_GT(r.witness->wavefronts, 4);
}

TEST(TraceClaims, AMergedHalfDoesNotHideACollisionInTheOther) {
  // LDS.128: half 0 (lanes 0-3 and 8-11, eight distinct 16-byte slots of one 128-byte line) merges
  // its two quarters into one wavefront; lanes 16 and 17 collide in banks 0-3 (2-way), lane 31 is
  // inactive: 1 + 2 = 3 wavefronts for 3 non-empty quarters. Without the collision it would take
  // 1 + 1 = 2: the ideal is 2 and the collision is a conflict (until 2026-11-23 the ideal was the
  // number of non-empty phases lowered to the wavefronts, 3, and the collision was "absorbed").
  // Both engines refute it at that instruction: the bank model's rule is Z3's phase rule exactly.
  Lanes a;
  a.fill(-1);
  for (int l = 0; l < 4; ++l) a[l] = 16 * l, a[8 + l] = 64 + 16 * l;
  a[16] = 512;
  a[17] = 640;
  for (const EngineChoice e : {EngineChoice::exhaustive, EngineChoice::z3}) {
    const TraceResult r = run(trace(SmemOp::ld, 16, {a}, 4), "conflict-free", e);
    ASSERT_EQ(r.verdict.kind, R) << r.verdict.method << ": " << r.verdict.detail;
    EXPECT_EQ(r.witness->wavefronts, 3);
    EXPECT_EQ(r.witness->ideal, 2);
  }
  EXPECT_EQ(check_trace_z3(trace(SmemOp::ld, 16, {a}, 4), *parse_trace_claim("conflict-free"), SmtOptions{}).kind,
            OutcomeKind::violated);
  expect(trace(SmemOp::ld, 16, {a}, 4), "max-ways:1", R);
  // The property finding (BankInvariants): half 0 on one address (1 wavefront), lanes 20 and 22
  // 2-way in bank 8 of quarter 2, lane 24 alone in quarter 3: 4 wavefronts, ideal 3.
  const Lanes b = {0,  0,  0,  0,  0,  0,  0,  -1, -1, 0,  -1, 0,  -1, -1, -1, -1,
                   -1, -1, -1, -1, 160, -1, 32, -1, 0,  -1, -1, -1, -1, -1, -1, -1};
  for (const EngineChoice e : {EngineChoice::exhaustive, EngineChoice::z3}) {
    const TraceResult r = run(trace(SmemOp::ld, 16, {kColumn, b}, 4), "conflict-free", e);
    ASSERT_EQ(r.verdict.kind, R) << r.verdict.method << ": " << r.verdict.detail;
  }
  BankScan scan;
  scan_bank(trace(SmemOp::ld, 16, {kColumn, b}, 4), 0, scan);
  EXPECT_EQ(scan.failing, 2);  // instruction 0 (32 lanes 128 B apart) and the merged one
}

TEST(TraceClaims, QueriesAreNamedAndDumped) {
  const std::string dir = ::testing::TempDir() + "trace_claims_dump";
  std::filesystem::remove_all(dir);
  ProveOptions o;
  o.engine = EngineChoice::z3;
  o.smt.dump_dir = dir;
  std::vector<Lanes> many(300, kRow32);  // two chunks of instructions
  const TraceResult r = prove_trace(trace(SmemOp::ld, 4, many), *parse_trace_claim("conflict-free"), o);
  ASSERT_EQ(r.verdict.kind, P) << r.verdict.detail;
  EXPECT_EQ(r.verdict.queries, (std::vector<std::string>{"conflict-free.vacuity", "conflict-free.violation[0-255]",
                                                         "conflict-free.violation[256-299]"}));
  int files = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) files += f.path().extension() == ".smt2";
  EXPECT_EQ(files, 3);
  std::filesystem::remove_all(dir);
}

TEST(TraceClaims, LdmatrixIgnoresLanesPastItsMatrices) {
  // ldsm1: lanes 0-7 give the 8 rows (conflict-free: 16-byte rows at 0, 16, ..., 112); lanes 8-31
  // would collide on bank 0 and are misaligned, but ldmatrix .x1 never reads them
  Lanes a = lanes([](int l) -> i64 { return l < 8 ? 16 * l : 8 + 128 * l; });
  const AddressTrace t = trace(SmemOp::ldsm1, 16, {a}, 2);
  expect(t, "conflict-free", P);
  expect(t, "vector-legal", P);
  // ldsm4: matrix 2 (lanes 16-23) reads a column of rows 128 bytes apart: 8-way in phase 2
  Lanes b = lanes([](int l) -> i64 { return 512 * (l / 8) + (l / 8 == 2 ? 128 : 16) * (l % 8); });
  const AddressTrace t4 = trace(SmemOp::ldsm4, 16, {b, b}, 2);
  const TraceResult r = expect(t4, "conflict-free", R);
  EXPECT_EQ(r.witness->phase, 2);
  EXPECT_EQ(r.witness->ideal, 4);
  EXPECT_EQ(r.witness->wavefronts, 11);  // 1 + 1 + 8 + 1
  EXPECT_EQ(r.witness->lanes, (std::vector<int>{16, 17, 18, 19, 20, 21, 22, 23}));
  const TraceResult ok = expect(trace(SmemOp::ldsm4, 16, {lanes([](int l) -> i64 { return 16 * l; })}, 2), "conflict-free", P);
  EXPECT_EQ(ok.verdict.detail, "every instruction takes its ideal wavefronts (1 x ldsm4, 4 wavefronts each)");
}

TEST(TraceClaims, VectorLegal) {
  AddressTrace t = trace(SmemOp::ld, 16, {kColumn, kColumn}, 2);  // 8 halves per lane, contiguous
  const TraceResult ok = expect(t, "vector-legal", P);
  EXPECT_TRUE(has(ok.verdict.detail, "every active lane's 8-element CPY slice is contiguous and 16-byte aligned (64 lanes")) << ok.verdict.detail;
  EXPECT_TRUE(has(ok.verdict.method, "exhaustive: every active lane's CPY slice in all 2 instructions (1 warp)")) << ok.verdict.method;

  AddressTrace mis = t;  // lane 3 of the second instruction (warp 0, thread 3) starts at byte 100
  mis.instructions[1].addr[3] = 100;
  for (int j = 0; j < 8; ++j) mis.instructions[1].slice_addrs[3 * 8 + j] = 100 + 2 * j;
  const TraceResult r = expect(mis, "vector-legal", R);
  EXPECT_EQ(r.witness->instruction, 1);
  EXPECT_EQ(r.witness->lanes, std::vector<int>{3});
  EXPECT_TRUE(has(r.witness->why, "misaligned: instruction 1")) << r.witness->why;
  EXPECT_TRUE(has(r.witness->why, "lane 3 (thread 3, (0,3)) at byte 100 is not a multiple of 16: the instruction faults")) << r.witness->why;

  AddressTrace split = t;  // lane 3's elements 4..7 lie 256 bytes further: two 8-byte pieces
  for (int j = 4; j < 8; ++j) split.instructions[0].slice_addrs[3 * 8 + j] += 256;
  const TraceResult s = expect(split, "vector-legal", R);
  EXPECT_EQ(s.witness->instruction, 0);
  EXPECT_TRUE(has(s.witness->why, "not contiguous: instruction 0")) << s.witness->why;
  EXPECT_TRUE(has(s.witness->why, "lane 3 (thread 3, (0,3))'s elements are at bytes 384, 386, 388, 390, 648, 650, 652, 654 "
                                  "(element 4 at byte 648, not 392)")) << s.witness->why;
  EXPECT_TRUE(has(s.witness->why, "CuTe cannot issue one 16-byte instruction (the copy splits or does not compile)")) << s.witness->why;

  AddressTrace sub = t;
  sub.element_bytes = 0;
  const TraceResult e = expect(sub, "vector-legal", E);
  EXPECT_TRUE(has(e.verdict.detail, "sub-byte elements")) << e.verdict.detail;
}

TEST(TraceClaims, CoversStores) {
  // st.32: 64 elements (bytes 0..255) by two instructions
  const AddressTrace t = trace(SmemOp::st, 4, {kRow32, lanes([](int l) -> i64 { return 128 + 4 * l; })});
  ASSERT_TRUE(t.smem_is_destination);
  const TraceResult ok = expect(t, "covers", P);
  EXPECT_EQ(ok.verdict.detail, "each of the 64 elements is written exactly once (2 x st.32)");

  AddressTrace twice = t;  // lane 7 of instruction 1 writes element 2 (instruction 0 lane 2 did)
  twice.instructions[1].addr[7] = 8;
  twice.instructions[1].slice_addrs[7] = 8;
  twice.instructions[1].slice_elems[7] = 2;
  twice.domain_size = 64;
  const TraceResult r = expect(twice, "covers", R);
  EXPECT_EQ(r.witness->instruction, 1);
  EXPECT_EQ(r.witness->lanes, std::vector<int>{7});
  EXPECT_TRUE(has(r.witness->why, "element 2 is written twice: by instruction 0 (warp 0, copy index (0)) lane 2 (thread 2, (0,2)) "
                                  "at byte 8 and by instruction 1 (warp 0, copy index (1)) lane 7 (thread 7, (0,7)) at byte 8")) << r.witness->why;
  ASSERT_EQ(r.verdict.witness.points.size(), 2u);
  EXPECT_EQ(r.verdict.witness.points[0].index, 2);

  AddressTrace missing = t;  // lane 9 of instruction 0 inactive: element 9 is never written
  missing.instructions[0].addr[9] = -1;
  const TraceResult m = expect(missing, "covers", R);
  EXPECT_TRUE(has(m.witness->why, "element 9 of 64 is never written")) << m.witness->why;

  AddressTrace unknown = t;
  unknown.domain_size = 0;
  const TraceResult u = expect(unknown, "covers", E);
  EXPECT_TRUE(has(u.verdict.detail, "unknown domain")) << u.verdict.detail;
}

// Regression (hostile-input campaign W4): every element written once, but two of them at the same
// byte address: (128,8):(1,64) stores. covers must not call that covering.
TEST(TraceClaims, CoversRefutesElementsThatShareAnAddress) {
  AddressTrace t = trace(SmemOp::st, 4, {kRow32, lanes([](int l) -> i64 { return 128 + 4 * l; })});
  t.instructions[1].addr[3] = 8;  // element 35 stored where element 2 lives
  t.instructions[1].slice_addrs[3] = 8;
  const TraceResult r = expect(t, "covers", R);
  EXPECT_TRUE(has(r.witness->why, "elements 2 and 35 share shared memory at byte 8 (one store overwrites the other)")) << r.witness->why;
  EXPECT_EQ(r.witness->instruction, 1);
}

TEST(TraceClaims, CoversLoadsMayReadTwice) {
  const AddressTrace t = trace(SmemOp::ld, 4, {kRow32, kRow32});
  const TraceResult ok = expect(t, "covers", P);
  EXPECT_TRUE(has(ok.verdict.detail, "each of the 32 elements is read at least once (2 x ld.32; at most 2 times)")) << ok.verdict.detail;
  AddressTrace more = t;
  more.domain_size = 40;
  const TraceResult r = expect(more, "covers", R);
  EXPECT_TRUE(has(r.witness->why, "element 32 of 40 is never read")) << r.witness->why;
}

TEST(TraceClaims, InvalidAndMalformedTracesAreErrors) {
  Lanes a = kRow32;
  a[4] = 6;  // not 4-byte aligned: the bank model refuses the instruction
  const TraceResult r = expect(trace(SmemOp::ld, 4, {kRow32, a}), "conflict-free", E);
  EXPECT_TRUE(has(r.verdict.detail, "invalid instruction: instruction 1 (warp 0, copy index (1)): lane 4")) << r.verdict.detail;
  AddressTrace mixed = trace(SmemOp::ld, 4, {kRow32});
  mixed.instructions[0].op = SmemOp::st;
  EXPECT_EQ(run(mixed, "conflict-free").verdict.kind, E);
  EXPECT_EQ(run(AddressTrace{}, "covers").verdict.kind, E);
  EXPECT_EQ(run(AddressTrace{}, "conflict-free", EngineChoice::z3).verdict.kind, E);
}

TEST(TraceClaims, CannedPatternsAreTraces) {
  AccessSpec spec = make_access(parse_any_layout("Sw<3,3,3> o (16,64):(64,1)"), 2, 8, PatternKind::ldmatrix, 4);
  const BankSubject s = make_bank_subject(spec, SmemOp::ldsm4);
  const AddressTrace t = trace_of(s);
  EXPECT_EQ(static_cast<i64>(t.instructions.size()), instruction_count(s));
  EXPECT_EQ(t.domain_size, 16 * 64);
  EXPECT_EQ(t.element_bytes, 2);
  EXPECT_EQ(t.instructions[0].slice_len, 8);
  expect(t, "conflict-free", P);
  expect(t, "vector-legal", P);
  expect(t, "covers", P);
  EXPECT_EQ(check_bank_exhaustive(s, *parse_bank_claim("conflict-free")).verdict.kind, P);
  // a column-major tile read 4 elements at a time along a row: the vector is not contiguous
  AccessSpec col = make_access(parse_any_layout("(32,8):(1,32)"), 4, 4, PatternKind::row_per_lane);
  const TraceResult r = expect(trace_of(make_bank_subject(col, SmemOp::ld)), "vector-legal", R);
  EXPECT_TRUE(has(r.witness->why, "not contiguous")) << r.witness->why;
}

TEST(TraceJson, Format) {
  AddressTrace t = trace(SmemOp::ldsm1, 16, {lanes([](int l) -> i64 { return l < 8 ? 16 * l : -1; })}, 2);
  t.provenance = "a \"quoted\" copy";
  t.instructions[0].where = "warp 0, copy index (0)";
  const std::string j = trace_to_json(t);
  EXPECT_EQ(j.rfind("{\"provenance\":\"a \\\"quoted\\\" copy\",\"op\":\"ldsm1\",\"width_bytes\":16,\"threads\":32,"
                    "\"element_bytes\":2,\"domain_size\":64,",
                    0),
            0u)
      << j;
  EXPECT_TRUE(has(j, "\"instructions\":[{\"warp\":0,\"index\":0,\"copy_coord\":[0],\"where\":\"warp 0, copy index (0)\","
                     "\"addrs\":[0,16,32,48,64,80,96,112,-1,")) << j;
  EXPECT_TRUE(has(j, "\"threads\":[0,1,2,3,4,5,6,7,-1,")) << j;
  EXPECT_TRUE(has(j, "\"coords\":[[0,0],[0,1],[0,2],[0,3],[0,4],[0,5],[0,6],[0,7],null,")) << j;
  EXPECT_EQ(j.substr(j.size() - 9), ",null]}]}") << j;
}

// ---------------------------------------------------------------------------------------------
// The exhaustive twin: Z3 and the exhaustive engine agree on random small traces.

AddressTrace random_trace(std::mt19937& rng) {
  static const std::vector<std::pair<SmemOp, int>> kinds{{SmemOp::ld, 4},  {SmemOp::st, 4},  {SmemOp::ld, 8},
                                                         {SmemOp::st, 8},  {SmemOp::ld, 16}, {SmemOp::st, 16},
                                                         {SmemOp::ldsm2, 16}, {SmemOp::ldsm4, 16}};
  const auto [op, width] = kinds[rng() % kinds.size()];
  const int span = std::array{8, 32, 64, 256}[rng() % 4];  // addresses in [0, span*width): more or fewer collisions
  const int inactive = std::array{0, 0, 8, 50}[rng() % 4];  // percent of inactive lanes
  const int n = 1 + static_cast<int>(rng() % 6);
  std::vector<Lanes> ins;
  for (int k = 0; k < n; ++k) {
    Lanes a;
    for (int l = 0; l < kWarpLanes; ++l) a[l] = static_cast<int>(rng() % 100) < inactive ? -1 : width * static_cast<i64>(rng() % span);
    a[rng() % 8] = width * static_cast<i64>(rng() % span);  // one active lane in matrix 0 / quarter 0
    ins.push_back(a);
  }
  return trace(op, width, ins);
}

TEST(TraceAgreement, Z3MatchesExhaustiveOnRandomSmallTraces) {
  std::mt19937 rng(20260611);
  int proved = 0, refuted = 0;
  for (int n = 0; n < 300; ++n) {
    const AddressTrace t = random_trace(rng);
    const std::string claim_text = rng() % 3 == 0 ? "max-ways:" + std::to_string(1 + rng() % 4) : "conflict-free";
    const TraceClaim c = *parse_trace_claim(claim_text);
    const TraceResult ex = check_trace_exhaustive(t, c);
    ASSERT_TRUE(ex.verdict.kind == P || ex.verdict.kind == R) << ex.verdict.detail;
    // the raw engine: the bank model's rule is its phase rule exactly (no instruction left aside)
    const Outcome<TraceZ3Violation> z = check_trace_z3(t, c, SmtOptions{});
    const std::string what = "trace " + std::to_string(n) + " (" + to_string(t.op) + " " + std::to_string(t.width_bytes) + ") " + claim_text;
    ASSERT_TRUE(z.kind == OutcomeKind::holds || z.kind == OutcomeKind::violated) << what << ": " << z.text;
    ASSERT_EQ(ex.verdict.is_proved(), z.kind == OutcomeKind::holds) << what;
    // and the full pipeline (z3, replay, cross-check) gives the exhaustive verdict and witness
    const TraceResult full = run(t, claim_text, EngineChoice::z3);
    ASSERT_EQ(full.verdict.kind, ex.verdict.kind) << what << ": " << full.verdict.method << ": " << full.verdict.detail;
    if (ex.witness) EXPECT_EQ(full.witness->instruction, ex.witness->instruction) << what;
    (ex.verdict.is_proved() ? proved : refuted) += 1;
  }
  RecordProperty("proved", proved);
  RecordProperty("refuted", refuted);
  EXPECT_GT(proved, 30);
  EXPECT_GT(refuted, 30);
}

// Scale: ~3000 ldmatrix instructions (Sw<3,3,3> o (12000,64):(64,1), f16) decided by z3 in
// chunks of instructions; the time is recorded (docs: the speed of the encoding).
TEST(TraceAgreement, Z3On3000Instructions) {
  // 1,500 blocks of 8 rows on the same 1 KiB (stride 0): 3000 instructions within the 227 KiB of
  // shared memory a block can address (a (12000,64) f16 tile, 1.5 MB, is refused as bad input).
  const AccessSpec spec =
      make_access(parse_any_layout("Sw<3,3,3> o ((8,1500),64):((64,0),1)"), 2, 8, PatternKind::ldmatrix, 4);
  const AddressTrace t = trace_of(make_bank_subject(spec, SmemOp::ldsm4), false);
  ASSERT_EQ(t.instructions.size(), 3000u);
  const auto t0 = std::chrono::steady_clock::now();
  const TraceResult r = run(t, "conflict-free", EngineChoice::z3);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.verdict.kind, P) << r.verdict.method << ": " << r.verdict.detail;
  RecordProperty("z3_ms", static_cast<int>(ms));
  std::printf("z3 conflict-free on 3000 ldsm4 instructions: %.0f ms (%s)\n", ms, r.verdict.method.c_str());
}

}  // namespace
}  // namespace layoutproof::proofs
