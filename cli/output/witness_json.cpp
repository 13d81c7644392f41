#include "cli/output/witness_json.hpp"

#include "cli/output/escape.hpp"

namespace layoutproof::cli {

namespace {

template <class Seq>
std::string int_array(const Seq& xs) {
  std::string s = "[";
  bool first = true;
  for (const auto x : xs) s += (first ? "" : ",") + std::to_string(x), first = false;
  return s + "]";
}

}  // namespace

std::string witness_to_json(const proofs::Witness& w) {
  std::string s = "{\"why\":" + json_str(w.why) + ",\"points\":[";
  for (std::size_t i = 0; i < w.points.size(); ++i) {
    const auto& p = w.points[i];
    s += (i ? "," : "") + std::string("{\"role\":") + json_str(p.role) + ",\"index\":" + std::to_string(p.index) +
         ",\"coord\":" + json_str(p.coord) + ",\"offset\":" + std::to_string(p.offset) +
         ",\"unit\":" + json_str(p.unit) + "}";
  }
  return s + "]}";
}

std::string witness_to_json(const proofs::BankWitness& w) {
  std::string s = "{\"instruction\":" + std::to_string(w.instruction) + ",\"where\":" + json_str(w.where) +
                  ",\"phase\":" + std::to_string(w.phase) + ",\"bank\":" + std::to_string(w.bank) +
                  ",\"ways\":" + std::to_string(w.ways) + ",\"wavefronts\":" + std::to_string(w.wavefronts) +
                  ",\"ideal\":" + std::to_string(w.ideal) + ",\"conflict_degree\":" + std::to_string(w.degree) + ",\"lanes\":[";
  for (std::size_t i = 0; i < w.lanes.size(); ++i) {
    const auto& l = w.lanes[i];
    s += (i ? "," : "") + std::string("{\"lane\":") + std::to_string(l.lane) + ",\"row\":" + std::to_string(l.row) +
         ",\"col\":" + std::to_string(l.col) + ",\"byte_address\":" + std::to_string(l.byte_address) +
         ",\"words\":" + int_array(l.words) + "}";
  }
  return s + "],\"why\":" + json_str(proofs::describe(w)) + "}";
}

std::string witness_to_json(const proofs::TraceWitness& w, const AddressTrace* trace) {
  std::string s = "{\"instruction\":" + std::to_string(w.instruction) + ",\"warp\":" + std::to_string(w.warp) +
                  ",\"copy_coord\":" + int_array(w.copy_coord) + ",\"phase\":" + std::to_string(w.phase) +
                  ",\"bank\":" + std::to_string(w.bank) + ",\"ways\":" + std::to_string(w.ways) +
                  ",\"wavefronts\":" + std::to_string(w.wavefronts) + ",\"ideal\":" + std::to_string(w.ideal) +
                  ",\"lanes\":" + int_array(w.lanes);
  if (trace && w.instruction >= 0 && w.instruction < static_cast<i64>(trace->instructions.size())) {
    const auto& ins = trace->instructions[static_cast<std::size_t>(w.instruction)];
    std::vector<i64> addresses, banks;
    for (const int l : w.lanes) {
      const i64 a = l >= 0 && l < kWarpLanes ? ins.addr[static_cast<std::size_t>(l)] : -1;
      addresses.push_back(a);
      banks.push_back(a < 0 ? -1 : bank_of(a));
    }
    s += ",\"addresses\":" + int_array(addresses) + ",\"banks\":" + int_array(banks);
  }
  return s + ",\"why\":" + json_str(w.why) + "}";
}

std::string result_witness_json(const proofs::CheckResult& r) {
  if (r.verdict.kind != proofs::Verdict::Kind::refuted) return "null";
  if (r.bank_witness) return witness_to_json(*r.bank_witness);
  if (r.trace_witness) return witness_to_json(*r.trace_witness, r.check.trace.get());
  return witness_to_json(r.verdict.witness);
}

}  // namespace layoutproof::cli
