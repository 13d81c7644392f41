// Trace producers agree with a direct evaluation of the partition. For a random
// TiledCopy over a random smem tensor (properties/kernels.hpp), every active lane of every
// instruction of trace_copy must hold
//     base + smem(c) * element_bytes,   c_i = thrval2mn(t, (xv, rv))_i + T_i * r_i  (rest modes as is)
// where t = 32 * warp + lane, (rv, r_0, r_1, ...) is the instruction's copy coordinate, xv the
// position in the lane's CPY slice and T_i the tiler's mode sizes (zipped_divide by n:1 tiler
// modes). thrval2mn is CuTe's tile2thrfrg TV map (model/trace/tv.hpp); the smem tensor is evaluated
// directly at the coordinate; the instruction set is complete (warps x rest extents).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/source/kernel_expr.hpp"
#include "model/trace/tv.hpp"
#include "properties/kernels.hpp"
#include "properties/check.hpp"

namespace layoutproof {

LP_PROP(TracePartition, LaneAddressesAreTheSmemOfThePartitionCoordinate, 400, ()) {
  const gen::CopyCase k = *gen::copy_cases().as("copy");
  const std::optional<TiledMma> mma = k.mma.empty() ? std::nullopt : std::optional<TiledMma>(parse_tiled_mma(k.mma));
  const TiledCopy tc = parse_tiled_copy(k.copy, mma);
  const AnyLayout smem = parse_smem_layout(k.smem);
  const CopySide side = k.destination ? CopySide::D : CopySide::S;
  TraceOptions o;
  o.base_address = k.base;
  // A copy CuTe refuses to compile is refused here too (its condition named, checked against CuTe
  // by kernels.cute_refusals): not a case of this property.
  AddressTrace t;
  try {
    t = trace_copy(tc, smem, side, o);
  } catch (const LayoutError& e) {
    if (std::string(e.what()).find("a compile error in CuTe") == std::string::npos) throw;
    RC_DISCARD("CuTe refuses this copy at compile time");
  }
  const TvMap tv = thrval2mn(tc, side);
  // The tiler's modes are n:1 for these copies (make_tiled_copy's product_each, an MMA tile
  // without permutations): zipped_divide puts the tile coordinate first, the rest after.
  std::vector<i64> tile;
  for (const Layout& m : tc.tiler) {
    RC_ASSERT(offsets(m) == offsets(Layout(size(m), 1)));
    tile.push_back(size(m));
  }
  const i64 warps = (tv.threads + 31) / 32;
  i64 rest = 1;
  for (std::size_t i = 0; i < k.shape.size(); ++i) rest *= i < tile.size() ? k.shape[i] / tile[i] : k.shape[i];
  const i64 slice = t.instructions.empty() ? 0 : t.instructions.front().slice_len;
  RC_ASSERT(slice >= 1);
  const i64 rest_values = tv.values / slice;
  RC_ASSERT(static_cast<i64>(t.instructions.size()) == warps * rest * rest_values);
  for (const TraceInstruction& in : t.instructions) {
    RC_ASSERT(in.copy_coord.size() == k.shape.size() + 1);
    const i64 rv = in.copy_coord[0];
    for (int lane = 0; lane < 32; ++lane) {
      const i64 thr = 32 * in.warp + lane;
      if (thr >= tv.threads) {
        RC_ASSERT(in.addr[static_cast<std::size_t>(lane)] == -1);
        continue;
      }
      for (i64 xv = 0; xv < slice; ++xv) {
        // The tile index is colexicographic over the tile's modes.
        i64 idx = tv(thr, xv + slice * rv);
        std::vector<IntTuple> coord;
        for (std::size_t i = 0; i < k.shape.size(); ++i) {
          i64 c = in.copy_coord[i + 1];
          if (i < tile.size()) {
            c = idx % tile[i] + tile[i] * c;
            idx /= tile[i];
          }
          coord.emplace_back(c);
        }
        const i64 want = checked_add(k.base, checked_mul(evaluate(smem, IntTuple::tuple(coord)), k.element_bytes));
        RC_ASSERT(in.slice_addrs[static_cast<std::size_t>(lane * slice + xv)] == want);
        if (xv == 0) RC_ASSERT(in.addr[static_cast<std::size_t>(lane)] == want);
      }
    }
  }
  RC_CLASSIFY(!k.mma.empty(), "ldsm of an mma operand");
  RC_CLASSIFY(k.shape.size() > 2, "staged");
}

}  // namespace layoutproof
