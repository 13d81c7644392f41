#include "proofs/raster/stream_k_claims.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unordered_map>

#include "model/support/checked.hpp"

namespace layoutproof::proofs {
namespace {

using i64 = std::int64_t;
using raster::Work;

// Stream-K schedules have one problem: no group in the text.
std::string tile_text(const Work& w) { return proofs::tile_text(false, 0, w.m, w.n, w.l); }
std::string k_text(const Work& w) { return "k [" + std::to_string(w.k_begin) + ", " + std::to_string(w.k_end) + ")"; }

struct Unit {
  i64 cta = 0;
  Work w;
};
std::string unit_text(const Unit& u) {
  return "CTA " + std::to_string(u.cta) + " at iteration " + std::to_string(u.w.iter) + " (" + k_text(u.w) + ")";
}

// A tile's coordinates as a hash key (equality on all three: two tiles never share a lock).
struct TileKey {
  i64 m = 0, n = 0, l = 0;
  bool operator==(const TileKey& o) const { return m == o.m && n == o.n && l == o.l; }
};
struct TileKeyHash {
  std::size_t operator()(const TileKey& t) const {
    std::uint64_t h = static_cast<std::uint64_t>(t.m) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<std::uint64_t>(t.n) + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2);
    h ^= static_cast<std::uint64_t>(t.l) + 0x94D049BB133111EBull + (h << 6) + (h >> 2);
    return static_cast<std::size_t>(h);
  }
};
TileKey pack(const Work& w) { return {w.m, w.n, w.l}; }

// Every CTA's loop, and each tile's units: tiles inside the problem by index, the rounding's
// padding tiles (which run the fix-up too) by their packed coordinates.
struct Enumerated {
  std::vector<std::vector<Work>> loops;
  std::vector<std::vector<Unit>> inside;  // per tile (l * N + n) * M + m
  std::unordered_map<TileKey, std::vector<Unit>, TileKeyHash> padding;
  i64 units = 0, k_blocks = 0, most_k_blocks = 0;
};

// The replay every witness gets: the CTA's loop run again gives the same unit at that iteration.
bool replays(const Schedule& s, const Unit& u) {
  const std::vector<Work> again = s.visits(u.cta);
  if (u.w.iter < 0 || u.w.iter >= static_cast<i64>(again.size())) return false;
  const Work& x = again[static_cast<std::size_t>(u.w.iter)];
  return x.m == u.w.m && x.n == u.w.n && x.l == u.w.l && x.k_begin == u.w.k_begin && x.k_end == u.w.k_end;
}

Verdict refuted_replayed(const Schedule& s, const std::string& method, const std::vector<Unit>& who, const Work& tile, std::string why) {
  for (const Unit& u : who)
    if (!replays(s, u)) return Verdict::error(method, "the witness did not replay");
  Witness wit;
  for (const Unit& u : who)
    wit.points.push_back({"cta " + std::to_string(u.cta) + ", iteration " + std::to_string(u.w.iter), -1, tile_text(u.w) + " " + k_text(u.w), 0, ""});
  if (who.empty()) wit.points.push_back({"missing", -1, tile_text(tile), 0, ""});
  wit.why = std::move(why);
  return Verdict::refuted(method, wit);
}

// The fix-up protocol (model/raster/stream_k.hpp), every CTA resident: each CTA runs its units in
// order; a unit that must wait for its tile's lock stops its CTA until another CTA raises the
// lock. Rounds until nothing moves. Returns the deadlock's description, empty when every unit ran.
std::string run_fixup(const Schedule& s, const Enumerated& e, std::vector<Unit>& stuck) {
  struct Lock {
    i64 value = 0;
  };
  std::unordered_map<TileKey, Lock, TileKeyHash> locks;
  const std::size_t ctas = e.loops.size();
  std::vector<std::size_t> at(ctas, 0);
  const i64 k = s.k_tiles;
  for (bool moved = true; moved;) {
    moved = false;
    for (std::size_t c = 0; c < ctas; ++c) {
      const std::vector<Work>& loop = e.loops[c];
      while (at[c] < loop.size()) {
        const Work& w = loop[at[c]];
        const i64 count = w.k_end - w.k_begin;
        if (count != k) {  // requires_fixup: not a whole tile
          Lock& lock = locks[pack(w)];
          const bool final_split = w.k_end == k;
          if (final_split || w.k_begin != 0) {
            const bool ready = final_split || s.reduction == raster::Reduction::deterministic ? lock.value == w.k_begin : lock.value >= 1;
            if (!ready) break;
          }
          if (!final_split) lock.value += count;  // arrive_inc by k_tile_count
        }
        ++at[c];
        moved = true;
      }
    }
  }
  for (std::size_t c = 0; c < ctas; ++c)
    if (at[c] < e.loops[c].size()) stuck.push_back({static_cast<i64>(c), e.loops[c][at[c]]});
  if (stuck.empty()) return "";
  const Unit& u = stuck.front();
  const i64 lock = locks[pack(u.w)].value;
  const bool final_split = u.w.k_end == k;
  std::string why = unit_text(stuck.front()) + " on tile " + tile_text(u.w) + " waits forever: " +
                    (final_split || s.reduction == raster::Reduction::deterministic
                         ? "its lock must reach " + std::to_string(u.w.k_begin) + " (the k blocks before its range) and stays at " + std::to_string(lock)
                         : "its lock must reach 1 (the first split's store) and stays at 0");
  why += " (" + std::to_string(stuck.size()) + " CTA" + (stuck.size() > 1 ? "s" : "") + " stuck)";
  return why;
}

}  // namespace

SchedulerResult prove_k_claim(const Schedule& s, SchedulerClaim claim, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  SchedulerResult r;
  r.config = s.config;
  r.ctas = s.ctas;
  const auto& pr = s.problems.at(0);
  const i64 tiles = checked_mul(checked_mul(pr[0], pr[1]), pr[2]);
  const std::string method = "enumeration of every CTA's work loop (" + std::to_string(s.ctas) + " CTAs; " + s.plan + ") for " + s.config +
                             (claim == SchedulerClaim::k_exactly_once ? ", then the fix-up protocol run with every CTA resident" : "");
  if (tiles > (i64{1} << 28)) {
    r.verdict = Verdict::unknown(method, "the problem has " + std::to_string(tiles) + " tiles: more than the stream-K enumeration's bound of 2^28");
    return r;
  }
  Enumerated e;
  e.inside.resize(static_cast<std::size_t>(tiles));
  for (i64 cta = 0; cta < s.ctas; ++cta) {
    if ((cta & 63) == 0 && o.smt.deadline.passed()) {
      r.verdict = Verdict::unknown(method, o.smt.deadline.reason());
      return r;
    }
    e.loops.push_back(s.visits(cta));
    i64 blocks = 0;
    for (const Work& w : e.loops.back()) {
      const Unit u{cta, w};
      blocks += w.k_end - w.k_begin;
      if (w.m >= 0 && w.n >= 0 && w.l >= 0 && w.m < pr[0] && w.n < pr[1] && w.l < pr[2])
        e.inside[static_cast<std::size_t>((w.l * pr[1] + w.n) * pr[0] + w.m)].push_back(u);
      else
        e.padding[pack(w)].push_back(u);
    }
    r.units += static_cast<i64>(e.loops.back().size());
    e.k_blocks += blocks;
    e.most_k_blocks = std::max(e.most_k_blocks, blocks);
  }
  const auto tile_of = [&](std::size_t t) {
    Work w;
    w.m = static_cast<i64>(t) % pr[0], w.n = (static_cast<i64>(t) / pr[0]) % pr[1], w.l = static_cast<i64>(t) / (pr[0] * pr[1]);
    return w;
  };
  if (claim == SchedulerClaim::balance) {
    r.balance_max_over_mean = e.k_blocks ? static_cast<double>(e.most_k_blocks) * static_cast<double>(s.ctas) / static_cast<double>(e.k_blocks) : 0;
    char b[200];
    std::snprintf(b, sizeof b, "k blocks per CTA: max %lld, mean %.2f, max/mean %.3f; %lld work units (reported, not a proof)",
                  static_cast<long long>(e.most_k_blocks), s.ctas ? static_cast<double>(e.k_blocks) / static_cast<double>(s.ctas) : 0.0,
                  r.balance_max_over_mean, static_cast<long long>(r.units));
    r.verdict = Verdict::proved(method, b);
    return r;
  }
  const i64 k = s.k_tiles;
  for (std::size_t t = 0; t < e.inside.size(); ++t) {
    std::vector<Unit> us = e.inside[t];
    const Work tile = tile_of(t);
    if (claim == SchedulerClaim::exactly_once) {
      std::vector<Unit> finals;
      for (const Unit& u : us)
        if (u.w.k_end == k) finals.push_back(u);
      if (finals.size() == 1) continue;
      std::string who;
      for (const Unit& u : finals) who += (who.empty() ? "" : " and ") + unit_text(u);
      r.verdict = refuted_replayed(s, method, finals, tile,
                                   finals.empty() ? "tile " + tile_text(tile) + "'s epilogue is computed by no CTA (no unit ends at its k block " +
                                                        std::to_string(k) + ")" + (s.ctas == 0 ? " (" + s.no_launch + ")" : std::string())
                                                  : "tile " + tile_text(tile) + "'s epilogue is computed twice: by " + who);
      return r;
    }
    // k-exactly-once: the units' ranges partition [0, k); the first k block covered not exactly once is the witness.
    std::sort(us.begin(), us.end(), [](const Unit& a, const Unit& b) { return a.w.k_begin < b.w.k_begin; });
    i64 next = 0;
    for (std::size_t i = 0; i <= us.size(); ++i) {
      if (i == us.size()) {
        if (next >= k) break;
        r.verdict = refuted_replayed(s, method, {}, tile,
                                     "k block " + std::to_string(next) + " of tile " + tile_text(tile) + " is accumulated by no unit" +
                                         (us.empty() ? " (no CTA computes the tile" + (s.ctas == 0 ? ": " + s.no_launch : std::string()) + ")"
                                                     : " (its units end at k " + std::to_string(next) + ")"));
        return r;
      }
      const Unit& u = us[i];
      if (u.w.k_begin > next) {
        r.verdict = refuted_replayed(s, method, {u}, tile,
                                     "k block " + std::to_string(next) + " of tile " + tile_text(tile) + " is accumulated by no unit (the next, " +
                                         unit_text(u) + ", starts at " + std::to_string(u.w.k_begin) + ")");
        return r;
      }
      if (u.w.k_begin < next) {
        const Unit& before = us[i - 1];
        r.verdict = refuted_replayed(s, method, {before, u}, tile,
                                     "k block " + std::to_string(u.w.k_begin) + " of tile " + tile_text(tile) + " is accumulated twice: by " +
                                         unit_text(before) + " and " + unit_text(u));
        return r;
      }
      next = u.w.k_end;
    }
  }
  if (claim == SchedulerClaim::exactly_once) {
    r.verdict = Verdict::proved(method, "each of the " + std::to_string(tiles) + " tiles' epilogue is computed by exactly one (CTA, iteration)");
  } else {
    std::vector<Unit> stuck;
    const std::string deadlock = run_fixup(s, e, stuck);
    if (!deadlock.empty()) {
      r.verdict = refuted_replayed(s, method, {stuck.front()}, stuck.front().w, "the fix-up deadlocks: " + deadlock);
      return r;
    }
    r.verdict = Verdict::proved(method, "each of the " + std::to_string(tiles) + " tiles' " + std::to_string(k) +
                                            " k blocks is accumulated by exactly one (CTA, iteration), and the fix-up completes: each split tile "
                                            "reduced once, by its final split, after its other contributors");
  }
  r.verdict.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace layoutproof::proofs
