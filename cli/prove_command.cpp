#include "cli/prove_command.hpp"

#include <cstdio>
#include <ostream>

#include "model/notation.hpp"
#include "proofs/prove.hpp"

namespace layoutproof::cli {
namespace {

using namespace proofs;

std::string json_escape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') o += '\\', o += ch;
    else if (ch == '\n') o += "\\n";
    else if (static_cast<unsigned char>(ch) < 0x20) o += ' ';
    else o += ch;
  }
  return '"' + o + '"';
}

std::string ms(double t) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", t);
  return b;
}

std::string witness_text(const Witness& w) {
  std::string s;
  for (const auto& p : w.points) {
    if (!s.empty()) s += ", ";
    s += p.role + ": ";
    if (p.index >= 0) s += "index " + std::to_string(p.index) + " " + p.coord + " -> ";
    else if (!p.coord.empty()) s += p.coord + " -> ";
    s += std::to_string(p.offset);
  }
  return s.empty() ? w.why : s + " (" + w.why + ")";
}

std::string witness_json(const Witness& w) {
  std::string s = "{\"why\":" + json_escape(w.why) + ",\"points\":[";
  for (std::size_t i = 0; i < w.points.size(); ++i) {
    const auto& p = w.points[i];
    s += (i ? "," : "") + std::string("{\"role\":") + json_escape(p.role) + ",\"index\":" + std::to_string(p.index) +
         ",\"coord\":" + json_escape(p.coord) + ",\"offset\":" + std::to_string(p.offset) + "}";
  }
  return s + "]}";
}

}  // namespace

int run_prove(const std::vector<std::string>& args, std::ostream& out) {
  std::string layout_text;
  std::vector<std::string> claim_texts;
  bool json = false;
  ProveOptions opts;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw LayoutError(a + " needs a value");
      return args[++i];
    };
    if (a == "--claim") claim_texts.push_back(next());
    else if (a == "--json") json = true;
    else if (a == "--engine") {
      const std::string e = next();
      if (e == "z3") opts.engine = EngineChoice::z3;
      else if (e == "exhaustive") opts.engine = EngineChoice::exhaustive;
      else if (e == "auto") opts.engine = EngineChoice::automatic;
      else throw LayoutError("--engine must be z3, exhaustive or auto, not '" + e + "'");
    } else if (a == "--timeout-ms") {
      const std::string v = next();
      if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos || std::stoul(v) == 0)
        throw LayoutError("--timeout-ms needs a positive integer");
      opts.smt.timeout_ms = static_cast<unsigned>(std::stoul(v));
    } else if (a == "--dump-smt") opts.smt.dump_dir = next();
    else if (!a.empty() && a[0] == '-' && a.size() > 1 && a[1] == '-') throw LayoutError("unknown option " + a);
    else if (layout_text.empty()) layout_text = a;
    else throw LayoutError("prove takes one layout; unexpected '" + a + "'");
  }
  if (layout_text.empty() || claim_texts.empty())
    throw LayoutError("usage: layoutproof prove LAYOUT --claim CLAIM [--claim ...] [--json] [--engine E]");
  const Subject subject = parse_subject(layout_text);
  std::vector<Claim> claims;
  for (const auto& t : claim_texts) claims.push_back(parse_claim(t));

  bool refuted = false, undecided = false;
  std::string json_results;
  int counts[4] = {0, 0, 0, 0};
  for (const Claim& c : claims) {
    const Verdict v = prove(subject, c, opts);
    ++counts[static_cast<int>(v.kind)];
    refuted |= v.kind == Verdict::Kind::refuted;
    undecided |= v.kind == Verdict::Kind::unknown || v.kind == Verdict::Kind::error;
    const std::string largest = v.largest_v ? " (largest V: " + std::to_string(v.largest_v) + ")" : "";
    if (json) {
      json_results += std::string(json_results.empty() ? "" : ",") + "{\"claim\":" + json_escape(c.text) +
                      ",\"verdict\":\"" + to_string(v.kind) + "\",\"method\":" + json_escape(v.method) +
                      ",\"time_ms\":" + ms(v.time_ms) + ",\"detail\":" + json_escape(v.detail) +
                      ",\"witness\":" + (v.is_refuted() ? witness_json(v.witness) : "null") +
                      (v.largest_v ? ",\"largest_v\":" + std::to_string(v.largest_v) : "") + "}";
    } else {
      out << to_string(v.kind) << "  " << c.text << "  [" << v.method << ", " << ms(v.time_ms) << " ms]";
      if (v.is_refuted()) out << "  witness: " << witness_text(v.witness);
      else if (!v.detail.empty()) out << "  " << v.detail;
      out << largest << "\n";
    }
  }
  if (json)
    out << "{\"layout\":" << json_escape(subject.text()) << ",\"results\":[" << json_results << "]}\n";
  else
    out << subject.text() << ": " << counts[0] << " proved, " << counts[1] << " refuted, " << counts[2]
        << " unknown, " << counts[3] << " error\n";
  return refuted ? 1 : undecided ? 3 : 0;
}

}  // namespace layoutproof::cli
