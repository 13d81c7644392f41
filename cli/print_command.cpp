#include "cli/print_command.hpp"

#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "cli/help.hpp"
#include "cli/layout_input.hpp"
#include "model/notation.hpp"

namespace layoutproof::cli {
namespace {

struct Grid {
  i64 rows = 0, cols = 0;
  std::vector<i64> cells;  // row-major
  i64 at(i64 m, i64 n) const { return cells[static_cast<std::size_t>(m * cols + n)]; }
};

// The (m, n) table of slice `rest` (the index into modes 2.. of a rank > 2 layout, colexicographic).
Grid evaluate_grid(const AnyLayout& l, i64 rest = 0) {
  const std::size_t r = l.layout.rank();
  Grid g;
  g.rows = product(l.layout.shape[0]);
  g.cols = r >= 2 ? product(l.layout.shape[1]) : 1;
  for (i64 m = 0; m < g.rows; ++m)
    for (i64 n = 0; n < g.cols; ++n) {
      if (r <= 2) {
        g.cells.push_back(evaluate(l, r == 2 ? IntTuple::tuple({m, n}) : IntTuple(m)));
        continue;
      }
      std::vector<IntTuple> c = {IntTuple(m), IntTuple(n)};
      i64 k = rest;
      for (std::size_t i = 2; i < r; ++i) {
        const i64 s = product(l.layout.shape[i]);
        c.emplace_back(k % s);
        k /= s;
      }
      g.cells.push_back(evaluate(l, IntTuple::tuple(std::move(c))));
    }
  return g;
}

// "(_,_,k)" for slice k of a rank > 2 layout, its modes 2.. given by their own indices.
std::string slice_name(const AnyLayout& l, i64 rest) {
  std::string s = "(_,_";
  for (std::size_t i = 2; i < l.layout.rank(); ++i) {
    const i64 n = product(l.layout.shape[i]);
    s += "," + std::to_string(rest % n);
    rest /= n;
  }
  return s + ")";
}

std::string pad(i64 v, int width) {
  std::string s = std::to_string(v);
  return std::string(width > static_cast<int>(s.size()) ? width - s.size() : 0, ' ') + s;
}

// CuTe's print_layout format: column header, then rows of "| v " cells between +---+ rules.
void write_table(std::ostream& out, const Grid& g, i64 widest) {
  const int w = static_cast<int>(std::to_string(widest).size());
  std::string rule = "    ";
  for (i64 n = 0; n < g.cols; ++n) rule += "+" + std::string(w + 2, '-');
  rule += "+\n";
  out << "    ";
  for (i64 n = 0; n < g.cols; ++n) out << "  " << pad(n, w) << " ";
  out << "\n";
  for (i64 m = 0; m < g.rows; ++m) {
    out << rule << pad(m, 2) << "  ";
    for (i64 n = 0; n < g.cols; ++n) out << "| " << pad(g.at(m, n), w) << " ";
    out << "|\n";
  }
  out << rule;
}

}  // namespace

void print_layout_table(std::ostream& out, const AnyLayout& l, std::optional<int> elem_bytes) {
  if (product(l.layout.shape) > (1 << 20)) throw LayoutError("print is limited to 2^20 elements");
  out << to_string(l) << "\n";
  const std::size_t r = l.layout.rank();
  i64 slices = 1;
  for (std::size_t i = 2; i < r; ++i) slices = checked_mul(slices, product(l.layout.shape[i]));
  for (i64 k = 0; k < slices; ++k) {
    const Grid g = evaluate_grid(l, k);
    if (r > 2) out << (k ? "\n" : "") << "slice " << slice_name(l, k) << ":\n";
    write_table(out, g, cosize(l));  // column width as CuTe's print_layout: digits of cosize
    if (!elem_bytes) continue;
    Grid banks = g;
    for (i64& v : banks.cells) v = (checked_mul(v, *elem_bytes) / 4) % 32;
    out << "\nshared-memory bank of each element (" << *elem_bytes << "-byte elements, 32 banks of 4 bytes):\n";
    write_table(out, banks, 31);
  }
}

namespace {


bool is_number(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

// The layout's words (several words are joined with spaces: `Sw<3,3,3> o (8,64):(64,1)` unquoted).
std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

}  // namespace

int run_eval(const std::vector<std::string>& args, std::ostream& out) {
  CppConstants constants;
  std::vector<std::string> words;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      out << *help_text("eval");
      return 0;
    }
    if (take_define(args, i, constants)) continue;
    if (args[i].rfind("--", 0) == 0) throw LayoutError("eval: unknown option " + args[i] + " (see layoutproof eval --help)");
    words.push_back(args[i]);
  }
  if (words.empty()) throw LayoutError("usage: layoutproof eval L [-D NAME=EXPR ...] (see layoutproof eval --help)");
  const std::vector<i64> o = offsets(parse_layout_any_syntax(joined(words), constants));
  std::string line;
  for (std::size_t i = 0; i < o.size(); ++i) {
    if (i) line += ' ';
    line += std::to_string(o[i]);
  }
  out << line << "\n";
  return 0;
}

int run_print(const std::vector<std::string>& args, std::ostream& out) {
  CppConstants constants;
  std::optional<int> elem_bytes;
  std::vector<std::string> words;
  const auto bytes = [](const std::string& v) {
    if (!is_number(v) || v.size() > 2 || std::stoi(v) < 1 || std::stoi(v) > 64)
      throw LayoutError("--elem-bytes must be between 1 and 64, not '" + v + "'");
    return std::stoi(v);
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      out << *help_text("print");
      return 0;
    }
    if (take_define(args, i, constants)) continue;
    if (args[i] == "--elem-bytes") {
      if (i + 1 >= args.size()) throw LayoutError("--elem-bytes needs a value");
      elem_bytes = bytes(args[++i]);
    } else if (args[i].rfind("--", 0) == 0) {
      throw LayoutError("print: unknown option " + args[i] + " (see layoutproof print --help)");
    } else {
      words.push_back(args[i]);
    }
  }
  if (words.size() >= 2 && !elem_bytes && is_number(words.back())) {  // `print L E` also works
    elem_bytes = bytes(words.back());
    words.pop_back();
  }
  if (words.empty()) throw LayoutError("usage: layoutproof print L [--elem-bytes E] [-D NAME=EXPR ...] (see layoutproof print --help)");
  print_layout_table(out, parse_layout_any_syntax(joined(words), constants), elem_bytes);
  return 0;
}

}  // namespace layoutproof::cli
