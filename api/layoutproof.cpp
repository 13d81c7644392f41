// The facade of include/layoutproof/layoutproof.hpp: converts between the API's plain values and
// model/ + proofs/ types and calls the functions the CLI calls (cli/commands/prove_command.cpp,
// cli/commands/trace_command.cpp); it decides nothing itself.
#include "layoutproof/layoutproof.hpp"  // first: it stands alone

#include <cstdio>
#include <exception>
#include <optional>
#include <sstream>

#include "model/source/cpp_source.hpp"
#include "model/atoms/cute_atoms.hpp"
#include "model/source/kernel_expr.hpp"
#include "model/layout/notation.hpp"
#include "proofs/claims/prove.hpp"
#include "proofs/claims/trace_claims.hpp"

#ifndef LAYOUTPROOF_VERSION
#error "LAYOUTPROOF_VERSION comes from project(layoutproof VERSION ...) (api/CMakeLists.txt)"
#endif

namespace layoutproof::api {

namespace detail {
struct LayoutImpl {
  proofs::Subject subject;
};
struct TraceImpl {
  AddressTrace trace;
};
// The one friend of Layout and Trace: builds them and reads their model/ values.
struct Access {
  static Layout make(proofs::Subject s) {
    Layout l;
    l.impl_ = std::make_shared<const LayoutImpl>(LayoutImpl{std::move(s)});
    return l;
  }
  static Trace make(AddressTrace t) {
    Trace r;
    r.impl_ = std::make_shared<const TraceImpl>(TraceImpl{std::move(t)});
    return r;
  }
  static const proofs::Subject& subject(const Layout& l) { return l.impl_->subject; }
  static const AddressTrace& trace(const Trace& t) { return t.impl_->trace; }
};
}  // namespace detail

namespace {

using detail::Access;

// Exceptions of the input path (ParseError with its column and caret, LayoutError, overflow) as
// an Error value; the CLI's main() prints the same message and caret.
Error error_of(const std::exception& e) {
  Error r;
  r.message = e.what();
  if (const auto* p = dynamic_cast<const ParseError*>(&e)) {
    r.column = p->column;
    r.input = p->input;
    r.caret_text = p->caret();
  }
  return r;
}

Verdict input_error(std::string claim, std::string subject, const Error& e) {
  Verdict v;
  v.outcome = Outcome::error;
  v.claim = std::move(claim);
  v.subject = std::move(subject);
  v.method = "input";
  v.detail = e.to_string();
  v.bad_input = true;
  return v;
}

proofs::ProveOptions prove_options(const Options& o) {
  proofs::ProveOptions p;
  p.engine = o.engine == Engine::z3           ? proofs::EngineChoice::z3
             : o.engine == Engine::exhaustive ? proofs::EngineChoice::exhaustive
                                              : proofs::EngineChoice::automatic;
  p.smt.timeout_ms = o.timeout_ms;
  p.smt.dump_dir = o.dump_smt_dir;
  return p;
}

// The proofs:: verdict's fields; the witness is filled by the caller (its type depends on the claim).
Verdict from(const proofs::Verdict& v, std::string claim, std::string subject) {
  Verdict r;
  r.outcome = static_cast<Outcome>(static_cast<int>(v.kind));
  r.claim = std::move(claim);
  r.subject = std::move(subject);
  r.method = v.method;
  r.detail = v.detail;
  r.queries = v.queries;
  r.time_ms = v.time_ms;
  r.largest_v = v.largest_v;
  if (v.is_refuted()) {
    r.witness.why = v.witness.why;
    for (const auto& p : v.witness.points) r.witness.points.push_back({p.role, p.index, p.coord, p.offset, p.unit});
  }
  return r;
}

}  // namespace

std::string version() { return LAYOUTPROOF_VERSION; }

const char* to_string(Outcome o) { return proofs::to_string(static_cast<proofs::Verdict::Kind>(static_cast<int>(o))); }

std::string Layout::text() const { return impl_->subject.text(); }
long long Layout::size() const { return proofs::domain_size(impl_->subject); }
bool Layout::is_bare_swizzle() const { return impl_->subject.bare_swizzle; }
long long Layout::offset(long long index) const {
  if (is_bare_swizzle()) throw std::logic_error("layoutproof: offset() of a bare swizzle " + text());
  if (index < 0 || index >= size())
    throw std::out_of_range("layoutproof: index " + std::to_string(index) + " not in [0, " + std::to_string(size()) + ")");
  return evaluate(impl_->subject.layout, IntTuple(index));
}

Result<Layout> parse_layout(std::string_view text, const Constants& constants) {
  try {
    const LayoutOrSwizzle l = parse_layout_or_swizzle(text, constants);
    proofs::Subject s;
    s.layout = l.layout;
    s.bare_swizzle = l.bare_swizzle;
    return Access::make(std::move(s));
  } catch (const std::exception& e) {
    return error_of(e);
  }
}

std::string Witness::text() const {
  std::string s;
  for (const auto& p : points)
    s += (s.empty() ? "" : ", ") + proofs::point_text({p.role, p.index, p.coord, p.offset, p.unit});
  return s.empty() ? why : s + " (" + why + ")";
}

std::string Verdict::to_string() const {
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.1f", time_ms);
  std::string s = std::string(api::to_string(outcome)) + "  " + claim + "  [" + method + ", " + ms + " ms]";
  if (refuted()) s += "  witness: " + witness.text();
  else if (!detail.empty()) s += "  " + detail;
  if (largest_v) s += " (largest V: " + std::to_string(largest_v) + ")";
  return s;
}

std::ostream& operator<<(std::ostream& os, const Verdict& v) { return os << v.to_string(); }

Verdict prove(const Layout& layout, std::string_view claim_text, const Options& options) {
  const std::string text(claim_text);
  proofs::Claim claim;
  try {
    claim = proofs::parse_claim(text, options.constants);
  } catch (const std::exception& e) {
    return input_error(text, layout.text(), error_of(e));
  }
  try {
    return from(proofs::prove(Access::subject(layout), claim, prove_options(options)), text, layout.text());
  } catch (const std::exception& e) {  // proofs::prove promises not to throw; an ERROR if it does
    return from(proofs::Verdict::error("internal", e.what()), text, layout.text());
  }
}

Verdict prove(std::string_view layout_text, std::string_view claim, const Options& options) {
  const Result<Layout> l = parse_layout(layout_text, options.constants);
  if (!l) return input_error(std::string(claim), std::string(layout_text), l.error());
  return prove(*l, claim, options);
}

std::string Trace::provenance() const { return impl_->trace.provenance; }
std::string Trace::op() const { return ::layoutproof::to_string(impl_->trace.op); }
int Trace::width_bytes() const { return impl_->trace.width_bytes; }
long long Trace::threads() const { return impl_->trace.threads; }
std::string Trace::to_json() const { return trace_to_json(impl_->trace); }

std::vector<Instruction> Trace::instructions() const {
  std::vector<Instruction> r;
  r.reserve(impl_->trace.instructions.size());
  for (const TraceInstruction& in : impl_->trace.instructions) {
    Instruction i;
    i.warp = in.warp;
    i.index = in.index;
    i.copy_coord.assign(in.copy_coord.begin(), in.copy_coord.end());
    for (std::size_t l = 0; l < i.addr.size(); ++l) i.addr[l] = in.addr[l];
    i.where = in.where;
    r.push_back(std::move(i));
  }
  return r;
}

// The steps of cli/commands/trace_command.cpp's run_trace: the TiledMMA, the TiledCopy, the element check,
// the smem layout, trace_copy.
Result<Trace> trace(std::string_view smem, std::string_view copy, std::string_view mma, std::string_view element,
                    Side side, const Constants& constants, long long base_address) {
  try {
    const std::optional<int> bits = type_bits(element);
    if (!bits) throw LayoutError("unknown element type '" + std::string(element) + "'");
    std::optional<TiledMma> tiled_mma;
    if (!mma.empty()) tiled_mma = parse_tiled_mma(mma, constants);
    const TiledCopy c = parse_tiled_copy(copy, tiled_mma, constants);
    if (*bits != c.atom.value_bits)
      throw LayoutError("element " + std::string(element) + " has " + std::to_string(*bits) + " bits but the Copy_Atom moves " +
                        std::to_string(c.atom.value_bits) + "-bit " + c.atom.value_type + " values");
    if (base_address < 0) throw LayoutError("base address " + std::to_string(base_address) + " is negative");
    TraceOptions o;
    o.base_address = base_address;
    return Access::make(trace_copy(c, parse_smem_layout(smem, constants), side == Side::S ? CopySide::S : CopySide::D, o));
  } catch (const std::exception& e) {
    return error_of(e);
  }
}

Verdict prove(const Trace& t, std::string_view claim_text, const Options& options) {
  const std::string text(claim_text);
  const AddressTrace& at = Access::trace(t);
  std::optional<proofs::TraceClaim> claim;
  try {
    claim = proofs::parse_trace_claim(text);
    if (!claim) throw LayoutError("unknown trace claim '" + text + "' (conflict-free, max-ways:K, vector-legal, covers)");
  } catch (const std::exception& e) {
    return input_error(text, at.provenance, error_of(e));
  }
  proofs::TraceResult r;
  try {
    r = proofs::prove_trace(at, *claim, prove_options(options));
  } catch (const std::exception& e) {  // prove_trace turns its own failures into ERROR; anything else too
    r.verdict = proofs::Verdict::error("internal", e.what());
  }
  Verdict v = from(r.verdict, text, at.provenance);
  if (r.witness) {
    const proofs::TraceWitness& w = *r.witness;
    v.witness.why = w.why;
    v.witness.instruction = w.instruction;
    v.witness.warp = w.warp;
    v.witness.phase = w.phase;
    v.witness.bank = w.bank;
    v.witness.ways = w.ways;
    v.witness.wavefronts = w.wavefronts;
    v.witness.ideal = w.ideal;
    v.witness.lanes = w.lanes;
  }
  return v;
}

}  // namespace layoutproof::api
