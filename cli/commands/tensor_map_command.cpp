#include "cli/commands/tensor_map_command.hpp"

#include <fstream>
#include <memory>
#include <ostream>

#include <nlohmann/json.hpp>

#include "cli/help.hpp"
#include "cli/output/results.hpp"
#include "cli/flags/common_flags.hpp"
#include "cli/run_flags.hpp"
#include "proofs/check/run_check.hpp"
#include "model/support/error.hpp"
#include "proofs/claims/tma_claim.hpp"

namespace layoutproof::cli {
namespace {

using json = nlohmann::ordered_json;

struct TensorMapArgs {
  std::vector<std::string> specs, files;
  OutputFlags out;
};

FlagTable tensor_map_table(TensorMapArgs& a) {
  FlagTable t("tensor-map");
  t.value({"--tensor-maps"}, "FILE",
          "JSON lines, one map per line, as the capture shim writes them: {\"kernel\": \"...\", \"param\": 0,\n"
          "\"dtype\": \"bf16\", \"dims\": [4096, 4096], \"strides\": [8192], \"box\": [64, 128], \"swizzle\": \"128B\"}\n"
          "(also elem_strides, interleave, l2, oob, address); an unknown key or value: exit 2 at its line",
          [&a](const std::string& v) { a.files.push_back(v); });
  add_output_flags(t, a.out);
  t.positional("SPEC", [&a](const std::string& s) { a.specs.push_back(s); });
  return t;
}

// A field's value as the --tensor-map spelling writes it: a list `x`-joined, a string as is.
std::string spec_value(const std::string& key, const json& v, const std::string& where) {
  const auto number = [&](const json& x) {
    if (x.is_number_unsigned()) return std::to_string(x.get<std::uint64_t>());
    if (x.is_number_integer() && x.get<std::int64_t>() >= 0) return std::to_string(x.get<std::int64_t>());
    if (key == "address" && x.is_string()) return x.get<std::string>();
    throw LayoutError(where + ": " + key + ": " + x.dump() + " is not a non-negative integer");
  };
  if (key == "dims" || key == "strides" || key == "box" || key == "elem_strides") {
    if (!v.is_array()) throw LayoutError(where + ": " + key + ": " + v.dump() + " is not an array of integers");
    std::string s;
    for (const json& x : v) s += (s.empty() ? "" : "x") + number(x);
    return s;
  }
  if (key == "address") return number(v);
  if (!v.is_string()) throw LayoutError(where + ": " + key + ": " + v.dump() + " is not a string");
  const std::string s = v.get<std::string>();
  if (s.find_first_of(",=") != std::string::npos) throw LayoutError(where + ": " + key + ": '" + s + "' is not a " + key);
  return s;
}

NamedTensorMap map_of_line(const std::string& line, const std::string& where) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::exception& e) {
    throw LayoutError(where + ": not a JSON object (" + std::string(e.what()).substr(0, 160) + ")");
  }
  if (!j.is_object()) throw LayoutError(where + ": not a JSON object");
  static const char* const keys[] = {"kernel", "param", "dtype", "dims", "strides", "box", "elem_strides", "interleave", "swizzle", "l2", "oob", "address"};
  NamedTensorMap n;
  n.where = where;
  std::string spec;
  for (const auto& [k, v] : j.items()) {
    if (std::find_if(std::begin(keys), std::end(keys), [&](const char* x) { return k == x; }) == std::end(keys))
      throw LayoutError(where + ": unknown key '" + k + "' (keys: kernel, param, dtype, dims, strides, box, elem_strides, interleave, swizzle, l2, oob, address)");
    if (k == "kernel") {
      if (!v.is_string()) throw LayoutError(where + ": kernel: " + v.dump() + " is not a string");
      n.kernel = v.get<std::string>();
    } else if (k == "param") {
      if (v.is_number_integer() && v.get<std::int64_t>() >= 0) n.param = std::to_string(v.get<std::int64_t>());
      else if (v.is_string() && !v.get<std::string>().empty()) n.param = v.get<std::string>();
      else throw LayoutError(where + ": param: " + v.dump() + " is not a parameter index or name");
    } else {
      spec += (spec.empty() ? "" : ",") + k + "=" + spec_value(k, v, where);
    }
  }
  try {
    n.map = hopper::parse_tensor_map_spec(spec);
  } catch (const LayoutError& e) {
    std::string m = e.what();
    if (m.rfind("--tensor-map", 0) == 0) m = m.substr(m.find_first_not_of(" :", 12) == std::string::npos ? 12 : m.find_first_not_of(" :", 12));
    throw LayoutError(where + ": " + m);
  }
  return n;
}

}  // namespace

std::vector<NamedTensorMap> read_tensor_maps(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw LayoutError(path + ": cannot open the tensor-map capture");
  std::vector<NamedTensorMap> out;
  std::string line;
  for (std::size_t no = 1; std::getline(in, line); ++no) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    out.push_back(map_of_line(line, path + ":" + std::to_string(no)));
  }
  return out;
}

FlagTable tensor_map_flags() {
  auto a = std::make_shared<TensorMapArgs>();
  FlagTable t = tensor_map_table(*a);
  t.keep(a);
  return t;
}

int run_tensor_map(const std::vector<std::string>& args, std::ostream& out) {
  if (wants_help(args)) return out << *help_text("tensor-map"), 0;
  TensorMapArgs a;
  tensor_map_table(a).parse(args);
  std::vector<NamedTensorMap> maps;
  for (std::size_t i = 0; i < a.specs.size(); ++i) maps.push_back({"argument " + std::to_string(i + 1), "", "", hopper::parse_tensor_map_spec(a.specs[i])});
  for (const std::string& f : a.files)
    for (NamedTensorMap& n : read_tensor_maps(f)) maps.push_back(std::move(n));
  if (maps.empty()) throw LayoutError("tensor-map needs a SPEC or --tensor-maps FILE (see layoutproof tensor-map --help)");
  std::vector<proofs::CheckResult> results;
  nlohmann::ordered_json listed = nlohmann::ordered_json::array();
  for (const NamedTensorMap& n : maps) {
    proofs::Check c;
    c.name = n.where + (n.kernel.empty() && n.param.empty() ? "" : " (kernel " + (n.kernel.empty() ? "?" : n.kernel) + ", param " +
                                                                       (n.param.empty() ? "?" : n.param) + ")");
    c.subject = proofs::TensorMapSubject{n.map, hopper::spec_text(n.map)};
    c.claim = {"tensor-map-valid", std::monostate{}};
    results.push_back(proofs::run_check(c, proofs::ProveOptions{}).front());
    listed.push_back({{"where", n.where}, {"kernel", n.kernel.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(n.kernel)},
                      {"param", n.param.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(n.param)},
                      {"spec", hopper::spec_text(n.map)}});
  }
  ResultView view;
  view.source = "tensor-map";
  view.one_subject = maps.size() == 1;  // several: the table, a row per map (its subject, where it came from)
  view.subject_line = maps[0].where + ": " + hopper::spec_text(maps[0].map);
  view.json_extra = {{"tensor_maps", std::move(listed)}};
  return emit(out, results, a.out, view);
}

}  // namespace layoutproof::cli
