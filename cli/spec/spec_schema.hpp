#pragma once
// The strict schema of spec files (cli/spec/spec.hpp): which keys each level of a spec accepts, and
// errors located on the spec's own text (file:line:column and a caret under the offending spot).
//
// Levels and their keys (docs/spec.schema.json publishes the same sets; ctest
// cli.spec_schema checks that they are equal, through `layoutproof check --spec-keys`):
//   top     version deadline_s constants layouts kernels compiled schedulers
//   layout  name layout element bits claims accesses source          (an entry of layouts:)
//   access  pattern op vec claims base byte_swizzle thread_layout     (an entry of accesses:)
//   kernel  name mma smem source                                      (an entry of kernels:)
//   smem    name element layout shape base align claims copies        (an entry of smem:)
//   copy    name copy side base claims                                (an entry of copies:)
//   compiled name file format kernel block grid params smem_bytes claims deadline_s
//                                                                     (an entry of compiled:)
//   scheduler name kind tiles groups cluster max_swizzle raster sms max_active_clusters k_tiles
//           splits decomposition reduction corrected max_tiles max_groups claims deadline_s
//                                                                     (an entry of schedulers:)
// An unknown key is an error that names the closest known key of its level ("did you mean
// 'claims'?") or the level it belongs to ("'base' belongs to an access (under accesses:)").
//
// Positions: yaml-cpp marks where a node starts; a C++ text inside a scalar (a `|` block of
// several lines, say) has its own offsets, which map_offset() carries back to the file, so an
// error in line 2 of
//     layout: |
//       make_layout(make_shape(8, 8),
//                   make_stride(8, foo))
// is reported at the file's line of `foo`, with the caret under `foo`.
#include <yaml-cpp/yaml.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/spec/spec.hpp"

namespace layoutproof::cli {

enum class SpecLevel { top, layout, access, kernel, smem, copy, compiled, scheduler };

struct SpecLevelKeys {
  SpecLevel level;
  std::string name;   // "top", "layout", ... (as --spec-keys prints it)
  std::string where;  // "the top level", "a layout entry (under layouts:)", ...
  std::vector<std::string> keys;
};
const std::vector<SpecLevelKeys>& spec_levels();

// The text of a spec file, to locate errors on it.
class SpecSource {
 public:
  SpecSource(std::string path, std::string text);
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }

  // An error at a 0-based byte position of the file.
  [[noreturn]] void fail_at(std::size_t pos, const std::string& message) const;
  // An error at the node's first character.
  [[noreturn]] void fail(const YAML::Node& n, const std::string& message) const;
  // An error `offset` bytes into the node's scalar value (the value as yaml-cpp returns it),
  // mapped back to the file; at the node's start when the mapping is not exact.
  [[noreturn]] void fail_in_scalar(const YAML::Node& n, std::size_t offset, const std::string& message) const;

  // 1-based line and column of a byte position, and the file's text of a line.
  std::pair<int, int> line_column(std::size_t pos) const;
  std::string line_text(int line) const;

  // The file position of byte `offset` of the scalar's value; npos when it cannot be told.
  std::size_t map_offset(const YAML::Node& n, std::size_t offset) const;

 private:
  std::string path_, text_;
  std::vector<std::size_t> line_starts_;
};

// Every key of the map is known at its level, and none appears twice; throws SpecError otherwise.
void check_keys(const SpecSource& src, const YAML::Node& map, SpecLevel level);

// An integer written in decimal or 0x hex, in [lo, hi]; throws SpecError at the node otherwise.
long long spec_integer(const SpecSource& src, const YAML::Node& n, const std::string& key, long long lo, long long hi);

// The readers every section shares, each failing located at the node:
//   spec_need         map[key], or "missing 'key' in WHAT" at the map
//   spec_scalar       map[key] as one non-empty value
//   spec_list         map[key] as a list (a single value is a list of one; absent or null: none)
//   spec_claims       map["claims"] as a list, no claim twice
//   spec_unique_name  entry["name"], not among `seen` (which it joins)
YAML::Node spec_need(const SpecSource& src, const YAML::Node& map, const char* key, const std::string& what);
std::string spec_scalar(const SpecSource& src, const YAML::Node& map, const char* key, const std::string& what);
std::vector<YAML::Node> spec_list(const SpecSource& src, const YAML::Node& map, const char* key);
std::vector<YAML::Node> spec_claims(const SpecSource& src, const YAML::Node& map);
std::string spec_unique_name(const SpecSource& src, const YAML::Node& entry, const std::string& what, std::set<std::string>& seen);

// The checks of a `compiled:` list (cli/spec/spec_compiled.cpp): one check about a CompiledSubject per entry,
// its file read (once for all the entries that name it: they share its Program), its kernels
// selected and decoded and their launches built, so that every error of the entry is found (and
// located) before anything runs.
std::vector<proofs::Check> compiled_checks(const SpecSource& src, const YAML::Node& entries, bool allow_empty);

// The checks of a `schedulers:` list (cli/spec/spec_schedulers.cpp): one check about a SchedulerSubject per
// entry and claim, each entry's query validated (the schedule or domain built once) so that every
// error is located before anything runs.
std::vector<proofs::Check> scheduler_checks(const SpecSource& src, const YAML::Node& entries, bool allow_empty);

}  // namespace layoutproof::cli
