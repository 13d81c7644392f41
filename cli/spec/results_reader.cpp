#include "cli/spec/results_reader.hpp"

#include <fstream>
#include <limits>
#include <sstream>

#include "cli/output/results.hpp"
#include "model/layout/notation.hpp"
#include "model/support/checked.hpp"
#include "proofs/raster/scheduler.hpp"

namespace layoutproof::cli {
namespace {

using json = nlohmann::json;
using proofs::CheckResult;
using proofs::Verdict;

// One result item of a document: its keys, each checked for the type the schema gives it.
class Item {
 public:
  Item(const json& j, const ResultsFile& f, const std::string& flag) : j_(j), f_(f), flag_(flag), id_(j.at("id").get<std::string>()) {}

  [[noreturn]] void bad(const std::string& what) const {
    throw LayoutError(flag_ + " " + f_.path + ": the result '" + id_ + "' " + what + " (docs/json_output.schema.json; give the file `check --json FILE` wrote)");
  }
  bool has(const char* key) const { return j_.contains(key) && !j_[key].is_null(); }
  const json& at(const char* key) const {
    if (!j_.contains(key)) bad(std::string("has no \"") + key + "\"");
    return j_[key];
  }
  std::string str(const char* key) const { return as_string(at(key), key); }
  i64 integer(const json& v, const char* key) const {
    if (!v.is_number_integer()) bad(std::string("has a \"") + key + "\" that is not an integer");
    return v.get<i64>();
  }
  double number(const char* key) const {
    const json& v = at(key);
    if (!v.is_number()) bad(std::string("has a \"") + key + "\" that is not a number");
    return v.get<double>();
  }
  std::string as_string(const json& v, const char* key) const {
    if (!v.is_string()) bad(std::string("has a \"") + key + "\" that is not a string");
    return v.get<std::string>();
  }
  int small(const json& v, const char* key) const {
    const i64 x = integer(v, key);
    if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max()) bad(std::string("has a \"") + key + "\" out of range");
    return static_cast<int>(x);
  }
  SourceLocation location(const json& v, const char* key) const {
    if (!v.is_object()) bad(std::string("has a \"") + key + "\" that is not a location");
    const auto part = [&](const char* k) -> const json& {
      if (!v.contains(k)) bad(std::string("has a \"") + key + "\" without \"" + k + "\"");
      return v[k];
    };
    return {as_string(part("file"), key), small(part("line"), key), small(part("column"), key)};
  }
  const std::string& id() const { return id_; }

 private:
  const json& j_;
  const ResultsFile& f_;
  const std::string& flag_;
  std::string id_;
};

std::vector<i64> ints(const Item& it, const json& v, const char* key) {
  if (!v.is_array()) it.bad(std::string("has a witness \"") + key + "\" that is not a list");
  std::vector<i64> out;
  for (const json& x : v) out.push_back(it.integer(x, key));
  return out;
}

proofs::Witness layout_witness(const Item& it, const json& w) {
  proofs::Witness out;
  out.why = it.as_string(w.at("why"), "why");
  for (const json& p : w.at("points")) {
    proofs::WitnessPoint q;
    q.role = it.as_string(p.at("role"), "role");
    q.index = it.integer(p.at("index"), "index");
    q.coord = it.as_string(p.at("coord"), "coord");
    q.offset = it.integer(p.at("offset"), "offset");
    q.unit = it.as_string(p.at("unit"), "unit");
    out.points.push_back(std::move(q));
  }
  return out;
}

proofs::BankWitness bank_witness(const Item& it, const json& w) {
  proofs::BankWitness b;
  b.instruction = it.integer(w.at("instruction"), "instruction");
  b.where = it.as_string(w.at("where"), "where");
  b.phase = it.small(w.at("phase"), "phase");
  b.bank = it.small(w.at("bank"), "bank");
  b.ways = it.small(w.at("ways"), "ways");
  b.wavefronts = it.small(w.at("wavefronts"), "wavefronts");
  b.ideal = it.small(w.at("ideal"), "ideal");
  if (!w.at("conflict_degree").is_number()) it.bad("has a bank witness whose conflict_degree is not a number");
  b.degree = w["conflict_degree"].get<double>();
  for (const json& l : w.at("lanes")) {
    proofs::BankLane lane;
    lane.lane = it.small(l.at("lane"), "lane");
    lane.row = it.integer(l.at("row"), "row");
    lane.col = it.integer(l.at("col"), "col");
    lane.byte_address = it.integer(l.at("byte_address"), "byte_address");
    lane.words = ints(it, l.at("words"), "words");
    b.lanes.push_back(std::move(lane));
  }
  b.all_addresses.fill(-1);  // only the witness lanes were written
  return b;
}

proofs::TraceWitness trace_witness(const Item& it, const json& w) {
  proofs::TraceWitness t;
  t.instruction = it.integer(w.at("instruction"), "instruction");
  t.warp = it.integer(w.at("warp"), "warp");
  t.copy_coord = ints(it, w.at("copy_coord"), "copy_coord");
  t.phase = it.small(w.at("phase"), "phase");
  t.bank = it.small(w.at("bank"), "bank");
  t.ways = it.small(w.at("ways"), "ways");
  t.wavefronts = it.small(w.at("wavefronts"), "wavefronts");
  t.ideal = it.small(w.at("ideal"), "ideal");
  for (const i64 l : ints(it, w.at("lanes"), "lanes")) t.lanes.push_back(static_cast<int>(l));
  t.why = it.as_string(w.at("why"), "why");
  return t;
}

Verdict verdict_of(const Item& it, const std::string& label) {
  Verdict v;
  if (label == "PROVED" || label == "REPORT") v.kind = Verdict::Kind::proved;
  else if (label == "REFUTED") v.kind = Verdict::Kind::refuted;
  else if (label == "UNKNOWN") v.kind = Verdict::Kind::unknown;
  else if (label == "ERROR") v.kind = Verdict::Kind::error;
  else it.bad("has the verdict '" + label + "', not PROVED, REFUTED, UNKNOWN, ERROR or REPORT");
  v.method = it.str("method");
  v.detail = it.str("detail");
  v.time_ms = it.number("time_ms");
  if (it.has("largest_v")) v.largest_v = it.integer(it.at("largest_v"), "largest_v");
  return v;
}

// The check's kind, as far as the presenters read it: a compiled instruction's (its
// InstructionSubject), a scheduler's (no layout), and a refuted bank or kernel claim's from its
// witness's shape; otherwise a layout's (a PROVED bank or kernel claim reads the same either way).
CheckResult result_of(const Item& it, const std::string& label) {
  CheckResult r;
  proofs::Check& c = r.check;
  c.name = it.str("subject");
  c.claim.text = it.str("claim");
  const std::string access = it.str("access");
  r.verdict = verdict_of(it, label);
  const std::string layout = it.str("layout");
  proofs::RecordedSubject rec{proofs::CheckKind::layout, std::nullopt, access};
  std::optional<proofs::InstructionSubject> instruction;
  if (it.has("instruction")) {
    const json& in = it.at("instruction");
    if (!in.is_object()) it.bad("has an \"instruction\" that is not an object");
    instruction.emplace();
    instruction->site = proofs::CompiledSite{it.as_string(in.at("kernel"), "kernel"), it.location(in.at("ptx"), "ptx"), it.as_string(in.at("text"), "text")};
    instruction->text = access;
    if (it.has("inlined_from")) instruction->inlined = it.location(it.at("inlined_from"), "inlined_from");
  } else if (layout.empty()) {
    rec.kind = proofs::CheckKind::scheduler;
    const proofs::SchedulerClaim sc =
        label == "REPORT" ? proofs::SchedulerClaim::balance : proofs::parse_scheduler_claim(c.claim.text).value_or(proofs::SchedulerClaim{});
    c.claim.form = sc;
    if (sc == proofs::SchedulerClaim::balance && label != "REPORT" && r.verdict.is_proved()) it.bad("is a measured balance not shown as REPORT");
  }
  if (!layout.empty()) {
    try {
      rec.layout = parse_any_layout(layout);
    } catch (const LayoutError& e) {
      it.bad("has a layout that does not read back (" + std::string(e.what()) + ")");
    }
    if (to_string(*rec.layout) != layout) it.bad("has the layout '" + layout + "', which reads back as '" + to_string(*rec.layout) + "'");
  }
  const json& w = it.at("witness");
  if (r.verdict.is_refuted() && !w.is_object()) it.bad("is REFUTED without a witness");
  if (r.verdict.is_refuted()) {
    if (w.contains("conflict_degree")) {
      rec.kind = proofs::CheckKind::bank;
      r.evidence = bank_witness(it, w);
    } else if (w.contains("copy_coord")) {
      rec.kind = proofs::CheckKind::kernel;
      proofs::TraceEvidence t{trace_witness(it, w), nullptr, {}};
      if (w.contains("addresses")) t.addresses = ints(it, w["addresses"], "addresses");
      r.evidence = std::move(t);
    } else {
      r.verdict.witness = layout_witness(it, w);
    }
  }
  if (instruction) c.subject = std::move(*instruction);
  else c.subject = std::move(rec);
  if (it.has("location")) c.origin.where = it.location(it.at("location"), "location");
  if (it.has("code")) c.origin.code = it.location(it.at("code"), "code");
  if (it.has("command")) c.origin.command = it.str("command");
  if (it.has("balance")) r.evidence = proofs::BalanceMeasure{it.number("balance")};
  if (it.has("change")) r.change = it.str("change");
  if (it.has("position")) {
    r.position = it.integer(it.at("position"), "position");
    if (r.position < 0) it.bad("has a negative position");
  }
  if (c.id() != it.id()) it.bad("is not its subject, claim and access ('" + c.id() + "')");
  if (proofs::verdict_label(r) != label) it.bad("has the verdict " + label + " for a claim whose verdict reads " + proofs::verdict_label(r));
  if (witness_summary(r) != it.str("witness_text")) it.bad("has a witness_text that is not its witness's ('" + witness_summary(r) + "')");
  return r;
}

}  // namespace

ResultsFile read_results_file(const std::string& path, const std::string& flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LayoutError(flag + " " + path + ": cannot read it");
  std::stringstream text;
  text << in.rdbuf();
  ResultsFile f{path, {}};
  try {
    f.doc = json::parse(text.str());
  } catch (const json::exception& e) {
    throw LayoutError(flag + " " + path + ": not JSON (" + e.what() + "); give the file an earlier `check --json FILE` wrote");
  }
  if (!f.doc.is_object() || !f.doc.contains("results") || !f.doc["results"].is_array())
    throw LayoutError(flag + " " + path + ": not a results document (no \"results\" array; docs/json_output.schema.json)");
  for (const auto& r : f.doc["results"])
    if (!r.is_object() || !r.contains("id") || !r["id"].is_string() || !r.contains("verdict") || !r["verdict"].is_string())
      throw LayoutError(flag + " " + path + ": a result without a string id and verdict");
  return f;
}

std::vector<CheckResult> results_of(const ResultsFile& f, const std::string& flag) {
  std::vector<CheckResult> out;
  for (const json& j : f.doc["results"]) {
    const Item it(j, f, flag);
    try {
      out.push_back(result_of(it, j["verdict"].get<std::string>()));
    } catch (const json::exception& e) {  // a witness without a key its shape has
      it.bad(std::string("has a witness that is not of its shape (") + e.what() + ")");
    }
  }
  return out;
}

}  // namespace layoutproof::cli
