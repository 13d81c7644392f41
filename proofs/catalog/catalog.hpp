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
// The atoms are model/atoms/cutlass_atoms.hpp.
#include <string>
#include <vector>

#include "model/atoms/cutlass_atoms.hpp"
#include "proofs/check/check.hpp"

namespace layoutproof::proofs {

using CatalogAtom = CutlassAtom;
inline const std::vector<CutlassAtom>& builtin_catalog() { return cutlass_atoms(); }

// The checks an atom must pass (see above).
std::vector<Check> catalog_checks(const CutlassAtom& atom);
std::vector<Check> catalog_checks();  // every atom

}  // namespace layoutproof::proofs
