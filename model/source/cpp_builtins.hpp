#pragma once
// Internals of the C++ front end: the built-in functions' table and the argument helpers the
// built-ins of CuTe (model/source/cpp_builtins.cpp) and of CUTLASS (model/source/cpp_cutlass.cpp) share.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/source/cpp_expr.hpp"
#include "model/layout/tiler.hpp"

namespace layoutproof::cpp_detail {

using Handler = CppValue (*)(CppEvaluator&, const CppExpr&);
using HandlerTable = std::map<std::string, Handler>;

// CuTe's layout algebra and its integers, tuples and queries (cpp_builtins.cpp).
const HandlerTable& cute_builtins();
// CUTLASS's atoms, ComposedLayout with smem_ptr_flag, recasts and type traits (cpp_cutlass.cpp).
const HandlerTable& cutlass_builtins();
// The collective builders' smem layout selectors and UMMA::tile_to_mma_shape (cpp_selectors.cpp).
const HandlerTable& selector_builtins();
// The builders' op selectors: GMMA::ss_op_selector / rs_op_selector and the epilogues' smem copy ops
// (cpp_op_selectors.cpp).
const HandlerTable& op_selector_builtins();
// The handler for `name`, looked up with namespace prefixes dropped one at a time
// (cutlass::gemm::detail::is_major -> gemm::detail::is_major -> detail::is_major -> is_major).
std::optional<Handler> find_builtin(const std::string& name);
// CuTe functions outside the layout algebra, named in errors (the kernel layer evaluates some of
// them through an extension when it is installed).
const std::vector<std::string>& kernel_layer_names();

// --- argument forms (each fails at the offending node) ---

// T, T<...>, T{} or T(): a type or a constant (no arguments).
void value_form(CppEvaluator& ev, const CppExpr& e);
void no_targs(CppEvaluator& ev, const CppExpr& e);
// f(args) with lo..hi arguments.
const std::vector<CppExpr>& call_args(CppEvaluator& ev, const CppExpr& e, std::size_t lo, std::size_t hi);
// NAME<targs> with lo..hi template arguments.
void targ_count(CppEvaluator& ev, const CppExpr& e, std::size_t lo, std::size_t hi);
std::vector<i64> int_targs(CppEvaluator& ev, const CppExpr& e);
// The bits of the element type `t` evaluates to (half_t: 16); fails naming the argument otherwise.
int element_bits_arg(CppEvaluator& ev, const CppExpr& t);

// --- value conversions ---

AnyLayout layout_arg(CppEvaluator& ev, const CppExpr& a);
Layout plain_arg(CppEvaluator& ev, const CppExpr& a, const std::string& op);
Tiler tiler_of(CppEvaluator& ev, const CppExpr& at, const CppValue& v);
// A leaf IntTuple is an integer value, a tuple a tuple value.
CppValue of_int_tuple(IntTuple t);
// An integer value as a leaf, static or dynamic as the value is.
IntTuple int_leaf(const CppValue& v);
// The same swizzle and offset around a new inner layout, as CuTe's composition(a, offset, b);
// Swizzle<0,M,S> with offset _0 is the identity and gives the plain layout (swizzle_layout.hpp), but an
// smem_ptr flag is kept (CuTe's generic composition template takes it, not the Int<0> overload).
AnyLayout recompose(const AnyLayout& like, Layout inner);

// The strides compact_order(shape, order) gives; `order` is a tuple/integer or LayoutLeft/LayoutRight
// (its run-time leaves rank after the static ones, as in CuTe).
IntTuple order_strides(CppEvaluator& ev, const CppExpr& order, const IntTuple& shape);

// tile_to_shape(block, trg_shape[, order]) (CuTe layout.hpp): blocked_product(block, ordered layout
// of ceil_div(product_each(trg_shape), product_each(shape(block)))); a static target must be
// divided evenly. A swizzled block tiles its inner layout (layout_composed.hpp).
// `e` is the call (for errors), `order` the order expression or nullptr (column-major).
AnyLayout tile_to_shape(CppEvaluator& ev, const CppExpr& e, const AnyLayout& block, const IntTuple& trg,
                        bool trg_static, const CppExpr* order);

// CUTLASS's smem atom `name` (Layout_K_SW128_Atom, ...; GMMA::/UMMA:: prefixes allowed) for `bits`-bit
// elements, in element units as CuTe's print_layout shows it (cpp_cutlass.cpp).
AnyLayout gmma_atom_layout(CppEvaluator& ev, const CppExpr& at, const std::string& name, int bits);

// int, int64_t, size_t, ...: a run-time integer where it stands in a Shape<...>/Stride<...>.
bool is_integral_type(const std::string& name);

}  // namespace layoutproof::cpp_detail
