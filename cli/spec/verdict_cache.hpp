#pragma once
// The verdict cache: PROVED verdicts of checks, kept in files so that an unchanged claim is not
// proved again by the next run (`check`, `catalog`; default on, see default_cache_dir).
//
// A cache must never answer for code that did not decide the verdict. The key is therefore
//   fingerprint | kind | canonical layout | claim | element bits | every parameter of the access
// where the fingerprint names the deciding code:
//   code_fingerprint() = "layoutproof <version> | model <kModelVersion> | src <SHA-256>"
// with <SHA-256> the hash of every source file in model/, proofs/ and cli/ at build time
// (cmake/source_fingerprint.cmake; it is regenerated whenever a source changes), and
// kModelVersion a number bumped by hand on any semantic change (a safety net for a build whose
// sources could not be hashed, and the record of when meaning changed).
// Example key: "layoutproof 0.1.0|model 3|src 3f9a...|0|(8,64):(64,1)|injective|bits 16".
// A scheduler claim's key ends with its whole query as `raster prove` flags (scheduler_flags):
// "...|5|...|exactly-once|bits 0|sm90-persistent --tiles 32,16,1 --cluster 2,1 --max-swizzle 4 ...".
//
// Only PROVED verdicts are cached (a refuted, unknown or failed claim is decided again, so its
// witness is fresh); kernel and compiled claims are never cached (their key would be the whole trace or file),
// nor a scheduler's balance (a measurement: its number is measured again). A cached verdict says
// so: its method starts with kCachedPrefix.
#include <string>

#include "proofs/check/check.hpp"

namespace layoutproof::cli {

// Bump on any change to what a verdict means or how one is decided (bank model, encodings,
// claim definitions, access patterns), even when the source hash would change anyway.
inline constexpr int kModelVersion = 3;  // 3: bank ideal with collisions removed (no absorbed collision)

// The method prefix of a verdict read from the cache.
inline constexpr const char* kCachedPrefix = "cached: ";

// The fingerprint of this build's deciding code (see above).
std::string code_fingerprint();

// The cache key of a check under a fingerprint.
std::string cache_key(const proofs::Check& c, const std::string& fingerprint);

// The default cache folder: $LAYOUTPROOF_CACHE, else $XDG_CACHE_HOME/layoutproof, else
// ~/.cache/layoutproof (empty when none can be determined).
std::string default_cache_dir();

// True when the cache keys `c` completely (cache_key holds everything its verdict depends on):
// not a kernel or compiled check, not a report.
bool cacheable(const proofs::Check& c);

// True when `r` came from the cache.
bool from_cache(const proofs::CheckResult& r);

// The cached PROVED result of `c` under `fingerprint`, if the folder `dir` holds one with the same
// full key (line 1 of the file; the file name is only a hash of it).
std::optional<proofs::CheckResult> load_cached(const std::string& dir, const proofs::Check& c,
                                               const std::string& fingerprint);

// Stores a PROVED, not already cached, non-kernel result; an unwritable folder only costs time.
void store_cached(const std::string& dir, const proofs::CheckResult& r, const std::string& fingerprint);

}  // namespace layoutproof::cli
