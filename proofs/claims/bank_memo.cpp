// The bank-model memo (proofs/claims/bank_memo.hpp).
#include "proofs/claims/bank_memo.hpp"

namespace layoutproof::proofs {

BankMemo::Key BankMemo::key(const SmemAccess& a) {
  Key k;
  k.op = a.op;
  k.width = a.width_bytes;
  std::array<std::int64_t, kWarpLanes> blocks;
  int n = 0;
  for (int l = 0; l < kWarpLanes; ++l) {
    const std::int64_t x = a.lane_addr[static_cast<std::size_t>(l)];
    if (x < 0) {
      k.lanes[static_cast<std::size_t>(l)] = -1;
      continue;
    }
    int id = 0;
    while (id < n && blocks[static_cast<std::size_t>(id)] != (x >> 7)) ++id;
    if (id == n) blocks[static_cast<std::size_t>(n++)] = x >> 7;
    k.lanes[static_cast<std::size_t>(l)] = static_cast<std::int32_t>(id * 128 + (x & 127));
  }
  return k;
}

std::size_t BankMemo::Hash::operator()(const Key& k) const {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over op, width and the lanes
  auto mix = [&](std::uint32_t x) { h = (h ^ x) * 1099511628211ull; };
  mix(static_cast<std::uint32_t>(k.op));
  mix(static_cast<std::uint32_t>(k.width));
  for (auto x : k.lanes) mix(static_cast<std::uint32_t>(x));
  return static_cast<std::size_t>(h);
}

const BankCounts& BankMemo::counts(const SmemAccess& a) {
  auto [it, fresh] = map_.try_emplace(key(a));
  if (fresh) {
    try {
      const BankReport r = analyze_smem_access(a);
      it->second = {r.wavefronts, r.ideal, r.conflict_degree};
    } catch (...) {
      map_.erase(it);  // an invalid instruction leaves no entry behind
      throw;
    }
  }
  return it->second;
}

}  // namespace layoutproof::proofs
