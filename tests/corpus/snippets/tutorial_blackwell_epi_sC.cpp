// examples/cute/tutorial/blackwell/05_mma_tma_epi_sm100.cu:579 (mma_shape_C = partition_shape_C(tiled_mma, ...))
  auto epi_tiler = make_tile(size<0,0>(mma_shape_C), size<0,1>(mma_shape_C) / Int<4>{});  // 4 TMA copies per CTA per MMA tile

  auto sC_layout_mn = tile_to_shape(UMMA::Layout_K_SW128_Atom<TypeC>{}, // MMA K-major is equivalent to epilogue N-major
                                    make_shape(size<0>(epi_tiler), size<1>(epi_tiler)));
  auto sC_layout = group<0,2>(sC_layout_mn); // Group modes for tma_partition
