#pragma once
// The shared-memory layout atoms CUTLASS ships, as facts: SM90 GMMA K/MN INTER/SW32/SW64/SW128 per
// element width, the SM100 UMMA MN SW128_32B atom, and the SM80 atoms of CUTLASS's default
// configurations and examples. Source: shared/facts/cutlass_atoms.tsv (NVIDIA/cutlass at
// 7107b055, 2026-08-20). proofs/catalog/catalog.hpp proves their claims; gpu_check/ checks them on a GPU.
#include <string>
#include <vector>

#include "model/layout/composed.hpp"

namespace layoutproof {

struct CutlassAtom {
  std::string name;           // e.g. "GMMA::Layout_K_SW128_Atom"
  int element_bits = 16;
  std::string byte_swizzle;   // the swizzle CUTLASS states on byte addresses ("Sw<3,4,3>"), or "-"
  std::string element_layout; // the element-unit form, e.g. "Sw<3,3,3> o 0 o (8,64):(64,1)"
  std::string used_in;        // the CUTLASS file that uses it

  std::string display_name() const;  // "GMMA::Layout_K_SW128_Atom<16b>"
  AnyLayout layout() const;          // element_layout parsed
  // The atom's vector in elements: 16 bytes, or 2^M elements when its swizzle keeps fewer
  // together (the SM80 double atoms Sw<2,0,4> and Sw<2,2,2>, used with 8- and 16-byte copies).
  i64 vector_elements() const;
};

const std::vector<CutlassAtom>& cutlass_atoms();

// The view accesses use: rows x contiguous elements (an MN-major atom, whose unit-stride leaf is
// in mode 0, is viewed with its modes swapped: the same map of the same elements), in bytes for
// sub-byte elements (upcast, model/algebra/recast.hpp).
struct AccessView {
  AnyLayout tile;
  int elem_bytes = 2;
  bool transposed = false;
};
AccessView access_view(const AnyLayout& atom, int element_bits);

}  // namespace layoutproof
