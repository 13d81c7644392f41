#pragma once
// `layoutproof merge SHARD.json... [output flags]`: the JSON results of the N shards of one check
// run (`check SPEC --shard K/N --json FILE`, K = 1..N: a CI matrix of N jobs) presented as ONE run
// by emit() (cli/output/results.hpp): the verdict table, one JSON document, one JUnit, SARIF and
// Markdown, one HTML summary, one summary line and one exit code, all computed from the merged
// results as `check SPEC` alone would have (its results, in the spec's order: by position).
//   layoutproof merge s1.json s2.json s3.json --junit all.xml   # exit 1: a shard's claim is refuted
// The shards' JSON says which shard each is (summary "shard": k, n, the spec's checks and their
// claims_fingerprint; each result's position). Refused, exit 2 naming the file: a file that is not
// results JSON, or not a shard (an unsharded run's JSON has no "shard"), a run that stopped on bad
// input, shards of different specs (source, claims, checks or tool version), of different N, a
// shard missing or given twice (each K of 1..N exactly once), a position in two shards, shards
// against different baselines. Against a baseline (every shard run with the same --baseline and
// --fail-on): the results keep their marks, and "gone" is the baseline's results no shard has.
// The merged run's wall time is its longest shard's. What the shards did not write (a kernel
// claim's trace, a bank claim's access pattern) is not in the merged HTML report: it lists every
// claim, and the shards' own --report pages draw their figures.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// merge's flag table (the output flags, the shard files), for --help.
FlagTable merge_flags();
int run_merge(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
