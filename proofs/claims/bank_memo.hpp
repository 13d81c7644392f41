#pragma once
// A memo for the bank model (model/bank/bank.hpp) over many instructions that repeat up to where they
// sit in shared memory: the layout searches (proofs/synth/synth.hpp, proofs/synth/kernel_synth.hpp) score
// thousands of candidate layouts, and most of their instructions are the same access moved by a
// multiple of 128 bytes.
//
// Why it is exact. analyze_smem_access reads of each lane only (a) its bank, (byte % 128) / 4,
// (b) which lanes share a 32-bit word and (c) which lanes share an address. Renaming the 128-byte
// blocks 0, 1, 2, ... in order of first appearance keeps byte % 128 and keeps every equality of
// blocks, so it keeps (a), (b) and (c), and keeps alignment to the width (width <= 16 divides 128).
// The canonical key of an instruction is (op, width, each lane's renamed address): instructions
// with equal keys have equal wavefronts and ideal.
//   Example: ld.32 with lanes at bytes 4096, 4100, 8192 -> key (ld, 4, [0, 4, 128, -1...]), the
//   same key as lanes at 0, 4, 256.
#include <array>
#include <cstdint>
#include <unordered_map>

#include "model/bank/bank.hpp"

namespace layoutproof::proofs {

struct BankCounts {
  int wavefronts = 0, ideal = 0;
  double degree = 1;  // wavefronts / ideal
};

class BankMemo {
 public:
  // analyze_smem_access(a)'s wavefronts and ideal; evaluated once per canonical key.
  // @pre validate(a) passes (analyze_smem_access throws LayoutError otherwise, as it does).
  const BankCounts& counts(const SmemAccess& a);
  std::size_t evaluations() const { return map_.size(); }

  struct Key {
    SmemOp op = SmemOp::ld;
    int width = 0;
    std::array<std::int32_t, kWarpLanes> lanes{};
    bool operator==(const Key& o) const = default;
  };
  // The canonical key (see above).
  static Key key(const SmemAccess& a);

 private:
  struct Hash {
    std::size_t operator()(const Key& k) const;
  };
  std::unordered_map<Key, BankCounts, Hash> map_;
};

}  // namespace layoutproof::proofs
