#include "model/source/kernel_expr.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "model/atoms/name_suggest.hpp"
#include "model/source/cpp_source.hpp"

namespace layoutproof {
namespace {

constexpr const char* kMma = "TiledMMA";
constexpr const char* kMmaAtom = "MMA_Atom";
constexpr const char* kCopyAtom = "Copy_Atom";
constexpr const char* kCopy = "TiledCopy";

template <class T>
const T& as(const CppValue& v, const char* kind, const CppExpr& at, CppEvaluator& ev) {
  if (v.kind != CppValue::Kind::object || v.object_kind != kind) ev.fail_expected(at, std::string("a ") + kind, v);
  return std::any_cast<const T&>(v.object);
}

// Every template argument of an atom is evaluated before the atom is looked up, so what names it
// (a -D constant, a `using X = ...;` line, a selector's result) is applied wherever it stands:
//   -D CopyOpR2S=SM90_U32x4_STSM_N  Copy_Atom<CopyOpR2S, half_t>               -> SM90_U32x4_STSM_N
//   using TA = float;               SM80_CP_ASYNC_CACHEALWAYS<TA>              -> SM80_CP_ASYNC_CACHEALWAYS<float>
//   -D MmaAtom=SM80_16x8x16_F32F16F16F32_TN  TiledMMA<MMA_Atom<MmaAtom>, ...>  -> that atom
// The evaluator spells a type value with its arguments evaluated (CppEvaluator::eval_unknown), and
// the atom tables read that spelling (model/atoms/atom_spelling.hpp).

// The op of a type spelling, without its template arguments ("SM80_CP_ASYNC_CACHEALWAYS<float>"
// -> "SM80_CP_ASYNC_CACHEALWAYS"), for messages.
std::string op_of(const std::string& type_name) { return type_name.substr(0, type_name.find('<')); }

// "unknown WHAT 'NAME'" with the reason CuTe's op is not modelled, or what it could have been.
[[noreturn]] void unknown_atom(CppEvaluator& ev, const CppExpr& at, const std::string& what, const std::string& name,
                               const std::optional<std::string>& unmodelled, const std::vector<std::string>& known) {
  if (unmodelled) ev.fail(at, what + " '" + name + "' is not modelled: " + *unmodelled);
  ev.fail(at, "unknown " + what + " '" + name + "'" + name_hint(op_of(name), known));
}

// The MMA atom a value denotes: an MMA_Atom<Op> object or the type Op; nullopt for any other value.
std::optional<MmaAtomInfo> mma_atom_value(const CppValue& v, const CppExpr& at, CppEvaluator& ev) {
  if (v.kind == CppValue::Kind::object && v.object_kind == kMmaAtom) return std::any_cast<const MmaAtomInfo&>(v.object);
  if (v.kind != CppValue::Kind::type) return std::nullopt;
  try {
    return find_mma_atom(v.type_name);
  } catch (const LayoutError& err) {
    ev.fail(at, err.what());
  }
}

// The MMA atom `e` evaluates to (Op, Op{}, MMA_Atom<Op>, a constant or binding naming one).
MmaAtomInfo require_mma_atom(const CppExpr& e, CppEvaluator& ev) {
  const CppValue v = ev.eval(e);
  if (auto a = mma_atom_value(v, e, ev)) return *a;
  if (v.kind != CppValue::Kind::type) ev.fail_expected(e, "an MMA atom (SM80_16x8x16_F32F16F16F32_TN{}, MMA_Atom<Op>{}, ...)", v);
  unknown_atom(ev, e, "MMA atom", v.type_name, unmodelled_mma_reason(op_of(v.type_name)), mma_atom_names());
}

// Copy_Atom<CopyOp, ValueType>{} (or the type Copy_Atom<CopyOp, ValueType>).
CopyAtom copy_atom_of(const CppExpr& e, CppEvaluator& ev) {
  if (e.targs.size() != 2) ev.fail(e, "Copy_Atom<CopyOp, ValueType> takes two template arguments");
  const CppExpr& op_e = e.targs[0];
  const CppValue op = ev.eval(op_e);
  if (op.kind != CppValue::Kind::type) ev.fail_expected(op_e, "a copy operation (SM75_U32x4_LDSM_N, UniversalCopy<uint128_t>, ...)", op);
  std::optional<CopyOpInfo> info;
  try {
    info = find_copy_op(op.type_name);
  } catch (const LayoutError& err) {
    ev.fail(op_e, err.what());
  }
  if (!info) unknown_atom(ev, op_e, "copy operation", op.type_name, unmodelled_copy_reason(op_of(op.type_name)), copy_op_names());
  const CppValue t = ev.eval(e.targs[1]);
  if (t.kind != CppValue::Kind::type) ev.fail_expected(e.targs[1], "the value type (half_t, float, ...)", t);
  if (!type_bits(t.type_name)) ev.fail(e.targs[1], "unknown element type '" + t.type_name + "'" + name_hint(t.type_name, type_names()));
  try {
    return make_copy_atom(*info, t.type_name);
  } catch (const LayoutError& err) {
    ev.fail(e, err.what());
  }
}

// A permutation mode of Tile<...>/make_tile(...): `_` -> nullopt, n -> n:1, a layout.
std::optional<Layout> perm_mode(const CppExpr& e, CppEvaluator& ev) {
  const CppValue v = ev.eval(e);
  if (v.kind == CppValue::Kind::underscore) return std::nullopt;
  if (v.kind == CppValue::Kind::type && (v.type_name == "Underscore" || v.type_name == "_")) return std::nullopt;
  if (v.kind == CppValue::Kind::integer) return Layout(IntTuple(v.integer), IntTuple(1));
  if (v.kind == CppValue::Kind::layout && !v.layout.is_swizzled()) return v.layout.layout;
  if (v.kind == CppValue::Kind::tuple && v.tuple.is_leaf()) return Layout(v.tuple, IntTuple(1));
  ev.fail(e, "a permutation mode is `_`, an integer or a layout, got " + v.describe());
}

std::vector<std::optional<Layout>> permutation(const CppExpr& e, CppEvaluator& ev) {
  const bool tile = e.name == "Tile" || e.name == "make_tile";
  if (!tile) ev.fail(e, "expected the permutation Tile<...>{} or make_tile(...)");
  const auto& modes = e.name == "Tile" ? e.targs : e.args;
  std::vector<std::optional<Layout>> p;
  for (const auto& m : modes) {
    // `_` is an object (cute::_): a template argument needs a type, so Tile<_,...> does not compile.
    if (e.name == "Tile" && m.kind == CppExpr::Kind::name && m.name == "_" && !m.has_targs)
      ev.fail(m, "Tile<_, ...> is not C++: `_` is an object and Tile takes types; write Underscore (or make_tile(_, ...))");
    p.push_back(perm_mode(m, ev));
  }
  return p;
}

Layout plain_layout(const CppExpr& e, CppEvaluator& ev) {
  const AnyLayout l = ev.eval_layout(e);
  if (l.is_swizzled()) ev.fail(e, "expected a plain layout, got a swizzled one");
  return l.layout;
}

CppValue mma_value(TiledMma m) { return CppValue::of_object(kMma, std::move(m)); }

// make_tiled_mma's default AtomLayoutMNK, Layout<Shape<_1,_1,_1>>.
Layout unit_atom_layout() { return Layout(IntTuple::tuple({1, 1, 1}), IntTuple::tuple({0, 0, 0})); }

// The TiledMMA of (atom[, atom_layout[, permutation]]), written as call arguments of
// make_tiled_mma(...) or as template arguments of TiledMMA<...>{}.
CppValue tiled_mma_of(const CppExpr& e, const std::vector<CppExpr>& parts, const char* usage, CppEvaluator& ev) {
  if (parts.empty() || parts.size() > 3) ev.fail(e, usage);
  const MmaAtomInfo atom = require_mma_atom(parts[0], ev);
  const Layout layout = parts.size() > 1 ? plain_layout(parts[1], ev) : unit_atom_layout();
  const auto perm = parts.size() > 2 ? permutation(parts[2], ev) : std::vector<std::optional<Layout>>{};
  try {
    return mma_value(make_tiled_mma(atom, layout, perm));
  } catch (const LayoutError& err) {
    ev.fail(e, err.what());
  }
}

std::optional<CppValue> make_copy(const CppExpr& e, CppEvaluator& ev) {
  const std::string& f = e.name;
  if (e.args.empty()) ev.fail(e, f + " needs a Copy_Atom as its first argument");
  const CppValue atom_v = ev.eval(e.args[0]);
  const CopyAtom& atom = as<CopyAtom>(atom_v, kCopyAtom, e.args[0], ev);
  try {
    TiledCopy c;
    if (f == "make_tiled_copy") {
      if (e.args.size() < 2 || e.args.size() > 3) ev.fail(e, "make_tiled_copy(copy_atom, thr_layout[, val_layout])");
      const Layout thr = plain_layout(e.args[1], ev);
      const Layout val = e.args.size() > 2 ? plain_layout(e.args[2], ev) : Layout(IntTuple(1), IntTuple(0));
      c = make_tiled_copy(atom, thr, val);
    } else if (f == "make_tiled_copy_S" || f == "make_tiled_copy_D") {
      if (e.args.size() != 2) ev.fail(e, f + "(copy_atom, tiled_copy)");
      const CppValue like = ev.eval(e.args[1]);
      const TiledCopy& l = as<TiledCopy>(like, kCopy, e.args[1], ev);
      c = f == "make_tiled_copy_S" ? make_tiled_copy_S(atom, l) : make_tiled_copy_D(atom, l);
    } else {
      if (e.args.size() != 2) ev.fail(e, f + "(copy_atom, tiled_mma)");
      const CppValue m = ev.eval(e.args[1]);
      if (m.kind == CppValue::Kind::type && m.unresolved)
        ev.fail(e.args[1], "unknown name '" + m.type_name + "' where the TiledMMA is expected; give it (--mma " + m.type_name +
                               "=EXPR, a spec's mma:) or declare it (auto " + m.type_name + " = make_tiled_mma(...);)");
      const TiledMma& mma = as<TiledMma>(m, kMma, e.args[1], ev);
      c = f == "make_tiled_copy_A"        ? make_tiled_copy_A(atom, mma)
          : f == "make_tiled_copy_B"      ? make_tiled_copy_B(atom, mma)
          : f == "make_tiled_copy_C_atom" ? make_tiled_copy_C_atom(atom, mma)
                                          : make_tiled_copy_C(atom, mma);
    }
    return CppValue::of_object(kCopy, std::move(c));
  } catch (const ParseError&) {
    throw;  // an argument's own error keeps its column
  } catch (const LayoutError& err) {
    ev.fail(e, err.what());
  }
}

}  // namespace

namespace {

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

// `NAME = EXPR` (what --mma NAME=EXPR passes): the name and the offset of `=`; nullopt for any other
// text (C++ has no bare assignment at the top of a declaration list, so the form is unambiguous:
// `auto x = ...` and `TiledMMA x = ...` start with two words).
std::optional<std::pair<std::string, std::size_t>> named_form(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i == text.size() || !is_ident_start(text[i])) return std::nullopt;
  const std::size_t b = i;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
  const std::string name(text.substr(b, i - b));
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i >= text.size() || text[i] != '=' || (i + 1 < text.size() && text[i + 1] == '=')) return std::nullopt;
  return std::make_pair(name, i);
}

// The text with `NAME =` blanked (spaces keep every column of an error's caret).
std::string without_name(std::string_view text) {
  std::string out(text);
  if (const auto n = named_form(text))
    for (std::size_t k = 0; k <= n->second; ++k)
      if (out[k] != '\n') out[k] = ' ';
  return out;
}

}  // namespace

std::optional<std::string> declared_mma_name(std::string_view text) {
  if (const auto n = named_form(text)) return n->first;
  try {
    const CppProgram p = parse_cpp_program(text);
    if (!p.result && !p.bindings.empty()) return p.bindings.back().name;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

void add_kernel_extension(CppEvaluator& ev, std::optional<TiledMma> mma) {
  std::vector<std::string> names = {"mma", "tiled_mma"};
  if (mma)
    if (std::optional<std::string> n = declared_mma_name(mma->text)) names.push_back(*n);
  ev.add_extension([mma, names](const CppExpr& e, CppEvaluator& ev) -> std::optional<CppValue> {
    if (e.kind == CppExpr::Kind::name && !e.has_targs && std::find(names.begin(), names.end(), e.name) != names.end() &&
        !ev.defines(e.name)) {
      if (!mma) ev.fail(e, "'" + e.name + "' names the TiledMMA: give it (--mma EXPR, or mma: in a spec)");
      return mma_value(*mma);
    }
    if (e.kind != CppExpr::Kind::call && e.kind != CppExpr::Kind::name) return std::nullopt;
    if (e.name == "make_tiled_mma")
      return tiled_mma_of(e, e.args, "make_tiled_mma(mma_atom[, atom_layout[, Tile<...>{}]])", ev);
    const bool type_form = e.kind == CppExpr::Kind::name || (e.brace && e.args.empty());
    if (e.name == "TiledMMA") return tiled_mma_of(e, e.targs, "TiledMMA<MMA_Atom<Op>, AtomLayoutMNK, PermutationMNK>", ev);
    if (e.name == "make_tiled_copy" || e.name == "make_tiled_copy_A" || e.name == "make_tiled_copy_B" ||
        e.name == "make_tiled_copy_C" || e.name == "make_tiled_copy_C_atom" || e.name == "make_tiled_copy_S" ||
        e.name == "make_tiled_copy_D")
      return make_copy(e, ev);
    if (type_form && e.name == "Copy_Atom") return CppValue::of_object(kCopyAtom, copy_atom_of(e, ev));
    if (type_form && e.name == "MMA_Atom") {
      if (e.targs.size() != 1) ev.fail(e, "MMA_Atom<MMAOperation> takes one template argument");
      return CppValue::of_object(kMmaAtom, require_mma_atom(e.targs[0], ev));
    }
    return std::nullopt;
  });
}

namespace {

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The end (one past) of the comment or string literal starting at i, or i when none starts there.
std::size_t skip_comment_or_string(std::string_view s, std::size_t i) {
  if (s.compare(i, 2, "//") == 0) return std::min(s.find('\n', i), s.size());
  if (s.compare(i, 2, "/*") == 0) {
    const std::size_t e = s.find("*/", i + 2);
    return e == std::string_view::npos ? s.size() : e + 2;
  }
  if (s[i] != '"') return i;
  std::size_t k = i + 1;
  while (k < s.size() && s[k] != '"') k += s[k] == '\\' ? 2 : 1;
  return std::min(k + 1, s.size());
}

// One past the `)` that closes the `(` at `open`, or npos.
std::size_t closing_paren(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size();) {
    if (const std::size_t j = skip_comment_or_string(s, i); j != i) {
      i = j;
      continue;
    }
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth == 0) return i + 1;
    ++i;
  }
  return std::string_view::npos;
}

// Member calls of a kernel's per-thread objects, `X.name(args)` (see without_thread_slices).
struct MemberCall {
  std::size_t dot = 0, name = 0, end = 0;  // `.`, the name, one past `)`
  std::string_view id;
};

std::optional<MemberCall> member_call_at(std::string_view s, std::size_t dot) {
  std::size_t before = dot;
  while (before > 0 && std::isspace(static_cast<unsigned char>(s[before - 1]))) --before;
  if (before == 0 || !(s[before - 1] == ')' || s[before - 1] == '}' || is_ident_char(s[before - 1]))) return std::nullopt;
  if (std::isdigit(static_cast<unsigned char>(s[before - 1])) && (before < 2 || !is_ident_char(s[before - 2]))) return std::nullopt;
  MemberCall m{dot, dot + 1, 0, {}};
  while (m.name < s.size() && std::isspace(static_cast<unsigned char>(s[m.name]))) ++m.name;
  std::size_t e = m.name;
  while (e < s.size() && is_ident_char(s[e])) ++e;
  m.id = s.substr(m.name, e - m.name);
  while (e < s.size() && std::isspace(static_cast<unsigned char>(s[e]))) ++e;
  if (m.id.empty() || e >= s.size() || s[e] != '(') return std::nullopt;
  m.end = closing_paren(s, e);
  if (m.end == std::string_view::npos) return std::nullopt;  // the parser reports the unbalanced `(`
  return m;
}

// The kernel's thread-slice forms, pasted as they are written:
//   make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma).get_slice(threadIdx.x)
//   auto thr_copy = tiled_copy.get_thread_slice(thread_idx);
// A slice is the TiledCopy (or TiledMMA) seen from one thread; a trace covers every thread of the
// copy, so `.get_slice(...)` / `.get_thread_slice(...)` are read as the object itself (blanked
// with spaces, which keeps every column of an error's caret). `.partition_S/D(tensor)` and
// `.retile_S/D(...)` are refused, saying what to give instead. Comments and strings are left alone.
std::string without_thread_slices(std::string_view text) {
  std::string out(text);
  for (std::size_t i = 0; i < out.size();) {
    if (const std::size_t j = skip_comment_or_string(out, i); j != i) {
      i = j;
      continue;
    }
    const auto m = out[i] == '.' ? member_call_at(out, i) : std::nullopt;
    if (!m) {
      ++i;
      continue;
    }
    if (m->id == "get_slice" || m->id == "get_thread_slice") {
      for (std::size_t k = m->dot; k < m->end; ++k)
        if (out[k] != '\n') out[k] = ' ';
      i = m->end;
      continue;
    }
    if (m->id == "partition_S" || m->id == "partition_D")
      throw ParseError("the TiledCopy (or its .get_slice(tid)), not ." + std::string(m->id) +
                           "(tensor): give the smem tensor's layout with --smem (a spec's smem:) and its side with --side " +
                           (m->id == "partition_S" ? "S" : "D"),
                       m->dot + 1, std::string(text));
    if (m->id == "retile_S" || m->id == "retile_D" || m->id == "retile")
      throw ParseError("the TiledCopy, not ." + std::string(m->id) +
                           "(...): a retiled register fragment issues no shared-memory instruction",
                       m->dot + 1, std::string(text));
    ++i;
  }
  return out;
}

CppValue eval_text(std::string_view text, const CppConstants& constants, std::optional<TiledMma> mma) {
  CppEvaluator ev(parse_cpp_program(without_thread_slices(text)), constants);
  add_kernel_extension(ev, std::move(mma));
  return ev.eval_result();
}
}  // namespace

TiledMma parse_tiled_mma(std::string_view text, const CppConstants& constants) {
  const CppValue v = eval_text(without_name(text), constants, std::nullopt);
  if (v.kind == CppValue::Kind::object && v.object_kind == kMmaAtom)
    return make_tiled_mma(std::any_cast<const MmaAtomInfo&>(v.object), unit_atom_layout());
  if (v.kind == CppValue::Kind::type)
    if (const std::optional<MmaAtomInfo> atom = find_mma_atom(v.type_name)) return make_tiled_mma(*atom, unit_atom_layout());
  if (v.kind != CppValue::Kind::object || v.object_kind != kMma)
    throw LayoutError("expected a TiledMMA (make_tiled_mma(...) or TiledMMA<...>{}), got " + v.describe());
  TiledMma m = std::any_cast<const TiledMma&>(v.object);
  m.text = std::string(text);
  return m;
}

TiledCopy parse_tiled_copy(std::string_view text, const std::optional<TiledMma>& mma, const CppConstants& constants) {
  const CppValue v = eval_text(text, constants, mma);
  if (v.kind != CppValue::Kind::object || v.object_kind != kCopy)
    throw LayoutError("expected a TiledCopy (make_tiled_copy(...), make_tiled_copy_A(...), ...), got " + v.describe());
  TiledCopy c = std::any_cast<const TiledCopy&>(v.object);
  c.text = std::string(text);
  return c;
}

AnyLayout parse_smem_layout(std::string_view text, const CppConstants& constants) {
  // The one input path: notation stays notation even when -D constants are given (was: any
  // constant sent the text to the C++ parser, which refused `(128,8):(1,128)`).
  return parse_layout_any_syntax(text, constants);
}

}  // namespace layoutproof
