#include "model/compiled/ptx_parse.hpp"

#include <cctype>

#include "model/layout/notation.hpp"  // ParseError

namespace layoutproof {
namespace {

// A cursor over the PTX text that knows its line and column for errors.
class Scanner {
 public:
  Scanner(std::string_view text, std::string file) : t_(text), file_(std::move(file)) {}

  bool done() {
    skip_space();
    return i_ >= t_.size();
  }
  char peek() {
    skip_space();
    return i_ < t_.size() ? t_[i_] : '\0';
  }
  int line() const { return line_; }

  // Skips spaces, newlines and comments (// to the end of the line, /* ... */).
  void skip_space() {
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '\n') ++line_, ++i_, line_start_ = i_;
      else if (std::isspace(static_cast<unsigned char>(c))) ++i_;
      else if (t_.substr(i_, 2) == "//") {
        while (i_ < t_.size() && t_[i_] != '\n') ++i_;
      } else if (t_.substr(i_, 2) == "/*") {
        const std::size_t end = t_.find("*/", i_ + 2);
        if (end == std::string_view::npos) fail("a comment that is never closed (*/)");
        for (std::size_t k = i_; k < end; ++k)
          if (t_[k] == '\n') ++line_, line_start_ = k + 1;
        i_ = end + 2;
      } else break;
    }
  }

  // An identifier-like word: letters, digits, _ $ . % (PTX names, directives, opcodes, registers).
  std::string word() {
    skip_space();
    const std::size_t b = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || std::string_view("_$.%").find(t_[i_]) != std::string_view::npos))
      ++i_;
    if (i_ == b) fail("expected a name or a directive");
    return std::string(t_.substr(b, i_ - b));
  }

  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool accept(char c) {
    if (peek() != c) return false;
    ++i_;
    return true;
  }

  // The rest of the statement up to ';' (not included), on any number of lines.
  std::string until_semicolon() {
    skip_space();
    const std::size_t b = i_, b_line_start = line_start_;
    const int b_line = line_;
    while (i_ < t_.size() && t_[i_] != ';') {
      if (t_[i_] == '\n') ++line_, line_start_ = i_ + 1;
      ++i_;
    }
    if (i_ >= t_.size()) {  // located where the statement starts, not at the end of the file
      i_ = b, line_ = b_line, line_start_ = b_line_start;
      fail("a statement that is never ended by ';'");
    }
    std::string s(t_.substr(b, i_ - b));
    ++i_;
    return s;
  }

  // The rest of the current line (for .loc/.file, which end at the newline).
  std::string rest_of_line() {
    const std::size_t b = i_;
    while (i_ < t_.size() && t_[i_] != '\n') ++i_;
    return std::string(t_.substr(b, i_ - b));
  }

  [[noreturn]] void fail(const std::string& what) const {
    const std::size_t eol = t_.find('\n', line_start_);
    const std::string text(t_.substr(line_start_, (eol == std::string_view::npos ? t_.size() : eol) - line_start_));
    const std::size_t col = i_ >= line_start_ ? i_ - line_start_ + 1 : 1;
    throw ParseError::located(file_ + ":" + std::to_string(line_) + ":" + std::to_string(col) + ": " + what, col, text);
  }

 private:
  std::string_view t_;
  std::string file_;
  std::size_t i_ = 0, line_start_ = 0;
  int line_ = 1;
};

std::string trim(std::string s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Splits operands at top-level commas ("{%f1, %f2}" and "[%r1+4]" stay whole).
std::vector<std::string> split_operands(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (const char c : s) {
    if (c == '{' || c == '[' || c == '(') ++depth;
    if (c == '}' || c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else cur += c;
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

i64 number(Scanner& sc, const std::string& w, const char* what) {
  try {
    std::size_t used = 0;
    const long long v = std::stoll(w, &used, 0);
    if (used != w.size() || v < 0) throw std::invalid_argument(w);
    return v;
  } catch (const std::exception&) {
    sc.fail(std::string("expected ") + what + ", not '" + w + "'");
  }
}

// `.shared [.align A] .TYPE NAME[N];` or `.extern .shared ... NAME[];` (the text after ".shared").
PtxShared shared_decl(Scanner& sc, const std::string& decl, bool dynamic) {
  PtxShared s;
  s.dynamic = dynamic;
  std::vector<std::string> words;
  std::string cur;
  for (const char c : decl) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) words.push_back(cur), cur.clear();
    } else cur += c;
  }
  if (!cur.empty()) words.push_back(cur);
  i64 elem = 1;
  for (std::size_t k = 0; k < words.size(); ++k) {
    const std::string& w = words[k];
    if (w == ".align" && k + 1 < words.size()) s.align = number(sc, words[++k], "an alignment");
    else if (w == ".b8" || w == ".u8" || w == ".s8") elem = 1;
    else if (w == ".b16" || w == ".u16" || w == ".s16" || w == ".f16") elem = 2;
    else if (w == ".b32" || w == ".u32" || w == ".s32" || w == ".f32") elem = 4;
    else if (w == ".b64" || w == ".u64" || w == ".s64" || w == ".f64") elem = 8;
    else if (!w.empty() && w[0] != '.') {
      const std::size_t lb = w.find('[');
      s.name = w.substr(0, lb);
      i64 count = 1;
      if (lb != std::string::npos) {
        const std::string n = w.substr(lb + 1, w.find(']', lb) - lb - 1);
        count = n.empty() ? 0 : number(sc, n, "an array size");
      }
      s.bytes = checked_mul(elem, count);
    }
  }
  if (s.name.empty()) sc.fail("a .shared declaration without a name");
  if (s.align < 1 || (s.align & (s.align - 1))) sc.fail(".align is a power of two");
  return s;
}

void parse_entry(Scanner& sc, PtxModule& m) {
  PtxEntry e;
  e.name = sc.word();
  if (sc.accept('(')) {
    while (!sc.accept(')')) {
      const std::string decl = sc.word();
      if (decl != ".param") sc.fail("expected .param in the parameter list");
      std::string name;
      while (sc.peek() != ',' && sc.peek() != ')') name = sc.word();  // the last word is the name
      const std::size_t lb = name.find('[');
      e.params.push_back(name.substr(0, lb));
      sc.accept(',');
    }
  }
  while (sc.peek() == '.') {  // performance directives before the body
    const std::string d = sc.word();
    if (d == ".reqntid" || d == ".maxntid") {
      for (int k = 0; k < 3; ++k) {
        e.reqntid[static_cast<std::size_t>(k)] = number(sc, sc.word(), "a thread count");
        if (!sc.accept(',')) break;
      }
    } else {
      while (sc.peek() != '.' && sc.peek() != '{') (void)sc.word(), sc.accept(',');
    }
  }
  sc.expect('{');
  int depth = 1;
  int loc_file = 0, loc_line = 0;
  while (depth > 0) {
    if (sc.done()) sc.fail("the kernel's body is never closed ('}')");
    const char c = sc.peek();
    if (c == '{') {
      sc.expect('{');
      ++depth;
      continue;
    }
    if (c == '}') {
      sc.expect('}');
      --depth;
      continue;
    }
    const int line = sc.line();
    if (c == '@') {  // a guarded instruction
      sc.expect('@');
      PtxInstruction in;
      in.guard_negated = sc.accept('!');
      in.guard = sc.word();
      in.opcode = sc.word();
      in.operands = split_operands(sc.until_semicolon());
      in.line = line, in.source_file = loc_file, in.source_line = loc_line;
      in.text = "@" + std::string(in.guard_negated ? "!" : "") + in.guard + " " + in.opcode;
      e.code.push_back(std::move(in));
      continue;
    }
    const std::string w = sc.word();
    if (sc.accept(':')) {  // a label
      e.labels[w] = e.code.size();
      continue;
    }
    if (w == ".loc") {
      const std::string rest = sc.rest_of_line();
      int f = 0, l = 0;
      if (std::sscanf(rest.c_str(), "%d %d", &f, &l) == 2) loc_file = f, loc_line = l;
      continue;
    }
    if (w == ".shared") {
      e.shared.push_back(shared_decl(sc, sc.until_semicolon(), false));
      continue;
    }
    if (w == ".extern") {
      const std::string rest = sc.until_semicolon();
      if (rest.find(".shared") != std::string::npos) e.shared.push_back(shared_decl(sc, rest.substr(rest.find(".shared") + 7), true));
      continue;
    }
    if (!w.empty() && w[0] == '.') {  // .reg, .local, .pragma, ...: declarations
      (void)sc.until_semicolon();
      continue;
    }
    PtxInstruction in;
    in.opcode = w;
    in.operands = split_operands(sc.until_semicolon());
    in.line = line, in.source_file = loc_file, in.source_line = loc_line;
    in.text = in.opcode;
    e.code.push_back(std::move(in));
  }
  for (auto& in : e.code)
    for (std::size_t k = 0; k < in.operands.size(); ++k) in.text += (k ? ", " : " ") + in.operands[k];
  m.entries.push_back(std::move(e));
}

// Skips a .func's (or a module declaration's) body: braces balanced, or up to ';'.
void skip_definition(Scanner& sc) {
  while (!sc.done()) {
    const char c = sc.peek();
    if (c == ';') {
      sc.expect(';');
      return;
    }
    if (c == '{') {
      int depth = 0;
      do {
        if (sc.done()) sc.fail("a body that is never closed ('}')");
        if (sc.peek() == '{') sc.expect('{'), ++depth;
        else if (sc.peek() == '}') sc.expect('}'), --depth;
        else if (sc.peek() == ';' || sc.peek() == ',' || sc.peek() == '(' || sc.peek() == ')' || sc.peek() == '[' ||
                 sc.peek() == ']' || sc.peek() == '@' || sc.peek() == ':' || sc.peek() == '!' || sc.peek() == '+' ||
                 sc.peek() == '-' || sc.peek() == '"' || sc.peek() == '<' || sc.peek() == '>' || sc.peek() == '|' ||
                 sc.peek() == '=')
          sc.accept(sc.peek());
        else (void)sc.word();
      } while (depth > 0);
      return;
    }
    if (c == '(' || c == ')' || c == ',' || c == '[' || c == ']' || c == '=' || c == '"') sc.accept(c);
    else (void)sc.word();
  }
}

}  // namespace

PtxModule parse_ptx(std::string_view text, const std::string& file) {
  if (text.size() > kMaxPtxBytes)
    throw LayoutError(file + ": " + std::to_string(text.size()) + " bytes of PTX, more than the limit of 256 MiB");
  PtxModule m;
  m.file = file;
  Scanner sc(text, file);
  while (!sc.done()) {
    const std::string w = sc.word();
    if (w == ".version" || w == ".target" || w == ".address_size") {
      (void)sc.rest_of_line();
    } else if (w == ".file") {
      const std::string rest = sc.rest_of_line();
      int n = 0;
      char path[4096] = {0};
      if (std::sscanf(rest.c_str(), "%d \"%4095[^\"]\"", &n, path) == 2) m.files[n] = path;
    } else if (w == ".visible" || w == ".weak" || w == ".extern") {
      continue;  // linkage of what follows
    } else if (w == ".entry") {
      parse_entry(sc, m);
    } else if (w == ".func") {
      skip_definition(sc);
    } else if (!w.empty() && w[0] == '.') {
      skip_definition(sc);  // .global, .const, .shared at module scope, .pragma, ...
    } else {
      sc.fail("expected a directive (.version, .entry, ...), not '" + w + "'");
    }
  }
  return m;
}

bool ptx_name_matches(const std::string& mangled, const std::string& text) {
  if (text.empty() || mangled.find(text) != std::string::npos) return true;
  if (mangled.rfind("_Z", 0) != 0) return false;
  std::size_t i = 2;
  if (i < mangled.size() && mangled[i] == 'N') ++i;  // a nested name: namespaces, then the function
  std::string names;
  while (i < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[i]))) {
    std::size_t used = 0;
    const unsigned long n = std::stoul(mangled.substr(i), &used);
    i += used;
    if (i + n > mangled.size()) break;
    names += (names.empty() ? "" : "::") + mangled.substr(i, n);
    i += n;
  }
  return names.find(text) != std::string::npos;
}

}  // namespace layoutproof
