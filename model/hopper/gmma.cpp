// WGMMA's operands against TMA's writes (gmma.hpp).
#include "model/hopper/gmma.hpp"

namespace layoutproof::hopper {
namespace {

std::uint64_t swizzled(std::uint64_t p, int bits, int phase_shift) {
  if (bits == 0) return p;
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const std::uint64_t phase = ((p >> 7) ^ static_cast<std::uint64_t>(phase_shift)) & mask;
  return p ^ (phase << 4);
}

std::string hex(std::uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

GmmaDescriptor decode_gmma_descriptor(std::uint64_t bits) {
  GmmaDescriptor d;
  d.start = static_cast<std::uint32_t>(bits & 0x3fff) << 4;
  d.lbo = static_cast<std::uint32_t>((bits >> 16) & 0x3fff) << 4;
  d.sbo = static_cast<std::uint32_t>((bits >> 32) & 0x3fff) << 4;
  d.base_offset = static_cast<int>((bits >> 49) & 7);
  d.layout_type = static_cast<int>((bits >> 62) & 3);
  return d;
}

std::uint64_t encode_gmma_descriptor(const GmmaDescriptor& d) {
  return (std::uint64_t{(d.start >> 4) & 0x3fffu}) | (std::uint64_t{(d.lbo >> 4) & 0x3fffu} << 16) |
         (std::uint64_t{(d.sbo >> 4) & 0x3fffu} << 32) | (static_cast<std::uint64_t>(d.base_offset & 7) << 49) |
         (static_cast<std::uint64_t>(d.layout_type & 3) << 62);
}

TmaSwizzle swizzle_of_layout_type(int t) { return t == 1 ? TmaSwizzle::b128 : t == 2 ? TmaSwizzle::b64 : t == 3 ? TmaSwizzle::b32 : TmaSwizzle::none; }
int layout_type_of(TmaSwizzle s) { return s == TmaSwizzle::b128 ? 1 : s == TmaSwizzle::b64 ? 2 : s == TmaSwizzle::b32 ? 3 : 0; }

std::string gmma_atom_name(TmaSwizzle s) {
  switch (s) {
    case TmaSwizzle::b128: return "GMMA::Layout_K_SW128_Atom<T>";
    case TmaSwizzle::b64: return "GMMA::Layout_K_SW64_Atom<T>";
    case TmaSwizzle::b32: return "GMMA::Layout_K_SW32_Atom<T>";
    default: return "GMMA::Layout_K_INTER_Atom<T>";
  }
}

std::uint64_t tma_box_byte(const TensorMap& m, std::uint64_t dst, std::uint64_t row, std::uint64_t col) {
  const std::uint64_t e = static_cast<std::uint64_t>(m.elem_bytes);
  return swizzled(dst + row * m.box[0] * e + col * e, swizzle_bits(m.swizzle), 0);
}

std::uint64_t gmma_kmajor_byte(const GmmaDescriptor& d, int elem_bytes, std::uint64_t m, std::uint64_t k) {
  const std::uint64_t e = static_cast<std::uint64_t>(elem_bytes);
  const TmaSwizzle s = swizzle_of_layout_type(d.layout_type);
  if (s == TmaSwizzle::none) {
    const std::uint64_t per = 16 / e;  // elements of a core matrix row
    return d.start + (m / 8) * d.sbo + (m % 8) * 16 + (k / per) * d.lbo + (k % per) * e;
  }
  const std::uint64_t span = static_cast<std::uint64_t>(swizzle_span_bytes(s));
  return swizzled(d.start + (m / 8) * d.sbo + (m % 8) * span + k * e, swizzle_bits(s), d.base_offset);
}

ContractOutcome operand_contract(const OperandSetup& s) {
  ContractOutcome o;
  const TensorMap& m = s.map;
  const std::uint64_t align = m.swizzle == TmaSwizzle::none ? 16 : 128;
  if (s.dst % align != 0) {
    o.kind = ContractOutcome::Kind::fault;
    o.why = "TMA's destination " + hex(s.dst) + " is not " + std::to_string(align) + "-byte aligned (" + std::to_string(s.dst % align) +
            " past): the copy faults (measured: cudaErrorMisalignedAddress)";
    return o;
  }
  const std::uint64_t e = static_cast<std::uint64_t>(m.elem_bytes);
  const std::uint64_t rows = m.rank() >= 2 ? m.box[1] : 1, cols = m.box[0];
  const std::uint64_t per_block = 32 / e;  // a k-block is 32 bytes of K (k16 for 16-bit elements)
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t c = 0; c < cols; ++c) {
      GmmaDescriptor d = s.desc;
      d.start += static_cast<std::uint32_t>((c / per_block) * s.k_step);
      const std::uint64_t read = gmma_kmajor_byte(d, m.elem_bytes, r, c % per_block);
      if (read < s.smem_lo || read + e > s.smem_hi) {
        o.kind = ContractOutcome::Kind::fault;
        o.m = r, o.k = c, o.read = read;
        o.why = "WGMMA reads element (" + std::to_string(r) + ", " + std::to_string(c) + ") at byte " + hex(read) +
                ", past the CTA's shared memory [" + hex(s.smem_lo) + ", " + hex(s.smem_hi) + "): it faults (measured: cudaErrorIllegalAddress)";
        return o;
      }
      const std::uint64_t written = tma_box_byte(m, s.dst, r, c);
      if (read != written && o.kind == ContractOutcome::Kind::agree) {
        o.kind = ContractOutcome::Kind::disagree;
        o.m = r, o.k = c, o.written = written, o.read = read;
        o.why = "element (" + std::to_string(r) + ", " + std::to_string(c) + "): TMA wrote it at byte " + hex(written) + ", WGMMA reads byte " + hex(read);
      }
    }
  return o;
}

}  // namespace layoutproof::hopper
