#pragma once
// Runs a list of checks: in parallel (-j N), with a progress line on a terminal, and with a cache
// so that unchanged claims are not proved again.
//
// The cache keeps PROVED verdicts only (a refuted, unknown or failed claim is always decided
// again, so its witness is fresh). The key is the tool version, the check's kind, canonical
// layout, claim and every parameter of its access; a cached verdict says so in its method.
#include <string>
#include <vector>

#include "proofs/check.hpp"

namespace layoutproof::cli {

struct RunOptions {
  proofs::ProveOptions prove;
  int jobs = 1;
  bool progress = false;   // a progress line on stderr (default: when stderr is a terminal)
  std::string cache_dir;   // empty: no cache
};

// The default cache folder: $LAYOUTPROOF_CACHE, else $XDG_CACHE_HOME/layoutproof, else
// ~/.cache/layoutproof (empty when none can be determined).
std::string default_cache_dir();

// The results in the order of the checks.
std::vector<proofs::CheckResult> run_checks(const std::vector<proofs::Check>& checks, const RunOptions& o);

// The cache key of a check (exposed for tests).
std::string cache_key(const proofs::Check& c);

}  // namespace layoutproof::cli
