#include "cli/commands/print_command.hpp"

#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/flags/common_flags.hpp"
#include "cli/help.hpp"
#include "cli/layout_input.hpp"
#include "model/layout/notation.hpp"

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

namespace {

constexpr i64 kMaxElements = i64{1} << 20;  // print and eval: what a terminal (or a script) can take

// Refuses a layout of more than kMaxElements elements, multiplying its extents with an early exit
// (so (4294967296,4294967296):(0,0) is refused, never wrapped to 0).
void check_size_limit(const AnyLayout& l, const std::string& command) {
  i64 n = 1;
  for (i64 s : leaves(l.layout.shape)) {
    if (s < 0 || (s > 0 && n > kMaxElements / s))
      throw LayoutError(command + " is limited to 2^20 elements; " + to_string(l.layout.shape) + " has more");
    n *= s;
  }
}

// The bank of element offset v: byte address v * E from base 0 (or any base the layout's swizzle
// allows), bank =
// floor(address / 4) mod 32, as the hardware computes it for base + address (a negative offset lies
// below the base: -1 with 4-byte elements is bank 31, never "-1").
i64 bank_of(i64 v, int elem_bytes) {
  const i64 b = checked_mul(v, elem_bytes), word = b >= 0 ? b / 4 : -((-b + 3) / 4);
  return ((word % 32) + 32) % 32;
}

}  // namespace

void print_layout_table(std::ostream& out, const AnyLayout& l, std::optional<int> elem_bytes) {
  check_size_limit(l, "print");
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
    for (i64& v : banks.cells) v = bank_of(v, *elem_bytes);
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

namespace {

// What print and eval take: the layout's words, -D constants, --elem-bytes E and --byte-swizzle SW.
struct LayoutArgs {
  CppConstants constants;
  std::optional<int> elem_bytes;
  std::string byte_swizzle;
  std::vector<std::string> words;
};

int elem_bytes_value(const std::string& v) {
  return static_cast<int>(parse_int_in(v, "--elem-bytes", 1, 64));
}

FlagTable layout_table(const std::string& command, LayoutArgs& a) {
  FlagTable t(command);
  t.value({"--elem-bytes"}, "E",
          command == "print" ? "also print the bank of every element of E bytes (1 to 64)" : "the element width --byte-swizzle needs (1 to 64)",
          [&a](const std::string& v) { a.elem_bytes = elem_bytes_value(v); });
  t.value({"--byte-swizzle"}, "SW", "a swizzle on byte addresses over the plain L (needs --elem-bytes): the smem_ptr form",
          [&a](const std::string& v) { a.byte_swizzle = v; });
  add_define_flag(t, a.constants, "a constant the C++ layout uses");
  t.positional("L", [&a](const std::string& v) { a.words.push_back(v); });
  return t;
}

// Reads args; returns false after printing --help.
bool read_layout_args(const std::vector<std::string>& args, const std::string& command, LayoutArgs& a, std::ostream& out) {
  if (wants_help(args)) {
    out << *help_text(command);
    return false;
  }
  layout_table(command, a).parse(args);
  if (a.words.empty())
    throw LayoutError("usage: layoutproof " + command + " L [--elem-bytes E] [--byte-swizzle SW] [-D NAME=EXPR ...] (see layoutproof " + command +
                      " --help)");
  return true;
}

// The layout, under --byte-swizzle when given (the one smem_ptr form); an smem_ptr form's element
// width must be --elem-bytes when both are given.
AnyLayout layout_of(const LayoutArgs& a) {
  AnyLayout l = parse_layout_any_syntax(joined(a.words), a.constants);
  if (!a.byte_swizzle.empty()) {
    if (!a.elem_bytes) throw LayoutError("--byte-swizzle needs the element width: --elem-bytes E");
    if (l.is_swizzled()) throw LayoutError("--byte-swizzle on the swizzled " + to_string(l) + ": give a plain layout");
    const LayoutOrSwizzle sw = parse_layout_or_swizzle(a.byte_swizzle, a.constants);
    if (!sw.bare_swizzle) throw LayoutError("--byte-swizzle takes a swizzle (Sw<3,4,3> or Swizzle<3,4,3>{}), not a layout");
    l = AnyLayout::smem_ptr(*sw.layout.swizzle, 8 * *a.elem_bytes, l.layout);
  }
  if (l.is_smem_ptr() && a.elem_bytes && l.smem_ptr_bits != 8 * *a.elem_bytes)
    throw LayoutError(to_string(l) + " is a layout of " + std::to_string(l.smem_ptr_bits) + "-bit elements, not " +
                      std::to_string(*a.elem_bytes) + "-byte ones");
  return l;
}

}  // namespace

FlagTable layout_flags(const std::string& command) {
  auto a = std::make_shared<LayoutArgs>();
  FlagTable t = layout_table(command, *a);
  t.keep(a);
  return t;
}

int run_eval(const std::vector<std::string>& args, std::ostream& out) {
  LayoutArgs a;
  if (!read_layout_args(args, "eval", a, out)) return 0;
  const AnyLayout l = layout_of(a);
  check_size_limit(l, "eval");
  const std::vector<i64> o = offsets(l);
  std::string line;
  for (std::size_t i = 0; i < o.size(); ++i) {
    if (i) line += ' ';
    line += std::to_string(o[i]);
  }
  out << line << "\n";
  return 0;
}

int run_print(const std::vector<std::string>& args, std::ostream& out) {
  LayoutArgs a;
  if (!read_layout_args(args, "print", a, out)) return 0;
  const std::string& last = a.words.back();
  if (a.words.size() >= 2 && !a.elem_bytes && (is_number(last) || (last.size() > 1 && last[0] == '-' && is_number(last.substr(1))))) {
    a.elem_bytes = elem_bytes_value(last);  // `print L E` also works (and `print L -5` is refused as E)
    a.words.pop_back();
  }
  print_layout_table(out, layout_of(a), a.elem_bytes);
  return 0;
}

}  // namespace layoutproof::cli
