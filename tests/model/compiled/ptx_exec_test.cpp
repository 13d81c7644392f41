// model/compiled/ptx_exec.hpp: each opcode family's semantics, checked lane by lane against C++
// written here from the PTX ISA's definitions; guards, loops, calls, inline-asm scopes,
// warp-collective ops, unknown values and their reasons, symbol placement, divergence, limits.
#include "model/compiled/ptx_exec.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cfenv>
#include <functional>
#include <map>

#include "model/compiled/exec/alu.hpp"
#include "model/compiled/ptx_parse.hpp"

namespace layoutproof::compiled {
namespace {

// A kernel `k(u32 param0, u64 param1)` with a 64 KiB shared buffer `smem` (and `dyn`, dynamic),
// around `body`.
std::string kernel(const std::string& body, const std::string& extra_decls = "") {
  return ".version 8.0\n.target sm_90\n.address_size 64\n.extern .shared .align 128 .b8 dyn[];\n" + extra_decls +
         ".visible .entry k(.param .u32 k_param_0, .param .u64 k_param_1)\n{\n"
         ".reg .b32 %r<64>;\n.reg .b64 %rd<16>;\n.reg .pred %p<8>;\n.reg .b16 %rs<8>;\n.reg .f32 %f<16>;\n.reg .f64 %fd<8>;\n"
         ".shared .align 16 .b8 smem[65536];\n" +
         body + "\nret;\n}\n";
}

struct Ran {
  Program program;
  Launch launch;
  KernelRun run;
};

Ran run_text(const std::string& text, i64 threads = 32, std::vector<std::optional<u64>> params = {}) {
  Ran r{parse_ptx(text, "t.ptx"), {}, {}};
  decode_with_callees(r.program, select_entries(r.program, "k").at(0));
  r.launch.block = {threads, 1, 1};
  params.resize(2);
  r.launch.params = params;
  r.run = run_kernel(r.program, select_entries(r.program, "k").at(0), r.launch);
  return r;
}

// %r2 = OP(%r1 = %tid.x), then a byte store at smem + (%r2 & 0xffff): the lanes' addresses.
std::array<i64, kWarpLanes> lanes_of(const std::string& op) {
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\n" + op +
                                "\nand.b32 %r3, %r2, 65535;\nmov.u32 %r4, smem;\nadd.u32 %r5, %r4, %r3;\nst.shared.u8 [%r5], %r1;"));
  EXPECT_EQ(r.run.sites.size(), 1u);
  EXPECT_TRUE(r.run.sites.at(0).unknown.empty()) << r.run.sites.at(0).unknown;
  return r.run.sites.at(0).trace.instructions.at(0).addr;
}

void expect_op(const std::string& op, const std::function<u64(u64)>& f) {
  const auto got = lanes_of(op);
  for (u64 t = 0; t < kWarpLanes; ++t) EXPECT_EQ(got[t], static_cast<i64>(f(t) & 0xffff)) << op << " lane " << t;
}

TEST(PtxExec, IntegerArithmetic) {
  expect_op("add.s32 %r2, %r1, -3;", [](u64 t) { return static_cast<u64>(static_cast<std::uint32_t>(t - 3)); });
  expect_op("sub.u32 %r2, 100, %r1;", [](u64 t) { return 100 - t; });
  expect_op("mul.lo.s32 %r2, %r1, 33;", [](u64 t) { return t * 33; });
  expect_op("mul.hi.u32 %r2, %r1, 0x90000000;", [](u64 t) { return (t * 0x90000000ull) >> 32; });
  expect_op("mul.wide.u32 %rd1, %r1, 0x40000000;\nshr.u64 %rd2, %rd1, 30;\ncvt.u32.u64 %r2, %rd2;", [](u64 t) { return t; });
  expect_op("mul.wide.s32 %rd1, %r1, -2;\nneg.s64 %rd2, %rd1;\ncvt.u32.u64 %r2, %rd2;", [](u64 t) { return 2 * t; });
  expect_op("mad.lo.s32 %r2, %r1, 132, 7;", [](u64 t) { return t * 132 + 7; });
  expect_op("cvt.u16.u32 %rs1, %r1;\nmad.wide.u16 %r2, %rs1, 3, 5;", [](u64 t) { return 3 * t + 5; });
  expect_op("div.u32 %r2, %r1, 3;", [](u64 t) { return t / 3; });
  expect_op("rem.s32 %r2, %r1, 5;", [](u64 t) { return t % 5; });
  expect_op("sub.s32 %r6, 0, %r1;\ndiv.s32 %r7, %r6, 4;\nneg.s32 %r2, %r7;", [](u64 t) { return t / 4; });  // truncation toward 0
  expect_op("min.s32 %r2, %r1, 9;", [](u64 t) { return std::min<u64>(t, 9); });
  expect_op("sub.s32 %r6, %r1, 16;\nmax.s32 %r2, %r6, -2;\nadd.s32 %r2, %r2, 2;", [](u64 t) { return std::max<i64>(static_cast<i64>(t) - 16, -2) + 2; });
  expect_op("sub.s32 %r6, %r1, 16;\nmax.u32 %r2, %r6, 3;\nand.b32 %r2, %r2, 255;", [](u64 t) { return t >= 16 ? std::max<u64>(t - 16, 3) : (t - 16) & 255; });
  expect_op("sub.s32 %r6, %r1, 16;\nabs.s32 %r2, %r6;", [](u64 t) { return static_cast<u64>(std::abs(static_cast<i64>(t) - 16)); });
  expect_op("mul24.lo.u32 %r2, %r1, 0x1000003;", [](u64 t) { return t * 3; });  // the multiplier's low 24 bits
}

TEST(PtxExec, SixteenAndEightBitWidthsWrap) {
  expect_op("cvt.u16.u32 %rs1, %r1;\nadd.u16 %rs2, %rs1, 65530;\ncvt.u32.u16 %r2, %rs2;", [](u64 t) { return (t + 65530) & 0xffff; });
  expect_op("cvt.u16.u32 %rs1, %r1;\nmul.lo.u16 %rs2, %rs1, 4097;\ncvt.u32.u16 %r2, %rs2;", [](u64 t) { return (t * 4097) & 0xffff; });
  expect_op("cvt.s8.s32 %r6, %r1;\nmul.lo.s32 %r7, %r6, 16;\ncvt.s32.s8 %r8, %r7;\nadd.s32 %r2, %r8, 200;",
            [](u64 t) { return static_cast<u64>(static_cast<std::int8_t>(t * 16) + 200); });
}

TEST(PtxExec, BitOperations) {
  expect_op("and.b32 %r2, %r1, 12;", [](u64 t) { return t & 12; });
  expect_op("or.b32 %r2, %r1, 64;", [](u64 t) { return t | 64; });
  expect_op("xor.b32 %r2, %r1, 21;", [](u64 t) { return t ^ 21; });
  expect_op("not.b32 %r6, %r1;\nand.b32 %r2, %r6, 31;", [](u64 t) { return ~t & 31; });
  expect_op("shl.b32 %r2, %r1, 5;", [](u64 t) { return t << 5; });
  expect_op("shl.b32 %r2, %r1, 40;", [](u64) { return 0; });  // a shift past the width clears
  expect_op("shr.u32 %r2, %r1, 2;", [](u64 t) { return t >> 2; });
  expect_op("sub.s32 %r6, 0, %r1;\nshr.s32 %r7, %r6, 99;\nadd.s32 %r2, %r7, 1;", [](u64 t) { return t ? 0 : 1; });  // sign fill
  expect_op("bfe.u32 %r2, %r1, 2, 3;", [](u64 t) { return (t >> 2) & 7; });
  expect_op("bfe.s32 %r6, %r1, 2, 3;\nadd.s32 %r2, %r6, 4;", [](u64 t) { const i64 v = (t >> 2) & 7; return static_cast<u64>((v >= 4 ? v - 8 : v) + 4); });
  expect_op("bfi.b32 %r2, %r1, 0x100, 3, 4;", [](u64 t) { return 0x100 | ((t & 15) << 3); });
  expect_op("prmt.b32 %r2, %r1, 0x11223344, 0x4140;", [](u64 t) { return (t & 0xff) | (0x44u << 8) | ((t & 0xff) << 16) | (0x44u << 24); });
  expect_op("lop3.b32 %r2, %r1, 6, 12, 0x96;", [](u64 t) { return t ^ 6 ^ 12; });  // 0x96: a ^ b ^ c
  expect_op("lop3.b32 %r2, %r1, 7, 8, 0xea;", [](u64 t) { return (t & 7) | 8; });  // 0xea = (0xf0 & 0xcc) | 0xaa: (a & b) | c
  expect_op("clz.b32 %r2, %r1;", [](u64 t) { return static_cast<u64>(32 - std::bit_width(t)); });
  expect_op("popc.b32 %r2, %r1;", [](u64 t) { return static_cast<u64>(std::popcount(t)); });
  expect_op("brev.b32 %r6, %r1;\nshr.u32 %r2, %r6, 27;", [](u64 t) {
    u64 r = 0;
    for (int i = 0; i < 5; ++i) r |= ((t >> i) & 1) << (4 - i);
    return r;
  });
  expect_op("bfind.u32 %r6, %r1;\nadd.u32 %r2, %r6, 1;", [](u64 t) { return t ? static_cast<u64>(std::bit_width(t)) : 0; });
  expect_op("shf.l.wrap.b32 %r2, %r1, %r1, 4;", [](u64 t) { return (t << 4) | (t >> 28); });
  expect_op("shf.r.clamp.b32 %r2, 0, %r1, 40;", [](u64 t) { return t; });  // {b, a} >> min(40, 32) = b
}

TEST(PtxExec, ConversionsAndMoves) {
  expect_op("cvt.u64.u32 %rd1, %r1;\nshl.b64 %rd2, %rd1, 33;\nshr.u64 %rd3, %rd2, 33;\ncvt.u32.u64 %r2, %rd3;", [](u64 t) { return t; });
  expect_op("sub.s32 %r6, %r1, 8;\ncvt.s64.s32 %rd1, %r6;\nshr.s64 %rd2, %rd1, 63;\ncvt.u32.u64 %r7, %rd2;\nand.b32 %r2, %r7, 1;",
            [](u64 t) { return t < 8 ? 1 : 0; });
  expect_op("cvt.sat.u8.s32 %r6, %r1;\nsub.s32 %r7, %r1, 300;\ncvt.sat.u8.s32 %r8, %r7;\nadd.u32 %r2, %r6, %r8;", [](u64 t) { return t; });
  expect_op("mov.b64 %rd1, {%r1, %r1};\nshr.u64 %rd2, %rd1, 32;\ncvt.u32.u64 %r2, %rd2;", [](u64 t) { return t; });
  expect_op("mov.b64 %rd1, 0x0000000700000003;\nmov.b64 {%r6, %r7}, %rd1;\nmad.lo.s32 %r2, %r6, %r7, %r1;", [](u64 t) { return t + 21; });
  expect_op("mov.u32 %r6, %laneid;\nmov.u32 %r7, %lanemask_lt;\npopc.b32 %r8, %r7;\nsub.s32 %r2, %r8, %r6;", [](u64) { return 0; });
  expect_op("mov.u32 %r6, %ntid.x;\nadd.u32 %r2, %r6, %r1;", [](u64 t) { return 32 + t; });
  expect_op("mov.u32 %r6, WARP_SZ;\nadd.u32 %r2, %r6, %r1;", [](u64 t) { return 32 + t; });  // PTX's predefined constant
}

// Float conversions, evaluated concretely: u32 -> f32 in each rounding mode, and back to an integer
// (truncating, to nearest), against the host's own conversion under fesetround (an independent way
// to the same IEEE result), for numerators across the 32-bit range (t * 0x08421085 + 0x1234567).
TEST(PtxExec, FloatConversionsRoundAsIeeeSays) {
  const auto host = [](u32 n, int mode) {
    const int old = std::fegetround();
    std::fesetround(mode);
    const volatile float f = static_cast<float>(n);
    std::fesetround(old);
    return std::bit_cast<u32>(static_cast<float>(f));
  };
  const std::string n = "mul.lo.u32 %r6, %r1, 0x08421085;\nadd.u32 %r6, %r6, 0x1234567;\n";
  const std::string mix = "\nshr.u32 %r9, %r7, 16;\nxor.b32 %r2, %r7, %r9;";  // the float's bits, folded to 16
  const auto num = [](u64 t) { return static_cast<u32>(t * 0x08421085u + 0x1234567u); };
  const auto fold = [](u32 b) { return static_cast<u64>(b ^ (b >> 16)); };
  const std::pair<const char*, int> modes[] = {{"rn", FE_TONEAREST}, {"rz", FE_TOWARDZERO}, {"rm", FE_DOWNWARD}, {"rp", FE_UPWARD}};
  for (const auto& [m, mode] : modes) {
    const int md = mode;
    expect_op(n + "cvt." + m + ".f32.u32 %r7, %r6;" + mix, [&](u64 t) { return fold(host(num(t), md)); });
  }
  // Back to an integer: rzi of the rp float is the float's value (an integer above 2^24), saturated.
  expect_op(n + "cvt.rp.f32.u32 %r8, %r6;\ncvt.rzi.u32.f32 %r7, %r8;" + mix, [&](u64 t) {
    const float f = std::bit_cast<float>(host(num(t), FE_UPWARD));
    return fold(f >= 4294967296.0f ? 0xffffffffu : static_cast<u32>(f));
  });
}

// elect.sync: the leader is the lowest lane of the issue in the mask (every lane gets its id; the
// predicate is true in it alone); where lanes 5.. execute it with a mask of exactly them, lane 5 leads.
TEST(PtxExec, ElectSyncLeadsWithTheLowestLane) {
  expect_op("elect.sync %r3|%p1, 0xffffffff;\nselp.b32 %r4, 100, 0, %p1;\nadd.u32 %r2, %r3, %r4;",
            [](u64 t) { return t == 0 ? 100 : 0; });
  expect_op("setp.ge.u32 %p2, %r1, 5;\nmov.u32 %r3, 77;\nmov.u32 %r4, 0;\n@%p2 elect.sync %r3|%p1, 0xffffffe0;\n"
            "@%p2 selp.b32 %r4, 100, 0, %p1;\nadd.u32 %r2, %r3, %r4;",
            [](u64 t) { return t < 5 ? 77 : t == 5 ? 105 : 5; });
}

// f32/f64 arithmetic is evaluated as the GPU does (model/compiled/exec/float_arith.hpp): a float
// index computed from %tid through add, mul (.rz: toward zero), fma, min, max, div and setp, back
// to an integer, equals C++'s; 0f literals are bits.
TEST(PtxExec, FloatArithmeticDecidesAddresses) {
  expect_op("cvt.rn.f32.u32 %f1, %r1;\nmul.rn.f32 %f2, %f1, 0f40400000;\nadd.rn.f32 %f3, %f2, 0f3F000000;\n"
            "cvt.rzi.u32.f32 %r2, %f3;",
            [](u64 t) { return 3 * t; });  // 3t + 0.5 truncated
  expect_op("cvt.rn.f32.u32 %f1, %r1;\nfma.rn.f32 %f2, %f1, %f1, 0fBF800000;\nmax.f32 %f3, %f2, 0f00000000;\n"
            "cvt.rzi.u32.f32 %r2, %f3;",
            [](u64 t) { return t == 0 ? 0 : t * t - 1; });
  expect_op("cvt.rn.f32.u32 %f1, %r1;\ndiv.rn.f32 %f2, %f1, 0f40800000;\ncvt.rmi.u32.f32 %r2, %f2;", [](u64 t) { return t / 4; });
  expect_op("cvt.rn.f32.u32 %f1, %r1;\nsetp.gtu.f32 %p1, %f1, 0f41200000;\nselp.b32 %r2, 1, 2, %p1;",
            [](u64 t) { return t > 10 ? 1 : 2; });
  expect_op("cvt.rn.f64.u32 %fd1, %r1;\nmul.rz.f64 %fd2, %fd1, 0d3FE0000000000000;\nmin.f64 %fd3, %fd2, 0d4014000000000000;\n"
            "cvt.rzi.u32.f64 %r2, %fd3;",
            [](u64 t) { return std::min<u64>(t / 2, 5); });
}

// A mul and an add with no rounding modifier may be fused by ptxas into one fma: the add's
// result is not known (never the two-rounding value, which may not be what runs); .rn on either
// keeps them apart.
TEST(PtxExec, AContractibleMulAddIsNotKnown) {
  const auto unknown_of = [](const std::string& op) {
    const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\ncvt.rn.f32.u32 %f1, %r1;\n" + op +
                                  "\ncvt.rzi.u32.f32 %r2, %f3;\nmov.u32 %r4, smem;\nadd.u32 %r5, %r4, %r2;\nst.shared.u8 [%r5], %r1;"));
    return r.run.sites.at(0).unknown;
  };
  EXPECT_NE(unknown_of("mul.f32 %f2, %f1, 0f40400000;\nadd.f32 %f3, %f2, 0f3F000000;").find("fuse"), std::string::npos);
  EXPECT_EQ(unknown_of("mul.rn.f32 %f2, %f1, 0f40400000;\nadd.f32 %f3, %f2, 0f3F000000;"), "");
  EXPECT_EQ(unknown_of("mul.f32 %f2, %f1, 0f40400000;\nadd.rn.f32 %f3, %f2, 0f3F000000;"), "");
}

// A 16-byte cp.async by lanes 0-3 and 16-19 of the warp (two phases, 128 distinct bytes): .ca
// takes 2 wavefronts, its ideal the bytes packed (1); .cg with lanes that do not copy is not known
// (Nsight Compute's count is not the active lanes': gpu_check/probes/cg_ideal.cu), saying so.
TEST(PtxExec, CpAsyncIdealsAreTheHardwares) {
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 15;\nsetp.lt.u32 %p1, %r2, 4;\nshr.u32 %r3, %r1, 4;\n"
                                "shl.b32 %r4, %r3, 2;\nadd.u32 %r5, %r4, %r2;\nshl.b32 %r6, %r5, 4;\nmov.u32 %r7, smem;\n"
                                "add.u32 %r8, %r7, %r6;\nld.param.u64 %rd1, [k_param_1];\ncvt.u64.u32 %rd2, %r6;\nadd.u64 %rd3, %rd1, %rd2;\n"
                                "@%p1 cp.async.cg.shared.global [%r8], [%rd3], 16;\n@%p1 cp.async.ca.shared.global [%r8+1024], [%rd3], 16;"),
                         32, {std::nullopt, u64{4096}});
  ASSERT_EQ(r.run.sites.size(), 2u);
  EXPECT_FALSE(r.run.sites[0].counts_known);
  EXPECT_NE(r.run.sites[0].invalid.find("does not copy"), std::string::npos) << r.run.sites[0].invalid;
  const Site& ca = r.run.sites[1];
  ASSERT_TRUE(ca.counts_known) << ca.line << ": " << ca.unknown << ca.invalid;
  EXPECT_EQ(ca.executed, 1);
  EXPECT_EQ(ca.wavefronts, 2);
  EXPECT_EQ(ca.ideal, 1);  // the bytes packed
}

// cp.async.cg by the whole warp, 16 distinct bytes per lane on both sides: counted (4), while at
// most one other .cg copy of the warp is in flight; the third of three issued before a wait is not
// known (a deep .cg pipeline: gpu_check/probes/cg_stages.cu), nor one after wait_group 2, which
// leaves them in flight; wait_group 0 and wait_all drain them.
TEST(PtxExec, CpAsyncCgCountsFollowTheCopiesInFlight) {
  const std::string addr =
      "mov.u32 %r1, %tid.x;\nshl.b32 %r6, %r1, 4;\nmov.u32 %r7, smem;\nadd.u32 %r8, %r7, %r6;\nld.param.u64 %rd1, [k_param_1];\n"
      "cvt.u64.u32 %rd2, %r6;\nadd.u64 %rd3, %rd1, %rd2;\n";
  const auto copy = [](int k) { return "cp.async.cg.shared.global [%r8+" + std::to_string(1024 * k) + "], [%rd3], 16;\n"; };
  const auto known = [&](const std::string& body) {
    const Ran r = run_text(kernel(addr + body), 32, {std::nullopt, u64{4096}});
    std::vector<bool> out;
    for (const Site& s : r.run.sites) {
      out.push_back(s.counts_known);
      if (s.counts_known) EXPECT_EQ(s.wavefronts, 4) << s.text;
      else EXPECT_NE(s.invalid.find("in flight"), std::string::npos) << s.invalid;
    }
    return out;
  };
  const std::string commit = "cp.async.commit_group;\n";
  EXPECT_EQ(known(copy(0) + copy(1) + copy(2) + commit + "cp.async.wait_all;\n"), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(known(copy(0) + commit + copy(1) + commit + "cp.async.wait_group 2;\n" + copy(2)), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(known(copy(0) + commit + copy(1) + commit + "cp.async.wait_group 0;\n" + copy(2)), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(known(copy(0) + copy(1) + commit + "cp.async.wait_all;\n" + copy(2) + copy(3)), (std::vector<bool>{true, true, true, true}));
}

// A partly known value (alu.hpp bitwise_low): ptxas clears a byte counter's low half with
// `PRMT R12, RZ, 0x7610, R12` before R12 is ever written, then reads (R12 + 1) & 0xff; the low
// 16 bits are known, so that is known. Bit 16 is not: (x + tid) & 0x1ffff stays unknown.
TEST(PtxExec, PartlyKnownLowBitsDecideWhatTheyCover) {
  const auto site_unknown = [](const std::string& mask) {
    const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nprmt.b32 %r2, 0, %r30, 30224;\nadd.u32 %r3, %r2, %r1;\nadd.u32 %r3, %r3, 1;\n"
                                  "and.b32 %r4, %r3, " + mask + ";\nmov.u32 %r5, smem;\nadd.u32 %r6, %r5, %r4;\nst.shared.u8 [%r6], %r1;"));
    EXPECT_EQ(r.run.sites.size(), 1u);
    return r.run.sites.at(0).unknown;
  };
  EXPECT_EQ(site_unknown("255"), "");
  EXPECT_EQ(site_unknown("65535"), "");
  EXPECT_NE(site_unknown("131071").find("read before it is written"), std::string::npos);
  // The low bits: bitwise_low over fills of the unknown bits.
  const auto prmt_low = alu::bitwise_low([](u64 a, u64 b, u64) { return alu::prmt(a, b, 0x7610); }, {0, 0, 0}, {64, 0, 64}, 32);
  EXPECT_EQ(prmt_low, 16);
  EXPECT_EQ(alu::bitwise_low([](u64 a, u64, u64) { return a << 4; }, {5, 0, 0}, {8, 64, 64}, 32), 12);
  EXPECT_EQ(alu::bitwise_low([](u64 a, u64 b, u64) { return a & b; }, {0, 0xf0, 0}, {0, 64, 64}, 32), 4);  // x & 0xf0: bits 0-3 are 0
}

// After a lane stops (a path the data decides that runs on: i = 1 + 8k never reaches 0 in 32
// bits), the instructions it could still reach print no count, executed included (counts_unknown /
// executed_unknown say why); those only before the stop keep theirs.
TEST(PtxExec, CountsAfterAStopAreNotKnown) {
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, smem;\nadd.u32 %r4, %r3, %r2;\n"
                                "st.shared.u32 [%r4], %r1;\nld.shared.u32 %r5, [%r4];\nsetp.lt.u32 %p1, %r5, 8;\n@%p1 bra AFTER;\n"
                                "mov.u32 %r13, 1;\nSPIN:\nadd.u32 %r13, %r13, 8;\nsetp.ne.u32 %p2, %r13, 0;\n@%p2 bra SPIN;\n"
                                "AFTER:\nst.shared.u32 [%r4+128], %r1;"));
  ASSERT_EQ(r.run.sites.size(), 3u);
  ASSERT_FALSE(r.run.stopped.empty());
  EXPECT_EQ(counts_unknown(r.run, r.run.sites[0]), "");
  EXPECT_EQ(counts_unknown(r.run, r.run.sites[1]), "");
  EXPECT_EQ(executed_unknown(r.run, r.run.sites[1]), "");
  EXPECT_NE(counts_unknown(r.run, r.run.sites[2]).find("could still reach"), std::string::npos) << counts_unknown(r.run, r.run.sites[2]);
  EXPECT_NE(executed_unknown(r.run, r.run.sites[2]).find("could still reach"), std::string::npos);
}

// A branch on data loaded from shared memory: both sides run, each lane under a data atom of its
// own, and the code after the join is counted exactly; what a side holds has no count, executed
// included, and says which branch decides it.
TEST(PtxExec, BranchesOnDataRunBothSidesAndJoin) {
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, smem;\nadd.u32 %r4, %r3, %r2;\n"
                                "st.shared.u32 [%r4], %r1;\nld.shared.u32 %r5, [%r4];\nsetp.eq.u32 %p1, %r5, 7;\n@%p1 bra DONE;\n"
                                "st.shared.u32 [%r4+128], %r1;\nDONE:\nld.shared.u32 %r6, [%r4+256];"));
  ASSERT_EQ(r.run.sites.size(), 4u);
  EXPECT_TRUE(r.run.stopped.empty()) << r.run.stopped;
  EXPECT_EQ(counts_unknown(r.run, r.run.sites[1]), "");
  const Site& side = r.run.sites[2];
  EXPECT_NE(counts_unknown(r.run, side).find("data decides"), std::string::npos) << counts_unknown(r.run, side);
  EXPECT_NE(executed_unknown(r.run, side).find("decides the branch at line"), std::string::npos) << executed_unknown(r.run, side);
  ASSERT_FALSE(side.symbolic.empty());
  EXPECT_NE(data_atom_in(r.run.conds, side.symbolic[0].when[3]), 0u);
  // Each lane its own atom: lanes 3 and 4 run the side under different conditions.
  EXPECT_NE(side.symbolic[0].when[3], side.symbolic[0].when[4]);
  const Site& after = r.run.sites[3];
  EXPECT_EQ(counts_unknown(r.run, after), "");
  EXPECT_EQ(executed_unknown(r.run, after), "");
  EXPECT_EQ(after.executed, 1);
  EXPECT_EQ(after.wavefronts, 1);
}

TEST(PtxExec, PredicatesGuardsAndSelects) {
  expect_op("setp.lt.u32 %p1, %r1, 10;\nselp.b32 %r2, 1000, 2000, %p1;", [](u64 t) { return t < 10 ? 1000 : 2000; });
  expect_op("setp.gt.s32 %p1|%p2, %r1, 20;\nselp.b32 %r2, 7, 9, %p2;", [](u64 t) { return t > 20 ? 9 : 7; });
  expect_op("setp.ne.and.b32 %p1, %r1, 3, 1;\nmov.u32 %r2, 500;\n@%p1 mov.u32 %r2, %r1;", [](u64 t) { return t != 3 ? t : 500; });
  expect_op("setp.lo.u32 %p1, %r1, 4;\nmov.u32 %r2, %r1;\n@!%p1 add.u32 %r2, %r1, 100;", [](u64 t) { return t < 4 ? t : t + 100; });
  // A guarded store: lanes whose guard is false are inactive (-1).
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 8;\nmov.u32 %r4, smem;\nshl.b32 %r2, %r1, 2;\n"
                                "add.u32 %r5, %r4, %r2;\n@%p1 st.shared.u32 [%r5], %r1;"));
  const auto& a = r.run.sites.at(0).trace.instructions.at(0).addr;
  for (int l = 0; l < kWarpLanes; ++l) EXPECT_EQ(a[static_cast<std::size_t>(l)], l < 8 ? 4 * l : -1);
}

TEST(PtxExec, LoopsWithAWrapAroundCounterAndCalls) {
  // for (k = 0; k < 5; ++k) { st [smem + stage * 128 + 4 t]; stage = stage == 2 ? 0 : stage + 1; }
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nmov.u32 %r10, 0;\nmov.u32 %r11, 0;\nmov.u32 %r4, smem;\n$L_loop:\n"
                                "shl.b32 %r2, %r11, 7;\nmad.lo.s32 %r3, %r1, 4, %r2;\nadd.u32 %r5, %r4, %r3;\nst.shared.u32 [%r5], %r1;\n"
                                "setp.eq.s32 %p1, %r11, 2;\nadd.s32 %r12, %r11, 1;\nselp.b32 %r11, 0, %r12, %p1;\n"
                                "add.s32 %r10, %r10, 1;\nsetp.lt.s32 %p2, %r10, 5;\n@%p2 bra $L_loop;"));
  const Site& s = r.run.sites.at(0);
  EXPECT_EQ(s.executed, 5);
  ASSERT_EQ(s.trace.instructions.size(), 3u);  // stages 0, 1, 2
  EXPECT_EQ(s.patterns[0].count, 2);           // stage 0 at k = 0 and 3
  EXPECT_EQ(s.trace.instructions[2].addr[1], 2 * 128 + 4);
  EXPECT_EQ(s.wavefronts, 5);
  EXPECT_EQ(s.ideal, 5);
  // A .func through param space, called twice; inline-asm scoped registers.
  const std::string f = ".func (.param .b32 f_ret) f(.param .b32 f_a, .param .b32 f_b)\n{\n.reg .b32 %r<4>;\n"
                        "ld.param.u32 %r1, [f_a];\nld.param.u32 %r2, [f_b];\nmad.lo.s32 %r3, %r1, 33, %r2;\n"
                        "st.param.b32 [f_ret+0], %r3;\nret;\n}\n";
  const Ran c = run_text(kernel("mov.u32 %r1, %tid.x;\n{\n.reg .b32 t;\n.param .b32 p0;\nst.param.b32 [p0+0], 2;\n.param .b32 p1;\n"
                                "st.param.b32 [p1+0], %r1;\n.param .b32 r0;\ncall.uni (r0), f, (p0, p1);\nld.param.b32 %r2, [r0+0];\n"
                                "{ .reg .u32 t; mov.u32 t, %r2; shl.b32 %r3, t, 2; }\n}\nmov.u32 %r4, smem;\nadd.u32 %r5, %r4, %r3;\n"
                                "st.shared.u32 [%r5], %r1;",
                                f));
  const auto& a = c.run.sites.at(0).trace.instructions.at(0).addr;
  for (int l = 0; l < kWarpLanes; ++l) EXPECT_EQ(a[static_cast<std::size_t>(l)], 4 * (66 + l));
}

TEST(PtxExec, ACallDeeperThanTheLimitStopsTheLane) {
  // f calls itself before its store: the 64th nested call is cut, the lane stops, and the store,
  // which the hardware never reaches, has no issue (the claims are UNKNOWN: a lane stopped).
  const std::string f = ".func f()\n{\n.reg .b32 %r<4>;\ncall.uni f, ();\nmov.u32 %r1, fs;\nst.shared.u32 [%r1], %r1;\nret;\n}\n";
  const Ran r = run_text(kernel("call.uni f, ();", ".shared .align 4 .b8 fs[64];\n.func f();\n" + f));
  EXPECT_NE(r.run.stopped.find("calls nested deeper than 64 at line 10"), std::string::npos) << r.run.stopped;
  ASSERT_EQ(r.run.sites.size(), 1u);
  EXPECT_EQ(r.run.sites[0].executed, 0);
}

// A generic access through cvta.shared is the site its .shared form is (the H200 counts them alike:
// h200_generic.jsonl); a warp whose lanes split between the window and global memory is not
// measured (counts unknown, with why); one whose lanes are all global is no site.
TEST(PtxExec, GenericAccessesInTheSharedWindowAreCounted) {
  const std::string addr = "mov.u32 %r0, %tid.x;\nmov.u32 %r1, smem;\nmad.lo.u32 %r1, %r0, 8, %r1;\ncvt.u64.u32 %rd1, %r1;\n"
                           "cvta.shared.u64 %rd2, %rd1;\n";
  const Ran g = run_text(kernel(addr + "ld.u32 %r2, [%rd2];"));
  const Ran sh = run_text(kernel(addr + "ld.shared.u32 %r2, [%r1];"));
  ASSERT_EQ(g.run.sites.size(), 1u);
  ASSERT_EQ(sh.run.sites.size(), 1u);
  EXPECT_TRUE(g.run.not_counted.empty());
  EXPECT_TRUE(g.run.sites[0].generic);
  EXPECT_EQ(g.run.sites[0].executed, 1);
  EXPECT_EQ(g.run.sites[0].wavefronts, 2);  // 8-byte stride: two lanes a bank
  EXPECT_EQ(g.run.sites[0].wavefronts, sh.run.sites[0].wavefronts);
  EXPECT_EQ(g.run.sites[0].ideal, sh.run.sites[0].ideal);
  EXPECT_EQ(g.run.sites[0].trace.instructions.at(0).addr, sh.run.sites[0].trace.instructions.at(0).addr);
  // Lanes 0-15 in the window, 16-31 through a global pointer (a free parameter's).
  const Ran mixed = run_text(kernel(addr + "ld.param.u64 %rd3, [k_param_1];\nsetp.lt.u32 %p1, %r0, 16;\nselp.b64 %rd4, %rd2, %rd3, %p1;\n"
                                           "ld.u32 %r2, [%rd4];"));
  ASSERT_EQ(mixed.run.sites.size(), 1u);
  EXPECT_FALSE(mixed.run.sites[0].counts_known);
  EXPECT_NE(mixed.run.sites[0].unknown.find("both in the shared window and outside it"), std::string::npos) << mixed.run.sites[0].unknown;
  // A 1-byte generic access: a site, its counts not known (1 and 2 bytes were not measured).
  const Ran narrow = run_text(kernel(addr + "ld.u8 %rs1, [%rd2];"));
  ASSERT_EQ(narrow.run.sites.size(), 1u);
  EXPECT_FALSE(narrow.run.sites[0].counts_known);
  EXPECT_NE(narrow.run.sites[0].invalid.find("fewer than 4 bytes"), std::string::npos) << narrow.run.sites[0].invalid;
  const Ran global = run_text(kernel("ld.param.u64 %rd3, [k_param_1];\nld.u32 %r2, [%rd3];"));
  EXPECT_TRUE(global.run.sites.empty());
  EXPECT_TRUE(global.run.not_counted.empty());
}

// A parameter's address is a value (the param window): a struct field read through a register
// holding it (CUTLASS's Params) is the launch's bytes there; a TMA copy's tensor map operand names
// its parameter.
TEST(PtxExec, ParameterAddressesReadTheParameterAndNameTensorMaps) {
  const std::string body = "mov.b64 %rd1, k_param_1;\nld.param.u32 %r1, [%rd1+4];\nmov.u32 %r2, smem;\nmov.u32 %r3, %tid.x;\n"
                           "mad.lo.u32 %r4, %r3, %r1, %r2;\nst.shared.u32 [%r4], %r3;\n"
                           "cvta.param.u64 %rd2, %rd1;\nsetp.eq.u32 %p1, %r3, 0;\n"
                           "@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd2, {%r3, %r3}], [%r2];";
  Ran r{parse_ptx(kernel(body), "t.ptx"), {}, {}};
  decode_with_callees(r.program, select_entries(r.program, "k").at(0));
  r.launch.block = {32, 1, 1};
  r.launch.params = {std::nullopt, std::nullopt};
  r.launch.fields.push_back({1, 4, 4, 8});  // bytes 4..7 of parameter 1 hold 8
  r.run = run_kernel(r.program, select_entries(r.program, "k").at(0), r.launch);
  ASSERT_EQ(r.run.sites.size(), 1u);
  EXPECT_TRUE(r.run.sites[0].counts_known) << r.run.sites[0].unknown;
  EXPECT_EQ(r.run.sites[0].trace.instructions.at(0).addr[1] - r.run.sites[0].trace.instructions.at(0).addr[0], 8);
  ASSERT_EQ(r.run.async_ops.size(), 1u);
  const AsyncOp& op = r.run.async_ops[0];
  EXPECT_EQ(op.kind, AsyncOp::Kind::tma_load);
  ASSERT_TRUE(op.map_param.has_value());
  EXPECT_EQ(op.map_param->first, 1u);
  EXPECT_EQ(op.map_param->second, 0);
  ASSERT_TRUE(op.smem.has_value());
  EXPECT_EQ(*op.smem, static_cast<u64>(r.run.placements.at(0).base));
  ASSERT_EQ(op.coords.size(), 2u);  // {%r3, %r3}: thread 0's %tid.x
  EXPECT_EQ(op.coords[0], i64{0});
  EXPECT_EQ(op.coords[1], i64{0});
}

// A pipeline's operations in program order: the copies' coordinates, each expect_tx, each warp's
// mbarrier wait (its barrier and parity, once per warp) and each wgmma's accumulator and scale-d.
TEST(PtxExec, RecordsWaitsCoordinatesAndAccumulators) {
  const std::string body =
      "mov.u32 %r2, smem;\nmov.u32 %r3, %tid.x;\nmov.b64 %rd1, k_param_1;\ncvta.param.u64 %rd2, %rd1;\nsetp.eq.u32 %p1, %r3, 0;\n"
      "mov.u32 %r5, 64;\nmov.u32 %r6, 3;\nmov.u32 %r7, 1;\n"
      "@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 16384;\n"
      "@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd2, {%r5, %r6}], [%r2];\n"
      "mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r7;\n"
      "mov.b64 %rd3, 0;\nsetp.ne.b32 %p3, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f1, %f2, %f3, %f4}, %rd3, %rd3, %p3, 1, 1, 0, 0;";
  Ran r{parse_ptx(kernel(body), "t.ptx"), {}, {}};
  decode_with_callees(r.program, select_entries(r.program, "k").at(0));
  r.launch.block = {64, 1, 1};
  r.launch.params = {std::nullopt, std::nullopt};
  r.run = run_kernel(r.program, select_entries(r.program, "k").at(0), r.launch);
  std::vector<AsyncOp::Kind> kinds;
  for (const AsyncOp& a : r.run.async_ops) kinds.push_back(a.kind);
  using K = AsyncOp::Kind;
  EXPECT_EQ(kinds, (std::vector<K>{K::expect_tx, K::tma_load, K::wait, K::wgmma, K::wait, K::wgmma}));  // warp 0, then warp 1
  ASSERT_EQ(kinds.size(), 6u);
  const AsyncOp& copy = r.run.async_ops.at(1);
  ASSERT_EQ(copy.coords.size(), 2u);
  EXPECT_EQ(copy.coords[0], i64{64});
  EXPECT_EQ(copy.coords[1], i64{3});
  const AsyncOp& wait = r.run.async_ops.at(4);
  EXPECT_EQ(wait.warp, 1);
  EXPECT_EQ(wait.barrier, copy.barrier);
  EXPECT_EQ(wait.parity, u64{1});
  const AsyncOp& mma = r.run.async_ops.at(3);
  EXPECT_EQ(mma.accumulator, "{%f1, %f2, %f3, %f4");
  EXPECT_EQ(mma.scale_d, true);
}

// %cluster_*: from --cluster and the CTA; not known without the cluster's shape.
TEST(PtxExec, ClusterRegistersNeedTheClustersShape) {
  const std::string body = "mov.u32 %r1, %cluster_ctarank;\nmov.u32 %r2, %cluster_nctarank;\nmov.u32 %r3, smem;\n"
                           "mad.lo.u32 %r4, %r1, 64, %r3;\nadd.u32 %r4, %r4, %r2;\nst.shared.u8 [%r4], %r1;";
  Ran r{parse_ptx(kernel(body), "t.ptx"), {}, {}};
  decode_with_callees(r.program, select_entries(r.program, "k").at(0));
  r.launch.block = {32, 1, 1};
  r.launch.params = {std::nullopt, std::nullopt};
  r.launch.grid = {4, 2, 1};
  r.launch.cta = {3, 1, 0};
  r.launch.cluster = std::array<i64, 3>{2, 2, 1};
  r.run = run_kernel(r.program, select_entries(r.program, "k").at(0), r.launch);
  ASSERT_EQ(r.run.sites.size(), 1u);
  // CTA (3,1,0) in a 2x2 cluster: (1,1), rank 1 + 1 * 2 = 3 of 4.
  EXPECT_EQ(r.run.sites[0].trace.instructions.at(0).addr[0] - r.run.placements.at(0).base, 3 * 64 + 4);
  r.launch.cluster.reset();
  r.run = run_kernel(r.program, select_entries(r.program, "k").at(0), r.launch);
  ASSERT_EQ(r.run.sites.size(), 1u);
  EXPECT_NE(r.run.sites[0].unknown.find("give --cluster"), std::string::npos) << r.run.sites[0].unknown;
}

TEST(PtxExec, SharedAccessesOutsideTheModelAreListedWithWhy) {
  // A distributed-shared-memory store, a generic load through a shared-space address that was not
  // converted (on the hardware not in the window), a generic store whose address is not known, a
  // call into code the file does not hold: listed, none counted. A generic store through a known
  // global address and cvta itself: neither.
  const Ran r = run_text(kernel("mov.u32 %r1, smem;\nst.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r1, [%r1];\n"
                                "cvt.u64.u32 %rd2, %r1;\nld.u32 %r2, [%rd2];\n"
                                "ld.global.u64 %rd3, [%rd2];\nst.u32 [%rd3], %r2;\ncall.uni ext, ();\nld.param.u64 %rd4, [k_param_1];\n"
                                "st.u32 [%rd4], 1;",
                                ".extern .func ext();\n"),
                         32, {std::nullopt, 4096});
  EXPECT_TRUE(r.run.sites.empty());
  ASSERT_EQ(r.run.not_counted.size(), 4u);
  EXPECT_NE(r.run.not_counted[0].why.find("st.async"), std::string::npos);
  EXPECT_NE(r.run.not_counted[1].why.find("a shared-space address that was not converted with cvta.shared"), std::string::npos)
      << r.run.not_counted[1].why;
  EXPECT_NE(r.run.not_counted[2].why.find("st.u32 may touch shared memory and is not counted: a generic access whose address is not "
                                           "known (line 19: a value loaded from global memory"),
            std::string::npos)
      << r.run.not_counted[2].why;
  EXPECT_NE(r.run.not_counted[3].why.find("may touch shared memory and is not counted: a call to ext, which has no body in this file"),
            std::string::npos);
  for (int i : {0, 1}) EXPECT_NE(r.run.not_counted[static_cast<std::size_t>(i)].why.find(" touches shared memory and is not counted: "), std::string::npos);
}

// The kernel's totals sum its sites: an access listed as not counted that Nsight Compute may count
// among the shared-memory instructions leaves them not known, saying which; mbarrier operations and
// the non-tensor bulk copy (SYNCS, ARRIVES, UBLKCP: measured with no shared wavefront) do not.
TEST(PtxExec, TotalsAreNotKnownWhereANotCountedAccessMayAddToThem) {
  const std::string counted = "mov.u32 %r1, smem;\nst.shared.u32 [%r1], %r1;\n";
  const Ran generic = run_text(kernel(counted + "cvt.u64.u32 %rd2, %r1;\nld.global.u64 %rd3, [%rd2];\nst.u32 [%rd3], 1;"), 32, {std::nullopt, 4096});
  ASSERT_EQ(generic.run.sites.size(), 1u);
  EXPECT_TRUE(counts_unknown(generic.run, generic.run.sites[0]).empty());  // the site itself is counted
  ASSERT_EQ(generic.run.not_counted.size(), 1u);
  EXPECT_FALSE(generic.run.not_counted[0].outside_totals);
  const std::string why = totals_unknown(generic.run);
  EXPECT_EQ(why.rfind("line " + std::to_string(generic.run.not_counted[0].line) + ": st.u32 may touch shared memory", 0), 0u) << why;

  const Ran ldmatrix = run_text(kernel(counted + "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r2, %r3}, [%r1];"));
  ASSERT_EQ(ldmatrix.run.not_counted.size(), 1u);
  EXPECT_FALSE(totals_unknown(ldmatrix.run).empty());  // an LDSM all the same: its wavefronts would be left out

  const Ran barriers = run_text(kernel(counted + "mbarrier.init.shared.b64 [%r1+8], 32;\n"
                                                 "mbarrier.arrive.shared.b64 %rd4, [%r1+8];\n"
                                                 "cp.async.mbarrier.arrive.shared.b64 [%r1+8];\n"
                                                 "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1+64], [%rd1], 16, [%r1+8];\n"
                                                 "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1+1024], [%rd1, {%r1, %r1}], [%r1+8];"));
  ASSERT_EQ(barriers.run.not_counted.size(), 5u);
  for (const NotCounted& n : barriers.run.not_counted) EXPECT_TRUE(n.outside_totals) << n.why;
  EXPECT_EQ(totals_unknown(barriers.run), "");
  // A TMA store reads shared memory, and a wgmma does (HGMMA: 8 wavefronts per warp at one shape):
  // both leave the totals not known.
  const Ran store = run_text(kernel(counted + "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd1, {%r1, %r1}], [%r1+1024];"));
  ASSERT_EQ(store.run.not_counted.size(), 1u);
  EXPECT_FALSE(totals_unknown(store.run).empty());
}

TEST(PtxExec, UnknownValuesCarryTheirReasonNeverAGuess) {
  const std::string store = "\nmov.u32 %r4, smem;\nadd.u32 %r5, %r4, %r2;\nst.shared.u32 [%r5], %r1;";
  const auto reason = [&](const std::string& body, std::vector<std::optional<u64>> params = {}) {
    const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\n" + body + store), 32, params);
    const Site& s = r.run.sites.at(0);
    EXPECT_FALSE(s.counts_known);
    EXPECT_TRUE(s.trace.instructions.empty());
    return s.unknown;
  };
  // A free parameter is a symbol; what is neither affine in it nor a derived symbol (ptx_exec.hpp
  // Derived: shifts, products, min/max, ...) is unknown, naming the operation.
  EXPECT_NE(reason("ld.param.u32 %r3, [k_param_0];\npopc.b32 %r2, %r3;").find("popc.b32 of a value computed from a free parameter: not affine"),
            std::string::npos);
  EXPECT_NE(reason("ld.param.u32 %r3, [k_param_0];\nbrev.b32 %r2, %r3;").find("brev.b32 of a value computed from a free parameter: not affine"),
            std::string::npos);
  // A product of two terms, a shift, a 32-bit term (3k mod 2^32) at 64 bits: derived symbols, no unknown lane.
  EXPECT_EQ(reason("ld.param.u32 %r3, [k_param_0];\nmul.lo.u32 %r2, %r3, %r3;"), "");
  EXPECT_EQ(reason("ld.param.u32 %r3, [k_param_0];\nshr.u32 %r2, %r3, 1;"), "");
  EXPECT_EQ(reason("ld.param.u32 %r3, [k_param_0];\nmul.lo.u32 %r4, %r3, 3;\ncvt.u64.u32 %rd1, %r4;\nadd.u64 %rd2, %rd1, 4;\ncvt.u32.u64 %r2, %rd2;"), "");
  // P itself zero-extended is exact at any width (it never wraps): k + 4 at 64 bits is a term.
  const Ran whole = run_text(kernel("mov.u32 %r1, %tid.x;\nld.param.u32 %r3, [k_param_0];\ncvt.u64.u32 %rd1, %r3;\nadd.u64 %rd2, %rd1, 4;\n"
                                    "cvt.u32.u64 %r2, %rd2;\nmov.u32 %r4, smem;\nadd.u32 %r5, %r4, %r2;\nst.shared.u32 [%r5], %r1;"));
  EXPECT_EQ(whole.run.sites.at(0).symbolic.size(), 1u);
  EXPECT_NE(reason("ld.param.u64 %rd1, [k_param_1];\nld.global.u32 %r2, [%rd1];").find("loaded from global memory"), std::string::npos);
  EXPECT_NE(reason("mov.u32 %r2, %warpid;").find("%warpid"), std::string::npos);
  EXPECT_NE(reason("ex2.approx.f32 %r2, %r1;").find("floating-point"), std::string::npos);  // approximations are not modelled
  EXPECT_NE(reason("add.f16x2 %r2, %r1, %r1;").find("floating-point"), std::string::npos);     // nor half precision
  EXPECT_NE(reason("vabsdiff.u32.u32.u32 %r2, %r1, %r1, %r1;").find("vabsdiff.u32.u32.u32 is not modelled"), std::string::npos);
  EXPECT_NE(reason("div.u32 %r2, %r1, 0;").find("division by zero"), std::string::npos);
  EXPECT_NE(reason("add.u32 %r2, %r9, 1;").find("read before it is written"), std::string::npos);
  // A fixed parameter is known.
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nld.param.u32 %r2, [k_param_0];" + store), 32, {u64{64}});
  EXPECT_EQ(r.run.sites.at(0).trace.instructions.at(0).addr[0], 64);
}

// A free parameter k is a symbol P; the address smem + 4 * (3 * k - tid + 5) is, per lane, the term
// c0 = smem + 4 * (5 - tid), c_0 = 12 (mod 2^32), computed here from the formula.
TEST(PtxExec, AFreeParameterIsAnAffineTermPerLane) {
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nld.param.u32 %r2, [k_param_0];\nmul.lo.s32 %r3, %r2, 3;\nsub.s32 %r3, %r3, %r1;\n"
                                "add.s32 %r3, %r3, 5;\nshl.b32 %r3, %r3, 2;\nmov.u32 %r4, smem;\nadd.u32 %r5, %r4, %r3;\nst.shared.u32 [%r5], %r1;"));
  const Site& s = r.run.sites.at(0);
  ASSERT_EQ(s.symbolic.size(), 1u);
  EXPECT_TRUE(s.trace.instructions.empty());
  EXPECT_EQ(s.unknown_issues, 0);
  ASSERT_EQ(r.run.symbols.size(), 1u);
  EXPECT_EQ(r.run.symbols[0].bits, 32);
  for (int l = 0; l < kWarpLanes; ++l) {
    const Term& t = s.symbolic[0].addr[static_cast<std::size_t>(l)];
    EXPECT_EQ(t.w, 32);
    EXPECT_EQ(t.c[0], 12u);
    EXPECT_EQ(t.c0, static_cast<u64>(4 * (5 - l)) & 0xffffffffu);
    for (const u64 k : {u64{0}, u64{7}, u64{0xfffffff0}})  // the term equals the concrete run's address
      EXPECT_EQ(evaluate(t, {k}), (4 * (3 * k - static_cast<u64>(l) + 5)) & 0xffffffffu);
  }
  // The same kernel with k fixed: the addresses the term gives.
  const Ran f = run_text(kernel("mov.u32 %r1, %tid.x;\nld.param.u32 %r2, [k_param_0];\nmul.lo.s32 %r3, %r2, 3;\nsub.s32 %r3, %r3, %r1;\n"
                                "add.s32 %r3, %r3, 5;\nshl.b32 %r3, %r3, 2;\nmov.u32 %r4, smem;\nadd.u32 %r5, %r4, %r3;\nst.shared.u32 [%r5], %r1;"),
                         32, {u64{7}});
  for (int l = 0; l < kWarpLanes; ++l)
    EXPECT_EQ(static_cast<u64>(f.run.sites.at(0).trace.instructions.at(0).addr[static_cast<std::size_t>(l)]),
              evaluate(s.symbolic[0].addr[static_cast<std::size_t>(l)], {7}));
}

// A bitwise operation of a term with known operands (and/or/xor with a constant or a lane's
// %tid, lop3, bfe from bit 0) is a term where it is affine: wherever the run keeps one, it equals
// the concrete run's address at every k tried (soundness, every case); the forms that are affine
// are kept (completeness, the `affine` cases), and k & ~15 = 16 (k >> 4) is not.
TEST(PtxExec, BitOperationsOnATermAreTermsWhereAffine) {
  const auto text = [](int s, const std::string& op) {
    return kernel("mov.u32 %r1, %tid.x;\nld.param.u32 %r2, [k_param_0];\nshl.b32 %r3, %r2, " + std::to_string(s) + ";\nadd.u32 %r3, %r3, 5;\n" +
                  op + "\nmov.u32 %r4, smem;\nadd.u32 %r5, %r4, %r6;\nst.shared.u8 [%r5], %r1;");
  };
  // %r3 = (k << s) + 5: its low s bits are 5's (known), the rest k's.
  const std::vector<std::string> ops = {
      "and.b32 %r6, %r3, -8;", "and.b32 %r6, %r3, -32;", "and.b32 %r6, %r3, 7;", "and.b32 %r6, %r3, 0;", "and.b32 %r6, %r3, -16;",
      "and.b32 %r6, %r3, 2147483647;", "and.b32 %r6, %r3, 65535;", "or.b32 %r6, %r3, %r1;", "or.b32 %r6, %r3, 2;", "or.b32 %r6, %r3, 64;",
      "xor.b32 %r6, %r3, %r1;", "xor.b32 %r6, %r3, -2147483648;", "xor.b32 %r6, %r3, 3;", "xor.b32 %r6, %r3, 32;",
      "lop3.b32 %r6, %r3, %r1, 7, 0xc0;", "lop3.b32 %r6, %r3, %r1, 7, 0xfc;", "lop3.b32 %r6, %r3, %r1, 7, 0x3c;",
      "lop3.b32 %r6, %r1, %r3, 24, 0x96;", "lop3.b32 %r6, %r3, %r1, -32, 0xe8;", "lop3.b32 %r6, 31, %r3, %r1, 0x6a;",
      "not.b32 %r7, %r3;\nand.b32 %r6, %r7, -32;", "bfe.u32 %r6, %r3, 0, 32;", "bfe.u32 %r6, %r3, 0, 3;", "bfe.u32 %r6, %r3, 2, 8;"};
  int kept = 0;
  for (const int s : {0, 2, 5}) {
    for (const std::string& op : ops) {
      const Ran sym = run_text(text(s, op));
      if (sym.run.sites.at(0).symbolic.empty()) continue;
      ++kept;
      const SymbolicIssue& is = sym.run.sites.at(0).symbolic.at(0);
      for (const u64 k : {u64{0}, u64{1}, u64{3}, u64{7}, u64{100}, u64{0x7fffffff}, u64{0x80000000}, u64{0xfffffffe}}) {
        const Ran c = run_text(text(s, op), 32, {k});
        const auto& in = c.run.sites.at(0).trace.instructions.at(0);
        for (int l = 0; l < kWarpLanes; ++l)
          EXPECT_EQ(evaluate(is.addr[static_cast<std::size_t>(l)], symbol_values(sym.run.symbols, {k})), static_cast<u64>(in.addr[static_cast<std::size_t>(l)]))
              << op << " s=" << s << " k=" << k << " lane " << l;
      }
    }
  }
  EXPECT_GE(kept, 20);  // truncations (and 7, bfe 0, 3) and constants (and 0) are not kept past the add: a known or unknown address
  const auto affine = [&](int s, const std::string& op) { return !run_text(text(s, op)).run.sites.at(0).symbolic.empty(); };
  EXPECT_TRUE(affine(5, "and.b32 %r6, %r3, -8;"));   // clears known low bits: 32k + 0
  EXPECT_TRUE(affine(5, "or.b32 %r6, %r3, %r1;"));   // ORs t < 32 onto 32k + 5: known bits
  EXPECT_TRUE(affine(5, "xor.b32 %r6, %r3, %r1;"));
  EXPECT_TRUE(affine(5, "lop3.b32 %r6, %r3, %r1, 7, 0x3c;"));
  EXPECT_TRUE(affine(0, "xor.b32 %r6, %r3, -2147483648;"));  // the top bit: + 2^31
  EXPECT_TRUE(affine(0, "bfe.u32 %r6, %r3, 0, 32;"));
  // Not affine: 16 (k >> 4), a bit of k's set: derived symbols (ptx_exec.hpp Derived), whose values the
  // loop above checked against the concrete run; a bit field is neither.
  const auto derived = [&](int s, const std::string& op) {
    const Ran r = run_text(text(s, op));
    return std::any_of(r.run.symbols.begin(), r.run.symbols.end(), [](const Symbol& y) { return y.kind == Symbol::Kind::derived; });
  };
  EXPECT_TRUE(derived(0, "and.b32 %r6, %r3, -16;"));
  EXPECT_TRUE(derived(2, "or.b32 %r6, %r3, 64;"));
  EXPECT_FALSE(affine(2, "bfe.u32 %r6, %r3, 2, 8;"));  // a shift right of a field: not kept
}

TEST(PtxExec, ABranchOnAnUnknownValueStopsTheLanes) {
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nld.param.u32 %r2, [k_param_0];\n$L:\nmov.u32 %r4, smem;\n"
                                "st.shared.u32 [%r4], %r1;\nsub.s32 %r2, %r2, 1;\nsetp.ne.s32 %p1, %r2, 0;\n@%p1 bra $L;"));
  // k - 1 != 0 is a condition over the free parameter: the loop is summarized (exec/loop_summary.hpp),
  // its store kept for every iteration, its count not known.
  EXPECT_TRUE(r.run.stopped.empty()) << r.run.stopped;
  EXPECT_FALSE(r.run.sites.at(0).symbolic.empty());
  EXPECT_FALSE(r.run.sites.at(0).counts_known);
  // A branch to itself stops the lane at once, naming it (no step budget spent).
  Ran b{parse_ptx(kernel("$L:\nbra $L;"), "t.ptx"), {}, {}};
  decode_with_callees(b.program, 0);
  b.launch.block = {32, 1, 1};
  const KernelRun br = run_kernel(b.program, 0, b.launch);
  ASSERT_FALSE(br.not_modelled.empty());
  EXPECT_NE(br.not_modelled.back().find("a branch to itself"), std::string::npos) << br.not_modelled.back();
  EXPECT_LT(br.warp_steps, 10);
  // A loop without end stops at the step budget.
  Ran l{parse_ptx(kernel("mov.u32 %r5, 0;\n$L:\nadd.u32 %r5, %r5, 1;\nbra $L;"), "t.ptx"), {}, {}};
  decode_with_callees(l.program, 0);
  l.launch.block = {32, 1, 1};
  l.launch.max_warp_steps = 1000;
  // No shared-memory instruction is reachable from where it stopped: nothing is missing, and the run
  // notes why the lanes finished early.
  const KernelRun lr = run_kernel(l.program, 0, l.launch);
  EXPECT_TRUE(lr.stopped.empty()) << lr.stopped;
  ASSERT_FALSE(lr.not_modelled.empty());
  EXPECT_NE(lr.not_modelled.back().find("more than 1000 warp instructions"), std::string::npos) << lr.not_modelled.back();
  // With a shared store in the loop, the same budget stops the run: later issues would be missing.
  Ran s{parse_ptx(kernel("mov.u32 %r4, smem;\n$L:\nst.shared.u32 [%r4], %r4;\nbra $L;"), "t.ptx"), {}, {}};
  decode_with_callees(s.program, 0);
  s.launch.block = {32, 1, 1};
  s.launch.max_warp_steps = 1000;
  EXPECT_NE(run_kernel(s.program, 0, s.launch).stopped.find("more than 1000 warp instructions"), std::string::npos);
}

TEST(PtxExec, SharedMemoryOpsAndWidths) {
  const Ran r = run_text(kernel(
      "mov.u32 %r1, %tid.x;\nmov.u32 %r4, smem;\nshl.b32 %r2, %r1, 4;\nadd.u32 %r5, %r4, %r2;\n"
      "ld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r5];\nst.shared.v2.f32 [%r5+8], {%r10, %r11};\n"
      "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r14, %r15}, [%r5];\nstmatrix.sync.aligned.m8n8.x4.shared.b16 [%r5], {%r1, %r1, %r1, %r1};\n"
      "ld.param.u64 %rd1, [k_param_1];\ncp.async.ca.shared.global [%r5+4], [%rd1], 4;\natom.shared.add.u32 %r16, [%r5], 1;\n"
      "red.shared.add.u32 [%r5], 1;\nld.shared.b8 %rs1, [%r5+3];"));
  ASSERT_EQ(r.run.sites.size(), 8u);
  const std::vector<std::pair<std::string, int>> want = {{"ld", 16}, {"st", 8},  {"ldsm2", 16}, {"stsm4", 16},
                                                         {"ldgsts", 4}, {"atom", 4}, {"red", 4}, {"ld", 1}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.run.sites[i].op, want[i].first);
    EXPECT_EQ(r.run.sites[i].width_bytes, want[i].second);
    EXPECT_EQ(r.run.sites[i].trace.instructions.at(0).addr[1], 16 + (i == 1 ? 8 : i == 4 ? 4 : i == 7 ? 3 : 0));
  }
  EXPECT_EQ(r.run.sites[1].wavefronts, 4);  // st.64 at 16 l + 8: lanes l, l + 8 of a half-warp share banks
  EXPECT_EQ(r.run.sites[1].ideal, 2);
  EXPECT_TRUE(r.run.sites[5].counts_known);   // atom.shared.add.u32 at 16 l: the measured rule, 4 lanes per bank
  EXPECT_EQ(r.run.sites[5].wavefronts, 4);
  EXPECT_FALSE(r.run.sites[6].counts_known);  // PTX red: ptxas may make it POPC.INC or ADD, not counted
  EXPECT_FALSE(r.run.sites[4].counts_known);  // 4-byte cp.async, its global pointer not given: not counted
  EXPECT_EQ(r.run.sites[2].ideal, 2);         // ldmatrix.x2: two matrices
}

TEST(PtxExec, WarpCollectivesAndNotLaneAddressedOps) {
  // shfl.sync.idx from lane 3: every lane gets lane 3's value.
  expect_op("shfl.sync.idx.b32 %r2, %r1, 3, 31, -1;", [](u64) { return 3; });
  expect_op("shfl.sync.bfly.b32 %r2|%p1, %r1, 1, 31, -1;", [](u64 t) { return t ^ 1; });
  expect_op("shfl.sync.down.b32 %r2, %r1, 4, 31, -1;", [](u64 t) { return t + 4 <= 31 ? t + 4 : t; });
  expect_op("setp.lt.u32 %p1, %r1, 5;\nvote.sync.ballot.b32 %r2, %p1, -1;", [](u64) { return 31; });
  expect_op("activemask.b32 %r6;\nshr.u32 %r2, %r6, 28;", [](u64) { return 15; });
  // match.any: the lanes holding this lane's value (t & 3: 0x1111 << (t & 3) in the low 16 bits);
  // match.all: every lane's mask only where all are equal (t >> 5 is 0 in every lane), its predicate.
  expect_op("and.b32 %r6, %r1, 3;\nmatch.any.sync.b32 %r2, %r6, -1;", [](u64 t) { return 0x1111u << (t & 3); });
  expect_op("cvt.u64.u32 %rd1, %r1;\nshr.u64 %rd1, %rd1, 4;\nmatch.any.sync.b64 %r6, %rd1, -1;\npopc.b32 %r2, %r6;", [](u64) { return 16; });
  expect_op("shr.u32 %r6, %r1, 5;\nmatch.all.sync.b32 %r7|%p1, %r6, -1;\nselp.b32 %r2, 7, 0, %p1;\nand.b32 %r8, %r7, 0xff;\nadd.u32 %r2, %r2, %r8;",
            [](u64) { return 7 + 0xff; });
  expect_op("and.b32 %r6, %r1, 1;\nmatch.all.sync.b32 %r7|%p1, %r6, -1;\nselp.b32 %r2, 7, 0, %p1;\nadd.u32 %r2, %r2, %r7;", [](u64) { return 0; });
  const Ran r = run_text(kernel("mov.u32 %r4, smem;\ncp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd1], 16, [%r4];"));
  ASSERT_EQ(r.run.not_counted.size(), 1u);
  EXPECT_EQ(r.run.not_counted[0].why.rfind("cp.async.bulk", 0), 0u) << r.run.not_counted[0].why;
  EXPECT_NE(r.run.not_counted[0].why.find("touches shared memory and is not counted"), std::string::npos);
  EXPECT_TRUE(r.run.sites.empty());
}

TEST(PtxExec, SymbolsAreLaidOutInDeclarationOrderDynamicAfter) {
  const std::string decls = ".shared .align 4 .b8 a[6];\n.shared .align 8 .b8 b[8];\n";
  const Ran r = run_text(kernel("mov.u32 %r1, a;\nmov.u32 %r2, b;\nmov.u32 %r3, dyn;\nmov.u32 %r6, smem;\n"
                                "st.shared.u8 [%r1], %r1;\nst.shared.u8 [%r2], %r1;\nst.shared.u8 [%r3], %r1;\nst.shared.u8 [%r6], %r1;",
                                decls));
  // a at 0 (6 bytes), b at 8, smem at 16 (64 KiB), dyn at 65552 rounded up to 128: 65664.
  EXPECT_EQ(r.run.sites[0].trace.instructions[0].addr[0], 0);
  EXPECT_EQ(r.run.sites[1].trace.instructions[0].addr[0], 8);
  EXPECT_EQ(r.run.sites[2].trace.instructions[0].addr[0], 65664);
  EXPECT_EQ(r.run.sites[3].trace.instructions[0].addr[0], 16);
  EXPECT_EQ(r.run.sites[2].patterns[0].placement[0], 3);  // derived from dyn's placement
}

TEST(PtxExec, SymbolsLieWhereTheKernelAloneWouldPlaceThem) {
  // f declares a symbol of its own; k1 and k2 each declare one and call f. Decoding k1 first (as
  // spec entries sharing one Program do) appends f's symbol before k2's, which must not move
  // them: k2's own first (s2 at 0), then f's (fs at 32), as in a Program where k2 alone ran.
  const std::string store = ".reg .b32 %r<2>;\nmov.u32 %r1, %tid.x;\n";
  const auto call_f = [] { return "{\n.param .b32 p0;\nst.param.b32 [p0+0], %r1;\ncall.uni f, (p0);\n}\n"; };
  const std::string text =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".func f(.param .b32 f_a)\n{\n" + store + ".shared .align 4 .b8 fs[64];\nmov.u32 %r1, fs;\nst.shared.u32 [%r1], %r1;\nret;\n}\n"
      ".visible .entry k1()\n{\n" + store + ".shared .align 4 .b8 s1[16];\n" + call_f() + "mov.u32 %r1, s1;\nst.shared.u32 [%r1], %r1;\nret;\n}\n"
      ".visible .entry k2()\n{\n" + store + ".shared .align 4 .b8 s2[32];\n" + call_f() + "mov.u32 %r1, s2;\nst.shared.u32 [%r1], %r1;\nret;\n}\n";
  const auto bases = [](const Program& p, const KernelRun& run) {
    std::map<std::string, i64> out;
    for (const Placement& pl : run.placements) out[p.shared[pl.symbol].name] = pl.base;
    return out;
  };
  Launch l;
  l.block = {32, 1, 1};
  Program shared = parse_ptx(text, "t.ptx");
  const std::size_t k1 = select_entries(shared, "k1").at(0), k2 = select_entries(shared, "k2").at(0);
  decode_with_callees(shared, k1);
  decode_with_callees(shared, k2);
  Program alone = parse_ptx(text, "t.ptx");
  decode_with_callees(alone, k2);
  EXPECT_EQ(kernel_functions(shared, k2), (std::vector<std::size_t>{k2, 0}));  // f is the file's first function
  const KernelRun a = run_kernel(alone, k2, l), b = run_kernel(shared, k2, l);
  EXPECT_EQ(bases(alone, a), (std::map<std::string, i64>{{"s2", 0}, {"fs", 32}}));
  EXPECT_EQ(bases(shared, b), bases(alone, a));
  ASSERT_EQ(a.sites.size(), b.sites.size());
  for (std::size_t i = 0; i < a.sites.size(); ++i) EXPECT_EQ(a.sites[i].trace.instructions.at(0).addr, b.sites[i].trace.instructions.at(0).addr);
}

// The active lanes of an issue (bit k: lane k).
u32 active_lanes(const TraceInstruction& in) {
  u32 m = 0;
  for (int k = 0; k < kWarpLanes; ++k)
    if (in.addr[static_cast<std::size_t>(k)] >= 0) m |= u32{1} << k;
  return m;
}

TEST(PtxExec, ASkippedStoreIssuesForTheLanesThatRunIt) {
  // Odd lanes branch around a store: the even lanes' store is one 16-lane issue, then the paths
  // reconverge at the branch's immediate post-dominator and the second store issues for all 32.
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 1;\nsetp.ne.u32 %p1, %r2, 0;\n@%p1 bra $L_skip;\n"
                                "mov.u32 %r4, smem;\nst.shared.u32 [%r4], %r1;\n$L_skip:\nmov.u32 %r4, smem;\nst.shared.u32 [%r4+4], %r1;"));
  EXPECT_TRUE(r.run.sites[0].divergent.empty()) << r.run.sites[0].divergent;
  EXPECT_FALSE(r.run.sites[0].patterns[0].divergent);
  EXPECT_EQ(active_lanes(r.run.sites[0].trace.instructions[0]), 0x55555555u);  // odd lanes absent
  EXPECT_EQ(r.run.sites[1].executed, 1);                                       // the paths join again
  EXPECT_EQ(active_lanes(r.run.sites[1].trace.instructions[0]), 0xffffffffu);
  EXPECT_FALSE(r.run.sites[1].patterns[0].divergent);
}

// if (lane < 16) s[t] = t; else s[2t + 1] = t; then a load of s[2t] by all 32 lanes, with the
// join placed after both paths (`join_last`) or between them (the then-path falls into the join,
// the else-path, placed after the kernel's ret, branches back to it).
Ran if_else(bool join_last) {
  const std::string head = "mov.u32 %r1, %tid.x;\nmov.u32 %r2, smem;\nand.b32 %r3, %r1, 31;\nsetp.lt.u32 %p1, %r3, 16;\n@!%p1 bra $L_else;\n"
                           "shl.b32 %r4, %r1, 2;\nadd.u32 %r5, %r2, %r4;\nst.shared.u32 [%r5], %r1;\n";
  const std::string other = "$L_else:\nshl.b32 %r4, %r1, 3;\nadd.u32 %r5, %r2, %r4;\nst.shared.u32 [%r5+4], %r1;\n";
  const std::string join = "$L_join:\nshl.b32 %r6, %r1, 3;\nadd.u32 %r7, %r2, %r6;\nld.shared.u32 %r8, [%r7];\n";
  if (join_last) return run_text(kernel(head + "bra.uni $L_join;\n" + other + join));
  return run_text(kernel(head + join + "ret;\n" + other + "bra.uni $L_join;"));
}

TEST(PtxExec, DivergentPathsReconvergeAtTheImmediatePostDominator) {
  for (const bool join_last : {true, false}) {
    const Ran r = if_else(join_last);
    ASSERT_EQ(r.run.sites.size(), 3u);
    const Site& then_store = r.run.sites[0];
    const Site& else_store = r.run.sites[join_last ? 1 : 2];
    const Site& load = r.run.sites[join_last ? 2 : 1];
    ASSERT_EQ(load.op, "ld");
    // Each path's store: one issue of its 16 lanes, not divergent (the hardware's issue).
    EXPECT_EQ(then_store.executed, 1);
    EXPECT_EQ(active_lanes(then_store.trace.instructions.at(0)), 0x0000ffffu);
    EXPECT_EQ(else_store.executed, 1);
    EXPECT_EQ(active_lanes(else_store.trace.instructions.at(0)), 0xffff0000u);
    EXPECT_EQ(else_store.trace.instructions[0].addr[16], 16 * 8 + 4);
    EXPECT_TRUE(then_store.divergent.empty() && else_store.divergent.empty()) << then_store.divergent << else_store.divergent;
    // then: words t (t < 16), 16 banks, 1 wavefront; else: words 2t + 1 (t >= 16): banks 1, 3, .., 31, 1.
    EXPECT_EQ(then_store.wavefronts, 1);
    EXPECT_EQ(else_store.wavefronts, 1);
    // The load after the join: ONE issue of all 32 lanes at byte 8t, word 2t: bank 2t % 32, so lanes
    // t and t + 16 read words 2t and 2t + 32 of one bank: 2 wavefronts, ideal 1.
    EXPECT_EQ(load.executed, 1) << (join_last ? "join last" : "join between");
    ASSERT_EQ(load.trace.instructions.size(), 1u);
    EXPECT_EQ(active_lanes(load.trace.instructions[0]), 0xffffffffu);
    EXPECT_EQ(load.trace.instructions[0].addr[17], 8 * 17);
    EXPECT_EQ(load.wavefronts, 2);
    EXPECT_EQ(load.ideal, 1);
    EXPECT_TRUE(load.divergent.empty());
  }
}

TEST(PtxExec, ALoopWithADivergentExitIssuesEachIterationForItsLanes) {
  // for (i = 0; i < lane % 4; ++i) s[t] = i; then every lane loads byte 0.
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nmov.u32 %r2, smem;\nmov.u32 %r10, 0;\nand.b32 %r3, %r1, 3;\n"
                                "setp.eq.u32 %p1, %r3, 0;\n@%p1 bra $L_done;\n$L_loop:\nmad.lo.s32 %r5, %r1, 4, %r2;\n"
                                "st.shared.u32 [%r5], %r10;\nadd.u32 %r10, %r10, 1;\nsetp.lt.u32 %p2, %r10, %r3;\n@%p2 bra $L_loop;\n"
                                "$L_done:\nld.shared.u32 %r8, [%r2];"));
  const Site& st = r.run.sites.at(0);
  ASSERT_EQ(st.executed, 3);
  ASSERT_EQ(st.trace.instructions.size(), 3u);
  const u32 want[] = {0xeeeeeeeeu, 0xccccccccu, 0x88888888u};  // lane % 4 >= 1, 2, 3
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(active_lanes(st.trace.instructions[k]), want[k]) << k;
  EXPECT_TRUE(st.divergent.empty()) << st.divergent;
  const Site& ld = r.run.sites.at(1);
  EXPECT_EQ(ld.executed, 1);
  EXPECT_EQ(active_lanes(ld.trace.instructions.at(0)), 0xffffffffu);
  EXPECT_TRUE(ld.divergent.empty());
}

TEST(PtxExec, AnEarlyReturnLeavesTheOtherLanesOneIssue) {
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nand.b32 %r3, %r1, 31;\nsetp.ge.u32 %p1, %r3, 16;\n@%p1 ret;\n"
                                "mov.u32 %r2, smem;\nmad.lo.s32 %r5, %r1, 4, %r2;\nst.shared.u32 [%r5], %r1;"));
  EXPECT_EQ(r.run.sites.at(0).executed, 1);
  EXPECT_EQ(active_lanes(r.run.sites[0].trace.instructions.at(0)), 0x0000ffffu);
  EXPECT_TRUE(r.run.sites[0].divergent.empty()) << r.run.sites[0].divergent;
}

TEST(PtxExec, PathsThatMeetBeforeTheirJoinAreMarkedDivergent) {
  // Lanes >= 16 store A then jump to T; lanes < 16 store B, and lanes 8-15 fall into T too: T is
  // reached by both paths before their join (END), where the hardware may or may not merge them.
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nmov.u32 %r2, smem;\nand.b32 %r3, %r1, 31;\nsetp.lt.u32 %p1, %r3, 16;\n"
                                "@%p1 bra $L_b;\nst.shared.u32 [%r2], %r1;\nbra.uni $L_t;\n$L_b:\nst.shared.u32 [%r2+4], %r1;\n"
                                "setp.lt.u32 %p2, %r3, 8;\n@%p2 bra $L_end;\n$L_t:\nst.shared.u32 [%r2+8], %r1;\n$L_end:\n"
                                "ld.shared.u32 %r8, [%r2];"));
  ASSERT_EQ(r.run.sites.size(), 4u);
  EXPECT_FALSE(r.run.sites[2].divergent.empty());  // T: how the hardware groups it is not known
  EXPECT_TRUE(r.run.sites[2].patterns.at(0).divergent);
  EXPECT_FALSE(r.run.sites[0].divergent.empty());  // the whole region is not modelled
  const Site& ld = r.run.sites[3];                 // after END: together again
  EXPECT_EQ(ld.executed, 1);
  EXPECT_EQ(active_lanes(ld.trace.instructions.at(0)), 0xffffffffu);
  EXPECT_TRUE(ld.divergent.empty()) << ld.divergent;
}

TEST(PtxExec, ADivergentCallReconvergesAfterTheCall) {
  // Lanes < 16 call f (a store at s[t]); every lane then stores at s[32 + t]: one 32-lane issue.
  const std::string f = ".func f(.param .b32 f_a)\n{\n.reg .b32 %r<4>;\nld.param.u32 %r1, [f_a];\nmov.u32 %r2, fs;\n"
                        "mad.lo.s32 %r3, %r1, 4, %r2;\nst.shared.u32 [%r3], %r1;\nret;\n}\n";
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nand.b32 %r3, %r1, 31;\nsetp.lt.u32 %p1, %r3, 16;\n{\n.param .b32 p0;\n"
                                "st.param.b32 [p0+0], %r1;\n@%p1 call.uni f, (p0);\n}\nmov.u32 %r2, smem;\n"
                                "mad.lo.s32 %r5, %r1, 4, %r2;\nst.shared.u32 [%r5+128], %r1;",
                                ".shared .align 4 .b8 fs[256];\n" + f));
  ASSERT_EQ(r.run.sites.size(), 2u);
  const Site& in_f = r.run.sites[0].line < r.run.sites[1].line ? r.run.sites[0] : r.run.sites[1];
  const Site& after = r.run.sites[0].line < r.run.sites[1].line ? r.run.sites[1] : r.run.sites[0];
  EXPECT_EQ(active_lanes(in_f.trace.instructions.at(0)), 0x0000ffffu);
  EXPECT_TRUE(in_f.divergent.empty()) << in_f.divergent;
  EXPECT_EQ(after.executed, 1);
  EXPECT_EQ(active_lanes(after.trace.instructions.at(0)), 0xffffffffu);
  EXPECT_TRUE(after.divergent.empty()) << after.divergent;
}

TEST(PtxExec, CtaDependenceIsRecordedEvenWhereCta0HasNoActiveLane) {
  // if (blockIdx.x > 0) store: CTA (0,0,0) never stores, another CTA does.
  const Ran g = run_text(kernel("mov.u32 %r1, %ctaid.x;\nsetp.gt.u32 %p1, %r1, 0;\nmov.u32 %r4, smem;\n@%p1 st.shared.u32 [%r4], %r1;"));
  EXPECT_TRUE(g.run.sites.at(0).cta_dependent);
  EXPECT_TRUE(g.run.sites.at(0).trace.instructions.empty());
  const Ran b = run_text(kernel("mov.u32 %r1, %ctaid.x;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra $L_end;\nmov.u32 %r4, smem;\n"
                                "st.shared.u32 [%r4], %r1;\n$L_end:"));
  EXPECT_TRUE(b.run.cta_control);
  EXPECT_EQ(b.run.sites.at(0).executed, 0);
}

TEST(PtxExec, ReplayReproducesAnIssue) {
  const Ran r = run_text(kernel("mov.u32 %r1, %tid.x;\nmov.u32 %r4, smem;\nmad.lo.s32 %r5, %r1, 128, %r4;\nst.shared.u32 [%r5], %r1;"), 64);
  const Site& s = r.run.sites.at(0);
  ASSERT_EQ(s.trace.instructions.size(), 2u);
  const auto a = replay_issue(r.program, r.run.entry, r.launch, s.function, s.pc, 1, 0);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(*a, s.trace.instructions[1].addr);
  EXPECT_FALSE(replay_issue(r.program, r.run.entry, r.launch, s.function, s.pc, 1, 1).has_value());  // no second issue
}

TEST(PtxExec, BadLaunchesAreRefused) {
  Program p = parse_ptx(kernel("mov.u32 %r1, smem;"), "t.ptx");
  decode_with_callees(p, 0);
  Launch l;
  l.block = {1025, 1, 1};
  EXPECT_THROW((void)run_kernel(p, 0, l), LayoutError);
  l.block = {32, 1, 1};
  l.dynamic_smem_bytes = kSmemBytes;
  EXPECT_THROW((void)run_kernel(p, 0, l), LayoutError);  // 64 KiB static + 227 KiB dynamic
  l.dynamic_smem_bytes = -1;
  l.params.assign(3, std::nullopt);
  EXPECT_THROW((void)run_kernel(p, 0, l), LayoutError);
}

}  // namespace
}  // namespace layoutproof::compiled
