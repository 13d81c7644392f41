// CuTe's own layout-algebra results, printed by CuTe, for layoutproof's corpus test
// (tests/algebra_corpus/). Host code only; needs CUTLASS's headers, which are never vendored.
//
// Each case prints one line:   QUERY => RESULT
//   QUERY   the `layoutproof algebra` query: OP and its arguments, each printed by cute::print
//   RESULT  cute::print of CuTe's result, or
//           !violates: COND   CuTe's result breaks the operation's definition (COND, the same words
//                             layoutproof's error names; model/algebra/algebra_check.hpp)
// The driver (build_algebra_corpus.sh) adds `!compile-error: ...` lines for the cases CuTe refuses to
// compile and `!runtime-error` for those that crash CuTe (a division by zero), and concatenates.
//
// The definitions checked here are the post-conditions of CUTLASS's test/unit/cute/core tests, in
// the order layoutproof checks them (the first broken one is named):
//   composition  every mode has a positive size; compatible(B, R); R(c) == A(B(c)) for c < size(B)
//   complement   every mode has a positive size; (1) cosize(make_layout(L, R)) >= size(cotarget)
//                (covers); (3) R(i-1) < R(i) (ordered); (4) R(i) != L(j) for i >= 1 (disjoint). CuTe's
//                test also bounds (2) cosize(R) <= round_up(size(cotarget), cosize(L)): a tightness hint,
//                not the definition (model/algebra/algebra_check.hpp says why)
//   divides      the complement step T* = complement(T, shape(coalesce(L))) as complement above, then
//                the composition step L o (T, T*) as above, mode by mode (CuTe's own test checks rank 2
//                and compatible(T, layout<0>(R)), which this implies)
//   products     the complement step A* = complement(A, size(A)*cosize(B)) as complement above, then
//                the composition step A* o B, mode by mode. CuTe's logical_product test passes
//                ((_4,_6)):((_1,_6)) x _3:_1, but A's offsets have holes that no ordered complement can
//                fill: A* = _2:_36 breaks (1), and the product is not A's product
//   right_inverse  L(R(i)) == i for i < size(R); every mode has a positive size
//   left_inverse   every mode has a positive size; L(R(L(i))) == L(i) for i < size(L)
//   max_common_* A(R(i)) == i and B(R(i)) == i          nullspace  size(R) == size(L) / size(filter(L)); L(R(i)) == 0
//   make_layout_like  compact                          domain_distribute  evenly_divides(B, size(R));
//                                                      evenly_divides(A, R); R(i) < R(j) for i < j
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <functional>
#include <vector>

#include <cute/layout.hpp>
#include <cute/layout_composed.hpp>
#include <cute/pointer_flagged.hpp>
#include <cute/swizzle.hpp>
#include <cute/swizzle_layout.hpp>

namespace ref {

using namespace cute;

// The conditions, worded as layoutproof's errors word them.
constexpr const char* kPositive = "every mode has a positive size";
constexpr const char* kCompatible = "compatible(B, R)";
constexpr const char* kComposed = "R(c) == A(B(c))";
constexpr const char* kComposedSw = "R(c) == A(Sw(c))";
constexpr const char* kCovers = "(1) \"cosize(make_layout(L, R)) >= size(cotarget)\"";
constexpr const char* kOrdered = "(3) \"R(i-1) < R(i)\"";
constexpr const char* kDisjoint = "(4) \"R(i) != L(j)\"";
constexpr const char* kRightInverse = "L(R(i)) == i";
constexpr const char* kLeftInverse = "L(R(L(i))) == L(i)";
constexpr const char* kCommon = "A(R(i)) == i and B(R(i)) == i";
constexpr const char* kNullSize = "size(R) == size(L) / size(filter(L))";
constexpr const char* kNullZero = "L(R(i)) == 0";
constexpr const char* kCompact = "compact";
constexpr const char* kDividesB = "evenly_divides(B, size(R))";
constexpr const char* kDividesA = "evenly_divides(A, R)";
constexpr const char* kDistOrdered = "R(i) < R(j) for i < j";
constexpr const char* kBytesInElement = "moves bytes inside an element";

// ---- printing -------------------------------------------------------------------------------------

inline void begin(const char* op) { std::printf("%s", op); }
template <class T>
void arg(T const& t) {
  std::printf(" ");
  print(t);
}
inline void arrow() {
  std::printf(" => ");
  std::fflush(stdout);
}
template <class T>
void finish(const char* violated, T const& result) {
  if (violated) std::printf("!violates: %s", violated);
  else print(result);
  std::printf("\n");
  std::fflush(stdout);
}

// ---- the definitions --------------------------------------------------------------------------------

template <class L>
bool positive_shapes(L const& l) {
  bool ok = true;
  for_each_leaf(shape(l), [&](auto s) { ok = ok && (s >= 1); });
  return ok;
}

template <class T>
bool is_true(T const& t) { return bool(t); }

// The value of a layout at a point as {mode path -> non-zero integer}: integers, ScaledBasis and
// ArithmeticTuple values compare equal when they are the same coordinate (3@0 == (3) == (3,0)).
template <class X>
void coords(X const& x, std::vector<int>& path, std::vector<std::pair<std::vector<int>, long>>& out) {
  if constexpr (is_scaled_basis<X>::value) {
    coords(as_arithmetic_tuple(x), path, out);
  } else if constexpr (is_tuple<X>::value) {
    for_each(make_seq<tuple_size<X>::value>{}, [&](auto i) {
      path.push_back(int(i));
      coords(get<i>(x), path, out);
      path.pop_back();
    });
  } else {
    if (long(x) != 0) out.emplace_back(path, long(x));
  }
}

template <class X, class Y>
bool same(X const& x, Y const& y) {
  std::vector<int> p;
  std::vector<std::pair<std::vector<int>, long>> a, b;
  coords(x, p, a);
  coords(y, p, b);
  return a == b;
}

template <class A, class B, class R>
const char* composition_violation(A const& a, B const& b, R const& r) {
  if (!positive_shapes(r)) return kPositive;
  if (!is_true(compatible(shape(b), shape(r)))) return kCompatible;
  for (int c = 0; c < int(size(b)); ++c)
    if (!same(r(c), a(b(c)))) return kComposed;
  return nullptr;
}

template <class L, class T, class R>
const char* complement_violation(L const& l, T const& cotarget, R const& r) {
  if (!positive_shapes(r)) return kPositive;
  auto completed = make_layout(l, r);
  if (!(long(cosize(completed)) >= long(size(cotarget)))) return kCovers;
  for (int i = 1; i < int(size(r)); ++i)
    if (!(r(i - 1) < r(i))) return kOrdered;
  for (int i = 1; i < int(size(r)); ++i)
    for (int j = 0; j < int(size(l)); ++j)
      if (r(i) == l(j)) return kDisjoint;
  return nullptr;
}

template <class L, class R>
const char* right_inverse_violation(L const& l, R const& r) {
  if (!positive_shapes(r)) return kPositive;
  for (int i = 0; i < int(size(r)); ++i)
    if (!(l(r(i)) == i)) return kRightInverse;
  return nullptr;
}

template <class L, class R>
const char* left_inverse_violation(L const& l, R const& r) {
  // A negative stride gives a mode of negative size ((_4):(_-1) -> (_-1,_4):(_0,_1)): R's domain
  // [0, size(R)) then holds none of L's offsets, although CuTe's arithmetic evaluates R there.
  // (A swizzled L is checked through its inner layout's inverse first: left_inverse_case.)
  if constexpr (!is_composed_layout<R>::value)
    if (!positive_shapes(r)) return kPositive;
  for (int i = 0; i < int(size(l)); ++i)
    if (!(l(r(l(i))) == l(i))) return kLeftInverse;
  return nullptr;
}

// logical_divide's steps, mode by mode for a tuple tiler.
template <class L, class T>
const char* divide_violation(L const& l, T const& t) {
  if constexpr (is_tuple<T>::value) {
    const char* v = nullptr;
    for_each(make_seq<rank_v<T>>{}, [&](auto i) {
      if (!v) v = divide_violation(layout<i>(l), get<i>(t));
    });
    return v;
  } else if constexpr (is_underscore<T>::value) {
    return nullptr;
  } else if constexpr (is_integral<T>::value) {
    return divide_violation(l, make_layout(t));
  } else {
    auto c = complement(t, shape(coalesce(l)));
    if (const char* v = complement_violation(t, shape(coalesce(l)), c)) return v;
    auto b = make_layout(t, c);
    return composition_violation(l, b, composition(l, b));
  }
}

// logical_product's steps, mode by mode for a tuple tiler.
template <class A, class T>
const char* product_violation(A const& a, T const& t) {
  if constexpr (is_tuple<T>::value) {
    const char* v = nullptr;
    for_each(make_seq<rank_v<T>>{}, [&](auto i) {
      if (!v) v = product_violation(layout<i>(a), get<i>(t));
    });
    return v;
  } else if constexpr (is_underscore<T>::value) {
    return nullptr;
  } else if constexpr (is_integral<T>::value) {
    return product_violation(a, make_layout(t));
  } else {
    auto c = complement(a, size(a) * cosize(t));
    if (const char* v = complement_violation(a, size(a) * cosize(t), c)) return v;
    return composition_violation(c, t, composition(c, t));
  }
}

// The smem_ptr form ComposedLayout<Swizzle, smem_ptr_flag_bits<Bits>, L>: the swizzle acts on BYTE
// addresses. CuTe's own operator() reads the flag as _0 (an element swizzle); the definitions are
// checked with the true meaning, CuTe's as_position_independent_swizzle_layout (element-level), which
// exists unless the swizzle moves bytes inside an element (M < log2(Bits/8)).
template <class L>
struct SmemInfo {
  static constexpr bool smem = false, unevaluable = false;
};
template <int B, int M, int S, int Bits, class Lay>
struct SmemInfo<ComposedLayout<Swizzle<B, M, S>, smem_ptr_flag_bits<Bits>, Lay>> {
  static constexpr bool smem = true;
  static constexpr bool unevaluable = B > 0 && Bits > 8 && (1 << M) < Bits / 8;
};

template <class L>
auto truth(L const& l) {
  if constexpr (SmemInfo<L>::smem) return as_position_independent_swizzle_layout(l);
  else return l;
}

template <class L>
auto inner(L const& l) {
  if constexpr (is_composed_layout<L>::value) return l.layout_b();
  else return l;
}

// ---- one case per operation ---------------------------------------------------------------------------

template <class L>
void coalesce_case(L const& l) {
  begin("coalesce"), arg(l), arrow();
  finish(nullptr, coalesce(l));
}

template <class L, class P>
void coalesce_case(L const& l, P const& p) {
  begin("coalesce"), arg(l), arg(p), arrow();
  finish(nullptr, coalesce(l, p));
}

template <class L>
void filter_case(L const& l) {
  begin("filter"), arg(l), arrow();
  finish(nullptr, filter(l));
}

// size and cosize print CuTe's integer: _512 when it is known at compile time, 512 when not.
template <class L>
void size_case(L const& l) {
  begin("size"), arg(l), arrow();
  finish(nullptr, size(l));
}

template <class L>
void cosize_case(L const& l) {
  begin("cosize"), arg(l), arrow();
  finish(nullptr, cosize(l));
}

// composition(A, tiler) steps: mode by mode, an integer n is n:_1.
template <class L, class T>
const char* divide_violation_composition(L const& l, T const& t) {
  if constexpr (is_tuple<T>::value) {
    const char* v = nullptr;
    for_each(make_seq<rank_v<T>>{}, [&](auto i) {
      if (!v) v = divide_violation_composition(layout<i>(l), get<i>(t));
    });
    return v;
  } else if constexpr (is_underscore<T>::value) {
    return nullptr;
  } else if constexpr (is_integral<T>::value) {
    auto b = make_layout(t, Int<1>{});
    return composition_violation(l, b, composition(l, t));
  } else {
    return composition_violation(l, t, composition(l, t));
  }
}

template <class A, class B>
void composition_case(A const& a, B const& b) {
  begin("composition"), arg(a), arg(b), arrow();
  auto r = composition(a, b);
  const char* v = nullptr;
  if constexpr (is_layout<B>::value && !is_composed_layout<B>::value) {
    v = composition_violation(inner(a), b, inner(r));
  } else if constexpr (is_composed_layout<B>::value) {  // Layout o (Sw o _0 o L)
    if constexpr (SmemInfo<B>::unevaluable) {
      v = kBytesInElement;
    } else {
      v = composition_violation(a, b.layout_b(), composition(a, b.layout_b()));
      if (!v) v = composition_violation(a, truth(b), r);
    }
  } else if constexpr (is_tuple<B>::value || is_integral<B>::value) {
    v = divide_violation_composition(inner(a), b);
  }
  finish(v, r);
}

template <class L, int BB, int M, int S>
void composition_swizzle_case(L const& a, Swizzle<BB, M, S> const& sw) {
  begin("composition"), arg(a), arg(sw), arrow();
  auto r = composition(a, sw);
  const char* v = nullptr;
  for (int c = 0; c < int(size(a)) && !v; ++c)
    if (!(r(c) == a(sw(c)))) v = kComposedSw;
  finish(v, r);
}

template <class L, class T>
void complement_case(L const& l, T const& cotarget) {
  begin("complement"), arg(l), arg(cotarget), arrow();
  auto r = complement(l, cotarget);
  finish(complement_violation(inner(l), cotarget, r), r);
}

template <class L>
void complement_case(L const& l) {
  begin("complement"), arg(l), arrow();
  auto r = complement(l);
  if constexpr (is_composed_layout<L>::value) {  // CuTe: complement(layout_b, cosize(layout_b)), unfiltered
    finish(complement_violation(l.layout_b(), cosize(l.layout_b()), r), r);
  } else {
    finish(complement_violation(l, cosize(filter(l)), r), r);
  }
}

template <class L, class R>
const char* right_inverse_violation_n(L const& l, R const& r, int n) {
  for (int i = 0; i < n; ++i)
    if (!(l(r(i)) == i)) return kRightInverse;
  return nullptr;
}

template <class L>
void right_inverse_case(L const& l) {
  begin("right_inverse"), arg(l), arrow();
  auto r = right_inverse(l);
  const char* v = nullptr;
  if constexpr (is_composed_layout<L>::value) {
    auto inv = right_inverse(l.layout_b());
    v = right_inverse_violation(l.layout_b(), inv);
    // With an offset other than _0, CuTe's result is ComposedLayout<Layout, -Offset, Swizzle>: its domain is inv's.
    if (!v) v = right_inverse_violation_n(l, r, int(size(inv)));
  } else {
    v = right_inverse_violation(l, r);
  }
  finish(v, r);
}

template <class L>
void left_inverse_case(L const& l) {
  begin("left_inverse"), arg(l), arrow();
  auto r = left_inverse(l);
  const char* v = nullptr;
  if constexpr (is_composed_layout<L>::value) v = left_inverse_violation(l.layout_b(), left_inverse(l.layout_b()));
  if (!v) v = left_inverse_violation(l, r);
  finish(v, r);
}

#define REF_TILING_CASE(NAME, CHECK)                       \
  template <class L, class T>                              \
  void NAME##_case(L const& l, T const& t) {               \
    begin(#NAME), arg(l), arg(t), arrow();                 \
    auto r = NAME(l, t);                                   \
    finish(CHECK(inner(l), t), r);                         \
  }
REF_TILING_CASE(logical_divide, divide_violation)
REF_TILING_CASE(zipped_divide, divide_violation)
REF_TILING_CASE(tiled_divide, divide_violation)
REF_TILING_CASE(flat_divide, divide_violation)
REF_TILING_CASE(logical_product, product_violation)
REF_TILING_CASE(zipped_product, product_violation)
REF_TILING_CASE(tiled_product, product_violation)
REF_TILING_CASE(flat_product, product_violation)
#undef REF_TILING_CASE

template <class A, class B, bool Raked>
const char* rank_product_violation(A const& a, B const& b) {
  constexpr int R = cute::max(rank_v<decltype(shape(a))>, rank_v<decltype(shape(b))>);
  return product_violation(append<R>(a), append<R>(b));
}

template <class A, class B>
void blocked_product_case(A const& a, B const& b) {
  begin("blocked_product"), arg(a), arg(b), arrow();
  auto r = blocked_product(a, b);
  finish(rank_product_violation<decltype(inner(a)), B, false>(inner(a), b), r);
}

template <class A, class B>
void raked_product_case(A const& a, B const& b) {
  begin("raked_product"), arg(a), arg(b), arrow();
  auto r = raked_product(a, b);
  finish(rank_product_violation<decltype(inner(a)), B, true>(inner(a), b), r);
}

template <class A, class B>
void max_common_vector_case(A const& a, B const& b) {
  begin("max_common_vector"), arg(a), arg(b), arrow();
  auto n = max_common_vector(a, b);
  auto inv = right_inverse(inner(b));
  const char* v = nullptr;
  if constexpr (SmemInfo<A>::unevaluable || SmemInfo<B>::unevaluable) {
    v = kBytesInElement;
  } else {
    auto ta = truth(a);
    auto tb = truth(b);
    for (int i = 0; i < int(n) && !v; ++i)
      if (!(ta(inv(i)) == i && tb(inv(i)) == i)) v = kCommon;
  }
  finish(v, n);
}

template <class A, class B>
void max_common_layout_case(A const& a, B const& b) {
  begin("max_common_layout"), arg(a), arg(b), arrow();
  auto r = max_common_layout(a, b);
  const char* v = nullptr;
  if constexpr (SmemInfo<A>::unevaluable || SmemInfo<B>::unevaluable) {
    v = kBytesInElement;
  } else {
    auto ta = truth(a);
    auto tb = truth(b);
    for (int i = 0; i < int(size(r)) && !v; ++i)
      if (!(ta(r(i)) == i && tb(r(i)) == i)) v = kCommon;
  }
  finish(v, r);
}

template <class L>
void nullspace_case(L const& l) {
  begin("nullspace"), arg(l), arrow();
  auto r = nullspace(l);
  const char* v = nullptr;
  if constexpr (!is_composed_layout<L>::value) {
    if (!(int(size(r)) == int(size(l)) / int(size(filter(l))))) v = kNullSize;
    for (int i = 0; i < int(size(r)) && !v; ++i)
      if (!(l(r(i)) == 0)) v = kNullZero;
  }
  finish(v, r);
}

template <class L>
void make_layout_like_case(L const& l) {
  begin("make_layout_like"), arg(l), arrow();
  auto r = make_layout_like(l);
  auto f = filter_zeros(r);
  const int n = int(size(f));
  std::vector<char> seen(n > 0 ? n : 0, 0);
  const char* v = nullptr;
  for (int i = 0; i < n && !v; ++i) {
    const int x = int(f(i));
    if (x < 0 || x >= n || seen[x]) v = kCompact;
    else seen[x] = 1;
  }
  finish(v, r);
}

template <class A, class B>
void domain_distribute_case(A const& a, B const& b) {
  begin("domain_distribute"), arg(a), arg(b), arrow();
  auto r = domain_distribute(a, b);
  const int sr = int(size(r));
  const char* v = nullptr;
  if (sr < 1 || int(b) % sr != 0) v = kDividesB;
  if (!v && !(long(size(r)) * long(size(complement(r, flatten(a)))) == long(size(a)))) v = kDividesA;
  for (int i = 1; i < sr && !v; ++i)
    if (!(r(i - 1) < r(i))) v = kDistOrdered;
  finish(v, r);
}

// A case CuTe refuses to compile: its arguments printed as the query, the operation not attempted.
template <class... Args>
void refused_case(const char* op, const char* message, Args const&... args) {
  begin(op);
  (arg(args), ...);
  arrow();
  std::printf("!compile-error: %s\n", message);
  std::fflush(stdout);
}

// ---- the case list and main ---------------------------------------------------------------------------

inline std::vector<std::function<void()>>& cases() {
  static std::vector<std::function<void()>> c;
  return c;
}

struct Register {
  explicit Register(std::function<void()> f) { cases().push_back(std::move(f)); }
};

// Runs the cases from argv[1] (default 0): each prints one line and flushes, so a driver that sees
// a crash knows which case crashed and restarts after it.
inline int run_main(int argc, char** argv) {
  const int start = argc > 1 ? std::atoi(argv[1]) : 0;
  if (argc > 1 && std::string(argv[1]) == "--count") {
    std::printf("%zu\n", cases().size());
    return 0;
  }
  for (std::size_t i = static_cast<std::size_t>(start); i < cases().size(); ++i) cases()[i]();
  return 0;
}

}  // namespace ref

#define REF_CAT2(a, b) a##b
#define REF_CAT(a, b) REF_CAT2(a, b)
// One case, one source line (the driver maps compile errors to cases by line).
#define CASE(...) static ref::Register REF_CAT(ref_case_, __LINE__)([] { using namespace cute; ref::__VA_ARGS__; })
