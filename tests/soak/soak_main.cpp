// soundness_soak: the driver (usage in soak.hpp). Cases are independent and drawn from their own
// seed, so --jobs J splits them over J threads without changing any case.
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "tests/soak/soak.hpp"

namespace soak {

std::string sh(const std::string& s) {
  std::string o = "'";
  for (char ch : s) o += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return o + "'";
}

namespace {
std::string expected(const std::string& ref) {
  return ref == "holds" ? "PROVED" : ref == "fails" ? "REFUTED" : "ERROR";
}
}  // namespace

void Tally::add(const Case& c, std::int64_t index) {
  ++cases;
  counts[c.kind + " " + c.claim][c.exhaustive + "/" + c.z3 + "/" + c.reference]++;
  bool bad = false, unsound = false;
  for (const std::string* v : {&c.exhaustive, &c.z3}) {
    if (*v == "n/a") continue;
    if (*v == "UNKNOWN" && v == &c.z3) {
      ++unknown;
      continue;
    }
    if (*v == "PROVED" && c.reference != "holds") unsound = true;
    if (*v != expected(c.reference)) bad = true;
  }
  if (!bad) return;
  ++disagreements;
  if (unsound) ++soundness;
  if (failures.size() < 20) {
    std::ostringstream o;
    o << (unsound ? "SOUNDNESS FAILURE" : "DISAGREEMENT") << " case " << index << " (seed " << seed << ", replay: --seed "
      << seed << " --first " << index << " --claims 1)\n  " << c.kind << " " << c.subject << "\n  exhaustive " << c.exhaustive
      << ", z3 " << c.z3 << ", reference " << c.reference << "\n  reproducer: " << c.repro << "\n  " << c.detail << "\n";
    failures.push_back(o.str());
  }
}

// The compiled kind's run and its figures (soak.hpp): exit 1 on any wrong verdict or other failure.
int run_compiled(const CompiledOptions& opt, std::int64_t kernels, std::int64_t first, int jobs, bool quiet) {
  std::cout << "compiled soak: " << kernels << " kernels from kernel " << first << ", seed " << opt.seed << ", "
            << opt.symbolic_percent << "% with free parameters, " << jobs << " job(s)" << (opt.skip_known ? ", --skip-known" : "")
            << "\n" << std::flush;
  const auto t0 = std::chrono::steady_clock::now();
  CompiledTally total;
  std::mutex mu;
  std::vector<std::thread> pool;
  for (int j = 0; j < jobs; ++j)
    pool.emplace_back([&, j] {
      for (std::int64_t i = first + j; i < first + kernels; i += jobs) {
        CompiledTally one;
        compiled_case(i, opt, one);
        std::lock_guard<std::mutex> lock(mu);
        total.merge(one);
        if (!quiet && total.kernels % 1000 == 0)
          std::cout << "  " << total.kernels << " kernels, " << total.wrong_proved << " wrong PROVED, " << total.wrong_refuted
                    << " wrong REFUTED, " << total.other_failures << " other failures ...\n" << std::flush;
      }
    });
  for (auto& t : pool) t.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "\nclaim truth                         PROVED  REFUTED  UNKNOWN    ERROR\n";
  for (const auto& [k, m] : total.table) {
    const auto n = [&](const char* v) { const auto it = m.find(v); return it == m.end() ? std::int64_t{0} : it->second; };
    std::cout << "  " << std::left << std::setw(32) << k << std::right << std::setw(8) << n("PROVED") << std::setw(9) << n("REFUTED")
              << std::setw(9) << n("UNKNOWN") << std::setw(9) << n("ERROR") << "\n";
  }
  std::cout << "\nUNKNOWN by reason:\n";
  for (const auto& [k, n] : total.unknown_by_reason) std::cout << "  " << std::setw(8) << n << "  " << k << "\n";
  if (!total.errors_by_reason.empty()) std::cout << "ERROR by message:\n";
  for (const auto& [k, n] : total.errors_by_reason) std::cout << "  " << std::setw(8) << n << "  " << k << "\n";
  for (const std::string& f : total.reports) std::cout << "\n" << f;
  const auto v = [&](const char* k) { const auto it = total.verdicts.find(k); return it == total.verdicts.end() ? std::int64_t{0} : it->second; };
  std::cout << "\n" << total.kernels << " kernels (" << total.symbolic << " with free parameters), " << total.runs << " runs (PTX and SASS), "
            << total.cut_runs << " past a cut call, in " << std::fixed << std::setprecision(1) << secs << " s (seed " << opt.seed << "): "
            << v("PROVED") + v("REFUTED") + v("UNKNOWN") + v("ERROR") << " verdicts: " << v("PROVED") << " PROVED, " << v("REFUTED")
            << " REFUTED, " << v("UNKNOWN") << " UNKNOWN, " << v("ERROR") << " ERROR; " << total.wrong_proved << " wrong PROVED, "
            << total.wrong_refuted << " wrong REFUTED (" << total.known_class << " of them in known defect classes), " << total.other_failures
            << " other failures in " << total.failing_runs << " runs"
            << (opt.skip_known ? ", " + std::to_string(total.skipped_known) + " verdicts of known defect classes skipped" : "") << "\n"
            << "  with free parameters: " << total.symbolic_verdicts["PROVED"] << " PROVED, " << total.symbolic_verdicts["REFUTED"] << " REFUTED, "
            << total.symbolic_verdicts["UNKNOWN"] << " UNKNOWN, " << total.symbolic_verdicts["ERROR"] << " ERROR\n"
            << "  past a cut call (PTX): " << total.cut_verdicts["PROVED"] << " PROVED, " << total.cut_verdicts["REFUTED"] << " REFUTED, "
            << total.cut_verdicts["UNKNOWN"] << " UNKNOWN, " << total.cut_verdicts["ERROR"] << " ERROR\n"
            << "  (" << total.traces_compared << " sites' issues and " << total.counts_compared << " sites' wavefronts compared with the brute force; "
            << "brute force " << total.reference_s << " s, product " << total.product_s << " s)\n";
  return total.wrong_proved || total.wrong_refuted || total.other_failures ? 1 : 0;
}

}  // namespace soak

int main(int argc, char** argv) {
  using namespace soak;
  const char* env = std::getenv("LAYOUTPROOF_SOAK");
  const bool long_run = env && *env && std::string(env) != "0";
  std::int64_t claims = long_run ? 100000 : 600, first = 0;
  std::uint64_t seed = 20261124;
  int jobs = 1;
  bool quiet = false;
  std::string kinds = "layout,bank,trace,raster";
  std::int64_t kernels = long_run ? 20000 : 60;
  CompiledOptions copt;
  const char* tmp = std::getenv("TMPDIR");
  copt.keep_dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/layoutproof-soak-compiled";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "error: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--claims") claims = std::stoll(next());
    else if (a == "--seed") seed = std::stoull(next());
    else if (a == "--first") first = std::stoll(next());
    else if (a == "--jobs") jobs = std::max(1, std::stoi(next()));
    else if (a == "--kinds") kinds = next();
    else if (a == "--quiet") quiet = true;
    else if (a == "--kernels") kernels = std::stoll(next());
    else if (a == "--skip-known") copt.skip_known = true;
    else if (a == "--show") copt.show = true;
    else if (a == "--symbolic-percent") copt.symbolic_percent = std::stoi(next());
    else if (a == "--keep") copt.keep_dir = next();
    else if (a == "--timeout-ms") copt.timeout_ms = static_cast<unsigned>(std::stoul(next()));
    else {
      std::cerr << "usage: soundness_soak [--claims N] [--seed S] [--first I] [--jobs J] [--kinds layout,bank,trace,raster,compiled] [--quiet]\n"
                   "                      [--kernels N] [--skip-known] [--symbolic-percent P] [--keep DIR] [--timeout-ms T]\n";
      return 2;
    }
  }
  copt.seed = seed;
  const bool compiled = kinds.find("compiled") != std::string::npos;
  std::vector<Case (*)(Rng&)> gens;
  // Weights: layout claims are the cheapest and most varied; each kind gets a fixed share.
  // Rasterization claims cost about 1 s of Z3 each (minimized witnesses over symbolic grids), so
  // they get 1 share in 20.
  if (kinds.find("layout") != std::string::npos) gens.insert(gens.end(), 8, &layout_case);
  if (kinds.find("bank") != std::string::npos) gens.insert(gens.end(), 6, &bank_case);
  if (kinds.find("trace") != std::string::npos) gens.insert(gens.end(), 5, &trace_case);
  if (kinds.find("raster") != std::string::npos) gens.insert(gens.end(), 1, &raster_case);
  if (gens.empty()) return compiled ? run_compiled(copt, kernels, first, jobs, quiet) : 2;
  std::cout << "soundness soak: " << claims << " claims from case " << first << ", seed " << seed << ", kinds " << kinds
            << ", " << jobs << " job(s)\n" << std::flush;
  const auto t0 = std::chrono::steady_clock::now();
  Tally total;
  total.seed = seed;
  std::mutex mu;
  std::vector<std::thread> pool;
  for (int j = 0; j < jobs; ++j)
    pool.emplace_back([&, j] {
      for (std::int64_t i = first + j; i < first + claims; i += jobs) {
        Rng rng(seed * 1000003u + static_cast<std::uint64_t>(i));
        const auto gen = gens[static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(gens.size()) - 1))];
        const Case c = gen(rng);
        std::lock_guard<std::mutex> lock(mu);
        total.add(c, i);
        if (!quiet && total.cases % 10000 == 0) std::cout << "  " << total.cases << " claims ...\n" << std::flush;
      }
    });
  for (auto& t : pool) t.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "\nclaim kind / claim                 exhaustive/z3/reference      count\n";
  for (auto& [k, m] : total.counts)
    for (auto& [v, n] : m) std::cout << "  " << std::left << std::setw(32) << k << std::setw(30) << v << std::right << n << "\n";
  for (const std::string& f : total.failures) std::cout << "\n" << f;
  std::cout << "\n" << total.cases << " claims in " << std::fixed << std::setprecision(1) << secs << " s (seed " << seed
            << "): " << total.disagreements << " disagreements, " << total.soundness << " soundness failures (PROVED where the "
            << "reference refutes), " << total.unknown << " z3 UNKNOWN\n";
  const int rc = total.disagreements ? 1 : 0;
  return compiled ? std::max(rc, run_compiled(copt, kernels, first, jobs, quiet)) : rc;
}
