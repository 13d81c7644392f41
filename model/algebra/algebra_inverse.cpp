// right_inverse and left_inverse of plain layouts (CuTe layout.hpp, CUTLASS 4.x), staticness included.
#include <string>
#include <utility>

#include "model/algebra/algebra.hpp"
#include "model/algebra/algebra_check.hpp"
#include "model/layout/cute_int.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof {

namespace ci = cute_int;

namespace {

// The coalesced layout's modes, wrapped (an integer layout is one mode), and the exclusive prefix
// products of its shape: preprod = (_1, s0, s0*s1, ...).
struct Wrapped {
  std::vector<IntTuple> shape, stride, preprod;
};

Wrapped wrap_coalesced(const Layout& l, const char* op) {
  const Layout c = coalesce(l);
  Wrapped w;
  w.shape = c.shape.is_leaf() ? std::vector<IntTuple>{c.shape} : c.shape.children();
  w.stride = c.stride.is_leaf() ? std::vector<IntTuple>{c.stride} : c.stride.children();
  for (const IntTuple& d : w.stride)
    if (d.is_basis()) throw LayoutError(std::string(op) + " of " + to_cute_string(l) + ": basis strides have no inverse");
  w.preprod.push_back(IntTuple(1));
  for (const IntTuple& s : w.shape) w.preprod.push_back(ci::mul(s, w.preprod.back()));
  return w;
}

// CuTe's detail::SortByKey: an exchange sort of (stride, index) pairs by stride. Not stable: it is
// reproduced exactly, since the order of equal strides shows in the result.
std::vector<std::size_t> sort_by_stride(const std::vector<IntTuple>& stride, const std::vector<std::size_t>& indices) {
  std::vector<std::pair<i64, std::size_t>> a;
  for (std::size_t i : indices) a.emplace_back(stride[i].value(), i);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j)
      if (a[j].first < a[i].first) std::swap(a[i], a[j]);
  std::vector<std::size_t> out;
  for (const auto& p : a) out.push_back(p.second);
  return out;
}

Layout coalesced_of(std::vector<IntTuple> shape, std::vector<IntTuple> stride) {
  return coalesce(raw_layout(IntTuple::tuple(std::move(shape)), IntTuple::tuple(std::move(stride))));
}

}  // namespace

Layout right_inverse(const Layout& l) {
  const Wrapped w = wrap_coalesced(l, "right_inverse");
  std::vector<std::size_t> static_modes;  // dynamic strides are filtered out
  for (std::size_t i = 0; i < w.stride.size(); ++i)
    if (w.stride[i].is_static()) static_modes.push_back(i);
  std::vector<IntTuple> shape{IntTuple(1)}, stride{IntTuple(0)};
  IntTuple curr(1);
  for (std::size_t i : sort_by_stride(w.stride, static_modes)) {  // follow the strides up from _1
    if (!ci::static_equal(w.stride[i], curr)) continue;
    shape.push_back(w.shape[i]);
    stride.push_back(w.preprod[i]);
    curr = ci::mul(w.shape[i], w.stride[i]);
  }
  const Layout r = coalesced_of(std::move(shape), std::move(stride));
  check_right_inverse(l, r);
  return r;
}

Layout left_inverse(const Layout& l) {
  const Wrapped w = wrap_coalesced(l, "left_inverse");
  const std::string what = "left_inverse of " + to_cute_string(l);
  std::vector<std::size_t> all;
  for (std::size_t i = 0; i < w.stride.size(); ++i) {
    if (!w.stride[i].is_static())
      throw LayoutError(what + ": CuTe's \"Left inverse requires static strides.\" (the coalesced layout has the run-time stride " +
                        to_cute_string(w.stride[i]) + "; a compile error in CuTe)");
    all.push_back(i);
  }
  const std::vector<std::size_t> sorted = sort_by_stride(w.stride, all);
  std::vector<IntTuple> shape, stride{IntTuple(0)};
  IntTuple covered(1);  // size(result_shape)
  for (std::size_t i : sorted) {
    const IntTuple& d = w.stride[i];
    if (d.is_constant(0)) continue;
    if (d.value() % covered.value() != 0)
      throw LayoutError(what + ": CuTe's \"Left inverse divisibility condition\" fails: stride " + to_cute_string(d) +
                        " is not a multiple of " + to_cute_string(covered) + ", the size of the inverse so far (a compile error in CuTe)");
    shape.push_back(ci::div(d, covered));
    stride.push_back(w.preprod[i]);
    covered = ci::mul(covered, shape.back());
  }
  shape.push_back(w.shape[sorted.back()]);
  const Layout r = coalesced_of(std::move(shape), std::move(stride));
  check_left_inverse(l, r);
  return r;
}

}  // namespace layoutproof
