// synth --kernel's view of its search (cli/commands/synth/kernel_synth_view.hpp): human lines and JSON.
#include "cli/commands/synth/kernel_synth_view.hpp"

#include <cstdio>
#include <map>
#include <string>

#include "cli/output/results.hpp"
#include "model/support/json.hpp"

namespace layoutproof::cli {

namespace {

using namespace proofs;  // the search's types, throughout

std::size_t at(i64 i) { return static_cast<std::size_t>(i); }

std::string num(double t, int digits = 1) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, t);
  return b;
}
std::string js(const std::string& s) { return "\"" + json_escape(s) + "\""; }
std::string b(bool v) { return v ? "true" : "false"; }
std::string side_text(CopySide s) { return s == CopySide::S ? "S" : "D"; }

std::string shape_text(const std::vector<i64>& s) {
  std::string t = "(";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
  return t + ")";
}

// Rejected members per reason: the first copy that is not vector-legal.
std::map<i64, i64> rejected_by_copy(const KernelSynthResult& r) {
  std::map<i64, i64> n;
  for (const auto& c : r.rejected) n[c.illegal_copy]++;
  return n;
}

i64 conflict_free_members(const KernelSynthResult& r) {
  i64 n = 0;
  for (const auto& c : r.ranked) n += c.conflict_free();
  return n;
}

std::string family_line(const KernelSynthResult& r) {
  std::string s = "family: " + std::to_string(r.family_size) + " members; " + std::to_string(r.duplicates) +
                  " duplicates (the same map as an earlier member), " + std::to_string(r.rejected.size()) +
                  " rejected as not vector-legal";
  std::string per;
  for (const auto& [copy, n] : rejected_by_copy(r)) per += (per.empty() ? "" : ", ") + std::string("copy ") + std::to_string(copy) + ": " + std::to_string(n);
  if (!per.empty()) s += " (" + per + ")";
  return s + ", " + std::to_string(r.ranked.size()) + " evaluated on the bank model (" + std::to_string(r.bank_evaluations) +
         " distinct instructions)";
}

std::string none_method(const KernelSynthResult& r) {
  if (r.deadline_cut) return "cut by --deadline-s: not every one of the " + std::to_string(r.family_size) + " members was decided";
  return "exhaustive: all " + std::to_string(r.family_size) + " members, each a duplicate, rejected (not vector-legal) or " +
         "scored on every instruction of every copy" +
         (r.placement_text.empty() ? "" : " at base 0, and each conflict-free one traced again " + r.placement_text);
}

void text_member(std::string& s, const KernelSynthResult& r, const KernelCandidate& c, i64 rank) {
  s += "  " + std::to_string(rank + 1) + ". " + candidate_text(c.c) + ": worst " + kernel_ratio_text(c.wavefronts, c.ideal) + ", " +
       std::to_string(c.smem_bytes) + " bytes;";
  for (std::size_t i = 0; i < c.copies.size(); ++i) {
    const CopyScore& k = c.copies[i];
    s += " copy " + std::to_string(i) + " " + kernel_ratio_text(k.wavefronts, k.ideal) + " (instruction " + std::to_string(k.worst) +
         ", " + std::to_string(k.conflicted) + " of " + std::to_string(r.copies[i].instructions) + " above ideal)";
  }
  s += "\n";
}

void text_proofs(std::string& s, const KernelSynthRequest& q, const KernelSynthResult& r) {
  for (const auto& p : r.proofs) {
    const Verdict& v = p.verdict;
    s += std::string(to_string(v.kind)) + "  " + p.claim + "  " + kernel_proof_subject(q, r, p);
    if (!r.found) s += " of member " + std::to_string(p.member + 1);
    s += "  [" + v.method + ", " + num(v.time_ms) + " ms]  " +
         (p.witness ? "witness: " + p.witness->why : v.is_refuted() ? v.witness.why : v.detail) + "\n";
  }
}

}  // namespace

std::string kernel_synth_text(const KernelSynthRequest& q, const KernelSynthResult& r, bool all) {
  std::string s = "synth --kernel " + shape_text(q.shape) + " " + q.element + " (" + std::to_string(r.element_bytes) +
                  "-byte elements), " + std::to_string(r.copies.size()) + " copies:\n";
  for (std::size_t i = 0; i < r.copies.size(); ++i) {
    const KernelCopyInfo& c = r.copies[i];
    s += "  copy " + std::to_string(i) + "  " + side_text(c.side) + "  " + c.text + "\n           " +
         std::to_string(c.instructions) + " x " + kernel_op_text(c.op, c.width_bytes) + ", " + std::to_string(c.slice_len) +
         "-element slices; covers: " + to_string(c.covers.kind) + " (" + c.covers.detail + ")\n";
  }
  if (q.descriptor)
    s += "the MMA (" + q.descriptor_mma + ") reads " + q.name + " through a " + kernel_descriptor_kind(q) + " descriptor: the family is CUTLASS's " +
         (*q.descriptor == Major::k ? "GMMA::Layout_K_*_Atom" : "GMMA::Layout_MN_*_Atom") + " atoms" +
         (kernel_descriptor_kind(q) == "UMMA" ? " (UMMA::Layout_* are the same atoms" + std::string(*q.descriptor == Major::mn ? ", and UMMA::Layout_MN_SW128_32B_Atom)" : ")") : "") + "\n";
  s += family_line(r) + "\n";
  if (!r.placement_text.empty()) {
    s += "placement: the buffer lies " + r.placement_text + "; ranked at base 0, the winner proved at every base";
    s += r.placement_failures.empty() ? "\n" : " (" + std::to_string(r.placement_failures.size()) + " members conflict-free at base 0 refuted there)\n";
  }
  if (r.ranked.empty()) {
    s += std::string(r.deadline_cut ? "\nUNKNOWN  " : "\nPROVED  ") + kernel_none_statement(r) + "  [" + none_method(r) + "]\n";
    const std::size_t shown = all ? r.rejected.size() : std::min<std::size_t>(5, r.rejected.size());
    for (std::size_t i = 0; i < shown; ++i)
      s += "  " + candidate_text(r.rejected[i].c) + ": copy " + std::to_string(r.rejected[i].illegal_copy) + ": " +
           r.rejected[i].illegal_why + "\n";
    return s + "time: search " + num(r.search_ms) + " ms\n";
  }
  s += "ranking: worst copy wavefronts/ideal, smem bytes, total wavefronts, fewer swizzle bits, no padding, " +
       std::string(r.preferred ? to_string(*r.preferred) + std::string(" (the copies' vectors)") : "either major") +
       ", fewer swizzled bits (M+B+S), enumeration order\n\n";
  const KernelCandidate& w = r.ranked.front();
  if (r.found)
    s += "FOUND  " + candidate_text(w.c) + ": every copy at its ideal wavefronts (" + std::to_string(conflict_free_members(r)) +
         " conflict-free members in all)\n";
  else {
    if (r.deadline_cut)
      s += "UNKNOWN  " + q.prove.smt.deadline.reason() + " before every member was decided: neither a winner nor 'none exists' is claimed\n";
    else
      s += (r.placement_undecided ? "UNKNOWN  " : "PROVED  ") + kernel_none_statement(r) + "  [" + none_method(r) + "]\n";
    s += "best: " + candidate_text(w.c) + "\n";
  }
  s += r.cpp + "\n  notation: " + r.notation + "\n  smem: " + std::to_string(w.smem_bytes) + " bytes per tile (all stages)\n";
  for (const auto& name : r.cutlass_atoms) s += "  the atom is CUTLASS's " + name + "\n";
  for (std::size_t i = 0; i < w.copies.size(); ++i) {
    const CopyScore& k = w.copies[i];
    s += "  copy " + std::to_string(i) + ": worst instruction " + std::to_string(k.worst) + " takes " +
         kernel_ratio_text(k.wavefronts, k.ideal) + " wavefronts/ideal; " + std::to_string(k.total_wavefronts) + " wavefronts in all (ideal " +
         std::to_string(k.total_ideal) + ")\n";
  }
  s += "\n";
  if (!r.found) s += "REFUTED witnesses of the best " + std::to_string(std::min<i64>(q.witnesses, static_cast<i64>(r.ranked.size()))) + " members:\n";
  text_proofs(s, q, r);
  const i64 shown = all ? static_cast<i64>(r.ranked.size()) : std::min<i64>(5, static_cast<i64>(r.ranked.size()));
  s += "\nranked (" + std::to_string(r.ranked.size()) + (all ? "" : ", best " + std::to_string(shown) + "; --all lists every one") + "):\n";
  for (i64 i = 0; i < shown; ++i) text_member(s, r, r.ranked[at(i)], i);
  if (all) {
    s += "rejected, not vector-legal (" + std::to_string(r.rejected.size()) + "):\n";
    for (const auto& c : r.rejected)
      s += "  " + candidate_text(c.c) + ": copy " + std::to_string(c.illegal_copy) + ": " + c.illegal_why + "\n";
  }
  return s + "time: search " + num(r.search_ms) + " ms, proofs " + num(r.proof_ms) + " ms\n";
}

namespace {

std::string score_json(const KernelSynthResult& r, const KernelCandidate& c) {
  std::string s = "[";
  for (std::size_t i = 0; i < c.copies.size(); ++i) {
    const CopyScore& k = c.copies[i];
    s += (i ? "," : "") + std::string("{\"copy\":") + std::to_string(i) + ",\"width_bytes\":" + std::to_string(k.width_bytes) +
         ",\"wavefronts\":" + std::to_string(k.wavefronts) + ",\"ideal\":" + std::to_string(k.ideal) + ",\"ratio\":" +
         num(double(k.wavefronts) / k.ideal, 3) + ",\"worst_instruction\":" + std::to_string(k.worst) + ",\"conflicted\":" +
         std::to_string(k.conflicted) + ",\"instructions\":" + std::to_string(r.copies[i].instructions) +
         ",\"total_wavefronts\":" + std::to_string(k.total_wavefronts) + ",\"total_ideal\":" + std::to_string(k.total_ideal) + "}";
  }
  return s + "]";
}

// A ranked member with its scores, or a rejected one with the copy it breaks.
std::string member_json(const KernelSynthRequest& q, const KernelSynthResult& r, const KernelCandidate& c) {
  std::string s = "{\"member\":" + js(candidate_text(c.c)) + ",\"index\":" + std::to_string(c.index) +
                  ",\"smem\":" + js(candidate_cpp(c.c, q.shape, q.name)) + ",\"smem_bytes\":" + std::to_string(c.smem_bytes);
  if (c.illegal_copy >= 0)
    return s + ",\"vector_legal\":false,\"copy\":" + std::to_string(c.illegal_copy) + ",\"why\":" + js(c.illegal_why) + "}";
  return s + ",\"wavefronts\":" + std::to_string(c.wavefronts) + ",\"ideal\":" + std::to_string(c.ideal) + ",\"ratio\":" +
         num(c.ratio(), 3) + ",\"conflict_free\":" + b(c.conflict_free()) + ",\"copies\":" + score_json(r, c) + "}";
}

// The copies on the best member (without one: the copies alone).
std::string per_copy_json(const KernelSynthRequest& q, const KernelSynthResult& r) {
  std::string s = "[";
  for (std::size_t i = 0; i < r.copies.size(); ++i) {
    const KernelCopyInfo& c = r.copies[i];
    s += (i ? "," : "") + std::string("{\"copy\":") + js(c.text) + ",\"side\":\"" + side_text(q.copies[i].side) +
         "\",\"op\":\"" + to_string(c.op) + "\",\"covers\":" + b(c.covers.is_proved());
    if (r.ranked.empty()) {
      s += ",\"instructions\":" + std::to_string(c.instructions) + "}";
      continue;
    }
    const CopyScore& k = r.ranked.front().copies[i];
    s += ",\"width_bytes\":" + std::to_string(k.width_bytes) + ",\"instructions\":" +
         std::to_string(c.instructions) + ",\"worst_instruction\":" + std::to_string(k.worst) + ",\"wavefronts\":" +
         std::to_string(k.wavefronts) + ",\"ideal\":" + std::to_string(k.ideal) + ",\"ratio\":" +
         num(double(k.wavefronts) / k.ideal, 3) + ",\"conflict_free\":" + b(k.conflict_free()) + ",\"vector_legal\":" +
         b(k.vector_legal) + "}";
  }
  return s + "]";
}

std::string list_json(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + js(v[i]);
  return s + "]";
}

// Each proof as the one verdict JSON (claim_json), its keys in the order this view has always
// given them: claim, copy, member, verdict, method, detail, time_ms (to 0.1 ms), witness (a
// replayed conflict's instruction and bank, when the claim has one).
std::string proofs_json(const KernelSynthResult& r) {
  using json = nlohmann::ordered_json;
  json items = json::array();
  for (const KernelProof& p : r.proofs) {
    Verdict v = p.verdict;
    v.time_ms = std::stod(num(v.time_ms));
    v.largest_v = 0;
    json witness = nullptr;
    if (p.witness)
      witness = {{"instruction", p.witness->instruction}, {"warp", p.witness->warp}, {"phase", p.witness->phase}, {"bank", p.witness->bank},
                 {"wavefronts", p.witness->wavefronts}, {"ideal", p.witness->ideal}, {"why", p.witness->why}};
    const json one = claim_json(p.claim, v, std::move(witness));
    json item, time;
    for (const auto& [key, value] : one.items()) {
      if (key == "time_ms") {
        time = value;
        continue;
      }
      if (key == "witness") continue;
      item[key] = value;
      if (key == "claim") item["copy"] = p.copy, item["member"] = p.member;
    }
    item["time_ms"] = time;
    if (!one["witness"].is_null()) item["witness"] = one["witness"];
    items.push_back(std::move(item));
  }
  return items.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The family's answer without a winner, "none exists" (PROVED) or undecided (UNKNOWN: the deadline,
// or a placement off the 128-byte grid), as the one verdict JSON: {"verdict", "statement", "method"}.
std::string none_json(const KernelSynthResult& r) {
  using json = nlohmann::ordered_json;
  const std::string statement = kernel_none_statement(r), method = none_method(r);
  const Verdict v = r.placement_undecided || r.deadline_cut ? Verdict::unknown(method, statement) : Verdict::proved(method, statement);
  const json one = claim_json("", v, nullptr);
  json j;
  j["verdict"] = one["verdict"];
  j["statement"] = one["detail"];
  j["method"] = one["method"];
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string kernel_synth_json(const KernelSynthRequest& rq, const KernelSynthResult& r, bool all) {
  const bool best = !r.ranked.empty();
  const auto or_null = [&](const std::string& v) { return best ? v : std::string("null"); };
  std::string s = "{\"found\":" + b(r.found) + ",\"all_proved\":" + b(r.all_proved()) + ",\"shape\":" + js(shape_text(rq.shape)) +
                  ",\"element\":" + js(rq.element) + ",\"smem\":" + or_null(js(r.cpp)) + ",\"notation\":" +
                  or_null(js(r.notation)) + ",\"cutlass_atoms\":" + list_json(r.cutlass_atoms) + ",\"member\":" + or_null(best ? js(candidate_text(r.ranked.front().c)) : "") +
                  ",\"smem_bytes\":" + or_null(best ? std::to_string(r.ranked.front().smem_bytes) : "") +
                  ",\"per_copy\":" + per_copy_json(rq, r) +
                  ",\"candidates\":" + std::to_string(r.family_size) + ",\"duplicates\":" + std::to_string(r.duplicates) +
                  ",\"rejected_not_vector_legal\":" + std::to_string(r.rejected.size()) + ",\"evaluated\":" +
                  std::to_string(r.ranked.size()) + ",\"conflict_free_members\":" + std::to_string(conflict_free_members(r)) + ",\"best_ratio\":" + or_null(best ? num(double(r.best_wavefronts) / r.best_ideal, 3) : "") +
                  ",\"best_wavefronts\":" + std::to_string(r.best_wavefronts) + ",\"best_ideal\":" + std::to_string(r.best_ideal);
  if (!r.found) s += ",\"none\":" + none_json(r);
  if (!r.placement_text.empty())
    s += ",\"placement\":{\"where\":" + js(r.placement_text) + ",\"refuted_members\":" + std::to_string(r.placement_failures.size()) + "}";
  s += ",\"proofs\":" + proofs_json(r) + ",\"ranked\":[";
  const std::size_t shown = all ? r.ranked.size() : std::min<std::size_t>(5, r.ranked.size());
  for (std::size_t i = 0; i < shown; ++i) s += (i ? "," : "") + member_json(rq, r, r.ranked[i]);
  s += "]";
  if (all) {
    s += ",\"rejected\":[";
    for (std::size_t i = 0; i < r.rejected.size(); ++i) s += (i ? "," : "") + member_json(rq, r, r.rejected[i]);
    s += "]";
  }
  return s + ",\"time_ms\":" + num(r.search_ms + r.proof_ms) + ",\"search_ms\":" + num(r.search_ms) + ",\"proof_ms\":" +
         num(r.proof_ms) + "}\n";
}

}  // namespace layoutproof::cli
