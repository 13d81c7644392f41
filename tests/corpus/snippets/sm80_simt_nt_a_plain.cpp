// test/unit/gemm/device/default_gemm_configuration.hpp:813 (Simt Sm80, A column-major)
  // A (M,K)  M-major
  using SmemLayoutAtomA = Layout<Shape<_128,_16>>;
// include/cutlass/gemm/collective/sm80_mma_multistage.hpp:417
  using SmemLayoutA = decltype(tile_to_shape(
      SmemLayoutAtomA{},
      make_shape(shape<0>(TileShape{}), shape<2>(TileShape{}), Int<DispatchPolicy::Stages>{})));
