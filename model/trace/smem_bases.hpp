#pragma once
// The shared-memory bases a claim about a kernel's smem tensor must hold at (a kernel spec's smem
// tensors carry their alignment). A buffer is placed at one byte address (`base: B`)
// or at any multiple of an alignment (`align: N`). Every lane address of a trace is
//   element form:   base + Sw(L(x)) * bytes        (the base adds)
//   smem_ptr form:  byte_sw(base + L(x) * bytes)   (CuTe's swizzle_ptr on absolute addresses)
// and byte_sw(y + 2^span) = byte_sw(y) + 2^span, so moving the base by a multiple of
//   P = max(128, 2^span_bits(byte_sw), 2^span_bits(extra))
// moves every address by that multiple of 128 bytes: the bank of every word, the distinctness of
// words, every alignment up to 16 bytes and the elements moved stay the same, and so does a TMA
// comparison against a swizzle `extra` (whose period divides P). So "for every base that is a
// multiple of N" is decided by the multiples of N in [0, P): one base when N >= P.
// Example: Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1), align 1024 -> {0};
//          align 256 -> {0, 256, 512, 768}; the element form Sw<3,3,3> o (8,64):(64,1), align 128 -> {0}.
#include <optional>
#include <vector>

#include "model/layout/composed.hpp"
#include "model/trace/tv.hpp"

namespace layoutproof {

// Where the buffer may start: exactly `base`, or any multiple of `align` (one of them is set).
struct SmemPlacement {
  std::optional<i64> base;
  std::optional<i64> align;
};

// The period P above (bytes). `extra`: a swizzle on absolute addresses the claim compares with (tma:).
i64 placement_period(const AnyLayout& smem, const std::optional<Swizzle>& extra = std::nullopt);

// The bases that decide a claim at placement p: {base}, or the multiples of align in [0, P).
// Throws LayoutError when align is not a power of two in [1, 2^20], or when it needs more than
// kMaxPlacementBases bases (naming the alignment that needs fewer).
inline constexpr i64 kMaxPlacementBases = 1024;
std::vector<i64> placement_bases(const SmemPlacement& p, const AnyLayout& smem, const std::optional<Swizzle>& extra = std::nullopt);

// The copy's trace at every base, as one trace: the instructions of bases[0], then of bases[1], ...,
// each instruction's `where` naming its base when there is more than one (a witness says which
// placement conflicts). Bank and vector-legal claims over it hold iff they hold at every base; a
// covers claim needs one base's trace (the elements moved do not depend on the base).
AddressTrace trace_copy_at_bases(const TiledCopy& c, const AnyLayout& smem, CopySide side, const std::vector<i64>& bases,
                                 TraceOptions o = {});

}  // namespace layoutproof
