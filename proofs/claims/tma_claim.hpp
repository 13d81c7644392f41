#pragma once
// The tma: claim: what a kernel reads through its element-unit layout is what TMA wrote with its
// swizzle.
//   tma:Sw<B,M,S>[,base=ADDR|,align=N][,box=SHAPE]
//     Sw<B,M,S> acts on ABSOLUTE shared-memory byte addresses (H100, shared/facts): for every x of
//     the box (default: the whole layout, one integer coordinate per top-level mode; box=(64,8)
//     takes the first 64 x 8),
//       8*base + b(L(x)) == 8*Sw(base + floor(b(inner(x))/8)) + b(inner(x)) mod 8,
//     b(o) = o*bits, base = the buffer's byte address (default 0). Bit addresses, so a sub-byte
//     element keeps its place in its byte. At a base that is not a multiple of 2^(M+B+|S|) bytes
//     (1024 for Sw<3,4,3>), the tile-relative layout is not TMA's: refuted, and the witness says
//     so. Decided by enumeration.
//     align=N: for every base that is a multiple of N, decided by the multiples of N below the
//     period P of model/trace/smem_bases.hpp (a base moved by P moves every address by P); one
//     verdict, whose witness names its base.
// Example: Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1) with 16-bit elements and
// tma:Sw<3,4,3>,align=1024 is PROVED (the one base 0 decides it); align=128 is REFUTED at base 128.
#include <optional>
#include <string>
#include <vector>

#include "model/compiled/ptx_exec.hpp"
#include "model/hopper/tensor_map.hpp"
#include "model/layout/composed.hpp"
#include "proofs/claims/verdict.hpp"

namespace layoutproof::proofs {

struct TmaClaim {
  Swizzle sw;
  i64 base = 0;                 // the buffer's shared-memory byte address
  std::optional<i64> align;     // align=N instead of base=: every multiple of N (a power of two)
  std::optional<IntTuple> box;  // the TMA box (extent per top-level mode); none: the whole layout
};
// nullopt when the text does not start with "tma:"; LayoutError when it does but is malformed.
std::optional<TmaClaim> parse_tma_claim(const std::string& claim);
// Refuses (LayoutError) a tma claim's domain on `l` before anything is enumerated: a box with more
// modes than l, a box extent outside [1, size of l's mode], or more than kTmaDomainLimit elements.
inline constexpr i64 kTmaDomainLimit = i64{1} << 22;
void validate_tma_domain(const AnyLayout& l, const TmaClaim& t, const std::string& claim);

// Decides the tma claim t (written `text`) on layout l of element_bits-bit elements by
// enumeration; never throws (a malformed domain, a width of 0 or one the smem_ptr form's bits
// contradict is an ERROR verdict), and the verdict carries its time. A check's tma claim is
// decided with it (proofs/check/run_check.hpp); kernel synthesis proves its winner's TMA swizzle
// with it.
//   @pre t == *parse_tma_claim(text)
Verdict decide_tma(const AnyLayout& l, int element_bits, const TmaClaim& t, const std::string& text);

// The tensor-map-valid claim on one tensor map as the host encodes it (model/hopper/tensor_map.hpp):
// PROVED when it meets every rule cuTensorMapEncodeTiled documents (rank, dims, strides, box,
// element strides, the box's inner row against the swizzle span, the fill), decided over exactly
// this map; REFUTED otherwise, the witness one point per broken rule (the field, the rule, a value
// that meets it). Never throws.
// Example: box=128x128 of bf16 with swizzle=128B is REFUTED: "box[0]: box[0] x 2 bytes = 256
// within the 128B swizzle's span of 128 bytes (fix: box[0] = 64 ...)".
Verdict decide_tensor_map_valid(const hopper::TensorMap& m);

// A tensor map bound to a kernel parameter (--tensor-map P=SPEC): P is the parameter's index or
// name, with +OFF when the map is a field at byte OFF of it (CUTLASS's Params struct).
struct TensorMapBinding {
  std::string param;  // as written ("0", "tma_a", "0+128")
  hopper::TensorMap map;
  std::string kernel;  // a capture's kernel: the binding applies to kernels whose name contains it ("": every kernel)
  // The parameter, read from `param` once (bind_tensor_map): its index, or else its name, and the
  // map's byte offset in it.
  std::optional<std::size_t> index;
  std::string name;
  i64 offset = 0;
};
// A binding of `map` to the parameter `param` names; LayoutError for a malformed one ("0+x").
TensorMapBinding bind_tensor_map(const std::string& param, hopper::TensorMap map, std::string kernel = "");
// Whether the binding applies to kernel f, and names its parameter `slot` (the map `offset` bytes in).
bool binds_kernel(const TensorMapBinding& b, const compiled::Function& f);
bool binds_param(const TensorMapBinding& b, const compiled::Function& f, std::size_t slot);

// The Hopper contract claims on one instruction a compiled run lists as not counted (PTX):
//   tma-aligned      on a cp.async.bulk.tensor: every execution's shared destination is 128-byte
//                    aligned (16 unswizzled); on a wgmma.mma_async: every descriptor's base offset
//                    agrees with where TMA put the swizzle pattern (0 mod 2^B: TMA swizzles the
//                    absolute address);
//   descriptor-valid on a wgmma.mma_async: each descriptor's layout type is its buffer's swizzle,
//                    SBO is 8 rows in 16-byte units (one in bytes is named), its start is a whole
//                    k-block inside its swizzle row (a K-advance that leaves it is named), and every
//                    byte it reads lies inside its tile; LBO, which the swizzled K-major layouts
//                    ignore (measured), is not refuted;
//   tensor-map-valid on a cp.async.bulk.tensor: its bound map meets cuTensorMapEncodeTiled's rules
//                    (decide_tensor_map_valid), and the expect_tx its thread issued on its mbarrier
//                    before it equals the bytes of the boxes its copies bring there until the next
//                    (UNKNOWN for a multicast copy, or an expect_tx of another thread);
//   operand-contract on a wgmma.mma_async: for every execution, each operand whose descriptor
//                    points into a tile a TMA copy of the run wrote reads row m, element k of its
//                    k-block exactly where TMA wrote element (r0 + m, k0 + k), r0 a group of 8 rows
//                    (a warpgroup's slice of a taller tile), k0 a whole k-block, and A
//                    and B read the same k-block (model/hopper/gmma.hpp, as measured on the H200).
// nullopt when the claim is not about this instruction (a wgmma for tma-aligned, an mbarrier);
// UNKNOWN where an operand is not known (a descriptor loaded from memory, a free parameter), the
// tensor map is not bound, or no TMA copy of the run wrote the buffer; REFUTED with the element,
// both bytes and the fields that disagree, and the descriptor that would agree. Decided by
// enumeration over every element of every operand of every execution (concrete values).
enum class AsyncClaim { operand_contract, tma_aligned, descriptor_valid, tensor_map_valid };
std::optional<Verdict> decide_async_claim(const compiled::Program& program, const compiled::KernelRun& run, const compiled::NotCounted& row,
                                          AsyncClaim claim, const std::vector<TensorMapBinding>& maps);

}  // namespace layoutproof::proofs
