#include "model/compiled/compiled_file.hpp"

#include <filesystem>
#include <fstream>

#include "model/compiled/ptx_parse.hpp"
#include "model/compiled/sass/sass_parse.hpp"

namespace layoutproof::compiled {

std::optional<CompiledFormat> parse_compiled_format(const std::string& name) {
  if (name == "ptx") return CompiledFormat::ptx;
  if (name == "sass") return CompiledFormat::sass;
  return std::nullopt;
}

std::string to_string(CompiledFormat f) { return f == CompiledFormat::ptx ? "ptx" : "sass"; }

std::optional<CompiledFormat> compiled_format_of(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".ptx") return CompiledFormat::ptx;
  if (ext == ".sass" || ext == ".txt") return CompiledFormat::sass;
  return std::nullopt;
}

namespace {

// The reader of each format (text, file name -> the IR); nullptr where this build has none. A new
// reader is its one line here: every caller (ptx, check's compiled: entries) reads through it.
using Reader = Program (*)(std::string text, const std::string& file, const ReadDeadline& deadline);
Reader reader_of(CompiledFormat f) {
  switch (f) {
    case CompiledFormat::ptx: return &parse_ptx;
    case CompiledFormat::sass: return &parse_sass;
  }
  return nullptr;
}

}  // namespace

bool compiled_format_available(CompiledFormat f) { return reader_of(f) != nullptr; }

std::string read_compiled_text(const std::string& path, const ReadDeadline& deadline) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw LayoutError("cannot read '" + path + "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LayoutError("cannot read '" + path + "'");
  std::string s;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    s.append(buf, static_cast<std::size_t>(in.gcount()));
    if ((s.size() & 0xfffff) < sizeof buf) check_deadline(deadline, [&] { return "while reading " + path + ", at byte " + std::to_string(s.size()); });
    if (s.size() > kMaxPtxBytes)
      throw LayoutError(path + ": more than " + std::to_string(kMaxPtxBytes >> 20) + " MiB of text (the limit)");
  }
  return s;
}

Program read_compiled_file(const std::string& path, CompiledFormat format, const ReadDeadline& deadline) {
  const Reader read = reader_of(format);
  if (!read) throw LayoutError("format " + to_string(format) + " is not available in this build");
  std::string text = read_compiled_text(path, deadline);
  if (format == CompiledFormat::ptx && looks_like_sass(text))
    throw LayoutError(path + " is SASS (cuobjdump -sass / nvdisasm), not PTX: use layoutproof sass " + path + " (a spec: format: sass)");
  return read(std::move(text), path, deadline);
}

std::shared_ptr<Program> CompiledFiles::read(const std::string& path, CompiledFormat format) {
  // The file as it is now, taken before it is read: a file rewritten between this and the read
  // below is recorded with its old size and time, so the next read reads it again.
  std::error_code size_ec, time_ec;
  const std::uintmax_t size = std::filesystem::file_size(path, size_ec);
  const std::filesystem::file_time_type modified = std::filesystem::last_write_time(path, time_ec);
  const bool known = !size_ec && !time_ec;  // else nothing is kept: the read reports the error
  const auto same_file = [&](const File& f) { return f.path == path && f.format == format; };
  for (const File& f : files_)
    if (known && same_file(f) && f.size == size && f.modified == modified) return f.program;
  auto program = std::make_shared<Program>(read_compiled_file(path, format));
  ++reads_;
  std::erase_if(files_, same_file);  // its old text's IR: no later read may get it
  if (known) files_.push_back({path, format, size, modified, program});
  return program;
}

}  // namespace layoutproof::compiled
