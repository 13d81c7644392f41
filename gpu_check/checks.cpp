#include "gpu_check/checks.hpp"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "model/support/checked.hpp"
#include "model/support/error.hpp"
#include "model/layout/flat_layout_host.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof::gpu {

std::string to_string(CheckKind k) {
  switch (k) {
    case CheckKind::bijective: return "bijective";
    case CheckKind::round_trip: return "round-trip";
    case CheckKind::bank: return "bank";
  }
  return "?";
}

std::string to_string(VectorVerdict v) {
  switch (v) {
    case VectorVerdict::ok: return "allowed";
    case VectorVerdict::non_contiguous: return "non-contiguous";
    case VectorVerdict::misaligned: return "misaligned";
  }
  return "?";
}

VectorPrediction predict_vector(const AccessSpec& spec) {
  const i64 width = static_cast<i64>(spec.vec) * spec.elem_bytes;
  VectorPrediction contiguity;  // the first non-contiguous lane, reported only if nothing is misaligned
  for (const WarpAccess& w : warp_accesses(spec)) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const LaneCoord c = w.coord[lane];
      if (c.row < 0) continue;
      const i64 a = w.byte_address[lane];
      const std::string at = "row " + std::to_string(c.row) + ", col " + std::to_string(c.col);
      if (a % width != 0)
        return {VectorVerdict::misaligned, at + ": byte " + std::to_string(a) + " is not " + std::to_string(width) +
                                               "-byte aligned"};
      for (int e = 1; e < spec.vec && contiguity.verdict == VectorVerdict::ok; ++e) {
        const i64 ae = byte_address(spec, c.row, c.col + e);
        if (ae != a + static_cast<i64>(e) * spec.elem_bytes)
          contiguity = {VectorVerdict::non_contiguous, at + ": element " + std::to_string(e) + " at byte " +
                                                           std::to_string(ae) + ", not " +
                                                           std::to_string(a + e * spec.elem_bytes)};
      }
    }
  }
  return contiguity;
}

int widest_allowed_vec(AccessSpec spec) {
  const i64 cols = product(spec.tile.layout.shape[1]);
  for (int v = 16 / spec.elem_bytes; v > 1; v /= 2) {
    if (cols % v != 0) continue;
    spec.vec = v;
    if (predict_vector(spec).verdict == VectorVerdict::ok) return v;
  }
  return 1;
}

FragmentElement ldmatrix_fragment(int lane, int reg, int half) {
  assert(lane >= 0 && lane < 32 && reg >= 0 && reg < 4 && (half == 0 || half == 1));
  return {reg, lane / 4, 2 * (lane % 4) + half};
}

namespace {

std::int64_t round_up(std::int64_t x, std::int64_t m) { return (x + m - 1) / m * m; }

SmemOp op_for(bool store, bool matrix, int n) {
  if (!matrix) return store ? SmemOp::st : SmemOp::ld;
  if (n == 1) return store ? SmemOp::stsm1 : SmemOp::ldsm1;
  if (n == 2) return store ? SmemOp::stsm2 : SmemOp::ldsm2;
  return store ? SmemOp::stsm4 : SmemOp::ldsm4;
}

}  // namespace

RoundTripPlan make_round_trip_plan(const AccessSpec& spec, bool store, bool matrix) {
  assert(!matrix || (spec.pattern == PatternKind::ldmatrix && spec.elem_bytes == 2));
  RoundTripPlan p;
  p.layout = to_flat(spec.tile);
  p.rows = product(spec.tile.layout.shape[0]);
  p.cols = product(spec.tile.layout.shape[1]);
  p.elem_bytes = spec.elem_bytes;
  p.store = store;
  p.width_bytes = spec.vec * spec.elem_bytes;
  p.matrix_n = matrix ? spec.ldmatrix_count : 0;
  i64 max_off = 0;
  for (i64 o : offsets(spec.tile)) max_off = std::max(max_off, o);
  p.scratch = round_up(checked_mul(checked_add(max_off, 1), spec.elem_bytes), 16);  // the plan's tile fits smem (validate_access_spec)
  p.smem_bytes = p.scratch + 256;
  const std::vector<WarpAccess> ws = warp_accesses(spec);
  p.instructions = static_cast<int>(ws.size());
  p.addr.assign(ws.size() * 32, -1);
  p.dst.assign(ws.size() * 32 * (matrix ? 8 : 1), -1);
  for (std::size_t k = 0; k < ws.size(); ++k) {
    const WarpAccess& w = ws[k];
    for (int lane = 0; lane < 32; ++lane) {
      const LaneCoord c = w.coord[lane];
      const std::size_t i = k * 32 + lane;
      if (c.row >= 0) {
        p.addr[i] = static_cast<std::int32_t>(w.byte_address[lane]);
        if (!matrix) p.dst[i] = static_cast<std::int32_t>(c.row * p.cols + c.col);
      } else if (matrix) {
        p.addr[i] = static_cast<std::int32_t>(p.scratch + 16 * (lane % 16));  // rows nobody reads back
      }
      if (!matrix) continue;
      for (int reg = 0; reg < p.matrix_n; ++reg)
        for (int half = 0; half < 2; ++half) {
          const FragmentElement f = ldmatrix_fragment(lane, reg, half);
          const LaneCoord r = w.coord[8 * f.matrix + f.row];  // the lane that gave this matrix row
          if (r.row >= 0) p.dst[i * 8 + 2 * reg + half] = static_cast<std::int32_t>(r.row * p.cols + r.col + f.col);
        }
    }
  }
  return p;
}

std::vector<SmemAccess> pattern_instructions(const AccessSpec& spec, bool store, bool matrix) {
  std::vector<SmemAccess> out;
  std::set<std::pair<int, std::array<std::int64_t, 32>>> seen;
  for (const WarpAccess& w : warp_accesses(spec)) {
    SmemAccess a;
    a.op = op_for(store, matrix, spec.ldmatrix_count);
    a.width_bytes = matrix ? 16 : spec.vec * spec.elem_bytes;
    for (int lane = 0; lane < 32; ++lane) a.lane_addr[lane] = w.byte_address[lane];
    if (seen.insert({static_cast<int>(a.op), a.lane_addr}).second) out.push_back(a);
  }
  return out;
}

std::string probe_case_line(const std::string& name, const SmemAccess& a) {
  std::ostringstream os;
  os << name << ' ' << to_string(a.op) << ' ' << a.width_bytes;
  for (std::int64_t x : a.lane_addr) os << ' ' << x;
  return os.str();
}

std::map<std::string, double> read_ncu_jsonl(const std::string& path) {
  std::map<std::string, double> out;
  std::ifstream in(path);
  std::string line;
  const std::string kName = "\"name\": \"", kWf = "\"measured_wavefronts_per_instruction\": ";
  while (std::getline(in, line)) {
    const auto n = line.find(kName), w = line.find(kWf);
    if (n == std::string::npos || w == std::string::npos) continue;
    const auto n0 = n + kName.size();
    // A malformed number is a bad --ncu file (LayoutError: the driver's exit 2), not std::stod's words.
    const std::string num = line.substr(w + kWf.size(), line.find_first_of(",}", w + kWf.size()) - (w + kWf.size()));
    char* end = nullptr;
    const double v = std::strtod(num.c_str(), &end);
    if (num.empty() || end == num.c_str() || !(v >= 0 && v < 1e9))
      throw LayoutError(path + ": '" + num + "' is not a wavefront count (measured_wavefronts_per_instruction)");
    out[line.substr(n0, line.find('"', n0) - n0)] = v;
  }
  return out;
}

std::vector<SmemAccess> bank_instructions(const Check& c) {
  if (!c.explicit_instructions.empty()) return c.explicit_instructions;
  return pattern_instructions(c.spec, c.store, c.matrix);
}

std::string instruction_key(const SmemAccess& a) { return probe_case_line("", a); }

std::vector<NamedInstruction> distinct_instructions(const std::vector<Check>& checks) {
  std::vector<NamedInstruction> out;
  std::set<std::string> seen;
  for (const Check& c : checks) {
    if (c.kind != CheckKind::bank) continue;
    for (const SmemAccess& a : bank_instructions(c))
      if (seen.insert(instruction_key(a)).second) out.push_back({"i" + std::to_string(out.size()), a});
  }
  return out;
}

BijectivityPrediction predict_bijectivity(const AnyLayout& l) {
  BijectivityPrediction p;
  const i64 cs = cosize(l);
  std::set<i64> image;
  for (i64 j = 0; j < cs; ++j) image.insert(l.swizzle ? l.swizzle->apply(l.offset + j) : j);
  p.codomain.assign(image.begin(), image.end());
  std::vector<i64> offs = offsets(l);
  std::sort(offs.begin(), offs.end());
  const auto dup = std::adjacent_find(offs.begin(), offs.end());
  p.bijective = offs == p.codomain;
  if (p.bijective) {
    p.detail = "bijective onto " + std::to_string(p.codomain.size()) + " slots";
  } else if (dup != offs.end()) {
    p.detail = "not injective: slot " + std::to_string(*dup) + " is hit twice";
  } else {
    p.detail = "not onto: " + std::to_string(offs.size()) + " offsets for " + std::to_string(p.codomain.size()) + " slots";
  }
  return p;
}

std::string describe_counts(const std::vector<std::int64_t>& codomain, const std::vector<unsigned>& counts,
                            unsigned long long outside, bool* bijective) {
  std::vector<char> in_codomain(counts.size(), 0);
  for (std::int64_t s : codomain)
    if (s >= 0 && s < static_cast<std::int64_t>(counts.size())) in_codomain[s] = 1;
  std::int64_t multi = 0, missed = 0, stray = 0, first_multi = -1;
  for (std::size_t s = 0; s < counts.size(); ++s) {
    if (in_codomain[s] && counts[s] == 0) ++missed;
    if (counts[s] > 1 && ++multi == 1) first_multi = static_cast<std::int64_t>(s);
    if (!in_codomain[s] && counts[s] > 0) ++stray;
  }
  *bijective = multi == 0 && missed == 0 && stray == 0 && outside == 0;
  if (*bijective) return "bijective onto " + std::to_string(codomain.size()) + " slots";
  std::string d = "not bijective:";
  if (multi) d += " " + std::to_string(multi) + " slots written more than once (first " + std::to_string(first_multi) + "x" + std::to_string(counts[first_multi]) + ");";
  if (missed) d += " " + std::to_string(missed) + " never written;";
  if (stray + static_cast<std::int64_t>(outside)) d += " " + std::to_string(stray + outside) + " writes outside the codomain;";
  d.pop_back();
  return d;
}

std::string compare_tiles(const std::vector<unsigned char>& want, const std::vector<unsigned char>& got,
                          std::int64_t cols, int elem_bytes, bool* identical) {
  std::int64_t bad = 0, first = -1;
  const std::int64_t n = static_cast<std::int64_t>(want.size()) / elem_bytes;
  for (std::int64_t i = 0; i < n; ++i) {
    if (!std::equal(want.begin() + i * elem_bytes, want.begin() + (i + 1) * elem_bytes, got.begin() + i * elem_bytes))
      if (++bad == 1) first = i;
  }
  *identical = bad == 0 && got.size() == want.size();
  if (*identical) return "identical";
  return std::to_string(bad) + " of " + std::to_string(n) + " elements differ (first: row " + std::to_string(first / cols) +
         ", col " + std::to_string(first % cols) + ")";
}

std::vector<unsigned char> source_tile(std::int64_t rows, std::int64_t cols, int elem_bytes, std::uint32_t seed) {
  std::vector<unsigned char> v(static_cast<std::size_t>(checked_mul(checked_mul(rows, cols), elem_bytes)));
  std::uint32_t x = seed * 2654435761u + 12345u;
  for (auto& b : v) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;  // xorshift32
    b = static_cast<unsigned char>(x >> 11);
  }
  return v;
}

}  // namespace layoutproof::gpu
