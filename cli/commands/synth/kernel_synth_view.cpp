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

using json = nlohmann::ordered_json;

// A figure as the text prints it: to `digits` decimals.
double rounded(double v, int digits) { return std::stod(num(v, digits)); }

json score_json(const KernelSynthResult& r, const KernelCandidate& c) {
  json s = json::array();
  for (std::size_t i = 0; i < c.copies.size(); ++i) {
    const CopyScore& k = c.copies[i];
    s.push_back({{"copy", i}, {"width_bytes", k.width_bytes}, {"wavefronts", k.wavefronts}, {"ideal", k.ideal},
                 {"ratio", rounded(double(k.wavefronts) / k.ideal, 3)}, {"worst_instruction", k.worst}, {"conflicted", k.conflicted},
                 {"instructions", r.copies[i].instructions}, {"total_wavefronts", k.total_wavefronts}, {"total_ideal", k.total_ideal}});
  }
  return s;
}

// A ranked member with its scores, or a rejected one with the copy it breaks.
json member_json(const KernelSynthRequest& q, const KernelSynthResult& r, const KernelCandidate& c) {
  json s = {{"member", candidate_text(c.c)}, {"index", c.index}, {"smem", candidate_cpp(c.c, q.shape, q.name)}, {"smem_bytes", c.smem_bytes}};
  if (c.illegal_copy >= 0) {
    s["vector_legal"] = false, s["copy"] = c.illegal_copy, s["why"] = c.illegal_why;
    return s;
  }
  s["wavefronts"] = c.wavefronts, s["ideal"] = c.ideal, s["ratio"] = rounded(c.ratio(), 3), s["conflict_free"] = c.conflict_free();
  s["copies"] = score_json(r, c);
  return s;
}

// The copies on the best member (without one: the copies alone).
json per_copy_json(const KernelSynthRequest& q, const KernelSynthResult& r) {
  json s = json::array();
  for (std::size_t i = 0; i < r.copies.size(); ++i) {
    const KernelCopyInfo& c = r.copies[i];
    json one = {{"copy", c.text}, {"side", side_text(q.copies[i].side)}, {"op", to_string(c.op)}, {"covers", c.covers.is_proved()}};
    if (r.ranked.empty()) {
      one["instructions"] = c.instructions;
    } else {
      const CopyScore& k = r.ranked.front().copies[i];
      one["width_bytes"] = k.width_bytes, one["instructions"] = c.instructions, one["worst_instruction"] = k.worst;
      one["wavefronts"] = k.wavefronts, one["ideal"] = k.ideal, one["ratio"] = rounded(double(k.wavefronts) / k.ideal, 3);
      one["conflict_free"] = k.conflict_free(), one["vector_legal"] = k.vector_legal;
    }
    s.push_back(std::move(one));
  }
  return s;
}

// Each proof as the one verdict JSON (claim_json), its keys in the order this view has always
// given them: claim, copy, member, verdict, method, detail, time_ms (to 0.1 ms), witness (a
// replayed conflict's instruction and bank, when the claim has one).
json proofs_json(const KernelSynthResult& r) {
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
  return items;
}

// The family's answer without a winner, "none exists" (PROVED) or undecided (UNKNOWN: the deadline,
// or a placement off the 128-byte grid), as the one verdict JSON: {"verdict", "statement", "method"}.
json none_json(const KernelSynthResult& r) {
  const std::string statement = kernel_none_statement(r), method = none_method(r);
  const Verdict v = r.placement_undecided || r.deadline_cut ? Verdict::unknown(method, statement) : Verdict::proved(method, statement);
  const json one = claim_json("", v, nullptr);
  json j;
  j["verdict"] = one["verdict"];
  j["statement"] = one["detail"];
  j["method"] = one["method"];
  return j;
}

}  // namespace

nlohmann::ordered_json kernel_synth_json(const KernelSynthRequest& rq, const KernelSynthResult& r, bool all) {
  const bool best = !r.ranked.empty();
  const auto or_null = [&](const json& v) { return best ? v : json(nullptr); };
  json s = {{"found", r.found},
            {"all_proved", r.all_proved()},
            {"shape", shape_text(rq.shape)},
            {"element", rq.element},
            {"smem", or_null(r.cpp)},
            {"notation", or_null(r.notation)},
            {"cutlass_atoms", r.cutlass_atoms},
            {"member", best ? json(candidate_text(r.ranked.front().c)) : json(nullptr)},
            {"smem_bytes", best ? json(r.ranked.front().smem_bytes) : json(nullptr)},
            {"per_copy", per_copy_json(rq, r)},
            {"candidates", r.family_size},
            {"duplicates", r.duplicates},
            {"rejected_not_vector_legal", r.rejected.size()},
            {"evaluated", r.ranked.size()},
            {"conflict_free_members", conflict_free_members(r)},
            {"best_ratio", best ? json(rounded(double(r.best_wavefronts) / r.best_ideal, 3)) : json(nullptr)},
            {"best_wavefronts", r.best_wavefronts},
            {"best_ideal", r.best_ideal}};
  if (!r.found) s["none"] = none_json(r);
  if (!r.placement_text.empty()) s["placement"] = {{"where", r.placement_text}, {"refuted_members", r.placement_failures.size()}};
  s["proofs"] = proofs_json(r);
  json ranked = json::array();
  const std::size_t shown = all ? r.ranked.size() : std::min<std::size_t>(5, r.ranked.size());
  for (std::size_t i = 0; i < shown; ++i) ranked.push_back(member_json(rq, r, r.ranked[i]));
  s["ranked"] = std::move(ranked);
  if (all) {
    json rejected = json::array();
    for (const auto& c : r.rejected) rejected.push_back(member_json(rq, r, c));
    s["rejected"] = std::move(rejected);
  }
  s["time_ms"] = rounded(r.search_ms + r.proof_ms, 1), s["search_ms"] = rounded(r.search_ms, 1), s["proof_ms"] = rounded(r.proof_ms, 1);
  return s;
}

}  // namespace layoutproof::cli
