#pragma once
// The C++ a kernel writes, as an expression tree and a small evaluator (CuTe's static algebra).
//
// Grammar (what CUTLASS kernels and configurations really write; white space, // /* */ comments and
// #preprocessor lines are ignored, `cute::`, `cutlass::` and `::` prefixes are dropped, a trailing `;` is
// allowed):
//   program    := { statement } [ expr ]
//   statement  := `using` NAME `=` expr `;`  |  `typedef` TYPE NAME `;`  |  `return` expr `;`
//               | [[attr]] [`static`] [`constexpr`] (`auto` | `int` | TYPE) [`const`] [`&`] NAME (`=` expr | `{` expr `}`) `;`
//               | (`static_assert` | `CUTE_STATIC_ASSERT_V`) `(` expr [`,` "message"] `)` `;`
//   expr       := or [ `?` expr `:` expr ]
//   or := and { `||` and }   and := eq { `&&` eq }   eq := rel { (`==`|`!=`) rel }
//   rel := sum { (`<`|`>`|`<=`|`>=`) sum }  (inside NAME<...> a `>` closes the list: write (a > b))
//   sum := term { (`+`|`-`) term }   term := unary { (`*`|`/`|`%`) unary }
//   unary      := `-` unary | `+` unary | `!` unary | primary
//   primary    := INT | NAME [ `<` targs `>` [`::type` | `::value`] ] [ `{` args `}` | `(` args `)` ]
//               | `(` expr `)` | `decltype` `(` expr `)`
//   NAME       := identifier { `::` identifier }      e.g. GMMA::Layout_K_SW128_Atom, _8, _
// Template arguments are expressions too (Int<128 + 4>, Shape<_8,_64>, Copy_Atom<Op<uint128_t>, half_t>).
// What C++ has beyond this (if/for, struct, lambdas, member access x.y, subscripts, string literals
// outside static_assert) is a ParseError "unsupported construct: ..." that says what is supported.
//
// Example: "using X = decltype(make_layout(make_shape(Int<8>{}, Int<64>{}), LayoutRight{}));"
//          followed by "composition(Swizzle<3,3,3>{}, X{})" evaluates to Sw<3,3,3> o 0 o (8,64):(64,1).
#include <any>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/layout/composed.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {

struct CppExpr {
  enum class Kind { integer, name, call, binary, negate, logical_not, conditional };
  Kind kind = Kind::integer;
  i64 value = 0;                 // integer
  std::string name;              // name / call: the (qualified) name, prefixes dropped
  bool has_targs = false;        // name<...> was written
  std::vector<CppExpr> targs;    // template arguments
  bool brace = false;            // call written T{...} (else f(...))
  std::vector<CppExpr> args;     // call arguments; binary: {lhs, rhs}; negate, logical_not: {operand};
                                 // conditional: {condition, then, else}
  std::string op;                // binary: + - * / % == != < > <= >= && ||
  std::size_t pos = 0;           // byte offset of the node in the source (for caret errors)
};

struct CppBinding {
  std::string name;
  CppExpr value;
  std::size_t pos = 0;
};

// static_assert(condition[, "message"]): checked by CppEvaluator::eval_result().
struct CppAssertion {
  CppExpr condition;
  std::string message;
  std::size_t pos = 0;
  std::size_t visible = 0;  // the bindings before it (those it may use)
};

struct CppProgram {
  std::string source;
  std::vector<CppBinding> bindings;  // in order; a later binding may use an earlier one
  std::optional<CppExpr> result;     // the trailing expression (or `return expr;`), if any
  std::vector<CppAssertion> assertions;
};

// Parses `text` (throws ParseError with the column of the offending character; nesting deeper
// than kMaxCppDepth is an error, never a stack overflow).
inline constexpr int kMaxCppDepth = 200;
// Every tuple or layout a program computes has at most this many integers (leaves) and nests at most
// kMaxCppDepth deep: bindings that double a tuple per line are "value too large", not a hang.
inline constexpr std::size_t kMaxCppLeaves = 1 << 12;
CppProgram parse_cpp_program(std::string_view text);

// A value of the evaluator.
struct CppValue {
  enum class Kind { integer, tuple, layout, swizzle, type, underscore, object };
  Kind kind = Kind::integer;
  i64 integer = 0;
  bool is_static = true;         // integer: a compile-time constant (Int<8>{}, _8, Int<8> + _1{}), not a run-time int (8)
  IntTuple tuple;                // tuple (shapes, strides, coordinates, Step<...>); its leaves are static
                                 // (Shape<_8>, make_shape(_8{}), Int<8>{}) or dynamic (make_shape(8), int64_t) as in CuTe
  AnyLayout layout;              // layout (plain or swizzled; an smem_ptr_flag swizzle in element units)
  Swizzle swizzle;               // swizzle
  std::string type_name;         // type: an element or register type, or any other type name
  bool unresolved = false;       // type: a name that is no binding, constant or CuTe/CUTLASS name layoutproof knows
  std::string object_kind;       // object: what it is ("TiledMMA", "Copy_Atom", "smem_ptr_flag", ...)
  std::any object;               // object: the value (extensions define these)

  static CppValue of_int(i64 v);
  static CppValue of_int(i64 v, bool is_static);
  static CppValue of_tuple(IntTuple t);
  static CppValue of_layout(AnyLayout l);
  static CppValue of_swizzle(Swizzle s);
  static CppValue of_type(std::string name);
  static CppValue of_underscore();
  static CppValue of_object(std::string kind, std::any value);
  std::string describe() const;  // for errors: "layout (8,64):(64,1)", "type half_t", "unknown name 'X'", ...
};

// Evaluates expressions of a program. Names resolve, in order, to: the program's bindings
// (`using X = ...`, `auto x = ...`, referred to as X, X{}, decltype(x), x), the constants given
// (-D NAME=EXPR, a spec's constants: block; NAME may be qualified: -D DispatchPolicy::Stages=4), then
// the built-ins, looked up with any namespace prefix dropped (cutlass::gemm::collective::detail::
// ss_smem_selector is ss_smem_selector). Extensions see every call and name node first and may claim
// it (the kernel layer adds TiledMMA/TiledCopy this way).
// Built-ins (model/source/cpp_builtins.cpp): integers (8, _8, Int<8>{}, C<8>{}, Int<8>, true, arithmetic,
// comparisons), make_shape, make_stride, make_coord, make_tile, Shape<..>, Stride<..>, Step<..>, Tile<..>,
// Layout<S[,D]>{}, make_layout(shape[, stride | LayoutLeft{} | LayoutRight{} | GenColMajor{} |
// GenRowMajor{}]), Swizzle<B,M,S>{}, composition / make_composed_layout, tile_to_shape(atom, shape[,
// order]), make_ordered_layout, get<I>, size<I>, shape<I>, stride<I>, layout<I>, cosize, cosize_v<L>,
// coalesce, upcast<N>, downcast<N>, recast_layout<T,U>, append, prepend, group<B,E>, select<I...>,
// take<B,E>, product_each, the divides and products, decltype, `_`, sizeof(T), sizeof_bits_v<T>,
// element/register type names.
// CUTLASS (model/source/cpp_cutlass.cpp): GMMA::/UMMA:: Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>,
// UMMA::Layout_MN_SW128_32B_Atom<T>, ComposedLayout<Swizzle<..>, smem_ptr_flag_bits<B>, Layout<..>>,
// composition(Swizzle<..>{}, smem_ptr_flag_bits<B>{}, L), conditional_t<C, A, B>, is_major<I, Stride>(),
// is_mn_major / is_k_major, GMMA::Major::K|MN, ss_smem_selector, rs_smem_selector, sm100_smem_selector,
// sm90/sm100_get_epilogue_smem_swizzle_layout_atom, UMMA::tile_to_mma_shape.
class CppEvaluator {
 public:
  using Extension = std::function<std::optional<CppValue>(const CppExpr&, CppEvaluator&)>;

  explicit CppEvaluator(CppProgram program, std::map<std::string, std::string> constants = {});
  void add_extension(Extension e);

  CppValue eval(const CppExpr& e);
  // The program's trailing expression, or else its last binding (after checking its static_asserts).
  // ParseError when it has neither.
  CppValue eval_result();
  i64 eval_int(const CppExpr& e);
  bool eval_bool(const CppExpr& e);        // an integer, nonzero is true
  IntTuple eval_tuple(const CppExpr& e);   // an integer is a leaf tuple
  AnyLayout eval_layout(const CppExpr& e); // a shape alone is its compact column-major layout

  // Throws ParseError pointing at `at` in the program's source.
  [[noreturn]] void fail(const CppExpr& at, const std::string& message) const;
  // fail(at, "expected WHAT, got ...") naming an unknown name as such.
  [[noreturn]] void fail_expected(const CppExpr& at, const std::string& what, const CppValue& got) const;
  const CppProgram& program() const { return program_; }

  // Every name in scope (bindings, constants, built-ins), for suggestions.
  std::vector<std::string> known_names() const;
  // True when `name` is a binding in scope or a constant (it then shadows what an extension would
  // give the name: `auto mma = ...;` in the pasted text wins over the --mma value).
  bool defines(const std::string& name) const;

 private:
  CppProgram program_;
  std::map<std::string, CppProgram> constants_;
  std::vector<Extension> extensions_;
  int depth_ = 0;
  std::size_t visible_ = 0;                          // bindings [0, visible_) are in scope
  std::string in_constant_;                          // the -D constant being evaluated ("": the program)
  std::map<std::size_t, CppValue> binding_values_;   // each binding is evaluated once
  std::map<std::string, CppValue> constant_values_;
  std::vector<std::string> constants_in_progress_;   // to report -D a=b -D b=a
  std::optional<CppValue> resolve_name(const CppExpr& e);
  CppValue eval_builtin(const CppExpr& e);
  CppValue eval_node(const CppExpr& e);
  CppValue eval_operator(const CppExpr& e);
  CppValue eval_binding(std::size_t index);
  CppValue eval_constant(const std::string& name, const CppExpr& at);
  CppValue eval_unknown(const CppExpr& e);
  void check_assertions();
  std::optional<std::size_t> find_binding(const std::string& name) const;
};

}  // namespace layoutproof
