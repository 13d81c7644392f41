// Fuzz target: the algebra query (`layoutproof algebra -`: one query a line, cli/commands/algebra_command.hpp),
// each line read as written and with --cute-text. Every answer is a result or a LayoutError.
// Invariant: `size`, `rank` and `depth` of a layout agree with the layout the notation parser gives.
#include <sstream>

#include "cli/commands/algebra_command.hpp"
#include "cli/tokens.hpp"
#include "fuzz/fuzz_common.hpp"
#include "model/layout/layout.hpp"
#include "model/layout/notation.hpp"

using namespace layoutproof;
using layoutproof::fuzz::accepted;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  std::istringstream in(fuzz::text_of(data, size));
  std::string line;
  for (int lines = 0; lines < 16 && std::getline(in, line); ++lines) {
    std::vector<std::string> words;
    if (!accepted([&] { words = cli::tokenize(line); })) continue;
    for (const bool cute : {false, true}) {
      std::string answer;
      if (!accepted([&] { answer = cli::run_algebra_query(words, cute); })) continue;
      if (words.size() != 2 || words[0] != "rank" || cute) continue;
      AnyLayout l;
      if (!accepted([&] { l = parse_any_layout(words[1]); })) continue;
      const std::string rank = std::to_string(l.layout.shape.rank());
      FUZZ_REQUIRE(answer == rank, "algebra rank agrees with the parsed layout", line, answer);
    }
  }
  return 0;
}
