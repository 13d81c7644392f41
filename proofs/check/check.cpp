// The check and its result (proofs/check/check.hpp).
#include "proofs/check/check.hpp"

#include "model/support/overload.hpp"

namespace layoutproof::proofs {
CheckKind Check::kind() const {
  return std::visit(Overload{[](const LayoutSubject&) { return CheckKind::layout; },
                             [](const AccessSubject&) { return CheckKind::bank; },
                             [](const TmaSubject&) { return CheckKind::tma; },
                             [](const TensorMapSubject&) { return CheckKind::tma; },
                             [](const CopySubject&) { return CheckKind::kernel; },
                             [](const SynthSubject&) { return CheckKind::kernel; },
                             [](const CompiledSubject&) { return CheckKind::compiled; },
                             [](const InstructionSubject&) { return CheckKind::compiled; },
                             [](const SchedulerSubject&) { return CheckKind::scheduler; },
                             [](const RasterizationSubject&) { return CheckKind::raster; },
                             [](const RecordedSubject& r) { return r.kind; }},
                    subject);
}

const std::string& access_text(const Check& c) {
  return std::visit([](const auto& s) -> const std::string& { return s.text; }, c.subject);
}

std::string& access_text(Check& c) {
  return std::visit([](auto& s) -> std::string& { return s.text; }, c.subject);
}

const AnyLayout* layout_of(const Check& c) {
  if (const auto* s = std::get_if<LayoutSubject>(&c.subject)) return &s->layout;
  if (const auto* s = std::get_if<AccessSubject>(&c.subject)) return &s->layout;
  if (const auto* s = std::get_if<TmaSubject>(&c.subject)) return &s->layout;
  if (const auto* s = std::get_if<RecordedSubject>(&c.subject)) return s->layout ? &*s->layout : nullptr;
  return nullptr;
}

const CompiledSite* site_of(const Check& c) {
  const auto* s = std::get_if<InstructionSubject>(&c.subject);
  return s ? &s->site : nullptr;
}

const SourceLocation* inlined_of(const Check& c) {
  const auto* s = std::get_if<InstructionSubject>(&c.subject);
  return s && !s->inlined.file.empty() ? &s->inlined : nullptr;
}

std::string Check::id() const {
  const std::string& access = access_text(*this);
  return name + ": " + claim.text + (access.empty() ? "" : " [" + access + "]");
}

bool is_report(const Check& c) {
  const auto* s = std::get_if<SchedulerClaim>(&c.claim.form);
  return c.kind() == CheckKind::scheduler && s && *s == SchedulerClaim::balance;
}

std::string verdict_label(const CheckResult& r) {
  return is_report(r.check) && r.verdict.is_proved() ? "REPORT" : to_string(r.verdict.kind);
}

Check make_check(std::string name, AnyLayout layout, const std::string& claim, std::optional<BankSubject> access,
                 SourceLocation where, int element_bits) {
  Check c;
  c.name = std::move(name);
  c.claim.text = claim;
  c.origin.where = std::move(where);
  if (const auto t = parse_tma_claim(claim)) {  // validates it too
    validate_tma_domain(layout, *t, claim);
    c.claim.form = *t;
    c.subject = TmaSubject{std::move(layout), element_bits, ""};
  } else if (is_bank_claim(claim)) {
    if (!access) throw LayoutError("claim '" + claim + "' needs an access (pattern, element size, vector width)");
    c.claim.form = *parse_bank_claim(claim);
    std::string text = to_string(access->spec.pattern) + " " + to_string(access->op) + " " + std::to_string(access->width_bytes) + " B";
    c.subject = AccessSubject{std::move(layout), std::move(*access), std::move(text)};
  } else {
    c.claim.form = parse_claim(claim);  // validated now
    c.subject = LayoutSubject{std::move(layout), false, ""};
  }
  return c;
}

Check make_kernel_check(std::string name, std::shared_ptr<const AddressTrace> trace, const std::string& claim,
                        std::string access_text, SourceLocation where) {
  const std::optional<TraceClaim> t = parse_trace_claim(claim);
  if (!t) throw LayoutError("'" + claim + "' is not a claim over a kernel copy (conflict-free, max-ways:K, vector-legal, covers)");
  Check c;
  c.name = std::move(name);
  c.subject = CopySubject{std::move(trace), std::move(access_text)};
  c.claim = {claim, *t};
  c.origin.where = std::move(where);
  return c;
}

}  // namespace layoutproof::proofs
