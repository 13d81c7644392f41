#pragma once
// How CuTe names atoms and types in C++, read the same way by every atom table (model/atoms/cute_atoms.cpp,
// model/atoms/cute_atoms_umma.cpp): namespaces dropped ("cute::half_t" is "half_t"), template arguments
// split at their top-level commas, canonical spellings for the names a verdict prints.
//   spell("SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::MN>", {})
//     == {"SM90_64x128x16_F32F16F16_SS", {"GMMA::Major::K", "GMMA::Major::MN"}}
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/layout/int_tuple.hpp"

namespace layoutproof::atom_spelling {

std::string_view trim(std::string_view s);
bool starts_with(std::string_view s, std::string_view p);
// Drops leading "::", "cute::" and "cutlass::".
std::string_view strip_namespaces(std::string_view s);
// A type as the tables name it: trimmed, namespaces dropped (also inside one template argument),
// spaces removed: "cute::complex<cute::half_t>" -> "complex<half_t>".
std::string canonical_type(std::string_view t);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// "Op" + "<a,b>" (nothing when targs is empty).
std::string with_targs(std::string_view op, const std::vector<std::string>& targs);

// An op and its template arguments, whether they came inside the name ("Op<a,b<c>>") or apart.
struct Spelling {
  std::string op;
  std::vector<std::string> targs;
};
// Splits "a,b<c,d>" at its top-level commas. @pre the brackets of `s` balance.
std::vector<std::string> split_top_level(std::string_view s, std::string_view whole);
// LayoutError when the arguments are given both inside the name and apart, or the name is malformed.
Spelling spell(std::string_view name, const std::vector<std::string>& targs);
// A decimal as atom names and template arguments write M, N and K: no sign, no leading zero (C++
// would read it as octal), at most 4 digits; nullopt otherwise. "128" -> 128, "064" -> nullopt.
std::optional<i64> parse_decimal(std::string_view s);
// Throws LayoutError: "OP: template arguments <...> are not valid; expected EXPECTED".
[[noreturn]] void bad_targs(std::string_view op, const std::vector<std::string>& got, const std::string& expected);

}  // namespace layoutproof::atom_spelling
