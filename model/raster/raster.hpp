#pragma once
// Threadblock (CTA) rasterizations: functions
//     (blockIdx.x, blockIdx.y, gridDim.x, gridDim.y, param) -> tile (x, y)
// in unsigned 32-bit arithmetic, exactly as the CUDA sources compute them. The proofs
// (proofs/raster/raster.hpp) and the GPU check (gpu_check/raster/raster_check.cu) call these same
// functions, so what is proved is what runs.
//
// Each kind is described by two symbolic dimensions (p0, p1), a parameter and
//   launch grid   the gridDim the kernel is launched with
//   tile grid     the tiles the map must cover one-to-one
//
//   kind        p0,p1              param       launch grid                  tile grid  map
//   row-major   gridDim.x,y        -           (p0, p1)                     (p0, p1)   (bx, by)
//   seed        gridDim.x,y        tile_size   (p0, p1)                     (p0, p1)   get_swizzle_idx, as written
//   seed-fixed  gridDim.x,y        tile_size   (p0, p1)                     (p0, p1)   same, y = flat / gridDim.x
//   cutlass     m_tiles,n_tiles    log_tile L  (p0 << L, ceil(p1 / 2^L))    (p0, p1)   (bx >> L, (by << L) + (bx & (2^L-1)))
//   morton      gridDim.x,y        -           (p0, p1)                     (p0, p1)   Z-order decode of bid = by*gx + bx
//   formula     gridDim.x,y        tile_size   (p0, p1)                     (p0, p1)   the user's expressions
//
// Division by zero and shifts by 32 or more are defined as in SMT-LIB (x / 0 = 0xFFFFFFFF,
// x % 0 = x, x << s = x >> s = 0 for s >= 32), so the model and the Z3 encoding agree on every
// input; none of the built-in kinds divides by zero on its domain (tile_size >= 1).
//
// Example (CuTe-style tuples): seed with tile_size 1 on the grid (1,2): block (0,1) has
// block_idx 1, strip_flat_idx 1, x = 1 % 1 = 0, y = 1 / gridDim.y = 1 / 2 = 0, so blocks (0,0)
// and (0,1) both land on tile (0,0): the article's `ret.y = strip_flat_idx / gridDim.y` should
// divide by gridDim.x (seed-fixed).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/support/host_device.hpp"

namespace layoutproof::raster {

using u32 = std::uint32_t;

struct Tile {
  u32 x = 0, y = 0;
};
struct Grid {
  u32 x = 0, y = 0;
};

enum class Kind : int { row_major = 0, seed, seed_fixed, cutlass, morton, formula };

// SMT-LIB semantics for the partial operations (see the header comment).
LAYOUTPROOF_HOST_DEVICE inline u32 udiv(u32 a, u32 b) { return b == 0 ? 0xFFFFFFFFu : a / b; }
LAYOUTPROOF_HOST_DEVICE inline u32 urem(u32 a, u32 b) { return b == 0 ? a : a % b; }
LAYOUTPROOF_HOST_DEVICE inline u32 shl(u32 a, u32 s) { return s >= 32 ? 0u : a << s; }
LAYOUTPROOF_HOST_DEVICE inline u32 lshr(u32 a, u32 s) { return s >= 32 ? 0u : a >> s; }

// get_swizzle_idx of the seed article (shared/seeds/threadblock-swizzle-ko.md), line by line.
// `int const tile_size` meets unsigned operands in every expression, so it is converted to
// unsigned: the whole function is unsigned 32-bit arithmetic. fixed = true divides by gridDim.x
// in the last line (the evident intent); fixed = false is the article verbatim.
// @pre tile_size >= 1 (else the model follows SMT-LIB division by zero)
LAYOUTPROOF_HOST_DEVICE inline Tile seed_swizzle(u32 bx, u32 by, u32 gx, u32 gy, u32 tile_size, bool fixed = false) {
  const u32 block_idx = by * gx + bx;
  const u32 total_cta_in_a_strip = tile_size * gy;
  const u32 number_of_strips = udiv(gx, tile_size);
  const u32 residual_strip_width = urem(gx, tile_size);
  const u32 strip_id = udiv(block_idx, total_cta_in_a_strip);
  const u32 cta_id_in_strip = urem(block_idx, total_cta_in_a_strip);
  const u32 use_sz = (block_idx < total_cta_in_a_strip * number_of_strips) ? tile_size : residual_strip_width;
  const u32 strip_id_x = urem(cta_id_in_strip, use_sz);
  const u32 strip_id_y = udiv(cta_id_in_strip, use_sz);
  const u32 strip_flat_idx = strip_id * tile_size + strip_id_y * gx + strip_id_x;
  Tile ret;
  ret.x = urem(strip_flat_idx, gx);
  ret.y = fixed ? udiv(strip_flat_idx, gx) : udiv(strip_flat_idx, gy);
  return ret;
}

// CUTLASS GemmIdentityThreadblockSwizzle<N>::get_tile_offset(int log_tile)
// (NVIDIA/cutlass include/cutlass/gemm/threadblock/threadblock_swizzle.h, commit 08838608):
//   m = block_idx_x >> log_tile,  n = (block_idx_y << log_tile) + (block_idx_x & ((1 << log_tile) - 1))
// CUTLASS computes in int; for block indices < 2^31 and log_tile < 31 the values are the same.
// x = m, y = n (GemmCoord order).
LAYOUTPROOF_HOST_DEVICE inline Tile cutlass_identity(u32 bx, u32 by, u32 log_tile) {
  return Tile{lshr(bx, log_tile), shl(by, log_tile) + (bx & (shl(1u, log_tile) - 1u))};
}
// get_grid_shape: (m_tiles * 2^L, (n_tiles + 2^L - 1) / 2^L).
LAYOUTPROOF_HOST_DEVICE inline Grid cutlass_grid(u32 m_tiles, u32 n_tiles, u32 log_tile) {
  const u32 tile = shl(1u, log_tile);
  return Grid{m_tiles * tile, udiv(n_tiles + tile - 1u, tile)};
}

// The even bits of v, packed: compact(0b10101) = 0b111, compact(0b1011) = 0b1.
LAYOUTPROOF_HOST_DEVICE inline u32 compact_even_bits(u32 v) {
  v &= 0x55555555u;
  v = (v | (v >> 1)) & 0x33333333u;
  v = (v | (v >> 2)) & 0x0F0F0F0Fu;
  v = (v | (v >> 4)) & 0x00FF00FFu;
  v = (v | (v >> 8)) & 0x0000FFFFu;
  return v;
}

// Morton (Z-order) over the linear block id bid = by * gx + bx: x = even bits of bid, y = odd
// bits. Non-power-of-two grids get no correction: the decode ranges over the enclosing
// 2^a x 2^b box, so the map is a bijection onto (gx, gy) exactly when gx * gy is a power of two
// with gx = gy or gx = 2 gy; otherwise some block lands outside the grid (the claims say so).
LAYOUTPROOF_HOST_DEVICE inline Tile morton(u32 bx, u32 by, u32 gx) {
  const u32 bid = by * gx + bx;
  return Tile{compact_even_bits(bid), compact_even_bits(bid >> 1)};
}

// Launch grid and tile grid of a kind for the symbolic dimensions (p0, p1) (table above).
LAYOUTPROOF_HOST_DEVICE inline Grid launch_grid(Kind k, u32 p0, u32 p1, u32 param) {
  return k == Kind::cutlass ? cutlass_grid(p0, p1, param) : Grid{p0, p1};
}
LAYOUTPROOF_HOST_DEVICE inline Grid tile_grid(Kind, u32 p0, u32 p1) { return Grid{p0, p1}; }

// Every kind but formula (the formula is host-only: raster::Formula below).
LAYOUTPROOF_HOST_DEVICE inline Tile apply_builtin(Kind k, u32 bx, u32 by, u32 gx, u32 gy, u32 param) {
  switch (k) {
    case Kind::seed: return seed_swizzle(bx, by, gx, gy, param, false);
    case Kind::seed_fixed: return seed_swizzle(bx, by, gx, gy, param, true);
    case Kind::cutlass: return cutlass_identity(bx, by, param);
    case Kind::morton: return morton(bx, by, gx);
    default: return Tile{bx, by};
  }
}

// ---- host only below ------------------------------------------------------------------------

// A user formula: let-bindings and the two results, over blockIdx.x/y, gridDim.x/y, tile_size
// and unsigned 32-bit constants; operators + - * / % << >> & | ^ (C precedence), min, max,
// parentheses. Statements `name = expr` are separated by ';' or newlines; x (or tile_x) and
// y (or tile_y) must be given. Example:
//   bid = blockIdx.y * gridDim.x + blockIdx.x; x = bid % 4; y = bid / 4
struct FormulaNode {
  enum class Op { constant, var, add, sub, mul, div, rem, shl, shr, band, bor, bxor, min, max };
  Op op = Op::constant;
  u32 value = 0;  // constant; var: 0 blockIdx.x, 1 blockIdx.y, 2 gridDim.x, 3 gridDim.y, 4 tile_size
  int a = -1, b = -1;  // operand nodes (earlier in the vector)
};
struct Formula {
  std::string text;
  std::vector<FormulaNode> nodes;  // operands always precede their users
  int x = -1, y = -1;              // result nodes
  bool uses_tile_size = false;
};

// Throws ParseError (model/layout/notation.hpp) with the column of the first bad token.
Formula parse_formula(std::string_view text);
Tile eval_formula(const Formula& f, u32 bx, u32 by, u32 gx, u32 gy, u32 tile_size);

// A rasterization: the kind, its parameter and (formula) the formula.
struct Raster {
  Kind kind = Kind::row_major;
  u32 param = 0;  // tile_size (seed, seed-fixed, formula) or log_tile (cutlass)
  std::shared_ptr<const Formula> formula;
};
Tile apply(const Raster& r, u32 bx, u32 by, u32 gx, u32 gy);

const char* to_string(Kind k);
// "row-major" | "seed" | "seed-fixed" | "cutlass" | "morton" | "formula"; throws LayoutError.
Kind parse_kind(std::string_view s);
// e.g. "seed (tile_size 4)", "cutlass (log_tile 2)", "formula 'x = ...; y = ...'"
std::string describe(const Raster& r);

// ---- L2 locality -----------------------------------------------------------------------------
// A GEMM C(M,N) += A(M,K) B(K,N) cut into tiles (tm, tn, tk); its CTAs run in waves of S
// consecutive linear block ids (id = by * gridDim.x + bx, the launch order), one CTA per SM.
// Per wave: the distinct A tile rows (m) and B tile columns (n) its in-bounds CTAs touch, and the
// bytes of A and B the wave loads if each is loaded once: distinct_a * tm * K * E and
// distinct_b * tn * K * E. Tile to (m, n): cutlass x = m, y = n; every other kind x = n, y = m
// (the CUDA convention blockIdx.x -> columns), launched on (n_tiles, m_tiles).
// Blocks whose tile falls outside (m_tiles, n_tiles) are no-ops (counted, not loaded).
struct GemmShape {
  std::int64_t m = 4096, n = 4096, k = 4096;
};
struct TileShape {
  std::int64_t m = 128, n = 128, k = 64;
};
struct Locality {
  std::string name;
  Grid launch;
  std::int64_t m_tiles = 0, n_tiles = 0, blocks = 0, noop_blocks = 0, waves = 0;
  double mean_a = 0, mean_b = 0;         // distinct A / B tiles per wave
  std::int64_t max_a = 0, max_b = 0;
  std::int64_t total_a = 0, total_b = 0;  // sums over the waves
  std::int64_t bytes_a = 0, bytes_b = 0;  // sums over the waves
};
// @pre sms >= 1, elem_bytes >= 1, every extent >= 1 (LayoutError otherwise)
Locality locality(const Raster& r, const GemmShape& g, const TileShape& t, int elem_bytes, int sms);

}  // namespace layoutproof::raster
