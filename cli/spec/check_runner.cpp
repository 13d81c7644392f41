#include "cli/spec/check_runner.hpp"

#include <atomic>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "cli/spec/verdict_cache.hpp"
#include "model/support/checked.hpp"
#include "proofs/check/run_check.hpp"

namespace layoutproof::cli {
namespace {

using proofs::Check;
using proofs::CheckResult;

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

// Checks that may ask the same question share a key. A check the cache keys (cacheable) asks the
// same as another with its cache key and its own time limit (which can change an UNKNOWN). A kernel
// copy's claim asks the same as another on an equal trace (its whole question), so its key is the
// claim and a summary of the trace, and the traces are compared. Empty: a check decided on its own
// (compiled entries, a kernel's `layout: synthesize`, reports).
std::string repeat_key(const Check& c) {
  const std::string limit = c.deadline_s ? "|deadline_s " + std::to_string(*c.deadline_s) : std::string();
  if (cacheable(c)) return cache_key(c, "") + limit;
  if (const auto* s = std::get_if<proofs::CopySubject>(&c.subject))
    return "kernel|" + c.claim.text + limit + "|" + s->trace->provenance + "|" + std::to_string(s->trace->instructions.size());
  return "";
}

bool same_question(const Check& a, const Check& b) {
  const auto* x = std::get_if<proofs::CopySubject>(&a.subject);
  const auto* y = std::get_if<proofs::CopySubject>(&b.subject);
  return !x || !y || x->trace == y->trace || *x->trace == *y->trace;
}

// For each check, the index of the first check of the run asking the same question (itself when
// it is the first).
std::vector<std::size_t> first_of_each(const std::vector<Check>& checks) {
  std::vector<std::size_t> first(checks.size());
  std::map<std::string, std::vector<std::size_t>> firsts;  // by key
  for (std::size_t i = 0; i < checks.size(); ++i) {
    first[i] = i;
    const std::string key = repeat_key(checks[i]);
    if (key.empty()) continue;
    std::vector<std::size_t>& same_key = firsts[key];
    for (const std::size_t j : same_key)
      if (same_question(checks[i], checks[j])) {
        first[i] = j;
        break;
      }
    if (first[i] == i) same_key.push_back(i);
  }
  return first;
}

// A repeat takes the verdict of the claim it repeats, and says so; its time is the first's alone.
CheckResult repeat_of(const CheckResult& first, const Check& c) {
  CheckResult r = first;
  r.check = c;
  r.verdict.method = kRepeatPrefix + first.check.id() + ": " + first.verdict.method;
  r.verdict.time_ms = 0;
  return r;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) throw LayoutError("--shard takes K/N (e.g. 2/3), not '" + text + "'");
  Shard s;
  s.n = static_cast<int>(parse_int_in(text.substr(slash + 1), "--shard's N", 1, 1024));
  s.k = static_cast<int>(parse_int_in(text.substr(0, slash), "--shard's K", 1, s.n));
  return s;
}

namespace {

std::uint64_t fnv1a(std::uint64_t h, const std::string& bytes) {
  for (const unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}
constexpr std::uint64_t kFnvBasis = 1469598103934665603ull;

}  // namespace

int shard_of(const std::string& id, int n) { return static_cast<int>(fnv1a(kFnvBasis, id) % static_cast<std::uint64_t>(n)); }

std::string claims_fingerprint(const std::vector<Check>& checks) {
  std::uint64_t h = kFnvBasis;
  for (const Check& c : checks) h = fnv1a(h, c.id() + "\n");
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

bool is_repeat(const CheckResult& r) { return r.verdict.method.rfind(kRepeatPrefix, 0) == 0; }

std::vector<CheckResult> run_checks(const std::vector<Check>& checks, const RunOptions& o) {
  const std::vector<std::size_t> first = first_of_each(checks);
  // Under --shard, the checks of this part: those whose repeat group's first falls in it.
  std::vector<bool> mine(checks.size(), true);
  if (o.shard.n > 1)
    for (std::size_t i = 0; i < checks.size(); ++i) mine[i] = shard_of(checks[first[i]].id(), o.shard.n) == o.shard.k - 1;
  std::vector<std::size_t> todo;  // the distinct checks
  for (std::size_t i = 0; i < checks.size(); ++i)
    if (first[i] == i && mine[i]) todo.push_back(i);
  // Per check, its results: one, or a compiled entry's one per (kernel, instruction, claim).
  std::vector<std::vector<CheckResult>> results(checks.size());
  const proofs::Deadline& deadline = o.prove.smt.deadline;
  Progress progress(o.progress, todo.size());
  // The cache is read for every distinct check before any is decided, so that "from cache" means
  // a verdict an earlier run stored, never one this run has just written.
  std::vector<std::size_t> undecided;
  for (const std::size_t i : todo) {
    std::optional<CheckResult> cached;
    if (!o.cache_dir.empty() && !deadline.passed() && (cached = load_cached(o.cache_dir, checks[i], o.fingerprint))) {
      results[i] = {std::move(*cached)};
      progress.done(results[i].front());
    } else {
      undecided.push_back(i);
    }
  }
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k = next++; k < undecided.size(); k = next++) {
      const std::size_t i = undecided[k];
      results[i] = proofs::run_check(checks[i], o.prove);  // not started by the deadline: UNKNOWN
      if (!o.cache_dir.empty())
        for (const CheckResult& r : results[i]) store_cached(o.cache_dir, r, o.fingerprint);  // what is cacheable
      for (CheckResult& r : results[i]) r.verdict = deadline.expire(std::move(r.verdict));  // finished after it: UNKNOWN
      if (!results[i].empty()) progress.done(results[i].front());
    }
  };
  const int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(undecided.size())));
  std::vector<std::thread> pool;
  for (int j = 1; j < jobs; ++j) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  for (std::size_t i = 0; i < checks.size(); ++i)
    if (first[i] != i && mine[i]) results[i] = {repeat_of(results[first[i]].front(), checks[i])};
  std::vector<CheckResult> out;
  for (std::size_t i = 0; i < checks.size(); ++i)
    for (CheckResult& r : results[i]) {
      r.position = static_cast<std::int64_t>(i);
      out.push_back(std::move(r));
    }
  return out;
}

}  // namespace layoutproof::cli
