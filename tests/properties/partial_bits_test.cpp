// Partly known values in the compiled-kernel executor (model/compiled/exec/alu.hpp, Val::lowk)
// against concrete runs. A random straight-line PTX program starts from x = prmt(SEED, u, SEL),
// u a register never written (so x has only the bytes SEL takes from SEED known), applies random
// integer operations to x, %tid.x and constants, and stores a byte at smem + (result & MASK). Run
// with u unknown, every address the executor says it knows must equal the address of the same
// program run with u loaded from a parameter, for every value of u tried: a known bit the
// executor makes up would show as a differing address.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "model/compiled/ptx_exec.hpp"
#include "model/compiled/ptx_parse.hpp"
#include "properties/check.hpp"

namespace layoutproof::compiled {
namespace {

struct Step {
  int op = 0;          // index into kOps
  int a = 0, b = 0;    // source registers: earlier results (0: %r1 = tid, 1: x, 2..: step results)
  std::uint32_t k = 0; // an immediate (shift amounts, masks, selectors, lop3's table)
};

const char* const kOps[] = {"add.u32", "sub.u32", "mul.lo.u32", "mad.lo.u32", "and.b32", "or.b32", "xor.b32", "not.b32",
                            "neg.s32", "shl.b32", "shr.u32", "shr.s32", "prmt.b32", "lop3.b32", "bfe.u32", "bfe.s32",
                            "bfi.b32", "shf.l.clamp.b32", "and.imm", "or.imm"};
constexpr int kOpCount = sizeof(kOps) / sizeof(kOps[0]);

std::string reg(int i) { return "%r" + std::to_string(i == 0 ? 1 : i == 1 ? 9 : 10 + (i - 2)); }

std::string program(std::uint32_t seed, std::uint32_t sel, const std::vector<Step>& steps, std::uint32_t mask, bool concrete) {
  std::string b = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 k_param_0)\n{\n"
                  ".reg .b32 %r<64>;\n.shared .align 16 .b8 smem[65536];\nmov.u32 %r1, %tid.x;\n";
  if (concrete) b += "ld.param.u32 %r30, [k_param_0];\n";
  b += "prmt.b32 %r9, " + std::to_string(seed) + ", %r30, " + std::to_string(sel) + ";\n";
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    const std::string d = reg(static_cast<int>(i) + 2), x = reg(s.a), y = reg(s.b), k = std::to_string(s.k);
    const std::string op = kOps[s.op];
    if (op == "not.b32" || op == "neg.s32") b += op + " " + d + ", " + x + ";\n";
    else if (op == "shl.b32" || op == "shr.u32" || op == "shr.s32") b += op + " " + d + ", " + x + ", " + std::to_string(s.k % 40) + ";\n";
    else if (op == "mad.lo.u32") b += op + " " + d + ", " + x + ", " + y + ", " + k + ";\n";
    else if (op == "prmt.b32") b += op + " " + d + ", " + x + ", " + y + ", " + std::to_string(s.k & 0xffff) + ";\n";
    else if (op == "lop3.b32") b += op + " " + d + ", " + x + ", " + y + ", " + reg(0) + ", " + std::to_string(s.k & 0xff) + ";\n";
    else if (op == "bfe.u32" || op == "bfe.s32") b += op + " " + d + ", " + x + ", " + std::to_string(s.k % 32) + ", " + std::to_string((s.k >> 8) % 33) + ";\n";
    else if (op == "bfi.b32") b += op + " " + d + ", " + x + ", " + y + ", " + std::to_string(s.k % 32) + ", " + std::to_string((s.k >> 8) % 33) + ";\n";
    else if (op == "shf.l.clamp.b32") b += op + " " + d + ", " + x + ", " + y + ", " + std::to_string(s.k % 40) + ";\n";
    else if (op == "and.imm") b += "and.b32 " + d + ", " + x + ", " + k + ";\n";
    else if (op == "or.imm") b += "or.b32 " + d + ", " + x + ", " + k + ";\n";
    else b += op + " " + d + ", " + x + ", " + y + ";\n";
  }
  b += "and.b32 %r40, " + reg(static_cast<int>(steps.size()) + 1) + ", " + std::to_string(mask) + ";\nmov.u32 %r41, smem;\n"
       "add.u32 %r42, %r41, %r40;\nst.shared.u8 [%r42], %r1;\nret;\n}\n";
  return b;
}

// The site's lane addresses; nullopt when some lane's is not known.
std::optional<std::array<i64, kWarpLanes>> addresses(const std::string& text, std::optional<u64> param) {
  Program p = parse_ptx(text, "partial.ptx");
  const std::size_t entry = select_entries(p, "k").at(0);
  decode_with_callees(p, entry);
  Launch l;
  l.block = {32, 1, 1};
  l.params = {param};
  const KernelRun r = run_kernel(p, entry, l);
  RC_ASSERT(r.sites.size() == 1u);
  const Site& s = r.sites[0];
  if (!s.unknown.empty() || s.trace.instructions.empty()) return std::nullopt;
  return s.trace.instructions[0].addr;
}

}  // namespace

LP_PROP(PartialBits, KnownBitsAreTheConcreteRunsBits, 300, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint32_t>();
  // Each of the four bytes from SEED (0-3, known) or from u (4-7, not known): a low run of SEED's
  // bytes gives x known low bits.
  const auto sel = *rc::gen::map(rc::gen::container<std::vector<int>>(4, rc::gen::inRange(0, 8)), [](const std::vector<int>& n) {
    std::uint32_t s = 0;
    for (int i = 0; i < 4; ++i) s |= static_cast<std::uint32_t>(n[static_cast<std::size_t>(i)]) << (4 * i);
    return s;
  });
  const int count = *rc::gen::inRange(1, 7);
  std::vector<Step> steps;
  for (int i = 0; i < count; ++i) {
    Step s;
    s.op = *rc::gen::inRange(0, kOpCount);
    s.a = *rc::gen::inRange(0, i + 2);
    s.b = *rc::gen::inRange(0, i + 2);
    s.k = *rc::gen::arbitrary<std::uint32_t>();
    steps.push_back(s);
  }
  const std::uint32_t mask = *rc::gen::element<std::uint32_t>(0xff, 0xfff, 0xffff, 0x3f0, 0x7);
  const auto got = addresses(program(seed, sel, steps, mask, false), std::nullopt);
  RC_CLASSIFY(got.has_value(), "known");
  if (!got) return;
  for (const u64 u : {u64{0}, u64{0xffffffff}, u64{0x12345678}, u64{*rc::gen::arbitrary<std::uint32_t>()}}) {
    const auto want = addresses(program(seed, sel, steps, mask, true), u);
    RC_ASSERT(want.has_value());
    RC_ASSERT(*got == *want);
  }
}

}  // namespace layoutproof::compiled
