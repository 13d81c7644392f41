#include "model/compiled/compiled_file.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
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

// cuobjdump: $LAYOUTPROOF_CUOBJDUMP, else the first on PATH, else the CUDA toolkit's; "" none.
std::string find_cuobjdump() {
  if (const char* e = std::getenv("LAYOUTPROOF_CUOBJDUMP"); e && *e) return e;
  std::error_code ec;
  if (const char* path = std::getenv("PATH"))
    for (std::string_view rest = path; !rest.empty();) {
      const std::size_t colon = rest.find(':');
      const std::string dir(rest.substr(0, colon));
      rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
      const std::filesystem::path p = std::filesystem::path(dir.empty() ? "." : dir) / "cuobjdump";
      if (std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) return p.string();
    }
  if (::access("/usr/local/cuda/bin/cuobjdump", X_OK) == 0) return "/usr/local/cuda/bin/cuobjdump";
  return "";
}

// Runs argv (no shell: a file name is never interpreted) and returns its standard output, at most
// kMaxPtxBytes; LayoutError when it cannot start, exits non-zero or prints more.
std::string run_capture(const std::vector<std::string>& argv, const std::string& what) {
  int fd[2];
  if (::pipe(fd) != 0) throw LayoutError(what + ": cannot create a pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fd[1], 1);
  posix_spawn_file_actions_addclose(&actions, fd[0]);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fd[1]);
  if (rc != 0) {
    ::close(fd[0]);
    throw LayoutError(what + ": cannot run " + argv[0]);
  }
  std::string out;
  char buf[1 << 16];
  bool too_big = false;
  for (ssize_t n; (n = ::read(fd[0], buf, sizeof buf)) > 0;) {
    if (out.size() + static_cast<std::size_t>(n) > kMaxPtxBytes) too_big = true;
    else out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (too_big) throw LayoutError(what + ": " + argv[0] + " printed more than " + std::to_string(kMaxPtxBytes >> 20) + " MiB");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw LayoutError(what + ": " + argv[0] + " failed (exit " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  return out;
}

}  // namespace

BinaryKind binary_kind(std::string_view head) {
  if (head.size() >= 4 && head.substr(0, 4) == std::string_view("\x7f" "ELF", 4)) return BinaryKind::elf;
  if (head.size() >= 4 && head.substr(0, 4) == std::string_view("\x50\xed\x55\xba", 4)) return BinaryKind::fatbin;
  return BinaryKind::text;
}

std::string extract_compiled_text(const std::string& path, CompiledFormat format, BinaryKind kind, const std::string& arch) {
  const std::string what = kind == BinaryKind::elf ? "an ELF file (a cubin, an executable or a shared library)" : "a fatbin";
  const std::string flag = format == CompiledFormat::sass ? "-sass" : "-ptx";
  const std::string tool = find_cuobjdump();
  if (tool.empty())
    throw LayoutError(path + " is " + what + ", not text: run `cuobjdump " + flag + " " + path + "` (part of the CUDA toolkit" +
                      (format == CompiledFormat::sass ? ", or nvdisasm -g on a cubin" : "") +
                      ") and give its output, or give the PTX (nvcc -ptx); cuobjdump was not found (PATH, $LAYOUTPROOF_CUOBJDUMP)");
  std::vector<std::string> argv{tool, flag};
  if (!arch.empty()) argv.insert(argv.end(), {"-arch", arch});
  argv.push_back(path);
  std::string text = run_capture(argv, path + " (" + what + ")");
  const bool any = format == CompiledFormat::sass ? looks_like_sass(text) : text.find(".entry") != std::string::npos;
  if (!any)
    throw LayoutError(path + " is " + what + " and `cuobjdump " + flag + (arch.empty() ? "" : " -arch " + arch) + "` found no " +
                      (format == CompiledFormat::sass ? "SASS" : "PTX") + " in it" +
                      (format == CompiledFormat::ptx ? " (built without PTX: read its SASS, layoutproof sass)" : "") +
                      (arch.empty() ? "" : " for " + arch));
  return text;
}

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

Program read_compiled_file(const std::string& path, CompiledFormat format, const ReadDeadline& deadline, const std::string& arch) {
  const Reader read = reader_of(format);
  if (!read) throw LayoutError("format " + to_string(format) + " is not available in this build");
  char head[4] = {};
  std::size_t got = 0;
  if (std::ifstream probe(path, std::ios::binary); probe) got = static_cast<std::size_t>(probe.read(head, 4).gcount());
  const BinaryKind kind = binary_kind(std::string_view(head, got));
  std::string text = kind == BinaryKind::text ? read_compiled_text(path, deadline) : extract_compiled_text(path, format, kind, arch);
  if (format == CompiledFormat::ptx && looks_like_sass(text))
    throw LayoutError(path + " is SASS (cuobjdump -sass / nvdisasm), not PTX: use layoutproof sass " + path + " (a spec: format: sass)");
  return read(std::move(text), path, deadline);
}

std::shared_ptr<Program> CompiledFiles::read(const std::string& path, CompiledFormat format, const std::string& arch) {
  // The file as it is now, taken before it is read: a file rewritten between this and the read
  // below is recorded with its old size and time, so the next read reads it again.
  std::error_code size_ec, time_ec;
  const std::uintmax_t size = std::filesystem::file_size(path, size_ec);
  const std::filesystem::file_time_type modified = std::filesystem::last_write_time(path, time_ec);
  const bool known = !size_ec && !time_ec;  // else nothing is kept: the read reports the error
  const auto same_file = [&](const File& f) { return f.path == path && f.format == format && f.arch == arch; };
  for (const File& f : files_)
    if (known && same_file(f) && f.size == size && f.modified == modified) return f.program;
  auto program = std::make_shared<Program>(read_compiled_file(path, format, std::nullopt, arch));
  ++reads_;
  std::erase_if(files_, same_file);  // its old text's IR: no later read may get it
  if (known) files_.push_back({path, format, arch, size, modified, program});
  return program;
}

}  // namespace layoutproof::compiled
