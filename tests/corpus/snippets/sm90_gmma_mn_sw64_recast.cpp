// include/cute/atom/mma_traits_sm90_gmma.hpp:77 (an MN-major atom recast from bytes to the element)
using Layout_MN_SW64_Atom_Bytes = decltype(upcast<8>(ComposedLayout<Swizzle<2,4,3>, smem_ptr_flag, Layout<Shape< _512,_8>,Stride<_1, _512>>>{}));
auto sA = tile_to_shape(recast_layout<uint8_t, Type>(Layout_MN_SW64_Atom_Bytes{}), make_shape(Int<64>{}, Int<32>{}, Int<2>{}));
