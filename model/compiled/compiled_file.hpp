#pragma once
// A compiled kernel's file, read into the one IR (model/compiled/ptx_ir.hpp) whatever its format.
// This is the one place that maps a format to its reader: `layoutproof ptx` and a spec's
// `compiled:` entry (cli/spec/spec.hpp) both read through it, so a new reader is one case here.
//
//   format   file extension (when the spec gives no `format:`)   reader
//   ptx      .ptx                                                ptx_parse.hpp parse_ptx
//   sass     .sass, .txt (cuobjdump -sass / nvdisasm text)       sass_parse.hpp parse_sass
//
// Example: compiled_format_of("build/k.ptx") == CompiledFormat::ptx; compiled_format_of("k.o")
// is nullopt (the spec must say `format:`).
#include <optional>
#include <string>

#include "model/compiled/ptx_ir.hpp"

namespace layoutproof::ptx {

enum class CompiledFormat { ptx, sass };

// "ptx" -> ptx, "sass" -> sass; nullopt for any other name.
std::optional<CompiledFormat> parse_compiled_format(const std::string& name);
std::string to_string(CompiledFormat f);
// The format a file's extension names (the table above); nullopt for any other extension.
std::optional<CompiledFormat> compiled_format_of(const std::string& path);

// Whether this build reads the format (false: read_compiled_file refuses it).
bool compiled_format_available(CompiledFormat f);

// The whole file, at most kMaxPtxBytes. LayoutError for a directory, a file that cannot be read,
// or a larger one.
std::string read_compiled_text(const std::string& path);

// Reads and parses `path` (named `path` in every message and in Program::file). Throws ParseError
// on malformed text ("FILE:LINE:COL: what", with a caret), LayoutError for a file that cannot be
// read or a format this build does not read.
Program read_compiled_file(const std::string& path, CompiledFormat format);

}  // namespace layoutproof::ptx
