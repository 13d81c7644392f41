#include "proofs/check.hpp"

#include <chrono>

#include "model/notation.hpp"

namespace layoutproof::proofs {
namespace {

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

Swizzle parse_tma_swizzle(const std::string& claim) {
  return parse_swizzle(claim.substr(claim.find(':') + 1));
}

// tma:Sw — forall x: bits(L(x)) == tma_bits(inner(x)), by enumeration, in bit addresses
// (bits(o) = o * element_bits): TMA moves whole bytes, so an element keeps its bit position
// inside its byte. Comparing truncated byte addresses instead would let a sub-byte layout that
// permutes the elements inside one byte (e.g. Sw<1,0,1> on 4-bit elements) pass as TMA's.
Verdict check_tma(const Check& c) {
  if (c.element_bits <= 0) return Verdict::error("tma", "tma claims need the element width");
  const Swizzle tma = parse_tma_swizzle(c.claim);
  const auto floor_div8 = [](i64 b) { return b >= 0 ? b / 8 : -((-b + 7) / 8); };
  const auto bits = [&](i64 o) { return checked_mul(o, c.element_bits); };
  const auto bytes = [&](i64 o) { return floor_div8(bits(o)); };
  const auto tma_bits = [&](i64 inner) {  // the bit address TMA gives the element at `inner`
    const i64 b = bits(inner), byte = floor_div8(b);
    return checked_add(checked_mul(tma.apply(byte), 8), b - byte * 8);
  };
  const AnyLayout& l = c.layout;
  Verdict v = Verdict::proved("exhaustive check of " + std::to_string(size(l.layout)) + " indices",
                              "bytes(L(x)) == " + to_string(tma) + "(bytes(inner(x))) for every x: the element-unit "
                              "layout is TMA's byte-address swizzle (buffer aligned to " +
                                  std::to_string(i64{1} << tma.span_bits()) + " bytes)");
  for_each_offset(l.layout, [&](i64 x, i64 inner) {
    const i64 elem = l.swizzle ? l.swizzle->apply(checked_add(l.offset, inner)) : inner;
    const i64 want = tma.apply(bytes(inner));
    if (bits(elem) == tma_bits(inner)) return true;
    Witness w;
    w.points.push_back({"x", x, to_string(idx2crd(IntTuple(x), l.layout.shape)), elem});
    w.points.push_back({"TMA byte offset", -1, "", want});
    w.why = "element offset " + std::to_string(elem) + " is byte " + std::to_string(bytes(elem)) + ", but " + to_string(tma) +
            " puts byte " + std::to_string(bytes(inner)) + " at " + std::to_string(want);
    if (c.element_bits % 8 != 0)
      w.why += " (bit " + std::to_string(bits(elem)) + " instead of bit " + std::to_string(tma_bits(inner)) +
               ": a sub-byte element moved inside its byte)";
    v = Verdict::refuted(v.method, w);
    return false;
  });
  return v;
}

}  // namespace

std::string Check::id() const {
  return subject + ": " + claim + (access_text.empty() ? "" : " [" + access_text + "]");
}

Check make_check(std::string subject, AnyLayout layout, const std::string& claim, std::optional<BankSubject> access,
                 SourceLocation where) {
  Check c;
  c.subject = std::move(subject);
  c.layout = std::move(layout);
  c.claim = claim;
  c.where = std::move(where);
  if (claim.rfind("tma:", 0) == 0) {
    c.kind = Check::Kind::tma;
    (void)parse_tma_swizzle(claim);  // validate now
  } else if (is_bank_claim(claim)) {
    if (!access) throw LayoutError("claim '" + claim + "' needs an access (pattern, element size, vector width)");
    c.kind = Check::Kind::bank;
    (void)parse_bank_claim(claim);
    c.access = std::move(access);
    c.access_text = to_string(c.access->spec.pattern) + " " + to_string(c.access->op) + " " +
                    std::to_string(c.access->width_bytes) + " B";
  } else {
    c.kind = Check::Kind::layout;
    (void)parse_claim(claim);  // validate now
  }
  return c;
}

Check make_kernel_check(std::string subject, std::shared_ptr<const AddressTrace> trace, const std::string& claim,
                        std::string access_text, SourceLocation where) {
  if (!parse_trace_claim(claim)) throw LayoutError("'" + claim + "' is not a claim over a kernel copy (conflict-free, max-ways:K, vector-legal, covers)");
  Check c;
  c.kind = Check::Kind::kernel;
  c.subject = std::move(subject);
  c.claim = claim;
  c.trace = std::move(trace);
  c.access_text = std::move(access_text);
  c.element_bits = c.trace->element_bytes * 8;
  c.where = std::move(where);
  return c;
}

CheckResult run_check(const Check& c, const ProveOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  CheckResult r{c, Verdict::error("", "not run"), std::nullopt, std::nullopt};
  try {
    switch (c.kind) {
      case Check::Kind::layout:
        r.verdict = prove(Subject{c.layout, false}, parse_claim(c.claim), o);
        break;
      case Check::Kind::bank: {
        BankResult b = prove_bank(*c.access, *parse_bank_claim(c.claim), o);
        r.verdict = std::move(b.verdict);
        r.bank_witness = std::move(b.witness);
        break;
      }
      case Check::Kind::tma:
        r.verdict = check_tma(c);
        break;
      case Check::Kind::kernel: {
        TraceResult t = prove_trace(*c.trace, *parse_trace_claim(c.claim), o);
        r.verdict = std::move(t.verdict);
        if (t.witness && r.verdict.witness.why.empty()) r.verdict.witness.why = t.witness->why;
        r.trace_witness = std::move(t.witness);
        break;
      }
    }
  } catch (const std::exception& e) {
    r.verdict = Verdict::error("", e.what());
  }
  if (r.verdict.time_ms == 0) r.verdict.time_ms = elapsed_ms(t0);
  return r;
}

int exit_code(const std::vector<CheckResult>& results) {
  bool refuted = false, unsure = false;
  for (const auto& r : results) {
    refuted |= r.verdict.kind == Verdict::Kind::refuted;
    unsure |= r.verdict.kind == Verdict::Kind::unknown || r.verdict.kind == Verdict::Kind::error;
  }
  return refuted ? 1 : unsure ? 3 : 0;
}

}  // namespace layoutproof::proofs
