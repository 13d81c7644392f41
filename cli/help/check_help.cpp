// The prose of the runs of many claims: check SPEC, merge (its shards as one run) and catalog.
// Each text's "@OPTIONS@" line is where cli/help.cpp puts the Options block its flag table generates.
#include "cli/help/help_texts.hpp"

namespace layoutproof::cli::help_prose {

extern const char* const k_check = R"HELP(layoutproof check: prove the claims of a spec file, the gate in front of a kernel (docs/ci.md).

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

@OPTIONS@

Examples:
  # one claim is wrong on purpose (sA_naive), so this exits 1 and shows the colliding lanes
  layoutproof check examples/gemm_sm80_f16.yaml --no-cache
  layoutproof check examples/gemm_sm80_f16.yaml --no-cache --junit /tmp/lp-check.xml --markdown /tmp/lp-check.md --report /tmp/lp-check-report
  layoutproof check examples/kernels_sm80.yaml --no-cache -j 2 --json /tmp/lp-check.json --deadline-s 60
  # compiled kernels: column_read's 32-way conflict is REFUTED at tests/ptx/basic.cu's line (exit 1)
  layoutproof check examples/compiled_sm90.yaml --no-cache --sarif /tmp/lp-compiled.sarif
  # schedulers: CUTLASS's grouped scheduler drops tile (m 1, n 2) of a 2x3 group: REFUTED (exit 1)
  layoutproof check examples/schedulers_sm90.yaml --no-cache --junit /tmp/lp-schedulers.xml
  # adopt the gate without fixing history: fail only on what the baseline did not already fail
  layoutproof check examples/gemm_sm80_f16.yaml --no-cache --json /tmp/lp-base.json
  layoutproof check examples/gemm_sm80_f16.yaml --no-cache --baseline /tmp/lp-base.json --fail-on new
  # a CI matrix of 3 jobs: each decides a third of the claims (the parts together are the whole run)
  layoutproof check examples/gemm_sm80_f16.yaml --no-cache --shard 2/3
  # the matrix's parts as one run: layoutproof merge --help

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

extern const char* const k_merge = R"HELP(layoutproof merge: present the shards of one check run (check SPEC --shard K/N --json FILE, K = 1..N:
a CI matrix of N jobs) as ONE run: one verdict table, one JSON document, one JUnit, SARIF and Markdown,
one HTML summary, one summary line and one exit code, as `check SPEC` alone gives them (docs/ci.md,
"Baselines and shards").

Usage:
  layoutproof merge SHARD.json... [--json [FILE]] [--junit FILE] [--sarif FILE] [--markdown FILE]
                    [--report DIR] [--verbose]
  Give every shard's JSON, each K of 1..N once, in any order: the results go back into the spec's
  order (each result's "position"), and the figures and the exit code are those of the merged
  results. Each shard's summary says which shard of which spec it is ("shard": k, n, the spec's
  checks and their fingerprint), so a set that is not one run is bad input (exit 2, naming the
  file): a file that is not a shard's results JSON (an unsharded run's has no "shard"), a run that
  stopped on bad input, shards of different specs, tools or N, a shard missing or given twice, a
  claim in two shards, shards against different baselines. Shards run with the same --baseline
  and --fail-on keep their marks, and "gone" counts the baseline's results no shard has. The
  merged run's wall time is its longest shard's; the HTML summary lists every claim, and each
  shard's own --report draws its figures.

@OPTIONS@

Examples:
  # a CI matrix of 3 jobs (each a third of the claims), then one job that presents them: exit 1, as check
  layoutproof check examples/gemm_sm80_f16.yaml --no-cache --shard 1/3 --json /tmp/lp-shard1.json
  layoutproof check examples/gemm_sm80_f16.yaml --no-cache --shard 2/3 --json /tmp/lp-shard2.json
  layoutproof check examples/gemm_sm80_f16.yaml --no-cache --shard 3/3 --json /tmp/lp-shard3.json
  layoutproof merge /tmp/lp-shard1.json /tmp/lp-shard2.json /tmp/lp-shard3.json --junit /tmp/lp-merged.xml --markdown /tmp/lp-merged.md

Exit codes: those of the merged run: 0 all proved, 1 any refuted, 3 unknown or error (--fail-on new:
only new failures); 2 bad input (the message names the file).
)HELP";

extern const char* const k_catalog = R"HELP(layoutproof catalog: prove every claim of the built-in catalog of CUTLASS shared-memory atoms and
kernel configurations (bijective, contiguous, conflict-free accesses, TMA swizzles).

Usage:
  layoutproof catalog [--list] [-j N] [--json [FILE]] [--junit FILE] [--sarif FILE] [--markdown FILE]
                      [--report DIR] [--engine E] [--timeout-ms N] [--deadline-s S] [--cache DIR | --no-cache] [--progress]

@OPTIONS@

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

}  // namespace layoutproof::cli::help_prose
