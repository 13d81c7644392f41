#include "cli/algebra_command.hpp"

#include <functional>
#include <istream>
#include <map>
#include <ostream>

#include "cli/tokens.hpp"
#include "model/algebra.hpp"
#include "model/notation.hpp"
#include "model/tiling.hpp"

namespace layoutproof::cli {
namespace {

using Args = std::vector<std::string>;
using Op = std::function<std::string(const Args&)>;

void need(const Args& a, std::size_t lo, std::size_t hi, const char* usage) {
  const std::size_t n = a.size() - 1;
  if (n < lo || n > hi) throw LayoutError(std::string("usage: algebra ") + usage);
}

// A bare swizzle `Sw<B,M,S>` as a layout operand means Sw o 0 o (identity): only composition uses it.
bool is_bare_swizzle(const std::string& s) {
  return (s.rfind("Sw", 0) == 0) && s.find(" o ") == std::string::npos;
}

Layout plain(const AnyLayout& l, const char* op) {
  if (l.is_swizzled()) throw LayoutError(std::string(op) + " is defined for plain layouts, not swizzled ones");
  return l.layout;
}

std::string show(const AnyLayout& l) { return to_string(l); }

// Divides and products act on the inner layout of a swizzled layout (CuTe layout_composed.hpp).
Op tiling_op(const char* usage, Layout (*f)(const Layout&, const Tiler&)) {
  return [usage, f](const Args& a) {
    need(a, 2, 2, usage);
    const AnyLayout l = parse_any_layout(a[1]);
    return show(l.with_inner(f(l.layout, parse_tiler(a[2]))));
  };
}

Op rank_product_op(const char* usage, Layout (*f)(const Layout&, const Layout&)) {
  return [usage, f](const Args& a) {
    need(a, 2, 2, usage);
    const AnyLayout l = parse_any_layout(a[1]);
    return show(l.with_inner(f(l.layout, parse_layout(a[2]))));
  };
}

std::string composition_query(const Args& a) {
  need(a, 2, 2, "composition A B");
  if (is_bare_swizzle(a[1])) return show(AnyLayout(parse_swizzle(a[1]), 0, parse_layout(a[2])));
  const AnyLayout l = parse_any_layout(a[1]);
  return show(l.with_inner(composition(l.layout, parse_tiler(a[2]))));
}

const std::map<std::string, Op>& table() {
  static const std::map<std::string, Op> ops = {
      {"size", [](const Args& a) { need(a, 1, 1, "size L"); return std::to_string(size(parse_any_layout(a[1]).layout)); }},
      {"cosize", [](const Args& a) { need(a, 1, 1, "cosize L"); return std::to_string(cosize(parse_any_layout(a[1]))); }},
      {"rank", [](const Args& a) { need(a, 1, 1, "rank L"); return std::to_string(parse_any_layout(a[1]).layout.rank()); }},
      {"depth", [](const Args& a) { need(a, 1, 1, "depth L"); return std::to_string(depth(parse_any_layout(a[1]).layout)); }},
      {"call",
       [](const Args& a) {
         need(a, 2, 2, "call L INDEX|COORD");
         return std::to_string(evaluate(parse_any_layout(a[1]), parse_int_tuple(a[2])));
       }},
      {"crd2idx",
       [](const Args& a) {
         need(a, 2, 3, "crd2idx COORD SHAPE [STRIDE]");
         const IntTuple c = parse_int_tuple(a[1]), s = parse_int_tuple(a[2]);
         return std::to_string(a.size() == 4 ? crd2idx(c, s, parse_int_tuple(a[3])) : crd2idx(c, s));
       }},
      {"idx2crd",
       [](const Args& a) {
         need(a, 2, 3, "idx2crd INDEX SHAPE [STRIDE]");
         const IntTuple i = parse_int_tuple(a[1]), s = parse_int_tuple(a[2]);
         return to_string(a.size() == 4 ? idx2crd(i, s, parse_int_tuple(a[3])) : idx2crd(i, s));
       }},
      {"coalesce",
       [](const Args& a) {
         need(a, 1, 2, "coalesce L [PROFILE]");
         const AnyLayout l = parse_any_layout(a[1]);
         return show(l.with_inner(a.size() == 3 ? coalesce(l.layout, parse_int_tuple(a[2])) : coalesce(l.layout)));
       }},
      {"composition", composition_query},
      {"complement",
       [](const Args& a) {
         need(a, 1, 2, "complement L [COTARGET]");
         const Layout l = parse_any_layout(a[1]).layout;  // CuTe: complement of the inner layout
         return to_string(a.size() == 3 ? complement(l, parse_int_tuple(a[2])) : complement(l));
       }},
      {"right_inverse",
       [](const Args& a) {
         need(a, 1, 1, "right_inverse L");
         return to_string(right_inverse(plain(parse_any_layout(a[1]), "right_inverse")));
       }},
      {"left_inverse",
       [](const Args& a) {
         need(a, 1, 1, "left_inverse L");
         return to_string(left_inverse(plain(parse_any_layout(a[1]), "left_inverse")));
       }},
      {"logical_divide", tiling_op("logical_divide L TILER", logical_divide)},
      {"zipped_divide", tiling_op("zipped_divide L TILER", zipped_divide)},
      {"tiled_divide", tiling_op("tiled_divide L TILER", tiled_divide)},
      {"logical_product", tiling_op("logical_product A TILER", logical_product)},
      {"zipped_product", tiling_op("zipped_product A TILER", zipped_product)},
      {"tiled_product", tiling_op("tiled_product A TILER", tiled_product)},
      {"blocked_product", rank_product_op("blocked_product A B", blocked_product)},
      {"raked_product", rank_product_op("raked_product A B", raked_product)},
      {"swizzle",
       [](const Args& a) {
         need(a, 2, 2, "swizzle Sw<B,M,S> X");
         const IntTuple x = parse_int_tuple(a[2]);
         if (x.is_tuple()) throw LayoutError("swizzle takes an integer offset");
         return std::to_string(parse_swizzle(a[1]).apply(x.value()));
       }},
  };
  return ops;
}

}  // namespace

const std::vector<std::string>& algebra_ops() {
  static const std::vector<std::string> names = {
      "size",           "cosize",         "rank",          "depth",           "call",           "crd2idx",
      "idx2crd",        "coalesce",       "composition",   "complement",      "right_inverse",  "left_inverse",
      "logical_divide", "zipped_divide",  "tiled_divide",  "logical_product", "zipped_product", "tiled_product",
      "blocked_product", "raked_product", "swizzle"};
  return names;
}

std::string run_algebra_query(const std::vector<std::string>& args) {
  if (args.empty()) throw LayoutError("missing OP (one of size, cosize, ..., swizzle; see --help)");
  const auto it = table().find(args[0]);
  if (it == table().end()) throw LayoutError("unknown algebra operation '" + args[0] + "'");
  return it->second(args);
}

int run_algebra_batch(std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    try {
      out << run_algebra_query(tokenize(line)) << '\n';
    } catch (const std::exception& e) {
      out << "error: " << e.what() << '\n';
    }
  }
  out.flush();
  return 0;
}

}  // namespace layoutproof::cli
