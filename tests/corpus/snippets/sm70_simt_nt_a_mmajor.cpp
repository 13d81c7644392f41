// test/unit/gemm/device/default_gemm_configuration.hpp:421 DefaultGemm_Simt_OperandA<Element, layout::ColumnMajor, 256, 128, 8>
  using SmemLayoutAtom = Layout<Shape <_128,  _8>,
                                Stride<  _1,_128>>;
using SmemLayoutAtomA = SmemLayoutAtom;  // CollectiveMma's SmemLayoutAtomA
// include/cutlass/gemm/collective/sm70_mma_twostage.hpp:111 (MainloopSm70TwoStage)
  using SmemLayoutA = decltype(tile_to_shape(
      SmemLayoutAtomA{},
      make_shape(shape<0>(TileShape{}), shape<2>(TileShape{}))));
