#include "cli/output/witness_json.hpp"

namespace layoutproof::cli {

using json = nlohmann::ordered_json;

json witness_json(const proofs::Witness& w) {
  json points = json::array();
  for (const auto& p : w.points)
    points.push_back({{"role", p.role}, {"index", p.index}, {"coord", p.coord}, {"offset", p.offset}, {"unit", p.unit}});
  return {{"why", w.why}, {"points", std::move(points)}};
}

json witness_json(const proofs::BankWitness& w) {
  json lanes = json::array();
  for (const auto& l : w.lanes)
    lanes.push_back({{"lane", l.lane}, {"row", l.row}, {"col", l.col}, {"byte_address", l.byte_address}, {"words", l.words}});
  return {{"instruction", w.instruction}, {"where", w.where}, {"phase", w.phase}, {"bank", w.bank}, {"ways", w.ways},
          {"wavefronts", w.wavefronts}, {"ideal", w.ideal}, {"conflict_degree", w.degree}, {"lanes", std::move(lanes)},
          {"why", proofs::describe(w)}};
}

json witness_json(const proofs::TraceWitness& w, const AddressTrace* trace, const std::vector<i64>& recorded) {
  json j = {{"instruction", w.instruction}, {"warp", w.warp}, {"copy_coord", w.copy_coord}, {"phase", w.phase},
            {"bank", w.bank}, {"ways", w.ways}, {"wavefronts", w.wavefronts}, {"ideal", w.ideal}, {"lanes", w.lanes}};
  std::vector<i64> addresses = recorded, banks;
  if (trace && w.instruction >= 0 && w.instruction < static_cast<i64>(trace->instructions.size())) {
    const auto& ins = trace->instructions[static_cast<std::size_t>(w.instruction)];
    addresses.clear();
    for (const int l : w.lanes) addresses.push_back(l >= 0 && l < kWarpLanes ? ins.addr[static_cast<std::size_t>(l)] : -1);
  }
  if (!addresses.empty()) {
    for (const i64 a : addresses) banks.push_back(a < 0 ? -1 : bank_of(a));
    j["addresses"] = addresses;
    j["banks"] = banks;
  }
  j["why"] = w.why;
  return j;
}

json result_witness_json(const proofs::CheckResult& r) {
  if (r.verdict.kind != proofs::Verdict::Kind::refuted) return nullptr;
  if (const auto* b = std::get_if<proofs::BankWitness>(&r.evidence)) return witness_json(*b);
  if (const auto* t = std::get_if<proofs::TraceEvidence>(&r.evidence)) return witness_json(t->witness, t->trace.get(), t->addresses);
  return witness_json(r.verdict.witness);
}

}  // namespace layoutproof::cli
