// fuse_trace / fuse_trace_parts (model/trace/trace.hpp): the instructions nvcc issues for a CuTe copy
// whose thread's accesses are contiguous and aligned (DefaultCopy of f64 and f32 pairs).
#include <algorithm>
#include <string>
#include <vector>

#include "model/support/checked.hpp"
#include "model/trace/trace.hpp"

namespace layoutproof {
namespace {

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

// Positions of a warp's instructions: by warp in order of appearance, each warp's instructions
// in trace order. Empty when the warps do not issue the same number.
std::vector<std::vector<std::size_t>> warp_positions(const AddressTrace& t) {
  std::vector<std::vector<std::size_t>> w;
  std::vector<i64> ids;
  for (std::size_t k = 0; k < t.instructions.size(); ++k) {
    const i64 id = t.instructions[k].warp;
    std::size_t i = 0;
    while (i < ids.size() && ids[i] != id) ++i;
    if (i == ids.size()) ids.push_back(id), w.emplace_back();
    w[i].push_back(k);
  }
  for (const auto& v : w)
    if (v.size() != w.front().size()) return {};
  return w;
}

// q sits j*width bytes after p on every lane, with the same active lanes.
bool follows(const TraceInstruction& p, const TraceInstruction& q, i64 shift) {
  for (int l = 0; l < kWarpLanes; ++l) {
    const i64 a = p.addr[at(l)], b = q.addr[at(l)];
    if ((a < 0) != (b < 0) || (a >= 0 && b != a + shift)) return false;
  }
  return true;
}

// The positions g (first, then its j-th follower) fuse into one access of |g| * w bytes: in every
// warp, the j-th sits j*w bytes after the first on every lane, and the first is aligned to |g| * w.
bool fuses_in_every_warp(const AddressTrace& t, const std::vector<std::vector<std::size_t>>& w, const std::vector<std::size_t>& g) {
  const i64 width = t.width_bytes, vec = checked_mul(width, static_cast<i64>(g.size()));
  for (const auto& warp : w) {
    const TraceInstruction& first = t.instructions[warp[g[0]]];
    for (int l = 0; l < kWarpLanes; ++l)
      if (first.addr[at(l)] >= 0 && first.addr[at(l)] % vec != 0) return false;
    for (std::size_t j = 1; j < g.size(); ++j)
      if (!follows(first, t.instructions[warp[g[j]]], static_cast<i64>(j) * width)) return false;
  }
  return true;
}

// Whether the trace is one nvcc could fuse: ld/st with CPY slices of whole elements.
bool fusable(const AddressTrace& t) {
  return (t.op == SmemOp::ld || t.op == SmemOp::st) && !t.instructions.empty() && t.element_bytes > 0;
}

// Groups of f positions (first position, then the j-th follower), or empty when f does not
// group every position uniformly across the warps.
std::vector<std::vector<std::size_t>> fuse_groups(const AddressTrace& t, const std::vector<std::vector<std::size_t>>& w, int f) {
  const std::size_t n = w.front().size();
  if (n % at(f) != 0) return {};
  const i64 width = t.width_bytes;
  std::vector<bool> used(n, false);
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t p = 0; p < n; ++p) {
    if (used[p]) continue;
    std::vector<std::size_t> g{p};
    for (int j = 1; j < f; ++j) {
      std::size_t q = 0;
      while (q < n && (used[q] || q == p || !follows(t.instructions[w[0][p]], t.instructions[w[0][q]], j * width))) ++q;
      if (q == n) return {};
      g.push_back(q);
      used[q] = true;
    }
    used[p] = true;
    if (!fuses_in_every_warp(t, w, g)) return {};
    groups.push_back(std::move(g));
  }
  return groups;
}

// Per position (partial fusion): nvcc vectorises a thread's consecutive fragment registers, so
// the candidates are the aligned runs of f positions [k*f, k*f + f) of the warp's instruction
// order (the fragment's order); a run fuses when all of it is still free and, in every warp, its
// accesses sit at a, a + w, ... with a a multiple of f*w on every active lane. Runs that cannot
// stay free for a smaller f. (Pairing a position with any follower, as the uniform rule may,
// overstates it: on CUTLASS's f64 TN atom every position finds some partner, yet nvcc fuses 24
// of the 48 register pairs, exactly the aligned runs that pass this test.)
std::vector<std::vector<std::size_t>> fuse_where_possible(const AddressTrace& t, const std::vector<std::vector<std::size_t>>& w,
                                                          int f, std::vector<bool>& free) {
  const std::size_t n = w.front().size();
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t p = 0; p + at(f) <= n; p += at(f)) {
    std::vector<std::size_t> g;
    for (std::size_t q = p; q < p + at(f); ++q) g.push_back(q);
    if (!std::all_of(g.begin(), g.end(), [&](std::size_t q) { return free[q]; }) || !fuses_in_every_warp(t, w, g)) continue;
    for (std::size_t q : g) free[q] = false;
    groups.push_back(std::move(g));
  }
  return groups;
}

// The trace of `groups` (each f positions) fused into instructions of width f*w.
AddressTrace fused_part(const AddressTrace& t, const std::vector<std::vector<std::size_t>>& w,
                        const std::vector<std::vector<std::size_t>>& groups, int f) {
  AddressTrace out = t;
  out.width_bytes = t.width_bytes * f;
  out.instructions.clear();
  for (const auto& warp : w)
    for (const auto& g : groups) {
      TraceInstruction in = t.instructions[warp[g[0]]];
      in.width_bytes = out.width_bytes;
      const std::size_t len = at(in.slice_len);
      in.slice_len = in.slice_len * f;
      in.slice_addrs.assign(len * at(f) * kWarpLanes, -1);
      in.slice_elems.assign(len * at(f) * kWarpLanes, -1);
      for (int l = 0; l < kWarpLanes; ++l)
        for (int j = 0; j < f; ++j) {
          const TraceInstruction& part = t.instructions[warp[g[at(j)]]];
          for (std::size_t e = 0; e < len; ++e) {
            in.slice_addrs[at(l) * len * at(f) + at(j) * len + e] = part.slice_addrs[at(l) * len + e];
            in.slice_elems[at(l) * len * at(f) + at(j) * len + e] = part.slice_elems[at(l) * len + e];
          }
        }
      if (f > 1) in.where += " (fused with " + std::to_string(f - 1) + " more)";
      out.instructions.push_back(std::move(in));
    }
  return out;
}

}  // namespace

int fused_factor(const AddressTrace& t) {
  if (!fusable(t)) return 1;
  const auto w = warp_positions(t);
  if (w.empty()) return 1;
  for (int f = 16 / std::max(1, t.width_bytes); f >= 2; f /= 2)
    if (!fuse_groups(t, w, f).empty()) return f;
  return 1;
}

AddressTrace fuse_trace(const AddressTrace& t) {
  const int f = fused_factor(t);
  if (f == 1) return t;
  const auto w = warp_positions(t);
  AddressTrace out = fused_part(t, w, fuse_groups(t, w, f), f);
  out.provenance = t.provenance + " (fused by the compiler: " + std::to_string(f) + " accesses per vector)";
  if (!t.name.empty()) out.name = t.name + " (fused by the compiler: " + std::to_string(f) + " accesses per vector)";
  return out;
}

std::vector<AddressTrace> fuse_trace_parts(const AddressTrace& t) {
  if (!fusable(t)) return {t};
  if (fused_factor(t) > 1) return {fuse_trace(t)};
  const auto w = warp_positions(t);
  if (w.empty()) return {t};
  std::vector<bool> free(w.front().size(), true);
  std::vector<AddressTrace> parts;
  for (int f = 16 / std::max(1, t.width_bytes); f >= 2; f /= 2) {
    const auto groups = fuse_where_possible(t, w, f, free);
    if (groups.empty()) continue;
    parts.push_back(fused_part(t, w, groups, f));
    const std::string how = " (fused by the compiler where the positions allow: " + std::to_string(groups.size()) +
                            " groups of " + std::to_string(f) + " per warp)";
    parts.back().provenance = t.provenance + how;
    if (!t.name.empty()) parts.back().name = t.name + how;
  }
  if (parts.empty()) return {t};
  std::vector<std::vector<std::size_t>> singles;
  for (std::size_t p = 0; p < free.size(); ++p)
    if (free[p]) singles.push_back({p});
  if (!singles.empty()) {
    parts.push_back(fused_part(t, w, singles, 1));
    const std::string how = " (not fused: " + std::to_string(singles.size()) + " accesses per warp)";
    parts.back().provenance = t.provenance + how;
    if (!t.name.empty()) parts.back().name = t.name + how;
  }
  return parts;
}

}  // namespace layoutproof
