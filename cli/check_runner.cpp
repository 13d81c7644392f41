#include "cli/check_runner.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "model/notation.hpp"

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

// A cached PROVED verdict: line 1 the full key (guards against hash collisions), 2 method, 3 detail.
bool load_cached(const std::string& dir, const Check& c, CheckResult& out) {
  // Kernel claims are never cached: their key would have to hold the whole trace, and deciding
  // them costs less than reading a cache file.
  if (c.kind == Check::Kind::kernel) return false;
  const std::string key = cache_key(c);
  std::ifstream f(cache_file(dir, key));
  std::string stored_key, method, detail;
  if (!f || !std::getline(f, stored_key) || stored_key != key || !std::getline(f, method) || !std::getline(f, detail))
    return false;
  out = CheckResult{c, Verdict::proved("cached: " + method, detail), std::nullopt, std::nullopt};
  return true;
}

void store_cached(const std::string& dir, const CheckResult& r) {
  if (r.verdict.kind != Verdict::Kind::proved || r.verdict.method.rfind("cached: ", 0) == 0) return;
  if (r.check.kind == Check::Kind::kernel) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return;  // an unwritable cache only costs time
  const std::string key = cache_key(r.check);
  const std::filesystem::path tmp = cache_file(dir, key).string() + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp);
    auto one_line = [](std::string s) {
      for (char& ch : s)
        if (ch == '\n') ch = ' ';
      return s;
    };
    f << key << "\n" << one_line(r.verdict.method) << "\n" << one_line(r.verdict.detail) << "\n";
  }
  std::filesystem::rename(tmp, cache_file(dir, key), ec);  // atomic: concurrent runs never see half a file
}

class Progress {
 public:
  Progress(bool on, std::size_t total) : on_(on), total_(total) {}
  void done(const CheckResult& r) {
    if (!on_) return;
    const std::lock_guard<std::mutex> lock(m_);
    ++count_;
    std::string line = "[" + std::to_string(count_) + "/" + std::to_string(total_) + "] " + r.check.id();
    if (line.size() > 100) line = line.substr(0, 97) + "...";
    std::cerr << "\r\033[K" << line << std::flush;
  }
  ~Progress() {
    if (on_) std::cerr << "\r\033[K" << std::flush;
  }

 private:
  bool on_;
  std::size_t total_, count_ = 0;
  std::mutex m_;
};

}  // namespace

std::string cache_key(const Check& c) {
  std::ostringstream k;
  k << "layoutproof " LAYOUTPROOF_VERSION << "|" << static_cast<int>(c.kind) << "|" << to_string(c.layout) << "|" << c.claim
    << "|bits " << c.element_bits;
  if (c.access) {
    const AccessSpec& a = c.access->spec;
    k << "|" << to_string(a.tile) << "|E" << a.elem_bytes << "|V" << a.vec << "|" << to_string(a.pattern) << "|N"
      << a.ldmatrix_count << "|base " << a.base_address << "|" << (a.byte_swizzle ? to_string(*a.byte_swizzle) : "-") << "|"
      << (a.thread_layout ? to_string(*a.thread_layout) : "-") << "|" << to_string(c.access->op) << "|W" << c.access->width_bytes;
  }
  return k.str();
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("LAYOUTPROOF_CACHE"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/layoutproof";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/layoutproof";
  return "";
}

std::vector<CheckResult> run_checks(const std::vector<Check>& checks, const RunOptions& o) {
  std::vector<CheckResult> results(checks.size());
  std::atomic<std::size_t> next{0};
  Progress progress(o.progress, checks.size());
  auto worker = [&] {
    for (std::size_t i = next++; i < checks.size(); i = next++) {
      if (o.cache_dir.empty() || !load_cached(o.cache_dir, checks[i], results[i])) {
        results[i] = proofs::run_check(checks[i], o.prove);
        if (!o.cache_dir.empty()) store_cached(o.cache_dir, results[i]);
      }
      progress.done(results[i]);
    }
  };
  const int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(checks.size())));
  std::vector<std::thread> pool;
  for (int j = 1; j < jobs; ++j) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return results;
}

}  // namespace layoutproof::cli
