// test/unit/gemm/device/default_gemm_configuration.hpp:98 DefaultGemm_TensorOpSm80_OperandA<half_t, layout::ColumnMajor, 8, SizeK>
  using SmemLayoutAtom = decltype(
    composition(Swizzle<3,3,3>{},
                Layout<Shape <_64, _8>,
                       Stride< _1,_64>>{}));
// CollectiveMma<..., SmemLayoutAtomA = DefaultOperandA::SmemLayoutAtom, ...>
using SmemLayoutAtomA = SmemLayoutAtom;
// include/cutlass/gemm/collective/sm80_mma_multistage.hpp:417
  using SmemLayoutA = decltype(tile_to_shape(
      SmemLayoutAtomA{},
      make_shape(shape<0>(TileShape{}), shape<2>(TileShape{}), Int<DispatchPolicy::Stages>{})));
