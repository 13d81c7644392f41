#pragma once
// LP_PROP: a RapidCheck property as a GoogleTest test with its own number of cases.
//
//   LP_PROP(Suite, Name, 200, (const Layout& l)) { RC_ASSERT(...); }
//
// Cases: the number given (chosen so all properties together fit CI: 2 cores, well under 2
// minutes). LAYOUTPROOF_SOAK=1 multiplies it by 100 (a long soak). RC_PARAMS is still honoured:
// when it sets max_success that number wins; seed=S fixes the seed; reproduce=... replays a
// failure (RapidCheck prints that string at exit). Every run prints "passed N cases (seed S)";
// a failure prints the shrunk counterexample, the seed and how to rerun it.
#include <cstdlib>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace layoutproof::props {

inline int soak_factor() {
  const char* s = std::getenv("LAYOUTPROOF_SOAK");
  return (s && *s && std::string(s) != "0") ? 100 : 1;
}

inline bool rc_params_sets(const char* key) {
  const char* p = std::getenv("RC_PARAMS");
  return p && std::string(p).find(key) != std::string::npos;
}

template <class Testable>
void check_property(const char* suite, const char* name, int cases, Testable&& testable) {
  using namespace rc::detail;
  TestParams params = configuration().testParams;
  if (!rc_params_sets("max_success")) params.maxSuccess = cases * soak_factor();
  TestMetadata metadata;
  metadata.id = std::string(suite) + "/" + name;  // the key RC_PARAMS="reproduce=..." uses
  metadata.description = name;
  const auto result = checkTestable(std::forward<Testable>(testable), metadata, params);
  std::ostringstream ss;
  printResultMessage(result, ss);
  if (result.template is<SuccessResult>()) {
    std::cout << metadata.id << ": passed " << params.maxSuccess << " cases (seed " << params.seed << ")\n";
    if (!result.template get<SuccessResult>().distribution.empty()) std::cout << ss.str() << "\n";
  } else {
    FAIL() << ss.str() << "\nseed " << params.seed << ", " << params.maxSuccess
           << " cases; rerun with RC_PARAMS=\"seed=" << params.seed << "\" (or the reproduce=... string RapidCheck "
           << "prints at exit)";
  }
}

}  // namespace layoutproof::props

#define LP_PROP(Suite, Name, Cases, ArgList)                                          \
  void lp_prop_##Suite##_##Name ArgList;                                              \
  TEST(Suite, Name) {                                                                 \
    ::layoutproof::props::check_property(#Suite, #Name, Cases, &lp_prop_##Suite##_##Name); \
  }                                                                                   \
  void lp_prop_##Suite##_##Name ArgList
