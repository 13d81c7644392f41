// include/cutlass/epilogue/collective/builders/sm100_builder.inl:900
  using SmemLayoutAtomAux = decltype(detail::sm100_get_epilogue_smem_swizzle_layout_atom<
    GmemStrideTypeAux, typename FusionOp::ElementAux, EpilogueTile_MN>());
// include/cutlass/epilogue/collective/sm100_epilogue_tma_warpspecialized.hpp:151 (SmemLayoutAtomC = SmemLayoutAtomAux)
  using SmemLayoutAtomC = SmemLayoutAtomAux;
  using SmemLayoutStageC = decltype(tile_to_shape(SmemLayoutAtomC{}, product_each(shape(EpilogueTile{})),
      cute::conditional_t<is_m_major_C, Step<_2,_1>, Step<_1,_2>>{} ));
  using SmemLayoutC = decltype(cute::append<3>(SmemLayoutStageC{}, Layout<Int<StagesC>,                        Int<StrideStageC>>{}));
