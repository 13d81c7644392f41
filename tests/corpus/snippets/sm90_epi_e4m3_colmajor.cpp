// include/cutlass/epilogue/collective/builders/sm90_builder.inl:435 (AuxStoreDescriptor; the C/D atoms are chosen the same way)
  using SmemLayoutAtom =
    decltype(
      detail::sm90_get_epilogue_smem_swizzle_layout_atom<
        Stride, ElementAux, typename EpilogueDescriptor::EpilogueTile
      >()
    );
// include/cutlass/epilogue/collective/sm90_epilogue_tma_warpspecialized.hpp:161 (SmemLayoutAtomC = SmemLayoutAtom)
  using SmemLayoutAtomC = SmemLayoutAtom;
  using SmemLayoutC = decltype(tile_to_shape(
      SmemLayoutAtomC{},
      make_shape(size<0>(EpilogueTile{}), size<1>(EpilogueTile{}), Int<StagesC>{}),
      cute::conditional_t<is_m_major_C, Step<_2,_1,_3>, Step<_1,_2,_3>>{} ));
