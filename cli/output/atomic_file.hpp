#pragma once
// Output files a CI can trust after a crash, a full disk or a kill: every file and report folder is
// either absent or complete, and never from two runs.
//
//  - write_file_atomically: the bytes go to a temporary file beside PATH (".NAME.partial-PID", same
//    folder, so the rename cannot cross file systems), are flushed and closed, then renamed over
//    PATH. A reader sees the old file or the whole new one, never a prefix.
//  - clear_stale_outputs, at the start of a run: removes the files the run will write and a report
//    folder it wrote before, so a run that does not finish leaves none of them rather than the
//    previous run's beside half of its own.
//  - A report folder is built as a sibling ".NAME.partial-PID" and renamed into place when complete
//    (publish_report_folder).
//  - SIGINT and SIGTERM (install_interrupt_cleanup): the temporary file being written is removed and
//    the process exits at once with 128 + the signal (130, 143), saying so on stderr. A report
//    folder being built (or retired) then stays as its hidden ".NAME.partial-PID" sibling, never
//    under NAME; the next run removes it (a signal handler cannot safely delete a tree).
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace layoutproof::cli {

// Writes what `write` produces to `path` atomically. Returns "" or one line naming `what`, the
// path and the failure (no such folder, a folder in the way, a failed write or rename); the
// temporary file is then removed.
std::string write_file_atomically(const std::string& path, const std::string& what,
                                  const std::function<void(std::ostream&)>& write);
// The same for a string.
std::string write_file_atomically(const std::string& path, const std::string& what, const std::string& content);

// The marker every report index.html carries, so a folder is replaced only when layoutproof wrote it.
inline constexpr const char* kReportGenerator = "<meta name=\"generator\" content=\"layoutproof report\"/>";

// Removes `files` (each may be absent) and `report_dir` when it is a layoutproof report folder (its
// index.html carries kReportGenerator), with its leftover ".NAME.partial-*" siblings. Throws
// LayoutError (exit 2, before any proof) when report_dir exists, is not empty and is not such a
// folder: its files are the user's, never deleted.
void clear_stale_outputs(const std::vector<std::string>& files, const std::string& report_dir);

// A fresh temporary sibling of `report_dir` to build the report in.
std::string partial_report_folder(const std::string& report_dir);
// Renames the complete `partial` folder to `report_dir` (removing a layoutproof report folder in
// the way). Returns "" or the failure.
std::string publish_report_folder(const std::string& partial, const std::string& report_dir);

// SIGINT/SIGTERM: remove the file being written, exit 128 + signal. Called once from main().
void install_interrupt_cleanup();

}  // namespace layoutproof::cli
