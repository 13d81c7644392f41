#pragma once
// XOR-linear swizzles over GF(2), as in Triton's linear layouts, restricted to
// the maps that can change shared-memory banks without touching anything else.
//
// Work in units of one lane access of W = elem_bytes * vec bytes (W in {4, 8, 16}): unit index
// u = byte_address / W. A bank phase reads 128 bytes, i.e. 2^w units with w = log2(128 / W); the
// bank group of a unit is its low w bits. The maps searched are
//     u' = u XOR (A * (u >> w))          A: a w x H bit matrix, H = unit bits above the bank bits
// (only higher bits feed lower bits, so the map is unipotent: invertible, and it is its own
// inverse on every aligned 128-byte block's tag). Column k of A (a_k, w bits) is what unit bit
// w + k XORs into the bank bits. Each 128-byte block is mapped onto itself, so a tile whose offset
// image is a union of aligned 128-byte blocks keeps its image; whole W-byte vectors move, so
// vectors stay contiguous and aligned.
//
// Conflict condition. Two lanes of one bank phase with different units u1 != u2 conflict after
// the map iff their bank groups agree:  A * (h1 ^ h2) == l1 ^ l2  (h = u >> w, l = low w bits).
// So only the set D of differences d = u1 ^ u2 over all pairs of lanes of one phase matters; the
// search looks for A with A * d_h != d_l for every d in D. That condition is necessary for the bank
// model's conflict-freedom (a phase with two words in one bank needs two wavefronts, and the
// wide-load merges of model/bank/bank.hpp only merge phases that are conflict-free together), so "no
// matrix satisfies it" proves that no map of this form is conflict-free; a matrix that satisfies
// it is then checked by the bank model on every instruction (proofs/synth/synth.cpp) before it is shown.
//
// Example: (32,40):(40,1), f32, 16-byte vectors, row-per-lane: W = 16, w = 3, u = 10*row + chunk,
// H = 6 (u < 320); the search runs over the 2^18 matrices A.
#include <cstdint>
#include <string>
#include <vector>

namespace layoutproof::proofs {

struct Gf2Map {
  int unit_log2 = 4;               // log2(W): bytes per unit
  int w = 3;                       // bank bits of a unit (written)
  int high_bits = 0;               // H: unit bits above them (read)
  std::vector<std::uint32_t> cols; // a_k for k = 0..H-1
  std::int64_t xor_of_unit(std::int64_t u) const;           // A * (u >> w)
  std::int64_t apply_byte(std::int64_t byte_address) const;  // the mapped byte address
  bool is_identity() const;
};

struct Gf2Search {
  enum class Kind { found, none, budget_exhausted } kind = Kind::none;
  Gf2Map map;
  std::int64_t nodes = 0;          // backtracking nodes visited
  std::int64_t differences = 0;    // |D|
  double log2_space = 0;           // log2 of the number of matrices (w * H)
};

// phases: for every bank phase of every instruction, the unit indices of its active lanes.
// Backtracks over a_0, a_1, ... (0 first: sparse maps first); a constraint is checked as soon as
// the top bit of its d_h is assigned. Gives up after `budget` nodes.
// @pre 1 <= w <= 5, unit_bits <= 30.
Gf2Search search_gf2(const std::vector<std::vector<std::int64_t>>& phases, int unit_log2, int w, int unit_bits,
                     std::int64_t budget = 20'000'000);

// The matrix as w lines of H bits, line i = written unit bit i, column k = read unit bit w + k.
std::vector<std::string> matrix_lines(const Gf2Map& m);

}  // namespace layoutproof::proofs
