#pragma once
// One table per command: each flag is a row (its spellings, its value's name, its meaning, what it
// sets), and the same rows make the command's parser and the Options block of its --help, so the
// two cannot drift (conventions.md #18: flags declared once).
//
// Why our own table and not CLI11's App: the command's messages are part of its interface (tests
// assert them): a bad token is named with a suggestion ("unknown option '--clam' for layoutproof
// prove (did you mean --claim?)"), every bad input is a LayoutError (exit 2 through main), values
// keep their existing forms (`--json [FILE]` takes FILE only when it ends in .json, `-j4`,
// `-DNAME=EXPR`, values that start with '-' such as `--base -1`), repeated flags accumulate in the
// row's setter (`--claim`), and the Options block keeps the layout of the hand-written texts.
//
// Parsing `args` (the words after the subcommand):
//   - a word that names a row ("--claim", or a glued form: "--claim=C", "-j4", "-DN=E") runs its
//     setter with the value: the next word, the text after '=' or after the short name;
//   - a row without a value (a switch) runs its setter with "";
//   - an optional-value row (`--json [FILE]`) takes the next word when `takes(word)` says so;
//   - any other word that starts with "--", or with '-' and a letter, is an unknown option: a
//     LayoutError naming it, with the closest spelling (model/atoms/name_suggest.hpp) or the list;
//   - everything else is positional, handed in order to the positional setter (none: refused).
// @pre every spelling is unique in one table.
// @post parse() either calls setters in argument order and returns, or throws LayoutError.
//
// Example:
//   struct A { std::vector<std::string> claims; bool json = false; std::string layout; } a;
//   FlagTable t("prove");
//   t.value({"--claim"}, "C", "a claim to prove (repeatable)", [&](const std::string& v) { a.claims.push_back(v); });
//   t.toggle({"--json"}, "one JSON object", [&] { a.json = true; });
//   t.positional("L", [&](const std::string& v) { a.layout = v; });
//   t.parse({"8:1", "--claim", "bijective", "--json"});   // a == {{"bijective"}, true, "8:1"}
//   t.parse({"--clam", "x"});  // LayoutError: unknown option '--clam' for layoutproof prove (did you mean --claim?)
//   t.options_block() ==
//     "Options:\n  --claim C   a claim to prove (repeatable)\n  --json      one JSON object\n"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace layoutproof::cli {

struct Flag {
  enum class Arity { none, one, optional };
  std::vector<std::string> names;  // "-j", "--jobs": help shows them in this order
  std::string value;               // the value's name in help ("N", "DIR"); "" for a switch
  std::string help;                // its meaning; '\n' starts another help line
  Arity arity = Arity::one;
  std::function<void(const std::string&)> set;
  // When given, called instead of `set` with the spelling used too (-j or --jobs), so that a bad
  // value's message names the flag as the user wrote it.
  std::function<void(const std::string& value, const std::string& spelled)> set_as;
  std::function<bool(const std::string&)> takes;  // Arity::optional: whether the next word is the value
  bool glued = false;  // a short name may carry its value glued on: -j4, -DNAME=EXPR
};

class FlagTable {
 public:
  explicit FlagTable(std::string command) : command_(std::move(command)) {}

  // A row that takes one value (the next word, or glued after '=').
  FlagTable& value(std::vector<std::string> names, std::string value_name, std::string help,
                   std::function<void(const std::string&)> set);
  // A switch: no value.
  FlagTable& toggle(std::vector<std::string> names, std::string help, std::function<void()> set);
  // Any row, as built by a shared declaration (cli/flags/common_flags.hpp).
  FlagTable& add(Flag f);
  // The words that are not flags; `name` is what messages call them.
  FlagTable& positional(std::string name, std::function<void(const std::string&)> set);
  // A line of the Options block that is not a flag of this table (a subcommand, a note); kept in order.
  FlagTable& note(std::string label, std::string help);
  // Replaces the help of the row spelled `name` (a shared row whose meaning this command details).
  FlagTable& describe(const std::string& name, std::string help);
  // The help column (default: computed from the widest label, at most 26).
  FlagTable& column(std::size_t c) { column_ = c; return *this; }

  void parse(const std::vector<std::string>& args, std::size_t from = 0) const;

  // "Options:\n" and one row per flag (label padded to the column, help lines under it).
  std::string options_block() const;
  // Every spelling of every row ("-j", "--jobs", ...), in table order.
  std::vector<std::string> names() const;
  const std::vector<Flag>& rows() const { return rows_; }
  const std::string& command() const { return command_; }

  // Keeps `p` alive as long as the table: a table returned for --help binds its setters to it.
  void keep(std::shared_ptr<void> p) { kept_.push_back(std::move(p)); }

 private:
  const Flag* find(const std::string& word, std::string& glued_value, bool& has_glued) const;
  [[noreturn]] void unknown(const std::string& word) const;

  std::string command_;
  std::vector<Flag> rows_;
  std::vector<std::pair<std::string, std::string>> notes_;
  std::vector<int> order_;  // >= 0: rows_[i]; < 0: notes_[-1 - i]
  std::string positional_name_;
  std::function<void(const std::string&)> positional_;
  std::size_t column_ = 0;
  std::vector<std::shared_ptr<void>> kept_;
};

// The label help shows for a row: "-j, --jobs N", "--json [FILE]", "--no-cache".
std::string flag_label(const Flag& f);

// The Options-block flags of a help text: the first word of every row of its "Options:" block that
// starts with '-', and every further ", -x" spelling on that row's label. For the help test.
std::vector<std::string> options_in_help(const std::string& help_text);

}  // namespace layoutproof::cli
