// test/unit/gemm/device/default_gemm_configuration.hpp:1057 (double, Sm80)
  // A  (M,K)  K-Major
  using SmemLayoutAtomA = decltype(
      composition(Swizzle<2,0,4>{},
                  Layout<Shape <_4,_16>,
                         Stride<_1, _4>>{})); // M, K
// include/cutlass/gemm/collective/sm80_mma_multistage.hpp:417
  using SmemLayoutA = decltype(tile_to_shape(
      SmemLayoutAtomA{},
      make_shape(shape<0>(TileShape{}), shape<2>(TileShape{}), Int<DispatchPolicy::Stages>{})));
