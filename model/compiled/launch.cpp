// A compiled kernel's launch, planned (model/compiled/launch.hpp).
#include "model/compiled/launch.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "model/bank/bank.hpp"  // kMaxBlockDims, kMaxGridDims, kMaxBlockThreads
#include "model/compiled/ptx_parse.hpp"

namespace layoutproof::compiled {

// ---- A kernel's C++ signature, read from its demangled name ----
namespace {

// The parameter types of a demangled signature, as written ("f(float*, int)" -> "float*", " int").
std::vector<std::string> signature_types(const std::string& sig) {
  std::vector<std::string> types;
  std::size_t open = std::string::npos;
  int depth = 0;
  for (std::size_t i = 0; i < sig.size() && open == std::string::npos; ++i) {  // the '(' outside template arguments
    if (sig[i] == '<') ++depth;
    if (sig[i] == '>' && depth > 0) --depth;
    if (sig[i] == '(' && depth == 0) open = i;
  }
  if (open == std::string::npos) return types;
  std::string cur;
  depth = 0;
  for (std::size_t i = open + 1; i < sig.size(); ++i) {
    const char c = sig[i];
    if (c == '(' || c == '<') ++depth;
    if ((c == ')' || c == '>') && depth > 0) {
      --depth;
      cur += c;
      continue;
    }
    if (c == ')' && depth == 0) {
      types.push_back(cur);
      break;
    }
    if (c == ',' && depth == 0) {
      types.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  return types;
}

std::string trimmed(std::string t) {
  while (!t.empty() && t.front() == ' ') t.erase(t.begin());
  while (!t.empty() && t.back() == ' ') t.pop_back();
  return t;
}

}  // namespace

CxxSignature cxx_signature(const std::string& sig) {
  using TK = TypeKind;
  // Signed and unsigned integers take their own spelling; the rest (char, whose sign the platform
  // picks, floats, vectors) are bits.
  static const std::map<std::string, std::pair<i64, TK>> known = {
      {"bool", {1, TK::u}}, {"char", {1, TK::b}}, {"signed char", {1, TK::s}}, {"unsigned char", {1, TK::u}},
      {"short", {2, TK::s}}, {"unsigned short", {2, TK::u}}, {"int", {4, TK::s}}, {"unsigned int", {4, TK::u}},
      {"float", {4, TK::b}}, {"long", {8, TK::s}}, {"unsigned long", {8, TK::u}}, {"long long", {8, TK::s}},
      {"unsigned long long", {8, TK::u}}, {"double", {8, TK::b}}, {"__half", {2, TK::b}}, {"half", {2, TK::b}},
      {"int2", {8, TK::b}}, {"float2", {8, TK::b}}, {"uint2", {8, TK::b}}, {"int4", {16, TK::b}}, {"float4", {16, TK::b}},
      {"uint4", {16, TK::b}}, {"double2", {16, TK::b}}, {"longlong2", {16, TK::b}}};
  CxxSignature out;
  if (sig.find('(') == std::string::npos) return out;
  const std::vector<std::string> types = signature_types(sig);
  const bool none = types.size() == 1 && (trimmed(types[0]).empty() || trimmed(types[0]) == "void");
  out.listed = none ? 0 : static_cast<i64>(types.size());
  i64 at = 0;
  for (std::size_t k = 0; k < types.size() && !none; ++k) {
    std::string t = trimmed(types[k]);
    CxxParam p;
    p.type = t;
    if (!t.empty() && (t.back() == '*' || t.back() == '&')) {
      p.size = 8, p.kind = TK::u;
    } else {
      for (const std::string q : {"const ", "volatile "})
        if (t.rfind(q, 0) == 0) t = t.substr(q.size());
      for (const std::string q : {" const", " volatile"})
        if (t.size() > q.size() && t.substr(t.size() - q.size()) == q) t.resize(t.size() - q.size());
      const auto it = known.find(t);
      if (it == known.end()) break;
      p.size = it->second.first, p.kind = it->second.second;
    }
    at = (at + p.size - 1) / p.size * p.size;
    p.offset = at;
    out.params.push_back(p);
    at += p.size;
  }
  return out;
}


i64 parse_range_end(const std::string& v, const std::string& what) {
  const PtxParamValue x = parse_ptx_param_value(v, what);
  if (!x.negative && x.bits > static_cast<u64>(std::numeric_limits<i64>::max()))
    throw LayoutError(what + ": a range's ends are signed 64-bit values, not '" + v + "'");
  return static_cast<i64>(x.bits);
}

std::string dims_text(const std::array<i64, 3>& d) {
  return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}

// ---- A launch: the kernels selected, every --param and --param-range checked against the parameter
// it names (its type's values, given once), the block and grid against CUDA's limits, each launch built.
namespace {

bool is_index(const std::string& key) { return !key.empty() && key.find_first_not_of("0123456789") == std::string::npos; }

// The integers a parameter of `bits` bits takes (launch.hpp's table): [lo, hi].
struct Values {
  i64 lo = 0;
  u64 hi = 0;
};
Values values_of(TypeKind kind, int bits) {
  const u64 all = bits >= 64 ? ~u64{0} : (u64{1} << bits) - 1;
  const i64 most_negative = bits >= 64 ? std::numeric_limits<i64>::min() : -(i64{1} << (bits - 1));
  if (kind == TypeKind::u) return {0, all};
  if (kind == TypeKind::s) return {most_negative, all >> 1};
  return {most_negative, all};
}
bool holds(const Values& r, const PtxParamValue& v) {
  return v.negative ? static_cast<i64>(v.bits) >= r.lo : v.bits <= r.hi;
}
std::string values_text(const Values& r) { return "[" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + "]"; }
std::string type_text(TypeKind kind, int bits) {
  const char* k = kind == TypeKind::u ? "u" : kind == TypeKind::s ? "s" : kind == TypeKind::f ? "f" : "b";
  return "." + std::string(k) + std::to_string(bits);
}

// A byte offset in the parameter buffer or a parameter: decimal or 0x hex (as SASS's c[0x0][0x210]
// prints it), 0 to 4095.
i64 param_offset(const std::string& v, const std::string& what) {
  const i64 x = parse_byte_address(v, what + "'s byte offset");
  if (x > 4095) throw LayoutError(what + "'s byte offset needs a value from 0 to 4095 (0xfff), not '" + v + "'");
  return x;
}

// KEY[:BYTES] of a --param: I or NAME, I+OFF (a field of parameter I) or @OFF (SASS's buffer).
struct Key {
  std::string head;   // I or NAME ("" for @OFF)
  i64 field = -1;     // +OFF
  i64 buffer = -1;    // @OFF
  i64 bytes = 0;      // :BYTES (0: not given)
};
Key parse_key(const std::string& whole, const std::string& what) {
  Key k;
  const std::size_t colon = whole.find(':');
  std::string key = whole.substr(0, colon);
  if (colon != std::string::npos) {
    k.bytes = parse_int_in(whole.substr(colon + 1), what + "'s width in bytes", 1, 8);
    if (k.bytes != 1 && k.bytes != 2 && k.bytes != 4 && k.bytes != 8) throw LayoutError(what + ": a field is 1, 2, 4 or 8 bytes wide");
  }
  if (!key.empty() && key[0] == '@') {
    k.buffer = param_offset(key.substr(1), what);
    return k;
  }
  const std::size_t plus = key.find('+');
  k.head = key.substr(0, plus);
  if (plus != std::string::npos) k.field = param_offset(key.substr(plus + 1), what);
  if (k.bytes && k.field < 0)
    throw LayoutError(what + ": a width (:BYTES) belongs to a field, I+OFF:BYTES (SASS: @OFF:BYTES); parameter " + k.head + " has its type's width");
  return k;
}

// A field's width when :BYTES is not given: 4 bytes, or 8 for a value no 32 bits hold.
i64 default_width(const std::optional<PtxParamValue>& v) {
  if (!v) return 4;
  const bool fits32 = v->negative ? static_cast<i64>(v->bits) >= -(i64{1} << 31) : v->bits <= 0xffffffffu;
  return fits32 ? 4 : 8;
}

// The slot of parameter `head` (an index or a name) in f; nullopt when f has none.
std::optional<std::size_t> param_slot(const Function& f, const std::string& head, const std::string& what) {
  if (is_index(head)) {
    const i64 i = parse_int_in(head, what + "'s index", 0, 1 << 20);
    if (static_cast<std::size_t>(i) < f.params.size()) return static_cast<std::size_t>(i);
    return std::nullopt;
  }
  for (std::size_t i = 0; i < f.params.size(); ++i)
    if (f.params[i].name == head) return i;
  return std::nullopt;
}

// The values scalar parameter `slot` of a PTX kernel takes, and its type in words (".u32, int in
// the signature"). nvcc declares every integer parameter .u (int k: .u32): the sign is the C++
// type's, which the mangled name gives; without it (extern "C", a type the name does not spell)
// only .s is signed.
std::pair<Values, std::string> scalar_values(const Function& f, std::size_t slot) {
  const ParamDecl& d = f.params[slot];
  const int bits = static_cast<int>(8 * std::min<i64>(d.bytes, 8));
  const std::vector<CxxParam> cxx = cxx_signature(demangle(f.name)).params;
  if (slot < cxx.size() && cxx[slot].size == d.bytes)
    return {values_of(cxx[slot].kind, bits), type_text(d.type.kind, bits) + ", " + cxx[slot].type + " in the signature"};
  return {values_of(d.type.kind == TypeKind::s ? TypeKind::s : TypeKind::b, bits), type_text(d.type.kind, bits)};
}

// Where a --param or --param-range lands in kernel f: the bytes it gives and the values it takes.
struct Target {
  std::size_t slot = 0;       // Function::params index (SASS: 0, the parameter buffer)
  i64 offset = 0, bytes = 0;  // the bytes it gives: [offset, offset + bytes) of the slot
  bool whole = false;         // a whole PTX parameter (Launch::params), else bytes (Launch::fields)
  bool width_known = true;    // false: a range at @OFF, whose symbol is as wide as the load reading it
  Values values;
  std::string name;           // "parameter 1 (_Z9broadcastPfi_param_1, .s32)"
};

Target field_target(std::size_t slot, i64 offset, i64 bytes, const std::string& of) {
  Target t;
  t.slot = slot, t.offset = offset, t.bytes = bytes;
  t.values = values_of(TypeKind::b, static_cast<int>(8 * bytes));
  t.name = "the " + std::to_string(bytes) + "-byte field at bytes " + std::to_string(offset) + ".." + std::to_string(offset + bytes - 1) +
           " of " + of;
  return t;
}

// SASS: I from the signature's layout, I+OFF inside it, @OFF of the buffer; nullopt when the
// signature lists fewer parameters than I.
std::optional<Target> sass_target(const Function& f, const Key& k, const std::optional<PtxParamValue>& v, const std::string& what) {
  const i64 width = k.bytes ? k.bytes : default_width(v);
  if (k.buffer >= 0 && !v) {  // a range: the symbol starts here, as wide as the load reading it
    Target t = field_target(0, k.buffer, 1, "the parameter buffer");
    t.width_known = false;
    t.name = "byte " + std::to_string(k.buffer) + " of the parameter buffer";
    return t;
  }
  if (k.buffer >= 0) return field_target(0, k.buffer, width, "the parameter buffer");
  if (!is_index(k.head)) throw LayoutError(what + ": SASS has no parameter names; give its index (I, I+OFFSET) or the byte offset (@OFFSET)");
  const CxxSignature sig = cxx_signature(demangle(f.name));
  const std::vector<CxxParam>& layout = sig.params;
  const i64 i = parse_int_in(k.head, what + "'s index", 0, 1 << 20);
  if (sig.listed >= 0 && i >= sig.listed) return std::nullopt;
  if (i >= static_cast<i64>(layout.size()))
    throw LayoutError(what + ": the byte offset of parameter " + k.head + " of " + f.name + " is not known from its signature (" +
                      std::to_string(layout.size()) + " parameter(s) have known sizes): give the byte offset, @OFFSET=V");
  const CxxParam& p = layout[static_cast<std::size_t>(i)];
  if (k.field >= 0) return field_target(0, p.offset + k.field, width, "the parameter buffer (parameter " + k.head + " at byte " + std::to_string(p.offset) + ")");
  Target t;
  t.offset = p.offset, t.bytes = p.size;
  t.values = values_of(p.kind, static_cast<int>(8 * std::min<i64>(p.size, 8)));
  t.name = "parameter " + k.head + " (" + p.type + " at byte " + std::to_string(p.offset) + ")";
  return t;
}

// The target of params[i] in kernel f; nullopt when f has no such parameter (PTX).
std::optional<Target> target_of(const Program& prog, const Function& f, const PtxParamRequest& r) {
  const Key k = parse_key(r.key, r.what);
  const bool sass = prog.format == CompiledFormat::sass;
  if (!r.value && (k.field >= 0 || k.bytes))
    throw LayoutError(r.what + ": a range names a whole parameter: I or NAME" + std::string(sass ? " (SASS: I or @OFFSET)" : ""));
  if (sass) return sass_target(f, k, r.value, r.what);
  if (k.buffer >= 0) throw LayoutError(r.what + ": '@OFFSET' names bytes of SASS's parameter buffer; PTX names parameters (I, I+OFFSET, NAME)");
  const auto slot = param_slot(f, k.head, r.what);
  if (!slot) return std::nullopt;
  const ParamDecl& d = f.params[*slot];
  // Named by its index alone: its PTX name is the kernel's and "_param_I", and messages name the kernel.
  const std::string of = "parameter " + std::to_string(*slot);
  if (k.field >= 0) {
    Target t = field_target(*slot, k.field, k.bytes ? k.bytes : default_width(r.value), of);
    if (t.offset + t.bytes > d.bytes)
      throw LayoutError(r.what + ": " + t.name + " passes the end of " + of + " (" + std::to_string(d.bytes) + " bytes) of " + f.name);
    return t;
  }
  if (d.bytes > 8)
    throw LayoutError(r.what + ": parameter " + std::to_string(*slot) + " of " + f.name + " is a " + std::to_string(d.bytes) +
                      "-byte aggregate; fix its fields with " + k.head + "+OFFSET=V");
  Target t;
  t.slot = *slot, t.bytes = d.bytes, t.whole = true;
  const auto [values, type] = scalar_values(f, *slot);
  t.values = values;
  t.name = of + " (" + type + ")";
  return t;
}

bool overlap(const Target& a, const Target& b) {
  return a.slot == b.slot && a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

// Applies a checked request to kernel f's launch.
void apply(const Target& t, const PtxParamRequest& r, Launch& l) {
  if (!r.value) {
    l.ranges.push_back({t.slot, t.offset, r.range.first, r.range.second});
    return;
  }
  if (t.whole) l.params[t.slot] = r.value->bits;
  else l.fields.push_back({t.slot, t.offset, t.bytes, t.bytes < 8 ? r.value->bits & ((u64{1} << (8 * t.bytes)) - 1) : r.value->bits});
}

// The assumption's names bound to the launch (assume.hpp): constants where the launch fixes the
// value (the block, --grid, --cta, a --param, --smem-bytes), else the symbol's leaf.
void bind_assumption(AssumeExpr& e, const Program& p, const Function& f, const Launch& l, const std::string& what) {
  for (AssumeExpr& a : e.args) bind_assumption(a, p, f, l, what);
  if (e.kind != AssumeExpr::Kind::name) return;
  const std::string n = e.name;
  const auto constant = [&](i64 v) {
    e = AssumeExpr{};
    e.value = v;
  };
  static const char* axis[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    const std::string dot = std::string(".") + axis[d];
    if (n == "blockDim" + dot || n == "ntid" + dot) return constant(l.block[static_cast<std::size_t>(d)]);
    if (n == "gridDim" + dot || n == "nctaid" + dot) {
      if (!l.every_grid) return constant(l.grid[static_cast<std::size_t>(d)]);
      e.kind = AssumeExpr::Kind::grid, e.dim = d;
      return;
    }
    if (n == "blockIdx" + dot || n == "ctaid" + dot) {
      if (!l.every_cta) return constant(l.cta[static_cast<std::size_t>(d)]);
      e.kind = AssumeExpr::Kind::cta, e.dim = d;
      return;
    }
  }
  if (n == "smem_bytes") {
    if (l.dynamic_smem_bytes < 0) throw LayoutError(what + ": smem_bytes is the dynamic shared memory's size: give it (--smem-bytes N)");
    return constant(l.dynamic_smem_bytes);
  }
  const bool index = n.size() > 1 && n[0] == 'p' && is_index(n.substr(1));
  PtxParamRequest r;
  r.key = index ? n.substr(1) : n;
  r.what = what;
  const auto t = target_of(p, f, r);
  if (!t) throw LayoutError(what + ": " + f.name + " has no parameter '" + n + "' (pI names parameter I, from 0)");
  const int bits = static_cast<int>(8 * std::min<i64>(t->bytes, 8));
  if (t->whole && l.params[t->slot]) return constant(sign_extend(*l.params[t->slot], bits));
  for (const Launch::Field& x : l.fields)
    if (x.param == t->slot && x.offset == t->offset && x.bytes == t->bytes) return constant(sign_extend(x.value, bits));
  e.kind = AssumeExpr::Kind::param;
  e.param = t->slot, e.offset = t->offset, e.bits = bits;
}

// A range LO..HI must hold signed values of the symbol's width (the claims read it signed).
void check_range(const Target& t, const PtxParamRequest& r, const std::string& kernel) {
  if (!t.width_known) return;
  const i64 bits = 8 * std::min<i64>(t.bytes, 8);
  if (bits < 64 && (r.range.first < -(i64{1} << (bits - 1)) || r.range.second >= (i64{1} << (bits - 1))))
    throw LayoutError(r.what + ": " + std::to_string(r.range.first) + ".." + std::to_string(r.range.second) + " is not a range of signed " +
                      std::to_string(bits) + "-bit values (" + t.name + " of " + kernel + ")");
}

}  // namespace

PtxParamValue parse_ptx_param_value(const std::string& v, const std::string& what) {
  const bool neg = !v.empty() && v[0] == '-';
  const std::string s = neg ? v.substr(1) : v;
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const std::string digits = hex ? s.substr(2) : s;
  const bool ok = !digits.empty() && digits.size() <= (hex ? 16u : 20u) &&
                  digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") == std::string::npos;
  if (!ok) throw LayoutError(what + " needs a decimal or 0x hex integer of 64 bits, not '" + v + "'");
  u64 x = 0;
  for (const char c : digits) {  // checked: 20 decimal digits can pass 2^64
    const u64 d = static_cast<u64>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10), base = hex ? 16 : 10;
    if (x > (~u64{0} - d) / base) throw LayoutError(what + " needs a value that fits in 64 bits, not '" + v + "'");
    x = x * base + d;
  }
  if (neg && x > (u64{1} << 63)) throw LayoutError(what + " needs a value that fits in 64 bits, not '" + v + "'");
  return {neg ? 0 - x : x, neg && x != 0};
}

void check_block_dims(const std::array<i64, 3>& b, const std::string& what) {
  static const char* axis[] = {"x", "y", "z"};
  for (std::size_t k = 0; k < 3; ++k)
    if (b[k] < 1 || b[k] > kMaxBlockDims[k])
      throw LayoutError(what + " " + dims_text(b) + ": its " + axis[k] + " is " + std::to_string(b[k]) + "; CUDA takes a block of 1.." +
                        std::to_string(kMaxBlockDims[k]) + " along " + axis[k] + " (x, y <= 1024, z <= 64, x*y*z <= 1024)");
  const i64 threads = b[0] * b[1] * b[2];  // each at most 1024: no overflow
  if (threads > kMaxBlockThreads)
    throw LayoutError(what + " " + dims_text(b) + ": " + std::to_string(threads) + " threads; CUDA's limit is " + std::to_string(kMaxBlockThreads) +
                      " per block (x*y*z <= 1024)");
}

// The most threads a kernel's .maxntid allows (its dimensions' product; an absent one is 1).
i64 maxntid_threads(const Function& f) { return f.maxntid[0] * std::max<i64>(f.maxntid[1], 1) * std::max<i64>(f.maxntid[2], 1); }

// A block over the kernel's .maxntid (`__launch_bounds__`) is one CUDA refuses to launch
// (cudaErrorInvalidValue / too many resources requested): bad input, not a run.
void check_max_threads(const std::array<i64, 3>& b, const Function& f, const std::string& what) {
  const i64 most = maxntid_threads(f);
  const i64 threads = b[0] * b[1] * b[2];  // checked by check_block_dims: at most 1024
  if (threads > most)
    throw LayoutError(what + " " + dims_text(b) + ": " + std::to_string(threads) + " threads, but " + f.name +
                      "'s `__launch_bounds__` (.maxntid) allows at most " + std::to_string(most) + ": CUDA refuses the launch");
}

void check_grid_dims(const std::array<i64, 3>& g, const std::string& what) {
  static const char* axis[] = {"x", "y", "z"};
  for (std::size_t k = 0; k < 3; ++k)
    if (g[k] < 1 || g[k] > kMaxGridDims[k])
      throw LayoutError(what + " " + dims_text(g) + ": its " + axis[k] + " is " + std::to_string(g[k]) + "; CUDA takes a grid of 1.." +
                        std::to_string(kMaxGridDims[k]) + " along " + axis[k] + " (x <= 2^31 - 1, y, z <= 65535)");
}

std::string ptx_param_text(const Function& f, std::size_t slot, u64 bits) {
  const int width = static_cast<int>(8 * std::min<i64>(f.params[slot].bytes, 8));
  if (scalar_values(f, slot).first.lo == 0) return std::to_string(mask_bits(bits, width));
  return std::to_string(sign_extend(bits, width));
}

std::vector<std::size_t> select_ptx_kernels(const Program& p, const std::string& text, const std::string& what) {
  std::vector<std::size_t> entries = select_entries(p, text);
  if (!entries.empty()) return entries;
  std::string names;
  for (const Function& f : p.functions)
    if (f.is_entry) names += (names.empty() ? "" : ", ") + f.name;
  throw LayoutError(text.empty() ? p.file + " has no kernel (.entry with a body)"
                                 : "no kernel of " + p.file + " matches " + what + " '" + text + "' (kernels: " +
                                       (names.empty() ? "none" : names) + ")");
}

void check_ptx_param(const Program& p, const std::vector<std::size_t>& entries, const std::vector<PtxParamRequest>& params,
                     std::size_t i) {
  const PtxParamRequest& r = params[i];
  bool found = false;
  std::size_t most = 0;
  for (const std::size_t e : entries) {
    const Function& f = p.functions[e];
    const i64 arity = p.format == CompiledFormat::sass ? cxx_signature(demangle(f.name)).listed : static_cast<i64>(f.params.size());
    most = std::max(most, static_cast<std::size_t>(std::max<i64>(arity, 0)));
    const auto t = target_of(p, f, r);
    if (!t) continue;
    found = true;
    if (r.value && !holds(t->values, *r.value))
      throw LayoutError(r.what + ": " + t->name + " of " + f.name + " takes values in " + values_text(t->values));
    if (!r.value) check_range(*t, r, f.name);
    for (std::size_t j = 0; j < i; ++j)
      if (const auto u = target_of(p, f, params[j]); u && overlap(*t, *u))
        throw LayoutError(r.what + ": " + t->name + " of " + f.name + " is also given by " + params[j].what +
                          " (one value or one range per parameter)");
  }
  if (found) return;
  const Key k = parse_key(r.key, r.what);
  if (is_index(k.head))
    throw LayoutError(r.what + ": no selected kernel has a parameter " + k.head + " (the most any has is " + std::to_string(most) +
                      ", numbered from 0)");
  throw LayoutError(r.what + ": no selected kernel has a parameter of that name (PTX names them _Z..._param_I)");
}

std::vector<PtxKernelLaunch> plan_ptx_launches(const Program& p, const std::string& kernel, const PtxLaunchRequest& r,
                                               const std::string& kernel_what) {
  const std::vector<std::size_t> entries = select_ptx_kernels(p, kernel, kernel_what);
  for (std::size_t i = 0; i < r.params.size(); ++i) check_ptx_param(p, entries, r.params, i);
  std::vector<PtxKernelLaunch> out;
  for (const std::size_t e : entries) {
    const Function& f = p.functions[e];
    PtxKernelLaunch k;
    k.entry = e;
    k.allow_empty = r.allow_empty;
    Launch& l = k.launch;
    if (r.block) l.block = *r.block, k.block_from = r.block_given_by;
    else if (f.reqntid[0] > 0) l.block = f.reqntid, k.block_from = ".reqntid";
    else if (f.maxntid[0] > 0) {
      // .maxntid (`__launch_bounds__(N)`) bounds the launch's block, it is not the block: a kernel
      // with __launch_bounds__(256) launched 16x16 would run with 256x1x1 lanes and its 2-D indexing
      // would give false verdicts. Only .reqntid fixes the block.
      const i64 most = maxntid_threads(f);
      throw LayoutError(f.name + ": `__launch_bounds__` (.maxntid " + std::to_string(f.maxntid[0]) + ", " + std::to_string(f.maxntid[1]) +
                        ", " + std::to_string(f.maxntid[2]) + ") says at most " + std::to_string(most) +
                        " threads, not the launch's shape; give --block X[,Y[,Z]]");
    } else if (p.format == CompiledFormat::sass) throw LayoutError(f.name + ": SASS does not record the block size: give it (--block X[,Y[,Z]])");
    else throw LayoutError(f.name + " has no .reqntid or .maxntid: give the block size (--block X[,Y[,Z]])");
    check_block_dims(l.block, r.block ? r.block_given_by : f.name + "'s .reqntid");
    if (r.block && f.maxntid[0] > 0) check_max_threads(l.block, f, r.block_given_by);
    l.grid = r.grid;
    if (r.cta) {
      static const char* axis[] = {"x", "y", "z"};
      for (std::size_t d = 0; d < 3; ++d)
        if ((*r.cta)[d] < 0 || (*r.cta)[d] >= r.grid[d])
          throw LayoutError("--cta " + std::to_string((*r.cta)[0]) + "," + std::to_string((*r.cta)[1]) + "," + std::to_string((*r.cta)[2]) +
                            ": its " + axis[d] + " is " + std::to_string((*r.cta)[d]) + ", outside the grid's 0.." +
                            std::to_string(r.grid[d] - 1) + " (give --grid)");
      l.cta = *r.cta;
      l.cta_chosen = true;
    }
    l.every_cta = !r.cta;
    l.every_grid = !r.cta && !r.grid_given;
    if (r.cluster) {
      const auto& c = *r.cluster;
      if (c[0] * c[1] * c[2] > 16) throw LayoutError("--cluster " + dims_text(c) + ": " + std::to_string(c[0] * c[1] * c[2]) + " CTAs; a cluster holds at most 16 (8 portably)");
      for (std::size_t d = 0; d < 3; ++d)
        if (r.grid_given && r.grid[d] % c[d] != 0)
          throw LayoutError("--cluster " + dims_text(c) + ": the grid " + dims_text(r.grid) + " is not a whole number of clusters");
      l.cluster = c;
    }
    l.dynamic_smem_bytes = r.smem_bytes;
    l.max_paths = r.max_paths;
    l.params.assign(f.params.size(), std::nullopt);
    for (const PtxParamRequest& q : r.params)
      if (const auto t = target_of(p, f, q)) apply(*t, q, l);
    for (const auto& [text, what] : r.assume) {
      Assumption a{text, what, parse_assumption(text, what)};
      bind_assumption(a.expr, p, f, l, what);
      l.assumptions.push_back(std::move(a));
    }
    out.push_back(std::move(k));
  }
  return out;
}

void decode_ptx_launches(Program& p, const std::vector<PtxKernelLaunch>& launches,
                         std::optional<std::chrono::steady_clock::time_point> deadline) {
  for (const PtxKernelLaunch& k : launches) decode_with_callees(p, k.entry, deadline);
}

SharedWindow shared_window(const Program& p, const Launch& l) {
  SharedWindow w;
  if (p.format != CompiledFormat::sass) return w;
  w.applies = true;
  if (l.dynamic_smem_bytes < 0) return w;
  w.sized = true;
  w.lo = p.shared_window_base;
  w.hi = p.shared_window_base + l.dynamic_smem_bytes;
  return w;
}

namespace {

// Whether symbol s is a whole PTX parameter (not bytes of one, not SASS's buffer).
bool whole_param(const Program& p, const Function& f, const Symbol& s) {
  return p.format != CompiledFormat::sass && s.offset == 0 && s.param < f.params.size() && 8 * f.params[s.param].bytes == s.bits;
}

}  // namespace

std::string param_value_text(const Program& p, const Function& f, const Symbol& s, u64 v) {
  if (s.kind != Symbol::Kind::param) return std::to_string(v);
  return whole_param(p, f, s) ? ptx_param_text(f, s.param, v) : std::to_string(sign_extend(v, s.bits));
}

std::string param_assignment(const Program& p, const Function& f, const Symbol& s, u64 v) {
  const std::string value = param_value_text(p, f, s, v), width = ":" + std::to_string((s.bits + 7) / 8);
  if (p.format == CompiledFormat::sass) return "@" + std::to_string(s.offset) + width + "=" + value;
  if (whole_param(p, f, s)) return std::to_string(s.param) + "=" + value;
  return std::to_string(s.param) + "+" + std::to_string(s.offset) + width + "=" + value;
}

}  // namespace layoutproof::compiled
