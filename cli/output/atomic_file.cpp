#include "cli/output/atomic_file.hpp"

#include <atomic>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "model/support/error.hpp"

namespace layoutproof::cli {
namespace fs = std::filesystem;
namespace {

// The temporary file being written, for the signal handler (which may only call async-signal-safe
// functions: unlink, write, _exit). The one piece of process-wide state of the output layer: a
// signal handler has no other way to learn what to remove.
char g_partial[4096];
std::atomic<bool> g_partial_set{false};

void track(const std::string& p) {
  if (p.size() >= sizeof g_partial) return;  // not tracked: a kill may leave it (named .partial-PID)
  std::memcpy(g_partial, p.c_str(), p.size() + 1);
  g_partial_set.store(true);
}
void untrack() { g_partial_set.store(false); }

extern "C" void on_interrupt(int sig) {
  if (g_partial_set.load()) ::unlink(g_partial);
  const char* msg = sig == SIGINT ? "layoutproof: interrupted (SIGINT): exit 130; no output was left half-written\n"
                                  : "layoutproof: terminated (SIGTERM): exit 143; no output was left half-written\n";
  ssize_t ignored = ::write(2, msg, std::strlen(msg));
  (void)ignored;
  ::_exit(128 + sig);
}

fs::path partial_sibling(const fs::path& p) {
  return p.parent_path() / ("." + p.filename().string() + ".partial-" + std::to_string(::getpid()));
}

// Writes what `write` produces to `p` in place: "" or why it failed.
std::string write_stream(const fs::path& p, const std::function<void(std::ostream&)>& write) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  if (!f) return "cannot open it for writing";
  write(f);
  f.flush();
  f.close();
  return f.fail() ? "the write failed (disk full?)" : "";
}

bool is_layoutproof_report(const fs::path& dir) {
  std::ifstream f(dir / "index.html");
  if (!f) return false;
  std::string head(4096, '\0');
  f.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(f.gcount()));
  // Reports of versions before the marker carry their title only.
  return head.find(kReportGenerator) != std::string::npos || head.find("<title>layoutproof") != std::string::npos;
}

// Removes a report folder without ever showing it half removed: it is first renamed to a hidden
// partial sibling (one atomic step), then deleted; a kill in between leaves only that sibling,
// which the next run removes.
void retire_folder(const fs::path& dir) {
  std::error_code ec;
  const fs::path gone = partial_sibling(dir).string() + "-old";
  fs::remove_all(gone, ec);
  fs::rename(dir, gone, ec);
  fs::remove_all(ec ? dir : gone, ec);
}

}  // namespace

std::string write_file_atomically(const std::string& path, const std::string& what,
                                  const std::function<void(std::ostream&)>& write) {
  const fs::path p(path);
  std::error_code ec;
  if (p.has_parent_path() && !fs::is_directory(p.parent_path(), ec))
    return "cannot write " + what + " to " + path + ": folder " + p.parent_path().string() + " does not exist";
  if (fs::is_directory(p, ec)) return "cannot write " + what + " to " + path + ": it is a folder";
  // A device, a pipe or a socket (/dev/stdout, /dev/full, a FIFO a CI step reads) is a stream,
  // not a file to replace: renaming over it would replace the device node itself. Written directly.
  const bool stream = fs::exists(p, ec) && !fs::is_regular_file(p, ec);
  const fs::path tmp = stream ? p : partial_sibling(p);
  if (!stream) track(tmp.string());
  std::string failure = write_stream(tmp, write);
  if (stream) return failure.empty() ? "" : "cannot write " + what + " to " + path + ": " + failure;
  if (failure.empty()) {
    fs::rename(tmp, p, ec);
    if (ec) failure = "cannot rename the finished file into place (" + ec.message() + ")";
  }
  if (!failure.empty()) fs::remove(tmp, ec);
  untrack();
  return failure.empty() ? "" : "cannot write " + what + " to " + path + ": " + failure;
}

std::string write_file_atomically(const std::string& path, const std::string& what, const std::string& content) {
  return write_file_atomically(path, what, [&](std::ostream& o) { o << content; });
}

void clear_stale_outputs(const std::vector<std::string>& files, const std::string& report_dir) {
  std::error_code ec;
  for (const std::string& f : files)
    if (!f.empty() && fs::is_regular_file(f, ec)) fs::remove(f, ec);
  if (report_dir.empty()) return;
  const fs::path dir(report_dir);
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw LayoutError("--report " + report_dir + " is a file, not a folder");
    if (is_layoutproof_report(dir)) retire_folder(dir);
    else if (!fs::is_empty(dir, ec))
      throw LayoutError("--report " + report_dir + " holds files that are not a layoutproof report; give an empty or new folder "
                        "(a report folder is replaced whole)");
  }
  // Leftovers of runs that were killed while building their report.
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  const std::string prefix = "." + dir.filename().string() + ".partial-";
  for (const auto& e : fs::directory_iterator(parent, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) fs::remove_all(e.path(), ec);
}

std::string partial_report_folder(const std::string& report_dir) {
  const fs::path tmp = partial_sibling(fs::path(report_dir));
  std::error_code ec;
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  if (ec) throw LayoutError("cannot write the report to " + report_dir + ": cannot create " + tmp.string() + " (" + ec.message() + ")");
  return tmp.string();
}

std::string publish_report_folder(const std::string& partial, const std::string& report_dir) {
  std::error_code ec;
  const fs::path dir(report_dir);
  if (fs::exists(dir, ec)) {
    if (is_layoutproof_report(dir)) retire_folder(dir);
    else if (fs::is_directory(dir, ec) && fs::is_empty(dir, ec)) fs::remove(dir, ec);
    else {
      fs::remove_all(partial, ec);
      return "cannot write the report to " + report_dir + ": it holds files that are not a layoutproof report";
    }
  }
  fs::rename(partial, dir, ec);
  if (ec) {
    fs::remove_all(partial, ec);
    return "cannot write the report to " + report_dir + ": cannot rename the finished folder into place";
  }
  return "";
}

void install_interrupt_cleanup() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace layoutproof::cli
