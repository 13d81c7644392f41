// test/unit/gemm/device/default_gemm_configuration.hpp:79 DefaultGemm_TensorOpSm80_OperandA<half_t, layout::RowMajor, 8, 64>
  using SmemLayoutAtom = decltype(
    composition(Swizzle<3,3,3>{},
                Layout<Shape < _8,_64>,
                       Stride<_64, _1>>{}));
// CollectiveMma<MainloopSm80CpAsync<3>, TileShape, ..., SmemLayoutAtomA = DefaultOperandA::SmemLayoutAtom, ...>
using SmemLayoutAtomA = SmemLayoutAtom;
// include/cutlass/gemm/collective/sm80_mma_multistage.hpp:417
  using SmemLayoutA = decltype(tile_to_shape(
      SmemLayoutAtomA{},
      make_shape(shape<0>(TileShape{}), shape<2>(TileShape{}), Int<DispatchPolicy::Stages>{})));
