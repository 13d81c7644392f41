// model/compiled/launch.hpp: a compiled kernel's launch planned before it runs: the C++ signature
// read from the mangled name, parameter values and their types' ranges, the block from --block,
// .reqntid (.maxntid only bounds it), CUDA's limits, SASS's shared-memory window, and --param spelled back.
#include "model/compiled/launch.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "model/compiled/ptx_parse.hpp"

namespace layoutproof::compiled {
namespace {

// broadcast(float*, int) with .reqntid 64, and an extern "C" kernel `plain(.u32)` with no block
// directive. Planning reads headers alone: the bodies are never decoded here.
const char* kTwoKernels =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry _Z9broadcastPfi(.param .u64 _Z9broadcastPfi_param_0, .param .u32 _Z9broadcastPfi_param_1)\n"
    ".reqntid 64, 1, 1\n{\nret;\n}\n"
    ".visible .entry plain(.param .u32 plain_param_0, .param .align 8 .b8 plain_param_1[16])\n{\nret;\n}\n";

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const LayoutError& e) {
    return e.what();
  }
  return "";
}

PtxParamRequest fixed(const std::string& key, const std::string& value) {
  return {key, parse_ptx_param_value(value, "--param " + key), {0, 0}, "--param " + key + "=" + value};
}

TEST(Launch, CxxSignatureGivesOffsetsSizesAndSigns) {
  const CxxSignature s = cxx_signature("stages(float*, int)");
  EXPECT_EQ(s.listed, 2);
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(s.params[0].type, "float*");
  EXPECT_EQ(s.params[0].offset, 0);
  EXPECT_EQ(s.params[0].size, 8);
  EXPECT_EQ(s.params[0].kind, TypeKind::u);  // a pointer: unsigned
  EXPECT_EQ(s.params[1].offset, 8);
  EXPECT_EQ(s.params[1].size, 4);
  EXPECT_EQ(s.params[1].kind, TypeKind::s);  // int: signed, though PTX says .u32
  // Natural alignment: a char then a double puts the double at byte 8.
  const CxxSignature c = cxx_signature("f(char, double const)");
  ASSERT_EQ(c.params.size(), 2u);
  EXPECT_EQ(c.params[1].offset, 8);
  // A type whose size the name does not tell ends the layout, not the count.
  const CxxSignature t = cxx_signature("g(int, Params<4>, int)");
  EXPECT_EQ(t.listed, 3);
  EXPECT_EQ(t.params.size(), 1u);
  EXPECT_EQ(cxx_signature("h()").listed, 0);
  EXPECT_EQ(cxx_signature("h(void)").listed, 0);
  EXPECT_EQ(cxx_signature("plain").listed, -1);  // extern "C": no signature
}

TEST(Launch, ParamValuesKeepTheirSign) {
  const PtxParamValue m = parse_ptx_param_value("-1", "v");
  EXPECT_EQ(m.bits, ~u64{0});
  EXPECT_TRUE(m.negative);
  const PtxParamValue big = parse_ptx_param_value("18446744073709551615", "v");
  EXPECT_EQ(big.bits, ~u64{0});
  EXPECT_FALSE(big.negative);  // 2^64 - 1 and -1: the same bits, apart
  EXPECT_EQ(parse_ptx_param_value("0x10", "v").bits, 16u);
  EXPECT_FALSE(parse_ptx_param_value("-0", "v").negative);
  EXPECT_NE(message_of([] { (void)parse_ptx_param_value("18446744073709551616", "v"); }).find("fits in 64 bits"), std::string::npos);
  EXPECT_NE(message_of([] { (void)parse_ptx_param_value("-9223372036854775809", "v"); }).find("fits in 64 bits"), std::string::npos);
  EXPECT_NE(message_of([] { (void)parse_ptx_param_value("12a", "v"); }).find("decimal or 0x hex"), std::string::npos);
}

TEST(Launch, BlockFromFlagThenReqntid) {
  const Program p = parse_ptx(kTwoKernels, "t.ptx");
  PtxLaunchRequest r;
  const std::vector<PtxKernelLaunch> planned = plan_ptx_launches(p, "broadcast", r);
  ASSERT_EQ(planned.size(), 1u);
  EXPECT_EQ(planned[0].launch.block, (std::array<i64, 3>{64, 1, 1}));
  EXPECT_EQ(planned[0].block_from, ".reqntid");
  EXPECT_EQ(planned[0].launch.grid, (std::array<i64, 3>{1, 1, 1}));
  EXPECT_EQ(planned[0].launch.params, (std::vector<std::optional<u64>>{std::nullopt, std::nullopt}));  // free
  r.block = std::array<i64, 3>{128, 2, 1};
  r.smem_bytes = 4096;
  const PtxKernelLaunch given = plan_ptx_launches(p, "broadcast", r).at(0);
  EXPECT_EQ(given.launch.block, (std::array<i64, 3>{128, 2, 1}));
  EXPECT_EQ(given.block_from, "--block");
  EXPECT_EQ(given.launch.dynamic_smem_bytes, 4096);
  // A kernel with neither directive needs --block.
  EXPECT_NE(message_of([&] { (void)plan_ptx_launches(p, "plain", PtxLaunchRequest{}); }).find("give the block size"), std::string::npos);
  EXPECT_NE(message_of([&] { (void)plan_ptx_launches(p, "nothing", PtxLaunchRequest{}); }).find("kernels: _Z9broadcastPfi, plain"),
            std::string::npos);
}

// `__launch_bounds__(256)` is .maxntid 256, 1, 1: an upper bound, not the block. Taking it as the
// block ran a kernel launched 16x16 as 256x1x1 and refuted its in-bounds claim falsely.
TEST(Launch, MaxntidBoundsTheBlockAndIsNotIt) {
  const Program p = parse_ptx(".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry bounded(.param .u32 bounded_param_0)\n.maxntid 256, 1, 1\n{\nret;\n}\n",
                              "t.ptx");
  const std::string none = message_of([&] { (void)plan_ptx_launches(p, "bounded", PtxLaunchRequest{}); });
  EXPECT_NE(none.find("says at most 256 threads"), std::string::npos) << none;
  EXPECT_NE(none.find("give --block"), std::string::npos) << none;
  PtxLaunchRequest r;
  r.block = std::array<i64, 3>{16, 16, 1};
  const PtxKernelLaunch k = plan_ptx_launches(p, "bounded", r).at(0);
  EXPECT_EQ(k.launch.block, (std::array<i64, 3>{16, 16, 1}));
  EXPECT_EQ(k.block_from, "--block");
  r.block = std::array<i64, 3>{32, 16, 1};  // 512 > 256: CUDA refuses the launch
  const std::string over = message_of([&] { (void)plan_ptx_launches(p, "bounded", r); });
  EXPECT_NE(over.find("512 threads, but bounded's `__launch_bounds__` (.maxntid) allows at most 256"), std::string::npos) << over;
}

TEST(Launch, CudaLimits) {
  EXPECT_NO_THROW(check_block_dims({1024, 1, 1}, "--block"));
  EXPECT_NE(message_of([] { check_block_dims({1, 1, 65}, "--block"); }).find("its z is 65"), std::string::npos);
  EXPECT_NE(message_of([] { check_block_dims({32, 32, 2}, "--block"); }).find("2048 threads"), std::string::npos);
  EXPECT_NE(message_of([] { check_grid_dims({0, 1, 1}, "--grid"); }).find("its x is 0"), std::string::npos);
  EXPECT_NO_THROW(check_grid_dims({2147483647, 65535, 65535}, "--grid"));
}

TEST(Launch, ParamsTakeTheirCxxTypesValues) {
  const Program p = parse_ptx(kTwoKernels, "t.ptx");
  PtxLaunchRequest r;
  r.params = {fixed("1", "-5")};
  const PtxKernelLaunch k = plan_ptx_launches(p, "broadcast", r).at(0);
  // Its 64 bits as written; the run reads the parameter's 32 of them.
  EXPECT_EQ(mask_bits(*k.launch.params[1], 32), u64{0xfffffffb});
  EXPECT_EQ(ptx_param_text(p.functions[k.entry], 1, 0xfffffffb), "-5");  // int: read signed
  // int k: 2^31 is past its range although .u32 holds it.
  r.params = {fixed("1", "2147483648")};
  EXPECT_NE(message_of([&] { (void)plan_ptx_launches(p, "broadcast", r); }).find("takes values in [-2147483648, 2147483647]"),
            std::string::npos);
  // The same parameter by index and by name: given twice.
  r.params = {fixed("1", "5"), fixed("_Z9broadcastPfi_param_1", "6")};
  EXPECT_NE(message_of([&] { (void)plan_ptx_launches(p, "broadcast", r); }).find("is also given by --param 1=5"), std::string::npos);
  // extern "C" .u32: either spelling of its bits.
  r.params = {fixed("0", "-1")};
  r.block = std::array<i64, 3>{32, 1, 1};
  EXPECT_EQ(mask_bits(*plan_ptx_launches(p, "plain", r).at(0).launch.params[0], 32), u64{0xffffffff});
  r.params = {fixed("0", "4294967295")};
  EXPECT_EQ(mask_bits(*plan_ptx_launches(p, "plain", r).at(0).launch.params[0], 32), u64{0xffffffff});
  // An aggregate takes fields, each of its own width, inside its bytes.
  r.params = {fixed("1+8:4", "7")};
  const Launch agg = plan_ptx_launches(p, "plain", r).at(0).launch;
  ASSERT_EQ(agg.fields.size(), 1u);
  EXPECT_EQ(agg.fields[0].param, 1u);
  EXPECT_EQ(agg.fields[0].offset, 8);
  EXPECT_EQ(agg.fields[0].bytes, 4);
  EXPECT_EQ(agg.fields[0].value, 7u);
  r.params = {fixed("1", "7")};
  EXPECT_NE(message_of([&] { (void)plan_ptx_launches(p, "plain", r); }).find("16-byte aggregate"), std::string::npos);
  r.params = {fixed("1+14:4", "7")};
  EXPECT_NE(message_of([&] { (void)plan_ptx_launches(p, "plain", r); }).find("passes the end"), std::string::npos);
  r.params = {fixed("2", "7")};
  EXPECT_NE(message_of([&] { (void)plan_ptx_launches(p, "plain", r); }).find("the most any has is 2"), std::string::npos);
  // A range is signed values of the parameter's width.
  PtxParamRequest range{"1", std::nullopt, {0, 63}, "--param-range 1=0..63"};
  r.block.reset();
  r.params = {range};
  const Launch ranged = plan_ptx_launches(p, "broadcast", r).at(0).launch;
  ASSERT_EQ(ranged.ranges.size(), 1u);
  EXPECT_EQ(ranged.ranges[0].hi, 63);
  r.params = {PtxParamRequest{"1", std::nullopt, {0, i64{1} << 31}, "--param-range 1=0..2^31"}};
  EXPECT_NE(message_of([&] { (void)plan_ptx_launches(p, "broadcast", r); }).find("not a range of signed 32-bit values"), std::string::npos);
}

TEST(Launch, SharedWindowIsSassOnly) {
  Program p = parse_ptx(kTwoKernels, "t.ptx");
  Launch l;
  l.dynamic_smem_bytes = 4096;
  EXPECT_FALSE(shared_window(p, l).applies);  // PTX: every address has its symbol
  p.format = CompiledFormat::sass;  // as the SASS reader sets it
  p.shared_window_base = 0x400;
  const SharedWindow w = shared_window(p, l);
  EXPECT_TRUE(w.applies);
  EXPECT_TRUE(w.sized);
  EXPECT_EQ(w.lo, 1024);
  EXPECT_EQ(w.hi, 5120);
  l.dynamic_smem_bytes = -1;
  EXPECT_TRUE(shared_window(p, l).applies);
  EXPECT_FALSE(shared_window(p, l).sized);
}

TEST(Launch, ParamAssignmentIsWhatCheckPtxParamTakesBack) {
  Program p = parse_ptx(kTwoKernels, "t.ptx");
  const Function& f = p.functions[select_entries(p, "broadcast").at(0)];
  EXPECT_EQ(param_assignment(p, f, Symbol{1, 0, 32, "k"}, 0xfffffffd), "1=-3");  // int: signed
  EXPECT_EQ(param_assignment(p, f, Symbol{0, 4, 32, "hi"}, 0xfffffffd), "0+4:4=-3");
  EXPECT_EQ(param_value_text(p, f, Symbol{1, 0, 32, "k"}, 64), "64");
  // Spelled back, the assignment plans the same value.
  PtxLaunchRequest r;
  r.params = {fixed("1", "-3")};
  EXPECT_EQ(mask_bits(*plan_ptx_launches(p, "broadcast", r).at(0).launch.params[1], 32), u64{0xfffffffd});
  p.format = CompiledFormat::sass;  // SASS: bytes of the one buffer
  EXPECT_EQ(param_assignment(p, f, Symbol{0, 8, 32, "c"}, 64), "@8:4=64");
}

}  // namespace
}  // namespace layoutproof::compiled
