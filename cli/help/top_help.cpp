// The prose of layoutproof --help, demo and the algebra command's options (its operations are algebra_command's table).
// Each text's "@OPTIONS@" line is where cli/help.cpp puts the Options block its flag table generates.
#include "cli/help/help_texts.hpp"

namespace layoutproof::cli::help_prose {

extern const char* const k_top = R"HELP(layoutproof: prove CuTe layouts and swizzles correct before they ship.

Usage:
  layoutproof algebra OP ARG... [--cute-text]
                                    one CuTe layout-algebra operation; prints the result on one line
                                    (--cute-text: read and print CuTe's exact text, _8 static, 8 dynamic;
                                    layoutproof algebra --help lists the operations, docs/algebra.md)
  layoutproof algebra - [--cute-text]
                                    one query per line on stdin (OP ARG... separated by white space),
                                    one result or 'error: ...' line per query
  layoutproof eval L [-D NAME=EXPR]  L's offsets for the indices 0..size-1 on one line
  layoutproof print L [--elem-bytes E] [-D NAME=EXPR]
                                    a layout as a table of offsets (like CuTe's print_layout; rank > 2:
                                    one table per slice) and, with E, the shared-memory bank (of 32 x 4
                                    bytes) of every element
  layoutproof prove L --claim CLAIM [--claim CLAIM ...] [--json] [--engine auto|z3|exhaustive]
                    [--timeout-ms N] [--dump-smt DIR]
                                    prove claims with Z3 or refute them with a replayed counterexample;
                                    CLAIM: injective | bijective | swizzle-permutes | surjective:N |
                                    contiguous:V[@MODE] | equivalent:L2 | involution | inverse:R
                                    (L may be a bare Sw<B,M,S>)
  layoutproof prove TILE --claim conflict-free|max-ways:K --elem-bytes E [--vec V]
                    --pattern row-per-lane|linear|ldmatrix | --thread-layout T
                    [--op ld|st|ldsm1|ldsm2|ldsm4|stsm1|stsm2|stsm4] [--base ADDR]
                    [--byte-swizzle Sw<B,M,S>] [--report DIR]
                                    bank conflicts over every warp instruction of an access to a 2-D
                                    tile; --report writes an SVG/HTML bank map of the counterexample
  layoutproof catalog [-j N] [--json [FILE]] [--junit FILE] [--markdown FILE] [--no-cache] [--list]
                                    prove every claim of the built-in catalog of CUTLASS shared-memory
                                    atoms (bijective, contiguous, conflict-free accesses, TMA swizzles)
  layoutproof check SPEC.yaml [-j N] [--json [FILE]] [--junit FILE] [--sarif FILE] [--markdown FILE]
                    [--report DIR] [--engine E] [--cache DIR | --no-cache] [--progress]
                                    prove the claims of a spec file (docs/ci.md, examples/); layouts in
                                    CuTe notation or C++ source (composition(Swizzle<3,3,3>{}, ...))
  layoutproof merge SHARD.json... [--json [FILE]] [--junit FILE] [--sarif FILE] [--markdown FILE] [--report DIR]
                                    the JSON of every `check --shard K/N` part of one spec, presented
                                    as one run: one verdict set, one exit code, one JUnit/SARIF/Markdown
  layoutproof bank --op OP --width W --addresses A0,...,A31 [--json]
                                    shared-memory wavefronts of one warp-wide instruction (H100-calibrated),
                                    the ideal and the conflict degree; OP: ld st ldsm1 ldsm2 ldsm4 stsm1
                                    stsm2 stsm4, W: bytes per lane (16 for ldsm/stsm), -1 = inactive lane
  layoutproof raster prove KIND [--tile-size T] [--log-tile L] [--formula F] [--max-grid N]
                    [--claim bijective|injective|in-bounds|surjective] [--engine auto|z3|exhaustive] [--json]
                                    threadblock rasterizations (row-major, seed, seed-fixed, cutlass,
                                    morton, formula): bijection of the grid, for grids up to N x N
  layoutproof raster locality --m M --n N --k K [--sms S] [--tile MxNxK] [--elem-bytes E] [--json]
                                    distinct A/B tiles per wave of S CTAs, per rasterization
  layoutproof trace --smem EXPR --copy EXPR [--mma EXPR] --side S|D --element T [--base ADDR]
                    [-D NAME=EXPR] [--json] [--claim conflict-free|max-ways:K|vector-legal|covers ...]
                                    the shared-memory instructions a CuTe kernel's TiledCopy issues on
                                    its staged smem tensor (exactly CuTe's per-lane addresses), and
                                    claims over them; layoutproof trace --help
  layoutproof ptx FILE [--kernel TEXT] [--block X,Y,Z] [--param I=V ...] [--claim C ...] [--json]
                                    every shared-memory instruction of a compiled kernel's PTX, run for
                                    all threads of one CTA: Nsight Compute's counts and claims
                                    (conflict-free, aligned, in-bounds, ...); layoutproof ptx --help
  layoutproof synth --tile L --elem-bytes E [--vec V] --pattern P [--pattern P ...] [--op OP ...] [--all] [--json]
                                    search every Swizzle<B,M,S> for a conflict-free, vector-contiguous
                                    bijection of tile L (P: row-per-lane, linear, ldmatrix); else prove
                                    none exists and search XOR-linear maps over GF(2) (docs/synth.md)
  layoutproof synth --kernel --shape '(MN,K,STAGES)' --element T [--mma EXPR] --copy S:EXPR [--copy D:EXPR ...]
                    [-D NAME=EXPR ...] [--json]
                                    the smem layout for a kernel's own copies (swizzled K-/MN-major atoms
                                    of every width, tile orders, padding): the winner proved conflict-free
                                    and printed as C++, or none proved to exist (docs/synth_kernel.md);
                                    layoutproof synth --kernel --help
  layoutproof sass FILE [--kernel TEXT] --block X,Y,Z [--param I=V ...] [--claim C ...] [--json]
                                    the same for the SASS ptxas emitted (cuobjdump -sass, nvdisasm -g):
                                    the instructions the hardware runs, with their /*offsets*/;
                                    layoutproof sass --help
  layoutproof tensor-map SPEC ... [--tensor-maps FILE] [--json]
                                    TMA tensor maps as the host encodes them (cuTensorMapEncodeTiled's
                                    arguments, or a capture's JSON lines): tensor-map-valid, each broken
                                    rule with a value that meets it; layoutproof tensor-map --help
  layoutproof demo                  a worked example
  layoutproof --help | --version    this text | the version
  layoutproof SUB --help            SUB's usage, options and examples (also: layoutproof help SUB)

Algebra operations (semantics of CuTe C++, CUTLASS 4.x):
  size L | cosize L | rank L | depth L
  call L INDEX|COORD                L(5), L((1,2)), a partial coordinate L((5,1)) as in CuTe
  crd2idx COORD SHAPE [STRIDE]      idx2crd INDEX SHAPE [STRIDE]
  coalesce L [PROFILE]              composition A B          (B: a layout or a tiler [..])
  complement L [COTARGET]           right_inverse L          left_inverse L
  max_common_vector A B             max_common_layout A B    nullspace L    make_layout_like L
  domain_distribute SHAPE_A SHAPE_B filter L
  logical_divide | zipped_divide | tiled_divide | flat_divide L TILER
  logical_product | zipped_product | tiled_product | flat_product A TILER
  blocked_product | raked_product A B
  swizzle Sw<B,M,S> X

Notation (CuTe's printed form; a text with a '_'-int reads _8 as static and 8 as dynamic, a text with
none is all static):
  8:4   (8,32):(32,1)   ((2,3),4):((1,2),6)   (4):(1)   Sw<3,4,3> o _0 o (8,64):(64,1)
  Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)  (a swizzle on byte addresses)   (_4,_4):(_1@1,_1@0)
  tilers: [8:1,(2,2):(1,4)] or (_8:_1,_)  where an integer n means n:1 and _ keeps a mode

C++ (eval, print, prove, synth --tile, check, trace): wherever a layout is taken, the C++ a kernel writes
is accepted as well, pasted as is (using X = decltype(...); auto x = ...; comments, trailing ;), with
the constants it names given as -D NAME=EXPR (or a spec's constants: block):
  layoutproof eval 'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(bM, bK, Int<Stages>{}))' \
      -D 'bM=Int<128>{}' -D 'bK=Int<64>{}' -D Stages=4
  tile_to_shape, make_ordered_layout, make_layout(shape, LayoutRight{}), Int<N> arithmetic, get/size/shape<I>,
  GMMA::/UMMA:: atoms, ComposedLayout<Swizzle<..>, smem_ptr_flag_bits<B>, Layout<..>>, upcast/downcast/
  recast_layout, conditional_t, is_major, CUTLASS's ss/rs/sm100 smem selectors; `layoutproof eval --help`.

Examples:
  layoutproof prove '(8,32):(32,1)' --claim bijective
  layoutproof algebra composition '(8,32):(32,1)' '[4:1,8:4]'
  layoutproof algebra call 'Sw<3,3,3> o (8,64):(64,1)' 9
  echo 'complement 4:2 24' | layoutproof algebra -
  layoutproof print 'Sw<3,3,3> o (8,64):(64,1)' --elem-bytes 2

Exit codes: 0 success, 2 bad input (the message says what and where);
  prove, catalog, check, synth, raster prove: 0 all proved, 1 any refuted, 2 bad input, 3 unknown or error.
The GPU cross-check is a separate binary, layoutproof-gpu (docs/gpu_check.md).
)HELP";

extern const char* const k_demo = R"HELP(layoutproof demo: a worked example: CUTLASS's SM80 half-precision K-major atom printed with its
banks, then a few layout-algebra queries on the same tile.

Usage:
  layoutproof demo

Examples:
  layoutproof demo
  layoutproof demo | tail -7

Exit codes: 0.
)HELP";

extern const char* const k_algebra_tail = R"HELP(
Options:
  --cute-text       read every argument as CuTe prints it (_8 static, 8 dynamic) and print CuTe's text

Examples:
  layoutproof algebra composition '(8,32):(32,1)' '[4:1,8:4]'
  layoutproof algebra logical_divide '(8,64):(64,1)' '[_,8:1]'
  layoutproof algebra coalesce '(_2,_4):(_1,_2)' --cute-text
  printf 'size (8,32):(32,1)\ncomplement 4:2 24\n' | layoutproof algebra -

Exit codes: 0 a result (also for 'algebra -', whose failing lines print 'error: ...'), 2 bad input.
)HELP";

}  // namespace layoutproof::cli::help_prose
