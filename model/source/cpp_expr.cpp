// The C++ front end's values and evaluator (the grammar is cpp_parse.cpp's, the built-ins
// cpp_builtins.cpp's, cpp_cutlass.cpp's and cpp_selectors.cpp's).
#include "model/source/cpp_expr.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <utility>

#include "model/source/cpp_builtins.hpp"
#include "model/source/cpp_parse.hpp"
#include "model/atoms/cute_atoms.hpp"

namespace layoutproof {

using namespace cpp_detail;

// ---------------------------------------------------------------------------------------------
// CppValue
// ---------------------------------------------------------------------------------------------

CppValue CppValue::of_int(i64 v) { return of_int(v, true); }
CppValue CppValue::of_int(i64 v, bool is_static) {
  CppValue r;
  r.kind = Kind::integer;
  r.integer = v;
  r.is_static = is_static;
  return r;
}
CppValue CppValue::of_tuple(IntTuple t) {
  CppValue r;
  r.kind = Kind::tuple;
  r.tuple = std::move(t);
  return r;
}
CppValue CppValue::of_layout(AnyLayout l) {
  CppValue r;
  r.kind = Kind::layout;
  r.layout = std::move(l);
  return r;
}
CppValue CppValue::of_swizzle(Swizzle s) {
  CppValue r;
  r.kind = Kind::swizzle;
  r.swizzle = s;
  return r;
}
CppValue CppValue::of_type(std::string name) {
  CppValue r;
  r.kind = Kind::type;
  r.type_name = std::move(name);
  return r;
}
CppValue CppValue::of_underscore() {
  CppValue r;
  r.kind = Kind::underscore;
  return r;
}
CppValue CppValue::of_object(std::string kind, std::any value) {
  CppValue r;
  r.kind = Kind::object;
  r.object_kind = std::move(kind);
  r.object = std::move(value);
  return r;
}

std::string CppValue::describe() const {
  switch (kind) {
    case Kind::integer: return "integer " + std::to_string(integer);
    case Kind::tuple: return "tuple " + to_string(tuple);
    case Kind::layout: return "layout " + to_string(layout);
    case Kind::swizzle: return "swizzle " + to_string(swizzle);
    case Kind::type: return "type " + type_name;
    case Kind::underscore: return "_";
    case Kind::object: break;
  }
  if (const Tiler* t = std::any_cast<Tiler>(&object)) {
    std::string s = "[";
    for (std::size_t i = 0; i < t->modes.size(); ++i) {
      const Tiler& m = t->modes[i];
      s += i ? "," : "";
      s += m.kind == Tiler::Kind::layout ? to_string(m.layout) : m.kind == Tiler::Kind::integer ? std::to_string(m.integer) : "_";
    }
    return object_kind + " " + s + "]";
  }
  return object_kind;
}

CppProgram parse_cpp_program(std::string_view text) { return parse_program(text, ""); }

// ---------------------------------------------------------------------------------------------
// CppEvaluator
// ---------------------------------------------------------------------------------------------

namespace {

// Restores a variable when a scope ends (also by an exception).
template <class T>
struct Restore {
  Restore(T& var, T value) : var_(var), old_(std::exchange(var, std::move(value))) {}
  ~Restore() { var_ = std::move(old_); }
  T& var_;
  T old_;
};

// Runs f, attributing the model's errors to the node e (ParseErrors already carry their place).
template <class F>
auto located(const CppEvaluator& ev, const CppExpr& e, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const ParseError&) {
    throw;
  } catch (const LocatedOverflow&) {
    throw;
  } catch (const OverflowError& x) {
    // Keep the type (callers tell overflow from other errors) and add where it happened.
    try {
      ev.fail(e, std::string(x.what()) + " (in " + head(e) + ")");
    } catch (const ParseError& where) {
      throw LocatedOverflow(where.what());
    }
  } catch (const LayoutError& x) {
    ev.fail(e, x.what());
  }
}

i64 arithmetic(const CppEvaluator& ev, const CppExpr& e, i64 a, i64 b) {
  if (e.op == "+") return checked_add(a, b);
  if (e.op == "-") return checked_sub(a, b);
  if (e.op == "*") return checked_mul(a, b);
  if (e.op == "<") return a < b;
  if (e.op == ">") return a > b;
  if (e.op == "<=") return a <= b;
  if (e.op == ">=") return a >= b;
  if (e.op == "==") return a == b;
  if (e.op == "!=") return a != b;
  if (b == 0) ev.fail(e, "division by zero");
  if (a == INT64_MIN && b == -1) throw OverflowError("64-bit overflow: " + std::to_string(a) + " / -1");
  return e.op == "/" ? a / b : a % b;
}

// GMMA::Major::K and UMMA::Major::K are the same enumerator for comparisons.
std::string comparable_type(const std::string& t) {
  const std::size_t at = t.find("Major::");
  return at == std::string::npos ? t : t.substr(at);
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// The last component of a qualified name (detail::ss_smem_selectr -> ss_smem_selectr), for suggestions.
std::string last_component(const std::string& name) {
  const std::size_t sep = name.rfind("::");
  return sep == std::string::npos ? name : name.substr(sep + 2);
}

}  // namespace

CppEvaluator::CppEvaluator(CppProgram program, std::map<std::string, std::string> constants)
    : program_(std::move(program)), visible_(program_.bindings.size()) {
  for (auto& [name, text] : constants) {
    CppProgram p = parse_program(text, "-D " + name);
    if (!p.bindings.empty() || !p.result)
      throw CppSourceError("a -D constant is one expression, e.g. -D bM=Int<128>{}", 0, text, "-D " + name);
    constants_.emplace(name, std::move(p));
  }
}

void CppEvaluator::add_extension(Extension e) { extensions_.push_back(std::move(e)); }

void CppEvaluator::fail(const CppExpr& at, const std::string& message) const {
  if (in_constant_.empty()) throw CppSourceError(message, at.pos, program_.source);
  throw CppSourceError(message, at.pos, constants_.at(in_constant_).source, "-D " + in_constant_);
}

void CppEvaluator::fail_expected(const CppExpr& at, const std::string& what, const CppValue& got) const {
  if (got.kind != CppValue::Kind::type || !got.unresolved) fail(at, "expected " + what + ", got " + got.describe());
  // A near name of any kind, else the closest few of those the user defined (constants, bindings).
  std::string hint = name_hint(last_component(got.type_name), known_names());
  if (hint.rfind(" (did you mean", 0) != 0) {
    std::vector<std::string> defined;
    for (std::size_t i = 0; i < std::min(visible_, program_.bindings.size()); ++i) defined.push_back(program_.bindings[i].name);
    for (const auto& [name, p] : constants_) defined.push_back(name);
    hint = name_hint(got.type_name, defined);
  }
  const bool near = hint.rfind(" (did you mean", 0) == 0;
  fail(at, "unknown name '" + got.type_name + "'" + (near ? hint : "") + " where " + what + " is expected; define it (-D " +
               got.type_name + "=EXPR, a spec's constants:, or using " + got.type_name + " = ...;)" + (near ? "" : hint));
}

namespace {

// False when `t` has more than `budget` leaves in all or nests deeper than `depth` (it stops early).
bool within(const IntTuple& t, std::size_t& budget, int depth) {
  if (depth < 0) return false;
  if (t.is_leaf()) return budget-- > 0;
  for (std::size_t i = 0; i < t.rank(); ++i)
    if (!within(t[i], budget, depth - 1)) return false;
  return true;
}

}  // namespace

CppValue CppEvaluator::eval(const CppExpr& e) {
  // The tree is at most kMaxCppDepth high; bindings and constants add a hop each.
  Restore<int> guard(depth_, depth_ + 1);
  if (depth_ > 2 * kMaxCppDepth) fail(e, "nesting deeper than " + std::to_string(2 * kMaxCppDepth) + " (through bindings)");
  CppValue v;
  switch (e.kind) {
    case CppExpr::Kind::integer: return CppValue::of_int(e.value, false);  // a literal is a run-time int in C++
    case CppExpr::Kind::name:
    case CppExpr::Kind::call: v = eval_node(e); break;
    default: v = eval_operator(e); break;
  }
  // Bindings can double a tuple at each line (auto a1 = make_shape(a0,a0); ...): 40 lines would
  // build 2^40 leaves (hostile-input campaign H4, a C++ "billion laughs"), and a chain of
  // make_shape(a) bindings nests one level per line. Every value stays within kMaxCppLeaves leaves
  // and kMaxCppDepth levels, so the cost of a program is bounded by its length.
  const IntTuple* shape = v.kind == CppValue::Kind::tuple ? &v.tuple : v.kind == CppValue::Kind::layout ? &v.layout.layout.shape : nullptr;
  std::size_t budget = kMaxCppLeaves;
  if (shape && !within(*shape, budget, kMaxCppDepth))
    fail(e, "value too large: more than " + std::to_string(kMaxCppLeaves) + " integers or nested deeper than " +
                std::to_string(kMaxCppDepth) + " (no shared-memory layout is this large)");
  return v;
}

// - ! ?: and the binary operators. Integers combine (static when every operand is); types compare
// with == and != (GMMA::Major::K == UMMA::Major::K).
CppValue CppEvaluator::eval_operator(const CppExpr& e) {
  if (e.kind == CppExpr::Kind::conditional) return eval(eval_bool(e.args[0]) ? e.args[1] : e.args[2]);
  if (e.kind == CppExpr::Kind::logical_not) {
    const CppValue v = eval(e.args[0]);
    if (v.kind != CppValue::Kind::integer) fail_expected(e.args[0], "an integer or a bool", v);
    return CppValue::of_int(v.integer == 0, v.is_static);
  }
  if (e.kind == CppExpr::Kind::negate) {
    const CppValue v = eval(e.args[0]);
    if (v.kind != CppValue::Kind::integer) fail_expected(e.args[0], "an integer", v);
    return located(*this, e, [&] { return CppValue::of_int(checked_sub(0, v.integer), v.is_static); });
  }
  if (e.op == "&&" || e.op == "||") {  // short-circuit, as C++
    const bool a = eval_bool(e.args[0]);
    if (a == (e.op == "||")) return CppValue::of_int(a, true);
    return CppValue::of_int(eval_bool(e.args[1]), true);
  }
  const CppValue a = eval(e.args[0]);
  const CppValue b = eval(e.args[1]);
  if ((e.op == "==" || e.op == "!=") && a.kind == CppValue::Kind::type && b.kind == CppValue::Kind::type)
    return CppValue::of_int((comparable_type(a.type_name) == comparable_type(b.type_name)) == (e.op == "=="), true);
  if (a.kind != CppValue::Kind::integer) fail_expected(e.args[0], "an integer", a);
  if (b.kind != CppValue::Kind::integer) fail_expected(e.args[1], "an integer", b);
  return located(*this, e, [&] { return CppValue::of_int(arithmetic(*this, e, a.integer, b.integer), a.is_static && b.is_static); });
}

// Extensions first, then decltype, the bindings and constants, then the built-ins.
CppValue CppEvaluator::eval_node(const CppExpr& e) {
  for (const Extension& x : extensions_) {
    std::optional<CppValue> v = located(*this, e, [&] { return x(e, *this); });
    if (v) return *v;
  }
  if (e.kind == CppExpr::Kind::call && e.name == "decltype") return eval(e.args.at(0));
  if (std::optional<CppValue> v = resolve_name(e)) return *v;
  return eval_builtin(e);
}

std::optional<std::size_t> CppEvaluator::find_binding(const std::string& name) const {
  for (std::size_t i = std::min(visible_, program_.bindings.size()); i-- > 0;)
    if (program_.bindings[i].name == name) return i;
  return std::nullopt;
}

std::optional<CppValue> CppEvaluator::resolve_name(const CppExpr& e) {
  if (e.has_targs) return std::nullopt;
  const std::optional<std::size_t> b = find_binding(e.name);
  const bool constant = !b && constants_.count(e.name);
  if (!b && !constant) return std::nullopt;
  if (e.kind == CppExpr::Kind::call && !e.args.empty())
    fail(e, "'" + e.name + "' is a value, not a function (write " + e.name + " or " + e.name + "{})");
  return b ? eval_binding(*b) : eval_constant(e.name, e);
}

CppValue CppEvaluator::eval_binding(std::size_t index) {
  if (auto it = binding_values_.find(index); it != binding_values_.end()) return it->second;
  CppValue v;
  {
    // A binding sees the bindings before it, in the program's source.
    Restore<std::size_t> scope(visible_, index);
    Restore<std::string> source(in_constant_, std::string());
    v = eval(program_.bindings[index].value);
  }
  binding_values_[index] = v;
  return v;
}

CppValue CppEvaluator::eval_constant(const std::string& name, const CppExpr& at) {
  if (auto it = constant_values_.find(name); it != constant_values_.end()) return it->second;
  if (std::find(constants_in_progress_.begin(), constants_in_progress_.end(), name) != constants_in_progress_.end())
    fail(at, "the constant '" + name + "' is defined through itself");
  constants_in_progress_.push_back(name);
  CppValue v;
  try {
    // A constant sees the other constants and the built-ins, not the program's bindings.
    Restore<std::size_t> scope(visible_, 0);
    Restore<std::string> source(in_constant_, name);
    v = eval(*constants_.at(name).result);
  } catch (...) {
    constants_in_progress_.pop_back();
    throw;
  }
  constants_in_progress_.pop_back();
  constant_values_[name] = v;
  return v;
}

CppValue CppEvaluator::eval_builtin(const CppExpr& e) {
  // _8: CuTe's Int<8>.
  if (e.name.size() > 1 && e.name[0] == '_' && std::all_of(e.name.begin() + 1, e.name.end(), ::isdigit)) {
    value_form(*this, e);
    no_targs(*this, e);
    i64 v = 0;
    for (char c : e.name.substr(1))
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, c - '0', &v) || v > INT_MAX)
        fail(e, "'" + e.name + "' does not fit in an int");
    return CppValue::of_int(v, true);
  }
  if (const std::optional<Handler> h = find_builtin(e.name)) return located(*this, e, [&] { return (*h)(*this, e); });
  return eval_unknown(e);
}

// An unknown NAME, NAME<...> or NAME{} is a type for the kernel layer (half_t, SM75_U32x4_LDSM_N,
// SM80_CP_ASYNC_CACHEALWAYS<uint128_t>), unless it is a near miss of a known name; an unknown
// f(...) is an error.
CppValue CppEvaluator::eval_unknown(const CppExpr& e) {
  for (std::size_t i = visible_; i < program_.bindings.size(); ++i)
    if (program_.bindings[i].name == e.name && !e.has_targs)
      fail(e, "'" + e.name + "' is used before its definition");
  const bool type_form = e.kind == CppExpr::Kind::name || (e.brace && e.args.empty());
  const std::string last = last_component(e.name);
  if (!type_form) {
    const auto& kernel_layer = kernel_layer_names();
    if (std::find(kernel_layer.begin(), kernel_layer.end(), last) != kernel_layer.end())
      fail(e, "unsupported construct: '" + last + "' is a CuTe function outside the layout algebra; it is not evaluated here "
              "(give the layout it produces, or the shape as a constant: -D NAME=EXPR)");
    std::vector<std::string> functions;  // what a call could have meant: built-ins and the kernel layer, not types
    for (const HandlerTable* t : {&cute_builtins(), &cutlass_builtins(), &selector_builtins(), &op_selector_builtins()})
      for (const auto& [name, handler] : *t) functions.push_back(name);
    for (const std::string& n : kernel_layer) functions.push_back(n);
    fail(e, "unknown function '" + e.name + "'" + name_hint(last, functions));
  }
  const bool known_type = type_bits(e.name).has_value() || ends_with(e.name, "_t");
  if (!known_type)
    if (const std::optional<std::string> near = nearest(last, known_names()))
      fail(e, "unknown name '" + e.name + "' (did you mean " + *near + "?)");
  // Template arguments that are types or integers are written as evaluated (so `using T = half_t;`
  // Op<T> is Op<half_t>), any other as written.
  std::string name = e.name;
  if (!e.targs.empty()) {  // Op<> is Op with its defaults
    name += '<';
    for (std::size_t i = 0; i < e.targs.size(); ++i) {
      const CppValue v = eval(e.targs[i]);
      if (v.kind == CppValue::Kind::type) name += (i ? "," : "") + v.type_name;
      else if (v.kind == CppValue::Kind::integer) name += (i ? "," : "") + std::to_string(v.integer);
      else name += (i ? "," : "") + render(e.targs[i]);
    }
    name += '>';
  }
  CppValue v = CppValue::of_type(name);
  // What the kernel layer may know (copy and MMA operations, SM.. names) is not called unknown.
  const auto& ops = copy_op_names();
  v.unresolved = !known_type && !e.has_targs && !(e.name.size() > 2 && e.name[0] == 'S' && e.name[1] == 'M') &&
                 std::find(ops.begin(), ops.end(), e.name) == ops.end();
  return v;
}

bool CppEvaluator::defines(const std::string& name) const { return find_binding(name).has_value() || constants_.count(name) > 0; }

std::vector<std::string> CppEvaluator::known_names() const {
  std::vector<std::string> out;
  for (const HandlerTable* t : {&cute_builtins(), &cutlass_builtins(), &selector_builtins(), &op_selector_builtins()})
    for (const auto& [name, handler] : *t) out.push_back(name);
  for (std::size_t i = 0; i < std::min(visible_, program_.bindings.size()); ++i) out.push_back(program_.bindings[i].name);
  for (const auto& [name, p] : constants_) out.push_back(name);
  for (const std::string& n : kernel_layer_names()) out.push_back(n);
  for (const std::string& n : type_names()) out.push_back(n);  // halft: did you mean half_t?
  return out;
}

void CppEvaluator::check_assertions() {
  for (const CppAssertion& a : program_.assertions) {
    Restore<std::size_t> scope(visible_, a.visible);
    if (eval_bool(a.condition)) continue;
    CppExpr at;  // the static_assert itself
    at.pos = a.pos;
    fail(at, "static_assert failed" + (a.message.empty() ? std::string() : ": \"" + a.message + "\"") + " (" + render(a.condition) + ")");
  }
}

CppValue CppEvaluator::eval_result() {
  // Evaluate the bindings in order first, so a chain of bindings is a chain of cached values (no
  // deep recursion); a binding that fails is reported only where it is used.
  for (std::size_t i = 0; i < program_.bindings.size(); ++i) {
    try {
      eval_binding(i);
    } catch (const std::exception&) {
    }
  }
  check_assertions();
  Restore<std::size_t> scope(visible_, program_.bindings.size());
  if (program_.result) return eval(*program_.result);
  if (!program_.bindings.empty()) return eval_binding(program_.bindings.size() - 1);
  throw CppSourceError("expected a C++ expression (a layout, or using X = ...;)", 0, program_.source);
}

i64 CppEvaluator::eval_int(const CppExpr& e) {
  const CppValue v = eval(e);
  if (v.kind != CppValue::Kind::integer) fail_expected(e, "an integer", v);
  return v.integer;
}

bool CppEvaluator::eval_bool(const CppExpr& e) { return eval_int(e) != 0; }

IntTuple CppEvaluator::eval_tuple(const CppExpr& e) {
  const CppValue v = eval(e);
  if (v.kind == CppValue::Kind::integer) return IntTuple::integer(v.integer, v.is_static);
  if (v.kind != CppValue::Kind::tuple) fail_expected(e, "an integer or a tuple", v);
  return v.tuple;
}

AnyLayout CppEvaluator::eval_layout(const CppExpr& e) {
  const CppValue v = eval(e);
  if (v.kind == CppValue::Kind::layout) return v.layout;
  if (v.kind == CppValue::Kind::integer || v.kind == CppValue::Kind::tuple) {
    const IntTuple shape = v.kind == CppValue::Kind::integer ? IntTuple::integer(v.integer, v.is_static) : v.tuple;
    return located(*this, e, [&] { return AnyLayout(Layout(shape, compact_col_major(shape))); });
  }
  fail_expected(e, "a layout", v);
}

}  // namespace layoutproof
