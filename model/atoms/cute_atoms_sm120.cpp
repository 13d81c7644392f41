// SM120 warp-level MMA atoms (mma.sync kind::f8f6f4 and its block-scaled forms), read from CUTLASS:
// include/cute/arch/mma_sm120.hpp (which template arguments are specialized: every other
// combination hits the primary template's static_assert "No MMA matches ...") and
// include/cute/atom/mma_traits_sm120.hpp (the traits):
//   SM120_16x8x32_TN<a, b, c>: the traits of SM80_16x8x32_S32S8S8S32_TN (MNK 16x8x32, ThrID 32:1,
//     A ((4,8),(4,2,2)):((64,1),(16,8,256)), B ((4,8),(4,2)):((32,1),(8,128)), C SM80_16x8_Row),
//     ValTypeA = ValTypeB = uint8_t (the instruction reads 8-bit containers whatever a and b are),
//     ValTypeC = ValTypeD = c. a, b in {e2m1, e3m2, e2m3, e4m3, e5m2}, c in {float, half_t}.
//   SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<a, b, float, float_ue8m0_t, VS>: the same layouts.
//   SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t, float_e2m1_t, float, ue8m0 | ue4m3, VS>:
//     MNK 16x8x64, A ((4,8),(8,2,2)):((128,1),(16,8,512)), B ((4,8),(8,2)):((64,1),(8,256)),
//     C SM80_16x8_Row, ValTypeA = ValTypeB = uint4_t.
// The scale factors are register operands (SFALayout, SFBLayout): they address no shared memory and
// are not modelled. VS (SFVecSize) must divide K: mma_unpack asserts cosize(SFA) == K / VS.
#include <optional>

#include "model/atoms/atom_spelling.hpp"
#include "model/atoms/cute_atoms.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {
using namespace atom_spelling;

constexpr const char* kF8F6F4[] = {"float_e2m1_t", "float_e3m2_t", "float_e2m3_t", "float_e4m3_t", "float_e5m2_t"};

bool is_f8f6f4(const std::string& t) {
  for (const char* k : kF8F6F4)
    if (t == k) return true;
  return false;
}

std::string_view without_blockscaled(std::string_view op) {
  for (std::string_view p : {"SM120::BLOCKSCALED::", "BLOCKSCALED::"})
    if (starts_with(op, p)) op.remove_prefix(p.size());
  return op;
}

}  // namespace

std::optional<MmaAtomInfo> find_sm120_mma(std::string_view op_in, const std::vector<std::string>& targs) {
  const std::string_view op = without_blockscaled(op_in);
  const bool plain = op == "SM120_16x8x32_TN", vs32 = op == "SM120_16x8x32_TN_VS", vs64 = op == "SM120_16x8x64_TN_VS";
  if (!plain && !vs32 && !vs64) return std::nullopt;
  std::vector<std::string> t;
  for (const std::string& a : targs) t.push_back(canonical_type(a));
  const std::string f8 = "float_e2m1_t|float_e3m2_t|float_e2m3_t|float_e4m3_t|float_e5m2_t";
  const std::string expected = plain ? "<a, b, c> with a, b in " + f8 + " and c float or half_t"
                               : vs32 ? "<a, b, float, float_ue8m0_t, VS> with a, b in " + f8 + " and VS dividing 32"
                                      : "<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t|float_ue4m3_t, VS> with VS dividing 64";
  const i64 k = vs64 ? 64 : 32;
  bool ok = t.size() == (plain ? 3u : 5u);
  if (ok && plain) ok = is_f8f6f4(t[0]) && is_f8f6f4(t[1]) && (t[2] == "float" || t[2] == "half_t");
  if (ok && vs32) ok = is_f8f6f4(t[0]) && is_f8f6f4(t[1]) && t[2] == "float" && t[3] == "float_ue8m0_t";
  if (ok && vs64)
    ok = t[0] == "float_e2m1_t" && t[1] == "float_e2m1_t" && t[2] == "float" && (t[3] == "float_ue8m0_t" || t[3] == "float_ue4m3_t");
  std::optional<i64> vs;
  if (ok && !plain) {
    vs = parse_decimal(t[4]);
    ok = vs && k % *vs == 0;
  }
  if (!ok) bad_targs(op, targs, expected);
  MmaAtomInfo info;
  info.name = with_targs(vs32 || vs64 ? "SM120::BLOCKSCALED::" + std::string(op) : std::string(op), t);
  info.m = 16, info.n = 8, info.k = k;
  info.thr_id = parse_layout("32:1");
  info.a_tv = parse_layout(vs64 ? "((4,8),(8,2,2)):((128,1),(16,8,512))" : "((4,8),(4,2,2)):((64,1),(16,8,256))");
  info.b_tv = parse_layout(vs64 ? "((4,8),(8,2)):((64,1),(8,256))" : "((4,8),(4,2)):((32,1),(8,128))");
  info.c_tv = parse_layout("((4,8),(2,2)):((32,1),(16,8))");
  info.a_type = info.b_type = vs64 ? "uint4_t" : "uint8_t";
  info.c_type = info.d_type = t[2];
  return info;
}

std::vector<std::string> sm120_mma_names() {
  return {"SM120_16x8x32_TN", "SM120::BLOCKSCALED::SM120_16x8x32_TN_VS", "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS"};
}

}  // namespace layoutproof
