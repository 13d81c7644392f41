// layoutproof: prove GPU memory layouts correct before they ship.
#include <malloc.h>

#include <cstring>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands/algebra_command.hpp"
#include "cli/commands/bank_command.hpp"
#include "cli/commands/catalog_command.hpp"
#include "cli/help.hpp"
#include "cli/commands/check_command.hpp"
#include "cli/commands/merge_command.hpp"
#include "cli/commands/print_command.hpp"
#include "cli/commands/ptx_command.hpp"
#include "cli/commands/tensor_map_command.hpp"
#include "cli/commands/raster/raster_command.hpp"
#include "cli/commands/synth/synth_command.hpp"
#include "cli/commands/trace_command.hpp"
#include "cli/commands/prove_command.hpp"
#include "cli/flags/suggest.hpp"
#include "cli/output/atomic_file.hpp"
#include "cli/tokens.hpp"
#include "model/layout/notation.hpp"

namespace {

using namespace layoutproof;

std::string join_args(int argc, char** argv, int from) {
  std::string s;
  for (int i = from; i < argc; ++i) {
    if (i > from) s += ' ';
    s += argv[i];
  }
  return s;
}

int algebra(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[2], "-") == 0)
    return cli::run_algebra_batch(std::cin, std::cout, cli::tokenize(join_args(argc, argv, 3)));
  std::cout << cli::run_algebra_query(cli::tokenize(join_args(argc, argv, 2))) << "\n";
  return 0;
}

int demo() {
  std::cout << "The SM80 half-precision K-major shared-memory atom (CUTLASS), 16-byte rows of 8 halves:\n\n";
  cli::print_layout_table(std::cout, parse_any_layout("Sw<3,3,3> o 0 o (8,64):(64,1)"), 2);
  std::cout << "\nLayout algebra on the same tile:\n";
  for (const char* q : {"size (8,64):(64,1)", "composition (8,64):(64,1) [4:1,8:8]",
                        "logical_divide (8,64):(64,1) [_,8:1]", "complement (8,8):(64,1) 4096",
                        "right_inverse (8,64):(64,1)", "call Sw<3,3,3> o 0 o (8,64):(64,1) (1,8)"}) {
    std::cout << "  " << q << "  =>  " << cli::run_algebra_query(cli::tokenize(q)) << "\n";
  }
  return 0;
}

// Every subcommand, for the suggestion an unknown one gets ("provee": did you mean prove?).
const std::vector<std::string>& commands() {
  static const std::vector<std::string> v = {"algebra", "eval",  "print", "demo", "bank",  "prove",   "check",
                                             "merge",   "raster",  "trace", "ptx",   "sass", "synth", "catalog", "tensor-map",
                                             "help"};
  return v;
}

// `layoutproof help [SUB ...]`, `layoutproof SUB ... --help`: the help table (cli/help.hpp).
int help(const std::string& cmd, const std::vector<std::string>& rest) {
  const std::string topic = cli::help_topic(cmd, rest);
  if (const auto text = cli::help_text(topic)) {
    std::cout << *text;
    return 0;
  }
  if (topic.rfind("algebra ", 0) == 0)
    throw LayoutError("unknown algebra operation '" + topic.substr(8) + "'" + cli::did_you_mean(topic.substr(8), cli::algebra_ops()) +
                      " (see layoutproof algebra --help)");
  throw LayoutError("no help for '" + topic + "': unknown command" + cli::did_you_mean(topic, cli::help_topics()) + " (see layoutproof --help)");
}

int dispatch(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::cout << *cli::help_text("");
    return argc < 2 ? 2 : 0;
  }
  const std::string cmd = argv[1];
  const std::vector<std::string> rest(argv + 2, argv + argc);
  if (cmd == "help") return rest.empty() ? help("", {}) : help(rest[0], {rest.begin() + 1, rest.end()});
  if (cmd == "--version") {
    std::cout << "layoutproof " LAYOUTPROOF_VERSION "\n";
    return 0;
  }
  // `algebra -` reads queries from stdin: a `--help` there is a query's, not the command's.
  const bool batch = cmd == "algebra" && !rest.empty() && rest[0] == "-";
  if (cli::wants_help(rest) && !batch) return help(cmd, rest);
  if (cmd == "algebra") return algebra(argc, argv);
  if (cmd == "eval") return cli::run_eval(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "print") return cli::run_print(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "demo") return demo();
  if (cmd == "bank") return cli::run_bank(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "prove") return cli::run_prove(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "check") return cli::run_check_command(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "merge") return cli::run_merge(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "raster") return cli::run_raster(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "trace") return cli::run_trace(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "ptx") return cli::run_ptx_command(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "sass")
    return cli::run_compiled_command(std::vector<std::string>(argv + 2, argv + argc), std::cout, compiled::CompiledFormat::sass);
  if (cmd == "tensor-map") return cli::run_tensor_map(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "synth") return cli::run_synth(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  if (cmd == "catalog") return cli::run_catalog(std::vector<std::string>(argv + 2, argv + argc), std::cout);
  throw LayoutError(cli::unknown_word("command", cmd, commands()) + " (see layoutproof --help)");
}

}  // namespace

// Errors by layer (conventions.md #13): bad input is a LayoutError (exit 2, one located line);
// what the C++ library throws is never shown raw ("stoi", "std::bad_alloc", "vector::reserve"):
// running out of memory says so (exit 3), a file the command cannot write names the file (exit 2),
// anything else is an internal error (exit 3).
int main(int argc, char** argv) {
  cli::install_interrupt_cleanup();  // SIGINT/SIGTERM: no half-written output, exit 130/143
  // Every Z3 query makes and frees a context of a few MB: with glibc's defaults each one is mapped
  // and returned to the kernel again, page by page, which cost a symbolic SGEMM proof more system
  // time than Z3's own (docs/performance.md, "Every launch"). Freed memory stays in the process.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  const std::string running = std::string("layoutproof") + (argc >= 2 ? std::string(" ") + argv[1] : "");
  try {
    return dispatch(argc, argv);
  } catch (const ParseError& e) {
    std::cerr << "error: " << e.what() << "\n" << e.caret() << "\n";
  } catch (const LayoutError& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of memory while running " << running << " (the input asks for more memory than there is; use smaller sizes)\n";
    return 3;
  } catch (const std::length_error&) {  // a size past what a vector or string can hold
    std::cerr << "error: out of memory while running " << running << " (a size too large to allocate; use smaller sizes)\n";
    return 3;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "error: cannot use '" << e.path1().string() << "': " << e.code().message() << "\n";
  } catch (const std::exception&) {
    std::cerr << "error: internal error while running " << running << " (an unexpected library exception); please report it with the command line\n";
    return 3;
  }
  return 2;
}
