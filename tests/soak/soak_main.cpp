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
    else {
      std::cerr << "usage: soundness_soak [--claims N] [--seed S] [--first I] [--jobs J] [--kinds layout,bank,trace,raster] [--quiet]\n";
      return 2;
    }
  }
  std::vector<Case (*)(Rng&)> gens;
  // Weights: layout claims are the cheapest and most varied; each kind gets a fixed share.
  // Rasterization claims cost about 1 s of Z3 each (minimized witnesses over symbolic grids), so
  // they get 1 share in 20.
  if (kinds.find("layout") != std::string::npos) gens.insert(gens.end(), 8, &layout_case);
  if (kinds.find("bank") != std::string::npos) gens.insert(gens.end(), 6, &bank_case);
  if (kinds.find("trace") != std::string::npos) gens.insert(gens.end(), 5, &trace_case);
  if (kinds.find("raster") != std::string::npos) gens.insert(gens.end(), 1, &raster_case);
  if (gens.empty()) return 2;
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
  return total.disagreements ? 1 : 0;
}
