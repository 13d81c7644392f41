// model/compiled/compiled_file.hpp: the one dispatch from a compiled file's format to its reader.
#include "model/compiled/compiled_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "model/compiled/ptx_parse.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof::compiled {
namespace {

TEST(CompiledFile, FormatFromTheExtension) {
  EXPECT_EQ(compiled_format_of("build/k.ptx"), CompiledFormat::ptx);
  EXPECT_EQ(compiled_format_of("k.sass"), CompiledFormat::sass);
  EXPECT_EQ(compiled_format_of("cuobjdump_out.txt"), CompiledFormat::sass);
  EXPECT_EQ(compiled_format_of("k.o"), std::nullopt);
  EXPECT_EQ(compiled_format_of("ptx"), std::nullopt);  // a name, not an extension
  EXPECT_EQ(parse_compiled_format("ptx"), CompiledFormat::ptx);
  EXPECT_EQ(parse_compiled_format("sass"), CompiledFormat::sass);
  EXPECT_EQ(parse_compiled_format("PTX"), std::nullopt);
  EXPECT_EQ(to_string(CompiledFormat::sass), "sass");
}

TEST(CompiledFile, ReadsPtxAndSassEachThroughItsReader) {
  const std::string path = std::string(LAYOUTPROOF_TESTS_DIR) + "/ptx/basic.ptx";
  const Program p = read_compiled_file(path, CompiledFormat::ptx);
  EXPECT_EQ(p.file, path);
  EXPECT_FALSE(select_entries(p, "column_read").empty());
  EXPECT_EQ(p.format, CompiledFormat::ptx);  // PTX: symbols, no window
  const std::string sass = std::string(LAYOUTPROOF_TESTS_DIR) + "/compiled/measured/hand.sass";
  EXPECT_TRUE(compiled_format_available(CompiledFormat::sass));
  const Program s = read_compiled_file(sass, CompiledFormat::sass);
  EXPECT_FALSE(select_entries(s, "column_read").empty());
  EXPECT_EQ(s.format, CompiledFormat::sass);
  EXPECT_EQ(s.shared_window_base, 0x400);
  // PTX read as SASS is malformed SASS (located); SASS read as PTX is refused, naming `sass`.
  EXPECT_THROW((void)read_compiled_file(path, CompiledFormat::sass), ParseError);
  try {
    (void)read_compiled_file(sass, CompiledFormat::ptx);
    FAIL() << "SASS was read as PTX";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("use layoutproof sass"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)read_compiled_text(std::string(LAYOUTPROOF_TESTS_DIR) + "/ptx/no_such.ptx"), LayoutError);
  EXPECT_THROW((void)read_compiled_text(LAYOUTPROOF_TESTS_DIR), LayoutError);  // a directory
}

TEST(CompiledFile, MalformedPtxIsAParseErrorNamingTheFile) {
  const std::string path = testing::TempDir() + "/compiled_file_bad.ptx";
  std::ofstream(path) << ".version 8.5\n.target sm_90\n.visible .entry k( {\n";
  EXPECT_THROW((void)read_compiled_file(path, CompiledFormat::ptx), ParseError);
  std::remove(path.c_str());
}

TEST(CompiledFile, ARunReadsEachFileOnceWhileItIsUnchanged) {
  const std::string path = testing::TempDir() + "/compiled_files_once.sass";
  const std::string hand = std::string(LAYOUTPROOF_TESTS_DIR) + "/compiled/measured/hand.sass";
  std::ofstream(path) << read_compiled_text(hand);
  CompiledFiles files;
  const std::shared_ptr<Program> a = files.read(path, CompiledFormat::sass);
  const std::shared_ptr<Program> b = files.read(path, CompiledFormat::sass);
  EXPECT_EQ(a, b);  // one Program for both readers
  EXPECT_EQ(files.reads(), 1u);
  EXPECT_EQ(a->file, path);
  EXPECT_FALSE(select_entries(*a, "column_read").empty());
  // Rewritten (another size): read again; the first readers keep the Program of the old text.
  std::ofstream(path) << read_compiled_text(hand) << "\n";
  const std::shared_ptr<Program> c = files.read(path, CompiledFormat::sass);
  EXPECT_NE(c, a);
  EXPECT_EQ(files.reads(), 2u);
  EXPECT_EQ(c->text.size(), a->text.size() + 1);
  EXPECT_EQ(files.read(path, CompiledFormat::sass), c);
  // Another format of the same path is another program (here: malformed, so an error).
  EXPECT_THROW((void)files.read(path, CompiledFormat::ptx), LayoutError);
  EXPECT_EQ(files.read(path, CompiledFormat::sass), c);
  // A file that cannot be read: the reader's error, nothing kept.
  EXPECT_THROW((void)files.read(path + ".none", CompiledFormat::sass), LayoutError);
  EXPECT_EQ(files.reads(), 2u);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace layoutproof::compiled
