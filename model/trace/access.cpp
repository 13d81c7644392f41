#include "model/trace/access.hpp"

#include <limits>

#include "model/bank/bank.hpp"

namespace layoutproof {
namespace {

struct TileShape {
  i64 rows, cols;
};

TileShape tile_shape(const AccessSpec& spec) {
  const Layout& l = spec.tile.layout;
  if (l.rank() != 2) throw LayoutError("access patterns need a 2-D (rows, cols) tile");
  if (spec.elem_bytes < 1 || spec.vec < 1) throw LayoutError("elem_bytes and vec must be positive");
  const TileShape t{product(l.shape[0]), product(l.shape[1])};
  if (t.cols % spec.vec != 0)
    throw LayoutError("the tile's " + std::to_string(t.cols) + " columns are not divisible by the vector width " +
                      std::to_string(spec.vec));
  return t;
}

// The (row, col) thread `thread` of a thread-layout pattern starts its vector at; LayoutError when
// that is outside the tile or not at a multiple of vec.
std::pair<i64, i64> thread_cell(const AccessSpec& spec, const TileShape& t, i64 thread) {
  const i64 idx = evaluate(*spec.thread_layout, thread);
  if (idx < 0 || idx >= checked_mul(t.rows, t.cols))
    throw LayoutError("thread layout maps thread " + std::to_string(thread) + " to index " + std::to_string(idx) + ", outside the " +
                      std::to_string(t.rows) + "x" + std::to_string(t.cols) + " tile");
  const i64 row = idx % t.rows, col = idx / t.rows;
  if (col % spec.vec != 0)
    throw LayoutError("thread " + std::to_string(thread) + " starts a vector at column " + std::to_string(col) +
                      ", not a multiple of vec " + std::to_string(spec.vec));
  return {row, col};
}

WarpAccess inactive_warp(std::string where) {
  WarpAccess w;
  w.where = std::move(where);
  w.byte_address.fill(-1);
  return w;
}

void set_lane(const AccessSpec& spec, WarpAccess& w, int lane, i64 row, i64 col) {
  w.coord[lane] = {row, col};
  w.byte_address[lane] = byte_address(spec, row, col);
}

std::string range(i64 a, i64 b) { return a == b ? std::to_string(a) : std::to_string(a) + "-" + std::to_string(b); }

// Each pattern as (number of instructions, instruction k): warp_accesses lists them all, and
// warp_access_at builds one alone (a replayed witness needs only its instruction: hostile input H2).
i64 ceil_div(i64 a, i64 b) { return a / b + (a % b != 0); }  // a >= 0, b >= 1

// The pattern's checks (LayoutError naming the condition) and its instruction count.
i64 access_count(const AccessSpec& spec, TileShape t) {
  const i64 chunks = t.cols / spec.vec;
  switch (spec.pattern) {
    case PatternKind::row_per_lane: return checked_mul(ceil_div(t.rows, kWarpSize), chunks);
    case PatternKind::linear: return ceil_div(checked_mul(t.rows, chunks), kWarpSize);
    case PatternKind::ldmatrix: {
      if (spec.vec * spec.elem_bytes != 16)
        throw LayoutError("ldmatrix/stmatrix rows are 16 bytes: vec * elem_bytes must be 16, not " +
                          std::to_string(spec.vec * spec.elem_bytes));
      if (t.rows % 8 != 0) throw LayoutError("ldmatrix/stmatrix needs a multiple of 8 rows, not " + std::to_string(t.rows));
      const int n = spec.ldmatrix_count;
      if (n != 1 && n != 2 && n != 4) throw LayoutError("ldmatrix/stmatrix count must be 1, 2 or 4");
      return ceil_div(checked_mul(t.rows / 8, chunks), n);
    }
    case PatternKind::thread_layout:
      if (!spec.thread_layout) throw LayoutError("the thread-layout pattern needs a thread layout");
      return ceil_div(size(*spec.thread_layout), kWarpSize);
  }
  throw LayoutError("unknown access pattern");
}

// Instruction k of the pattern. @pre 0 <= k < access_count(spec, t).
WarpAccess access_at(const AccessSpec& spec, TileShape t, i64 k) {
  const i64 chunks = t.cols / spec.vec;
  switch (spec.pattern) {
    case PatternKind::row_per_lane: {  // row blocks of 32 outer, column chunks inner
      const i64 row0 = (k / chunks) * kWarpSize, c = k % chunks;
      const i64 rows_here = std::min<i64>(kWarpSize, t.rows - row0);
      WarpAccess w = inactive_warp("rows " + range(row0, row0 + rows_here - 1) + ", columns " +
                                   range(c * spec.vec, c * spec.vec + spec.vec - 1));
      for (int lane = 0; lane < kWarpSize; ++lane) set_lane(spec, w, lane, row0 + lane % rows_here, c * spec.vec);
      return w;
    }
    case PatternKind::linear: {
      const i64 per_row = chunks, total = checked_mul(t.rows, per_row), v0 = k * kWarpSize;
      WarpAccess w = inactive_warp("vectors " + range(v0, std::min(total, v0 + kWarpSize) - 1) + " (row-major)");
      for (int lane = 0; lane < kWarpSize && v0 + lane < total; ++lane) {
        const i64 v = v0 + lane;
        set_lane(spec, w, lane, v / per_row, (v % per_row) * spec.vec);
      }
      return w;
    }
    case PatternKind::ldmatrix: {
      const int n = spec.ldmatrix_count;
      const i64 matrices = checked_mul(t.rows / 8, chunks), m0 = k * n;
      WarpAccess w = inactive_warp("8x16B matrices " + range(m0, std::min(matrices, m0 + n) - 1));
      for (int m = 0; m < n && m0 + m < matrices; ++m) {
        const i64 mat = m0 + m, row_block = mat / chunks, chunk = mat % chunks;
        for (int r = 0; r < 8; ++r) set_lane(spec, w, 8 * m + r, row_block * 8 + r, chunk * spec.vec);
      }
      return w;
    }
    case PatternKind::thread_layout: {
      const Layout& tl = *spec.thread_layout;
      const i64 n = size(tl), l0 = k * kWarpSize;
      WarpAccess w = inactive_warp("threads " + range(l0, std::min(n, l0 + kWarpSize) - 1));
      for (int lane = 0; lane < kWarpSize && l0 + lane < n; ++lane) {
        const auto [row, col] = thread_cell(spec, t, l0 + lane);
        set_lane(spec, w, lane, row, col);
      }
      return w;
    }
  }
  throw LayoutError("unknown access pattern");
}

}  // namespace

AccessSpec make_access(AnyLayout tile, int elem_bytes, int vec, PatternKind pattern, int ldmatrix_count) {
  AccessSpec s;
  s.tile = std::move(tile);
  s.elem_bytes = elem_bytes;
  s.vec = vec;
  s.pattern = pattern;
  s.ldmatrix_count = ldmatrix_count;
  return s;
}

i64 byte_address(const AccessSpec& spec, i64 row, i64 col) {
  const i64 offset = evaluate(spec.tile, IntTuple::tuple({row, col}));
  const i64 a = checked_add(spec.base_address, checked_mul(offset, spec.elem_bytes));
  return spec.byte_swizzle ? spec.byte_swizzle->apply(a) : a;
}

namespace {

// [lo, hi] of Sw(x) for x in [lo, hi]: Sw rewrites only the bits below span_bits(), so Sw(x) stays in
// x's aligned block of 2^span_bits values (floor division also for negative x).
ByteRange swizzled_range(const Swizzle& sw, ByteRange r) {
  const i64 block = i64{1} << sw.span_bits();
  auto floor_block = [&](i64 x) { return (x >= 0 ? x / block : -checked_add(-x, block - 1) / block) * block; };
  return {floor_block(r.lo), checked_add(floor_block(r.hi), block - 1)};
}

}  // namespace

ByteRange byte_footprint(const AccessSpec& spec, int width_bytes) {
  const Layout& l = spec.tile.layout;
  const std::vector<i64> s = leaves(l.shape), d = leaves(l.stride);
  ByteRange off{spec.tile.offset, spec.tile.offset};  // element offsets: sum of (shape - 1) * stride
  for (std::size_t m = 0; m < s.size(); ++m) {
    const i64 reach = checked_mul(s[m] - 1, d[m]);
    (reach < 0 ? off.lo : off.hi) = checked_add(reach < 0 ? off.lo : off.hi, reach);
  }
  if (spec.tile.swizzle) off = swizzled_range(*spec.tile.swizzle, off);
  ByteRange bytes{checked_add(spec.base_address, checked_mul(off.lo, spec.elem_bytes)),
                  checked_add(checked_add(spec.base_address, checked_mul(off.hi, spec.elem_bytes)), width_bytes - 1)};
  if (spec.byte_swizzle) bytes = swizzled_range(*spec.byte_swizzle, bytes);
  return bytes;
}

void validate_access_spec(const AccessSpec& spec, int width_bytes) {
  auto pow2_upto16 = [](i64 x) { return x == 1 || x == 2 || x == 4 || x == 8 || x == 16; };
  if (!pow2_upto16(spec.elem_bytes))
    throw LayoutError("the element size must be 1, 2, 4, 8 or 16 bytes, not " + std::to_string(spec.elem_bytes));
  if (spec.vec < 1) throw LayoutError("the vector width must be at least 1 element, not " + std::to_string(spec.vec));
  if (!pow2_upto16(width_bytes))
    throw LayoutError("a lane accesses 1, 2, 4, 8 or 16 bytes: " + std::to_string(spec.elem_bytes) + "-byte elements x" +
                      std::to_string(spec.vec) + " is " + std::to_string(checked_mul(spec.elem_bytes, spec.vec)));
  const TileShape t = tile_shape(spec);  // rank 2, cols divisible by vec
  if (t.rows > std::numeric_limits<i64>::max() / t.cols)  // every pattern counts over rows x cols
    throw LayoutError("the tile has " + std::to_string(t.rows) + " x " + std::to_string(t.cols) +
                      " elements, more than 2^63");
  if (spec.base_address < 0 || spec.base_address % width_bytes != 0)
    throw LayoutError("the base address " + std::to_string(spec.base_address) + " is not a non-negative multiple of the " +
                      std::to_string(width_bytes) + "-byte access");
  if (spec.pattern == PatternKind::thread_layout && spec.thread_layout) {
    // A thread block has at most 1024 threads; each must start an in-bounds, vec-aligned vector
    // (checked here, so a bad layout is bad input, not an ERROR at replay; case E3d).
    const Layout& tl = *spec.thread_layout;
    if (size(tl) > kMaxBlockThreads)
      throw LayoutError("the thread layout has " + std::to_string(size(tl)) + " threads; a thread block has at most " +
                        std::to_string(kMaxBlockThreads));
    for (i64 thread = 0; thread < size(tl); ++thread) (void)thread_cell(spec, t, thread);
  }
  ByteRange r;
  try {
    r = byte_footprint(spec, width_bytes);
  } catch (const OverflowError&) {
    r = {0, std::numeric_limits<i64>::max()};
  }
  if (r.lo < 0)
    throw LayoutError("the tile reaches byte address " + std::to_string(r.lo) + ": shared-memory addresses are not negative");
  if (r.hi >= kSmemBytes)
    throw LayoutError("the tile's bytes reach address " + (r.hi == std::numeric_limits<i64>::max() ? std::string("2^63") : std::to_string(r.hi)) +
                      ", beyond the " + std::to_string(kSmemBytes) +
                      " bytes (227 KiB) of shared memory a thread block can address");
}

std::vector<WarpAccess> warp_accesses(const AccessSpec& spec) {
  const TileShape t = tile_shape(spec);
  const i64 n = access_count(spec, t);
  std::vector<WarpAccess> out;
  for (i64 k = 0; k < n; ++k) out.push_back(access_at(spec, t, k));
  return out;
}

i64 warp_access_count(const AccessSpec& spec) { return access_count(spec, tile_shape(spec)); }

WarpAccess warp_access_at(const AccessSpec& spec, i64 k) {
  const TileShape t = tile_shape(spec);
  const i64 n = access_count(spec, t);
  if (k < 0 || k >= n)
    throw LayoutError("instruction " + std::to_string(k) + " is outside the pattern's " + std::to_string(n) + " instructions");
  return access_at(spec, t, k);
}

PatternKind parse_pattern(const std::string& name) {
  if (name == "row-per-lane") return PatternKind::row_per_lane;
  if (name == "linear") return PatternKind::linear;
  if (name == "ldmatrix" || name == "stmatrix" || name == "ldmatrix-rows") return PatternKind::ldmatrix;
  if (name == "thread-layout") return PatternKind::thread_layout;
  throw LayoutError("unknown pattern '" + name + "' (row-per-lane, linear, ldmatrix, thread-layout)");
}

std::string to_string(PatternKind p) {
  switch (p) {
    case PatternKind::row_per_lane: return "row-per-lane";
    case PatternKind::linear: return "linear";
    case PatternKind::ldmatrix: return "ldmatrix";
    case PatternKind::thread_layout: return "thread-layout";
  }
  return "?";
}

}  // namespace layoutproof
