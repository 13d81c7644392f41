// Every command's --help (cli/help.hpp): the prose of cli/help/ with the Options block each
// command's flag table generates, so that they share one layout (Usage, Options, Examples, Exit
// codes), one test runs every example, and the options listed are the options parsed.
#include "cli/help.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "cli/commands/algebra_command.hpp"
#include "cli/commands/bank_command.hpp"
#include "cli/commands/tensor_map_command.hpp"
#include "cli/commands/catalog_command.hpp"
#include "cli/commands/check_command.hpp"
#include "cli/commands/merge_command.hpp"
#include "cli/commands/print_command.hpp"
#include "cli/commands/prove_command.hpp"
#include "cli/commands/ptx_command.hpp"
#include "cli/commands/raster/raster_command.hpp"
#include "cli/commands/raster/scheduler_command.hpp"
#include "cli/commands/synth/synth_command.hpp"
#include "cli/commands/trace_command.hpp"
#include "cli/help/help_texts.hpp"
#include "cli/layout_input.hpp"

namespace layoutproof::cli {
namespace {

// Two worked examples per algebra operation (arguments after `layoutproof algebra OP`).
const std::map<std::string, std::vector<std::string>>& algebra_examples() {
  static const std::map<std::string, std::vector<std::string>> m = {
      {"size", {"'(8,(2,4)):(1,(8,16))'", "'Sw<3,4,3> o (8,64):(64,1)'"}},
      {"cosize", {"'(8,32):(32,1)'", "'(4,4):(1,8)'"}},
      {"rank", {"'(8,(2,4)):(1,(8,16))'", "'8:1'"}},
      {"depth", {"'(8,(2,4)):(1,(8,16))'", "'8:1'"}},
      {"call", {"'(8,32):(32,1)' 5", "'(8,32):(32,1)' '(1,2)'", "'Sw<3,3,3> o (8,64):(64,1)' 9"}},
      {"crd2idx", {"'(1,2)' '(4,8)'", "'(1,2)' '(4,8)' '(8,1)'"}},
      {"idx2crd", {"9 '(4,8)'", "9 '((2,2),8)'"}},
      {"coalesce", {"'(2,(1,6)):(1,(6,2))'", "'(2,4):(1,2)' '(1,1)'"}},
      {"filter", {"'(4,2):(1,0)'", "'(2,(1,4)):(0,(3,1))'"}},
      {"composition", {"'(8,32):(32,1)' '[4:1,8:4]'", "'(4,4):(4,1)' '8:2'", "'(8,64):(64,1)' 'Sw<3,3,3>'"}},
      {"complement", {"'4:2' 24", "'(2,2):(1,6)' 24"}},
      {"right_inverse", {"'(4,8):(8,1)'", "'Sw<3,3,3> o (8,64):(64,1)'"}},
      {"left_inverse", {"'(4,8):(8,1)'", "'4:2'"}},
      {"max_common_vector", {"'(8,32):(32,1)' '(8,32):(32,1)'", "'(8,32):(1,8)' '(8,32):(32,1)'"}},
      {"max_common_layout", {"'(8,32):(32,1)' '(8,32):(32,1)'", "'(8,32):(1,8)' '(8,32):(32,1)'"}},
      {"nullspace", {"'(4,2):(1,0)'", "'(2,4):(0,1)'"}},
      {"make_layout_like", {"'(4,8):(8,1)'", "'(2,(2,2)):(8,(1,2))'"}},
      {"domain_distribute", {"'(4,8)' 8", "'(4,(2,4))' 4"}},
      {"logical_divide", {"'(8,64):(64,1)' '[_,8:1]'", "'16:1' '4:1'"}},
      {"zipped_divide", {"'(8,64):(64,1)' '[2:1,8:1]'", "'16:1' '4:1'"}},
      {"tiled_divide", {"'(8,64):(64,1)' '[2:1,8:1]'", "'16:1' '4:1'"}},
      {"flat_divide", {"'(8,64):(64,1)' '[2:1,8:1]'", "'16:1' '4:1'"}},
      {"logical_product", {"'(2,2):(1,2)' '3:1'", "'(2,2):(2,1)' '[2:1,3:1]'"}},
      {"zipped_product", {"'(2,2):(2,1)' '[2:1,3:1]'", "'(2,4):(1,2)' '[3:1,2:1]'", "'4:1' '2:1'"}},
      {"tiled_product", {"'(2,2):(2,1)' '[2:1,3:1]'", "'(2,4):(1,2)' '[3:1,2:1]'", "'4:1' '2:1'"}},
      {"flat_product", {"'(2,2):(2,1)' '[2:1,3:1]'", "'(2,4):(1,2)' '[3:1,2:1]'", "'4:1' '2:1'"}},
      {"blocked_product", {"'(2,2):(1,2)' '(2,3):(1,2)'", "'(2,2):(2,1)' '(3,4):(1,3)'"}},
      {"raked_product", {"'(2,2):(1,2)' '(2,3):(1,2)'", "'(2,2):(2,1)' '(3,4):(1,3)'"}},
      {"swizzle", {"'Sw<3,3,3>' 9", "'Sw<3,4,3>' 128"}},
  };
  return m;
}

std::string algebra_op_help(const std::string& op) {
  // The operation's own one-line usage lives in its table (cli/commands/algebra_command.cpp).
  std::string usage = run_algebra_query({op, "--help"});
  if (usage.rfind("usage: ", 0) == 0) usage = usage.substr(7);
  std::string s = "Usage:\n  " + usage + "\n\nOptions:\n"
                  "  --cute-text       read the arguments as CuTe prints them (_8 static, 8 dynamic), print CuTe's text\n\n"
                  "Examples:\n";
  const auto it = algebra_examples().find(op);
  if (it != algebra_examples().end())
    for (const std::string& e : it->second) s += "  layoutproof algebra " + op + " " + e + "\n";
  return s + "\nlayoutproof algebra --help lists every operation (docs/algebra.md).\n"
             "Exit codes: 0 a result, 2 bad input (the message names the condition that fails).\n";
}

// One topic: its prose (cli/help/) and, where it has one, the flag table that makes its Options
// block; the column is where that block's help text starts (the layout the texts always had).
struct Topic {
  const char* prose;
  std::function<FlagTable()> flags;
  std::size_t column = 0;
};

const std::map<std::string, Topic>& table() {
  using namespace help_prose;
  static const std::map<std::string, Topic> t = {
    {"", {k_top, nullptr}},
    {"prove", {k_prove, prove_flags, 22}},
    {"print", {k_print, [] { return layout_flags("print"); }, 20}},
    {"eval", {k_eval, [] { return layout_flags("eval"); }, 20}},
    {"check", {k_check, check_flags, 22}},
    {"merge", {k_merge, merge_flags, 22}},
    {"catalog", {k_catalog, catalog_flags, 22}},
    {"bank", {k_bank, bank_flags, 22}},
    {"raster", {k_raster, nullptr}},
    {"raster prove", {k_raster_prove, [] { return raster_flags("prove"); }, 21}},
    {"raster locality", {k_raster_locality, [] { return raster_flags("locality"); }, 24}},
    {"raster trace", {k_raster_trace, [] { return scheduler_flags("trace"); }, 25}},
    {"synth", {k_synth, [] { return synth_flags(false); }, 20}},
    {"synth --kernel", {k_synth_kernel, [] { return synth_flags(true); }, 17}},
    {"trace", {k_trace, trace_flags, 17}},
    {"ptx", {k_ptx, [] { return compiled_flags(compiled::CompiledFormat::ptx); }, 19}},
    {"sass", {k_sass, [] { return compiled_flags(compiled::CompiledFormat::sass); }, 19}},
    {"tensor-map", {k_tensor_map, tensor_map_flags, 22}},
    {"demo", {k_demo, nullptr}},
  };
  return t;
}

// raster prove's text names the scheduler kinds' claims and flags from their own table, so the
// list cannot fall behind the parser (the full text: raster prove sm90-persistent --help).
std::string scheduler_flag_list() {
  std::string s;
  const FlagTable t = scheduler_flags("prove");
  for (const Flag& f : t.rows()) s += (s.empty() ? "" : ", ") + f.names.front();
  std::string wrapped, line = "  ";
  std::size_t at = 0;
  while (at < s.size()) {
    std::size_t next = s.find(", ", at);
    const std::string word = s.substr(at, next == std::string::npos ? std::string::npos : next + 1 - at);
    if (line.size() + word.size() > 100) wrapped += line.substr(0, line.size() - 1) + "\n", line = "  ";
    line += word + (next == std::string::npos ? "" : " ");
    at = next == std::string::npos ? s.size() : next + 2;
  }
  return wrapped + line + "\n";
}

}  // namespace

bool wants_help(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

std::string help_topic(const std::string& cmd, const std::vector<std::string>& args) {
  const auto has = [&](const char* w) { return std::find(args.begin(), args.end(), w) != args.end(); };
  if (cmd == "raster" && !args.empty() && args[0] == "prove" && args.size() > 1 && (args[1].rfind("sm90-", 0) == 0 || args[1].rfind("sm100-", 0) == 0))
    return "raster trace";  // the scheduler kinds' prove flags are the trace text's
  if (cmd == "raster" && !args.empty() && (args[0] == "prove" || args[0] == "locality" || args[0] == "trace")) return "raster " + args[0];
  if (cmd == "synth" && has("--kernel")) return "synth --kernel";
  if (cmd == "algebra" && !args.empty() && args[0].rfind("-", 0) != 0 && args[0] != "help") return "algebra " + args[0];
  return cmd;
}

std::optional<std::string> help_text(const std::string& topic) {
  if (topic == "algebra") return "layoutproof algebra: one CuTe layout-algebra operation per query.\n\nUsage:\n" + algebra_help() + help_prose::k_algebra_tail;
  if (topic.rfind("algebra ", 0) == 0) {
    const std::string op = topic.substr(8);
    const auto& ops = algebra_ops();
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) return std::nullopt;
    return algebra_op_help(op);
  }
  const auto it = table().find(topic);
  if (it == table().end()) return std::nullopt;
  std::string s = it->second.prose;
  if (it->second.flags) {
    const std::size_t at = s.find("@OPTIONS@\n");
    FlagTable t = it->second.flags();
    t.column(it->second.column);
    if (at != std::string::npos) s.replace(at, 10, t.options_block());
  }
  if (const std::size_t at = s.find("@SCHEDULER_FLAGS@\n"); at != std::string::npos) s.replace(at, 18, scheduler_flag_list());
  // The commands that take a layout end with how C++ input is given (cli/layout_input.hpp).
  if (topic == "prove") s += cpp_input_help("layoutproof prove", "", "--claim bijective");
  if (topic == "print") s += cpp_input_help("layoutproof print");
  if (topic == "eval") s += cpp_input_help("layoutproof eval");
  if (topic == "check") s += cpp_input_help("layoutproof check spec.yaml -D", "'bM=Int<64>{}'");
  if (topic == "synth")
    s += cpp_input_help("layoutproof synth --tile", "'make_layout(make_shape(bM, bK), LayoutRight{})'",
                        "-D 'bM=Int<8>{}' -D 'bK=Int<64>{}' --elem-bytes 2 --pattern ldmatrix");
  return s;
}

std::optional<FlagTable> help_flag_table(const std::string& topic) {
  const auto it = table().find(topic);
  if (it == table().end() || !it->second.flags) return std::nullopt;
  return it->second.flags();
}

std::vector<std::string> help_topics() {
  std::vector<std::string> v;
  for (const auto& [topic, entry] : table()) v.push_back(topic);
  v.push_back("algebra");
  for (const std::string& op : algebra_ops()) v.push_back("algebra " + op);
  return v;
}

}  // namespace layoutproof::cli
