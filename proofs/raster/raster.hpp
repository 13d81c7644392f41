#pragma once
// Claims about threadblock rasterizations (model/raster/raster.hpp), for every grid up to a bound:
// p0, p1 in [1, max_grid] (gridDim.x, gridDim.y; for cutlass m_tiles, n_tiles) and the parameter
// in its range (tile_size in [1, max_grid] unless fixed; log_tile in [0, 3] unless fixed).
//
//   in-bounds    forall grid, block b in launch:            f(b) in tiles
//   injective    forall grid, blocks a != b in launch:      f(a) != f(b)
//   surjective   forall grid, tile t in tiles, exists b:    f(b) == t
//   bijective    all three
//
// Z3 (proofs/smt/raster_z3.cpp) asks for a violation (sat = refuted) in 32-bit bit-vectors that
// mirror the model operation by operation. surjective is decided without quantifiers where it can
// be: by pigeonhole when |launch| = |tiles| (every kind but cutlass: surjective <=> in-bounds and
// injective), by an inverse certificate for cutlass (t = (m, n) is hit by block
// ((m << L) + (n & (2^L - 1)), n >> L)), else by an exists-forall query.
// Counterexamples are minimized (smallest p0 + p1, then p0, then the parameter, then the
// smallest linear block ids / tile), replayed on the model, and equal to the exhaustive twin's.
//
// Example: seed, tile_size symbolic, grids up to 256x256: injective REFUTED at grid (1,2),
// tile_size 1: blocks (0,0) and (0,1) both land on tile (0,0).
#include <memory>
#include <optional>
#include <string>

#include "model/raster/raster.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::proofs {

enum class RasterClaim { bijective, injective, in_bounds, surjective };
const char* to_string(RasterClaim c);
RasterClaim parse_raster_claim(const std::string& s);  // throws LayoutError

struct RasterSubject {
  raster::Kind kind = raster::Kind::row_major;
  std::optional<raster::u32> param;                 // fixed tile_size / log_tile, else symbolic
  std::shared_ptr<const raster::Formula> formula;   // kind formula
  raster::u32 max_grid = 256;
  // The parameter's range [lo, hi] (lo == hi when fixed or unused).
  raster::u32 param_lo() const;
  raster::u32 param_hi() const;
  bool has_param() const;          // the kind reads a parameter
  std::string text() const;        // "seed (tile_size 1..256)"
  std::string bound_text() const;  // "for grids up to 256x256 and tile_size 1..256"
  raster::Raster at(raster::u32 param) const;
};

struct RasterWitness {
  enum class What { out_of_bounds, collision, missing } what = What::collision;
  raster::u32 p0 = 0, p1 = 0, param = 0;
  raster::Grid launch, tiles;
  raster::Grid a, b;        // blocks (b only for collision)
  raster::Tile tile;        // f(a) (== f(b)), or the missing tile
  std::string describe(const RasterSubject& s) const;
};

struct RasterResult {
  Verdict verdict;
  std::optional<RasterWitness> witness;
};

// An engine's outcome (proofs/claims/engine.hpp) holds its raw violation as a RasterWitness, before replay.
// The Z3 engine alone (never throws).
Outcome<RasterWitness> check_raster_z3(const RasterSubject& s, RasterClaim c, const SmtOptions& o);
// The exhaustive twin: every grid, parameter and block. ERROR when more than kRasterExhaustiveLimit
// evaluations would be needed.
inline constexpr std::int64_t kRasterExhaustiveLimit = std::int64_t{1} << 31;
// --engine auto (the default) enumerates up to this cost (about a second), and asks Z3 above it.
inline constexpr std::int64_t kRasterAutoExhaustiveLimit = std::int64_t{1} << 22;
Outcome<RasterWitness> check_raster_exhaustive(const RasterSubject& s, RasterClaim c);

// Replays a candidate on the model: REFUTED with the witness when it reproduces, else ERROR.
RasterResult replay_raster(const RasterSubject& s, RasterClaim c, const RasterWitness& w, const std::string& method);

// The smallest missing tile of one concrete grid (nullopt: every tile is hit), by enumeration.
std::optional<raster::Tile> missing_tile(const RasterSubject& s, raster::u32 p0, raster::u32 p1, raster::u32 param);

// Decides the claim with the chosen engine (automatic = Z3), replays, fills time and bound.
RasterResult prove_raster(const RasterSubject& s, RasterClaim c, const ProveOptions& o);
// A rasterization's counterexample as a verdict's witness: the blocks and the tile they compute,
// replayed on the model (RasterWitness::describe says which of collision, out-of-bounds or
// missing). A check of a rasterization (proofs/check/run_check.hpp) gives it.
Witness raster_witness(const RasterSubject& s, const RasterWitness& w);

}  // namespace layoutproof::proofs
