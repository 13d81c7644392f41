#pragma once
// Runs a list of checks: in parallel (-j N), with a progress line on a terminal, and with a cache
// so that unchanged claims are not proved again.
//
// The cache (cli/spec/verdict_cache.hpp) keeps PROVED verdicts only, keyed on the fingerprint of the
// deciding code and every parameter of the check; a cached verdict says so in its method. It is
// read before anything is decided, so a verdict "from cache" is one an earlier run stored.
#include <string>
#include <vector>

#include "cli/spec/verdict_cache.hpp"
#include "proofs/check/check.hpp"

namespace layoutproof::cli {

// --shard K/N: this run decides the K-th of N deterministic parts of the checks (1 <= K <= N).
// A check's part is a hash of the id of the first check asking its question (its repeat group), so
// the parts do not depend on the order of the checks, a repeat is decided where its first is, and
// the union of the N parts is every check exactly once (`layoutproof merge` presents it as one run).
struct Shard {
  int k = 1, n = 1;
};
// "K/N" -> Shard; LayoutError unless 1 <= K <= N <= 1024.
Shard parse_shard(const std::string& text);
// The part (0-based) a check id falls in: FNV-1a 64 of the id, mod n. Stable across machines.
int shard_of(const std::string& id, int n);
// The identity of a spec's claims, which every shard of one spec shares and `merge` compares: the
// FNV-1a 64 hash shard_of uses (its basis 1469598103934665603) of every check's id, in order, each
// followed by a newline, as 16 hex digits ("14650fb0739d0383" for no checks). Shards of specs that
// differ in any claim, or in their order, differ here.
std::string claims_fingerprint(const std::vector<proofs::Check>& checks);

struct RunOptions {
  proofs::ProveOptions prove;
  Shard shard;             // default 1/1: every check
  int jobs = 1;
  bool progress = false;   // a progress line on stderr (default: when stderr is a terminal)
  std::string cache_dir;   // empty: no cache
  std::string fingerprint = code_fingerprint();  // of the deciding code; tests vary it
};

// The method prefix of a repeat: a check asking the same question as an earlier check of the same
// run (the same cache key and time limit; a kernel copy's claim: the same claim on an equal trace;
// compiled entries, `layout: synthesize` and reports are never repeats). The question is decided
// once; the repeat keeps its own check (subject, location) and takes that verdict, with the method
// "repeat of <the first check's id>: <its method>" and no time of its own.
inline constexpr const char* kRepeatPrefix = "repeat of ";
bool is_repeat(const proofs::CheckResult& r);

// The results in the order of the checks (under a shard: of the shard's checks, each result's
// CheckResult::position its check's place in `checks`); a compiled check (a spec's compiled: entry) gives one
// result per kernel, instruction and claim (proofs/check/run_check.hpp decides every check), in its place.
std::vector<proofs::CheckResult> run_checks(const std::vector<proofs::Check>& checks, const RunOptions& o);

}  // namespace layoutproof::cli
