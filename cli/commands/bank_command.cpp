#include "cli/commands/bank_command.hpp"

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/help.hpp"
#include "model/bank/bank.hpp"
#include "model/support/error.hpp"

namespace layoutproof::cli {
namespace {

constexpr const char* kUsage = "usage: layoutproof bank --op OP --width W --addresses A0,...,A31 [--json]";

std::int64_t parse_int(const std::string& s, const std::string& what) {
  if (s.empty()) throw LayoutError(what + ": empty number");
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || end != s.c_str() + s.size()) throw LayoutError(what + ": '" + s + "' is not an integer");
  return v;
}

std::string degree_text(double d) {
  std::ostringstream o;
  if (d == static_cast<double>(static_cast<long long>(d))) o << static_cast<long long>(d);
  else o << d;
  return o.str();
}

std::string join(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

}  // namespace

namespace {

struct BankArgs {
  std::string op_s, width_s, addr_s;
  bool json = false;
};

FlagTable bank_table(BankArgs& a) {
  FlagTable t("bank");
  t.value({"--op"}, "OP", "ld | st | ldsm1 | ldsm2 | ldsm4 | stsm1 | stsm2 | stsm4", [&a](const std::string& v) { a.op_s = v; });
  t.value({"--width"}, "W", "bytes per lane: 1, 2, 4, 8 or 16 (16 for ldsm/stsm)", [&a](const std::string& v) { a.width_s = v; });
  t.value({"--addresses"}, "LIST", "the 32 lanes' byte addresses, comma-separated; -1 = inactive lane",
          [&a](const std::string& v) { a.addr_s = v; });
  t.toggle({"--json"}, "{\"wavefronts\", \"ideal\", \"conflict_degree\", \"phase_wavefronts\", \"collisions\": [...]}",
           [&a] { a.json = true; });
  return t;
}

}  // namespace

FlagTable bank_flags() {
  auto a = std::make_shared<BankArgs>();
  FlagTable t = bank_table(*a);
  t.keep(a);
  return t;
}

int run_bank(const std::vector<std::string>& args, std::ostream& out) {
  if (wants_help(args)) return out << *help_text("bank"), 0;
  BankArgs parsed;
  bank_table(parsed).parse(args);
  const std::string &op_s = parsed.op_s, &width_s = parsed.width_s, &addr_s = parsed.addr_s;
  const bool json = parsed.json;
  if (op_s.empty() || width_s.empty() || addr_s.empty()) throw LayoutError(std::string("missing argument; ") + kUsage);
  SmemAccess acc;
  const auto op = parse_smem_op(op_s);
  if (!op) throw LayoutError("--op must be one of ld st ldsm1 ldsm2 ldsm4 stsm1 stsm2 stsm4, got '" + op_s + "'");
  acc.op = *op;
  const std::int64_t w = parse_int(width_s, "--width");
  if (w < 1 || w > 16) throw LayoutError("--width must be 1, 2, 4, 8 or 16, got " + width_s);
  acc.width_bytes = static_cast<int>(w);
  std::vector<std::string> parts;
  {
    std::string cur;
    for (char c : addr_s) {
      if (c == ',') parts.push_back(cur), cur.clear();
      else if (c != ' ') cur += c;
    }
    parts.push_back(cur);
  }
  if (parts.size() != static_cast<std::size_t>(kWarpLanes))
    throw LayoutError("--addresses needs 32 comma-separated lane addresses (-1 = inactive), got " + std::to_string(parts.size()));
  for (std::size_t i = 0; i < parts.size(); ++i) {
    acc.lane_addr[i] = parse_int(parts[i], "lane " + std::to_string(i));
    if (acc.lane_addr[i] < -1)  // every lane, also those an ldsm/stsm of fewer matrices ignores (case E3e)
      throw LayoutError("lane " + std::to_string(i) + ": address " + parts[i] + " is negative (-1 marks an inactive lane)");
  }

  const BankReport r = analyze_smem_access(acc);
  if (json) {
    nlohmann::ordered_json collisions = nlohmann::ordered_json::array();
    for (const BankCollision& c : r.collisions)
      collisions.push_back({{"phase", c.phase}, {"bank", c.bank}, {"ways", c.ways()}, {"lanes", c.lanes}, {"words", c.words}});
    const double d = r.conflict_degree;  // an integer degree is written as one ("32", not "32.0")
    const nlohmann::ordered_json degree = d == static_cast<double>(static_cast<long long>(d)) ? nlohmann::ordered_json(static_cast<long long>(d))
                                                                                            : nlohmann::ordered_json(d);
    // "ideal": the hardware's (what Nsight Compute reports); "collision_free": the wavefronts with
    // every bank collision removed, which conflict_degree divides by.
    const nlohmann::ordered_json j = {{"wavefronts", r.wavefronts},     {"ideal", r.hw_ideal},
                                      {"conflict_degree", degree},      {"op", to_string(acc.op)},
                                      {"width_bytes", acc.width_bytes}, {"phase_wavefronts", r.phase_wavefronts},
                                      {"broadcast_merge", r.broadcast_merge}, {"collisions", std::move(collisions)},
                                      {"collision_free", r.ideal}};
    out << j.dump() << "\n";
    return 0;
  }
  out << "wavefronts per instruction: " << r.wavefronts << "\n"
      << "ideal: " << r.hw_ideal;
  if (r.hw_ideal != r.ideal)  // the phases hold the active lanes in more wavefronts than their bytes need
    out << " (the active lanes' bytes fill " << r.hw_ideal << "; without bank collisions the phases take " << r.ideal << ")";
  out << "\n"
      << "conflict degree: " << degree_text(r.conflict_degree) << (r.wavefronts == r.ideal ? " (conflict-free)" : "")
      << "\n";
  std::size_t shown = 0;
  for (const BankCollision& c : r.collisions) {
    if (shown++ == 8) {
      out << "  ... " << (r.collisions.size() - 8) << " more colliding banks (--json lists all)\n";
      break;
    }
    out << "  phase " << c.phase << " bank " << c.bank << ": " << c.ways() << " words, lanes " << join(c.lanes) << "\n";
  }
  return 0;
}

}  // namespace layoutproof::cli
