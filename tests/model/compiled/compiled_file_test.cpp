// model/compiled/compiled_file.hpp: the one dispatch from a compiled file's format to its reader.
#include "model/compiled/compiled_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "model/compiled/ptx_parse.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof::ptx {
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

TEST(CompiledFile, ReadsEachFormatAndRefusesTextOfTheOther) {
  const std::string dir = LAYOUTPROOF_TESTS_DIR;
  const Program p = read_compiled_file(dir + "/ptx/basic.ptx", CompiledFormat::ptx);
  EXPECT_EQ(p.file, dir + "/ptx/basic.ptx");
  EXPECT_FALSE(select_entries(p, "column_read").empty());
  EXPECT_LT(p.shared_window_base, 0);  // PTX: symbols placed from 0
  EXPECT_TRUE(compiled_format_available(CompiledFormat::ptx));
  EXPECT_TRUE(compiled_format_available(CompiledFormat::sass));
  const Program s = read_compiled_file(dir + "/compiled/measured/hand.sass", CompiledFormat::sass);
  EXPECT_FALSE(select_entries(s, "column_read").empty());
  EXPECT_GE(s.shared_window_base, 0);  // SASS: the CTA's window
  // SASS read as PTX is refused by name (not a puzzling PTX syntax error); PTX read as SASS is
  // malformed SASS, located.
  try {
    (void)read_compiled_file(dir + "/compiled/measured/hand.sass", CompiledFormat::ptx);
    FAIL() << "SASS was read as PTX";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("is SASS (cuobjdump -sass / nvdisasm), not PTX"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)read_compiled_file(dir + "/ptx/basic.ptx", CompiledFormat::sass), ParseError);
  EXPECT_THROW((void)read_compiled_text(dir + "/ptx/no_such.ptx"), LayoutError);
  EXPECT_THROW((void)read_compiled_text(dir), LayoutError);  // a directory
}

TEST(CompiledFile, MalformedPtxIsAParseErrorNamingTheFile) {
  const std::string path = testing::TempDir() + "/compiled_file_bad.ptx";
  std::ofstream(path) << ".version 8.5\n.target sm_90\n.visible .entry k( {\n";
  EXPECT_THROW((void)read_compiled_file(path, CompiledFormat::ptx), ParseError);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace layoutproof::ptx
