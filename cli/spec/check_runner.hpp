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
#include "proofs/claims/check.hpp"

namespace layoutproof::cli {

struct RunOptions {
  proofs::ProveOptions prove;
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

// The results in the order of the checks; a compiled check (a spec's compiled: entry) gives one
// result per kernel, instruction and claim (proofs/claims/ptx_claims.hpp run_compiled), in its place.
std::vector<proofs::CheckResult> run_checks(const std::vector<proofs::Check>& checks, const RunOptions& o);

}  // namespace layoutproof::cli
