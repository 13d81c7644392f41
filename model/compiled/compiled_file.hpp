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
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/compiled/ptx_ir.hpp"

namespace layoutproof::compiled {

// "ptx" -> ptx, "sass" -> sass; nullopt for any other name.
std::optional<CompiledFormat> parse_compiled_format(const std::string& name);
std::string to_string(CompiledFormat f);
// The format a file's extension names (the table above); nullopt for any other extension.
std::optional<CompiledFormat> compiled_format_of(const std::string& path);

// Whether this build reads the format (false: read_compiled_file refuses it).
bool compiled_format_available(CompiledFormat f);

// The whole file, at most kMaxPtxBytes. LayoutError for a directory, a file that cannot be read,
// or a larger one.
std::string read_compiled_text(const std::string& path, const ReadDeadline& deadline = std::nullopt);

// What a file's first bytes say it is: text (PTX, SASS listings), an ELF file (a cubin, an
// executable, a shared library: "\x7fELF") or a fatbin (magic 0xba55ed50, little-endian).
enum class BinaryKind { text, elf, fatbin };
BinaryKind binary_kind(std::string_view head);

// The SASS (`cuobjdump -sass`) or PTX (`cuobjdump -ptx`) of a binary, `arch` ("sm_90"; "": every
// one it holds) picking the architecture; cuobjdump is $LAYOUTPROOF_CUOBJDUMP, else on PATH, else
// /usr/local/cuda/bin's, run without a shell. LayoutError (exit 2) when there is none, naming the
// command to run by hand ("k.cubin is an ELF file (...), not text: run `cuobjdump -sass k.cubin`
// ..."), when it fails, or when it finds no SASS/PTX (an executable built without PTX: -ptx).
std::string extract_compiled_text(const std::string& path, CompiledFormat format, BinaryKind kind, const std::string& arch);

// Reads and parses `path` (named `path` in every message and in Program::file): text as it is, a
// binary (ELF, fatbin) through extract_compiled_text. Throws ParseError on malformed text
// ("FILE:LINE:COL: what", with a caret), LayoutError for a file that cannot be read or a format
// this build does not read, DeadlineReached past `deadline` (reading included).
Program read_compiled_file(const std::string& path, CompiledFormat format, const ReadDeadline& deadline = std::nullopt,
                           const std::string& arch = "");

// The compiled files of one run, each read and parsed once: a kernel library's gate names one
// file in many entries, and each entry reading it again cost the file's text and IR per entry.
// Every read of the same path in the same format gets the same Program while the file is
// unchanged, which is told by its size and modification time, looked up again on every read (a
// file rewritten during the run is read again, never answered with the IR of its old text). A
// caller that decodes a PTX body (ptx_parse.hpp decode_with_callees) decodes it in that shared
// Program, once for every reader; what a kernel's run depends on does not depend on what else
// was decoded in it (ptx_parse.hpp kernel_functions).
// One per run, owned by whoever reads for it (the spec loader), never shared between threads:
// the Programs it hands out are only read once the run starts.
// Example: read("build/k.sass", sass) twice -> one Program, reads() == 1.
class CompiledFiles {
 public:
  // The Program of `path` as `format`; read_compiled_file's errors when it has to be read.
  std::shared_ptr<Program> read(const std::string& path, CompiledFormat format, const std::string& arch = "");
  // How many times a file was read and parsed (each file once when none changed).
  std::size_t reads() const { return reads_; }

 private:
  struct File {
    std::string path;
    CompiledFormat format = CompiledFormat::ptx;
    std::string arch;
    std::uintmax_t size = 0;
    std::filesystem::file_time_type modified;
    std::shared_ptr<Program> program;
  };
  std::vector<File> files_;
  std::size_t reads_ = 0;
};

}  // namespace layoutproof::compiled
