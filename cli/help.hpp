#pragma once
// Every command's --help in one table: usage, each option with a one-line meaning, and
// two or more worked examples that run as written (tests/cli/help_test.sh runs each one).
// The prose is cli/help/'s; the Options block is generated from the command's flag table
// (cli/flags/flag_table.hpp), the one its parser runs, so the two list the same flags. The table
// of topics is cli/help/help_table.cpp: it names every command's flag table, so it lives above
// cli/commands/, which calls these functions through this header.
//
// A text is laid out as
//   Usage:     the command lines
//   Options:   one row per flag of the command's table (help_flag_table)
//   Examples:  shell commands only (comments start with '#'), copy-pasteable from the repository
//              root; the block ends at the first line that is not indented
//   Exit codes ...
// Topics: "" (layoutproof --help), "prove", "print", "eval", "algebra", "algebra OP", "synth",
// "synth --kernel", "trace", "check", "catalog", "bank", "raster", "raster prove",
// "raster locality", "demo".
//   help_topic("raster", {"prove", "--help"}) == "raster prove"
//   help_topic("synth", {"--kernel", "-h"})  == "synth --kernel"
#include <optional>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// True when args holds --help or -h (a command asked for its help).
bool wants_help(const std::vector<std::string>& args);

// The topic `layoutproof CMD ARGS...` asks help for: the subcommand (raster prove, raster locality,
// synth --kernel, algebra OP) when ARGS name one, else CMD.
std::string help_topic(const std::string& cmd, const std::vector<std::string>& args);

// The help of `topic`; nullopt for an unknown topic.
std::optional<std::string> help_text(const std::string& topic);

// Every topic, for `layoutproof help` and the help test.
std::vector<std::string> help_topics();

// The flag table whose rows make `topic`'s Options block; nullopt for a topic without one ("",
// raster, demo, the algebra topics). For the test that parser and help agree.
std::optional<FlagTable> help_flag_table(const std::string& topic);

}  // namespace layoutproof::cli
