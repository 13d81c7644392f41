#include "cli/commands/algebra_command.hpp"

#include <functional>
#include <istream>
#include <map>
#include <ostream>

#include "cli/flags/suggest.hpp"
#include "cli/tokens.hpp"
#include "model/algebra/algebra.hpp"
#include "model/source/cpp_source.hpp"
#include "model/layout/cute_int.hpp"
#include "model/layout/notation.hpp"
#include "model/algebra/tiling.hpp"

namespace layoutproof::cli {
namespace {

using Args = std::vector<std::string>;

// One query: its arguments (args[0] is OP) and how to read and print them.
struct Query {
  Args args;
  bool cute = false;  // --cute-text: read CuTe's exact text (bare ints dynamic), print CuTe's text
  // One reading for the whole query: when any argument writes a `_`-integer, every argument is
  // read exactly (a bare 12 is a run-time int), as the operands of one CuTe expression are. Read
  // one by one, composition '(12,3):(1,24)' '(_4):(_1)' took the first operand as all static and
  // printed (4):(1) where CuTe gives ((4,1)):((1,24)).
  bool marked = false;
  Reading reading() const { return cute || marked ? Reading::exact : Reading::automatic; }
};

struct Op {
  const char* usage;  // after "algebra "
  const char* help;   // one line
  std::function<std::string(const Query&)> run;
};

void need(const Query& q, std::size_t lo, std::size_t hi, const char* usage) {
  const std::size_t n = q.args.size() - 1;
  if (n < lo || n > hi) throw LayoutError(std::string("usage: algebra ") + usage);
}

// A bare swizzle `Sw<B,M,S>` (no " o "): a function, not a layout with a domain.
bool is_bare_swizzle(const std::string& s) {
  return (s.rfind("Sw<", 0) == 0 || s.rfind("Swizzle<", 0) == 0) && s.find(" o ") == std::string::npos &&
         s.find('{') == std::string::npos;
}

// CuTe notation first (its printed text, `(_4):(_-1)` and `_1@0` included), else the C++ a kernel
// writes (model/source/cpp_source.hpp); a text that is neither gets the notation's error.
// A text with a notation `:` (not C++'s `::`) that fails as notation keeps the notation's error.
bool has_notation_colon(const std::string& text) {
  for (std::size_t k = 0; k < text.size(); ++k)
    if (text[k] == ':' && (k + 1 >= text.size() || text[k + 1] != ':') && (k == 0 || text[k - 1] != ':')) return true;
  return false;
}

AnyLayout layout_arg(const Query& q, std::size_t i) {
  const std::string& text = q.args[i];
  try {
    return parse_any_layout(text, q.reading(), true);
  } catch (const ParseError&) {
    if (!looks_like_cpp_source(text) || has_notation_colon(text)) throw;
  }
  return parse_layout_any_syntax(text);
}

Layout plain_arg(const Query& q, std::size_t i, const char* op) {
  const AnyLayout l = layout_arg(q, i);
  if (l.is_swizzled()) throw LayoutError(std::string(op) + " is defined for plain layouts, not swizzled ones (CuTe has no such overload)");
  return l.layout;
}

Tiler tiler_arg(const Query& q, std::size_t i) {
  const std::string& text = q.args[i];
  try {
    return parse_tiler(text, q.reading());
  } catch (const ParseError&) {
    if (!looks_like_cpp_source(text) || has_notation_colon(text)) throw;
  }
  const AnyLayout l = parse_layout_any_syntax(text);
  if (l.is_swizzled()) throw LayoutError("a swizzled layout is not a tiler");
  return Tiler::of(l.layout);
}

IntTuple tuple_arg(const Query& q, std::size_t i) { return parse_int_tuple(q.args[i], q.reading()); }

// A shape, or a layout standing for its shape.
IntTuple shape_arg(const Query& q, std::size_t i) {
  try {
    return tuple_arg(q, i);
  } catch (const ParseError&) {
  }
  return layout_arg(q, i).layout.shape;
}

std::string show(const Query& q, const AnyLayout& l) { return q.cute ? to_cute_string(l) : to_string(l); }
std::string show(const Query& q, const IntTuple& t) { return q.cute ? to_cute_string(t) : to_string(t); }
// A count CuTe computes at compile time (rank, depth): `_2` in CuTe's text.
std::string show_static(const Query& q, i64 v) { return (q.cute ? "_" : "") + std::to_string(v); }

bool all_static(const Layout& l) { return l.shape.is_static() && l.stride.is_static(); }

std::function<std::string(const Query&)> tiling(Layout (*f)(const Layout&, const Tiler&), const char* usage) {
  return [f, usage](const Query& q) {
    need(q, 2, 2, usage);
    const AnyLayout l = layout_arg(q, 1);  // CuTe: the swizzle and offset are kept around the result
    return show(q, l.with_inner(f(l.layout, tiler_arg(q, 2))));
  };
}

std::function<std::string(const Query&)> rank_product(Layout (*f)(const Layout&, const Layout&), const char* usage) {
  return [f, usage](const Query& q) {
    need(q, 2, 2, usage);
    const AnyLayout l = layout_arg(q, 1);
    return show(q, l.with_inner(f(l.layout, plain_arg(q, 2, usage))));
  };
}

std::string call_query(const Query& q) {
  need(q, 2, 2, "call L INDEX|COORD");
  const AnyLayout l = layout_arg(q, 1);
  const IntTuple c = tuple_arg(q, 2);
  const bool st = all_static(l.layout) && c.is_static() && l.offset_is_static;
  for (const IntTuple& d : leaf_nodes(l.layout.stride))
    if (d.is_basis()) {
      if (l.is_swizzled()) throw LayoutError("a swizzled layout with basis strides cannot be evaluated");
      const IntTuple v = evaluate_coord(l.layout, c);  // an arithmetic tuple (a coordinate)
      return show(q, map_leaves(v, [&](const IntTuple& x) { return IntTuple::integer(x.value(), st); }));
    }
  return show(q, IntTuple::integer(evaluate(l, c), st));
}

std::string composition_query(const Query& q) {
  need(q, 2, 2, "composition A B");
  const std::string &a = q.args[1], &b = q.args[2];
  if (is_bare_swizzle(a)) {  // composition(Sw, B) = Sw o _0 o B (B itself for B = 0)
    const Swizzle sw = parse_swizzle(a);
    const AnyLayout l = layout_arg(q, 2);
    if (l.is_swizzled()) throw LayoutError("composition of a swizzle with a swizzled layout is not supported");
    return show(q, sw.B == 0 ? AnyLayout(l.layout) : AnyLayout(sw, 0, l.layout));
  }
  const AnyLayout la = layout_arg(q, 1);
  if (is_bare_swizzle(b)) {  // composition(A, Sw) = make_swizzle<A(Y), A(Z)>() o A
    if (la.is_swizzled()) throw LayoutError("composition of a swizzled layout with a swizzle is not supported");
    return show(q, composition(la.layout, parse_swizzle(b)));
  }
  if (b.find(" o ") != std::string::npos) {
    const AnyLayout lb = layout_arg(q, 2);
    if (!(la.is_swizzled() && lb.is_swizzled())) return show(q, composition(la, lb));
    // CuTe's nested ComposedLayout: A's swizzle and offset around composition(inner(A), B), whose
    // own check (inner(A) o B) implies the whole one.
    const AnyLayout inner = composition(AnyLayout(la.layout), lb);
    const std::string whole = show(q, la), tail = show(q, AnyLayout(la.layout));
    return whole.substr(0, whole.size() - tail.size()) + show(q, inner);
  }
  return show(q, la.with_inner(composition(la.layout, tiler_arg(q, 2))));
}

// An inverse; of Sw o OFF o L with a static OFF other than _0, CuTe's R o -OFF o Sw.
std::string inverse_query(const Query& q, bool right) {
  const AnyLayout l = layout_arg(q, 1);
  if (l.is_swizzled() && !l.is_smem_ptr() && !(l.offset == 0 && l.offset_is_static)) {
    const InverseWithOffset r = inverse_with_offset(l, right);
    return q.cute ? to_cute_string(r) : to_string(r.layout) + " o " + std::to_string(r.offset) + " o " + to_string(r.swizzle);
  }
  return show(q, right ? right_inverse(l) : left_inverse(l));
}

std::string complement_query(const Query& q) {
  need(q, 1, 2, "complement L [COTARGET]");
  const Layout l = layout_arg(q, 1).layout;  // CuTe: the complement of the inner layout
  return show(q, q.args.size() == 3 ? complement(l, shape_arg(q, 2)) : complement(l));
}

const std::vector<std::pair<std::string, Op>>& ops() {
  static const std::vector<std::pair<std::string, Op>> table = {
      {"size", {"size L", "the number of elements (CuTe's size)", [](const Query& q) {
         need(q, 1, 1, "size L");
         return show(q, size_cute(layout_arg(q, 1).layout));
       }}},
      {"cosize", {"cosize L", "one past the largest offset of the inner layout", [](const Query& q) {
         need(q, 1, 1, "cosize L");
         return show(q, cosize_cute(layout_arg(q, 1).layout));
       }}},
      {"rank", {"rank L", "the number of top-level modes", [](const Query& q) {
         need(q, 1, 1, "rank L");
         return show_static(q, static_cast<i64>(layout_arg(q, 1).layout.rank()));
       }}},
      {"depth", {"depth L", "the nesting depth of the shape", [](const Query& q) {
         need(q, 1, 1, "depth L");
         return show_static(q, depth(layout_arg(q, 1).layout));
       }}},
      {"call", {"call L INDEX|COORD", "L(5), L((1,2)), a partial coordinate L((5,1)) as in CuTe", call_query}},
      {"crd2idx", {"crd2idx COORD SHAPE [STRIDE]", "a coordinate's index (colexicographic without STRIDE)", [](const Query& q) {
         need(q, 2, 3, "crd2idx COORD SHAPE [STRIDE]");
         const IntTuple c = tuple_arg(q, 1), s = tuple_arg(q, 2);
         return std::to_string(q.args.size() == 4 ? crd2idx(c, s, tuple_arg(q, 3)) : crd2idx(c, s));
       }}},
      {"idx2crd", {"idx2crd INDEX SHAPE [STRIDE]", "an index's coordinate", [](const Query& q) {
         need(q, 2, 3, "idx2crd INDEX SHAPE [STRIDE]");
         const IntTuple i = tuple_arg(q, 1), s = tuple_arg(q, 2);
         return to_string(q.args.size() == 4 ? idx2crd(i, s, tuple_arg(q, 3)) : idx2crd(i, s));
       }}},
      {"coalesce", {"coalesce L [PROFILE]", "merge modes that can be merged (by mode with PROFILE)", [](const Query& q) {
         need(q, 1, 2, "coalesce L [PROFILE]");
         const AnyLayout l = layout_arg(q, 1);
         return show(q, l.with_inner(q.args.size() == 3 ? coalesce(l.layout, tuple_arg(q, 2)) : coalesce(l.layout)));
       }}},
      {"filter", {"filter L", "coalesce after dropping stride-_0 modes", [](const Query& q) {
         need(q, 1, 1, "filter L");
         const AnyLayout l = layout_arg(q, 1);
         return show(q, l.with_inner(filter(l.layout)));
       }}},
      {"composition", {"composition A B", "A o B; B a layout, a tiler, a swizzled layout or Sw<B,M,S>", composition_query}},
      {"complement", {"complement L [COTARGET]", "the offsets between L's, ordered, up to COTARGET", complement_query}},
      {"right_inverse", {"right_inverse L", "R with L(R(i)) == i (L may be swizzled)", [](const Query& q) {
         need(q, 1, 1, "right_inverse L");
         return inverse_query(q, true);
       }}},
      {"left_inverse", {"left_inverse L", "R with L(R(L(i))) == L(i) (L may be swizzled)", [](const Query& q) {
         need(q, 1, 1, "left_inverse L");
         return inverse_query(q, false);
       }}},
      {"max_common_vector", {"max_common_vector A B", "how many contiguous elements A and B agree on", [](const Query& q) {
         need(q, 2, 2, "max_common_vector A B");
         return show(q, max_common_vector(layout_arg(q, 1), layout_arg(q, 2)));
       }}},
      {"max_common_layout", {"max_common_layout A B", "the layout of those elements", [](const Query& q) {
         need(q, 2, 2, "max_common_layout A B");
         return show(q, max_common_layout(layout_arg(q, 1), layout_arg(q, 2)));
       }}},
      {"nullspace", {"nullspace L", "the layout of the indices L maps to 0", [](const Query& q) {
         need(q, 1, 1, "nullspace L");
         const AnyLayout l = layout_arg(q, 1);
         return show(q, l.is_swizzled() ? Layout(1, 0) : nullspace(l.layout));  // CuTe: _1:_0 for a ComposedLayout
       }}},
      {"make_layout_like", {"make_layout_like L", "L's shape with compact strides in L's stride order", [](const Query& q) {
         need(q, 1, 1, "make_layout_like L");
         return show(q, make_layout_like(plain_arg(q, 1, "make_layout_like")));
       }}},
      {"domain_distribute", {"domain_distribute SHAPE_A SHAPE_B", "spread size(B) over A's modes (static shapes)", [](const Query& q) {
         need(q, 2, 2, "domain_distribute SHAPE_A SHAPE_B");
         return show(q, domain_distribute(shape_arg(q, 1), shape_arg(q, 2)));
       }}},
      {"logical_divide", {"logical_divide L TILER", "((tile),(rest)) by layout or by mode", tiling(logical_divide, "logical_divide L TILER")}},
      {"zipped_divide", {"zipped_divide L TILER", "((tiles...),(rests...))", tiling(zipped_divide, "zipped_divide L TILER")}},
      {"tiled_divide", {"tiled_divide L TILER", "((tiles...),rest0,rest1,...)", tiling(tiled_divide, "tiled_divide L TILER")}},
      {"flat_divide", {"flat_divide L TILER", "(tile0,tile1,...,rest0,rest1,...)", tiling(flat_divide, "flat_divide L TILER")}},
      {"logical_product", {"logical_product A TILER", "(A,(B's arrangement of A))", tiling(logical_product, "logical_product A TILER")}},
      {"zipped_product", {"zipped_product A TILER", "((A...),(rests...))", tiling(zipped_product, "zipped_product A TILER")}},
      {"tiled_product", {"tiled_product A TILER", "((A...),rest0,rest1,...)", tiling(tiled_product, "tiled_product A TILER")}},
      {"flat_product", {"flat_product A TILER", "(A0,A1,...,rest0,rest1,...)", tiling(flat_product, "flat_product A TILER")}},
      {"blocked_product", {"blocked_product A B", "A repeated as blocks over B", rank_product(blocked_product, "blocked_product A B")}},
      {"raked_product", {"raked_product A B", "A's elements interleaved over B", rank_product(raked_product, "raked_product A B")}},
      {"swizzle", {"swizzle Sw<B,M,S> X", "the swizzle applied to the offset X", [](const Query& q) {
         need(q, 2, 2, "swizzle Sw<B,M,S> X");
         const IntTuple x = tuple_arg(q, 2);
         if (x.is_tuple()) throw LayoutError("swizzle takes an integer offset");
         return std::to_string(parse_swizzle(q.args[1]).apply(x.value()));
       }}},
  };
  return table;
}

const Op* find_op(const std::string& name) {
  for (const auto& [n, op] : ops())
    if (n == name) return &op;
  return nullptr;
}

// Splits the flags out of a query's words.
Query make_query(std::vector<std::string> words, bool cute) {
  Query q;
  q.cute = cute;
  for (std::string& w : words) {
    if (w == "--cute-text") q.cute = true;
    else q.args.push_back(std::move(w));
  }
  for (std::size_t i = 1; i < q.args.size(); ++i) q.marked = q.marked || has_static_marker(q.args[i]);
  return q;
}

bool is_help(const std::string& w) { return w == "--help" || w == "-h" || w == "help"; }

}  // namespace

std::string algebra_help() {
  std::string s =
      "layoutproof algebra OP ARG... [--cute-text]     one CuTe layout-algebra operation (CUTLASS 4.x semantics)\n"
      "layoutproof algebra - [--cute-text]             one query per line on stdin; one result or 'error: ...' line each\n"
      "layoutproof algebra OP --help                   the operation's usage\n\n"
      "Operations:\n";
  for (const auto& [name, op] : ops()) {
    std::string usage = op.usage;
    usage.resize(std::max<std::size_t>(usage.size() + 2, 40), ' ');
    s += "  " + usage + op.help + "\n";
  }
  s +=
      "\nArguments are CuTe notation (8:4, (_8,_64):(_64,_1), Sw<3,4,3> o _0 o L, Sw<3,4,3> o smem_ptr[16b](unset) o L,\n"
      "basis strides (_4,_4):(_1@1,_1@0)) or the C++ a kernel writes (make_layout(make_shape(_8{},_64{}), LayoutRight{})).\n"
      "Tilers: [8:1,_,(2,2):(1,4)], CuTe's printed Tile (_2:_1,_4:_2), an integer n (n:_1), _ (keep the mode).\n\n"
      "Static and dynamic integers: CuTe prints a compile-time int as _8 and a run-time one as 8, and their\n"
      "results differ in structure (coalesce keeps dynamic modes apart, right_inverse drops dynamic strides, ...).\n"
      "  default        a text with no '_'-int at all is read all static (layoutproof's traditional notation);\n"
      "                 a text with one '_'-int is read exactly (_8 static, 8 dynamic); results print without '_'\n"
      "  --cute-text    every text is read exactly as CuTe prints it (8 is dynamic) and results print CuTe's\n"
      "                 text: (_8,_64):(_64,_1), _1:_0, Sw<3,4,3> o _0 o (_8,_64):(_64,_1), _16\n\n"
      "Every result is CuTe's, or an 'error:' naming the condition that fails: one CuTe checks at compile time\n"
      "(its static_assert text is quoted) or a post-condition CuTe's result breaks (R(c) == A(B(c)), ...).\n";
  return s;
}

const std::vector<std::string>& algebra_ops() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& [name, op] : ops()) n.push_back(name);
    return n;
  }();
  return names;
}

std::string run_algebra_query(const std::vector<std::string>& args) { return run_algebra_query(args, false); }

std::string run_algebra_query(const std::vector<std::string>& words, bool cute_text) {
  const Query q = make_query(words, cute_text);
  if (q.args.empty()) throw LayoutError("missing OP (one of size, cosize, ..., swizzle; see layoutproof algebra --help)");
  if (is_help(q.args[0])) return algebra_help();
  const Op* op = find_op(q.args[0]);
  if (!op)
    throw LayoutError("unknown algebra operation '" + q.args[0] + "'" + did_you_mean(q.args[0], algebra_ops()) + " (see layoutproof algebra --help)");
  if (q.args.size() == 2 && is_help(q.args[1])) return std::string("usage: layoutproof algebra ") + op->usage + " [--cute-text]\n  " + op->help;
  return op->run(q);
}

int run_algebra_batch(std::istream& in, std::ostream& out) { return run_algebra_batch(in, out, {}); }

int run_algebra_batch(std::istream& in, std::ostream& out, const std::vector<std::string>& flags) {
  bool cute = false;
  for (const std::string& f : flags) {
    if (f == "--cute-text") cute = true;
    else throw LayoutError("algebra -: unknown option '" + f + "' (only --cute-text)");
  }
  std::string line;
  while (std::getline(in, line)) {
    try {
      out << run_algebra_query(tokenize(line), cute) << '\n';
    } catch (const std::exception& e) {
      out << "error: " << e.what() << '\n';
    }
  }
  out.flush();
  return 0;
}

}  // namespace layoutproof::cli
