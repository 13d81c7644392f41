// examples/cute/tutorial/blackwell/01_mma_sm100.cu:432 (mma_shape_A = partition_shape_A(tiled_mma, ...): ((_128,_16),_1,_4))
  auto sA_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeA>{}, mma_shape_A);
