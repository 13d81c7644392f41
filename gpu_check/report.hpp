#pragma once
// layoutproof-gpu output: the table (markdown, one row per check) and the JSON document.
#include <ostream>
#include <string>
#include <vector>

#include "gpu_check/checks.hpp"

namespace layoutproof::gpu {

// Per-instruction detail of a bank check, for the JSON output.
struct InstructionResult {
  std::string probe_case;   // name in the exported probe case file
  std::string op;
  int width = 0;
  int predicted = 0;        // wavefronts, model/bank/bank.hpp
  double ncu = -1;          // measured by Nsight Compute, -1: not measured
  double clock = -1;        // clock64 estimate, -1: not measured
};

struct CheckResult {
  const Check* check = nullptr;
  std::vector<InstructionResult> instructions;
};

std::string json_escape(const std::string& s);

// | check | claim | predicted | measured | agree | then a summary line. Returns the number of
// checks that disagree.
int print_table(std::ostream& os, const std::vector<CheckResult>& results, const std::string& device);
void print_json(std::ostream& os, const std::vector<CheckResult>& results, const std::string& device);

}  // namespace layoutproof::gpu
