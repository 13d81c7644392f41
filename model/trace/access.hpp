#pragma once
// Access patterns: which lanes of a warp touch which elements of a tile in each warp-wide
// shared-memory instruction, as byte addresses (the bank model's input).
//
// The tile is a 2-D logical layout (rows, cols) -> element offset, plain or swizzled, e.g.
// Sw<3,3,3> o (8,64):(64,1). A lane accesses `vec` consecutive logical elements along the row,
// starting at the coordinate it is given; its byte address is
//     base + tile(row, col) * elem_bytes          (then byte_swizzle, when one is given)
// Patterns (those users write every day):
//   row-per-lane   lane l reads row row0 + (l mod R') of one `vec`-wide column chunk; one
//                  instruction per (group of 32 rows, chunk). With fewer than 32 rows the lanes
//                  wrap around the rows (as the hardware sample in shared/hardware does).
//   linear         the warp copies the tile in row-major vector order: instruction k, lane l takes
//                  vector 32k + l (inactive past the end).
//   ldmatrix       ldmatrix/stmatrix .xN of the tile's 8-row x 16-byte sub-matrices, enumerated
//                  along the row first (chunk 0, 1, ... of rows 0-7, then rows 8-15, ...); lane
//                  8m + r gives row r of matrix m; lanes >= 8N are inactive.
//   thread layout  a CuTe layout lane -> linear index of the first element (colexicographic in
//                  (rows, cols)); instruction k is lanes 32k..32k+31 of its domain.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "model/bank/bank.hpp"  // kMaxBlockThreads, kSmemBytes
#include "model/layout/composed.hpp"

namespace layoutproof {

enum class PatternKind { row_per_lane, linear, ldmatrix, thread_layout };

struct AccessSpec {
  AnyLayout tile;                   // (rows, cols) -> element offset
  int elem_bytes = 4;
  int vec = 1;                      // elements per lane access (ldmatrix: 16 / elem_bytes)
  PatternKind pattern = PatternKind::row_per_lane;
  int ldmatrix_count = 4;           // N of .xN for the ldmatrix pattern
  std::optional<Layout> thread_layout;
  i64 base_address = 0;             // the buffer's byte address (swizzles on bytes depend on it)
  std::optional<Swizzle> byte_swizzle;  // applied to absolute byte addresses (TMA modes)
};

// The usual spec: a tile read `vec` elements at a time with a pattern (.xN count for ldmatrix).
AccessSpec make_access(AnyLayout tile, int elem_bytes, int vec, PatternKind pattern, int ldmatrix_count = 4);

constexpr int kWarpSize = 32;

struct LaneCoord {
  i64 row = -1, col = -1;  // first element of the lane's vector; -1: inactive
};

// One warp-wide instruction of the pattern.
struct WarpAccess {
  std::string where;                          // e.g. "rows 0-31, columns 4-7"
  std::array<i64, kWarpSize> byte_address;    // -1: lane inactive
  std::array<LaneCoord, kWarpSize> coord;
};

// Every instruction of the pattern over the whole tile.
// @pre rank(tile) == 2; cols divisible by vec; for ldmatrix vec * elem_bytes == 16 and rows % 8 == 0
//      (LayoutError otherwise, naming the condition).
std::vector<WarpAccess> warp_accesses(const AccessSpec& spec);
// The number of instructions of warp_accesses(spec), from the sizes alone (checked arithmetic,
// OverflowError past 2^63; the same checks, LayoutError naming the condition).
i64 warp_access_count(const AccessSpec& spec);
// Instruction k of warp_accesses(spec) alone, without building the others (same checks;
// LayoutError when k is outside [0, number of instructions)).
WarpAccess warp_access_at(const AccessSpec& spec, i64 k);

// The byte address of the element at (row, col).
i64 byte_address(const AccessSpec& spec, i64 row, i64 col);

// The bytes an access of `width_bytes` per lane can touch: [lo, hi], a bound over every element of
// the tile (checked arithmetic; a swizzle only rewrites the low span_bits() bits of what it is given,
// so it keeps a value inside its aligned 2^span_bits block).
// Example: (8,64):(64,1), 2-byte elements, width 16, base 1024 -> [1024, 1024 + 511*2 + 15] = [1024, 2061].
struct ByteRange {
  i64 lo = 0, hi = 0;
};
ByteRange byte_footprint(const AccessSpec& spec, int width_bytes);

// Refuses (LayoutError, naming the value) an access spec before anything is enumerated or encoded:
// rank(tile) != 2; elem_bytes not 1, 2, 4, 8 or 16; vec < 1 or not dividing the columns; a lane
// width (elem_bytes * vec, or `width_bytes` for matrix ops) not 1, 2, 4, 8 or 16; a base address
// that is negative or not a multiple of the width; a footprint outside [0, kSmemBytes); a thread
// layout of more than kMaxBlockThreads threads, or one whose thread starts a vector outside the tile
// or at a column that is not a multiple of vec.
// Example: (8,64):(64,1), elem_bytes 2, vec 8, base 4 -> "--base 4 is not a multiple of the 16-byte access".
void validate_access_spec(const AccessSpec& spec, int width_bytes);

PatternKind parse_pattern(const std::string& name);
std::string to_string(PatternKind p);

}  // namespace layoutproof
