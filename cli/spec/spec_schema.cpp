#include "cli/spec/spec_schema.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "model/source/cpp_parse.hpp"

namespace layoutproof::cli {

const std::vector<SpecLevelKeys>& spec_levels() {
  static const std::vector<SpecLevelKeys> levels = {
      {SpecLevel::top, "top", "the top level", {"version", "deadline_s", "constants", "layouts", "kernels", "compiled", "schedulers"}},
      {SpecLevel::layout, "layout", "a layout entry (under layouts:)",
       {"name", "layout", "element", "bits", "claims", "accesses", "source"}},
      {SpecLevel::access, "access", "an access (under accesses:)",
       {"pattern", "op", "vec", "claims", "base", "byte_swizzle", "thread_layout"}},
      {SpecLevel::kernel, "kernel", "a kernel entry (under kernels:)", {"name", "mma", "smem", "source"}},
      {SpecLevel::smem, "smem", "an smem tensor (under smem:)", {"name", "element", "layout", "shape", "base", "align", "claims", "copies"}},
      {SpecLevel::copy, "copy", "a copy (under copies:)", {"name", "copy", "side", "base", "claims"}},
      {SpecLevel::compiled, "compiled", "a compiled entry (under compiled:)",
       {"name", "file", "format", "kernel", "block", "grid", "params", "smem_bytes", "claims", "deadline_s", "allow_empty", "cta", "assume", "param_ranges", "max_paths", "tensor_maps", "cluster"}},
      {SpecLevel::scheduler, "scheduler", "a scheduler entry (under schedulers:)",
       {"name", "kind", "tiles", "groups", "cluster", "max_swizzle", "raster", "sms", "max_active_clusters", "k_tiles", "splits",
        "decomposition", "reduction", "corrected", "atom_m", "cluster_type", "max_tiles", "max_groups", "claims", "deadline_s"}},
  };
  return levels;
}

SpecSource::SpecSource(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::pair<int, int> SpecSource::line_column(std::size_t pos) const {
  pos = std::min(pos, text_.size());
  const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), pos);
  const std::size_t line = static_cast<std::size_t>(it - line_starts_.begin());  // 1-based
  return {static_cast<int>(line), static_cast<int>(pos - line_starts_[line - 1] + 1)};
}

std::string SpecSource::line_text(int line) const {
  if (line < 1 || static_cast<std::size_t>(line) > line_starts_.size()) return "";
  const std::size_t b = line_starts_[static_cast<std::size_t>(line) - 1];
  std::size_t e = text_.find('\n', b);
  if (e == std::string::npos) e = text_.size();
  if (e > b && text_[e - 1] == '\r') --e;
  return text_.substr(b, e - b);
}

void SpecSource::fail_at(std::size_t pos, const std::string& message) const {
  // An error at the end of the text (an unclosed bracket) points just after its last character,
  // not at an empty last line.
  if (text_.find_first_not_of(" \t\r\n", std::min(pos, text_.size())) == std::string::npos) {
    const std::size_t last = text_.find_last_not_of(" \t\r\n");
    pos = last == std::string::npos ? 0 : last + 1;
  }
  const auto [line, column] = line_column(pos);
  throw SpecError(path_, line, column, message, line_text(line));
}

void SpecSource::fail(const YAML::Node& n, const std::string& message) const {
  const YAML::Mark m = n.Mark();
  if (m.pos < 0) throw SpecError(path_, 0, 0, message, "");
  fail_at(static_cast<std::size_t>(m.pos), message);
}

void SpecSource::fail_in_scalar(const YAML::Node& n, std::size_t offset, const std::string& message) const {
  const std::size_t pos = map_offset(n, offset);
  if (pos == std::string::npos) fail(n, message);
  fail_at(pos, message);
}

// Walks the value and the file side by side from the node's mark: each non-blank character of the
// value is the next equal character of the file, skipping only what YAML adds around a scalar
// (indentation, line breaks, quotes, the `|`/`>` block header). Anything else (an escape sequence,
// a folded quote) stops the walk: the caller then points at the node's start.
std::size_t SpecSource::map_offset(const YAML::Node& n, std::size_t offset) const {
  const YAML::Mark m = n.Mark();
  if (m.pos < 0 || !n.IsScalar()) return std::string::npos;
  const std::string value = n.Scalar();
  offset = std::min(offset, value.size());
  std::size_t src = static_cast<std::size_t>(m.pos), last_end = src;
  const auto skippable = [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'' || c == '|' || c == '>' || c == '-' || c == '+'; };
  for (std::size_t i = 0; i <= offset; ++i) {
    if (i == value.size()) return last_end;  // just after the value's last character
    const char v = value[i];
    if (std::isspace(static_cast<unsigned char>(v))) {
      if (i == offset) return src < text_.size() && text_[src] == v ? src : last_end;
      if (src < text_.size() && text_[src] == v) ++src;
      continue;
    }
    while (src < text_.size() && text_[src] != v) {
      if (!skippable(text_[src])) return std::string::npos;
      ++src;
    }
    if (src == text_.size()) return std::string::npos;
    if (i == offset) return src;
    last_end = ++src;
  }
  return std::string::npos;
}

void check_keys(const SpecSource& src, const YAML::Node& map, SpecLevel level) {
  const auto& levels = spec_levels();
  const auto& mine = *std::find_if(levels.begin(), levels.end(), [&](const SpecLevelKeys& l) { return l.level == level; });
  if (!map.IsMap()) src.fail(map, mine.where + " is a map of keys (" + [&] {
    std::string s;
    for (const auto& k : mine.keys) s += (s.empty() ? "" : ", ") + k;
    return s;
  }() + ")");
  const std::string in = (level == SpecLevel::top ? " at " : " in ") + mine.where;
  std::set<std::string> seen;
  for (const auto& kv : map) {
    if (!kv.first.IsScalar()) src.fail(kv.first, "a key is a plain name");
    const std::string key = kv.first.Scalar();
    if (!seen.insert(key).second) src.fail(kv.first, "'" + key + "' is given twice" + in);
    if (std::find(mine.keys.begin(), mine.keys.end(), key) != mine.keys.end()) continue;
    std::string hint;
    if (const auto near = cpp_detail::nearest(key, mine.keys)) {
      hint = "; did you mean '" + *near + "'?";
    } else {
      for (const auto& other : levels)
        if (std::find(other.keys.begin(), other.keys.end(), key) != other.keys.end()) {
          hint = "; '" + key + "' belongs to " + other.where;
          break;
        }
      std::string keys;
      for (const auto& k : mine.keys) keys += (keys.empty() ? "" : ", ") + k;
      hint += " (keys here: " + keys + ")";
    }
    src.fail(kv.first, "unknown key '" + key + "'" + in + hint);
  }
}

long long spec_integer(const SpecSource& src, const YAML::Node& n, const std::string& key, long long lo, long long hi) {
  if (!n.IsScalar()) src.fail(n, "'" + key + "' is one integer");
  const std::string t = n.Scalar();
  std::size_t i = 0;
  const bool negative = !t.empty() && t[0] == '-';
  if (negative || (!t.empty() && t[0] == '+')) ++i;
  int base = 10;
  if (t.size() > i + 2 && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X')) base = 16, i += 2;
  if (i == t.size()) src.fail(n, "'" + key + "' is an integer, not '" + t + "'");
  long long v = 0;
  const long long limit = std::max(lo < 0 ? -lo : lo, hi);
  for (; i < t.size(); ++i) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(t[i])));
    const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (base == 16 && c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
    if (d < 0) src.fail(n, "'" + key + "' is an integer, not '" + t + "'");
    if (v <= limit) v = v * base + d;  // past the limit it stays out of range (limit < 2^58: no overflow)
  }
  if (negative) v = -v;
  if (v < lo || v > hi)
    src.fail(n, "'" + key + "' is " + t + "; it must be in " + std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

YAML::Node spec_need(const SpecSource& src, const YAML::Node& map, const char* key, const std::string& what) {
  if (!map[key]) src.fail(map, "missing '" + std::string(key) + "' in " + what);
  return map[key];
}

std::string spec_scalar(const SpecSource& src, const YAML::Node& map, const char* key, const std::string& what) {
  const YAML::Node& n = spec_need(src, map, key, what);
  if (!n.IsScalar()) src.fail(n, std::string("'") + key + "' must be a single value");
  if (n.Scalar().empty()) src.fail(n, std::string("'") + key + "' is empty");
  return n.Scalar();
}

std::vector<YAML::Node> spec_list(const SpecSource& src, const YAML::Node& map, const char* key) {
  std::vector<YAML::Node> out;
  const YAML::Node n = map[key];
  if (!n || n.IsNull()) return out;
  if (n.IsScalar()) return {n};
  if (!n.IsSequence()) src.fail(n, std::string("'") + key + "' must be a list");
  for (const auto& x : n) out.push_back(x);
  return out;
}

std::vector<YAML::Node> spec_claims(const SpecSource& src, const YAML::Node& map) {
  std::vector<YAML::Node> out = spec_list(src, map, "claims");
  std::set<std::string> seen;
  for (const auto& n : out)
    if (n.IsScalar() && !seen.insert(n.Scalar()).second) src.fail(n, "claim '" + n.Scalar() + "' is listed twice");
  return out;
}

std::string spec_unique_name(const SpecSource& src, const YAML::Node& entry, const std::string& what, std::set<std::string>& seen) {
  const std::string name = spec_scalar(src, entry, "name", what);
  if (!seen.insert(name).second) src.fail(entry["name"], "the name '" + name + "' is used twice (each " + what + " needs its own)");
  return name;
}

}  // namespace layoutproof::cli
