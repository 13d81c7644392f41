// include/cute/pointer_flagged.hpp:75 (upcast of a flagged layout is composition(swizzle, smem_ptr_flag_bits<B*N>{}, ...))
auto atom = composition(Swizzle<3,4,3>{}, smem_ptr_flag_bits<16>{}, Layout<Shape<_64,_8>,Stride<_1,_64>>{});
auto sB = tile_to_shape(atom, make_shape(Int<128>{}, Int<64>{}, Int<4>{}));
