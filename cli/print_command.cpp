#include "cli/print_command.hpp"

#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "model/notation.hpp"

namespace layoutproof::cli {
namespace {

struct Grid {
  i64 rows = 0, cols = 0;
  std::vector<i64> cells;  // row-major
  i64 at(i64 m, i64 n) const { return cells[static_cast<std::size_t>(m * cols + n)]; }
};

Grid evaluate_grid(const AnyLayout& l) {
  if (l.layout.rank() > 2) throw LayoutError("print needs a layout of rank 1 or 2, not " + std::to_string(l.layout.rank()));
  Grid g;
  g.rows = product(l.layout.shape[0]);
  g.cols = l.layout.rank() == 2 ? product(l.layout.shape[1]) : 1;
  if (g.rows * g.cols > (1 << 20)) throw LayoutError("print is limited to 2^20 elements");
  for (i64 m = 0; m < g.rows; ++m)
    for (i64 n = 0; n < g.cols; ++n) {
      const IntTuple c = l.layout.rank() == 2 ? IntTuple::tuple({m, n}) : IntTuple(m);
      g.cells.push_back(evaluate(l, c));
    }
  return g;
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
  const Grid g = evaluate_grid(l);
  out << to_string(l) << "\n";
  write_table(out, g, cosize(l));  // column width as CuTe's print_layout: digits of cosize
  if (!elem_bytes) return;
  Grid banks = g;
  for (i64& v : banks.cells) v = (checked_mul(v, *elem_bytes) / 4) % 32;
  out << "\nshared-memory bank of each element (" << *elem_bytes << "-byte elements, 32 banks of 4 bytes):\n";
  write_table(out, banks, 31);
}

}  // namespace layoutproof::cli
