// The flag table (cli/flags/flag_table.hpp): one list of rows makes the parser and the Options
// block, and every command's --help lists exactly the flags its parser takes.
#include "cli/flags/flag_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "cli/flags/common_flags.hpp"
#include "cli/flags/suggest.hpp"
#include "cli/help.hpp"
#include "cli/run_flags.hpp"
#include "model/support/error.hpp"

namespace layoutproof::cli {
namespace {

struct Args {
  std::vector<std::string> claims, words;
  bool json = false;
  int jobs = 0;
  std::string out;
};

FlagTable table(Args& a) {
  FlagTable t("demo-cmd");
  t.value({"--claim"}, "C", "a claim (repeatable)", [&a](const std::string& v) { a.claims.push_back(v); });
  t.toggle({"--json"}, "one JSON object", [&a] { a.json = true; });
  Flag j;
  j.names = {"-j", "--jobs"};
  j.value = "N";
  j.help = "N at a time\nthe second help line";
  j.glued = true;
  j.set = [&a](const std::string& v) { a.jobs = std::stoi(v); };
  t.add(j);
  Flag o;
  o.names = {"--out"};
  o.value = "FILE";
  o.help = "optional FILE";
  o.arity = Flag::Arity::optional;
  o.takes = [](const std::string& w) { return w.find(".txt") != std::string::npos; };
  o.set = [&a](const std::string& v) { a.out = v.empty() ? "<stdout>" : v; };
  t.add(o);
  t.positional("L", [&a](const std::string& v) { a.words.push_back(v); });
  return t;
}

std::string error_of(const FlagTable& t, const std::vector<std::string>& args) {
  try {
    t.parse(args);
  } catch (const LayoutError& e) {
    return e.what();
  }
  return "";
}

TEST(FlagTable, ParsesEveryRowKindInArgumentOrder) {
  Args a;
  table(a).parse({"8:1", "--claim", "bijective", "--json", "-j4", "--claim=injective", "-1", "--out", "r.txt"});
  EXPECT_EQ(a.claims, (std::vector<std::string>{"bijective", "injective"}));  // repeated: accumulated
  EXPECT_TRUE(a.json);
  EXPECT_EQ(a.jobs, 4);                                              // glued short form
  EXPECT_EQ(a.words, (std::vector<std::string>{"8:1", "-1"}));        // "-1" is a value, not an option
  EXPECT_EQ(a.out, "r.txt");
  Args b;
  table(b).parse({"--out", "8:1", "--jobs", "2"});  // the optional value is taken only when it fits
  EXPECT_EQ(b.out, "<stdout>");
  EXPECT_EQ(b.words, (std::vector<std::string>{"8:1"}));
  EXPECT_EQ(b.jobs, 2);
}

TEST(FlagTable, BadTokensAreNamedWithTheClosestSpelling) {
  Args a;
  const FlagTable t = table(a);
  EXPECT_EQ(error_of(t, {"--clam", "x"}), "unknown option '--clam' for layoutproof demo-cmd (did you mean --claim?)");
  EXPECT_EQ(error_of(t, {"--frobnicate"}), "unknown option '--frobnicate' for layoutproof demo-cmd (see layoutproof demo-cmd --help)");
  EXPECT_EQ(error_of(t, {"-x"}), "unknown option '-x' for layoutproof demo-cmd (see layoutproof demo-cmd --help)");
  EXPECT_EQ(error_of(t, {"--claim"}), "--claim needs a value (C) (see layoutproof demo-cmd --help)");
  EXPECT_EQ(error_of(t, {"--claim", "--json"}), "--claim needs a value, not the option --json (see layoutproof demo-cmd --help)");
  FlagTable none("bare");
  EXPECT_NE(error_of(none, {"word"}).find("takes no positional arguments, not 'word'"), std::string::npos);
}

TEST(FlagTable, OptionsBlockIsGeneratedFromTheRows) {
  Args a;
  FlagTable t = table(a);
  t.note("KIND", "a note that is not a flag");
  EXPECT_EQ(t.options_block(),
            "Options:\n"
            "  --claim C     a claim (repeatable)\n"
            "  --json        one JSON object\n"
            "  -j, --jobs N  N at a time\n"
            "                the second help line\n"
            "  --out [FILE]  optional FILE\n"
            "  KIND          a note that is not a flag\n");
  // The help test's reader finds every spelling of the block, and the notes are not flags.
  EXPECT_EQ(options_in_help("x\n" + t.options_block() + "\nExamples:\n  --not-an-option\n"),
            (std::vector<std::string>{"--claim", "--json", "-j", "--jobs", "--out"}));
  t.column(10);  // a label wider than the column keeps two spaces before its help
  EXPECT_EQ(t.options_block(),
            "Options:\n"
            "  --claim C  a claim (repeatable)\n"
            "  --json  one JSON object\n"
            "  -j, --jobs N  N at a time\n"
            "          the second help line\n"
            "  --out [FILE]  optional FILE\n"
            "  KIND    a note that is not a flag\n");
}

TEST(FlagTable, LongHelpLinesAreWrappedUnderTheColumn) {
  FlagTable t("w");
  const std::string word = "abcdefghi ";  // 10 characters
  std::string help;
  for (int i = 0; i < 12; ++i) help += word;
  t.toggle({"--x"}, help, [] {});
  const std::string block = t.options_block();
  std::size_t at = 0, lines = 0;
  while ((at = block.find('\n', at)) != std::string::npos) ++at, ++lines;
  EXPECT_EQ(lines, 3u);  // "Options:" and the help over two lines, none past the width
  for (std::size_t p = 0, q; (q = block.find('\n', p)) != std::string::npos; p = q + 1) EXPECT_LE(q - p, 104u);
}

TEST(CommonFlags, OneEngineVocabularyWithEnumerationAsExhaustive) {
  EXPECT_EQ(engine_choice("auto"), proofs::EngineChoice::automatic);
  EXPECT_EQ(engine_choice("z3"), proofs::EngineChoice::z3);
  EXPECT_EQ(engine_choice("exhaustive"), proofs::EngineChoice::exhaustive);
  EXPECT_EQ(engine_choice("enumeration"), proofs::EngineChoice::exhaustive);
  try {
    engine_choice("exhaustiv");
    FAIL() << "no error";
  } catch (const LayoutError& e) {
    EXPECT_STREQ(e.what(), "--engine takes auto, z3 or exhaustive, not 'exhaustiv' (did you mean exhaustive?)");
  }
}

TEST(CommonFlags, OutputFlagsAreGivenOnceAndJsonTakesOnlyAJsonFile) {
  OutputFlags out;
  FlagTable t("o");
  add_output_flags(t, out);
  std::vector<std::string> rest;
  t.positional("X", [&rest](const std::string& v) { rest.push_back(v); });
  t.parse({"--json", "spec.yaml", "--junit", "a.xml", "--report", "dir"});
  EXPECT_TRUE(out.json_stdout);
  EXPECT_EQ(rest, std::vector<std::string>{"spec.yaml"});
  EXPECT_EQ(out.junit_file, "a.xml");
  EXPECT_EQ(out.report_dir, "dir");
  EXPECT_NE(error_of(t, {"--junit", "b.xml"}).find("--junit is given twice ('a.xml' and 'b.xml')"), std::string::npos);
  OutputFlags out2;
  FlagTable t2("o");
  add_output_flags(t2, out2);
  t2.parse({"--json", "r.json"});
  EXPECT_EQ(out2.json_file, "r.json");
  EXPECT_FALSE(out2.json_stdout);
}

TEST(Suggest, UnknownWordNamesTheClosestAndListsAll) {
  EXPECT_EQ(unknown_word("kind", "sm90-grop", {"row-major", "sm90-group"}, "raster prove", true),
            "unknown kind 'sm90-grop' for raster prove (did you mean sm90-group?); the kinds: row-major, sm90-group");
  EXPECT_EQ(unknown_word("element type", "halft", {"half_t", "float"}), "unknown element type 'halft' (did you mean half_t?)");
  EXPECT_EQ(did_you_mean("zzzzzz", {"prove"}), "");
}

// Every command's --help lists exactly the flags its table parses: the spellings in the Options
// block are the table's names, and each of them is one the parser accepts.
TEST(Help, EveryTopicsOptionsBlockIsItsParsersFlags) {
  int topics = 0;
  for (const std::string& topic : help_topics()) {
    const std::optional<FlagTable> t = help_flag_table(topic);
    if (!t) continue;
    ++topics;
    const std::optional<std::string> text = help_text(topic);
    ASSERT_TRUE(text) << topic;
    const std::vector<std::string> shown = options_in_help(*text);
    const std::vector<std::string> parsed = t->names();
    EXPECT_EQ(std::set<std::string>(shown.begin(), shown.end()), std::set<std::string>(parsed.begin(), parsed.end())) << topic;
    EXPECT_EQ(text->find("@OPTIONS@"), std::string::npos) << topic;
  }
  EXPECT_EQ(topics, 16);  // prove print eval check merge catalog bank raster prove|locality|trace synth synth --kernel trace ptx sass tensor-map
}

}  // namespace
}  // namespace layoutproof::cli
