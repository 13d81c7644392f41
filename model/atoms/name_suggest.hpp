#pragma once
// Suggestions for a misspelled or unknown name, the one helper every lookup uses: the C++ front
// end's names (model/source/), the atom and type tables (model/atoms/cute_atoms.cpp), spec keys.
//   nearest("make_layuot", {..., "make_layout", ...})                 == "make_layout"
//   name_hint("SM75_U32x4_LDSM_M", copy_op_names())                    == " (did you mean SM75_U32x4_LDSM_N?)"
//   name_hint("SM99_FOO", copy_op_names())  == "; the closest known: SM90_U32x1_STSM_N, ..." (a few, never all)
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layoutproof {

// Levenshtein distance where a swap of two neighbours is one edit (optimal string alignment).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The closest known name within one edit (two for names of 8 or more characters); among equally
// close names the one closest after folding (lower case, no '_') wins. nullopt when nothing is close
// or the name is shorter than 4 characters (every short name is near some other).
std::optional<std::string> nearest(const std::string& name, const std::vector<std::string>& known);

// The `count` known names closest to `name` (folded edit distance, then raw), best first, without
// duplicates.
std::vector<std::string> closest(const std::string& name, const std::vector<std::string>& known, std::size_t count = 4);

// What an "unknown NAME" message appends: " (did you mean X?)" when nearest() finds one, else
// "; the closest known: a, b, c, d" (closest()), else "" when nothing is known.
std::string name_hint(const std::string& name, const std::vector<std::string>& known);

}  // namespace layoutproof
