// test/unit/gemm/device/default_gemm_configuration.hpp:125 OperandB<half_t, layout::RowMajor> : OperandA<half_t, layout::ColumnMajor>
  using SmemLayoutAtom = decltype(
    composition(Swizzle<3,3,3>{},
                Layout<Shape <_64, _8>,
                       Stride< _1,_64>>{}));
using SmemLayoutAtomB = SmemLayoutAtom;  // CollectiveMma's SmemLayoutAtomB
// include/cutlass/gemm/collective/sm80_mma_multistage.hpp:420
  using SmemLayoutB = decltype(tile_to_shape(
      SmemLayoutAtomB{},
      make_shape(shape<1>(TileShape{}), shape<2>(TileShape{}), Int<DispatchPolicy::Stages>{})));
