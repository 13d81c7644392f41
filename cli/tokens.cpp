#include "cli/tokens.hpp"

#include <cctype>

namespace layoutproof::cli {

std::vector<std::string> tokenize(std::string_view line) {
  std::vector<std::string> raw;
  std::string current;
  int depth = 0;
  for (char c : line) {
    if (c == '(' || c == '[' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '>') --depth;
    if (depth <= 0 && std::isspace(static_cast<unsigned char>(c))) {
      if (!current.empty()) raw.push_back(std::move(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (!current.empty()) raw.push_back(std::move(current));

  std::vector<std::string> out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == "o" && !out.empty() && i + 1 < raw.size()) {
      out.back() += " o " + raw[++i];
    } else {
      out.push_back(raw[i]);
    }
  }
  return out;
}

}  // namespace layoutproof::cli
