#include "model/layout.hpp"

#include <cstdlib>

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

i64 size(const Layout& l) { return product(l.shape); }

int depth(const Layout& l) { return depth(l.shape); }

i64 cosize(const Layout& l) {
  Layout abs_layout(l.shape, transform_leaves(l.stride, [](i64 d) {
                      if (d == INT64_MIN) throw OverflowError("64-bit overflow: |stride|");
                      return std::llabs(d);
                    }));
  return checked_add(evaluate(abs_layout, checked_sub(size(l), 1)), 1);
}

static i64 crd2idx_int(i64 coord, const IntTuple& shape, const IntTuple& stride) {
  if (shape.is_leaf()) return checked_mul(coord, stride.value());
  const std::size_t r = shape.rank();
  if (stride.is_leaf() || stride.rank() != r) throw LayoutError("crd2idx: mismatched ranks");
  i64 result = 0;
  for (std::size_t i = 0; i + 1 < r; ++i) {
    const i64 s = product(shape[i]);
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
  if (stride.value() == 0) throw LayoutError("idx2crd: stride 0 on a mode of size " + std::to_string(shape.value()));
  return IntTuple((idx.value() / stride.value()) % shape.value());
}

// Colexicographic split in which the last mode of every tuple takes the remaining quotient.
static IntTuple idx2crd_unbounded(i64 idx, const IntTuple& shape) {
  if (shape.is_leaf()) return IntTuple(idx);
  std::vector<IntTuple> out;
  const std::size_t r = shape.rank();
  for (std::size_t i = 0; i + 1 < r; ++i) {
    const i64 s = product(shape[i]);
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
