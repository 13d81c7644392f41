#include "cli/output/atomic_file.hpp"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/support/error.hpp"

namespace layoutproof::cli {
namespace fs = std::filesystem;
namespace {

// What the signal handler must remove or put back. The one piece of process-wide state of the
// output layer: a signal handler has no other way to learn it, and it may only call
// async-signal-safe functions (unlink, rename, openat, getdents64, unlinkat, write, _exit), so the
// paths live in fixed buffers. A path too long to hold is not tracked (a kill may then leave it,
// named .partial-PID, which the next run's check_report_folder removes).
struct Tracked {
  char path[4096];
  std::atomic<bool> set{false};
  void track(const std::string& p) {
    set.store(false);
    if (p.size() >= sizeof path) return;
    std::memcpy(path, p.c_str(), p.size() + 1);
    set.store(true);
  }
  void untrack() { set.store(false); }
};
Tracked g_file;     // the temporary file write_file_atomically is writing
Tracked g_folder;   // the hidden folder being built, or an old report being deleted
Tracked g_old;      // without RENAME_EXCHANGE: the old report moved aside ...
Tracked g_target;   // ... from here, where the handler puts it back if the new one is not there yet

// getdents64's record (linux/dirent.h).
struct Dirent64 {
  std::uint64_t d_ino;
  std::int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

// Removes `name` under `dirfd`, a file or a whole tree, with async-signal-safe calls only. Entries
// removed while their folder is listed may shift the listing, so a folder is listed again until it
// is empty (a report folder holds a few hundred files, two levels deep at most).
void remove_tree_at(int dirfd, const char* name, int depth) {
  if (::unlinkat(dirfd, name, 0) == 0 || errno == ENOENT || depth > 16) return;
  const int fd = ::openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char buf[2048];
  for (int pass = 0; pass < 64; ++pass) {
    bool any = false;
    ::lseek(fd, 0, SEEK_SET);
    for (long n; (n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;)
      for (long at = 0; at < n;) {
        const auto* d = reinterpret_cast<const Dirent64*>(buf + at);
        at += d->d_reclen;
        if (d->d_name[0] == '.' && (d->d_name[1] == 0 || (d->d_name[1] == '.' && d->d_name[2] == 0))) continue;
        any = true;
        remove_tree_at(fd, d->d_name, depth + 1);
      }
    if (!any) break;
  }
  ::close(fd);
  ::unlinkat(dirfd, name, AT_REMOVEDIR);
}

extern "C" void on_interrupt(int sig) {
  const int saved = errno;
  if (g_file.set.load()) ::unlink(g_file.path);
  if (g_old.set.load() && g_target.set.load() && ::access(g_target.path, F_OK) != 0) ::rename(g_old.path, g_target.path);
  if (g_folder.set.load()) remove_tree_at(AT_FDCWD, g_folder.path, 0);
  if (g_old.set.load()) remove_tree_at(AT_FDCWD, g_old.path, 0);
  const char* msg = sig == SIGINT ? "layoutproof: interrupted (SIGINT): exit 130; no output was left half-written\n"
                                  : "layoutproof: terminated (SIGTERM): exit 143; no output was left half-written\n";
  ssize_t ignored = ::write(2, msg, std::strlen(msg));
  (void)ignored;
  errno = saved;
  ::_exit(128 + sig);
}

fs::path partial_sibling(const fs::path& p) {
  return p.parent_path() / ("." + p.filename().string() + ".partial-" + std::to_string(::getpid()));
}

// Flushes a file's or a folder's contents to disk (any descriptor of it will do).
void sync_path(const fs::path& p) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}
fs::path parent_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

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

// Deletes a folder without ever showing it half deleted: it is renamed to a hidden sibling (one
// atomic step) and deleted there, the signal handler knowing it the whole time.
void retire_folder(const fs::path& dir) {
  std::error_code ec;
  const fs::path gone = partial_sibling(dir).string() + "-old";
  g_folder.track(gone.string());
  fs::remove_all(gone, ec);
  fs::rename(dir, gone, ec);
  fs::remove_all(ec ? dir : gone, ec);
  g_folder.untrack();
}

// Puts the complete folder `built` at `target`: "" or the failure. `built` is then gone (moved, or
// swapped with the old report, which is deleted).
std::string swap_into_place(const fs::path& built, const fs::path& target) {
  std::error_code ec;
  if (!fs::exists(target, ec)) {
    fs::rename(built, target, ec);
    return ec ? "cannot rename the finished folder into place (" + ec.message() + ")" : "";
  }
  if (!fs::is_directory(target, ec) || (!fs::is_empty(target, ec) && !is_layoutproof_report(target)))
    return "it holds files that are not a layoutproof report";
  if (::syscall(SYS_renameat2, AT_FDCWD, built.c_str(), AT_FDCWD, target.c_str(), 2 /* RENAME_EXCHANGE */) == 0) {
    sync_path(parent_of(target));
    fs::remove_all(built, ec);  // the old report, still tracked as the folder being deleted
    return "";
  }
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
    return std::string("cannot swap the finished folder into place (") + std::strerror(errno) + ")";
  // A file system without the exchange: the old report steps aside for the instant of one rename,
  // and the signal handler puts it back if it is killed in that instant.
  const fs::path old = partial_sibling(target).string() + "-old";
  fs::remove_all(old, ec);
  g_target.track(target.string());
  g_old.track(old.string());
  fs::rename(target, old, ec);
  if (!ec) fs::rename(built, target, ec);
  std::error_code back;
  if (ec && !fs::exists(target, back)) fs::rename(old, target, back);
  g_target.untrack();
  std::string failure = ec ? "cannot rename the finished folder into place (" + ec.message() + ")" : "";
  fs::remove_all(old, ec);
  g_old.untrack();
  return failure;
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
  if (!stream) g_file.track(tmp.string());
  std::string failure = write_stream(tmp, write);
  if (stream) return failure.empty() ? "" : "cannot write " + what + " to " + path + ": " + failure;
  if (failure.empty()) {
    sync_path(tmp);
    fs::rename(tmp, p, ec);
    if (ec) failure = "cannot rename the finished file into place (" + ec.message() + ")";
    else sync_path(parent_of(p));
  }
  if (!failure.empty()) fs::remove(tmp, ec);
  g_file.untrack();
  return failure.empty() ? "" : "cannot write " + what + " to " + path + ": " + failure;
}

std::string write_file_atomically(const std::string& path, const std::string& what, const std::string& content) {
  return write_file_atomically(path, what, [&](std::ostream& o) { o << content; });
}

void check_report_folder(const std::string& report_dir) {
  std::error_code ec;
  const fs::path dir(report_dir);
  if (report_dir.empty()) throw LayoutError("--report needs a folder");
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw LayoutError("--report " + report_dir + " is a file, not a folder");
    if (!is_layoutproof_report(dir) && !fs::is_empty(dir, ec))
      throw LayoutError("--report " + report_dir + " holds files that are not a layoutproof report; give an empty or new folder "
                        "(a report folder is replaced whole)");
  }
  if (!fs::is_directory(parent_of(dir), ec))
    throw LayoutError("--report " + report_dir + ": folder " + parent_of(dir).string() + " does not exist");
  // Leftovers of runs killed by a signal no handler sees (SIGKILL).
  const std::string prefix = "." + dir.filename().string() + ".partial-";
  for (const auto& e : fs::directory_iterator(parent_of(dir), ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) fs::remove_all(e.path(), ec);
}

void publish_report_folder(const std::string& report_dir, const std::function<void(const std::string& folder)>& fill) {
  const fs::path target(report_dir), built = partial_sibling(target);
  std::error_code ec;
  g_folder.track(built.string());  // from before it exists: a kill at any later moment removes it
  fs::remove_all(built, ec);
  fs::create_directory(built, ec);
  const auto fail = [&](const std::string& why) {
    fs::remove_all(built, ec);
    g_folder.untrack();
    throw LayoutError("--report: cannot write the report to " + report_dir + ": " + why);
  };
  if (ec) fail("cannot create " + built.string() + " (" + ec.message() + ")");
  try {
    fill(built.string());
  } catch (const std::exception& e) {
    const std::string what = e.what();
    fail(what.rfind("--report: ", 0) == 0 ? what.substr(10) : what);
  }
  sync_path(built);
  if (const std::string failure = swap_into_place(built, target); !failure.empty()) fail(failure);
  g_folder.untrack();
}

void write_report_file(const std::string& folder, const std::string& name, const std::string& content) {
  std::error_code ec;
  fs::create_directory(folder, ec);  // a check report's claimN/; never its parents
  const fs::path path = fs::path(folder) / name;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw LayoutError("cannot write " + path.string() + " (" + std::strerror(errno) + ")");
  std::size_t at = 0;
  while (at < content.size()) {
    const ssize_t n = ::write(fd, content.data() + at, content.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = errno;
      ::close(fd);
      throw LayoutError("cannot write " + path.string() + " (" + std::strerror(e) + ")");
    }
    at += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  if (::close(fd) != 0 || !synced) throw LayoutError("cannot write " + path.string() + " (the write failed: disk full?)");
}

void clear_stale_outputs(const std::vector<std::string>& files, const std::string& report_dir) {
  std::error_code ec;
  if (!report_dir.empty()) check_report_folder(report_dir);
  for (const std::string& f : files)
    if (!f.empty() && fs::is_regular_file(f, ec)) fs::remove(f, ec);
  if (!report_dir.empty() && fs::exists(report_dir, ec) && is_layoutproof_report(report_dir)) retire_folder(report_dir);
}

void install_interrupt_cleanup() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);  // one handler at a time: a second signal waits for the first's _exit
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace layoutproof::cli
