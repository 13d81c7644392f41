// SM100 UMMA atoms (tcgen05.mma), read from CUTLASS: include/cute/arch/mma_sm100_umma.hpp (the
// static_asserts on M, N, majors and types) and include/cute/atom/mma_traits_sm100.hpp (the
// traits). For every 1-CTA atom there:
//   Shape_MNK (M, N, K), K = 256 bits of A (F8F6F4: 32); ThrID Layout<_1> = 1:0;
//   ALayout (1,(M,K)):(0,(1,M)), BLayout (1,(N,K)):(0,(1,N)), CLayout (1,(M,N)):(0,(1,M)).
// _SS reads A and B through shared-memory descriptors; _TS reads A from tensor memory (it must
// then be K-major) and B through a descriptor. M is 64 or 128; N a multiple of 8 in [8, 256]
// (TS with M = 128, and F8F6F4 with an MN-major B: a multiple of 16 in [16, 256]).
#include <optional>

#include "model/atoms/atom_spelling.hpp"
#include "model/atoms/cute_atoms.hpp"
#include "model/support/error.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {
using namespace atom_spelling;

struct UmmaKind {
  const char* token;  // SM100_MMA_<token>_SS / _TS
  int bits_lo, bits_hi;  // allowed A/B element widths
  int k_fixed;           // K when it is not 256 / bits (F8F6F4: 32), else 0
  const char* extra;     // the optional trailing arguments, for the message
};

const UmmaKind kKinds[] = {
    {"F16BF16", 16, 16, 0, "UMMA::ScaleIn a_neg, b_neg (SS), then UMMA::Saturate (TS)"},
    {"TF32", 32, 32, 0, "UMMA::ScaleIn a_neg, b_neg (SS), then UMMA::Saturate (TS)"},
    {"S8", 8, 8, 0, "UMMA::Saturate"},
    {"F8F6F4", 4, 8, 32, "UMMA::ScaleIn a_neg, b_neg"},
};

// "UMMA::Major::MN" -> "MN"
std::string_view enumerator(std::string_view arg) {
  std::string_view s = strip_namespaces(trim(arg));
  for (std::string_view p : {"UMMA::", "Major::", "ScaleIn::", "Saturate::"})
    if (starts_with(s, p)) s.remove_prefix(p.size());
  return s;
}

Layout operand(i64 mn, i64 k) { return parse_layout("(1,(" + std::to_string(mn) + "," + std::to_string(k) + ")):(0,(1," + std::to_string(mn) + "))"); }

}  // namespace

std::optional<MmaAtomInfo> find_umma(std::string_view op, const std::vector<std::string>& targs) {
  if (!starts_with(op, "SM100_MMA_")) return std::nullopt;
  const std::string_view rest = op.substr(10);
  const UmmaKind* kind = nullptr;
  bool ts = false;
  for (const UmmaKind& k : kKinds)
    for (const char* ab : {"_SS", "_TS"})
      if (rest == std::string(k.token) + ab) kind = &k, ts = std::string_view(ab) == "_TS";
  if (!kind) return std::nullopt;
  const std::string expected = "<a_type, b_type, c_type, M, N, UMMA::Major a, UMMA::Major b[, " + std::string(kind->extra) +
                               "]> with M 64 or 128, N a multiple of 8 in [8, 256], A/B of " + std::to_string(kind->bits_lo) +
                               (kind->bits_lo == kind->bits_hi ? "" : " to " + std::to_string(kind->bits_hi)) + " bits" +
                               (ts ? ", a K-major A (tensor memory cannot be transposed)" : "");
  if (targs.size() < 7 || targs.size() > 10) bad_targs(op, targs, expected);
  std::vector<std::string> t;
  for (const auto& a : targs) t.push_back(canonical_type(a));
  const auto a_bits = type_bits(t[0]), b_bits = type_bits(t[1]), c_bits = type_bits(t[2]);
  const auto m = parse_decimal(t[3]), n = parse_decimal(t[4]);
  const std::string_view a_major = enumerator(t[5]), b_major = enumerator(t[6]);
  const auto fits = [&](const std::optional<int>& b) { return b && *b >= kind->bits_lo && *b <= kind->bits_hi; };
  bool ok = fits(a_bits) && fits(b_bits) && c_bits && m && n && (*m == 64 || *m == 128) && *n >= 8 && *n <= 256 && *n % 8 == 0 &&
            (a_major == "K" || a_major == "MN") && (b_major == "K" || b_major == "MN");
  if (ok && ts && a_major != "K") ok = false;
  if (ok && ts && *m == 128 && (*n % 16 != 0 || *n < 16)) ok = false;
  if (ok && std::string_view(kind->token) == "F8F6F4" && b_major == "MN" && (*n % 16 != 0 || *n < 16)) ok = false;
  if (ok && kind->bits_lo == kind->bits_hi && *a_bits != *b_bits) ok = false;
  if (!ok) bad_targs(op, targs, expected);
  std::vector<std::string> shown = {t[0], t[1], t[2], std::to_string(*m), std::to_string(*n),
                                    "UMMA::Major::" + std::string(a_major), "UMMA::Major::" + std::string(b_major)};
  for (std::size_t i = 7; i < t.size(); ++i) shown.push_back(t[i]);
  MmaAtomInfo info;
  info.name = with_targs(op, shown);
  info.m = *m, info.n = *n, info.k = kind->k_fixed ? kind->k_fixed : 256 / *a_bits;
  info.thr_id = parse_layout("1:0");
  info.a_tv = operand(info.m, info.k);
  info.b_tv = operand(info.n, info.k);
  info.c_tv = operand(info.m, info.n);
  info.a_type = t[0], info.b_type = t[1], info.c_type = t[2], info.d_type = t[2];
  return info;
}

std::vector<std::string> umma_names() {
  std::vector<std::string> out;
  for (const UmmaKind& k : kKinds)
    for (const char* ab : {"_SS", "_TS"}) out.push_back(std::string("SM100_MMA_") + k.token + ab);
  return out;
}

}  // namespace layoutproof
