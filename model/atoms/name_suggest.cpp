// Name suggestions (model/atoms/name_suggest.hpp).
#include "model/atoms/name_suggest.hpp"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace layoutproof {
namespace {

// Lower case without underscores: make_tiled_copyA and make_tiled_copy_A are the same word.
std::string folded(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> nearest(const std::string& name, const std::vector<std::string>& known) {
  if (name.size() < 4 || name.size() > 200) return std::nullopt;
  const std::size_t limit = name.size() < 8 ? 1 : 2;
  const std::string f = folded(name);
  std::optional<std::string> best;
  std::pair<std::size_t, std::size_t> best_score{limit + 1, 0};
  for (const std::string& k : known) {
    if (k == name || k.size() > name.size() + limit || k.size() + limit < name.size()) continue;
    const std::pair<std::size_t, std::size_t> score{edit_distance(name, k), edit_distance(f, folded(k))};
    if (score.first <= limit && score < best_score) best_score = score, best = k;
  }
  return best;
}

std::vector<std::string> closest(const std::string& name, const std::vector<std::string>& known, std::size_t count) {
  if (name.size() > 200) return {};
  const std::string f = folded(name);
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> scored;
  for (const std::string& k : known) {
    if (k == name || k.size() > 200) continue;
    scored.emplace_back(edit_distance(f, folded(k)), edit_distance(name, k), k);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (const auto& s : scored) {
    if (out.size() == count) break;
    if (std::find(out.begin(), out.end(), std::get<2>(s)) == out.end()) out.push_back(std::get<2>(s));
  }
  return out;
}

std::string name_hint(const std::string& name, const std::vector<std::string>& known) {
  if (const std::optional<std::string> near = nearest(name, known)) return " (did you mean " + *near + "?)";
  const std::vector<std::string> few = closest(name, known);
  if (few.empty()) return "";
  std::string s = "; the closest known: ";
  for (std::size_t i = 0; i < few.size(); ++i) s += (i ? ", " : "") + few[i];
  return s;
}

}  // namespace layoutproof
