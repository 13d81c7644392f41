#include "model/trace/smem_bases.hpp"

#include <algorithm>
#include <string>

namespace layoutproof {

i64 placement_period(const AnyLayout& smem, const std::optional<Swizzle>& extra) {
  int bits = 7;  // 128 bytes: the 32 banks of 4-byte words
  if (smem.is_smem_ptr()) bits = std::max(bits, smem.byte_swizzle.span_bits());
  if (extra) bits = std::max(bits, extra->span_bits());
  if (bits > 40) throw LayoutError("a swizzle spanning 2^" + std::to_string(bits) + " bytes is beyond shared memory");
  return i64{1} << bits;
}

std::vector<i64> placement_bases(const SmemPlacement& p, const AnyLayout& smem, const std::optional<Swizzle>& extra) {
  if (p.base) return {*p.base};
  const i64 n = p.align.value_or(1);
  if (n < 1 || n > (i64{1} << 20) || (n & (n - 1)) != 0)
    throw LayoutError("align " + std::to_string(n) + " is not a power of two in 1..2^20");
  const i64 period = placement_period(smem, extra);
  if (period / n > kMaxPlacementBases)
    throw LayoutError("align " + std::to_string(n) + " leaves " + std::to_string(period / n) + " placements within the " +
                      std::to_string(period) + "-byte period of the addresses; give align: " +
                      std::to_string(period / kMaxPlacementBases) + " or more");
  std::vector<i64> out;
  for (i64 b = 0; b < std::max(period, n); b += n) out.push_back(b);
  return out;
}

AddressTrace trace_copy_at_bases(const TiledCopy& c, const AnyLayout& smem, CopySide side, const std::vector<i64>& bases,
                                 TraceOptions o) {
  if (bases.empty()) throw LayoutError("no base to trace the copy at");
  AddressTrace all;
  for (std::size_t k = 0; k < bases.size(); ++k) {
    o.base_address = bases[k];
    AddressTrace t = trace_copy(c, smem, side, o);
    if (bases.size() > 1)
      for (TraceInstruction& in : t.instructions) in.where += ", base " + std::to_string(bases[k]);
    if (k == 0) {
      all = std::move(t);
      if (bases.size() > 1)
        all.provenance += " at every base in {" + [&] {
          std::string s;
          for (std::size_t i = 0; i < bases.size(); ++i) s += (i ? "," : "") + std::to_string(bases[i]);
          return s;
        }() + "}";
      continue;
    }
    if (checked_add(static_cast<i64>(all.instructions.size()), static_cast<i64>(t.instructions.size())) > o.max_instructions)
      throw LayoutError("the copy at " + std::to_string(bases.size()) + " bases issues more than " + std::to_string(o.max_instructions) +
                        " instructions; give a larger align:");
    for (TraceInstruction& in : t.instructions) all.instructions.push_back(std::move(in));
  }
  return all;
}

}  // namespace layoutproof
