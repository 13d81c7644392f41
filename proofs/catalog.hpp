#pragma once
// The built-in catalog: the shared-memory layout atoms CUTLASS ships (SM90 GMMA K/MN
// INTER/SW32/SW64/SW128 per element width, the SM100 UMMA MN SW128_32B atom, and the SM80 atoms
// of CUTLASS's default configurations and examples), each with the claims it must satisfy:
//   bijective                       the atom is a permutation of its codomain
//   contiguous:V                    the atom's vector of V elements stays contiguous and aligned,
//                                   along the unit-stride mode: V = 16 bytes of elements, or 2^M
//                                   elements when the swizzle keeps fewer together (the SM80
//                                   double atoms, used with 8-byte copies)
//   conflict-free  (ld and st)      row-per-lane reads and writes of that vector
//   conflict-free  (ldsm4, stsm4)   ldmatrix/stmatrix .x4, for 16-bit elements and tiles of a
//                                   multiple of 8 rows
//   tma:Sw<B,4,S>                   the element-unit atom equals TMA's byte-address swizzle
//                                   (SM90/SM100 atoms, whose swizzle is defined on bytes)
// Accesses run along the atom's contiguous mode: an MN-major atom is viewed with its modes
// swapped, and a 4-bit atom is viewed in bytes (upcast<2>).
// Source: shared/facts/cutlass_atoms.tsv (NVIDIA/cutlass at 7107b055, 2026-08-20).
#include <string>
#include <vector>

#include "proofs/check.hpp"

namespace layoutproof::proofs {

struct CatalogAtom {
  std::string name;           // e.g. "GMMA::Layout_K_SW128_Atom"
  int element_bits = 16;
  std::string byte_swizzle;   // "Sw<3,4,3>", or "-" where CUTLASS defines no byte form
  std::string element_layout; // the element-unit form, e.g. "Sw<3,3,3> o 0 o (8,64):(64,1)"
  std::string used_in;        // the CUTLASS file that uses it

  std::string display_name() const;  // "GMMA::Layout_K_SW128_Atom<16b>"
};

const std::vector<CatalogAtom>& builtin_catalog();

// The checks an atom must pass (see above).
std::vector<Check> catalog_checks(const CatalogAtom& atom);
std::vector<Check> catalog_checks();  // every atom

// The view the standard accesses use: rows x contiguous elements (modes swapped for an MN-major
// atom), in bytes for sub-byte elements. Sets elem_bytes and the view layout.
struct AccessView {
  AnyLayout tile;
  int elem_bytes = 2;
};
AccessView access_view(const AnyLayout& atom, int element_bits);

}  // namespace layoutproof::proofs
