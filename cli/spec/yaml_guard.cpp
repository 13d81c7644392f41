#include "cli/spec/yaml_guard.hpp"

#include <vector>

#include "model/layout/notation.hpp"

namespace layoutproof::cli {
namespace {

// A ParseError whose text is "FILE:LINE:COL: nesting deeper than N" (the caret shows the line).
class YamlNestingError : public ParseError {
 public:
  YamlNestingError(std::string message, std::size_t column, std::string line)
      : ParseError("", column, std::move(line)), text_(std::move(message)) {}
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  std::string text_;
};

class Scanner {
 public:
  Scanner(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  void run() {
    std::size_t begin = 0;
    for (std::size_t line = 1; begin <= text_.size(); ++line) {
      std::size_t end = text_.find('\n', begin);
      if (end == std::string_view::npos) end = text_.size();
      scan_line(text_.substr(begin, end - begin), line);
      begin = end + 1;
    }
  }

 private:
  void scan_line(std::string_view s, std::size_t line) {
    std::size_t i = 0;
    while (i < s.size() && s[i] == ' ') ++i;
    const bool blank = i == s.size() || s[i] == '#' || s[i] == '\r';
    if (block_scalar_ >= 0) {  // the content of a | or > scalar: anything, more indented
      if (blank || static_cast<int>(i) > block_scalar_) return;
      block_scalar_ = -1;
    }
    if (quote_ == 0 && flow_ == 0 && !blank) {
      while (!indents_.empty() && indents_.back() > i) indents_.pop_back();
      if (indents_.empty() || indents_.back() < i) indents_.push_back(i);
      int dashes = 0;
      for (std::size_t k = i; k < s.size() && s[k] == '-' && (k + 1 == s.size() || s[k + 1] == ' ');) {
        ++dashes;  // `- - x`: a sequence in a sequence
        for (++k; k < s.size() && s[k] == ' ';) ++k;
      }
      block_ = static_cast<int>(indents_.size()) + dashes;
      if (block_ > kMaxYamlDepth) fail(s, line, i);
    }
    char prev = ' ';  // the last non-space character before i on this line (' ' at its start)
    for (; i < s.size(); ++i) {
      const char c = s[i];
      if (quote_ != 0) {
        if (quote_ == '"' && c == '\\') ++i;
        else if (c == quote_ && quote_ == '\'' && i + 1 < s.size() && s[i + 1] == '\'') ++i;
        else if (c == quote_) quote_ = 0;
        continue;
      }
      const bool token_start = prev == ' ' || prev == '[' || prev == '{' || prev == ',' || prev == ':' || prev == '-' || prev == '?';
      if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) return;
      if ((c == '"' || c == '\'') && token_start) quote_ = c;
      else if (c == '[' || c == '{') {
        ++flow_;
        if (block_ + flow_ > kMaxYamlDepth) fail(s, line, i);
      } else if ((c == ']' || c == '}') && flow_ > 0) {
        --flow_;
      } else if ((c == '|' || c == '>') && flow_ == 0 && (prev == ':' || prev == '-' || prev == ' ')) {
        block_scalar_ = static_cast<int>(indents_.empty() ? 0 : indents_.back());
        return;
      }
      if (c != ' ' && c != '\t') prev = c;
    }
  }

  [[noreturn]] void fail(std::string_view s, std::size_t line, std::size_t at) const {
    const std::string where = path_ + ":" + std::to_string(line) + ":" + std::to_string(at + 1);
    // The caret line shows at most 100 characters before the offending one and 40 after it.
    const std::size_t from = at > 100 ? at - 100 : 0;
    throw YamlNestingError(where + ": nesting deeper than " + std::to_string(kMaxYamlDepth) + " (YAML indentation, [ and {)",
                           at - from + 1, std::string(s.substr(from, at - from + 40)));
  }

  std::string_view text_;
  const std::string& path_;
  std::vector<std::size_t> indents_;
  int block_ = 0;
  int flow_ = 0;
  char quote_ = 0;
  int block_scalar_ = -1;
};

}  // namespace

void check_yaml_nesting(std::string_view text, const std::string& path) { Scanner(text, path).run(); }

}  // namespace layoutproof::cli
