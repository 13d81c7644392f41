#pragma once
// Where a claim or an instruction is written: a file, its line and column (1-based; 0: the whole
// file or line). An empty file is built in, or given on the command line.
#include <string>

namespace layoutproof {

struct SourceLocation {
  std::string file;  // empty: built in
  int line = 0;
  int column = 0;
};

}  // namespace layoutproof
