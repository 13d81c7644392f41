// test/unit/gemm/device/default_gemm_configuration.hpp:1333 (double, SM90_16x8x16_F64F64F64F64_TN)
  // A (M,K)  K-major
  using SmemLayoutAtomA = decltype(
    make_ordered_layout(Shape<_128,_16>{},
                        Step <  _2, _1>{})); // M, K
// include/cutlass/gemm/collective/sm80_mma_multistage.hpp:417
  using SmemLayoutA = decltype(tile_to_shape(
      SmemLayoutAtomA{},
      make_shape(shape<0>(TileShape{}), shape<2>(TileShape{}), Int<DispatchPolicy::Stages>{})));
