// test/unit/gemm/device/default_gemm_configuration.hpp:1345 (double, SM90_16x8x16_F64F64F64F64_TN)
  // B (N,K)  K-major
  using SmemLayoutAtomB = decltype(
    make_ordered_layout(Shape<_64,_16>{},
                        Step < _2, _1>{}));                       // N, K
// include/cutlass/gemm/collective/sm80_mma_multistage.hpp:420
  using SmemLayoutB = decltype(tile_to_shape(
      SmemLayoutAtomB{},
      make_shape(shape<1>(TileShape{}), shape<2>(TileShape{}), Int<DispatchPolicy::Stages>{})));
