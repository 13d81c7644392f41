#pragma once
// Deeply nested inputs for the parsers' nesting limits (hostile-input campaign C1, H4).
#include <string>

namespace layoutproof::testing {

// n copies of `open`, then `core`, then n copies of `close`: nested("(", "8", ")", 2) = "((8))".
inline std::string nested(const std::string& open, const std::string& core, const std::string& close, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += open;
  s += core;
  for (int i = 0; i < n; ++i) s += close;
  return s;
}

}  // namespace layoutproof::testing
