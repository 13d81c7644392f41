#include "cli/spec/check_runner.hpp"

#include <atomic>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli/spec/verdict_cache.hpp"
#include "proofs/claims/ptx_claims.hpp"

namespace layoutproof::cli {
namespace {

using proofs::Check;
using proofs::CheckResult;
using proofs::Verdict;

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

std::vector<CheckResult> run_checks(const std::vector<Check>& checks, const RunOptions& o) {
  // Per check, its results: one, or a compiled entry's one per (kernel, instruction, claim).
  std::vector<std::vector<CheckResult>> results(checks.size());
  std::atomic<std::size_t> next{0};
  Progress progress(o.progress, checks.size());
  auto worker = [&] {
    for (std::size_t i = next++; i < checks.size(); i = next++) {
      const proofs::Deadline& deadline = o.prove.smt.deadline;
      std::optional<CheckResult> cached;
      if (checks[i].kind == Check::Kind::compiled) {  // its kernels run here (never cached: the file is its input)
        results[i] = proofs::run_compiled(checks[i], o.prove);
      } else if (deadline.passed()) {  // not started by the deadline: UNKNOWN, whatever a cache holds
        results[i] = {CheckResult{checks[i], Verdict::unknown("deadline", deadline.reason()), std::nullopt, std::nullopt, std::nullopt}};
      } else if (!o.cache_dir.empty() && (cached = load_cached(o.cache_dir, checks[i], o.fingerprint))) {
        results[i] = {std::move(*cached)};
      } else {
        results[i] = {proofs::run_check(checks[i], o.prove)};
        if (!o.cache_dir.empty()) store_cached(o.cache_dir, results[i].front(), o.fingerprint);
      }
      for (CheckResult& r : results[i]) r.verdict = deadline.expire(std::move(r.verdict));  // finished after it: UNKNOWN
      if (!results[i].empty()) progress.done(results[i].front());
    }
  };
  const int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(checks.size())));
  std::vector<std::thread> pool;
  for (int j = 1; j < jobs; ++j) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  std::vector<CheckResult> out;
  for (auto& rs : results)
    for (auto& r : rs) out.push_back(std::move(r));
  return out;
}

}  // namespace layoutproof::cli
