#pragma once
// Spec files: the layouts of a kernel with the claims each must satisfy, for `layoutproof check`.
//
//   # YAML
//   layouts:
//     - name: sA                                   # names the subject in every output
//       layout: Sw<3,3,3> o (8,64):(64,1)          # CuTe notation, or C++ source:
//                                                  #   composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})
//       element: f16                               # f16 bf16 f32 tf32 f64 i8 u8 e4m3 e5m2 i32 u32 ...; or bits: 16
//       claims: [bijective, contiguous:8]          # layout claims (proofs/claim.hpp) and tma:Sw<B,M,S>
//       accesses:                                  # bank claims over every instruction of an access
//         - pattern: row-per-lane                  # row-per-lane | linear | ldmatrix | thread-layout
//           op: ld                                 # ld st ldsm1 ldsm2 ldsm4 stsm1 stsm2 stsm4 (default ld)
//           vec: 8                                 # elements per lane (default: 16 bytes; 16 B rows for ldsm/stsm)
//           claims: [conflict-free]                # conflict-free | max-ways:K
//           base: 0                                # optional: the buffer's byte address
//           byte_swizzle: Sw<3,4,3>                # optional: a swizzle on absolute byte addresses
//           thread_layout: 32:8                    # pattern thread-layout: lane -> first element index
//
// C++ layouts may name constants: a `constants:` map at the top (NAME: C++ expression), to which
// the command line's -D NAME=EXPR adds (and wins over it); layouts: and kernels: both see them.
//
// Every check remembers the file, line and column of its claim (SARIF and JUnit point there).
#include <string>
#include <vector>

#include "model/cpp_source.hpp"
#include "proofs/check.hpp"

namespace layoutproof::cli {

// Throws LayoutError (with file:line:column) on a malformed spec.
// `overrides` (-D NAME=EXPR) are added to the spec's constants: and win over them.
std::vector<proofs::Check> load_spec(const std::string& path, const CppConstants& overrides = {});
std::vector<proofs::Check> parse_spec(const std::string& text, const std::string& path, const CppConstants& overrides = {});

// Element type name -> bits: f16 -> 16, e4m3 -> 8, i4 -> 4, ... Throws LayoutError.
int element_bits(const std::string& name);

}  // namespace layoutproof::cli
