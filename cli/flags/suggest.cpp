// Suggestions for a bad token (cli/flags/suggest.hpp).
#include "cli/flags/suggest.hpp"

#include "model/atoms/name_suggest.hpp"

namespace layoutproof::cli {

std::string did_you_mean(const std::string& word, const std::vector<std::string>& known) {
  const std::optional<std::string> near = nearest(word, known);
  return near ? " (did you mean " + *near + "?)" : "";
}

std::string unknown_word(const std::string& what, const std::string& word, const std::vector<std::string>& known,
                         const std::string& where, bool list_all) {
  std::string s = "unknown " + what + " '" + word + "'" + (where.empty() ? "" : " for " + where) + did_you_mean(word, known);
  if (list_all && !known.empty()) {
    const std::size_t space = what.rfind(' ');
    s += "; the " + (space == std::string::npos ? what : what.substr(space + 1)) + "s: ";
    for (std::size_t i = 0; i < known.size(); ++i) s += (i ? ", " : "") + known[i];
  }
  return s;
}

}  // namespace layoutproof::cli
