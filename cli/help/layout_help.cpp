// The prose of the commands about one layout or one instruction: prove, print, eval, bank.
// Each text's "@OPTIONS@" line is where cli/help.cpp puts the Options block its flag table generates.
#include "cli/help/help_texts.hpp"

namespace layoutproof::cli::help_prose {

extern const char* const k_prove = R"HELP(layoutproof prove: prove claims about a layout with Z3, or refute them with a replayed counterexample.

Usage:
  layoutproof prove L --claim CLAIM [--claim CLAIM ...] [--json] [--engine auto|z3|exhaustive]
                    [--timeout-ms N] [--dump-smt DIR] [-D NAME=EXPR ...]
  layoutproof prove TILE --claim conflict-free|max-ways:K --elem-bytes E [--vec V]
                    --pattern row-per-lane|linear|ldmatrix | --thread-layout T
                    [--op ld|st|ldsm1|ldsm2|ldsm4|stsm1|stsm2|stsm4] [--base ADDR] [--byte-swizzle SW] [--report DIR]

  CLAIM: injective | bijective | swizzle-permutes | surjective:N | contiguous:V[@MODE] | equivalent:L2
         | involution | inverse:R | tma:Sw<B,M,S>[,base=ADDR|,align=N][,box=SHAPE]
  bijective: L is a permutation of [0, size(L)), for every form (swizzled and smem_ptr layouts too):
  a padded layout is REFUTED with or without a swizzle. swizzle-permutes: Sw o off o L is injective
  and its image is L's own (the swizzle only permutes a padded tile's footprint).
  tma: what the kernel reads through L is what TMA wrote with Sw<B,M,S> (SWIZZLE_128B = Sw<3,4,3>,
  64B = Sw<2,4,3>, 32B = Sw<1,4,3>) on ABSOLUTE smem byte addresses; base = the buffer's byte address
  (default 0), align=N = every base that is a multiple of N (one verdict), box = the TMA box (default
  all of L); needs --elem-bytes/--elem-bits or an smem_ptr L.
  Element-unit swizzles match 128B only at 1024-aligned bases; smem_ptr forms swizzle absolute addresses.
  (L may be a bare swizzle: Sw<3,4,3> or Swizzle<3,4,3>{}; L2 and R are layouts like L, C++ included).
  conflict-free and max-ways:K range over every warp instruction of an access to the 2-D tile TILE.

@OPTIONS@

Examples:
  layoutproof prove '(8,32):(32,1)' --claim bijective --claim contiguous:8
  layoutproof prove 'Sw<3,3,3> o (8,64):(64,1)' --claim involution --claim 'equivalent:Sw<3,3,3> o (8,(8,8)):(64,(1,8))'
  # refuted on purpose: the 8 rows of an unswizzled 128-byte tile share their banks (exit 1)
  layoutproof prove '(8,64):(64,1)' --claim conflict-free --elem-bytes 2 --pattern ldmatrix --op ldsm4 --report /tmp/lp-prove-report
  layoutproof prove 'Sw<3,3,3> o (8,64):(64,1)' --claim conflict-free --claim max-ways:1 --elem-bytes 2 --pattern row-per-lane
  layoutproof prove 'Sw<3,3,3> o (8,64):(64,1)' --elem-bytes 2 --claim 'tma:Sw<3,4,3>,base=1024'
  # refuted on purpose: TMA swizzles absolute addresses and 128 is not 1024-byte aligned (exit 1)
  layoutproof prove 'Sw<3,3,3> o (8,64):(64,1)' --elem-bytes 2 --claim 'tma:Sw<3,4,3>,base=128'

Exit codes: 0 all proved, 1 any refuted, 2 bad input, 3 unknown or error.
)HELP";

extern const char* const k_print = R"HELP(layoutproof print: a layout as a table of offsets, as CuTe's print_layout prints it.

Usage:
  layoutproof print L [--elem-bytes E] [--byte-swizzle SW] [-D NAME=EXPR ...]
  L as a table of offsets (a layout of rank > 2: one table per slice (_,_,k)); with E, the
  shared-memory bank (of 32 x 4 bytes) of every element. `print L E` is the same as --elem-bytes E.

@OPTIONS@

Examples:
  layoutproof print '(4,8):(8,1)'
  layoutproof print 'Sw<3,3,3> o (8,64):(64,1)' --elem-bytes 2
  layoutproof print '(2,2,2):(1,2,4)'
  # a TMA-style swizzle on byte addresses (GMMA's 128-byte swizzle of halves)
  layoutproof print '(8,64):(64,1)' --elem-bytes 2 --byte-swizzle 'Sw<3,4,3>'

Exit codes: 0 printed, 2 bad input.
)HELP";

extern const char* const k_eval = R"HELP(layoutproof eval: a layout's offsets for the indices 0..size(L)-1 on one line.

Usage:
  layoutproof eval L [--elem-bytes E --byte-swizzle SW] [-D NAME=EXPR ...]
  L(i) for every index i (colexicographic coordinates), separated by spaces.

@OPTIONS@

Examples:
  layoutproof eval '(2,4):(4,1)'
  layoutproof eval 'Sw<1,0,1> o (2,2):(2,1)'
  layoutproof eval 'make_layout(make_shape(Int<2>{}, bN), LayoutRight{})' -D 'bN=Int<4>{}'

Exit codes: 0 printed, 2 bad input.
)HELP";

extern const char* const k_bank = R"HELP(layoutproof bank: the shared-memory wavefronts of one warp-wide instruction (H100-calibrated bank
model, docs/bank_model.md), its ideal and its conflict degree.

Usage:
  layoutproof bank --op OP --width W --addresses A0,...,A31 [--json]

@OPTIONS@

Examples:
  # 32 lanes 128 bytes apart: every lane in bank 0, a 32-way conflict
  layoutproof bank --op ld --width 4 --addresses "$(seq -s, 0 128 3968)"
  # 32 consecutive words: conflict-free
  layoutproof bank --op ld --width 4 --addresses "$(seq -s, 0 4 124)" --json

Exit codes: 0 analysed, 2 bad input.
)HELP";

}  // namespace layoutproof::cli::help_prose
