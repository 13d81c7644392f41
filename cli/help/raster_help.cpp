// The prose of raster: the rasterizations, their locality and the persistent tile schedulers.
// Each text's "@OPTIONS@" line is where cli/help.cpp puts the Options block its flag table generates.
#include "cli/help/help_texts.hpp"

namespace layoutproof::cli::help_prose {

extern const char* const k_raster = R"HELP(layoutproof raster: threadblock rasterizations (docs/raster.md): prove they map the launched
blocks one-to-one onto the tile grid, and measure their L2 locality.

Usage:
  layoutproof raster prove KIND [--tile-size T] [--log-tile L] [--formula F] [--max-grid N]
                     [--claim bijective|injective|in-bounds|surjective] [--engine auto|z3|exhaustive] [--json]
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

extern const char* const k_raster_trace = R"HELP(layoutproof raster trace: a persistent tile scheduler's visits, every CTA's work loop, exactly as CUTLASS's code computes them.

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
  layoutproof raster trace KIND [flags shared by every line] --configs FILE [--json]
  Every form takes --report DIR, but trace --configs (many configurations: one's flags a line).

@OPTIONS@

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

extern const char* const k_raster_prove = R"HELP(layoutproof raster prove: a rasterization maps the launched blocks one-to-one onto the tile grid,
for all grids up to --max-grid N (p0, p1 in 1..N), or a counterexample replayed on the model.

Usage:
  layoutproof raster prove KIND [--tile-size T] [--log-tile L] [--formula F] [--max-grid N]
                     [--claim C ...] [--engine auto|z3|exhaustive] [--timeout-ms N] [--deadline-s S]
                     [--dump-smt DIR] [--json [FILE]] [--junit FILE] [--sarif FILE] [--markdown FILE] [--report DIR]
  layoutproof raster prove SCHEDULER-KIND [the raster trace flags] --claim C [--max-tiles B] [--engine E]
  KIND: row-major | seed | seed-fixed | cutlass | morton | formula (rasterizations; the scheduler kinds below)

@OPTIONS@

The persistent tile schedulers are kinds of raster prove too (docs/raster.md), with claims and
flags of their own; `layoutproof raster prove sm90-persistent --help` explains each:
  KIND     sm90-persistent | sm90-group | sm90-stream-k | sm100-persistent | sm100-group | sm100-stream-k
  --claim  exactly-once | in-range | balance (reported, never PROVED) | k-exactly-once (the stream-K
           kinds) | launches (repeatable)
  --max-tiles B  prove without --tiles: M, N in [1, B] and L in {1, 2} (default 16; the stream-K kinds
           8; the group kinds 3); a domain of more than 2^20 configurations exits 2, never a smaller one
  every flag they take:
@SCHEDULER_FLAGS@
Examples:
  layoutproof raster prove cutlass --log-tile 2
  layoutproof raster prove morton --claim injective --max-grid 16
  # refuted: the seed's strip function divides by gridDim.y (exit 1)
  layoutproof raster prove seed --max-grid 4

Exit codes: 0 all proved, 1 any refuted, 2 bad input, 3 unknown or error.
)HELP";

extern const char* const k_raster_locality = R"HELP(layoutproof raster locality: distinct A and B tiles each wave of S CTAs touches, per rasterization
(row-major, seed, cutlass log_tile 1..3, morton, and --formula when given).

Usage:
  layoutproof raster locality --m M --n N --k K [--sms S] [--tile MxNxK] [--elem-bytes E]
                              [--tile-size T] [--formula F] [--json]

@OPTIONS@

Examples:
  layoutproof raster locality --m 4096 --n 4096 --k 4096 --tile 128x128x64
  layoutproof raster locality --m 8192 --n 2048 --k 1024 --sms 108 --elem-bytes 4 --json

Exit codes: 0 measured, 2 bad input.
)HELP";

}  // namespace layoutproof::cli::help_prose
