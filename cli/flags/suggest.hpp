#pragma once
// What every "unknown X" message of the command says: the bad token, the closest known spelling
// when one is near, and (for short vocabularies) every known one. One helper for options, kinds,
// element types, subcommands and claim names; the distance is model/atoms/name_suggest.hpp's (the
// one edit-distance helper, which the C++ front end and the spec keys use too).
//   unknown_word("option", "--clam", {"--claim", "--json"}, "layoutproof prove")
//     == "unknown option '--clam' for layoutproof prove (did you mean --claim?)"
//   unknown_word("scheduler or rasterization kind", "sm90-grop", kinds, "", true)
//     == "unknown scheduler or rasterization kind 'sm90-grop' (did you mean sm90-group?); the kinds: row-major, ..."
//   unknown_word("claim", "bijectve", {"bijective", "injective"}, "", true)
//     == "unknown claim 'bijectve' (did you mean bijective?); the claims: bijective, injective"
#include <string>
#include <vector>

namespace layoutproof::cli {

// " (did you mean X?)" when a known word is within the edit distance name_suggest allows, else "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& known);

// "unknown WHAT 'WORD'[ for WHERE][ (did you mean X?)][; the WHATs: a, b, c]"; list_all adds the
// list (the plural is WHAT's last word with an 's').
std::string unknown_word(const std::string& what, const std::string& word, const std::vector<std::string>& known,
                         const std::string& where = "", bool list_all = false);

}  // namespace layoutproof::cli
