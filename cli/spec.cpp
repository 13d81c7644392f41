#include "cli/spec.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <map>
#include <sstream>

#include "model/cpp_source.hpp"
#include "model/kernel_expr.hpp"
#include "model/notation.hpp"

namespace layoutproof::cli {
namespace {

using proofs::Check;
using proofs::SourceLocation;

SourceLocation where(const std::string& path, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return {path, m.line + 1, m.column + 1};
}

[[noreturn]] void fail(const std::string& path, const YAML::Node& n, const std::string& what) {
  const SourceLocation w = where(path, n);
  throw LayoutError(path + ":" + std::to_string(w.line) + ":" + std::to_string(w.column) + ": " + what);
}

std::string scalar(const std::string& path, const YAML::Node& n, const char* key) {
  if (!n[key]) fail(path, n, std::string("missing '") + key + "'");
  if (!n[key].IsScalar()) fail(path, n[key], std::string("'") + key + "' must be a single value");
  return n[key].as<std::string>();
}

std::vector<YAML::Node> list(const std::string& path, const YAML::Node& n, const char* key) {
  std::vector<YAML::Node> out;
  if (!n[key]) return out;
  if (n[key].IsScalar()) return {n[key]};
  if (!n[key].IsSequence()) fail(path, n[key], std::string("'") + key + "' must be a list");
  for (const auto& x : n[key]) out.push_back(x);
  return out;
}

// Errors from the model or the claim parser, located at the node they came from.
template <class F>
auto located(const std::string& path, const YAML::Node& n, F&& f) {
  try {
    return f();
  } catch (const ParseError& e) {
    fail(path, n, std::string(e.what()));
  } catch (const LayoutError& e) {
    fail(path, n, e.what());
  }
}

proofs::BankSubject access_subject(const std::string& path, const YAML::Node& a, const AnyLayout& tile, int bits,
                                   const CppConstants& constants) {
  if (bits < 8) fail(path, a, "accesses need elements of at least 8 bits (write the tile in bytes for sub-byte types)");
  AccessSpec spec;
  spec.tile = tile;
  spec.elem_bytes = bits / 8;
  spec.pattern = located(path, a, [&] { return parse_pattern(scalar(path, a, "pattern")); });
  const std::string op_text = a["op"] ? scalar(path, a, "op") : "ld";
  const auto op = parse_smem_op(op_text);
  if (!op) fail(path, a["op"], "unknown op '" + op_text + "' (ld st ldsm1 ldsm2 ldsm4 stsm1 stsm2 stsm4)");
  spec.vec = a["vec"] ? located(path, a["vec"], [&] { return std::stoi(scalar(path, a, "vec")); }) : 16 / spec.elem_bytes;
  if (a["base"]) spec.base_address = located(path, a["base"], [&] { return std::stoll(scalar(path, a, "base")); });
  if (a["byte_swizzle"])
    spec.byte_swizzle = located(path, a["byte_swizzle"], [&] {
      const LayoutOrSwizzle sw = parse_layout_or_swizzle(scalar(path, a, "byte_swizzle"), constants);
      if (!sw.bare_swizzle) throw LayoutError("byte_swizzle takes a swizzle (Sw<3,4,3> or Swizzle<3,4,3>{}), not a layout");
      return *sw.layout.swizzle;
    });
  if (a["thread_layout"])
    spec.thread_layout = located(path, a["thread_layout"], [&] {
      const AnyLayout t = parse_layout_any_syntax(scalar(path, a, "thread_layout"), constants);
      if (t.is_swizzled()) throw LayoutError("thread_layout takes a plain layout, not " + to_string(t));
      return t.layout;
    });
  return located(path, a, [&] { return proofs::make_bank_subject(spec, *op); });
}

// A claim whose argument is a layout (equivalent:L2, inverse:R) with the layout in CuTe notation, so
// that the claim parser (proofs/claim.hpp) reads a C++ argument through the one input path too.
std::string normalized_claim(const std::string& text, const CppConstants& constants) {
  for (const std::string prefix : {"equivalent:", "inverse:"})
    if (text.rfind(prefix, 0) == 0 && text.size() > prefix.size())
      return prefix + to_string(parse_layout_any_syntax(text.substr(prefix.size()), constants));
  return text;
}

// The element of a kernel's smem tensor: a C++ type (half_t, float, ...) or a spec name (f16, ...).
std::string kernel_element(const std::string& path, const YAML::Node& n) {
  const std::string e = scalar(path, n, "element");
  if (type_bits(e)) return e;
  static const std::map<std::string, std::string> aliases = {
      {"f16", "half_t"}, {"bf16", "bfloat16_t"}, {"f32", "float"}, {"tf32", "tfloat32_t"}, {"f64", "double"},
      {"i8", "int8_t"}, {"u8", "uint8_t"}, {"e4m3", "float_e4m3_t"}, {"e5m2", "float_e5m2_t"}, {"i32", "int32_t"}};
  const auto it = aliases.find(e);
  if (it == aliases.end()) fail(path, n["element"], "unknown element type '" + e + "'");
  return it->second;
}

// constants: {NAME: C++ expression}, with the command line's overrides added.
CppConstants spec_constants(const std::string& path, const YAML::Node& root, const CppConstants& overrides) {
  CppConstants constants;
  if (root["constants"]) {
    if (!root["constants"].IsMap()) fail(path, root["constants"], "'constants' is a map NAME: C++ expression");
    for (const auto& kv : root["constants"]) {
      if (!kv.second.IsScalar()) fail(path, kv.second, "a constant is one C++ expression (quote it if it has ': ' or '#')");
      constants[kv.first.as<std::string>()] = kv.second.as<std::string>();
    }
  }
  for (const auto& [name, text] : overrides) constants[name] = text;
  return constants;
}

// kernels: [{name, mma?, smem: [{name, element, layout, claims?, copies: [{name, copy, side, base?, claims}]}]}]
std::vector<Check> kernel_checks(const std::string& path, const YAML::Node& root, const CppConstants& constants) {
  std::vector<Check> checks;
  for (const auto& k : root["kernels"]) {
    const std::string kname = scalar(path, k, "name");
    std::optional<TiledMma> mma;
    if (k["mma"]) mma = located(path, k["mma"], [&] { return parse_tiled_mma(scalar(path, k, "mma"), constants); });
    const auto tensors = list(path, k, "smem");
    if (tensors.empty()) fail(path, k, "a kernel needs 'smem:' tensors, each with its copies");
    for (const auto& t : tensors) {
      const std::string tname = kname + ": " + scalar(path, t, "name");
      const std::string element = kernel_element(path, t);
      const AnyLayout smem = located(path, t["layout"] ? t["layout"] : t, [&] { return parse_smem_layout(scalar(path, t, "layout"), constants); });
      for (const auto& c : list(path, t, "claims"))
        checks.push_back(located(path, c, [&] { return proofs::make_check(tname, smem, normalized_claim(c.as<std::string>(), constants), std::nullopt, where(path, c)); }));
      for (const auto& cp : list(path, t, "copies")) {
        const std::string side = scalar(path, cp, "side");
        if (side != "S" && side != "D") fail(path, cp["side"], "side is S (smem is the copy's source) or D (its destination)");
        TraceOptions o;
        if (cp["base"]) o.base_address = located(path, cp["base"], [&] { return static_cast<i64>(std::stoll(scalar(path, cp, "base"), nullptr, 0)); });
        const auto trace = located(path, cp["copy"] ? cp["copy"] : cp, [&] {
          const TiledCopy copy = parse_tiled_copy(scalar(path, cp, "copy"), mma, constants);
          if (copy.atom.value_bits != *type_bits(element))
            throw LayoutError("the copy moves " + copy.atom.value_type + " values but the tensor holds " + element);
          return std::make_shared<const AddressTrace>(trace_copy(copy, smem, side == "S" ? CopySide::S : CopySide::D, o));
        });
        const std::string subject = tname + " " + scalar(path, cp, "name");
        const std::string access = to_string(trace->op) + " " + std::to_string(trace->width_bytes) + " B";
        const auto claims = list(path, cp, "claims");
        if (claims.empty()) fail(path, cp, "a copy needs 'claims:' (conflict-free, max-ways:K, vector-legal, covers)");
        for (const auto& c : claims)
          checks.push_back(located(path, c, [&] { return proofs::make_kernel_check(subject, trace, c.as<std::string>(), access, where(path, c)); }));
      }
    }
  }
  return checks;
}

}  // namespace

int element_bits(const std::string& name) {
  static const std::map<std::string, int> bits = {
      {"f64", 64}, {"double", 64}, {"i64", 64}, {"u64", 64},  {"f32", 32},  {"float", 32}, {"tf32", 32}, {"i32", 32},
      {"u32", 32}, {"f16", 16},    {"half", 16}, {"bf16", 16}, {"i16", 16}, {"u16", 16},   {"i8", 8},    {"u8", 8},
      {"int8", 8}, {"e4m3", 8},    {"e5m2", 8},  {"f8", 8},    {"i4", 4},   {"u4", 4},     {"e2m1", 4},  {"f4", 4}};
  const auto it = bits.find(name);
  if (it == bits.end()) throw LayoutError("unknown element type '" + name + "' (f16 bf16 f32 tf32 f64 i8 u8 e4m3 e5m2 i4 ...)");
  return it->second;
}

std::vector<Check> parse_spec(const std::string& text, const std::string& path, const CppConstants& overrides) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw LayoutError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  const bool has_layouts = root && root["layouts"] && root["layouts"].IsSequence();
  const bool has_kernels = root && root["kernels"] && root["kernels"].IsSequence();
  if (!has_layouts && !has_kernels)
    throw LayoutError(path + ": a spec needs a 'layouts:' or a 'kernels:' list (see layoutproof --help and docs/ci.md)");
  const CppConstants constants = spec_constants(path, root, overrides);
  std::vector<Check> checks;
  if (has_kernels) checks = kernel_checks(path, root, constants);
  if (!has_layouts) return checks;
  for (const auto& entry : root["layouts"]) {
    const std::string name = scalar(path, entry, "name");
    const AnyLayout layout = located(path, entry["layout"] ? entry["layout"] : entry,
                                     [&] { return parse_layout_any_syntax(scalar(path, entry, "layout"), constants); });
    int bits = 0;
    if (entry["bits"]) bits = located(path, entry["bits"], [&] { return std::stoi(scalar(path, entry, "bits")); });
    if (entry["element"]) bits = located(path, entry["element"], [&] { return element_bits(scalar(path, entry, "element")); });
    for (const auto& c : list(path, entry, "claims")) {
      Check check = located(path, c, [&] { return proofs::make_check(name, layout, normalized_claim(c.as<std::string>(), constants), std::nullopt, where(path, c)); });
      check.element_bits = bits;
      if (check.kind == Check::Kind::tma && bits == 0) fail(path, c, "a tma claim needs the element type");
      checks.push_back(std::move(check));
    }
    for (const auto& a : list(path, entry, "accesses")) {
      if (bits == 0) fail(path, a, "accesses need the element type ('element: f16' or 'bits: 16')");
      const proofs::BankSubject subject = access_subject(path, a, layout, bits, constants);
      const auto claims = list(path, a, "claims");
      if (claims.empty()) fail(path, a, "an access needs 'claims: [conflict-free]' (or max-ways:K)");
      for (const auto& c : claims) {
        Check check = located(path, c, [&] { return proofs::make_check(name, layout, normalized_claim(c.as<std::string>(), constants), subject, where(path, c)); });
        check.element_bits = bits;
        checks.push_back(std::move(check));
      }
    }
  }
  return checks;
}

std::vector<Check> load_spec(const std::string& path, const CppConstants& overrides) {
  std::ifstream f(path);
  if (!f) throw LayoutError("cannot read spec file " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_spec(ss.str(), path, overrides);
}

}  // namespace layoutproof::cli
