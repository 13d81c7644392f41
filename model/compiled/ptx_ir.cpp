// The PTX IR's own spelling (model/compiled/ptx_ir.hpp): opcodes and their modifiers, types, special
// registers, and the text of an instruction for messages.
#include "model/compiled/ptx_ir.hpp"

#include <cctype>

namespace layoutproof::compiled {
namespace {

bool parse_type(std::string_view m, Type& t) {
  if (m == "pred") {
    t = {TypeKind::pred, 1};
    return true;
  }
  // The narrow floating-point formats first: "bf16" and "bf16x2" begin with 'b' but are no .bN.
  if (m == "bf16" || m == "tf32" || m == "e4m3" || m == "e5m2") {
    t = {TypeKind::f, static_cast<u8>(m == "tf32" ? 32 : m == "bf16" ? 16 : 8)};
    return true;
  }
  if (m == "bf16x2") {
    t = {TypeKind::f, 32};
    return true;
  }
  if (m.size() < 2) return false;
  TypeKind k;
  switch (m[0]) {
    case 'b': k = TypeKind::b; break;
    case 'u': k = TypeKind::u; break;
    case 's': k = TypeKind::s; break;
    case 'f': k = TypeKind::f; break;
    default: return false;
  }
  const std::string_view n = m.substr(1);
  int bits = 0;
  if (n == "8") bits = 8;
  else if (n == "16") bits = 16;
  else if (n == "32") bits = 32;
  else if (n == "64") bits = 64;
  else if (n == "128" && k == TypeKind::b) bits = 128;
  else if (k == TypeKind::f && n == "16x2") bits = 32;
  else return false;
  if (k == TypeKind::f && bits == 8) return false;
  t = {k, static_cast<u8>(bits)};
  return true;
}

Cmp parse_cmp(std::string_view m) {
  static const std::pair<const char*, Cmp> table[] = {
      {"eq", Cmp::eq}, {"ne", Cmp::ne}, {"lt", Cmp::lt}, {"le", Cmp::le}, {"gt", Cmp::gt}, {"ge", Cmp::ge},
      {"lo", Cmp::lo}, {"ls", Cmp::ls}, {"hi", Cmp::hi}, {"hs", Cmp::hs}, {"equ", Cmp::equ},
      {"neu", Cmp::neu}, {"ltu", Cmp::ltu}, {"leu", Cmp::leu}, {"gtu", Cmp::gtu},
      {"geu", Cmp::geu}, {"num", Cmp::num}, {"nan", Cmp::nan}};
  for (const auto& [name, c] : table)
    if (m == name) return c;
  return Cmp::none;
}

Op base_op(std::string_view b) {
  static const std::pair<const char*, Op> table[] = {
      {"mov", Op::mov}, {"add", Op::add}, {"sub", Op::sub}, {"mul", Op::mul}, {"mad", Op::mad}, {"mul24", Op::mul24},
      {"mad24", Op::mad24}, {"div", Op::div}, {"rem", Op::rem}, {"abs", Op::abs}, {"neg", Op::neg}, {"min", Op::min},
      {"max", Op::max}, {"and", Op::and_}, {"or", Op::or_}, {"xor", Op::xor_}, {"not", Op::not_}, {"cnot", Op::cnot},
      {"shl", Op::shl}, {"shr", Op::shr}, {"shf", Op::shf}, {"bfe", Op::bfe}, {"bfi", Op::bfi}, {"prmt", Op::prmt},
      {"lop3", Op::lop3}, {"clz", Op::clz}, {"popc", Op::popc}, {"brev", Op::brev}, {"bfind", Op::bfind},
      {"cvt", Op::cvt}, {"cvta", Op::cvta}, {"setp", Op::setp}, {"selp", Op::selp}, {"ld", Op::ld}, {"ldu", Op::ld},
      {"st", Op::st}, {"ldmatrix", Op::ldmatrix}, {"stmatrix", Op::stmatrix}, {"atom", Op::atom}, {"red", Op::red},
      {"bra", Op::bra}, {"call", Op::call}, {"ret", Op::ret}, {"exit", Op::exit}, {"shfl", Op::shfl},
      {"vote", Op::vote}, {"activemask", Op::activemask}, {"elect", Op::elect}, {"match", Op::match},
      // No register result and nothing an address depends on.
      {"bar", Op::nop}, {"barrier", Op::nop}, {"membar", Op::nop}, {"fence", Op::nop}, {"nanosleep", Op::nop},
      {"prefetch", Op::nop}, {"prefetchu", Op::nop}, {"griddepcontrol", Op::nop}, {"trap", Op::exit},
      {"pmevent", Op::nop}, {"discard", Op::nop}, {"applypriority", Op::nop}, {"createpolicy", Op::unknown}};
  for (const auto& [name, op] : table)
    if (b == name) return op;
  return Op::unknown;
}

}  // namespace

Opcode decode_opcode(std::string_view mnemonic) {
  Opcode o;
  std::vector<std::string_view> parts;
  std::size_t at = 0;
  while (at <= mnemonic.size()) {
    const std::size_t dot = mnemonic.find('.', at);
    const std::size_t end = dot == std::string_view::npos ? mnemonic.size() : dot;
    parts.push_back(mnemonic.substr(at, end - at));
    at = end + 1;
  }
  const std::string_view base = parts[0];
  o.op = base_op(base);
  if (base == "addc" || base == "subc" || base == "madc") o.op = Op::unknown;  // carry chains: not modelled
  o.trap = base == "trap";
  if (base == "mbarrier" && parts.size() > 1 && (parts[1] == "try_wait" || parts[1] == "test_wait")) o.op = Op::mbarrier_wait;
  bool saw_type = false;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string_view m = parts[i];
    Type t;
    if (parse_type(m, t)) {
      if (o.op == Op::cvt && saw_type) o.src = t;
      else o.type = t;
      saw_type = true;
      continue;
    }
    if (o.op == Op::setp && o.cmp == Cmp::none && parse_cmp(m) != Cmp::none) o.cmp = parse_cmp(m);  // before .lo/.hi
    else if (m == "wide") o.wide = true;
    else if (m == "rn" || m == "rni") o.rnd = Round::rn;
    else if (m == "rz" || m == "rzi") o.rnd = Round::rz;
    else if (m == "rm" || m == "rmi") o.rnd = Round::rm;
    else if (m == "rp" || m == "rpi") o.rnd = Round::rp;
    else if (m == "ftz") o.ftz = true;
    else if (m == "hi") o.hi = true;
    else if (m == "lo") o.lo = true;
    else if (m == "sat") o.sat = true;
    else if (m == "cc") o.carry = true;
    else if (m == "to") o.to = true;
    else if (m == "l") o.left = true;
    else if (m == "clamp") o.clamp = true;
    else if (m == "shiftamt") o.shiftamt = true;
    else if (m == "uni") o.uni = true;
    else if (m == "trans") o.trans = true;
    else if (m == "m8n8") o.m8n8 = true;
    else if (m == "bulk" || m == "tensor") o.bulk = true;
    else if (m == "v2") o.vec = 2;
    else if (m == "v4") o.vec = 4;
    else if (m == "v8") o.vec = 8;
    else if (m == "x1") o.matrices = 1;
    else if (m == "x2") o.matrices = 2;
    else if (m == "x4") o.matrices = 4;
    else if (m == "shared" || m == "shared::cta") o.space = Space::shared;
    else if (m == "shared::cluster") o.space = Space::shared_cluster;
    else if (m == "global") o.space = o.space == Space::shared ? o.space : Space::global;
    else if (m == "local") o.space = Space::local;
    else if (m == "param" || m.rfind("param::", 0) == 0) o.space = Space::param;
    else if (m == "const") o.space = Space::const_;
    else if (m == "f4e" || m == "b4e" || m == "rc8" || m == "ecl" || m == "ecr" || m == "rc16") o.prmt_default = false;
    else if (o.op == Op::setp && parse_cmp(m) != Cmp::none && o.cmp == Cmp::none) o.cmp = parse_cmp(m);
    else if (o.op == Op::setp && (m == "and" || m == "or" || m == "xor"))
      o.boolop = m == "and" ? BoolOp::and_ : m == "or" ? BoolOp::or_ : BoolOp::xor_;
    else if (o.op == Op::shfl && (m == "up" || m == "down" || m == "bfly" || m == "idx"))
      o.shfl = m == "up" ? ShflMode::up : m == "down" ? ShflMode::down : m == "bfly" ? ShflMode::bfly : ShflMode::idx;
    else if (o.op == Op::match && (m == "all" || m == "any"))
      o.vote = m == "all" ? VoteMode::all : VoteMode::any;
    else if (o.op == Op::vote && (m == "all" || m == "any" || m == "uni" || m == "ballot"))
      o.vote = m == "all" ? VoteMode::all : m == "any" ? VoteMode::any : m == "uni" ? VoteMode::uni : VoteMode::ballot;
    else if (o.op == Op::shf && m == "r") o.left = false;
  }
  // cp.async: `cp.async.ca.shared.global` (lane-addressed), `cp.async.commit_group`/`wait_group`/
  // `wait_all`/`mbarrier.arrive` (no address), `cp.async.bulk...` (not lane-addressed).
  if (base == "cp") {
    const bool async = parts.size() > 1 && parts[1] == "async";
    if (async && !o.bulk && parts.size() > 2 && (parts[2] == "ca" || parts[2] == "cg")) o.op = Op::cp_async, o.bypass = parts[2] == "cg";
    else if (async && !o.bulk && parts.size() > 2 &&
             (parts[2] == "commit_group" || parts[2] == "wait_group" || parts[2] == "wait_all" || parts[2] == "mbarrier")) {
      o.op = Op::nop;
      if (parts[2] == "commit_group") o.async = Opcode::AsyncGroup::commit;
      else if (parts[2] != "mbarrier") o.async = Opcode::AsyncGroup::wait;
    }
    else o.op = Op::unknown;
    if (o.op == Op::cp_async) o.space = Space::shared;  // its destination
  }
  // Floating-point arithmetic on .f32/.f64 is evaluated concretely (model/compiled/exec/
  // float_arith.hpp): add sub mul fma (mad: fused) min max abs neg, div with a rounding, setp. The
  // rest is "result not known": half precision (f16, bf16 and their x2 forms), rem, div.approx
  // and div.full, .NaN/.xorsign/.relu/.oob forms, and the transcendental and approximate opcodes.
  if (base == "fma") o.op = Op::mad;
  bool half = false, other_form = false;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string_view m = parts[i];
    half = half || m == "f16" || m == "f16x2" || m == "bf16" || m == "bf16x2" || m == "e4m3x2" || m == "e5m2x2";
    other_form = other_form || m == "NaN" || m == "xorsign" || m == "relu" || m == "oob" || m == "approx" || m == "full" ||
                 m == "abs";
  }
  const bool arith = o.op == Op::add || o.op == Op::sub || o.op == Op::mul || o.op == Op::mad || o.op == Op::div ||
                     o.op == Op::rem || o.op == Op::abs || o.op == Op::neg || o.op == Op::min || o.op == Op::max;
  const bool modelled = (o.type.bits == 32 || o.type.bits == 64) && !half && !other_form && o.op != Op::rem &&
                        (o.op != Op::div || o.rnd != Round::none);
  if ((arith && o.type.is_float() && !modelled) || base == "rcp" || base == "sqrt" || base == "rsqrt" || base == "ex2" ||
      base == "lg2" || base == "sin" || base == "cos" || base == "tanh" || base == "copysign" || base == "testp") {
    o.float_op = true;
    o.op = Op::unknown;
  }
  if (o.op == Op::setp && (half || (o.type.is_float() && o.type.bits != 32 && o.type.bits != 64))) {
    o.float_op = true;
    o.op = Op::unknown;
  }
  return o;
}

int type_bytes(Type t) { return t.kind == TypeKind::pred || t.kind == TypeKind::none ? 0 : t.bits / 8; }

bool special_register(std::string_view n, Special& out) {
  static const std::pair<const char*, Special> table[] = {
      {"%tid.x", Special::tid_x}, {"%tid.y", Special::tid_y}, {"%tid.z", Special::tid_z},
      {"%ntid.x", Special::ntid_x}, {"%ntid.y", Special::ntid_y}, {"%ntid.z", Special::ntid_z},
      {"%ctaid.x", Special::ctaid_x}, {"%ctaid.y", Special::ctaid_y}, {"%ctaid.z", Special::ctaid_z},
      {"%nctaid.x", Special::nctaid_x}, {"%nctaid.y", Special::nctaid_y}, {"%nctaid.z", Special::nctaid_z},
      {"%laneid", Special::laneid}, {"%warpid", Special::warpid}, {"%lanemask_eq", Special::lanemask_eq},
      {"%lanemask_lt", Special::lanemask_lt}, {"%lanemask_le", Special::lanemask_le},
      {"%lanemask_gt", Special::lanemask_gt}, {"%lanemask_ge", Special::lanemask_ge},
      {"%cluster_ctaid.x", Special::cluster_ctaid_x}, {"%cluster_ctaid.y", Special::cluster_ctaid_y},
      {"%cluster_ctaid.z", Special::cluster_ctaid_z}, {"%cluster_nctaid.x", Special::cluster_nctaid_x},
      {"%cluster_nctaid.y", Special::cluster_nctaid_y}, {"%cluster_nctaid.z", Special::cluster_nctaid_z},
      {"%cluster_ctarank", Special::cluster_ctarank}, {"%cluster_nctarank", Special::cluster_nctarank}};
  for (const auto& [name, s] : table)
    if (n == name) {
      out = s;
      return true;
    }
  static const char* others[] = {"%nwarpid", "%smid", "%nsmid", "%gridid", "%clock", "%clock64", "%globaltimer",
                                 "%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank",
                                 "%cluster_nctarank", "%is_explicit_cluster", "%dynamic_smem_size",
                                 "%total_smem_size", "%aggr_smem_size", "%reserved_smem_offset", "%envreg",
                                 "%pm", "%globaltimer_lo", "%globaltimer_hi", "%current_graph_exec"};
  for (const char* o : others)
    if (n.rfind(o, 0) == 0) {
      out = Special::other;
      return true;
    }
  return false;
}

std::string Function::register_name(u32 r) const {
  for (const RegRange& g : reg_names)
    if (r >= g.first && r - g.first < g.count) return g.ranged ? g.name + std::to_string(r - g.first) : g.name;
  return "register " + std::to_string(r);
}

namespace {
std::string file_line(const Module& m, u32 file, u32 line) {
  const auto it = m.files.find(file);
  return (it == m.files.end() ? "file " + std::to_string(file) : it->second) + ":" + std::to_string(line);
}
}  // namespace

std::string Program::source_of(const Function& f, const Instr& in) const {
  if (in.loc_line == 0) return "";
  const Module& m = modules[static_cast<std::size_t>(f.module)];
  return in.call_line ? file_line(m, in.call_file, in.call_line) : file_line(m, in.loc_file, in.loc_line);
}

std::string Program::inlined_of(const Function& f, const Instr& in) const {
  if (in.loc_line == 0 || in.call_line == 0) return "";
  return file_line(modules[static_cast<std::size_t>(f.module)], in.loc_file, in.loc_line);
}

std::string Program::text_of(const Instr& in) const {
  std::string s;
  bool space = false;
  for (std::size_t i = in.text_begin; i < in.text_end && i < text.size(); ++i) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !s.empty();
      continue;
    }
    if (space && c != ',' && c != ')' && s.back() != '(') s += ' ';
    space = false;
    s += c;
  }
  return s;
}

}  // namespace layoutproof::compiled
