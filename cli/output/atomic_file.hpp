#pragma once
// Output files a CI can trust after a crash, a full disk or a kill: every file and report folder is
// either the previous run's or this run's complete one, never a prefix, never from two runs.
//
//  - write_file_atomically: the bytes go to a temporary file beside PATH (".NAME.partial-PID", same
//    folder, so the rename cannot cross file systems), are flushed to disk (fsync), then renamed
//    over PATH. A reader sees the old file or the whole new one, never a prefix.
//  - publish_report_folder, the one way a report folder is written (every --report: ptx, sass,
//    trace, prove, raster, check, catalog): the files are written into a hidden sibling
//    ".NAME.partial-PID", each flushed to disk, the folder too, and the sibling then takes NAME's
//    place in one rename (an old report is swapped out by renameat2's RENAME_EXCHANGE and deleted
//    after). At every moment NAME is the old report or the new complete one.
//  - check_report_folder, before any work: a --report that is a file or a folder of the user's (not
//    empty, not a layoutproof report) is refused (exit 2); nothing of the user's is ever replaced.
//  - clear_stale_outputs, at the start of a run with several outputs (check, catalog): removes the
//    files and the report folder the run will write, so that whatever a killed run leaves comes
//    from one run (its outputs or none), never the previous run's beside half of its own.
//  - SIGINT and SIGTERM (install_interrupt_cleanup): the handler removes the temporary file being
//    written and the hidden folder being built or retired (with async-signal-safe calls only:
//    openat, getdents64, unlinkat), puts an old report back where the exchange could not be used,
//    and exits at once with 128 + the signal (130, 143), saying so on stderr. No ".partial" stays.
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

// LayoutError (exit 2, before any proof) when `report_dir` is a file, or a folder that is not empty
// and not a layoutproof report (its index.html carries kReportGenerator). Also removes the hidden
// ".NAME.partial-*" siblings a run killed by SIGKILL may have left.
void check_report_folder(const std::string& report_dir);

// Builds the report folder `report_dir` and publishes it (the header's rule): `fill(folder)` writes
// every file into `folder` (write_report_file), the hidden sibling. Throws LayoutError ("--report:
// ...") when a file or the rename fails, after removing the sibling; `report_dir` is then as it was.
void publish_report_folder(const std::string& report_dir, const std::function<void(const std::string& folder)>& fill);

// Writes `folder`/NAME inside a folder being built (creating `folder` itself, not its parents:
// a check report's claimN/), flushed to disk. Throws LayoutError naming the file when it cannot.
void write_report_file(const std::string& folder, const std::string& name, const std::string& content);

// check_report_folder(report_dir), then removes `files` (each may be absent) and `report_dir` when
// it is a layoutproof report folder.
void clear_stale_outputs(const std::vector<std::string>& files, const std::string& report_dir);

// SIGINT/SIGTERM: remove what is being written, exit 128 + signal. Called once from main().
void install_interrupt_cleanup();

}  // namespace layoutproof::cli
