// The `compiled:` section of a spec (cli/spec/spec.hpp): a build's compiled kernels, gated like
// layouts. Each entry is what `layoutproof ptx` takes on its command line:
//
//   compiled:
//     - name: column_read                 # names the subject in every output
//       file: ../build/kernels.ptx        # relative to the spec file's folder
//       format: ptx                       # optional: ptx | sass (default: the extension's,
//                                         #   .ptx -> ptx, .sass/.txt -> sass)
//       kernel: column_read               # a text the kernel's mangled or demangled name contains
//       block: [32, 1, 1]                 # or 32
//       grid: [1, 1, 1]                   # optional (default 1,1,1; CTA (0,0,0) runs)
//       cta: [1, 0, 0]                    # optional: the CTA that runs (as --cta: verdicts about it alone)
//       params: {1: 5, _Z9broadcastPfi_param_1: 5}   # optional: index from 0 or PTX name -> value
//       smem_bytes: 0                     # optional: the dynamic shared memory's size
//       max_paths: 64                     # optional: as --max-paths
//       claims: [conflict-free, in-bounds]   # conflict-free max-ways:K aligned in-bounds no-overlap
//       deadline_s: 30                    # optional: this entry's time limit, from its start
//       allow_empty: true                 # optional: the launch may execute no shared-memory
//                                         #   instruction (else that is an ERROR: a gate over nothing)
//
// Everything is read and checked here, before any claim is proved: the file read and parsed, the
// kernels selected and decoded, every parameter matched to a kernel, each launch built. Every
// error is located on the spec's own line (exit 2). A file is read and parsed once however many
// entries name it (model/compiled/compiled_file.hpp CompiledFiles): a kernel library's gate is
// one entry per kernel of one file. The kernels run later, in run_compiled
// (proofs/check/compiled.hpp), which `layoutproof ptx` runs through too.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <memory>
#include <set>

#include "cli/output/escape.hpp"  // shell_quote
#include "cli/spec/spec_schema.hpp"
#include "model/atoms/name_suggest.hpp"
#include "model/bank/bank.hpp"  // kMaxBlockThreads, kSmemBytes
#include "model/compiled/compiled_file.hpp"
#include "model/hopper/tensor_map.hpp"
#include "proofs/claims/deadline.hpp"
#include "proofs/claims/ptx_claims.hpp"

namespace layoutproof::cli {
namespace {

using proofs::Check;

SourceLocation where(const SpecSource& src, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return {src.path(), m.line + 1, m.column + 1};
}

// A LayoutError of f, located at the node.
template <class F>
auto at_node(const SpecSource& src, const YAML::Node& n, F&& f) {
  try {
    return f();
  } catch (const LayoutError& e) {
    src.fail(n, e.what());
  }
}

// block/grid: X or [X, Y, Z] (one to three numbers), each in [1, max].
// X or [X, Y, Z], each in lo..max (those not given: lo).
std::array<i64, 3> dims(const SpecSource& src, const YAML::Node& n, const std::string& key, i64 max, i64 lo = 1) {
  std::array<i64, 3> d{lo, lo, lo};
  if (n.IsScalar()) {
    d[0] = spec_integer(src, n, key, lo, max);
    return d;
  }
  if (!n.IsSequence() || n.size() < 1 || n.size() > 3) src.fail(n, "'" + key + "' is X or [X, Y, Z] (one to three numbers)");
  for (std::size_t k = 0; k < n.size(); ++k) d[k] = spec_integer(src, n[k], key, lo, max);
  return d;
}

// The compiled file: `file` relative to the spec's folder (an absolute path as it is), normalized
// ("specs/../build/k.ptx" -> "build/k.ptx"), which is how results and SARIF name it.
std::string resolve(const SpecSource& src, const std::string& file) {
  const std::filesystem::path f(file);
  const std::filesystem::path p = f.is_absolute() ? f : std::filesystem::path(src.path()).parent_path() / f;
  return p.lexically_normal().generic_string();
}

// An unknown claim names the closest one.
[[noreturn]] void fail_claim(const SpecSource& src, const YAML::Node& n, const std::string& text) {
  static const std::vector<std::string> names = {"conflict-free", "max-ways", "aligned", "in-bounds", "no-overlap",
                                                  "operand-contract", "tma-aligned", "descriptor-valid", "tensor-map-valid"};
  std::string msg = "unknown claim '" + text + "' for a compiled kernel (conflict-free, max-ways:K, aligned, in-bounds, no-overlap, "
                    "operand-contract, tma-aligned, descriptor-valid, tensor-map-valid)";
  if (const auto near = nearest(text.substr(0, text.find(':')), names)) msg += "; did you mean '" + *near + "'?";
  src.fail(n, msg);
}

Check compiled_check(const SpecSource& src, const YAML::Node& entry, const std::string& name, compiled::CompiledFiles& files) {
  const std::string what = "a compiled entry";
  auto e = std::make_shared<proofs::CompiledEntry>();
  // The file and its format: the one dispatch is read_compiled_file (model/compiled/compiled_file.hpp).
  const YAML::Node file_node = spec_need(src, entry, "file", what);
  e->file = resolve(src, spec_scalar(src, entry, "file", what));
  std::optional<compiled::CompiledFormat> format;
  if (entry["format"]) {
    format = compiled::parse_compiled_format(spec_scalar(src, entry, "format", what));
    if (!format) src.fail(entry["format"], "'format' is ptx or sass, not '" + entry["format"].Scalar() + "'");
  } else {
    format = compiled::compiled_format_of(e->file);
    if (!format)
      src.fail(file_node, "the extension of '" + e->file + "' names no format (.ptx: ptx; .sass, .txt: sass): give 'format: ptx' or 'format: sass'");
  }
  const YAML::Node format_node = entry["format"] ? entry["format"] : file_node;
  if (!compiled::compiled_format_available(*format))
    src.fail(format_node, "format " + compiled::to_string(*format) + (entry["format"] ? "" : " (from the file's extension)") +
                              " is not available in this build; gate the PTX instead (nvcc -arch=sm_90 -ptx -lineinfo, or -keep)");
  std::error_code ec;
  const auto status = std::filesystem::status(e->file, ec);
  if (!std::filesystem::exists(status))
    src.fail(file_node, "no file '" + e->file + "' ('file' is relative to the spec's folder; build or commit the " +
                            compiled::to_string(*format) + " first)");
  // A device, a pipe or a folder is not a build's output (and /dev/zero would be read to the limit).
  if (!std::filesystem::is_regular_file(status)) src.fail(file_node, "'" + e->file + "' is not a regular file");
  // Entries naming one file share its Program (read once); this entry's kernels decode into it.
  const std::shared_ptr<compiled::Program> shared_program = at_node(src, file_node, [&] { return files.read(e->file, *format); });
  compiled::Program& program = *shared_program;

  // The kernels, each parameter, the launch.
  const YAML::Node kernel_node = spec_need(src, entry, "kernel", what);
  const std::string kernel = spec_scalar(src, entry, "kernel", what);
  const std::vector<std::size_t> kernels = at_node(src, kernel_node, [&] { return proofs::select_ptx_kernels(program, kernel, "kernel"); });
  proofs::PtxLaunchRequest request;
  request.block_given_by = "block:";
  const YAML::Node block_node = spec_need(src, entry, "block", what);
  request.block = dims(src, block_node, "block", kMaxBlockThreads);
  at_node(src, block_node, [&] { proofs::check_block_dims(*request.block, "block"); });
  if (entry["grid"]) {
    request.grid = dims(src, entry["grid"], "grid", i64{1} << 31);
    request.grid_given = true;
    at_node(src, entry["grid"], [&] { proofs::check_grid_dims(request.grid, "grid"); });
  }
  std::string flags = " --block " + proofs::dims_text(*request.block);
  if (entry["grid"]) flags += " --grid " + proofs::dims_text(request.grid);
  if (entry["cta"]) {
    request.cta = dims(src, entry["cta"], "cta", (i64{1} << 31) - 2, 0);
    for (std::size_t d = 0; d < 3; ++d)
      if ((*request.cta)[d] >= request.grid[d])
        src.fail(entry["cta"], "cta " + proofs::dims_text(*request.cta) + " is outside the grid " + proofs::dims_text(request.grid) + " (each from 0, below grid's)");
    flags += " --cta " + proofs::dims_text(*request.cta);
  }
  if (const YAML::Node ps = entry["params"]; ps && !ps.IsNull()) {
    if (!ps.IsMap()) src.fail(ps, "'params' is a map: parameter (index from 0, or PTX name) -> value");
    std::set<std::string> seen;
    for (const auto& kv : ps) {
      if (!kv.first.IsScalar() || kv.first.Scalar().empty()) src.fail(kv.first, "a parameter is an index from 0 or a PTX name");
      const std::string key = kv.first.Scalar();
      if (!seen.insert(key).second) src.fail(kv.first, "parameter '" + key + "' is given twice");
      if (!kv.second.IsScalar()) src.fail(kv.second, "a parameter's value is one integer (decimal, negative, or 0x hex)");
      const proofs::PtxParamValue v =
          at_node(src, kv.second, [&] { return proofs::parse_ptx_param_value(kv.second.Scalar(), "params: " + key); });
      request.params.push_back({key, v, {0, 0}, "params: " + key});
      at_node(src, kv.first, [&] { proofs::check_ptx_param(program, kernels, request.params, request.params.size() - 1); });
      flags += " --param " + shell_quote(key + "=" + kv.second.Scalar());
    }
  }
  if (const YAML::Node ps = entry["param_ranges"]; ps && !ps.IsNull()) {
    if (!ps.IsMap()) src.fail(ps, "'param_ranges' is a map: parameter (index from 0, or name) -> \"LO..HI\" (signed)");
    for (const auto& kv : ps) {
      if (!kv.first.IsScalar() || kv.first.Scalar().empty()) src.fail(kv.first, "a parameter is an index from 0 or a name");
      const std::string key = kv.first.Scalar(), text = kv.second.IsScalar() ? kv.second.Scalar() : "";
      const std::size_t dots = text.find("..");
      if (dots == std::string::npos) src.fail(kv.second, "a range is \"LO..HI\" (signed integers, LO <= HI)");
      const auto end = [&](const std::string& t) {
        return at_node(src, kv.second, [&] { return compiled::parse_range_end(t, "param_ranges: " + key); });
      };
      const i64 lo = end(text.substr(0, dots)), hi = end(text.substr(dots + 2));
      if (lo > hi) src.fail(kv.second, "a range is \"LO..HI\" with LO <= HI");
      request.params.push_back({key, std::nullopt, {lo, hi}, "param_ranges: " + key});
      at_node(src, kv.first, [&] { proofs::check_ptx_param(program, kernels, request.params, request.params.size() - 1); });
      flags += " --param-range " + shell_quote(key + "=" + text);
    }
  }
  if (const YAML::Node as = entry["assume"]; as && !as.IsNull()) {
    if (!as.IsSequence()) src.fail(as, "'assume' is a list of conditions such as 'p2 % 8 == 0' (layoutproof ptx --help, --assume)");
    for (const YAML::Node& x : as) {
      if (!x.IsScalar() || x.Scalar().empty()) src.fail(x, "an assumption is one condition such as 'p2 >= 8'");
      const std::string what = "assume: '" + x.Scalar() + "'";
      at_node(src, x, [&] { return compiled::parse_assumption(x.Scalar(), what); });  // its syntax, where it is written
      request.assume.push_back({x.Scalar(), what});
      flags += " --assume " + shell_quote(x.Scalar());
    }
  }
  if (entry["cluster"]) {
    request.cluster = dims(src, entry["cluster"], "cluster", 16);
    flags += " --cluster " + compiled::dims_text(*request.cluster);
  }
  // tensor_maps: parameter (index or name, +OFF) -> the map the host encodes, as --tensor-map.
  std::vector<proofs::TensorMapBinding> maps;
  if (const YAML::Node tm = entry["tensor_maps"]; tm && !tm.IsNull()) {
    if (!tm.IsMap()) src.fail(tm, "'tensor_maps' is a map: parameter (index from 0, or name; +OFF for a field) -> \"dtype=bf16,dims=...,box=...,swizzle=128B\"");
    for (const auto& kv : tm) {
      const std::string key = kv.first.Scalar();
      if (!kv.second.IsScalar()) src.fail(kv.second, "tensor_maps: " + key + " is the map's text (layoutproof tensor-map --help)");
      hopper::TensorMap m = at_node(src, kv.second, [&] { return hopper::parse_tensor_map_spec(kv.second.Scalar()); });
      maps.push_back(at_node(src, kv.first, [&] { return proofs::bind_tensor_map(key, std::move(m)); }));
      flags += " --tensor-map " + shell_quote(key + "=" + kv.second.Scalar());
    }
  }
  if (entry["smem_bytes"]) {
    request.smem_bytes = spec_integer(src, entry["smem_bytes"], "smem_bytes", 0, kSmemBytes);
    flags += " --smem-bytes " + std::to_string(request.smem_bytes);
  }
  if (entry["max_paths"]) {
    request.max_paths = static_cast<std::size_t>(spec_integer(src, entry["max_paths"], "max_paths", 1, i64{1} << 20));
    flags += " --max-paths " + std::to_string(request.max_paths);
  }
  if (entry["allow_empty"]) {
    const YAML::Node& n = entry["allow_empty"];
    if (!n.IsScalar() || (n.Scalar() != "true" && n.Scalar() != "false")) src.fail(n, "allow_empty is true or false");
    request.allow_empty = n.Scalar() == "true";
    if (request.allow_empty) flags += " --allow-empty";
  }
  e->launches = at_node(src, file_node, [&] {
    std::vector<proofs::PtxKernelLaunch> launches = proofs::plan_ptx_launches(program, kernel, request, "kernel");
    proofs::decode_ptx_launches(program, launches);
    return launches;
  });

  // The claims.
  for (const YAML::Node& n : spec_claims(src, entry)) {
    if (!n.IsScalar() || n.Scalar().empty()) src.fail(n, "a claim is one word such as conflict-free or in-bounds");
    const auto claim = at_node(src, n, [&] { return proofs::parse_ptx_claim(n.Scalar()); });
    if (!claim) fail_claim(src, n, n.Scalar());
    e->claims.push_back(*claim);
    e->claims.back().tensor_maps = maps;
    e->claim_where.push_back(where(src, n));
  }
  if (entry["deadline_s"])
    e->deadline_s = at_node(src, entry["deadline_s"], [&] {
      return proofs::Deadline::parse(spec_scalar(src, entry, "deadline_s", what), "deadline_s").seconds;
    });
  e->command = "layoutproof " + compiled::to_string(*format) + " " + shell_quote(e->file) + " --kernel " + shell_quote(kernel) + flags;
  e->program = shared_program;

  Check c;
  c.name = name;
  for (const proofs::PtxClaim& cl : e->claims) c.claim.text += (c.claim.text.empty() ? "" : ", ") + cl.text;
  c.origin.where = where(src, entry);
  std::string text = "kernel " + kernel + " of " + e->file;
  c.subject = proofs::CompiledSubject{std::move(e), std::move(text)};
  return c;
}

}  // namespace

int compiled_files_read(const std::vector<Check>& checks) {
  std::set<const compiled::Program*> programs;
  for (const Check& c : checks)
    if (const auto* s = std::get_if<proofs::CompiledSubject>(&c.subject)) programs.insert(s->entry->program.get());
  return static_cast<int>(programs.size());
}

std::vector<Check> compiled_checks(const SpecSource& src, const YAML::Node& entries, bool allow_empty) {
  std::vector<Check> checks;
  std::set<std::string> names;
  compiled::CompiledFiles files;  // this run's: the checks keep the programs, not the cache
  for (const auto& entry : entries) {
    check_keys(src, entry, SpecLevel::compiled);
    const std::string name = spec_unique_name(src, entry, "a compiled entry", names);
    Check c = compiled_check(src, entry, name, files);
    if (std::get<proofs::CompiledSubject>(c.subject).entry->claims.empty()) {
      if (!allow_empty) src.fail(entry, "compiled entry '" + name + "' has no claims: it proves nothing (--allow-empty lets it)");
      continue;
    }
    checks.push_back(std::move(c));
  }
  return checks;
}

}  // namespace layoutproof::cli
