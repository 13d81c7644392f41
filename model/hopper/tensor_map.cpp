// Tensor maps (tensor_map.hpp): the --tensor-map spelling and cuTensorMapEncodeTiled's rules.
#include "model/hopper/tensor_map.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "model/support/error.hpp"

namespace layoutproof::hopper {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::uint64_t parse_number(std::string_view key, std::string_view t) {
  std::uint64_t v = 0;
  const char* b = t.data();
  const char* e = t.data() + t.size();
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) b += 2, base = 16;
  const auto r = std::from_chars(b, e, v, base);
  if (t.empty() || r.ec != std::errc() || r.ptr != e)
    throw LayoutError("--tensor-map " + std::string(key) + ": '" + std::string(t) + "' is not a non-negative integer (below 2^64)");
  return v;
}

// Decimal numbers joined by `x` (no hexadecimal: 0x10 would read as 0 and 10).
std::vector<std::uint64_t> parse_list(std::string_view key, std::string_view t) {
  if (t.empty() || t.find_first_not_of("0123456789x") != std::string_view::npos || t.front() == 'x' || t.back() == 'x' ||
      t.find("xx") != std::string_view::npos)
    throw LayoutError("--tensor-map " + std::string(key) + ": '" + std::string(t) + "' is not a list of non-negative integers joined by x (4096x4096)");
  std::vector<std::uint64_t> out;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= t.size(); ++i)
    if (i == t.size() || t[i] == 'x') {
      out.push_back(parse_number(key, t.substr(b, i - b)));
      b = i + 1;
    }
  return out;
}

std::string list_text(const std::vector<std::uint64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

template <class E, std::size_t N>
std::optional<E> find_name(std::string_view s, const std::array<std::pair<const char*, E>, N>& names) {
  const std::string l = lower(s);
  for (const auto& [n, e] : names)
    if (l == n) return e;
  return std::nullopt;
}

const std::array<std::pair<const char*, TmaSwizzle>, 4> kSwizzles = {
    {{"none", TmaSwizzle::none}, {"32b", TmaSwizzle::b32}, {"64b", TmaSwizzle::b64}, {"128b", TmaSwizzle::b128}}};
const std::array<std::pair<const char*, TmaInterleave>, 3> kInterleaves = {
    {{"none", TmaInterleave::none}, {"16b", TmaInterleave::b16}, {"32b", TmaInterleave::b32}}};
const std::array<std::pair<const char*, TmaL2>, 4> kL2 = {
    {{"none", TmaL2::none}, {"64b", TmaL2::b64}, {"128b", TmaL2::b128}, {"256b", TmaL2::b256}}};
const std::array<std::pair<const char*, TmaOob>, 2> kOob = {{{"zero", TmaOob::zero}, {"nan", TmaOob::nan}}};

template <class E, std::size_t N>
std::string name_of(E e, const std::array<std::pair<const char*, E>, N>& names) {
  for (const auto& [n, v] : names)
    if (v == e) {
      std::string s = n;
      if (s.back() == 'b' && s != "none") s.back() = 'B';
      return s;
    }
  return "?";
}

constexpr std::uint64_t kMaxDim = std::uint64_t{1} << 32;
constexpr std::uint64_t kMaxStride = std::uint64_t{1} << 40;

}  // namespace

const std::vector<TensorMapDtype>& tensor_map_dtypes() {
  static const std::vector<TensorMapDtype> t = {
      {"u8", 1, false},   {"u16", 2, false},  {"u32", 4, false},      {"s32", 4, false},   {"u64", 8, false},
      {"s64", 8, false},  {"f16", 2, true},   {"f32", 4, true},       {"f64", 8, true},    {"bf16", 2, true},
      {"f32_ftz", 4, true}, {"tf32", 4, true}, {"tf32_ftz", 4, true}, {"e4m3", 1, false},  {"e5m2", 1, false}};
  return t;
}

std::optional<TensorMapDtype> tensor_map_dtype(std::string_view name) {
  static const std::array<std::pair<const char*, const char*>, 13> cuda = {
      {{"uint8", "u8"}, {"uint16", "u16"}, {"uint32", "u32"}, {"int32", "s32"}, {"uint64", "u64"}, {"int64", "s64"},
       {"float16", "f16"}, {"float32", "f32"}, {"float64", "f64"}, {"bfloat16", "bf16"}, {"float32_ftz", "f32_ftz"},
       {"tfloat32", "tf32"}, {"tfloat32_ftz", "tf32_ftz"}}};
  std::string l = lower(name);
  for (const auto& [c, s] : cuda)
    if (l == c) l = s;
  for (const TensorMapDtype& d : tensor_map_dtypes())
    if (l == d.name) return d;
  return std::nullopt;
}

std::optional<TmaSwizzle> parse_tma_swizzle(std::string_view s) { return find_name(s, kSwizzles); }
std::optional<TmaInterleave> parse_tma_interleave(std::string_view s) { return find_name(s, kInterleaves); }
std::optional<TmaL2> parse_tma_l2(std::string_view s) { return find_name(s, kL2); }
std::optional<TmaOob> parse_tma_oob(std::string_view s) { return find_name(s, kOob); }
std::string to_string(TmaSwizzle s) { return name_of(s, kSwizzles); }
std::string to_string(TmaInterleave s) { return name_of(s, kInterleaves); }
std::string to_string(TmaL2 s) { return name_of(s, kL2); }
std::string to_string(TmaOob s) { return name_of(s, kOob); }

int swizzle_span_bytes(TmaSwizzle s) { return s == TmaSwizzle::none ? 0 : 16 << swizzle_bits(s); }
int swizzle_bits(TmaSwizzle s) { return s == TmaSwizzle::b32 ? 1 : s == TmaSwizzle::b64 ? 2 : s == TmaSwizzle::b128 ? 3 : 0; }

TensorMap parse_tensor_map_spec(std::string_view spec) {
  TensorMap m;
  std::vector<std::string> seen;
  bool has_strides = false, has_es = false, has_swizzle = false;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= spec.size(); ++i) {
    if (i < spec.size() && spec[i] != ',') continue;
    const std::string_view kv = spec.substr(b, i - b);
    b = i + 1;
    const std::size_t eq = kv.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw LayoutError("--tensor-map: '" + std::string(kv) + "' is not KEY=VALUE (keys: dtype, dims, strides, box, elem_strides, interleave, "
                        "swizzle, l2, oob)");
    const std::string key = lower(kv.substr(0, eq));
    const std::string_view v = kv.substr(eq + 1);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) throw LayoutError("--tensor-map: " + key + " is given twice");
    seen.push_back(key);
    const auto bad = [&](const std::string& what) {
      return LayoutError("--tensor-map " + key + ": '" + std::string(v) + "' is not " + what);
    };
    if (key == "dtype") {
      const auto d = tensor_map_dtype(v);
      if (!d) throw bad("an element type (u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32_ftz tf32 tf32_ftz e4m3 e5m2)");
      m.dtype = d->name, m.elem_bytes = d->bytes, m.floating = d->floating;
    } else if (key == "dims") {
      m.dims = parse_list(key, v);
    } else if (key == "strides") {
      m.strides = parse_list(key, v), has_strides = true;
    } else if (key == "box") {
      m.box = parse_list(key, v);
    } else if (key == "elem_strides") {
      m.elem_strides = parse_list(key, v), has_es = true;
    } else if (key == "interleave") {
      const auto x = parse_tma_interleave(v);
      if (!x) throw bad("an interleave the hardware has (none, 16B, 32B)");
      m.interleave = *x;
    } else if (key == "swizzle") {
      const auto x = parse_tma_swizzle(v);
      if (!x) throw bad("a swizzle the hardware has (none, 32B, 64B, 128B)");
      m.swizzle = *x, has_swizzle = true;
    } else if (key == "l2") {
      const auto x = parse_tma_l2(v);
      if (!x) throw bad("an L2 promotion (none, 64B, 128B, 256B)");
      m.l2 = *x;
    } else if (key == "oob") {
      const auto x = parse_tma_oob(v);
      if (!x) throw bad("an out-of-bounds fill (zero, nan)");
      m.oob = *x;
    } else if (key == "address") {
      m.address = parse_number(key, v);
    } else {
      throw LayoutError("--tensor-map: unknown key '" + key + "' (keys: dtype, dims, strides, box, elem_strides, interleave, swizzle, l2, oob, address)");
    }
  }
  for (const char* k : {"dtype", "dims", "box", "swizzle"})
    if (std::find(seen.begin(), seen.end(), k) == seen.end()) throw LayoutError(std::string("--tensor-map needs ") + k + "=");
  (void)has_swizzle;
  const std::size_t r = m.dims.size();
  if (r == 0 || r > 5) throw LayoutError("--tensor-map dims: a rank of 1 to 5 dimensions, not " + std::to_string(r));
  if (r > 1 && !has_strides) throw LayoutError("--tensor-map needs strides= (the bytes of dimensions 1.." + std::to_string(r - 1) + ")");
  if (m.strides.size() != r - 1)
    throw LayoutError("--tensor-map strides: " + std::to_string(r - 1) + " value(s) for a rank of " + std::to_string(r) + " (dimension 0 is packed), not " +
                      std::to_string(m.strides.size()));
  if (m.box.size() != r) throw LayoutError("--tensor-map box: " + std::to_string(r) + " value(s) for a rank of " + std::to_string(r) + ", not " + std::to_string(m.box.size()));
  if (!has_es) m.elem_strides.assign(r, 1);
  if (m.elem_strides.size() != r)
    throw LayoutError("--tensor-map elem_strides: " + std::to_string(r) + " value(s) for a rank of " + std::to_string(r) + ", not " +
                      std::to_string(m.elem_strides.size()));
  return m;
}

std::string spec_text(const TensorMap& m) {
  std::string s = "dtype=" + m.dtype + ",dims=" + list_text(m.dims);
  if (!m.strides.empty()) s += ",strides=" + list_text(m.strides);
  s += ",box=" + list_text(m.box) + ",swizzle=" + to_string(m.swizzle);
  if (std::any_of(m.elem_strides.begin(), m.elem_strides.end(), [](std::uint64_t e) { return e != 1; })) s += ",elem_strides=" + list_text(m.elem_strides);
  if (m.interleave != TmaInterleave::none) s += ",interleave=" + to_string(m.interleave);
  if (m.l2 != TmaL2::none) s += ",l2=" + to_string(m.l2);
  if (m.oob != TmaOob::zero) s += ",oob=" + to_string(m.oob);
  if (m.address) s += ",address=" + std::to_string(*m.address);
  return s;
}

std::vector<TensorMapViolation> tensor_map_violations(const TensorMap& m) {
  std::vector<TensorMapViolation> out;
  const std::size_t r = m.rank();
  const auto add = [&](std::string field, std::string rule, std::string fix = "") { out.push_back({std::move(field), std::move(rule), std::move(fix)}); };
  if (r < 1 || r > 5) add("rank", "a rank of 1 to 5, not " + std::to_string(r));
  if (m.interleave != TmaInterleave::none && r < 3) add("rank", "an interleaved map has rank 3 or more, not " + std::to_string(r));
  for (std::size_t i = 0; i < r; ++i)
    if (m.dims[i] == 0 || m.dims[i] > kMaxDim) add("dims[" + std::to_string(i) + "]", "1 .. 2^32 elements, not " + std::to_string(m.dims[i]));
  const std::uint64_t unit = m.interleave == TmaInterleave::b32 ? 32 : 16;
  for (std::size_t i = 0; i < m.strides.size(); ++i) {
    const std::uint64_t s = m.strides[i];
    const std::string f = "strides[" + std::to_string(i) + "] (dimension " + std::to_string(i + 1) + ")";
    if (s % unit != 0)
      add(f, "a multiple of " + std::to_string(unit) + " bytes, not " + std::to_string(s), std::to_string((s + unit - 1) / unit * unit) + " (padded)");
    if (s >= kMaxStride) add(f, "below 2^40 bytes, not " + std::to_string(s));
  }
  for (std::size_t i = 0; i < r; ++i)
    if (m.box[i] == 0 || m.box[i] > 256)
      add("box[" + std::to_string(i) + "]", "1 .. 256 elements, not " + std::to_string(m.box[i]), m.box[i] > 256 ? "256 (and more copies)" : "");
  for (std::size_t i = 0; i < r; ++i)
    if (m.elem_strides[i] == 0 || m.elem_strides[i] > 8)
      add("elem_strides[" + std::to_string(i) + "]", "1 .. 8, not " + std::to_string(m.elem_strides[i]));
  if (r >= 1 && m.interleave == TmaInterleave::none && m.elem_bytes > 0) {
    const std::uint64_t row = m.box[0] * static_cast<std::uint64_t>(m.elem_bytes);
    if (row % 16 != 0)
      add("box[0]", "box[0] x " + std::to_string(m.elem_bytes) + " bytes a multiple of 16 (no interleave), not " + std::to_string(row),
          std::to_string((row + 15) / 16 * 16 / static_cast<std::uint64_t>(m.elem_bytes)) + " elements");
    const int span = swizzle_span_bytes(m.swizzle);
    if (span > 0 && row > static_cast<std::uint64_t>(span))
      add("box[0]", "box[0] x " + std::to_string(m.elem_bytes) + " bytes must fit the " + to_string(m.swizzle) + " swizzle's span of " +
                        std::to_string(span) + " bytes, not " + std::to_string(row),
          "box[0] = " + std::to_string(span / m.elem_bytes) + " (one copy per span)" +
              (row <= 128 ? ", or swizzle=" + std::string(row <= 64 ? "64B" : "128B") : ""));
  }
  if (m.address && *m.address % unit != 0)
    add("address", "a global address aligned to " + std::to_string(unit) + " bytes, not " + std::to_string(*m.address) + " (" +
                       std::to_string(*m.address % unit) + " past)");
  if (m.oob == TmaOob::nan && !m.floating) add("oob", "nan fill (NAN_REQUEST_ZERO_FMA) for a floating-point type, not " + m.dtype, "oob=zero");
  return out;
}

}  // namespace layoutproof::hopper
