#pragma once
// Divides and products (CuTe layout.hpp), by layout or by-mode tiler, staticness included
// (an integer tiler n is make_layout(n) = n:_1; a static _1 is _1:_0). Each returns CuTe's result
// only when its complement and composition steps meet their definitions (model/algebra/algebra_check.hpp):
// a complement step that breaks the complement's definition is refused, naming the operation and the
// condition ("logical_product ((_4,_6)):((_1,_6)) x _3:_1 needs complement of ... for cotarget _72: CuTe's
// result _2:_36 breaks (1) ..."), although CuTe returns a layout.
#include "model/algebra/algebra.hpp"

namespace layoutproof {

// logical_divide(L, T) = composition(L, make_layout(T, complement(T, shape(coalesce(L))))): mode 0 is the
// tile, mode 1 the tiles' arrangement. By-mode for a tuple tiler (extra modes of L kept).
// @pre complement(T, shape(coalesce(L))) exists, as for logical_product (else refused)
// Example: logical_divide((4,2,3):(2,1,8), 4:2) = ((2,2),(2,3)):((4,1),(2,8))
Layout logical_divide(const Layout& l, const Tiler& t);
// zipped_divide: logical_divide with the tile modes gathered: ((BLK_A,BLK_B,...),(a,b,...,x,y)).
Layout zipped_divide(const Layout& l, const Tiler& t);
// tiled_divide: zipped_divide with the rest unpacked: ((BLK_A,BLK_B,...),a,b,...,x,y); a rest of
// rank 1 stays as it is (a 1-tuple stays a 1-tuple, as in CuTe C++).
Layout tiled_divide(const Layout& l, const Tiler& t);
// flat_divide: zipped_divide with both modes unpacked: (BLK_A,BLK_B,...,a,b,...,x,y); a mode of
// rank 1 stays whole. flat_divide((_8,_8):(_1,_8), (_2,_4)) = (_2,_4,_4,_2):(_1,_8,_2,_32)
Layout flat_divide(const Layout& l, const Tiler& t);

// logical_product(A, B) = make_layout(A, composition(complement(A, size(A)*cosize(B)), B)).
// @pre the complement exists: CuTe's meets (1) covers, (3) ordered, (4) disjoint (else refused)
// Example: logical_product((2,2):(4,1), 6:1) = ((2,2),(2,3)):((4,1),(2,8))
Layout logical_product(const Layout& a, const Tiler& b);
// zipped_product / tiled_product: the same regroupings as for divides.
Layout zipped_product(const Layout& a, const Tiler& b);
Layout tiled_product(const Layout& a, const Tiler& b);
// flat_product: zipped_product with both modes unpacked.
Layout flat_product(const Layout& a, const Tiler& b);
// blocked_product(A, B): rank max(rank A, rank B); mode i = (A_i, B_i) of the logical product of A
// and B padded to that rank with 1:0 modes (CuTe 4.x: zipped, not coalesced).
// raked_product(A, B): the same with (B_i, A_i): blocks interleaved.
// Example: blocked_product((2,2):(1,2), (3,4):(1,3)) = ((2,3),(2,4)):((1,4),(2,12))
//          blocked_product(8:1, 4:1) = ((8,4)):((1,8))
Layout blocked_product(const Layout& a, const Layout& b);
Layout raked_product(const Layout& a, const Layout& b);

}  // namespace layoutproof
