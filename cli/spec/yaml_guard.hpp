#pragma once
// A pre-scan of a spec's YAML text for its nesting depth, before yaml-cpp (which recurses) reads it.
//
// Depth = the block levels open at a line (one per indentation level, plus one per `- ` sequence
// entry written on the line) + the flow collections ([ and {) open at a character, outside quoted
// scalars, comments and block scalars (| and >). A spec needs about 6 levels:
//   layouts:                          1
//     - name: sA                      2, 3 (the `- ` entry)
//       accesses: [{claims: [x]}]     3 + flow 1, 2, 3
// Deeper than kMaxYamlDepth is a ParseError "FILE:LINE:COL: nesting deeper than 64" with the line
// and a caret under the bracket (or the line's first character) that went too deep: exit 2, where
// yaml-cpp would say "bad file" at 2,000 levels or, built without its guard, overflow the stack.
// The scan may over-count odd but valid YAML (an unmatched [ inside a plain scalar): it only ever
// refuses input nested deeper than any spec needs.
#include <string>
#include <string_view>

namespace layoutproof::cli {

inline constexpr int kMaxYamlDepth = 64;

// Throws ParseError (model/layout/notation.hpp) when `text` nests deeper than kMaxYamlDepth.
void check_yaml_nesting(std::string_view text, const std::string& path);

}  // namespace layoutproof::cli
