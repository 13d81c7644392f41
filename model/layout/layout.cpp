#include "model/layout/layout.hpp"

#include <cstdlib>

#include "model/layout/cute_int.hpp"

namespace layoutproof {

Layout::Layout(IntTuple shape_, IntTuple stride_) : shape(std::move(shape_)), stride(std::move(stride_)) {
  if (!congruent(shape, stride))
    throw LayoutError("shape and stride are not congruent (they must have the same nesting)");
  for (i64 s : leaves(shape))
    if (s < 1) throw LayoutError("shape " + std::to_string(s) + " is not positive");
}

Layout Layout::concat(const std::vector<Layout>& modes) {
  std::vector<IntTuple> shapes, strides;
  for (const auto& m : modes) {
    shapes.push_back(m.shape);
    strides.push_back(m.stride);
  }
  return Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

Layout Layout::flat(const std::vector<i64>& shape, const std::vector<i64>& stride) {
  if (shape.empty() || shape.size() != stride.size()) throw LayoutError("a flat layout needs one stride per shape");
  if (shape.size() == 1) return Layout(shape[0], stride[0]);
  std::vector<IntTuple> s(shape.begin(), shape.end()), d(stride.begin(), stride.end());
  return Layout(IntTuple::tuple(std::move(s)), IntTuple::tuple(std::move(d)));
}

Layout raw_layout(IntTuple shape, IntTuple stride) {
  if (!congruent(shape, stride)) throw LayoutError("shape and stride are not congruent (they must have the same nesting)");
  Layout l;
  l.shape = std::move(shape);
  l.stride = std::move(stride);
  return l;
}

Layout concat_layouts(const std::vector<Layout>& modes) {
  std::vector<IntTuple> shapes, strides;
  for (const auto& m : modes) {
    shapes.push_back(m.shape);
    strides.push_back(m.stride);
  }
  return raw_layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

Layout make_compact_layout(const IntTuple& shape) { return raw_layout(shape, cute_int::compact_col_major(shape)); }

IntTuple size_cute(const Layout& l) { return cute_int::product(l.shape); }

static IntTuple coshape_sum(const IntTuple& shape, const IntTuple& stride) {
  if (shape.is_leaf()) return cute_int::mul(cute_int::sub(shape, IntTuple(1)), cute_int::abs(stride));
  IntTuple sum(0);  // CuTe: (Int<0>{} + ... + inner_product(s_i, d_i))
  for (std::size_t i = 0; i < shape.rank(); ++i) sum = cute_int::add(sum, coshape_sum(shape[i], stride[i]));
  return sum;
}

IntTuple cosize_cute(const Layout& l) {
  for (const IntTuple& d : leaf_nodes(l.stride))
    if (d.is_basis()) throw LayoutError("cosize of a layout with basis strides is a coordinate shape, not an integer");
  return cute_int::add(coshape_sum(l.shape, l.stride), IntTuple(1));
}

namespace {

// as_arithmetic_tuple(v@p0@p1...): p0 zeros, then the rest of the path, then v.
IntTuple basis_coord(i64 v, const std::vector<int>& path, std::size_t at) {
  if (at == path.size()) return IntTuple(v);
  std::vector<IntTuple> modes(static_cast<std::size_t>(path[at]), IntTuple(0));
  modes.push_back(basis_coord(v, path, at + 1));
  return IntTuple::tuple(std::move(modes));
}

IntTuple coord_add(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() && b.is_leaf()) return IntTuple(checked_add(a.value(), b.value()));
  if (a.is_leaf()) {
    if (a.value() != 0) throw LayoutError("an integer offset cannot be added to a basis coordinate");
    return b;
  }
  if (b.is_leaf()) return coord_add(b, a);
  std::vector<IntTuple> out;
  for (std::size_t i = 0; i < std::max(a.rank(), b.rank()); ++i)
    out.push_back(coord_add(i < a.rank() ? a[i] : IntTuple(0), i < b.rank() ? b[i] : IntTuple(0)));
  return IntTuple::tuple(std::move(out));
}

IntTuple term(i64 c, const IntTuple& d) {
  if (!d.is_basis()) return IntTuple(checked_mul(c, d.value()));
  return basis_coord(checked_mul(c, d.scale()), d.basis_path(), 0);
}

IntTuple crd2coord(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  if (coord.is_tuple()) {
    if (shape.is_leaf() || coord.rank() != shape.rank()) throw LayoutError("coordinate rank does not match shape rank");
    IntTuple sum(0);
    for (std::size_t i = 0; i < coord.rank(); ++i) sum = coord_add(sum, crd2coord(coord[i], shape[i], stride[i]));
    return sum;
  }
  i64 c = coord.value();
  if (shape.is_leaf()) return term(c, stride);
  IntTuple sum(0);
  const std::size_t r = shape.rank();
  for (std::size_t i = 0; i + 1 < r; ++i) {
    if (c == 0) return sum;
    const i64 s = product(shape[i]);
    if (s == 0) throw LayoutError("crd2idx: index " + std::to_string(c) + " divided by a mode of size 0");
    sum = coord_add(sum, crd2coord(IntTuple(c % s), shape[i], stride[i]));
    c /= s;
  }
  return coord_add(sum, crd2coord(IntTuple(c), shape[r - 1], stride[r - 1]));
}

bool all_zero(const IntTuple& t) {
  if (t.is_leaf()) return t.value() == 0;
  for (const auto& c : t.children())
    if (!all_zero(c)) return false;
  return true;
}

}  // namespace

namespace {

// crd2idx(c, s, d) of CuTe (stride.hpp) with its staticness: an integer coordinate is split by
// divmod over the modes (the last one takes the rest); a static _0 coordinate gives _0.
IntTuple crd2idx_cute(const IntTuple& c, const IntTuple& s, const IntTuple& d) {
  if (c.is_tuple()) {
    if (s.is_leaf() || c.rank() != s.rank()) throw LayoutError("coordinate rank does not match shape rank");
    IntTuple sum(0);
    for (std::size_t i = 0; i < c.rank(); ++i) sum = cute_int::add(sum, crd2idx_cute(c[i], s[i], d[i]));
    return sum;
  }
  if (s.is_leaf()) return cute_int::mul(c, d);
  const std::size_t r = s.rank();
  if (c.is_constant(0)) {
    IntTuple sum(0);
    for (std::size_t i = 0; i < r; ++i) sum = cute_int::add(sum, crd2idx_cute(IntTuple(0), s[i], d[i]));
    return sum;
  }
  IntTuple rest = c, sum(0);
  bool first = true;
  for (std::size_t i = 0; i + 1 < r; ++i) {
    const IntTuple n = cute_int::product(s[i]);
    const IntTuple term = crd2idx_cute(cute_int::mod(rest, n), s[i], d[i]);
    sum = first ? term : cute_int::add(sum, term);
    first = false;
    rest = cute_int::div(rest, n);
  }
  const IntTuple last = crd2idx_cute(rest, s[r - 1], d[r - 1]);
  return first ? last : cute_int::add(sum, last);
}

}  // namespace

IntTuple evaluate_cute(const Layout& l, const IntTuple& coord_or_index) {
  return crd2idx_cute(coord_or_index, l.shape, l.stride);
}

IntTuple evaluate_coord(const Layout& l, const IntTuple& coord_or_index) {
  return crd2coord(coord_or_index, l.shape, l.stride);
}

bool same_coord(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() && b.is_leaf()) return a.value() == b.value();
  if (a.is_leaf()) return a.value() == 0 && all_zero(b);
  if (b.is_leaf()) return same_coord(b, a);
  for (std::size_t i = 0; i < std::max(a.rank(), b.rank()); ++i)
    if (!same_coord(i < a.rank() ? a[i] : IntTuple(0), i < b.rank() ? b[i] : IntTuple(0))) return false;
  return true;
}

i64 size(const Layout& l) { return product(l.shape); }

int depth(const Layout& l) { return depth(l.shape); }

i64 cosize(const Layout& l) {
  Layout abs_layout(l.shape, transform_leaves(l.stride, [](i64 d) {
                      if (d == INT64_MIN) throw OverflowError("64-bit overflow: |stride|");
                      return std::llabs(d);
                    }));
  return checked_add(evaluate(abs_layout, checked_sub(size(l), 1)), 1);
}

// An index 0 maps to 0 without dividing (CuTe's _0 shortcut; also what optimized CuTe computes
// through a mode of run-time size 0). A non-zero index reaching a size-0 mode is a division by zero.
static i64 crd2idx_int(i64 coord, const IntTuple& shape, const IntTuple& stride) {
  if (shape.is_leaf()) return checked_mul(coord, stride.value());
  const std::size_t r = shape.rank();
  if (stride.is_leaf() || stride.rank() != r) throw LayoutError("crd2idx: mismatched ranks");
  i64 result = 0;
  for (std::size_t i = 0; i + 1 < r; ++i) {
    if (coord == 0) return result;
    const i64 s = product(shape[i]);
    if (s == 0) throw LayoutError("crd2idx: index " + std::to_string(coord) + " divided by a mode of size 0");
    result = checked_add(result, crd2idx_int(coord % s, shape[i], stride[i]));
    coord /= s;
  }
  return checked_add(result, crd2idx_int(coord, shape[r - 1], stride[r - 1]));
}

i64 crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  if (coord.is_leaf()) return crd2idx_int(coord.value(), shape, stride);
  if (shape.is_leaf() || coord.rank() != shape.rank() || stride.is_leaf() || stride.rank() != shape.rank())
    throw LayoutError("coordinate rank " + std::to_string(coord.rank()) + " does not match shape rank " +
                      std::to_string(shape.rank()));
  i64 result = 0;
  for (std::size_t i = 0; i < coord.rank(); ++i)
    result = checked_add(result, crd2idx(coord[i], shape[i], stride[i]));
  return result;
}

// product_like(shape, coord): the shape's products at the profile of coord, flattened into out.
static void flat_shape_like(const IntTuple& shape, const IntTuple& coord, std::vector<i64>& out) {
  if (coord.is_leaf()) {
    out.push_back(product(shape));
    return;
  }
  if (shape.is_leaf() || shape.rank() != coord.rank())
    throw LayoutError("coordinate rank " + std::to_string(coord.rank()) + " does not match shape rank " +
                      std::to_string(shape.rank()));
  for (std::size_t i = 0; i < coord.rank(); ++i) flat_shape_like(shape[i], coord[i], out);
}

i64 crd2idx(const IntTuple& coord, const IntTuple& shape) {
  if (coord.is_leaf()) return coord.value();
  if (shape.is_leaf()) throw LayoutError("a tuple coordinate needs a tuple shape");
  std::vector<i64> flat_shape;
  flat_shape_like(shape, coord, flat_shape);
  const std::vector<i64> flat_coord = leaves(coord);
  i64 result = flat_coord.back();  // Horner from the last mode
  for (std::size_t i = flat_coord.size() - 1; i-- > 0;)
    result = checked_add(flat_coord[i], checked_mul(flat_shape[i], result));
  return result;
}

IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape, const IntTuple& stride) {
  if (idx.is_tuple()) {
    if (shape.is_leaf() || idx.rank() != shape.rank() || stride.is_leaf() || stride.rank() != shape.rank())
      throw LayoutError("idx2crd: index rank does not match shape rank");
    std::vector<IntTuple> out;
    for (std::size_t i = 0; i < idx.rank(); ++i) out.push_back(idx2crd(idx[i], shape[i], stride[i]));
    return IntTuple::tuple(std::move(out));
  }
  if (shape.is_tuple()) {
    const IntTuple d = stride.is_tuple() ? stride : compact_col_major(shape, stride.value());
    if (d.rank() != shape.rank()) throw LayoutError("idx2crd: mismatched ranks");
    std::vector<IntTuple> out;
    for (std::size_t i = 0; i < shape.rank(); ++i) out.push_back(idx2crd(idx, shape[i], d[i]));
    return IntTuple::tuple(std::move(out));
  }
  if (stride.is_tuple()) throw LayoutError("idx2crd: mismatched ranks");
  if (shape.value() == 1) return IntTuple(0);
  // CuTe divides by the shape: a zero shape was SIGFPE (fuzz/, algebra_query).
  if (shape.value() <= 0) throw LayoutError("idx2crd: shape " + std::to_string(shape.value()) + " is not positive");
  if (stride.value() == 0) throw LayoutError("idx2crd: stride 0 on a mode of size " + std::to_string(shape.value()));
  if (idx.value() == INT64_MIN && stride.value() == -1) throw OverflowError("64-bit overflow: idx2crd " + std::to_string(idx.value()) + " / -1");
  return IntTuple((idx.value() / stride.value()) % shape.value());
}

// Colexicographic split in which the last mode of every tuple takes the remaining quotient.
static IntTuple idx2crd_unbounded(i64 idx, const IntTuple& shape) {
  if (shape.is_leaf()) return IntTuple(idx);
  std::vector<IntTuple> out;
  const std::size_t r = shape.rank();
  for (std::size_t i = 0; i + 1 < r; ++i) {
    const i64 s = product(shape[i]);
    if (s <= 0) throw LayoutError("idx2crd: shape " + std::to_string(s) + " is not positive");  // was SIGFPE
    out.push_back(idx2crd_unbounded(idx % s, shape[i]));
    idx /= s;
  }
  out.push_back(idx2crd_unbounded(idx, shape[r - 1]));
  return IntTuple::tuple(std::move(out));
}

IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape) {
  if (idx.is_tuple()) {
    if (shape.is_leaf() || idx.rank() != shape.rank())
      throw LayoutError("idx2crd: index rank does not match shape rank");
    std::vector<IntTuple> out;
    for (std::size_t i = 0; i < idx.rank(); ++i) out.push_back(idx2crd(idx[i], shape[i]));
    return IntTuple::tuple(std::move(out));
  }
  return idx2crd_unbounded(idx.value(), shape);
}

i64 evaluate(const Layout& l, const IntTuple& coord_or_index) {
  return crd2idx(coord_or_index, l.shape, l.stride);
}

std::vector<i64> offsets(const Layout& l) {
  std::vector<i64> out;
  out.reserve(static_cast<std::size_t>(size(l)));
  for_each_offset(l, [&](i64, i64 o) {
    out.push_back(o);
    return true;
  });
  return out;
}

}  // namespace layoutproof
