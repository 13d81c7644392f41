#pragma once
// Claims about a layout (or a bare swizzle), their parsing, and the raw violations the engines
// report before replay. Each claim's formula (x, y range over indices [0, size(L)), L(x) is the
// full map Sw(off + inner(x)) for a swizzled layout):
//   injective      forall x < y:  L(x) != L(y)
//   bijective      injective and image(L) = [0, size): L is a permutation of [0, size), for
//                  every form alike (a swizzled layout too; the smem_ptr form's element offsets
//                  are its bytes / element size, so this is "onto [0, size*bytes)" in bytes)
//                  (for a bare swizzle: injective on all offsets; it only touches bits < M+B+|S|)
//                  Example: (128,8):(1,129) is REFUTED (holes), and so is Sw<0,0,0> o (128,8):(1,129).
//   swizzle-permutes  injective and image(L) = image(inner) for L = Sw o off o inner: the swizzle
//                  only permutes the unswizzled layout's offsets (a padded tile swizzled in
//                  place keeps its footprint); for a plain layout it is injective.
//                  Example: Sw<1,0,1> o (4,2):(1,8) swaps offsets 2<->3 and 10<->11 and keeps 0, 1, 8, 9:
//                  PROVED, while bijective is REFUTED (offset 8 >= size 8).
//   surjective:N   forall o in [0,N) exists x: L(x) = o
//   contiguous:V[@m]  (m defaults to the unit-stride mode, see default_contiguous_mode)
//                  size(mode m) % V == 0 and for every coordinate c whose mode-m position is
//                  p = V*g + j (0 <= j < V), with base = c with position V*g:
//                  L(c) == L(base) + j and L(base) % V == 0
//   equivalent:L2  size(L) == size(L2) and forall x: L(x) == L2(x)
//   involution     forall v in [0, 2^(M+B+|S|)): Sw(Sw(v)) == v   (swizzles only)
//   inverse:R      forall x: 0 <= L(x) < size(R) and R(L(x)) == x
#include <optional>
#include <string>

#include "model/layout/composed.hpp"
#include "model/source/cpp_source.hpp"

namespace layoutproof::proofs {

// What a claim is about: a (plain or swizzled) layout, or a bare swizzle Sw<B,M,S>.
struct Subject {
  AnyLayout layout;           // for a bare swizzle: layout.swizzle holds it, layout.layout unused
  bool bare_swizzle = false;
  std::string text() const;   // CuTe notation
};
// Parses `Sw<B,M,S>` alone or any layout notation (model/layout/notation.hpp). Throws ParseError.
Subject parse_subject(const std::string& text);

struct Claim {
  enum class Kind { injective, bijective, swizzle_permutes, surjective, contiguous, equivalent, involution, inverse };
  Kind kind = Kind::injective;
  i64 n = 0;              // surjective: N; contiguous: V
  std::size_t mode = 0;   // contiguous: the mode
  bool mode_given = false; // contiguous: false -> default_contiguous_mode()
  std::optional<AnyLayout> other;  // equivalent: L2; inverse: R
  std::string text;       // as written
};
// injective | bijective | swizzle-permutes | surjective:N | contiguous:V | contiguous:V@MODE | equivalent:L2 |
// involution | inverse:R. Throws LayoutError on bad input. The layout of equivalent:L2 and
// inverse:R goes through the one input path (model/source/cpp_source.hpp parse_layout_any_syntax), so it
// may be CuTe notation or C++ using `constants`: equivalent:tile_to_shape(Atom{}, make_shape(bM,bK)).
Claim parse_claim(const std::string& text, const CppConstants& constants);
Claim parse_claim(const std::string& text);  // no constants

// A raw violation from an engine, in indices; replay() checks it on model/ and explains it.
struct Violation {
  enum class Kind {
    collision,      // a < b, L(a) == L(b)             (swizzle: offsets a < b, Sw(a) == Sw(b))
    not_in_target,  // L(a) outside [0,size) (bijective), or outside image(inner) (swizzle-permutes)
    missing,        // offset a in [0,N) not in the image (surjective)
    not_contiguous, // element a breaks its group (contiguous)
    mismatch,       // L(a) != L2(a), or the inverse fails at a
    size_mismatch,  // the domains differ (equivalent)
    not_involution, // Sw(Sw(a)) != a
  };
  Kind kind = Kind::collision;
  i64 a = -1, b = -1;
};

// contiguous without @MODE: the first top-level mode whose first leaf has stride 1 (the mode a
// vector access runs along, e.g. mode 1 of (8,64):(64,1)), else mode 0.
std::size_t default_contiguous_mode(const Layout& l);

// Subject size for routing: number of indices (bare swizzle: 2^span).
i64 domain_size(const Subject& s);
// The power-of-two V <= size(mode) groups for contiguous; helpers shared by both engines.
i64 mode_stride_product(const Layout& l, std::size_t mode);  // product of sizes of modes < mode

}  // namespace layoutproof::proofs
