// Rasterization claims: the exhaustive twin, replay on model/raster/raster.hpp, and prove_raster(),
// which combines the parts of `bijective` and turns engine outcomes into verdicts.
#include "proofs/raster/raster.hpp"

#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <limits>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "model/support/error.hpp"

namespace layoutproof::proofs {

using raster::Grid;
using raster::Kind;
using raster::Tile;
using raster::u32;

const char* to_string(RasterClaim c) {
  switch (c) {
    case RasterClaim::bijective: return "bijective";
    case RasterClaim::injective: return "injective";
    case RasterClaim::in_bounds: return "in-bounds";
    case RasterClaim::surjective: return "surjective";
  }
  return "?";
}

RasterClaim parse_raster_claim(const std::string& s) {
  for (RasterClaim c : {RasterClaim::bijective, RasterClaim::injective, RasterClaim::in_bounds, RasterClaim::surjective})
    if (s == to_string(c)) return c;
  throw LayoutError("--claim must be bijective, injective, in-bounds or surjective, not '" + s + "'");
}

bool RasterSubject::has_param() const {
  switch (kind) {
    case Kind::seed:
    case Kind::seed_fixed:
    case Kind::cutlass: return true;
    case Kind::formula: return formula && formula->uses_tile_size;
    default: return false;
  }
}
u32 RasterSubject::param_lo() const {
  if (!has_param()) return kind == Kind::formula ? 1 : 0;
  if (param) return *param;
  return kind == Kind::cutlass ? 0 : 1;
}
u32 RasterSubject::param_hi() const {
  if (!has_param()) return param_lo();
  if (param) return *param;
  return kind == Kind::cutlass ? 3 : max_grid;
}

static std::string param_name(Kind k) { return k == Kind::cutlass ? "log_tile" : "tile_size"; }

std::string RasterSubject::text() const {
  std::string t = kind == Kind::formula ? "formula '" + formula->text + "'" : raster::to_string(kind);
  if (has_param()) {
    t += " (" + param_name(kind) + " ";
    t += param_lo() == param_hi() ? std::to_string(param_lo())
                                  : std::to_string(param_lo()) + ".." + std::to_string(param_hi());
    t += ")";
  }
  return t;
}

std::string RasterSubject::bound_text() const {
  const std::string g = std::to_string(max_grid);
  std::string t = kind == Kind::cutlass ? "for tile grids (m_tiles, n_tiles) up to " + g + "x" + g
                                        : "for grids up to " + g + "x" + g;
  if (has_param() && !param) t += " and " + param_name(kind) + " " + std::to_string(param_lo()) + ".." + std::to_string(param_hi());
  return t;
}

raster::Raster RasterSubject::at(u32 p) const { return raster::Raster{kind, p, formula}; }

static std::string pair(u32 a, u32 b) { return "(" + std::to_string(a) + "," + std::to_string(b) + ")"; }

std::string RasterWitness::describe(const RasterSubject& s) const {
  std::string g = s.kind == Kind::cutlass ? "tile grid " + pair(p0, p1) + ", launch grid " + pair(launch.x, launch.y)
                                          : "grid " + pair(p0, p1);
  if (s.has_param()) g += ", " + param_name(s.kind) + " " + std::to_string(param);
  switch (what) {
    case What::out_of_bounds:
      return g + ": block " + pair(a.x, a.y) + " lands on tile " + pair(tile.x, tile.y) + ", outside the tile grid " +
             pair(tiles.x, tiles.y);
    case What::collision:
      return g + ": blocks " + pair(a.x, a.y) + " and " + pair(b.x, b.y) + " both land on tile " + pair(tile.x, tile.y);
    case What::missing: return g + ": tile " + pair(tile.x, tile.y) + " is never visited";
  }
  return g;
}

namespace {

bool inside(Tile t, Grid g) { return t.x < g.x && t.y < g.y; }
std::uint64_t key(Tile t) { return (std::uint64_t{t.x} << 32) | t.y; }

// One concrete (grid, parameter): the first violation of the claim part in canonical order.
std::optional<RasterWitness> first_violation(const RasterSubject& s, RasterClaim c, u32 p0, u32 p1, u32 param) {
  const raster::Raster r = s.at(param);
  RasterWitness w;
  w.p0 = p0, w.p1 = p1, w.param = param;
  w.launch = raster::launch_grid(s.kind, p0, p1, param);
  w.tiles = raster::tile_grid(s.kind, p0, p1);
  if (c == RasterClaim::surjective) {
    if (auto t = missing_tile(s, p0, p1, param)) {
      w.what = RasterWitness::What::missing;
      w.tile = *t;
      return w;
    }
    return std::nullopt;
  }
  std::unordered_map<std::uint64_t, u32> first;  // tile -> linear id of the first block on it
  for (u32 by = 0; by < w.launch.y; ++by)
    for (u32 bx = 0; bx < w.launch.x; ++bx) {
      const Tile t = raster::apply(r, bx, by, w.launch.x, w.launch.y);
      if (c == RasterClaim::in_bounds) {
        if (!inside(t, w.tiles)) {
          w.what = RasterWitness::What::out_of_bounds;
          w.a = Grid{bx, by};
          w.tile = t;
          return w;
        }
        continue;
      }
      const auto [it, fresh] = first.emplace(key(t), by * w.launch.x + bx);
      if (!fresh) {
        w.what = RasterWitness::What::collision;
        w.a = Grid{it->second % w.launch.x, it->second / w.launch.x};
        w.b = Grid{bx, by};
        w.tile = t;
        return w;
      }
    }
  return std::nullopt;
}

// A product saturated at INT64_MAX (cost estimates: max grid 4096 with log_tile 15 is past 2^63).
std::int64_t saturating_product(std::initializer_list<std::int64_t> factors) {
  std::int64_t c = 1;
  for (std::int64_t f : factors) {
    if (f != 0 && c > std::numeric_limits<std::int64_t>::max() / f) return std::numeric_limits<std::int64_t>::max();
    c *= f;
  }
  return c;
}

// Evaluations per block, over the parameters: their count, times 2^(log_tile+1) launch blocks per
// tile for cutlass.
std::int64_t per_block_cost(const RasterSubject& s) {
  const std::int64_t params = std::int64_t{s.param_hi()} - s.param_lo() + 1;
  return saturating_product({params, s.kind == Kind::cutlass ? 2 * (std::int64_t{1} << std::min<u32>(s.param_hi(), 32)) : 1});
}

// Block evaluations of the exhaustive twin.
std::int64_t exhaustive_cost(const RasterSubject& s) {
  const std::int64_t n = s.max_grid, tri = n * (n + 1) / 2;  // n <= 4096: no overflow
  return saturating_product({tri, tri, per_block_cost(s)});
}

}  // namespace

std::optional<Tile> missing_tile(const RasterSubject& s, u32 p0, u32 p1, u32 param) {
  const raster::Raster r = s.at(param);
  const Grid launch = raster::launch_grid(s.kind, p0, p1, param), tiles = raster::tile_grid(s.kind, p0, p1);
  std::vector<bool> hit(std::size_t{tiles.x} * tiles.y, false);
  for (u32 by = 0; by < launch.y; ++by)
    for (u32 bx = 0; bx < launch.x; ++bx) {
      const Tile t = raster::apply(r, bx, by, launch.x, launch.y);
      if (inside(t, tiles)) hit[std::size_t{t.y} * tiles.x + t.x] = true;
    }
  for (std::size_t i = 0; i < hit.size(); ++i)
    if (!hit[i]) return Tile{static_cast<u32>(i % tiles.x), static_cast<u32>(i / tiles.x)};
  return std::nullopt;
}

namespace {

// The exhaustive twin over the grids with p0 + p1 <= max_sum, in the canonical witness order.
Outcome<RasterWitness> exhaustive_upto(const RasterSubject& s, RasterClaim c, u32 max_sum) {
  Outcome<RasterWitness> out;
  const u32 n = s.max_grid;
  std::int64_t grids = 0;
  for (u32 sum = 2; sum <= std::min(2 * n, max_sum); ++sum)
    for (u32 p0 = sum > n ? sum - n : 1; p0 <= n && p0 < sum; ++p0)
      for (u32 param = s.param_lo(); param <= s.param_hi(); ++param) {
        ++grids;
        const u32 p1 = sum - p0;
        const RasterClaim parts[3] = {RasterClaim::in_bounds, RasterClaim::injective, RasterClaim::surjective};
        for (RasterClaim part : parts) {
          if (c != RasterClaim::bijective && c != part) continue;
          if (auto w = first_violation(s, part, p0, p1, param)) {
            out.kind = OutcomeKind::violated;
            out.witness = *w;
            out.method = "exhaustive (" + std::to_string(grids) + " grids enumerated)";
            return out;
          }
        }
      }
  out.kind = OutcomeKind::holds;
  out.method = "exhaustive (" + std::to_string(grids) + " grids, every block)";
  out.text = std::string(to_string(c)) + " " + s.bound_text();
  return out;
}

// Evaluations of exhaustive_upto(s, c, k): at most k^2/2 grids of at most k^2/4 blocks each.
std::int64_t exhaustive_upto_cost(const RasterSubject& s, u32 k) {
  const std::int64_t kk = std::int64_t{k} * k;  // k <= 8192
  return saturating_product({kk * kk / 8 + 1, per_block_cost(s)});
}

}  // namespace

Outcome<RasterWitness> check_raster_exhaustive(const RasterSubject& s, RasterClaim c) {
  if (s.max_grid < 1 || exhaustive_cost(s) > kRasterExhaustiveLimit) {
    Outcome<RasterWitness> out;
    out.method = "exhaustive";
    out.kind = OutcomeKind::error;
    out.text = "exhaustive check too large for max grid " + std::to_string(s.max_grid) + " (use z3 or a smaller --max-grid)";
    return out;
  }
  return exhaustive_upto(s, c, 2 * s.max_grid);
}

RasterResult replay_raster(const RasterSubject& s, RasterClaim c, const RasterWitness& cand, const std::string& method) {
  auto mismatch = [&](const std::string& why) {
    return RasterResult{Verdict::error(method, "encoding mismatch: the candidate (" + cand.describe(s) +
                                                   ") does not replay on the model: " + why),
                        std::nullopt};
  };
  if (cand.p0 < 1 || cand.p1 < 1 || cand.p0 > s.max_grid || cand.p1 > s.max_grid || cand.param < s.param_lo() ||
      cand.param > s.param_hi())
    return mismatch("outside the domain");
  RasterWitness w = cand;
  const raster::Raster r = s.at(w.param);
  w.launch = raster::launch_grid(s.kind, w.p0, w.p1, w.param);
  w.tiles = raster::tile_grid(s.kind, w.p0, w.p1);
  auto in_launch = [&](Grid b) { return b.x < w.launch.x && b.y < w.launch.y; };
  auto f = [&](Grid b) { return raster::apply(r, b.x, b.y, w.launch.x, w.launch.y); };
  switch (w.what) {
    case RasterWitness::What::out_of_bounds:
      if (c != RasterClaim::in_bounds && c != RasterClaim::bijective) return mismatch("wrong kind of witness");
      if (!in_launch(w.a)) return mismatch("block outside the launch grid");
      w.tile = f(w.a);
      if (inside(w.tile, w.tiles)) return mismatch("the block lands inside the tile grid");
      break;
    case RasterWitness::What::collision: {
      if (c != RasterClaim::injective && c != RasterClaim::bijective) return mismatch("wrong kind of witness");
      if (!in_launch(w.a) || !in_launch(w.b) || (w.a.x == w.b.x && w.a.y == w.b.y)) return mismatch("bad blocks");
      const Tile ta = f(w.a), tb = f(w.b);
      if (ta.x != tb.x || ta.y != tb.y) return mismatch("the blocks land on different tiles");
      w.tile = ta;
      break;
    }
    case RasterWitness::What::missing: {
      if (c != RasterClaim::surjective && c != RasterClaim::bijective) return mismatch("wrong kind of witness");
      if (!inside(w.tile, w.tiles)) return mismatch("tile outside the tile grid");
      for (u32 by = 0; by < w.launch.y; ++by)
        for (u32 bx = 0; bx < w.launch.x; ++bx) {
          const Tile t = f(Grid{bx, by});
          if (t.x == w.tile.x && t.y == w.tile.y) return mismatch("block " + pair(bx, by) + " visits the tile");
        }
      break;
    }
  }
  Witness vw;
  vw.why = w.describe(s);
  auto point = [&](const std::string& role, Grid b, Tile t) {
    vw.points.push_back(WitnessPoint{role, static_cast<i64>(b.y) * w.launch.x + b.x, pair(b.x, b.y) + " -> " + pair(t.x, t.y), 0, ""});
  };
  if (w.what == RasterWitness::What::missing) vw.points.push_back(WitnessPoint{"missing", -1, pair(w.tile.x, w.tile.y), 0, ""});
  else point("block", w.a, w.tile);
  if (w.what == RasterWitness::What::collision) point("block", w.b, w.tile);
  return RasterResult{Verdict::refuted(method, std::move(vw)), w};
}

namespace {

// --engine auto enumerates when that is cheap (the default max grid 8 of the heavy kinds: about 10^4
// evaluations, milliseconds, where Z3 took 10-40 s on `seed --tile-size 65536`), else asks Z3.
bool use_exhaustive(const RasterSubject& s, const ProveOptions& o) {
  return o.engine == EngineChoice::exhaustive ||
         (o.engine == EngineChoice::automatic && s.max_grid >= 1 && exhaustive_cost(s) <= kRasterAutoExhaustiveLimit);
}

Outcome<RasterWitness> decide(const RasterSubject& s, RasterClaim c, const ProveOptions& o) {
  if (o.smt.deadline.passed()) {  // --deadline-s: what is not started by then is UNKNOWN
    Outcome<RasterWitness> u;
    u.kind = OutcomeKind::unknown;
    u.method = "deadline";
    u.text = o.smt.deadline.reason();
    return u;
  }
  return use_exhaustive(s, o) ? check_raster_exhaustive(s, c) : check_raster_z3(s, c, o.smt);
}

// Canonical order of witnesses: p0 + p1, p0, parameter (then the part order of the caller).
bool smaller(const RasterWitness& a, const RasterWitness& b) {
  const auto ka = std::make_tuple(a.p0 + a.p1, a.p0, a.param), kb = std::make_tuple(b.p0 + b.p1, b.p0, b.param);
  return ka < kb;
}

}  // namespace

RasterResult prove_raster(const RasterSubject& s, RasterClaim c, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  Outcome<RasterWitness> out;
  if (c == RasterClaim::bijective && !use_exhaustive(s, o)) {
    // The parts one by one; the smallest violation wins (ties: in-bounds, injective, surjective).
    std::optional<Outcome<RasterWitness>> best, undecided;
    std::vector<std::string> queries, methods;
    for (RasterClaim part : {RasterClaim::in_bounds, RasterClaim::injective, RasterClaim::surjective}) {
      // |launch| = |tiles| for every kind but cutlass: surjective fails exactly where in-bounds or
      // injective fails (pigeonhole), and those come first in the tie order, so it adds nothing.
      if (part == RasterClaim::surjective && s.kind != Kind::cutlass) {
        methods.push_back("surjective: pigeonhole (|blocks| = |tiles|)");
        continue;
      }
      // Below a violation already found only a smaller one can change the answer: --engine auto
      // enumerates those grids when that is cheap (morton's in-bounds witness at grid (1,2) made Z3's injective query
      // run to its 10 s timeout for nothing).
      const bool below = best && o.engine == EngineChoice::automatic && exhaustive_upto_cost(s, best->witness.p0 + best->witness.p1) <= kRasterAutoExhaustiveLimit;
      Outcome<RasterWitness> p = below ? exhaustive_upto(s, part, best->witness.p0 + best->witness.p1) : decide(s, part, o);
      if (below) p.method = "exhaustive below the first witness (" + p.method.substr(std::string("exhaustive (").size());
      queries.insert(queries.end(), p.queries.begin(), p.queries.end());
      methods.push_back(std::string(to_string(part)) + ": " + p.method);
      if (p.kind == OutcomeKind::violated) {
        if (!best || smaller(p.witness, best->witness)) best = p;
      } else if (p.kind != OutcomeKind::holds && !undecided) {
        undecided = p;
      }
    }
    if (best) out = *best;
    else if (undecided) out = *undecided;
    else {
      out.kind = OutcomeKind::holds;
      out.text = "every block lands in the tile grid, no two share a tile and every tile is visited, " + s.bound_text();
      out.method = "z3";
    }
    std::string m;
    for (const auto& x : methods) m += (m.empty() ? "" : "; ") + x;
    out.method = m;
    out.queries = queries;
  } else {
    out = decide(s, c, o);
  }
  RasterResult r;
  switch (out.kind) {
    case OutcomeKind::holds: r.verdict = Verdict::proved(out.method, out.text); break;
    case OutcomeKind::violated: r = replay_raster(s, c, out.witness, out.method); break;
    case OutcomeKind::unknown: r.verdict = Verdict::unknown(out.method, out.text); break;
    case OutcomeKind::error: r.verdict = Verdict::error(out.method, out.text); break;
  }
  r.verdict.queries = out.queries;
  r.verdict.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.verdict = o.smt.deadline.expire(std::move(r.verdict));  // reached after the run's deadline: UNKNOWN
  if (!r.verdict.is_refuted()) r.witness.reset();
  return r;
}

// A rasterization's counterexample as a witness: the blocks and the tile they compute, replayed
// on the model (RasterWitness::describe says which of collision, out-of-bounds or missing).
Witness raster_witness(const RasterSubject& s, const RasterWitness& w) {
  const auto at = [](raster::Grid g) { return "(" + std::to_string(g.x) + "," + std::to_string(g.y) + ")"; };
  Witness out;
  out.why = w.describe(s);
  if (w.what != RasterWitness::What::missing) out.points.push_back({"block", -1, at(w.a), 0, ""});
  if (w.what == RasterWitness::What::collision) out.points.push_back({"block", -1, at(w.b), 0, ""});
  const char* tile = w.what == RasterWitness::What::missing         ? "missing tile"
                     : w.what == RasterWitness::What::out_of_bounds ? "tile outside the grid"
                                                                    : "tile of both blocks";
  out.points.push_back({tile, -1,
                        "(" + std::to_string(w.tile.x) + "," + std::to_string(w.tile.y) + ")", 0, ""});
  return out;
}

}  // namespace layoutproof::proofs
