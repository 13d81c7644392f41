// trace_to_json (model/trace/trace.hpp).
#include "model/trace/trace.hpp"

#include "model/support/json.hpp"

#include <cstdio>

namespace layoutproof {
namespace {

// A quoted JSON string.
std::string quoted(const std::string& s) { return "\"" + json_escape(s) + "\""; }

template <class It>
std::string int_array(It first, It last) {
  std::string out = "[";
  for (It it = first; it != last; ++it) out += (it == first ? "" : ",") + std::to_string(*it);
  return out + "]";
}

// Lane l's coordinate, or null when the lane is inactive or the producer gave no coordinates.
std::string lane_coord(const TraceInstruction& in, int lane) {
  const auto rank = static_cast<std::size_t>(in.coord_rank);
  const auto first = static_cast<std::size_t>(lane) * rank;
  if (rank == 0 || in.addr[static_cast<std::size_t>(lane)] < 0 || in.coords.size() < first + rank) return "null";
  return int_array(in.coords.begin() + static_cast<std::ptrdiff_t>(first),
                   in.coords.begin() + static_cast<std::ptrdiff_t>(first + rank));
}

std::string instruction_json(const TraceInstruction& in) {
  std::string s = "{\"warp\":" + std::to_string(in.warp) + ",\"index\":" + std::to_string(in.index) +
                  ",\"copy_coord\":" + int_array(in.copy_coord.begin(), in.copy_coord.end()) +
                  ",\"where\":" + quoted(in.where) + ",\"addrs\":" + int_array(in.addr.begin(), in.addr.end()) +
                  ",\"threads\":" + int_array(in.thread.begin(), in.thread.end()) + ",\"coords\":[";
  for (int l = 0; l < kWarpLanes; ++l) s += (l ? "," : "") + lane_coord(in, l);
  return s + "]}";
}

}  // namespace

bool is_active_lane(const TraceInstruction& in, int lane) {
  if (in.addr[static_cast<std::size_t>(lane)] < 0) return false;
  return lane < address_lanes(in.op);
}

std::string trace_to_json(const AddressTrace& t) {
  std::string s = "{\"provenance\":" + quoted(t.provenance) + ",\"op\":" + quoted(to_string(t.op)) +
                  ",\"width_bytes\":" + std::to_string(t.width_bytes) + ",\"threads\":" + std::to_string(t.threads) +
                  ",\"element_bytes\":" + std::to_string(t.element_bytes) +
                  ",\"domain_size\":" + std::to_string(t.domain_size) +
                  ",\"domain_shape\":" + int_array(t.domain_shape.begin(), t.domain_shape.end()) +
                  ",\"smem_is_destination\":" + (t.smem_is_destination ? "true" : "false") + ",\"instructions\":[";
  for (std::size_t i = 0; i < t.instructions.size(); ++i) s += (i ? "," : "") + instruction_json(t.instructions[i]);
  return s + "]}";
}

}  // namespace layoutproof
