#pragma once
// WGMMA's shared-memory operands (SM90): the 64-bit matrix descriptor, the bytes its K-major
// canonical layouts read, the bytes a TMA box write lands on, and the contract between the two:
// what the descriptor reads for element (m, k) is what TMA wrote for element (m, k).
//
// Definition (measured on the H200, tests/hopper/wgmma_probe: 147 variants, bf16 and e4m3, docs/hopper.md).
//   TMA writes box element (r, c) (c innermost) of a 2-D box at destination D to the byte
//     p = D + r * R + c * e   (R = box[0] * e, the row's bytes; e the element's bytes),
//   swizzled on the ABSOLUTE address: bits [4, 4+B) ^= bits [7, 7+B) (B = 1, 2, 3 for 32B, 64B,
//   128B: CuTe Swizzle<B,4,3>). D must be 128-byte aligned when swizzled (16, 32, 64 past a
//   1024-byte boundary fault: cudaErrorMisalignedAddress); 128, 256, 512, 768 work.
//   WGMMA, a K-major operand of a swizzled layout type (1 = 128B, 2 = 64B, 3 = 32B), reads row m,
//   element k of the k-block its start address S names at
//     q = S + (m / 8) * SBO + (m % 8) * span + k * e,
//   swizzled on the absolute address as TMA's, its row phase (bits [7, 7+B)) moved by the base
//   offset: it agrees with TMA's at any 128-aligned placement exactly when base_offset mod 2^B
//   is 0 (the PTX ISA's (S >> 7) & 7 breaks it wherever that is not 0 mod 2^B). LBO is ignored
//   (0, 1, 2, 64, 16383 alike). Layout type 0 (interleave, no swizzle) reads core matrices of 8
//   rows x 16 bytes: q = S + (m / 8) * SBO + (m % 8) * 16 + (k / (16 / e)) * LBO + (k % (16 / e)) * e.
//   A read past the CTA's shared memory faults (cudaErrorIllegalAddress: SBO written in bytes).
// Example: bf16, 128B, a 64 x 64 box at 0x800, descriptor start 0x800 + 32 j for k-block j,
// SBO 1024, base offset 0: every element agrees. Base offset 1, or a 64B layout type: they do not.
#include <cstdint>
#include <optional>
#include <string>

#include "model/hopper/tensor_map.hpp"

namespace layoutproof::hopper {

// The SM90 GmmaDescriptor's fields, in bytes where the hardware counts 16-byte units.
struct GmmaDescriptor {
  std::uint32_t start = 0;  // bits [0,14) << 4
  std::uint32_t lbo = 0;    // bits [16,30) << 4
  std::uint32_t sbo = 0;    // bits [32,46) << 4
  int base_offset = 0;      // bits [49,52)
  int layout_type = 0;      // bits [62,64): 0 interleave, 1 128B, 2 64B, 3 32B
};
GmmaDescriptor decode_gmma_descriptor(std::uint64_t bits);
std::uint64_t encode_gmma_descriptor(const GmmaDescriptor& d);  // @pre fields in range, multiples of 16
// The swizzle of a layout type (1 -> 128B, 2 -> 64B, 3 -> 32B, 0 -> none) and back.
TmaSwizzle swizzle_of_layout_type(int layout_type);
int layout_type_of(TmaSwizzle s);
// CuTe's name for the K-major atom of a swizzle and element width: "GMMA::Layout_K_SW128_Atom<T>".
std::string gmma_atom_name(TmaSwizzle s);

// The shared byte TMA writes box element (row, col) of a 2-D box to, at destination dst.
std::uint64_t tma_box_byte(const TensorMap& m, std::uint64_t dst, std::uint64_t row, std::uint64_t col);
// The shared byte a K-major descriptor reads for row m, element k of its k-block.
std::uint64_t gmma_kmajor_byte(const GmmaDescriptor& d, int elem_bytes, std::uint64_t m, std::uint64_t k);

// One operand of one WGMMA: its tile (rows x cols of the TMA box, K innermost) written by TMA at
// dst, read by k-blocks of 32 bytes of K each, k-block j through the descriptor whose start is
// d.start + j * k_step; the CTA's shared memory [smem_lo, smem_hi).
struct OperandSetup {
  TensorMap map;
  std::uint64_t dst = 0;
  GmmaDescriptor desc;
  std::uint32_t k_step = 32;
  std::uint64_t smem_lo = 0, smem_hi = 0;
};
// agree: every element read where it was written; disagree: the first element that is not (its
// row m, column k, both bytes); fault: what faults (TMA's destination alignment, a read past the
// CTA's shared memory). Decided by enumeration over every element of the box.
struct ContractOutcome {
  enum class Kind { agree, disagree, fault } kind = Kind::agree;
  std::uint64_t m = 0, k = 0, written = 0, read = 0;
  std::string why;
};
ContractOutcome operand_contract(const OperandSetup& s);

}  // namespace layoutproof::hopper
