// Operand types in PTX (ptx_types.hpp): what each operand of a modelled instruction must be, and
// the first one that is not.
#include "model/compiled/ptx_types.hpp"

#include <iterator>

namespace layoutproof::compiled {
namespace {

using OK = Operand::Kind;

// What one operand must be.
struct Want {
  enum class K { skip, value, pred, word32, address } k = K::skip;
  Type t;                // value: the instruction's type for it
  bool wider = false;    // value: a wider register is allowed (ld/st/cvt data, atom/red values)
  bool dst = false;      // a destination: an immediate is refused
};

constexpr Type kU32{TypeKind::u, 32};
constexpr Type kB32{TypeKind::b, 32};

Want value(Type t, bool wider = false) { return {Want::K::value, t, wider, false}; }
Want pred() { return {Want::K::pred, {}, false, false}; }
Want dst(Want w) {
  w.dst = true;
  return w;
}

Type doubled(Type t) { return Type{t.kind, static_cast<u8>(t.bits * 2)}; }

// Operand k of n (top level) of `in`.
Want want(const Instr& in, std::size_t k, std::size_t n) {
  const Opcode& c = in.code;
  const Type t = c.type;
  switch (c.op) {
    case Op::mov: case Op::add: case Op::sub: case Op::min: case Op::max: case Op::and_: case Op::or_: case Op::xor_:
    case Op::not_: case Op::cnot: case Op::neg: case Op::abs: case Op::rem: case Op::div: case Op::brev: case Op::prmt:
    case Op::lop3: case Op::mul24: case Op::mad24:
      return k == 0 ? dst(value(t)) : value(t);
    case Op::mul: case Op::mad:
      if (k == 0) return dst(value(c.wide ? doubled(t) : t));
      return value(c.op == Op::mad && k == 3 && c.wide ? doubled(t) : t);
    case Op::clz: case Op::popc: case Op::bfind: return k == 0 ? dst(value(kU32)) : value(t);
    case Op::shl: case Op::shr: return k == 0 ? dst(value(t)) : value(k == 2 ? kU32 : t);
    case Op::shf: return k == 0 ? dst(value(t)) : value(k == 3 ? kU32 : t);
    case Op::bfe: return k == 0 ? dst(value(t)) : value(k >= 2 ? kU32 : t);
    case Op::bfi: return k == 0 ? dst(value(t)) : value(k >= 3 ? kU32 : t);
    case Op::setp: {
      const std::size_t outs = in.dual ? 2 : 1;
      if (k < outs) return dst(pred());
      return k < outs + 2 ? value(t) : pred();
    }
    case Op::selp: return k == 0 ? dst(value(t)) : k == 3 ? pred() : value(t);
    case Op::rcp: return k == 0 ? dst(value(t)) : value(t);
    case Op::cvt:
      if (n != 2) return {};  // cvt.pack and other multi-source forms: not checked
      return k == 0 ? dst(value(t, true)) : value(c.src, true);
    case Op::cvta: return k == 0 ? dst(Want{Want::K::address, {}, false, false}) : Want{Want::K::address, {}, false, false};
    case Op::ld: return k == 0 ? dst(value(t, true)) : Want{};
    case Op::st: return k == 1 ? value(t, true) : Want{};
    case Op::atom: return k == 0 ? dst(value(t, true)) : value(t, true);
    case Op::red: return value(t, true);
    case Op::ldmatrix: return k == 0 ? dst(Want{Want::K::word32, {}, false, false}) : Want{};
    case Op::stmatrix: return k == 1 ? Want{Want::K::word32, {}, false, false} : Want{};
    case Op::shfl: {
      const std::size_t outs = in.dual ? 2 : 1;
      if (k == 0) return dst(value(kB32));
      if (k < outs) return dst(pred());
      return value(k == outs ? kB32 : kU32);
    }
    case Op::vote:
      if (k == 0) return dst(c.vote == VoteMode::ballot ? value(kB32) : pred());
      return k == 1 ? pred() : value(kU32);
    case Op::activemask: return dst(value(kB32));
    case Op::match: {  // match.any d, a, mask; match.all d|p, a, mask
      const std::size_t outs = in.dual ? 2 : 1;
      if (k == 0) return dst(value(kB32));
      if (k < outs) return dst(pred());
      return value(k == outs ? t : kU32);
    }
    case Op::elect:  // elect.sync d|p, membermask
      if (k == 0) return dst(value(kB32));
      return k == 1 ? dst(pred()) : value(kU32);
    case Op::mbarrier_wait: return k == 0 ? dst(pred()) : Want{};
    default: return {};  // control, nop, and instructions the model does not execute
  }
}

bool integer(TypeKind k) { return k == TypeKind::b || k == TypeKind::u || k == TypeKind::s; }

// Whether a register of type r is what w asks for.
bool fits(Type r, const Want& w) {
  if (r.kind == TypeKind::none) return true;  // declared with a form this reader does not type (a vector register)
  switch (w.k) {
    case Want::K::skip: return true;
    case Want::K::pred: return r.kind == TypeKind::pred;
    case Want::K::word32: return r.kind != TypeKind::pred && r.bits == 32;
    case Want::K::address: return integer(r.kind) && (r.bits == 32 || r.bits == 64);
    case Want::K::value: break;
  }
  const Type t = w.t;
  if (t.kind == TypeKind::none) return true;
  if (t.kind == TypeKind::pred || r.kind == TypeKind::pred) return t.kind == r.kind;
  const bool kinds = r.kind == TypeKind::b || t.kind == TypeKind::b || (integer(r.kind) && integer(t.kind)) ||
                     (r.kind == TypeKind::f && t.kind == TypeKind::f);
  if (!kinds) return false;
  if (r.bits == t.bits) return true;
  return w.wider && r.bits > t.bits && (t.kind != TypeKind::f || r.kind == TypeKind::b);
}

std::string wanted(const Want& w) {
  switch (w.k) {
    case Want::K::pred: return "a predicate (.pred)";
    case Want::K::word32: return "a 32-bit register";
    case Want::K::address: return "a 32- or 64-bit integer register (an address)";
    default: return "a " + type_name(w.t) + " operand" + (w.wider ? " (or a wider register)" : "");
  }
}

// The type of a register or special-register operand (kind none: not checked).
Type type_of(const Operand& o, const std::vector<Type>& reg_types) {
  if (o.kind == OK::reg) return o.index < reg_types.size() ? reg_types[o.index] : Type{};
  if (o.kind == OK::special && o.special != Special::other) return kU32;  // %tid.x, %laneid, ...: .u32
  return Type{};
}

std::string name_of(const Operand& o, const Function& f) {
  if (o.kind == OK::reg) return f.register_name(o.index);
  static const char* const specials[] = {"%tid.x",     "%tid.y",      "%tid.z",      "%ntid.x",       "%ntid.y",
                                         "%ntid.z",    "%ctaid.x",    "%ctaid.y",    "%ctaid.z",      "%nctaid.x",
                                         "%nctaid.y",  "%nctaid.z",   "%laneid",     "%warpid",       "%lanemask_eq",
                                         "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge", "%cluster_ctaid.x",
                                         "%cluster_ctaid.y", "%cluster_ctaid.z", "%cluster_nctaid.x", "%cluster_nctaid.y",
                                         "%cluster_nctaid.z", "%cluster_ctarank", "%cluster_nctarank", "a special register"};
  static_assert(std::size(specials) == static_cast<std::size_t>(Special::other) + 1, "one name per special register");
  return specials[static_cast<std::size_t>(o.special)];
}

}  // namespace

std::string type_name(Type t) {
  switch (t.kind) {
    case TypeKind::none: return "untyped";
    case TypeKind::pred: return ".pred";
    case TypeKind::b: return ".b" + std::to_string(t.bits);
    case TypeKind::u: return ".u" + std::to_string(t.bits);
    case TypeKind::s: return ".s" + std::to_string(t.bits);
    case TypeKind::f: return ".f" + std::to_string(t.bits);
  }
  return "untyped";
}

std::optional<OperandTypeError> check_operand_types(const Instr& in, std::string_view mnemonic, const std::vector<Operand>& top,
                                                    const std::vector<Operand>& nested, const std::vector<Type>& reg_types,
                                                    const Function& f) {
  const std::string mn(mnemonic);
  // One scalar operand (a vector's element or a top-level operand) against what it must be.
  const auto scalar = [&](const Operand& o, const Want& w) -> std::optional<OperandTypeError> {
    const Type r = type_of(o, reg_types);
    if (o.neg && o.kind == OK::reg && r.kind != TypeKind::pred && r.kind != TypeKind::none)
      return OperandTypeError{o.pos, "'!' negates a predicate; '" + name_of(o, f) + "' is a " + type_name(r) + " register"};
    if (w.dst && o.kind == OK::imm) return OperandTypeError{o.pos, "a destination of " + mn + " must be a register, not a constant"};
    if (w.k == Want::K::skip || (o.kind != OK::reg && o.kind != OK::special) || fits(r, w)) return std::nullopt;
    return OperandTypeError{o.pos, "'" + name_of(o, f) + "' is a " + type_name(r) + " register, where " + mn + " takes " + wanted(w)};
  };
  for (std::size_t k = 0; k < top.size(); ++k) {
    const Operand& o = top[k];
    if (o.kind == OK::addr) {
      const Operand& base = nested[o.index];
      const Type r = type_of(base, reg_types);
      if (base.kind == OK::reg && !fits(r, Want{Want::K::address, {}, false, false}))
        return OperandTypeError{base.pos, "'" + name_of(base, f) + "' is a " + type_name(r) +
                                              " register: an address needs a 32- or 64-bit integer register (.u32, .s32, .b32, .u64, .s64, .b64)"};
      continue;
    }
    const Want w = want(in, k, top.size());
    if (o.kind == OK::vec) {
      if (in.code.op == Op::mov) continue;  // pack and unpack: the parts are narrower than the type
      for (u32 e = 0; e < o.count; ++e)
        if (auto bad = scalar(nested[o.index + e], w)) return bad;
      continue;
    }
    if (auto bad = scalar(o, w)) return bad;
  }
  return std::nullopt;
}

}  // namespace layoutproof::compiled
