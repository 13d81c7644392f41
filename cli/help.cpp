// Every command's --help (cli/help.hpp). The texts are kept together so that they share one
// layout (Usage, Options, Examples, Exit codes) and one test runs every example.
#include "cli/help.hpp"

#include <algorithm>
#include <map>

#include "cli/commands/algebra_command.hpp"
#include "cli/layout_input.hpp"

namespace layoutproof::cli {
namespace {

constexpr const char* k_top = R"HELP(layoutproof: prove CuTe layouts and swizzles correct before they ship.

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
  layoutproof prove L --claim CLAIM [--claim CLAIM ...] [--json] [--engine z3|exhaustive|auto]
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
  layoutproof bank --op OP --width W --addresses A0,...,A31 [--json]
                                    shared-memory wavefronts of one warp-wide instruction (H100-calibrated),
                                    the ideal and the conflict degree; OP: ld st ldsm1 ldsm2 ldsm4 stsm1
                                    stsm2 stsm4, W: bytes per lane (16 for ldsm/stsm), -1 = inactive lane
  layoutproof raster prove KIND [--tile-size T] [--log-tile L] [--formula F] [--max-grid N]
                    [--claim bijective|injective|in-bounds|surjective] [--engine z3|exhaustive] [--json]
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

constexpr const char* k_prove = R"HELP(layoutproof prove: prove claims about a layout with Z3, or refute them with a replayed counterexample.

Usage:
  layoutproof prove L --claim CLAIM [--claim CLAIM ...] [--json] [--engine z3|exhaustive|auto]
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

Options:
  --claim C           a claim to prove (repeatable); the forms above
  --json              the results document (each claim's verdict, method, time, witness) and the layout
  --json FILE --junit FILE --sarif FILE --markdown FILE --report DIR --verbose
                   the results as check writes them (check --help): every claim-deciding command
  --engine E          z3 | exhaustive (enumerate every index) | auto (default: exhaustive when small)
  --timeout-ms N      Z3's time limit per query in milliseconds (default 8000; a timeout is UNKNOWN, never PROVED)
  --deadline-s S      the whole run's time limit in seconds: a claim not decided by then is UNKNOWN
  --dump-smt DIR      write every Z3 query as SMT-LIB2 into DIR (tool and Z3 versions, claim, layout)
  -D NAME=EXPR        a constant the C++ layout uses (repeatable): -D 'bM=Int<128>{}'
  --elem-bytes E      bank claims: bytes per element (1 to 64); also the element width of tma: and --byte-swizzle
  --elem-bits N       the element width in bits for tma: claims and --byte-swizzle (sub-byte types: 4, 6)
  --vec V             bank claims: elements per lane access (default: 16 bytes per lane, 16/E elements;
                      see docs/bank_model.md)
  --pattern P         bank claims: row-per-lane | linear | ldmatrix (model/trace/access.hpp)
  --thread-layout T   bank claims: a CuTe layout lane -> first element instead of a pattern
  --op OP             bank claims: the instruction (default ld; ldsmN/stsmN for ldmatrix/stmatrix .xN)
  --base ADDR         bank claims: the buffer's byte address (decimal or 0x hex; default 0)
  --byte-swizzle SW   bank claims: a swizzle on absolute byte addresses (TMA modes), Sw<3,4,3>
  --report DIR        bank claims: write DIR/index.html (summary of every claim) and a bank map per claim

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

constexpr const char* k_print = R"HELP(layoutproof print: a layout as a table of offsets, as CuTe's print_layout prints it.

Usage:
  layoutproof print L [--elem-bytes E] [--byte-swizzle SW] [-D NAME=EXPR ...]
  L as a table of offsets (a layout of rank > 2: one table per slice (_,_,k)); with E, the
  shared-memory bank (of 32 x 4 bytes) of every element. `print L E` is the same as --elem-bytes E.

Options:
  --elem-bytes E    also print the bank of every element of E bytes (1 to 64)
  --byte-swizzle SW a swizzle on byte addresses over the plain L (needs --elem-bytes): the smem_ptr form
  -D NAME=EXPR      a constant the C++ layout uses (repeatable)

Examples:
  layoutproof print '(4,8):(8,1)'
  layoutproof print 'Sw<3,3,3> o (8,64):(64,1)' --elem-bytes 2
  layoutproof print '(2,2,2):(1,2,4)'
  # a TMA-style swizzle on byte addresses (GMMA's 128-byte swizzle of halves)
  layoutproof print '(8,64):(64,1)' --elem-bytes 2 --byte-swizzle 'Sw<3,4,3>'

Exit codes: 0 printed, 2 bad input.
)HELP";

constexpr const char* k_eval = R"HELP(layoutproof eval: a layout's offsets for the indices 0..size(L)-1 on one line.

Usage:
  layoutproof eval L [--elem-bytes E --byte-swizzle SW] [-D NAME=EXPR ...]
  L(i) for every index i (colexicographic coordinates), separated by spaces.

Options:
  --byte-swizzle SW a swizzle on byte addresses over the plain L (with --elem-bytes E): the smem_ptr form
  --elem-bytes E    the element width --byte-swizzle needs (1 to 64)
  -D NAME=EXPR      a constant the C++ layout uses (repeatable)

Examples:
  layoutproof eval '(2,4):(4,1)'
  layoutproof eval 'Sw<1,0,1> o (2,2):(2,1)'
  layoutproof eval 'make_layout(make_shape(Int<2>{}, bN), LayoutRight{})' -D 'bN=Int<4>{}'

Exit codes: 0 printed, 2 bad input.
)HELP";

constexpr const char* k_check = R"HELP(layoutproof check: prove the claims of a spec file, the gate in front of a kernel (docs/ci.md).

Usage:
  layoutproof check SPEC.yaml [-j N] [--json [FILE]] [--junit FILE] [--sarif FILE] [--markdown FILE]
                    [--report DIR] [--engine E] [--timeout-ms N] [--deadline-s S] [--cache DIR | --no-cache]
                    [--progress] [--allow-empty] [-D NAME=EXPR ...]
  A spec's layouts and kernels may be CuTe notation or C++; the constants they use come from the
  spec's `constants:` map (NAME: C++ expression) and from -D NAME=EXPR, which adds to it and wins:
    constants:
      bM: Int<128>{}
      TileShape: Shape<_128,_128,_64>
    layouts:
      - name: sA
        layout: tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(bM, get<2>(TileShape{})))
        claims: [bijective]
  A `compiled:` section gates the build's compiled kernels (their PTX: nvcc -arch=sm_90 -ptx -lineinfo),
  as `layoutproof ptx` runs them: each claim on every shared-memory instruction, one result per
  kernel, instruction and claim; JUnit has one test case per entry, kernel and claim, and SARIF
  points at the instruction's CUDA line (docs/compiled.md, examples/compiled_sm90.yaml):
    compiled:
      - name: column_read
        file: build/kernels.ptx     # relative to the spec; format: ptx|sass (default: the extension)
        kernel: column_read         # as ptx --kernel
        block: [32, 1, 1]           # grid, params {I or NAME: V}, smem_bytes, deadline_s: optional
        claims: [conflict-free, in-bounds]   # conflict-free max-ways:K aligned in-bounds no-overlap
  A `schedulers:` section gates persistent tile scheduler configurations as `layoutproof raster
  prove` decides them (docs/raster.md; a parameter left out is free over its domain); balance is
  shown as REPORT, never PROVED, and never fails (docs/ci.md, examples/schedulers_sm90.yaml):
    schedulers:
      - name: gemm_128x128_cluster2x1
        kind: sm90-persistent       # sm90-persistent | sm90-group, sm100-group (groups: [2x3, ...]) | sm90-stream-k
                                    # | sm100-persistent | sm100-stream-k
        tiles: [132, 64, 1]         # or "132x64x1"; cluster, max_swizzle, raster, sms, max_active_clusters
        cluster: [2, 1]             # the stream-K kinds: k_tiles, splits, decomposition, reduction
        sms: 132
        claims: [exactly-once, in-range, balance]   # k-exactly-once: the stream-K kinds

Options:
  -j N, --jobs N      prove N claims at a time (default 1)
  --json [FILE]       JSON results on stdout, or into FILE (a name ending in .json)
  --junit FILE        a JUnit XML file, one test case per claim
  --sarif FILE        a SARIF 2.1.0 file for code scanning
  --markdown FILE     a Markdown summary (for a pull-request comment)
  --report DIR        HTML reports: DIR/index.html lists the claims per subject, failures first
  --verbose           the Markdown and HTML summaries list every PROVED claim (default: a count per subject)
  --engine E          z3 | exhaustive | auto (default auto)
  --timeout-ms N      Z3's time limit per query in milliseconds (default 8000)
  --deadline-s S      the whole run's time limit in seconds (0.5 allowed): claims not decided by then are UNKNOWN
  --dump-smt DIR      write every Z3 query as SMT-LIB2 into DIR
  --cache DIR         keep and reuse PROVED verdicts in DIR instead of the default cache (below)
  --no-cache          read and write no cache: decide every claim
  --progress          'claim k of n' on stderr (--no-progress: never; default: when stderr is a terminal)
  --allow-empty       a spec that proves nothing is not an error (default: exit 2)
  --spec-keys         print the keys each level of a spec accepts (docs/spec.schema.json lists the same)
  -D NAME=EXPR        a constant for the spec's C++ (repeatable; wins over the spec's constants:)

Examples:
  # one claim is wrong on purpose (sA_naive), so this exits 1 and shows the colliding lanes
  layoutproof check examples/gemm_sm80_f16.yaml --no-cache
  layoutproof check examples/gemm_sm80_f16.yaml --no-cache --junit /tmp/lp-check.xml --markdown /tmp/lp-check.md --report /tmp/lp-check-report
  layoutproof check examples/kernels_sm80.yaml --no-cache -j 2 --json /tmp/lp-check.json --deadline-s 60
  # compiled kernels: column_read's 32-way conflict is REFUTED at tests/ptx/basic.cu's line (exit 1)
  layoutproof check examples/compiled_sm90.yaml --no-cache --sarif /tmp/lp-compiled.sarif
  # schedulers: CUTLASS's grouped scheduler drops tile (m 1, n 2) of a 2x3 group: REFUTED (exit 1)
  layoutproof check examples/schedulers_sm90.yaml --no-cache --junit /tmp/lp-schedulers.xml

Cache: by default a run reads and writes PROVED verdicts in $LAYOUTPROOF_CACHE, else
$XDG_CACHE_HOME/layoutproof, else ~/.cache/layoutproof (one small file per claim, keyed on this
build's sources and everything the claim depends on), so a claim proved by an earlier run is not
proved again: the summary counts those as "from cache". Refuted and undecided claims, kernel and
compiled claims and reports are never cached. --no-cache turns it off (nothing read or written);
--cache DIR puts it elsewhere. A claim asked twice in one run is decided once: the summary says
how many repeat an earlier claim ("12 claims (10 distinct; 2 repeat an earlier claim of this run)").

Outputs: each file is written whole or not at all (a partial sibling renamed into place), the
report folder is replaced whole, and a run first removes the outputs it will write, so a run that
does not finish leaves none of them, never an older run's beside a newer one. Two outputs on one
path, an output on the spec, a repeated output flag or an empty path is bad input.

Exit codes: 0 all proved, 1 any refuted, 2 bad input, 3 unknown or error; 130 or 143 interrupted
(SIGINT, SIGTERM: the file being written is removed).
)HELP";

constexpr const char* k_catalog = R"HELP(layoutproof catalog: prove every claim of the built-in catalog of CUTLASS shared-memory atoms and
kernel configurations (bijective, contiguous, conflict-free accesses, TMA swizzles).

Usage:
  layoutproof catalog [--list] [-j N] [--json [FILE]] [--junit FILE] [--sarif FILE] [--markdown FILE]
                      [--report DIR] [--engine E] [--timeout-ms N] [--deadline-s S] [--cache DIR | --no-cache] [--progress]

Options:
  --list              list the catalog's atoms and kernel configurations, prove nothing
  -j N, --jobs N      prove N claims at a time (default 1)
  --json [FILE]       JSON results on stdout, or into FILE (a name ending in .json)
  --junit FILE        a JUnit XML file, one test case per claim
  --sarif FILE        a SARIF 2.1.0 file
  --markdown FILE     a Markdown summary
  --report DIR        HTML reports: DIR/index.html lists the claims per subject, failures first
  --verbose           the Markdown and HTML summaries list every PROVED claim (default: a count per subject)
  --engine E          z3 | exhaustive | auto (default auto)
  --timeout-ms N      Z3's time limit per query in milliseconds (default 8000)
  --deadline-s S      the whole run's time limit in seconds: claims not decided by then are UNKNOWN
  --dump-smt DIR      write every Z3 query as SMT-LIB2 into DIR
  --cache DIR         keep and reuse PROVED verdicts in DIR instead of the default cache (below)
  --no-cache          read and write no cache: decide every claim
  --progress          'claim k of n' on stderr (--no-progress: never)

Cache: by default a run reads and writes PROVED verdicts in $LAYOUTPROOF_CACHE, else
$XDG_CACHE_HOME/layoutproof, else ~/.cache/layoutproof (one small file per claim, keyed on this
build's sources and everything the claim depends on), so a claim proved by an earlier run is not
proved again: the summary counts those as "from cache". Refuted and undecided claims, kernel and
compiled claims and reports are never cached. --no-cache turns it off (nothing read or written);
--cache DIR puts it elsewhere. A claim asked twice in one run (the catalog asks some of several
atoms) is decided once: the summary says how many repeat an earlier claim of the run.

Examples:
  layoutproof catalog --list
  layoutproof catalog -j 2 --no-cache --markdown /tmp/lp-catalog.md

Exit codes: 0 every claim about an atom proved (refuted claims about CUTLASS's own kernel
configurations are findings, printed, and do not fail the job), 1 an atom's claim refuted,
2 bad input, 3 unknown or error.
)HELP";

constexpr const char* k_bank = R"HELP(layoutproof bank: the shared-memory wavefronts of one warp-wide instruction (H100-calibrated bank
model, docs/bank_model.md), its ideal and its conflict degree.

Usage:
  layoutproof bank --op OP --width W --addresses A0,...,A31 [--json]

Options:
  --op OP             ld | st | ldsm1 | ldsm2 | ldsm4 | stsm1 | stsm2 | stsm4
  --width W           bytes per lane: 1, 2, 4, 8 or 16 (16 for ldsm/stsm)
  --addresses LIST    the 32 lanes' byte addresses, comma-separated; -1 = inactive lane
  --json              {"wavefronts", "ideal", "conflict_degree", "phase_wavefronts", "collisions": [...]}

Examples:
  # 32 lanes 128 bytes apart: every lane in bank 0, a 32-way conflict
  layoutproof bank --op ld --width 4 --addresses "$(seq -s, 0 128 3968)"
  # 32 consecutive words: conflict-free
  layoutproof bank --op ld --width 4 --addresses "$(seq -s, 0 4 124)" --json

Exit codes: 0 analysed, 2 bad input.
)HELP";

constexpr const char* k_raster = R"HELP(layoutproof raster: threadblock rasterizations (docs/raster.md): prove they map the launched
blocks one-to-one onto the tile grid, and measure their L2 locality.

Usage:
  layoutproof raster prove KIND [--tile-size T] [--log-tile L] [--formula F] [--max-grid N]
                     [--claim bijective|injective|in-bounds|surjective] [--engine z3|exhaustive] [--json]
  layoutproof raster locality --m M --n N --k K [--sms S] [--tile MxNxK] [--elem-bytes E] [--json]
  layoutproof raster trace sm90-persistent --tiles M,N[,L] [--cluster X,Y] [--max-swizzle S]
                     [--raster along-m|along-n|heuristic] [--sms N] [--max-active-clusters C] [--json] [--report DIR]
  layoutproof raster prove sm90-persistent [the trace flags] --claim exactly-once|in-range|balance [--max-tiles B]
  layoutproof raster trace|prove sm90-group --groups 'M1xN1,...' | sm90-stream-k --tiles M,N[,L] --k-tiles K ...
  KIND: row-major | seed | seed-fixed | cutlass | morton | formula; persistent schedulers: sm90-persistent,
        sm90-group, sm90-stream-k, sm100-persistent, sm100-group, sm100-stream-k

Options:
  prove KIND      prove a rasterization's claims (layoutproof raster prove --help lists its options)
  locality        measure the L2 locality of every rasterization (layoutproof raster locality --help)
  trace KIND      a persistent scheduler's visits for one configuration: every CTA's work loop, as
                  CUTLASS's own code runs it (raster trace --help); --report DIR draws it, wave by wave

Examples:
  layoutproof raster prove cutlass --log-tile 2
  layoutproof raster locality --m 4096 --n 4096 --k 4096 --tile 128x128x64
  layoutproof raster trace sm90-persistent --tiles 3,5 --max-swizzle 2 --sms 4
  layoutproof raster trace sm90-persistent --tiles 6,5 --max-swizzle 2 --sms 4 --report sched_report

Exit codes: prove: 0 all proved, 1 any refuted, 2 bad input, 3 unknown or error; locality: 0, 2.
)HELP";

constexpr const char* k_raster_trace = R"HELP(layoutproof raster trace: a persistent tile scheduler's visits, every CTA's work loop, exactly as CUTLASS's code computes them.

Usage:
  layoutproof raster trace sm90-persistent --tiles M,N[,L] [--cluster X,Y] [--max-swizzle S]
                     [--raster along-m|along-n|heuristic] [--sms N] [--max-active-clusters C] [--json]
  layoutproof raster prove sm90-persistent [the same flags] --claim exactly-once|in-range|balance
                     [--max-tiles B] [--deadline-s S] [--json]
  layoutproof raster trace sm90-group --groups 'M1xN1,M2xN2,...' [the flags above but --tiles] [--corrected]
  layoutproof raster prove sm90-group [--groups ...] [--max-groups G] --claim ... [--corrected]
  layoutproof raster trace sm90-stream-k --tiles M,N[,L] --k-tiles K [--splits S]
                     [--decomposition heuristic|data-parallel|split-k|stream-k]
                     [--reduction deterministic|nondeterministic] [the sm90-persistent flags]
  layoutproof raster prove sm90-stream-k [the same flags] --claim exactly-once|k-exactly-once|in-range|balance
  layoutproof raster trace|prove sm100-persistent --tiles M,N[,L] [--cluster X,Y] [--max-swizzle S] [--raster R]
  layoutproof raster trace|prove sm100-stream-k [the sm90-stream-k flags]
  layoutproof raster trace|prove sm100-group [the sm90-group flags] [--atom-m 1|2] [--cluster-type static|dynamic]
  Every form takes --report DIR.

Options:
  --tiles M,N[,L]        the problem in CTA tiles (L batches, default 1)
  --groups LIST          sm90-group, sm100-group: each group's extent in CTA tiles, M1xN1,M2xN2,...
                         (the host's problem shapes; the raster defaults to along-m, as CUTLASS's
                         Arguments do)
  --corrected            the group kinds: bound the device by the groups' swizzle-rounded tiles, not the
                         host's cluster-rounded count (the real code's bound drops tiles; docs/raster.md)
  --max-groups G         prove a group kind without --groups: every list of 1 to G groups (default 3)
                         of M, N in [1, --max-tiles]
  --atom-m A             sm100-group: the MMA's AtomThrShape M, 1 (default) or 2 (a 2-SM MMA; the
                         cluster's M even): the host's grid counts tiles of A CTAs along m
  --cluster-type T       sm100-group: static (default: a compile-time ClusterShape) or dynamic
                         (hw_info.cluster_shape: get_grid_shape's preferred-cluster grid)
  --cluster X,Y          the thread-block cluster (powers of two; default 1,1)
  --max-swizzle S        the largest swizzle allowed (a power of two; default 1)
  --raster R             along-m, along-n or heuristic (default heuristic: along-m when N > M)
  --sms N                the SM count get_grid_shape is given (default 132)
  --max-active-clusters C  hw_info.max_active_clusters (default 0: CUTLASS's GPC occupancy rule)
  --k-tiles K            the stream-K kinds: k blocks per output tile (ceil(K / tile K))
  --splits S             the stream-K kinds: Arguments::splits (> 1 only with heuristic or split-k)
  --decomposition D      the stream-K kinds: heuristic (default), data-parallel, split-k or stream-k
  --reduction R          the stream-K kinds: the fix-up's deterministic (default) or nondeterministic wait
  --json                 {"ctas":[{"cta":i,"work":[{"iter":k,"group":0,"m":..,"n":..,"l":..}]}],"grid":[x,y,z]}
                         (cta = x + gx*(y + gy*z) of the grid get_grid_shape gives; iter from 0;
                         the stream-K kinds add "k_begin" and "k_end" (exclusive) to each unit).
                         A trace (text or JSON) is written unit by unit as the loops compute them,
                         and holds at most 2^24 work units and 2^24 CTAs: a larger one is refused
                         before any work (exit 2, with its count); raster prove walks any loop
  --claim C              prove: exactly-once (every tile computed by exactly one CTA and iteration;
                         stream-K: its epilogue, by the unit ending at its last k block),
                         in-range (no work unit outside the problem), balance (units per CTA, reported;
                         stream-K: k blocks per CTA), k-exactly-once (stream-K: every (tile, k block)
                         accumulated once, and the fix-up protocol completes with every CTA resident:
                         each split tile reduced once, by its final split, after its contributors),
                         launches (get_grid_shape's grid has a CTA, the cluster divides it and it is
                         within CUDA's limits (y, z at most 65535): the hardware refuses any other;
                         the other claims are about the visits the code computes for the grid,
                         launched or not)
  --max-tiles B          prove without --tiles: M, N in [1, B] and L in {1, 2}; the group kinds
                         without --groups: each group's M, N in [1, B] (default 16; the stream-K
                         kinds 8; the group kinds 3). The domain asked for is proved whole or
                         refused: one of more than 2^20 configurations exits 2, naming the largest
                         B (and G) that fits with the flags given; never a smaller domain
  --engine E             prove sm90-persistent without --tiles: auto (default: z3 past --max-tiles 32),
                         z3 (every M, N at once: needs --cluster, --max-swizzle, --raster, --sms) or
                         enumeration; --timeout-ms T bounds each Z3 query (default 8000)
  --report DIR           draw the schedule: DIR/index.html (no script, no network), DIR/summary.svg and
                         one DIR/wave_K.svg per wave K (every CTA's iteration K); tiles coloured by CTA,
                         darker for later iterations; missing and doubled tiles red and listed with
                         their CTAs; units past the problem dashed in the margin; stream-K tiles split
                         into k stripes, the epilogue unit marked. prove draws the first refuted
                         claim's witness configuration, else the domain's first. A DIR that cannot be
                         written: exit 2, before any work

sm90-persistent is PersistentTileSchedulerSm90 (CUTLASS 4.x): docs/raster.md says which lines each
step follows, and `ctest -R raster.scheduler_reference` compares it with CUTLASS's own scheduler run
on an H100. sm90-group is PersistentTileSchedulerSm90Group, sm90-stream-k
PersistentTileSchedulerSm90StreamK (raster.group_reference, raster.stream_k_reference),
sm100-persistent PersistentTileSchedulerSm100's block-to-tile map (every tile launched; the
cluster launch control hands out the rest, in an order the model does not fix), sm100-group
PersistentTileSchedulerSm100Group (sm90-group's static loop on the device; its own host grid;
raster.sm100_group_reference), sm100-stream-k PersistentTileSchedulerSm100StreamK (the sm90
stream-K units on waves of stream-K units, or every tile's splits, each CTA its own block's work and
stream-K walk: the claims hold for every order the cluster launch control picks; balance is per
block; raster.sm100_stream_k_reference). prove enumerates every CTA's loop; flags not given range
over a stated domain (clusters 1x1, 2x1, 1x2, 2x2; max swizzle 1, 2, 4, 8; the three rasters; 1, 3,
8, 132 SMs (sm100-group: 148; atom m 1, 2; static and dynamic clusters); stream-K: k tiles 1, 9, 17, 40,
splits 1, 2, 3, the four decompositions), smallest first, and every verdict names its domain.

Examples:
  layoutproof raster trace sm90-persistent --tiles 4,4 --sms 4 --raster along-n
  layoutproof raster trace sm90-persistent --tiles 3,2 --cluster 2,1 --sms 4 --json
  layoutproof raster prove sm90-persistent --tiles 3,5 --max-swizzle 2 --sms 4 --claim exactly-once --claim in-range
  layoutproof raster prove sm90-persistent --tiles 1024,1024 --cluster 2,1 --max-swizzle 8 --raster heuristic --sms 132 --claim exactly-once
  layoutproof raster trace sm90-group --groups 2x3,1x1 --max-swizzle 4 --sms 8
  layoutproof raster prove sm90-group --max-swizzle 4 --cluster 1x1 --claim exactly-once
  layoutproof raster trace sm100-group --groups 4x1 --cluster 2,1 --atom-m 2 --sms 148
  layoutproof raster prove sm100-group --sms 148 --corrected --claim exactly-once
  layoutproof raster trace sm90-stream-k --tiles 5,1 --k-tiles 20 --sms 4
  layoutproof raster prove sm90-stream-k --tiles 5,3 --k-tiles 40 --sms 8 --claim k-exactly-once
  # M, N in [1, 16], twice the stream-K default, proved whole (a domain past 2^20 configurations: exit 2)
  layoutproof raster prove sm90-stream-k --max-tiles 16 --sms 132 --cluster 2,1 --max-swizzle 1 --raster along-m --k-tiles 9 --decomposition stream-k --claim exactly-once
  layoutproof raster trace sm100-stream-k --tiles 9,1 --k-tiles 20 --sms 4
  layoutproof raster prove sm90-group --groups 2x3 --max-swizzle 4 --cluster 1,1 --sms 132 --claim exactly-once --report group_report
  layoutproof raster trace sm90-stream-k --tiles 5,1,1 --k-tiles 20 --sms 4 --report stream_k_report

Exit codes: 0 traced or proved, 1 refuted, 2 bad input, 3 unknown.
)HELP";

constexpr const char* k_raster_prove = R"HELP(layoutproof raster prove: a rasterization maps the launched blocks one-to-one onto the tile grid,
for all grids up to --max-grid N (p0, p1 in 1..N), or a counterexample replayed on the model.

Usage:
  layoutproof raster prove KIND [--tile-size T] [--log-tile L] [--formula F] [--max-grid N]
                     [--claim C ...] [--engine z3|exhaustive|auto] [--timeout-ms N] [--deadline-s S]
                     [--dump-smt DIR] [--json]
  KIND: row-major | seed | seed-fixed | cutlass | morton | formula

Options:
  --claim C          bijective (default) | injective | in-bounds | surjective (repeatable)
  --tile-size T      seed, seed-fixed, formula: fix the tile size (default: every size 1..N)
  --log-tile L       cutlass: fix log_tile (0..15; default: every L in 0..3)
  --formula F        formula: 'bid = blockIdx.y * gridDim.x + blockIdx.x; x = bid % 4; y = bid / 4'
  --max-grid N       the bound on gridDim (default 256; 8 for seed, seed-fixed and formula)
  --engine E         z3 (default) | exhaustive (the model on every grid) | auto
  --timeout-ms N     Z3's time limit per query in milliseconds (default 8000)
  --deadline-s S     the whole run's time limit in seconds: a claim not decided by then is UNKNOWN (exit 3)
  --dump-smt DIR     write every Z3 query as SMT-LIB2 into DIR
  --json             the results document (each claim's verdict and witness), the rasterization and its bound
  --json FILE --junit FILE --sarif FILE --markdown FILE --report DIR --verbose
                   the results as check writes them (check --help): every claim-deciding command

The persistent tile schedulers (sm90-persistent, sm90-group, sm90-stream-k, sm100-persistent,
sm100-group, sm100-stream-k) take other flags: `layoutproof raster prove sm90-stream-k --help`.

Examples:
  layoutproof raster prove cutlass --log-tile 2
  layoutproof raster prove morton --claim injective --max-grid 16
  # refuted: the seed's strip function divides by gridDim.y (exit 1)
  layoutproof raster prove seed --max-grid 4

Exit codes: 0 all proved, 1 any refuted, 2 bad input, 3 unknown or error.
)HELP";

constexpr const char* k_raster_locality = R"HELP(layoutproof raster locality: distinct A and B tiles each wave of S CTAs touches, per rasterization
(row-major, seed, cutlass log_tile 1..3, morton, and --formula when given).

Usage:
  layoutproof raster locality --m M --n N --k K [--sms S] [--tile MxNxK] [--elem-bytes E]
                              [--tile-size T] [--formula F] [--json]

Options:
  --m M, --n N, --k K   the GEMM's sizes (1 to 2^40)
  --sms S               CTAs per wave, one per SM (default 132, an H100 SXM)
  --tile MxNxK          the CTA tile (default 128x128x64)
  --elem-bytes E        bytes per element of A and B (default 2)
  --tile-size T         the seed's and the formula's tile size (default 4)
  --formula F           also measure this rasterization (as raster prove formula reads it)
  --json                one JSON object with a row per rasterization

Examples:
  layoutproof raster locality --m 4096 --n 4096 --k 4096 --tile 128x128x64
  layoutproof raster locality --m 8192 --n 2048 --k 1024 --sms 108 --elem-bytes 4 --json

Exit codes: 0 measured, 2 bad input.
)HELP";

constexpr const char* k_synth = R"HELP(layoutproof synth: search every Swizzle<B,M,S> for a conflict-free, vector-contiguous bijection of a
plain tile; else prove none exists and search XOR-linear maps over GF(2) (docs/synth.md).
For the layout a kernel's own copies need, see layoutproof synth --kernel --help.

Usage:
  layoutproof synth --tile L --elem-bytes E [--vec V] --pattern P [--pattern P ...] [--op OP ...]
                    [--all] [--json] [--no-gf2] [--deadline-s S] [-D NAME=EXPR ...]

Options:
  --tile L          the plain (unswizzled) tile, CuTe notation or C++
  --elem-bytes E    bytes per element (1 to 64)
  --vec V           elements per lane access (default: 16 bytes per lane, 16/E elements)
  --pattern P       row-per-lane | linear | ldmatrix (repeatable: every pattern must be conflict-free)
  --op OP           the instructions (repeatable; default: each pattern's own: ld/st, ldsm4/stsm4)
  --all             list every candidate, not only the winner
  --json            the results document (the winner's proofs), the winner, the rejected candidates, the GF(2) search
  --json FILE --junit FILE --sarif FILE --markdown FILE --report DIR --verbose
                   the results as check writes them (check --help): every claim-deciding command
  --no-gf2          skip the XOR-linear search when no swizzle works
  --deadline-s S    the whole run's time limit in seconds: a search cut by it is UNKNOWN (exit 3), and
                    a winner's proof not finished by it is UNKNOWN
  -D NAME=EXPR      a constant the C++ tile uses (repeatable)

Examples:
  layoutproof synth --tile '(32,40):(40,1)' --elem-bytes 4 --vec 4 --pattern row-per-lane
  layoutproof synth --tile '(8,64):(64,1)' --elem-bytes 2 --pattern row-per-lane --pattern ldmatrix

Exit codes: 0 found and proved, 1 none exists (proved) or a proof refuted, 2 bad input, 3 unknown or error.
)HELP";

constexpr const char* k_synth_kernel = R"HELP(layoutproof synth --kernel: the shared-memory layout a CuTe kernel should use, found on the
instructions its own copies issue, and proved.

Usage:
  layoutproof synth --kernel --shape '(MN,K,STAGES)' --element T [--mma EXPR] --copy 'S:EXPR' [--copy 'D:EXPR' ...]
                    [-D NAME=EXPR ...] [--name A] [--base ADDR | --align N] [--witnesses N] [--all] [--json]
                    [--deadline-s S] [--progress | --no-progress]

Options:
  --shape S      the staged smem tensor as the copies partition it: (BLK_M,BLK_K,PIPE), or (MN,K)
  --element T    its element type: half_t, bfloat16_t, float, tfloat32_t, double, int8_t, ...
  --mma EXPR     the TiledMMA the copies name (`mma`, `tiled_mma`, or NAME from 'NAME = EXPR' or a
                 declaration 'TiledMMA mmaC = make_tiled_mma(...);'), e.g.
                 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})'
  --copy S:EXPR  a TiledCopy that reads the tensor (partition_S: ldmatrix, s2r loads)
  --copy D:EXPR  a TiledCopy that writes it (partition_D: cp.async, r2s stores, stmatrix); repeatable.
                 A TMA copy (D:SM90_TMA_LOAD, S:SM90_TMA_STORE, make_tma_copy(...)) is not scored: it keeps
                 the members TMA can write (Sw<B,4,3> in bytes, 16*2^B-byte rows) and proves tma: on the winner
  -D NAME=EXPR   a named constant used in the expressions (bM=Int<128>{})
  --name A       the printed names: SmemLayoutAtomA, SmemLayoutA (1 to 64 letters, digits, underscores)
  --base ADDR    the buffer's byte address: the winner is proved there (default 0)
  --align N      the buffer lies at any multiple of N bytes: the winner is the best member that stays
                 conflict-free, vector-legal (and TMA-correct, for a GMMA operand) at every such base
  --witnesses N  when no layout is conflict-free: REFUTED witnesses for the best N members (default 3)
  --deadline-s S the whole run's time limit in seconds: a search or proof cut by it is UNKNOWN (exit 3),
                 never a winner or "none exists" about members it did not reach
  --all          list every ranked and every rejected member
  --json         {"found", "smem", "notation", "per_copy":[...], "candidates", "best_ratio", "time_ms", ...}
  --json FILE --junit FILE --sarif FILE --markdown FILE --report DIR --verbose
                   the results as check writes them (check --help): every claim-deciding command
  --progress     'candidate k of n' on stderr (default: when stderr is a terminal)

The family searched (fixed order; docs/synth_kernel.md):
  Swizzle<B,M,S> (1 <= B <= S, bits inside the atom) composed with K-major (r,W):(W,1) or MN-major
  (W,r):(1,W) atoms of every width W (W*sizeof(T) from 16 bytes to the tile) and height r, tiled by
  tile_to_shape in the default order and in Step<_2,_1,_3>; the unswizzled atoms; padded strides
  like the tutorial's (128,8):(1,129). When --mma is an SM90 GMMA or SM100 UMMA atom that reads the
  operand through a descriptor (_SS; _RS/_TS: B only), only CUTLASS's GMMA/UMMA atoms, and the
  winner's TMA swizzle is proved (tma:Sw<B,4,3>; UMMA::Layout_MN_SW128_32B_Atom: Sw<2,5,2>).
Each copy is traced exactly as `layoutproof trace` traces it; a member is rejected when a copy's
vectors break (vector-legal), else scored by each copy's worst instruction, wavefronts/ideal.
Ranking: worst ratio over the copies, smem bytes, total wavefronts, fewer swizzle bits B, no padding,
the major the copies' vectors run along, fewer swizzled bits M+B+S.

What it proves:
  FOUND   the winner, as C++ to paste back and in CuTe notation: every copy conflict-free,
          vector-legal and covering the tile, the layout bijective (injective when padded), by the
          engines of `layoutproof trace --claim` on the layout the printed C++ evaluates to
  PROVED  none in the family is conflict-free: the best ratio reached, REFUTED witnesses (lanes,
          banks) for the best members, and how many members each reason removed

Examples:
  # A GMMA operand in a 128-byte aligned buffer: no GMMA atom keeps TMA's swizzle (REFUTED at base 128)
  layoutproof synth --kernel --shape '(128,64,4)' --element half_t --align 128 \
    --mma 'make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})' \
    --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})'
  # SM80 f16 TN 128x64x3: finds Swizzle<3,3,3> o (8,64):(64,1), CUTLASS's own choice
  layoutproof synth --kernel --shape '(128,64,3)' --element half_t \
    --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})' \
    --copy 'S:make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' \
    --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                              Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})'
  # SM80 tf32 NT (MN-major A): CUTLASS's Swizzle<3,2,3> o (32,8):(1,32) takes 2 wavefronts on the s2r loads
  layoutproof synth --kernel --shape '(128,32,3)' --element tfloat32_t \
    --mma 'TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>, Tile<_32,_32,_8>>{}' \
    --copy 'S:make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma)' \
    --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{},
                              Layout<Shape<_16,_8>, Stride<_1,_16>>{}, Layout<Shape<_4,_1>>{})'
  # the tutorial's SIMT sgemm_sm80 TN: its (128,8):(1,129) padding takes 4 wavefronts on the cp.async stores
  layoutproof synth --kernel --shape '(128,8,3)' --element float \
    --mma 'TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}' \
    --copy 'S:make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma)' \
    --copy 'D:make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{},
                              Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_1>>{})'

Then check the printed layout as any other: layoutproof trace --smem '<the printed C++>' ... --claim conflict-free

Exit codes: 0 found and every claim PROVED; 1 none in the family is conflict-free (PROVED), or a claim
about the winner REFUTED; 2 bad input; 3 a claim UNKNOWN or ERROR.
)HELP";

constexpr const char* k_trace = R"HELP(layoutproof trace: the shared-memory instructions a CuTe kernel's copy issues, and claims over them.

Usage:
  layoutproof trace --smem EXPR --copy EXPR [--mma EXPR] --side S|D --element T [--base ADDR]
                    [-D NAME=EXPR ...] [--json] [--claim C ...] [--engine z3|exhaustive|auto] [--report DIR]

Options:
  --smem EXPR    the staged smem layout, as the kernel's C++ or CuTe notation, e.g.
                 'tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}),
                                make_shape(Int<128>{},Int<64>{},Int<3>{}))'
  --copy EXPR    the TiledCopy, as the kernel's C++: make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma),
                 make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, thr, val), ...
  --mma EXPR     the TiledMMA --copy names (`mma`, `tiled_mma`, or NAME from 'NAME = EXPR' or a
                 declaration 'TiledMMA mmaC = make_tiled_mma(...);'), e.g.
                 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})'
  --side S|D     the smem tensor is the copy's source (partition_S: s2r loads, ldmatrix) or its
                 destination (partition_D: cp.async, r2s stores, stmatrix)
  --element T    the smem element type (half_t, float, tfloat32_t, double, int8_t, ...)
  --base ADDR    byte address of the tensor (default 0)
  -D NAME=EXPR   a named constant used in the expressions (bM=Int<128>{})
  --claim C      conflict-free | max-ways:K | vector-legal | covers (repeatable)
  --json         the results document with the trace's name (without --claim: the trace itself)
  --json FILE --junit FILE --sarif FILE --markdown FILE --report DIR --verbose
                   the results as check writes them (check --help): every claim-deciding command
  --fused        the trace nvcc's fusion issues (f32/f64 pairs merged into 8/16-byte accesses):
                 claims, JSON and report are about it; the text shows both
  --deadline-s S the whole run's time limit in seconds: a claim not decided by then is UNKNOWN
  --engine E     z3 | exhaustive | auto (default auto)
  --report DIR   write DIR/index.html and DIR/report.svg: every claim's verdict and, per refuted
                 claim, the smem stage coloured by bank with the witness lanes' slices outlined,
                 the conflicting phase as 32 bank columns, and the witness instruction's 32 lanes
                 (thread, coordinate, address, banks); with no refutation, instruction 0 on the tile

One instruction per (warp, copy-mode index, stage); a lane's address is the first element of its
CPY slice, as the instruction receives it. Instructions are listed per copy index (rest value,
CPY_M, CPY_N, ..., stage; colexicographic), then warp.

Examples:
  layoutproof trace --side S --element half_t \
    --smem 'tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))' \
    --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})' \
    --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' --claim conflict-free --claim vector-legal
  layoutproof trace --side D --element float --smem '(128,8,3):(1,129,1032)' --claim conflict-free \
    --copy 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{})'

Exit codes: 0 traced, or all claims proved; 1 any refuted; 2 bad input; 3 unknown or error.
)HELP";

constexpr const char* k_ptx = R"HELP(layoutproof ptx: every shared-memory instruction of a compiled kernel (its PTX), run for
every thread of one CTA, counted as Nsight Compute counts it and proved.

Usage:
  layoutproof ptx FILE [--kernel TEXT] [--block X[,Y[,Z]]] [--grid X[,Y[,Z]]] [--param I=V|NAME=V ...]
                  [--param-range I=LO..HI ...] [--smem-bytes N] [--claim C ...] [--json] [--report DIR] [--deadline-s S]

FILE is the PTX nvcc writes: `nvcc -arch=sm_90 -ptx -lineinfo k.cu` (or -keep, or cuobjdump -ptx).
-lineinfo adds .loc lines, so every instruction and witness names its CUDA source line.

Options:
  --kernel TEXT    the kernels whose mangled or demangled name contains TEXT (default: every kernel)
  --block X,Y,Z    threads per CTA (default: the kernel's .reqntid, else its .maxntid; else required);
                   CUDA's limits: x, y <= 1024, z <= 64, x*y*z <= 1024 (past them: exit 2)
  --grid X,Y,Z     %nctaid (default 1,1,1; x <= 2^31 - 1, y, z <= 65535); CTA (0,0,0) is run, and a
                   claim whose addresses depend on %ctaid is UNKNOWN when the grid has more than one CTA
  --param I=V      fix kernel parameter I (0-based) or NAME (as the PTX names it, _Z..._param_0) to V
                   (decimal or 0x hex), or bytes OFF.. of an aggregate, I+OFF[:BYTES]=V (a field of
                   1, 2, 4 or 8 bytes; default 4, or 8 for a value past [-2^31, 2^32-1]). V must lie
                   in the parameter's type, never wrapped (exit 2 naming its type and range): the
                   C++ type of the mangled name decides the sign (nvcc declares int k as .u32):
                   unsigned types and pointers [0, 2^n-1]; int, long, short, PTX .s [-2^(n-1),
                   2^(n-1)-1]; float, char, PTX .u/.b/.f without a C++ type, and fields either
                   spelling [-2^(n-1), 2^n-1]. Each parameter is given once (by --param or
                   --param-range; by index, name or bytes). A parameter left free is a symbol: an address that is an
                   affine term in it (s[k], s[4*tid + k + 3], s[tid*k]: add, sub, mul/shl by a
                   constant, mad, truncation) is decided for EVERY value of it with Z3 (PROVED
                   from unsat; REFUTED with values that are replayed by re-running the kernel with
                   them as --param); anything else computed from it (a branch, a loop bound, a
                   shift right, a comparison) is UNKNOWN with the reason, never guessed
  --param-range I=LO..HI
                   the free parameter I (or NAME) takes only the values LO..HI (signed); every
                   verdict names its domain
  --smem-bytes N   the dynamic (extern __shared__) shared memory's size, for in-bounds
  --claim C        conflict-free | max-ways:K (the bank model `trace` uses) | aligned | in-bounds |
                   no-overlap (stores: no two lanes of one issue write a common byte with different
                   data); each claim is decided per instruction, exhaustively over every warp of the
                   launch (repeatable)
  --json           {"kernels":[{"name","block","instructions":[{"line","sass_offset","text","op",
                   "width_bytes","executed","wavefronts","ideal","verdicts":[...]}],"not_counted":
                   [{"line","text","why","verdicts"}],"unapplied":[...],"totals":{...}}]}
                   (wavefronts null where not known; docs/json_output.schema.json)
  --json FILE --junit FILE --sarif FILE --markdown FILE --report DIR --verbose
                   the results as check writes them (check --help): every claim-deciding command
  --deadline-s S   the whole run's time limit, reading and decoding included: a claim not decided by
                   then is UNKNOWN, and a kernel the deadline passed before is listed "not run",
                   every claim UNKNOWN for it (each kernel is printed as it runs, then dropped)
  --report DIR     DIR/index.html (every instruction's counts and verdicts; per refuted claim the
                   conflicting phase as 32 bank columns and the witness issue's 32 lanes) and
                   DIR/report.svg (the first refuted claim's figure). DIR is replaced in one step:
                   a killed run leaves the old report or the new complete one, never a part

How it runs: each warp's 32 lanes execute in lock step; the lanes at the same instruction form one
warp-level issue (lanes whose @p guard is false are inactive). Values are concrete (%tid, %ntid,
%ctaid = 0, the --param values, shared symbols laid out in declaration order); a value loaded from
memory, a free parameter or an opcode outside the model is unknown with its reason. Counts are for
one CTA: executed = warp instructions, wavefronts and ideal = the bank model's (docs/compiled.md).
Nothing is left out silently: an instruction that touches shared memory and is not counted (a
.shared::cluster access, st.async, cp.async.bulk/TMA, mbarrier, wgmma, ldmatrix outside .m8n8 .b16,
a generic ld/st/atom whose address came from cvta.shared or is not known, a call into code the file
does not hold) is listed with why, and every claim is UNKNOWN on it; a lane the model cannot follow
(a branch on an unknown value, calls nested deeper than 64, the step limit) stops, and every claim
is then UNKNOWN. An ill-typed operand (a .f32 register as an address, a predicate as an integer) is
refused like malformed text.

Examples:
  layoutproof ptx tests/ptx/basic.ptx --kernel column_read --block 32
  layoutproof ptx tests/ptx/basic.ptx --kernel padded --block 32 --claim conflict-free --claim in-bounds
  layoutproof ptx tests/ptx/basic.ptx --kernel broadcast --block 32 --param 1=5 --claim conflict-free --json
  layoutproof ptx tests/ptx/basic.ptx --kernel broadcast --block 32 --claim conflict-free --claim in-bounds
  layoutproof ptx tests/ptx/basic.ptx --kernel broadcast --block 32 --param-range 1=0..63 --claim in-bounds

Exit codes: 0 every claim proved (or counts alone, complete); 1 a claim refuted; 2 bad input (a
malformed file: FILE:LINE:COL and a caret); 3 a claim unknown or an error (counts alone: a lane
stopped or an access is not counted).
)HELP";

constexpr const char* k_sass = R"HELP(layoutproof sass: every shared-memory instruction of the SASS ptxas emitted, run for every
thread of one CTA, counted as Nsight Compute counts it (per SASS instruction) and proved.

Usage:
  layoutproof sass FILE [--kernel TEXT] --block X[,Y[,Z]] [--grid X[,Y[,Z]]] [--param I=V|I+OFF=V|@OFF=V ...]
                   [--param-range I=LO..HI|@OFF=LO..HI ...] [--smem-bytes N] [--claim C ...] [--json] [--report DIR] [--deadline-s S]

FILE is `cuobjdump -sass k.cubin` (or of the executable) or `nvdisasm -g k.cubin` (which adds the
CUDA source line of every instruction, so witnesses name it; with or without -c: the ELF's data
sections nvdisasm prints without it are skipped), for sm_80..sm_90. cuobjdump is part of
the CUDA toolkit on the GPU machine: `nvcc -arch=sm_90 -cubin -lineinfo -o k.cubin k.cu` builds what
it reads. This is the exact answer where ptxas fused, reordered or rematerialised the PTX's accesses.

Options:
  --kernel TEXT    the functions whose mangled or demangled name contains TEXT (default: all)
  --block X,Y,Z    threads per CTA (required: SASS does not record it; CUDA's limits, as for ptx)
  --param I=V      parameter I (0-based) of a kernel whose signature names scalar and pointer types
                   (its byte offset follows from their sizes); I+OFF=V: bytes OFF.. of parameter I;
                   @OFF=V: bytes OFF.. of the parameter buffer (c[0x0][0x210+OFF] on sm_90);
                   KEY:BYTES=V gives a field's width (1, 2, 4, 8; default 4, or 8 for wider values):
                   @8:8=0 is a pointer at byte 8 (pointers given let LDGSTS count its global side).
                   V must lie in the parameter's C++ type (int [-2^31, 2^31-1], pointers and
                   unsigned types [0, 2^n-1]) or, for a field, its bytes (either spelling); each
                   parameter is given once (exit 2 otherwise, as for ptx)
                   A parameter left free is a symbol, as for ptx: addresses affine in it are
                   decided for every value (Z3), what else depends on it is UNKNOWN
  --param-range I=LO..HI, @OFF=LO..HI
                   the free parameter (or buffer bytes) takes only the values LO..HI (signed)
  --smem-bytes N   the CTA's shared memory (static and dynamic), for in-bounds: SASS names no
                   symbols; user data starts after the 1 KiB the driver reserves (window byte 0x400)
  --claim C        conflict-free | max-ways:K | aligned | in-bounds | no-overlap (repeatable)
  --json           as ptx --json (docs/compiled.md), with "sass_offset" the /*0230*/ offset
  --json FILE --junit FILE --sarif FILE --markdown FILE --report DIR --verbose
                   the results as check writes them (check --help): every claim-deciding command
  --report DIR     DIR/index.html and DIR/report.svg, as ptx --report

Modelled: the address arithmetic ptxas emits (IMAD and its forms, IADD3, LEA, LOP3.LUT, SHF, SGXT,
PRMT, SEL, ISETP, PLOP3, P2R/R2P, S2R/S2UR, LDC/ULDC, the uniform U* forms), LDS/STS of every width,
LDSM/STSM (.16.M88/.MT88; no count is one matrix), LDGSTS, ATOMS, BRA/EXIT (a branch to an offset
that is not an instruction of the function is refused, exit 2). An opcode outside the model makes
what it writes not known, naming it: an address computed from it is UNKNOWN, never guessed. Shared-
memory opcodes outside the model (other LDS/LDSM forms, TMA, HGMMA, SYNCS/ARRIVES, STAS, generic
LD/ST/ATOM/RED) are listed as not counted, every claim UNKNOWN on them. `@!PT` instructions (never
executed by any lane) count as executed with 0 wavefronts, as Nsight Compute counts them.

Examples:
  layoutproof sass tests/compiled/measured/hand.sass --kernel column_read --block 32 --claim conflict-free
  layoutproof sass tests/compiled/measured/hand.nvdisasm --kernel stages --block 32 --param 1=4 --claim conflict-free --json

Exit codes: 0 every claim proved (or counts alone, complete); 1 a claim refuted; 2 bad input (a
malformed file: FILE:LINE:COL and a caret); 3 a claim unknown or an error (counts alone: a lane
stopped or an access is not counted).
)HELP";

constexpr const char* k_demo = R"HELP(layoutproof demo: a worked example: CUTLASS's SM80 half-precision K-major atom printed with its
banks, then a few layout-algebra queries on the same tile.

Usage:
  layoutproof demo

Examples:
  layoutproof demo
  layoutproof demo | tail -7

Exit codes: 0.
)HELP";

constexpr const char* k_algebra_tail = R"HELP(
Options:
  --cute-text       read every argument as CuTe prints it (_8 static, 8 dynamic) and print CuTe's text

Examples:
  layoutproof algebra composition '(8,32):(32,1)' '[4:1,8:4]'
  layoutproof algebra logical_divide '(8,64):(64,1)' '[_,8:1]'
  layoutproof algebra coalesce '(_2,_4):(_1,_2)' --cute-text
  printf 'size (8,32):(32,1)\ncomplement 4:2 24\n' | layoutproof algebra -

Exit codes: 0 a result (also for 'algebra -', whose failing lines print 'error: ...'), 2 bad input.
)HELP";

// Two worked examples per algebra operation (arguments after `layoutproof algebra OP`).
const std::map<std::string, std::vector<std::string>>& algebra_examples() {
  static const std::map<std::string, std::vector<std::string>> m = {
      {"size", {"'(8,(2,4)):(1,(8,16))'", "'Sw<3,4,3> o (8,64):(64,1)'"}},
      {"cosize", {"'(8,32):(32,1)'", "'(4,4):(1,8)'"}},
      {"rank", {"'(8,(2,4)):(1,(8,16))'", "'8:1'"}},
      {"depth", {"'(8,(2,4)):(1,(8,16))'", "'8:1'"}},
      {"call", {"'(8,32):(32,1)' 5", "'(8,32):(32,1)' '(1,2)'", "'Sw<3,3,3> o (8,64):(64,1)' 9"}},
      {"crd2idx", {"'(1,2)' '(4,8)'", "'(1,2)' '(4,8)' '(8,1)'"}},
      {"idx2crd", {"9 '(4,8)'", "9 '((2,2),8)'"}},
      {"coalesce", {"'(2,(1,6)):(1,(6,2))'", "'(2,4):(1,2)' '(1,1)'"}},
      {"filter", {"'(4,2):(1,0)'", "'(2,(1,4)):(0,(3,1))'"}},
      {"composition", {"'(8,32):(32,1)' '[4:1,8:4]'", "'(4,4):(4,1)' '8:2'", "'(8,64):(64,1)' 'Sw<3,3,3>'"}},
      {"complement", {"'4:2' 24", "'(2,2):(1,6)' 24"}},
      {"right_inverse", {"'(4,8):(8,1)'", "'Sw<3,3,3> o (8,64):(64,1)'"}},
      {"left_inverse", {"'(4,8):(8,1)'", "'4:2'"}},
      {"max_common_vector", {"'(8,32):(32,1)' '(8,32):(32,1)'", "'(8,32):(1,8)' '(8,32):(32,1)'"}},
      {"max_common_layout", {"'(8,32):(32,1)' '(8,32):(32,1)'", "'(8,32):(1,8)' '(8,32):(32,1)'"}},
      {"nullspace", {"'(4,2):(1,0)'", "'(2,4):(0,1)'"}},
      {"make_layout_like", {"'(4,8):(8,1)'", "'(2,(2,2)):(8,(1,2))'"}},
      {"domain_distribute", {"'(4,8)' 8", "'(4,(2,4))' 4"}},
      {"logical_divide", {"'(8,64):(64,1)' '[_,8:1]'", "'16:1' '4:1'"}},
      {"zipped_divide", {"'(8,64):(64,1)' '[2:1,8:1]'", "'16:1' '4:1'"}},
      {"tiled_divide", {"'(8,64):(64,1)' '[2:1,8:1]'", "'16:1' '4:1'"}},
      {"flat_divide", {"'(8,64):(64,1)' '[2:1,8:1]'", "'16:1' '4:1'"}},
      {"logical_product", {"'(2,2):(1,2)' '3:1'", "'(2,2):(2,1)' '[2:1,3:1]'"}},
      {"zipped_product", {"'(2,2):(2,1)' '[2:1,3:1]'", "'(2,4):(1,2)' '[3:1,2:1]'", "'4:1' '2:1'"}},
      {"tiled_product", {"'(2,2):(2,1)' '[2:1,3:1]'", "'(2,4):(1,2)' '[3:1,2:1]'", "'4:1' '2:1'"}},
      {"flat_product", {"'(2,2):(2,1)' '[2:1,3:1]'", "'(2,4):(1,2)' '[3:1,2:1]'", "'4:1' '2:1'"}},
      {"blocked_product", {"'(2,2):(1,2)' '(2,3):(1,2)'", "'(2,2):(2,1)' '(3,4):(1,3)'"}},
      {"raked_product", {"'(2,2):(1,2)' '(2,3):(1,2)'", "'(2,2):(2,1)' '(3,4):(1,3)'"}},
      {"swizzle", {"'Sw<3,3,3>' 9", "'Sw<3,4,3>' 128"}},
  };
  return m;
}

std::string algebra_op_help(const std::string& op) {
  // The operation's own one-line usage lives in its table (cli/commands/algebra_command.cpp).
  std::string usage = run_algebra_query({op, "--help"});
  if (usage.rfind("usage: ", 0) == 0) usage = usage.substr(7);
  std::string s = "Usage:\n  " + usage + "\n\nOptions:\n"
                  "  --cute-text       read the arguments as CuTe prints them (_8 static, 8 dynamic), print CuTe's text\n\n"
                  "Examples:\n";
  const auto it = algebra_examples().find(op);
  if (it != algebra_examples().end())
    for (const std::string& e : it->second) s += "  layoutproof algebra " + op + " " + e + "\n";
  return s + "\nlayoutproof algebra --help lists every operation (docs/algebra.md).\n"
             "Exit codes: 0 a result, 2 bad input (the message names the condition that fails).\n";
}

const std::map<std::string, const char*>& table() {
  static const std::map<std::string, const char*> t = {
    {"", k_top},
    {"prove", k_prove},
    {"print", k_print},
    {"eval", k_eval},
    {"check", k_check},
    {"catalog", k_catalog},
    {"bank", k_bank},
    {"raster", k_raster},
    {"raster prove", k_raster_prove},
    {"raster locality", k_raster_locality},
    {"raster trace", k_raster_trace},
    {"synth", k_synth},
    {"synth --kernel", k_synth_kernel},
    {"trace", k_trace},
    {"ptx", k_ptx},
    {"sass", k_sass},
    {"demo", k_demo},
  };
  return t;
}

}  // namespace

bool wants_help(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

std::string help_topic(const std::string& cmd, const std::vector<std::string>& args) {
  const auto has = [&](const char* w) { return std::find(args.begin(), args.end(), w) != args.end(); };
  if (cmd == "raster" && !args.empty() && args[0] == "prove" && args.size() > 1 && (args[1].rfind("sm90-", 0) == 0 || args[1].rfind("sm100-", 0) == 0))
    return "raster trace";  // the scheduler kinds' prove flags are the trace text's
  if (cmd == "raster" && !args.empty() && (args[0] == "prove" || args[0] == "locality" || args[0] == "trace")) return "raster " + args[0];
  if (cmd == "synth" && has("--kernel")) return "synth --kernel";
  if (cmd == "algebra" && !args.empty() && args[0].rfind("-", 0) != 0 && args[0] != "help") return "algebra " + args[0];
  return cmd;
}

std::optional<std::string> help_text(const std::string& topic) {
  if (topic == "algebra") return "layoutproof algebra: one CuTe layout-algebra operation per query.\n\nUsage:\n" + algebra_help() + k_algebra_tail;
  if (topic.rfind("algebra ", 0) == 0) {
    const std::string op = topic.substr(8);
    const auto& ops = algebra_ops();
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) return std::nullopt;
    return algebra_op_help(op);
  }
  const auto it = table().find(topic);
  if (it == table().end()) return std::nullopt;
  std::string s = it->second;
  // The commands that take a layout end with how C++ input is given (cli/layout_input.hpp).
  if (topic == "prove") s += cpp_input_help("layoutproof prove", "", "--claim bijective");
  if (topic == "print") s += cpp_input_help("layoutproof print");
  if (topic == "eval") s += cpp_input_help("layoutproof eval");
  if (topic == "check") s += cpp_input_help("layoutproof check spec.yaml -D", "'bM=Int<64>{}'");
  if (topic == "synth")
    s += cpp_input_help("layoutproof synth --tile", "'make_layout(make_shape(bM, bK), LayoutRight{})'",
                        "-D 'bM=Int<8>{}' -D 'bK=Int<64>{}' --elem-bytes 2 --pattern ldmatrix");
  return s;
}

std::vector<std::string> help_topics() {
  std::vector<std::string> v;
  for (const auto& [topic, text] : table()) v.push_back(topic);
  v.push_back("algebra");
  for (const std::string& op : algebra_ops()) v.push_back("algebra " + op);
  return v;
}

}  // namespace layoutproof::cli
