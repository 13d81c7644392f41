// include/cutlass/epilogue/collective/builders/sm100_builder.inl:1807
  using EpiTileM = Int<WarpShape_M * 32>;
  using EpiTileN = Int<WarpShape_N * 16>;

  using SmemLayout = cute::conditional_t<cutlass::detail::is_major<0>(GmemStrideTypeD{}),
                                         cute::Layout<cute::Shape<EpiTileM, EpiTileN>, cute::Stride<_1, EpiTileM>>,
                                         cute::Layout<cute::Shape<EpiTileM, EpiTileN>, cute::Stride<EpiTileN, _1>>>;
