#include "cli/spec/verdict_cache.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "layoutproof_source_fingerprint.hpp"  // generated: LAYOUTPROOF_SOURCE_SHA256
#include "model/layout/notation.hpp"
#include "proofs/raster/scheduler_query.hpp"

namespace layoutproof::cli {
namespace {

using proofs::Check;
using proofs::CheckResult;
using proofs::Verdict;

std::string fnv1a_hex(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::filesystem::path cache_file(const std::string& dir, const std::string& key) {
  return std::filesystem::path(dir) / (fnv1a_hex(key) + ".proved");
}

std::string one_line(std::string s) {
  for (char& ch : s)
    if (ch == '\n') ch = ' ';
  return s;
}

}  // namespace

std::string code_fingerprint() {
  return "layoutproof " LAYOUTPROOF_VERSION "|model " + std::to_string(kModelVersion) + "|src " LAYOUTPROOF_SOURCE_SHA256;
}

std::string cache_key(const Check& c, const std::string& fingerprint) {
  std::ostringstream k;
  const AnyLayout* l = proofs::layout_of(c);
  const auto* tma = std::get_if<proofs::TmaSubject>(&c.subject);
  k << fingerprint << "|" << static_cast<int>(c.kind()) << "|" << (l ? to_string(*l) : std::string()) << "|" << c.claim.text << "|bits "
    << (tma ? tma->element_bits : 0);
  if (const auto* s = std::get_if<proofs::AccessSubject>(&c.subject)) {
    const AccessSpec& a = s->access.spec;
    k << "|" << to_string(a.tile) << "|E" << a.elem_bytes << "|V" << a.vec << "|" << to_string(a.pattern) << "|N"
      << a.ldmatrix_count << "|base " << a.base_address << "|" << (a.byte_swizzle ? to_string(*a.byte_swizzle) : "-") << "|"
      << (a.thread_layout ? to_string(*a.thread_layout) : "-") << "|" << to_string(s->access.op) << "|W" << s->access.width_bytes;
  }
  // A scheduler claim: the whole query (every parameter given, the free ones' bounds), as the
  // `raster prove` flags that ask it (scheduler_flags: two queries with one text are one question).
  if (const auto* s = std::get_if<proofs::SchedulerSubject>(&c.subject)) k << "|" << proofs::scheduler_flags(*s->query);
  return one_line(k.str());
}

// Layout, bank, tma and scheduler checks are cached. Kernel and compiled checks are not (their key
// would be the whole trace or file), nor a result read back; a report (a scheduler's balance) is
// measured, not proved: its number is the result, measured again.
bool cacheable(const Check& c) {
  const bool asks = std::holds_alternative<proofs::LayoutSubject>(c.subject) || std::holds_alternative<proofs::AccessSubject>(c.subject) ||
                    std::holds_alternative<proofs::TmaSubject>(c.subject) || std::holds_alternative<proofs::SchedulerSubject>(c.subject);
  return asks && !proofs::is_report(c);
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("LAYOUTPROOF_CACHE"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/layoutproof";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/layoutproof";
  return "";
}

bool from_cache(const CheckResult& r) { return r.verdict.method.rfind(kCachedPrefix, 0) == 0; }

// File: line 1 the full key (guards against hash collisions), 2 method, 3 detail.
std::optional<CheckResult> load_cached(const std::string& dir, const Check& c, const std::string& fingerprint) {
  if (!cacheable(c)) return std::nullopt;
  const std::string key = cache_key(c, fingerprint);
  std::ifstream f(cache_file(dir, key));
  std::string stored_key, method, detail;
  if (!f || !std::getline(f, stored_key) || stored_key != key || !std::getline(f, method) || !std::getline(f, detail))
    return std::nullopt;
  return CheckResult{c, Verdict::proved(kCachedPrefix + method, detail), {}};
}

void store_cached(const std::string& dir, const CheckResult& r, const std::string& fingerprint) {
  if (r.verdict.kind != Verdict::Kind::proved || from_cache(r) || !cacheable(r.check)) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return;  // an unwritable cache only costs time
  const std::string key = cache_key(r.check, fingerprint);
  // One temporary name per process and thread (-j N workers may store the same key at once).
  const std::filesystem::path tmp = cache_file(dir, key).string() + ".tmp" + std::to_string(::getpid()) + "." +
                                    std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream f(tmp);
    f << key << "\n" << one_line(r.verdict.method) << "\n" << one_line(r.verdict.detail) << "\n";
    if (!f) return;
  }
  std::filesystem::rename(tmp, cache_file(dir, key), ec);  // atomic: concurrent runs never see half a file
  if (ec) std::filesystem::remove(tmp, ec);
}

}  // namespace layoutproof::cli
