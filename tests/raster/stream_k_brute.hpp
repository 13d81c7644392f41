#pragma once
// The brute-force twin of the stream-K claims (proofs/raster/stream_k_claims.cpp), for tests: every
// in-problem unit of every CTA's loop counted, each (tile, k block) and each final split (the unit
// whose k range ends at the tile's last k block).
#include <cstdint>
#include <map>
#include <tuple>

#include "model/raster/stream_k.hpp"
#include "proofs/raster/scheduler.hpp"

namespace layoutproof {

struct KCoverage {
  bool k_once = false;  // every (tile, k block) accumulated exactly once
  bool once = false;    // every tile's final split computed exactly once
};

inline KCoverage brute_k_coverage(const proofs::Schedule& s, const raster::StreamKConfig& c) {
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>, int> blocks;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, int> finals;
  for (std::int64_t cta = 0; cta < s.ctas; ++cta)
    for (const raster::Work& w : s.visits(cta)) {
      if (w.m >= c.base.tiles_m || w.n >= c.base.tiles_n || w.l >= c.base.tiles_l) continue;
      for (std::int64_t k = w.k_begin; k < w.k_end; ++k) ++blocks[{w.m, w.n, w.l, k}];
      if (w.k_end == c.k_tiles) ++finals[{w.m, w.n, w.l}];
    }
  const std::int64_t tiles = c.base.tiles_m * c.base.tiles_n * c.base.tiles_l;
  KCoverage r;
  r.k_once = static_cast<std::int64_t>(blocks.size()) == tiles * c.k_tiles;
  r.once = static_cast<std::int64_t>(finals.size()) == tiles;
  for (const auto& [b, n] : blocks) r.k_once = r.k_once && n == 1;
  for (const auto& [t, n] : finals) r.once = r.once && n == 1;
  return r;
}

}  // namespace layoutproof
