#include "cli/spec/spec.hpp"

#include "cli/spec/yaml_guard.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cli/output/escape.hpp"  // shell_quote
#include "cli/spec/spec_schema.hpp"
#include "model/bank/bank.hpp"  // kSmemBytes
#include "model/support/checked.hpp"
#include "model/support/json.hpp"
#include "model/source/cpp_parse.hpp"
#include "model/source/cpp_source.hpp"
#include "model/source/kernel_expr.hpp"
#include "model/layout/notation.hpp"
#include "model/trace/smem_bases.hpp"
#include "proofs/synth/kernel_synth.hpp"

namespace layoutproof::cli {

namespace {

std::string located_text(const std::string& file, int line, int column, const std::string& message) {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
}

}  // namespace

SpecError::SpecError(std::string f, int l, int c, std::string m, std::string source_line)
    : ParseError(m, static_cast<std::size_t>(std::max(c, 1)), std::move(source_line)),
      file(std::move(f)),
      line(std::max(l, 1)),
      column(std::max(c, 1)),
      message(std::move(m)),
      text_(located_text(file, line, column, message)) {}

namespace {

using proofs::Check;

// What the loader reads: the spec's text (to locate errors) and its constants with the nodes they
// came from (an error inside a constant's C++ points into the constant).
struct Ctx {
  SpecSource src;
  CppConstants constants;
  std::map<std::string, YAML::Node> constant_nodes;  // constant text -> its node
  bool allow_empty = false;
};

SourceLocation where(const Ctx& c, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return {c.src.path(), m.line + 1, m.column + 1};
}

YAML::Node need(const Ctx& c, const YAML::Node& map, const char* key, const std::string& what) {
  return spec_need(c.src, map, key, what);
}
std::string scalar(const Ctx& c, const YAML::Node& map, const char* key, const std::string& what) {
  return spec_scalar(c.src, map, key, what);
}
std::vector<YAML::Node> list(const Ctx& c, const YAML::Node& map, const char* key) { return spec_list(c.src, map, key); }

// "expected X at column C of '...'" / "... at line L, column C": the position is the caret's now.
std::string without_position(const std::string& what) {
  for (const char* tail : {" at column ", " at line "}) {
    const std::size_t k = what.rfind(tail);
    if (k != std::string::npos && k > 0) return what.substr(0, k);
  }
  return what;
}

// A parse error of a text inside node n (or inside one of the constants it uses), located on the
// file: the caret goes under the character the parser stopped at.
[[noreturn]] void fail_parse(const Ctx& c, const YAML::Node& n, const ParseError& e) {
  if (n.IsScalar() && !e.input.empty() && e.column >= 1) {
    const std::string msg = without_position(e.what());
    if (const std::size_t at = n.Scalar().find(e.input); at != std::string::npos)
      c.src.fail_in_scalar(n, at + e.column - 1, msg);
    for (const auto& [text, node] : c.constant_nodes)  // the C++ front end labels constants "-D NAME: "
      if (const std::size_t at = text.find(e.input); at != std::string::npos)
        c.src.fail_in_scalar(node, at + e.column - 1, msg.rfind("-D ", 0) == 0 ? "constant " + msg.substr(3) : msg);
  }
  c.src.fail(n, e.what());
}

// Errors from the model or the claim parser, located at the node they came from.
template <class F>
auto located(const Ctx& c, const YAML::Node& n, F&& f) {
  try {
    return f();
  } catch (const SpecError&) {
    throw;
  } catch (const ParseError& e) {
    fail_parse(c, n, e);
  } catch (const LayoutError& e) {
    c.src.fail(n, e.what());
  }
}

// An unknown claim gets the closest claim name as a hint.
[[noreturn]] void fail_claim(const Ctx& c, const YAML::Node& n, const std::string& what) {
  static const std::vector<std::string> names = {"injective",     "bijective", "swizzle-permutes", "surjective", "contiguous",
                                                 "equivalent",    "involution", "inverse",   "tma",
                                                 "conflict-free", "max-ways",   "vector-legal", "covers"};
  const std::string text = n.Scalar(), head = text.substr(0, text.find(':'));
  if (std::find(names.begin(), names.end(), head) == names.end())
    if (const auto near = cpp_detail::nearest(head, names)) c.src.fail(n, what + "; did you mean '" + *near + "'?");
  c.src.fail(n, what);
}

template <class F>
Check claim_check(const Ctx& c, const YAML::Node& n, F&& f) {
  if (!n.IsScalar() || n.Scalar().empty()) c.src.fail(n, "a claim is one word such as bijective or conflict-free");
  try {
    return f(n.Scalar());
  } catch (const ParseError& e) {
    fail_parse(c, n, e);
  } catch (const LayoutError& e) {
    fail_claim(c, n, e.what());
  }
}

std::vector<YAML::Node> claims_of(const Ctx& c, const YAML::Node& map) { return spec_claims(c.src, map); }

// source: FILE:LINE (the kernel source a layout or kernel lives in).
SourceLocation code_location(const Ctx& c, const YAML::Node& entry) {
  if (!entry["source"]) return {};
  const YAML::Node n = entry["source"];
  const std::string t = n.IsScalar() ? n.Scalar() : "";
  const std::size_t colon = t.rfind(':');
  const std::string digits = colon == std::string::npos ? "" : t.substr(colon + 1);
  const bool ok = colon != std::string::npos && colon > 0 && !digits.empty() && digits.size() <= 9 &&
                  digits.find_first_not_of("0123456789") == std::string::npos && digits.find_first_not_of('0') != std::string::npos;
  if (!ok) c.src.fail(n, "'source' is FILE:LINE (the kernel source, e.g. kernels/gemm.cu:120), not '" + t + "'");
  return {t.substr(0, colon), static_cast<int>(parse_int_in(digits, "source line", 1, 999999999)), 1};
}

int element_bits_of(const Ctx& c, const YAML::Node& entry) {
  if (entry["element"] && entry["bits"])
    c.src.fail(entry["bits"], "give 'element' or 'bits', not both (element: f16 means bits: 16)");
  if (entry["element"]) {
    const YAML::Node n = entry["element"];
    return located(c, n, [&] { return element_bits(n.IsScalar() ? n.Scalar() : ""); });
  }
  if (!entry["bits"]) return 0;
  const int bits = static_cast<int>(spec_integer(c.src, entry["bits"], "bits", 1, 128));
  if (bits & (bits - 1)) c.src.fail(entry["bits"], "'bits' is a power of two: 1, 2, 4, 8, 16, 32, 64 or 128, not " + std::to_string(bits));
  return bits;
}

proofs::BankSubject access_subject(const Ctx& c, const YAML::Node& a, const AnyLayout& tile, int bits) {
  check_keys(c.src, a, SpecLevel::access);
  if (bits < 8) c.src.fail(a, "accesses need elements of at least 8 bits (write the tile in bytes for sub-byte types)");
  if (bits % 8) c.src.fail(a, "accesses need whole-byte elements, not " + std::to_string(bits) + " bits");
  AccessSpec spec;
  spec.tile = tile;
  spec.elem_bytes = bits / 8;
  const std::string what = "an access";
  spec.pattern = located(c, need(c, a, "pattern", what), [&] { return parse_pattern(scalar(c, a, "pattern", what)); });
  const std::string op_text = a["op"] ? scalar(c, a, "op", what) : "ld";
  const auto op = parse_smem_op(op_text);
  if (!op) c.src.fail(a["op"], "unknown op '" + op_text + "' (ld st ldsm1 ldsm2 ldsm4 stsm1 stsm2 stsm4)");
  const bool matrix = is_matrix_op(*op);
  spec.vec = proofs::default_vec(spec.elem_bytes);  // 16 bytes per lane, as prove and synth (proofs/claims/bank_claims.hpp)
  if (a["vec"]) {
    const long long vec = spec_integer(c.src, a["vec"], "vec", -1000000, 1000000);
    if (vec < 1) c.src.fail(a["vec"], "vec (the vector width, in elements) must be at least 1, not " + std::to_string(vec));
    if (vec > 128) c.src.fail(a["vec"], "vec (the vector width, in elements) is at most 16 bytes' worth, not " + std::to_string(vec));
    spec.vec = static_cast<int>(vec);
    const int width = spec.vec * spec.elem_bytes;
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
      c.src.fail(a["vec"], "vec " + std::to_string(spec.vec) + " of " + std::to_string(spec.elem_bytes) + "-byte elements is a " +
                               std::to_string(width) + "-byte access; shared-memory accesses are 1, 2, 4, 8 or 16 bytes");
  }
  if (a["base"]) {
    spec.base_address = spec_integer(c.src, a["base"], "base", 0, kSmemBytes - 1);  // shared memory: 227 KiB
    const int width = matrix ? 16 : spec.vec * spec.elem_bytes;
    if (spec.base_address % width)
      c.src.fail(a["base"], "base " + std::to_string(spec.base_address) + " is not a multiple of the " + std::to_string(width) +
                                "-byte access width");
  }
  if (a["byte_swizzle"])
    spec.byte_swizzle = located(c, a["byte_swizzle"], [&] {
      const LayoutOrSwizzle sw = parse_layout_or_swizzle(scalar(c, a, "byte_swizzle", what), c.constants);
      if (!sw.bare_swizzle) throw LayoutError("byte_swizzle takes a swizzle (Sw<3,4,3> or Swizzle<3,4,3>{}), not a layout");
      return *sw.layout.swizzle;
    });
  const bool thread_pattern = spec.pattern == PatternKind::thread_layout;
  if (a["thread_layout"] && !thread_pattern)
    c.src.fail(a["thread_layout"], "'thread_layout' goes with pattern: thread-layout, not pattern: " + to_string(spec.pattern));
  if (thread_pattern && !a["thread_layout"]) c.src.fail(a["pattern"], "pattern: thread-layout needs 'thread_layout:' (lane -> first element)");
  if (a["thread_layout"])
    spec.thread_layout = located(c, a["thread_layout"], [&] {
      const AnyLayout t = parse_layout_any_syntax(scalar(c, a, "thread_layout", what), c.constants);
      if (t.is_swizzled()) throw LayoutError("thread_layout takes a plain layout, not " + to_string(t));
      return t.layout;
    });
  proofs::BankSubject s = located(c, a, [&] { return proofs::make_bank_subject(spec, *op); });
  (void)located(c, a, [&] { return proofs::instruction_count(s); });  // the tile's rank and the vector width fit
  const i64 cols = spec.tile.layout.rank() == 2 ? product(spec.tile.layout.shape[1]) : 0;
  if (!matrix && cols % spec.vec)
    c.src.fail(a["vec"] ? a["vec"] : a, "the tile's " + std::to_string(cols) + " columns are not a whole number of " +
                                             std::to_string(spec.vec) + "-element vectors");
  return s;
}

// Key fields that tell two accesses of one layout apart in the access text.
std::string access_suffix(const proofs::BankSubject& s) {
  std::string t;
  if (s.spec.base_address) t += ", base " + std::to_string(s.spec.base_address);
  if (s.spec.byte_swizzle) t += ", " + to_string(*s.spec.byte_swizzle);
  if (s.spec.thread_layout) t += ", lanes " + to_string(*s.spec.thread_layout);
  return t;
}

// A claim whose argument is a layout (equivalent:L2, inverse:R) with the layout in CuTe notation, so
// that the claim parser (proofs/claims/claim.hpp) reads a C++ argument through the one input path too.
std::string normalized_claim(const std::string& text, const CppConstants& constants) {
  for (const std::string prefix : {"equivalent:", "inverse:"})
    if (text.rfind(prefix, 0) == 0 && text.size() > prefix.size())
      return prefix + to_string(parse_layout_any_syntax(text.substr(prefix.size()), constants));
  return text;
}

// The element of a kernel's smem tensor: a C++ type (half_t, float, ...) or a spec name (f16, ...).
std::string kernel_element(const Ctx& c, const YAML::Node& n) {
  const std::string e = scalar(c, n, "element", "an smem tensor");
  if (type_bits(e)) return e;
  static const std::map<std::string, std::string> aliases = {
      {"f16", "half_t"}, {"bf16", "bfloat16_t"}, {"f32", "float"}, {"tf32", "tfloat32_t"}, {"f64", "double"},
      {"i8", "int8_t"}, {"u8", "uint8_t"}, {"e4m3", "float_e4m3_t"}, {"e5m2", "float_e5m2_t"}, {"i32", "int32_t"}};
  const auto it = aliases.find(e);
  if (it == aliases.end()) c.src.fail(n["element"], "unknown element type '" + e + "' (half_t, float, ... or f16, f32, ...)");
  return it->second;
}

// constants: {NAME: C++ expression}, with the command line's overrides added.
void read_constants(Ctx& c, const YAML::Node& root, const CppConstants& overrides) {
  if (const YAML::Node k = root["constants"]; k && !k.IsNull()) {
    if (!k.IsMap()) c.src.fail(k, "'constants' is a map NAME: C++ expression");
    for (const auto& kv : k) {
      if (!kv.second.IsScalar() || kv.second.Scalar().empty())
        c.src.fail(kv.second, "a constant is one C++ expression (quote it if it has ': ' or '#')");
      const std::string name = kv.first.Scalar();
      if (c.constants.count(name)) c.src.fail(kv.first, "constant '" + name + "' is defined twice");
      c.constants[name] = kv.second.Scalar();
      c.constant_nodes.emplace(kv.second.Scalar(), kv.second);
    }
  }
  for (const auto& [name, text] : overrides) c.constants[name] = text;
}

std::string unique_name(const Ctx& c, const YAML::Node& entry, const std::string& what, std::set<std::string>& seen) {
  return spec_unique_name(c.src, entry, what, seen);
}

// An smem tensor's placement (model/trace/smem_bases.hpp): `base: ADDR` (one byte address) or `align: N`
// (every multiple of N); neither: the base 0, or each copy's own `base:`.
SmemPlacement smem_placement(const Ctx& c, const YAML::Node& t) {
  SmemPlacement p;
  if (t["base"] && t["align"]) c.src.fail(t["align"], "give 'base' (the buffer's one address) or 'align' (every multiple of N), not both");
  if (t["base"]) p.base = spec_integer(c.src, t["base"], "base", 0, kSmemBytes - 1);  // shared memory: 227 KiB
  if (t["align"]) {
    p.align = spec_integer(c.src, t["align"], "align", 1, 1ll << 20);
    if (*p.align & (*p.align - 1)) c.src.fail(t["align"], "'align' is a power of two (bytes), not " + std::to_string(*p.align));
  }
  return p;
}

// The smem tensor's claim at its placement: a tma claim without base= or align= takes the tensor's
// (`base: B` -> base=B, `align: N` -> align=N: one check, decided at every base; proofs/claims/tma_claim.hpp),
// others as written.
std::vector<Check> smem_claim_checks(const Ctx& c, const YAML::Node& t, const YAML::Node& n, const std::string& tname,
                                     const AnyLayout& smem, int bits, const std::string& claim) {
  const std::string text = normalized_claim(claim, c.constants);
  Check check = proofs::make_check(tname, smem, text, std::nullopt, where(c, n), bits);
  const SmemPlacement place = smem_placement(c, t);
  if (check.kind() != proofs::CheckKind::tma || (!place.base && !place.align) || text.find(",base=") != std::string::npos ||
      text.find(",align=") != std::string::npos)
    return {check};
  const auto tma = proofs::parse_tma_claim(text);
  // the placement's bases must be decidable (at most kMaxPlacementBases; located error otherwise)
  (void)located(c, t[place.base ? "base" : "align"], [&] { return placement_bases(place, smem, tma->sw); });
  const std::size_t box = text.find(",box=");
  const std::string at = place.base ? ",base=" + std::to_string(*place.base) : ",align=" + std::to_string(*place.align);
  return {proofs::make_check(tname, smem, text.substr(0, box) + at + (box == std::string::npos ? "" : text.substr(box)), std::nullopt,
                             where(c, n), bits)};
}

// `layout: synthesize` with `shape: (MN,K[,STAGES])`: one check that runs synth --kernel over the
// tensor's copies (proofs/synth/kernel_synth.hpp kernel_synth_verdict; docs/synth_kernel.md). The search
// proves conflict-free, vector-legal and covers itself, so the copies carry no claims (nor the
// tensor); the tensor's base:/align: is the placement the winner must hold at.
Check synthesize_check(const Ctx& c, const YAML::Node& t, const std::string& tname, const std::string& element,
                       const std::optional<TiledMma>& mma) {
  if (t["claims"]) c.src.fail(t["claims"], "'claims' does not go with 'layout: synthesize' (the search proves its copies' claims itself)");
  auto q = std::make_shared<proofs::KernelSynthRequest>();
  q->element = element;
  const YAML::Node shape = need(c, t, "shape", "an smem tensor with 'layout: synthesize'");
  q->shape = located(c, shape, [&] {
    const std::vector<i64> v = proofs::parse_smem_shape(scalar(c, t, "shape", "an smem tensor"), "'shape'");
    (void)proofs::smem_family(v, std::max(1, *type_bits(element) / 8));  // its extents checked (LayoutError)
    return v;
  });
  const std::string last = tname.substr(tname.rfind(' ') + 1);  // sA -> the C++ names SmemLayoutAtomA, SmemLayoutA
  q->name = last.size() == 2 && last[0] == 's' && std::isupper(static_cast<unsigned char>(last[1])) ? last.substr(1) : "A";
  std::set<std::string> names;
  for (const auto& cp : list(c, t, "copies")) {
    check_keys(c.src, cp, SpecLevel::copy);
    (void)unique_name(c, cp, "a copy", names);
    for (const char* key : {"claims", "base"})
      if (cp[key]) c.src.fail(cp[key], std::string("'") + key + "' does not go with 'layout: synthesize' (the search proves conflict-free, vector-legal and covers)");
    const std::string side = scalar(c, cp, "side", "a copy");
    if (side != "S" && side != "D") c.src.fail(cp["side"], "side is S (smem is the copy's source) or D (its destination)");
    if (proofs::is_tma_copy(scalar(c, cp, "copy", "a copy"))) {  // a constraint on the layout, not lanes to score
      if (!q->tma_copy.empty()) c.src.fail(cp["copy"], "one TMA copy per tensor");
      q->tma_copy = scalar(c, cp, "copy", "a copy");
      continue;
    }
    q->copies.push_back({located(c, need(c, cp, "copy", "a copy"), [&] {
                           TiledCopy copy = parse_tiled_copy(scalar(c, cp, "copy", "a copy"), mma, c.constants);
                           if (copy.atom.value_bits != *type_bits(element))
                             throw LayoutError("the copy moves " + copy.atom.value_type + " values but the tensor holds " + element);
                           return copy;
                         }),
                         side == "S" ? CopySide::S : CopySide::D});
  }
  if (q->copies.empty())
    c.src.fail(t, q->tma_copy.empty() ? "'layout: synthesize' needs the tensor's 'copies:' (the search scores the layouts on them)"
                                      : "'layout: synthesize' needs a copy the SM issues besides the TMA copy (a TMA copy alone leaves nothing to score)");
  if (mma) proofs::set_descriptor_operand(*q, mma->atom.name);  // a GMMA operand: the GMMA atoms only
  // base:/align: the winner must hold at every base (proofs/synth/kernel_synth.hpp); each base a multiple of
  // every copy's access width, checked here (the width read from a trace on the compact tile).
  q->placement = smem_placement(c, t);
  if (q->placement.base || q->placement.align)
    (void)located(c, t[q->placement.base ? "base" : "align"], [&] {
      proofs::check_placement_widths(q->placement, proofs::copy_widths(*q));
      return 0;
    });
  Check check;
  check.name = tname;
  check.claim.text = "synthesize";
  const std::string text = "shape " + scalar(c, t, "shape", "an smem tensor") + ", " + std::to_string(q->copies.size()) + " copies";
  check.subject = proofs::SynthSubject{std::move(q), text};
  check.origin.where = where(c, t["layout"]);
  return check;
}

// kernels: [{name, mma?, source?, smem: [{name, element, layout, base?|align?, claims?, copies: [{name, copy, side, base?, claims}]}]}]
std::vector<Check> kernel_checks(const Ctx& c, const YAML::Node& kernels) {
  std::vector<Check> checks;
  std::set<std::string> kernel_names;
  for (const auto& k : kernels) {
    check_keys(c.src, k, SpecLevel::kernel);
    const std::string kname = unique_name(c, k, "a kernel entry", kernel_names);
    const SourceLocation code = code_location(c, k);
    const std::size_t first = checks.size();
    std::optional<TiledMma> mma;
    if (k["mma"]) mma = located(c, k["mma"], [&] { return parse_tiled_mma(scalar(c, k, "mma", "a kernel entry"), c.constants); });
    const auto tensors = list(c, k, "smem");
    if (tensors.empty()) c.src.fail(k, "a kernel needs 'smem:' tensors, each with its copies");
    std::set<std::string> tensor_names;
    for (const auto& t : tensors) {
      check_keys(c.src, t, SpecLevel::smem);
      const std::string tname = kname + ": " + unique_name(c, t, "an smem tensor", tensor_names);
      const std::string element = kernel_element(c, t);
      if (scalar(c, t, "layout", "an smem tensor") == "synthesize") {
        checks.push_back(synthesize_check(c, t, tname, element, mma));
        continue;
      }
      if (t["shape"]) c.src.fail(t["shape"], "'shape' goes with 'layout: synthesize' (the staged tile the search lays out)");
      const AnyLayout smem = located(c, need(c, t, "layout", "an smem tensor"),
                                     [&] { return parse_smem_layout(scalar(c, t, "layout", "an smem tensor"), c.constants); });
      const SmemPlacement place = smem_placement(c, t);
      for (const auto& n : claims_of(c, t)) {
        std::vector<Check> more;
        (void)claim_check(c, n, [&](const std::string& claim) {
          more = smem_claim_checks(c, t, n, tname, smem, *type_bits(element), claim);
          return more.front();
        });
        checks.insert(checks.end(), more.begin(), more.end());
      }
      std::set<std::string> copy_names;
      for (const auto& cp : list(c, t, "copies")) {
        check_keys(c.src, cp, SpecLevel::copy);
        const std::string cname = unique_name(c, cp, "a copy", copy_names);
        const std::string side = scalar(c, cp, "side", "a copy");
        if (side != "S" && side != "D") c.src.fail(cp["side"], "side is S (smem is the copy's source) or D (its destination)");
        TraceOptions o;
        if (cp["base"] && (place.base || place.align))
          c.src.fail(cp["base"], "the smem tensor gives its " + std::string(place.base ? "base" : "align") + "; drop the copy's 'base'");
        if (cp["base"]) o.base_address = spec_integer(c.src, cp["base"], "base", 0, kSmemBytes - 1);  // shared memory: 227 KiB
        const YAML::Node place_node = t[place.base ? "base" : "align"];
        const std::vector<i64> bases =
            place.base || place.align ? located(c, place_node, [&] { return placement_bases(place, smem); }) : std::vector<i64>{o.base_address};
        std::shared_ptr<const AddressTrace> one;  // covers: the elements moved do not depend on the base
        const auto trace = located(c, need(c, cp, "copy", "a copy"), [&] {
          const TiledCopy copy = parse_tiled_copy(scalar(c, cp, "copy", "a copy"), mma, c.constants);
          if (copy.atom.value_bits != *type_bits(element))
            throw LayoutError("the copy moves " + copy.atom.value_type + " values but the tensor holds " + element);
          const CopySide cs = side == "S" ? CopySide::S : CopySide::D;
          if (bases.size() > 1) one = std::make_shared<const AddressTrace>(trace_copy_at_bases(copy, smem, cs, {bases.front()}, o));
          return std::make_shared<const AddressTrace>(trace_copy_at_bases(copy, smem, cs, bases, o));
        });
        if (!one) one = trace;
        for (const i64 b : bases)
          if (trace->width_bytes > 0 && b % trace->width_bytes)
            c.src.fail(cp["base"] ? cp["base"] : place_node,
                       (place.align ? "align " + std::to_string(*place.align) + " allows base " : "base ") + std::to_string(b) +
                           ", not a multiple of the copy's " + std::to_string(trace->width_bytes) + "-byte access width" +
                           (place.align ? " (give align: " + std::to_string(trace->width_bytes) + " or more)" : ""));
        const std::string subject = tname + " " + cname;
        const std::string access = to_string(trace->op) + " " + std::to_string(trace->width_bytes) + " B";
        const auto claims = claims_of(c, cp);
        if (claims.empty()) c.src.fail(cp, "a copy needs 'claims:' (conflict-free, max-ways:K, vector-legal, covers)");
        // The trace command that decides each claim alone: every spec constant as -D, the base
        // when the placement has one (an align: placement: the report adds its witness's base).
        std::string command = "layoutproof trace --side " + side + " --element " + shell_quote(element) + " --smem " +
                              shell_quote(scalar(c, t, "layout", "an smem tensor"));
        if (k["mma"]) command += " --mma " + shell_quote(scalar(c, k, "mma", "a kernel entry"));
        command += " --copy " + shell_quote(scalar(c, cp, "copy", "a copy"));
        for (const auto& [name, expr] : c.constants) command += " -D " + shell_quote(name + "=" + expr);
        if (bases.size() == 1 && bases.front() != 0) command += " --base " + std::to_string(bases.front());
        for (const auto& n : claims)
          checks.push_back(claim_check(c, n, [&](const std::string& claim) {
            Check kc = proofs::make_kernel_check(subject, claim == "covers" ? one : trace, claim, access, where(c, n));
            kc.origin.command = command + " --claim " + shell_quote(claim);
            return kc;
          }));
      }
    }
    for (std::size_t i = first; i < checks.size(); ++i) checks[i].origin.code = code;
  }
  return checks;
}

// layouts: [{name, layout, element|bits, claims?, accesses?, source?}]
std::vector<Check> layout_checks(const Ctx& c, const YAML::Node& layouts) {
  std::vector<Check> checks;
  std::set<std::string> names;
  for (const auto& entry : layouts) {
    check_keys(c.src, entry, SpecLevel::layout);
    const std::string what = "a layout entry";
    const std::string name = unique_name(c, entry, what, names);
    const SourceLocation code = code_location(c, entry);
    const AnyLayout layout = located(c, need(c, entry, "layout", what),
                                     [&] { return parse_layout_any_syntax(scalar(c, entry, "layout", what), c.constants); });
    const int bits = element_bits_of(c, entry);
    const std::size_t first = checks.size();
    for (const auto& n : claims_of(c, entry)) {
      Check check = claim_check(c, n, [&](const std::string& claim) {
        return proofs::make_check(name, layout, normalized_claim(claim, c.constants), std::nullopt, where(c, n), bits);
      });
      if (check.kind() == proofs::CheckKind::bank) c.src.fail(n, "'" + check.claim.text + "' is a claim over an access: put it under accesses:");
      if (check.kind() == proofs::CheckKind::tma && bits == 0) c.src.fail(n, "a tma claim needs the element type ('element: f16' or 'bits: 16')");
      checks.push_back(std::move(check));
    }
    const auto accesses = list(c, entry, "accesses");
    std::vector<std::string> texts;  // the access text of each access, to tell equal ones apart
    for (std::size_t k = 0; k < accesses.size(); ++k) {
      const YAML::Node& a = accesses[k];
      if (bits == 0) c.src.fail(a, "accesses need the element type ('element: f16' or 'bits: 16')");
      const proofs::BankSubject subject = access_subject(c, a, layout, bits);
      const auto claims = claims_of(c, a);
      if (claims.empty()) c.src.fail(a, "an access needs 'claims: [conflict-free]' (or max-ways:K)");
      for (const auto& n : claims) {
        Check check = claim_check(c, n, [&](const std::string& claim) {
          return proofs::make_check(name, layout, normalized_claim(claim, c.constants), subject, where(c, n));
        });
        if (check.kind() != proofs::CheckKind::bank) c.src.fail(n, "'" + check.claim.text + "' is a layout claim: put it in the layout's claims:");
        std::get<proofs::AccessSubject>(check.subject).text += access_suffix(subject);
        checks.push_back(std::move(check));
      }
    }
    if (checks.size() == first && !c.allow_empty)
      c.src.fail(entry, "layout '" + name + "' has no claims and no accesses: it proves nothing (--allow-empty lets it)");
    for (std::size_t i = first; i < checks.size(); ++i) checks[i].origin.code = code;
  }
  return checks;
}

// Two checks with one id (two accesses of one layout that print alike) get the access's position.
void make_ids_unique(std::vector<Check>& checks) {
  std::map<std::string, int> count;
  for (const auto& ch : checks) ++count[ch.id()];
  std::map<std::string, int> seen;
  for (auto& ch : checks) {
    const std::string id = ch.id();
    if (count[id] > 1) proofs::access_text(ch) += " #" + std::to_string(++seen[id]);
  }
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

// Where a second YAML document starts: a "---" line after content, or content after a "..."
// line (document markers at the start of a line end any scalar, so a line scan finds them).
// Comments, blank lines and % directives are not content.
std::optional<std::size_t> second_document_at(const std::string& text) {
  bool content = false, ended = false;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    const auto marker = [&](const char* m) { return line.rfind(m, 0) == 0 && (line.size() == 3 || std::isspace(static_cast<unsigned char>(line[3]))); };
    const std::size_t first = line.find_first_not_of(" \t\r");
    const bool blank = first == std::string::npos || line[first] == '#' || (first == 0 && line[0] == '%');
    if (marker("---")) {
      if (content || ended) return at;
      content = line.find_first_not_of(" \t\r", 3) != std::string::npos && line[line.find_first_not_of(" \t\r", 3)] != '#';
    } else if (marker("...")) {
      ended = true;
    } else if (!blank) {
      if (ended) return at;
      content = true;
    }
    at = end + 1;
  }
  return std::nullopt;
}

std::vector<Check> parse_spec(const std::string& text, const std::string& path, const CppConstants& overrides,
                              bool allow_empty, SpecSettings* settings) {
  Ctx c{SpecSource(path, text), {}, {}, allow_empty};
  YAML::Node root;
  check_yaml_nesting(text, path);  // yaml-cpp recurses: refuse deep nesting first (exit 2, with a caret)
  try {
    // One document: a second one after '---' would be silently dropped by YAML::Load (case W3c).
    // Found by the line markers, not YAML::LoadAll: LoadAll hangs on some malformed input (fuzz
    // finding spec/timeout-0618af10, a flow sequence left open), where Load throws at once.
    // Names and texts go into JSON, JUnit, SARIF and HTML, which must stay valid UTF-8.
    if (const std::size_t bad = first_invalid_utf8(text); bad != std::string::npos) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[bad]));
      c.src.fail_at(bad, std::string("the spec is not UTF-8 text: byte ") + hex + " does not start a character here (save the file as UTF-8)");
    }
    if (const auto second = second_document_at(text))
      c.src.fail_at(*second, "a spec is one YAML document; a second one starts here (merge its lists into the first, or check each file on its own)");
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    if (e.mark.pos >= 0) c.src.fail_at(static_cast<std::size_t>(e.mark.pos), e.msg);
    throw LayoutError(path + ": " + e.msg);
  }
  if (!root || root.IsNull())
    throw LayoutError(path + ": the spec is empty; it needs a 'layouts:', 'kernels:', 'compiled:' or 'schedulers:' list (docs/ci.md, examples/)");
  check_keys(c.src, root, SpecLevel::top);
  if (root["version"]) {
    const long long v = spec_integer(c.src, root["version"], "version", 0, 1000000);
    if (v != kSpecVersion)
      c.src.fail(root["version"], "spec version " + std::to_string(v) + " is not known to layoutproof " LAYOUTPROOF_VERSION
                                  " (it reads version " + std::to_string(kSpecVersion) + ")");
  }
  for (const char* key : {"layouts", "kernels", "compiled", "schedulers"})
    if (root[key] && !root[key].IsNull() && !root[key].IsSequence()) c.src.fail(root[key], std::string("'") + key + "' is a list (- name: ...)");
  const bool has_layouts = root["layouts"] && root["layouts"].IsSequence();
  const bool has_kernels = root["kernels"] && root["kernels"].IsSequence();
  const bool has_compiled = root["compiled"] && root["compiled"].IsSequence();
  const bool has_schedulers = root["schedulers"] && root["schedulers"].IsSequence();
  if (!has_layouts && !has_kernels && !has_compiled && !has_schedulers)
    c.src.fail(root, "a spec needs a 'layouts:', 'kernels:', 'compiled:' or 'schedulers:' list (docs/ci.md and examples/ show them)");
  if (const YAML::Node d = root["deadline_s"]) {
    const double s = located(c, d, [&] { return proofs::Deadline::parse(scalar(c, root, "deadline_s", "the top level"), "deadline_s").seconds; });
    if (settings) settings->deadline_s = s;
  }
  read_constants(c, root, overrides);
  std::vector<Check> checks;
  if (has_kernels) checks = kernel_checks(c, root["kernels"]);
  if (has_layouts) {
    auto more = layout_checks(c, root["layouts"]);
    checks.insert(checks.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  if (has_compiled) {
    auto more = compiled_checks(c.src, root["compiled"], allow_empty);
    checks.insert(checks.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  if (has_schedulers) {
    auto more = scheduler_checks(c.src, root["schedulers"], allow_empty);
    checks.insert(checks.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  if (checks.empty() && !allow_empty)
    c.src.fail(root, "the spec has no claims: it proves nothing (a gate that cannot fail); add claims, or pass --allow-empty");
  make_ids_unique(checks);
  return checks;
}

std::vector<Check> load_spec(const std::string& path, const CppConstants& overrides, bool allow_empty,
                             SpecSettings* settings) {
  // Read at most kMaxSpecBytes (+1 to tell): a spec path may be a pipe (`<(...)`) but must not be an
  // endless stream (`check /dev/zero` used to read forever).
  constexpr std::size_t kMaxSpecBytes = std::size_t{16} << 20;
  std::error_code ec;  // a directory or an oversized regular file is refused before reading
  const auto st = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::is_directory(st)) throw LayoutError("spec path " + path + " is a directory, not a spec file");
  if (!ec && std::filesystem::is_regular_file(st) && std::filesystem::file_size(path, ec) > kMaxSpecBytes && !ec)
    throw LayoutError("spec file " + path + " is larger than 16 MiB (the limit of a spec)");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw LayoutError("cannot read spec file " + path);
  std::string text(kMaxSpecBytes + 1, '\0');
  f.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(f.gcount()));
  if (text.size() > kMaxSpecBytes) throw LayoutError("spec file " + path + " is larger than 16 MiB (the limit of a spec)");
  if (text.find('\0') != std::string::npos) throw LayoutError("spec file " + path + " holds a NUL byte: not a YAML text file");
  return parse_spec(text, path, overrides, allow_empty, settings);
}

}  // namespace layoutproof::cli
