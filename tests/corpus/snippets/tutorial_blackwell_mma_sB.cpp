// examples/cute/tutorial/blackwell/02_mma_tma_sm100.cu:472 (mma_shape_B = partition_shape_B(tiled_mma, ...): ((_256,_16),_1,_4))
  auto sB_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeB>{}, mma_shape_B);
