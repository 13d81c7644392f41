// Hand-picked cases beyond CUTLASS's unit tests: the cases its tests leave commented out
// because CuTe refuses them, the swizzled layouts of swizzle_layout.cpp through the algebra, the
// smem_ptr form, basis strides, and each new operation. Compiled by build_algebra_corpus.py.
#include "algebra_reference.hpp"

// Complements whose strides are not divisible by the previous mode's extent (CuTe answers).
CASE(complement_case(Layout<Shape<_4,_6>, Stride<_1,_6>>{}));
CASE(complement_case(Layout<Shape<_4,_2>, Stride<_1,_10>>{}));
CASE(complement_case(make_layout(make_shape(3,6), make_stride(_1{}, _10{}))));
CASE(complement_case(Layout<Shape<_2,_2>, Stride<_1,_3>>{}));
CASE(complement_case(Layout<Shape<_3,_2>, Stride<_2,_7>>{}));
CASE(complement_case(make_layout(make_shape(2,2), make_stride(_1{}, _1{}))));
CASE(complement_case(make_layout(12, 2), 53));
// CuTe's commented-out "should fail" cases: refused at compile time.
CASE(composition_case(make_layout(Shape<_8,_8>{}, Stride<_8,_1>{}), make_layout(_4{}, _3{})));
CASE(complement_case(make_layout(Shape<Shape<_2,_2>,Shape<_2,_2>>{}, Stride<Stride<_1,_8>,Stride<_8,_4>>{})));
CASE(complement_case(Layout<Shape<_2,_2>, Stride<_2,_3>>{}));
CASE(complement_case(Layout<Shape<_2,_2>, Stride<_2,_3>>{}, Int<19>{}));
CASE(left_inverse_case(make_layout(make_shape(_4{}, _2{}), make_stride(_1{}, 4))));
CASE(left_inverse_case(Layout<Shape<_2,_2>, Stride<_2,_3>>{}));
CASE(complement_case(make_layout(make_shape(4, 2), make_stride(1, 8))));
// Dynamic results that break their definitions.
CASE(composition_case(make_layout(make_shape(3, 4), make_stride(1, 3)), make_layout(2, 2)));
CASE(composition_case(make_layout(make_shape(6, 2), make_stride(1, 6)), make_layout(make_shape(4, 3), make_stride(1, 4))));
CASE(composition_case(make_layout(make_shape(4, 6, 8), make_stride(2, 3, 5)), make_layout(6, 3)));
CASE(logical_divide_case(make_layout(make_shape(6, 4)), make_layout(4, 1)));
// The swizzled layouts of swizzle_layout.cpp through the algebra.
CASE(coalesce_case(composition(Swizzle<3,0,3>{}, Layout<Shape<_8,_8>, Stride<_8,_1>>{})));
CASE(right_inverse_case(composition(Swizzle<3,0,3>{}, Layout<Shape<_8,_8>, Stride<_8,_1>>{})));
CASE(left_inverse_case(composition(Swizzle<3,0,-3>{}, Layout<Shape<_8,_8>, Stride<_8,_1>>{})));
CASE(right_inverse_case(composition(Swizzle<2,1,3>{}, Layout<Shape<Shape<_2,_2,_2>,Shape<_2,_2,_2>>, Stride<Stride<_32,_2,_8>,Stride<_4,_1,_16>>>{})));
CASE(logical_divide_case(composition(Swizzle<2,1,3>{}, Layout<Shape<Shape<_2,_2,_2>,Shape<_2,_2,_2>>, Stride<Stride<_32,_2,_8>,Stride<_4,_1,_16>>>{}), make_tile(_4{}, _2{})));
CASE(composition_case(Layout<Shape<_8,_8>, Stride<_1,_8>>{}, composition(Swizzle<3,0,3>{}, Layout<Shape<_8,_8>, Stride<_8,_1>>{})));
CASE(composition_case(Layout<Shape<_8,_64>, Stride<_64,_1>>{}, composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{})));
CASE(composition_swizzle_case(Layout<Shape<_8,_8>, Stride<_8,_1>>{}, Swizzle<3,0,3>{}));
CASE(composition_swizzle_case(Layout<Shape<_8,_64>, Stride<_64,_1>>{}, Swizzle<3,3,3>{}));
CASE(composition_swizzle_case(Layout<Shape<_64,_8>, Stride<_1,_64>>{}, Swizzle<3,3,3>{}));
CASE(max_common_vector_case(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}), Layout<Shape<_8,_64>, Stride<_64,_1>>{}));
CASE(max_common_vector_case(Layout<Shape<_8,_64>, Stride<_64,_1>>{}, composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{})));
CASE(max_common_layout_case(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}), Layout<Shape<_8,_64>, Stride<_64,_1>>{}));
CASE(max_common_vector_case(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}), composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{})));
CASE(nullspace_case(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{})));
CASE(complement_case(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_8>, Stride<_64,_1>>{})));
CASE(complement_case(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_8>, Stride<_64,_1>>{}), Int<4096>{}));
// The smem_ptr form (GMMA K_SW128 on half: the swizzle acts on byte addresses).
CASE(coalesce_case(composition(Swizzle<3,4,3>{}, smem_ptr_flag_bits<16>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{})));
CASE(logical_divide_case(composition(Swizzle<3,4,3>{}, smem_ptr_flag_bits<16>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}), make_tile(_8{}, _8{})));
CASE(tiled_divide_case(composition(Swizzle<3,4,3>{}, smem_ptr_flag_bits<16>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}), make_tile(_8{}, _32{})));
CASE(blocked_product_case(composition(Swizzle<3,4,3>{}, smem_ptr_flag_bits<16>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}), Layout<Shape<_2,_2>>{}));
CASE(coalesce_case(composition(Swizzle<2,4,3>{}, smem_ptr_flag_bits<32>{}, Layout<Shape<_8,_16>, Stride<_16,_1>>{})));
// Basis strides.
CASE(composition_case(make_layout(make_shape(_4{}, 3), make_stride(_1{}, 4)), make_layout(make_shape(_3{}, _4{}), make_stride(E<1>{}, E<0>{}))));
CASE(coalesce_case(make_layout(make_shape(_4{}, _3{}), make_stride(E<0>{}, E<1>{}))));
CASE(coalesce_case(make_layout(make_shape(_4{}, _3{}, _2{}), make_stride(E<0>{}, _4{} * E<0>{}, E<1>{}))));
CASE(composition_case(make_layout(make_shape(_4{}, _3{}), make_stride(E<0>{}, E<1>{})), make_layout(_6{}, _2{})));
CASE(logical_divide_case(make_layout(make_shape(_8{}, _6{}), make_stride(E<0>{}, E<1>{})), make_tile(_4{}, _3{})));
CASE(zipped_divide_case(make_layout(make_shape(_8{}, 6), make_stride(E<0>{}, E<1>{})), make_tile(_4{}, _2{})));
// New operations.
CASE(max_common_vector_case(Layout<Shape<_8,_4>, Stride<_1,_8>>{}, Layout<Shape<_8,_4>, Stride<_1,_16>>{}));
CASE(max_common_vector_case(Layout<Shape<_8,_4>, Stride<_4,_1>>{}, Layout<Shape<_8,_4>, Stride<_1,_8>>{}));
CASE(max_common_vector_case(make_layout(make_shape(8, _4{}), make_stride(_1{}, 8)), make_layout(make_shape(8, _4{}), make_stride(_1{}, 8))));
CASE(max_common_layout_case(Layout<Shape<_4,_2>, Stride<_1,_4>>{}, Layout<Shape<_4,_2>, Stride<_1,_4>>{}));
CASE(max_common_layout_case(Layout<Shape<_8,_4>, Stride<_4,_1>>{}, Layout<Shape<_8,_4>, Stride<_4,_1>>{}));
CASE(make_layout_like_case(Layout<Shape<_2,_2,_2,_2>, Stride<_0,_2,_4,_1>>{}));
CASE(make_layout_like_case(make_layout(make_shape(2,3,4,5), make_stride(_0{}, 42, _1{}, _0{}))));
CASE(make_layout_like_case(Layout<Shape<_2,_2>, Stride<_1,_1>>{}));
CASE(domain_distribute_case(Shape<Int<15>, Int<14>>{}, Int<6>{}));
CASE(flat_divide_case(Layout<Shape<_8,_8>, Stride<_1,_8>>{}, make_tile(_2{}, _4{})));
CASE(flat_divide_case(make_layout(make_shape(_16{}, 12)), make_tile(Layout<_4,_2>{}, _3{})));
CASE(flat_product_case(Layout<Shape<_2,_2>, Stride<_1,_2>>{}, make_tile(_3{}, _4{})));
CASE(flat_product_case(Layout<Shape<_2,_4>, Stride<_4,_1>>{}, Layout<Shape<_2,_3>>{}));
CASE(logical_divide_case(Layout<Shape<_8,_64>, Stride<_64,_1>>{}, make_tile(_, Layout<_8,_1>{})));
CASE(logical_divide_case(make_layout(make_shape(128, 64)), make_tile(_32{}, _16{})));
CASE(zipped_divide_case(make_layout(make_shape(128, 64)), make_tile(Layout<_32,_1>{}, Layout<Shape<_4,_4>, Stride<_1,_16>>{})));
CASE(tiled_divide_case(make_layout(make_shape(_128{}, 64)), make_tile(_32{}, _16{})));
CASE(blocked_product_case(Layout<_8,_1>{}, Layout<_4,_1>{}));
CASE(raked_product_case(Layout<Shape<_2,_2>>{}, Layout<Shape<_3,_4>, Stride<_4,_1>>{}));

int main(int argc, char** argv) { return ref::run_main(argc, argv); }
