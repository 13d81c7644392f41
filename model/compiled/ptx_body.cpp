// The PTX reader's function bodies (ptx_parse.hpp decode_function): declarations with their
// scopes, labels, `.loc`, and every instruction decoded with its operands resolved.
//
// Scopes: `{ ... }` opens one (inline asm, call sequences). A `.reg`/`.param`/`.local`/`.shared`
// declared in it is visible there only and gets fresh numbers, so the same asm block expanded
// twice declares two distinct `tmp` registers. Names resolve innermost scope first, then the
// function's parameters, then the module's symbols and functions. Labels resolve the same way
// (forward references allowed); a branch to a label that does not exist is an error.
#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "model/compiled/ptx_decl.hpp"
#include "model/compiled/ptx_lex.hpp"
#include "model/compiled/ptx_parse.hpp"
#include "model/compiled/ptx_types.hpp"

namespace layoutproof::compiled {
namespace {

using K = Token::Kind;
using OK = Operand::Kind;

struct Binding {
  OK kind = OK::reg;  // reg, param, shared or var
  u32 index = 0;
};

struct Scope {
  u32 id = 0;
  std::unordered_map<std::string, Binding> names;
  std::unordered_map<std::string, std::pair<u32, u32>> ranges;  // "%r" -> (first register, count)
};

// "%rd12" -> ("%rd", 12); false when the name does not end in digits (or has a leading zero).
bool split_numbered(std::string_view n, std::string_view& prefix, u32& number) {
  std::size_t d = n.size();
  while (d > 0 && n[d - 1] >= '0' && n[d - 1] <= '9') --d;
  if (d == n.size() || d == 0 || n.size() - d > 9 || (n[d] == '0' && n.size() - d > 1)) return false;
  prefix = n.substr(0, d);
  number = 0;
  for (std::size_t i = d; i < n.size(); ++i) number = number * 10 + static_cast<u32>(n[i] - '0');
  return true;
}

class BodyReader {
 public:
  BodyReader(Program& p, std::size_t fi, const ReadDeadline& deadline)
      : p_(p), fi_(fi), f_(p.functions[fi]), deadline_(deadline),
        lx_(p.text, p.file, p.bodies[fi].begin, p.bodies[fi].end, p.bodies[fi].line, p.bodies[fi].line_start) {
    for (u32 i = 0; i < f_.params.size(); ++i) params_[f_.params[i].name] = i;
    for (u32 i = 0; i < f_.returns.size(); ++i) params_[f_.returns[i].name] = static_cast<u32>(f_.params.size()) + i;
  }

  void run() {
    push_scope();
    for (std::size_t n = 1;; ++n) {
      const Token t = lx_.peek();
      if ((n & 0xfff) == 0) check_deadline(deadline_, [&] { return "while decoding " + f_.name + ", at line " + std::to_string(t.line); });
      if (t.kind == K::end) break;
      if (t.is('{')) {
        lx_.next();
        if (scopes_.size() >= static_cast<std::size_t>(kMaxScopeDepth)) lx_.fail(t, "scopes nest deeper than " + std::to_string(kMaxScopeDepth));
        push_scope();
      } else if (t.is('}')) {
        lx_.next();
        if (scopes_.size() <= 1) lx_.fail(t, "a '}' that closes no scope");
        scopes_.pop_back();
      } else if (t.is('@')) {
        instruction();
      } else if (t.kind == K::name && t.text[0] == '.') {
        directive();
      } else if (t.kind == K::name) {
        lx_.next();
        if (lx_.peek().is(':')) {
          lx_.next();
          label(t);
        } else {
          instruction_after(t, t);
        }
      } else {
        lx_.fail(t, "expected an instruction, a label or a directive");
      }
    }
    if (scopes_.size() != 1) lx_.fail(lx_.pos(), "a '{' in this body is never closed");
    resolve_labels();
    f_.decoded = true;
  }

 private:
  void push_scope() {
    Scope s;
    s.id = next_scope_++;
    scopes_.push_back(std::move(s));
  }

  u32 new_registers(const Token& at, u32 n, Type type) {
    if (n > kMaxRegisters || f_.registers > kMaxRegisters - n)
      lx_.fail(at, "more than " + std::to_string(kMaxRegisters) + " registers in one function");
    const u32 first = f_.registers;
    f_.registers += n;
    reg_types_.resize(f_.registers, type);
    return first;
  }

  void declare(const Token& at, const std::string& name, Binding b) {
    Scope& s = scopes_.back();
    if (s.names.count(name)) lx_.fail(at, "'" + name + "' is declared twice in one scope");
    s.names[name] = b;
  }

  // `.reg [.v2] .TYPE %r<53>, %p, tmp;`: each register keeps its type (a vector register: none,
  // not checked) for the operand checks (ptx_types.hpp).
  void registers() {
    Type type;
    bool vector = false;
    while (lx_.peek().kind == K::name && lx_.peek().text[0] == '.') {
      const Token d = lx_.next();
      if (d.text == ".v2" || d.text == ".v4" || d.text == ".v8") vector = true;
      else type = decode_opcode(std::string("x") + std::string(d.text)).type;
    }
    if (vector) type = Type{};
    for (;;) {
      const Token n = lx_.next();
      if (n.kind != K::name || n.text[0] == '.') lx_.fail(n, "expected a register name");
      const std::string name(n.text);
      if (lx_.peek().is('<')) {
        lx_.next();
        const Token c = lx_.next();
        std::uint64_t v = 0;
        if (c.kind != K::number || !ptx_integer(c.text, v) || v == 0 || v > kMaxRegisters)
          lx_.fail(c, "expected a register count");
        if (!lx_.next().is('>')) lx_.fail(c, "expected '>' after the register count");
        const u32 first = new_registers(n, static_cast<u32>(v), type);
        scopes_.back().ranges[name] = {first, static_cast<u32>(v)};
        f_.reg_names.push_back({first, static_cast<u32>(v), name, true});
      } else {
        const u32 r = new_registers(n, 1, type);
        declare(n, name, {OK::reg, r});
        f_.reg_names.push_back({r, 1, name, false});
      }
      const Token sep = lx_.next();
      if (sep.is(';')) return;
      if (!sep.is(',')) lx_.fail(sep, "expected ',' or ';' in a .reg declaration");
    }
  }

  void directive() {
    const Token d = lx_.next();
    if (d.text == ".reg") return registers();
    if (d.text == ".loc") {
      u32 v[3] = {0, 0, 0};
      for (u32& x : v) {
        const Token n = lx_.peek();
        std::uint64_t k = 0;
        if (n.kind != K::number || n.line != d.line || !ptx_integer(n.text, k) || k > 0xffffffffu) break;
        lx_.next();
        x = static_cast<u32>(k);
      }
      loc_file_ = v[0], loc_line_ = v[1];
      // `, function_name $L__info_stringN, inlined_at F L C`: the code was inlined at (F, L, C),
      // itself a location an earlier .loc gave, perhaps inlined in turn. nvcc writes a chain as
      // one .loc per level, outermost first, so the outermost call site of (F, L, C) is the one
      // recorded for it (or (F, L, C) itself when it was not inlined).
      std::optional<Loc> caller;
      while (lx_.peek().line == d.line && lx_.peek().kind != K::end) {
        const Token t = lx_.next();
        if (t.text != "inlined_at") continue;
        u32 c[3] = {0, 0, 0};
        bool ok = true;
        for (u32& x : c) {
          const Token n = lx_.peek();
          std::uint64_t k = 0;
          if (n.kind != K::number || n.line != d.line || !ptx_integer(n.text, k) || k > 0xffffffffu) {
            ok = false;
            break;
          }
          lx_.next();
          x = static_cast<u32>(k);
        }
        if (ok) caller = Loc{c[0], c[1], c[2]};
      }
      const Loc here{v[0], v[1], v[2]};
      if (caller) {
        const auto it = outermost_.find(*caller);
        const Loc outer = it == outermost_.end() ? *caller : it->second;
        outermost_[here] = outer;
        call_file_ = outer.file, call_line_ = outer.line;
      } else {
        outermost_.erase(here);
        call_file_ = 0, call_line_ = 0;
      }
      return;
    }
    if (d.text == ".pragma") {
      while (!lx_.peek().is(';') && lx_.peek().kind != K::end) lx_.next();
      if (!lx_.next().is(';')) lx_.fail(d, "a .pragma never ended by ';'");
      return;
    }
    if (d.text == ".param" || d.text == ".local" || d.text == ".shared" || d.text == ".global" || d.text == ".const") {
      for (const Declared& x : declaration(lx_, false)) {
        if (d.text == ".param") {
          declare(d, x.name, {OK::param, f_.param_slots++});
        } else if (d.text == ".shared") {
          SharedSymbol s;
          s.name = x.name, s.align = x.align ? x.align : std::max(1, type_bytes(x.type)), s.bytes = x.bytes, s.dynamic = x.unsized;
          s.module = f_.module, s.owner = static_cast<int>(fi_), s.line = x.line;
          p_.shared.push_back(std::move(s));
          declare(d, x.name, {OK::shared, static_cast<u32>(p_.shared.size() - 1)});
        } else {
          p_.vars.push_back(x.name);
          declare(d, x.name, {OK::var, static_cast<u32>(p_.vars.size() - 1)});
        }
      }
      return;
    }
    lx_.fail(d, "unknown directive '" + std::string(d.text) + "' in a function body");
  }

  void label(const Token& name) {
    if (lx_.peek().is_name(".callprototype") || lx_.peek().is_name(".branchtargets")) {  // `proto: .callprototype (...) _ (...);`
      while (!lx_.peek().is(';') && lx_.peek().kind != K::end) lx_.next();
      lx_.next();
      return;
    }
    auto& defs = labels_[std::string(name.text)];
    for (const auto& [scope, target] : defs)
      if (scope == scopes_.back().id) lx_.fail(name, "label '" + std::string(name.text) + "' is defined twice in one scope");
    defs.push_back({scopes_.back().id, static_cast<u32>(f_.code.size())});
  }

  std::optional<Binding> lookup(const std::string& n) const {
    std::string_view prefix;
    u32 number = 0;
    const bool numbered = split_numbered(n, prefix, number);
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      if (const auto it = s->names.find(n); it != s->names.end()) return it->second;
      if (numbered)
        if (const auto it = s->ranges.find(std::string(prefix)); it != s->ranges.end() && number < it->second.second)
          return Binding{OK::reg, it->second.first + number};
    }
    if (const auto it = params_.find(n); it != params_.end()) return Binding{OK::param, it->second};
    const auto& module = p_.module_names[static_cast<std::size_t>(f_.module)];
    if (const auto it = module.find(n); it != module.end()) return Binding{it->second.first, it->second.second};
    if (const auto it = p_.var_names.find(n); it != p_.var_names.end()) return Binding{OK::var, it->second};
    return std::nullopt;
  }

  // One operand; nested parts (vector elements, an address's base) go to `nested`, indexed from 0.
  Operand operand(std::vector<Operand>& nested, bool branch) {
    const Token t = lx_.next();
    Operand o = operand_at(t, nested, branch);
    o.pos = static_cast<u32>(std::min<std::size_t>(t.pos, 0xffffffffu));
    return o;
  }

  Operand operand_at(const Token& t, std::vector<Operand>& nested, bool branch) {
    Operand o;
    if (t.is('!')) {
      o = operand(nested, branch);
      o.neg = true;
      return o;
    }
    if (t.is('{')) {
      std::vector<Operand> items;
      if (!lx_.peek().is('}'))
        for (;;) {
          items.push_back(operand(nested, false));
          if (items.size() > kMaxOperands) lx_.fail(t, "more than " + std::to_string(kMaxOperands) + " operands");
          const Token sep = lx_.next();
          if (sep.is('}')) break;
          if (!sep.is(',')) lx_.fail(sep, "expected ',' or '}' in a vector operand");
        }
      else lx_.next();
      o.kind = OK::vec;
      o.index = static_cast<u32>(nested.size());
      o.count = static_cast<u32>(items.size());
      nested.insert(nested.end(), items.begin(), items.end());
      return o;
    }
    if (t.is('[')) {
      o.kind = OK::addr;
      Operand base;
      if (lx_.peek().kind == K::name) {
        const Token b = lx_.next();
        base = name_operand(b, false);
        base.pos = static_cast<u32>(std::min<std::size_t>(b.pos, 0xffffffffu));
      } else if (lx_.peek().kind == K::number || lx_.peek().is('-')) {
        o.imm = signed_number();
      }
      if (lx_.peek().is('+') || (lx_.peek().is('-') && base.kind != OK::none)) {
        const bool minus = lx_.next().is('-');
        const i64 v = signed_number();
        o.imm = minus ? checked_sub(0, v) : v;
      }
      // A tensor address `[tensorMap, {c0, c1}]` (cp.async.bulk.tensor, TMA): the coordinates
      // follow the base in `nested` (count of them), for the Hopper claims that read which box a
      // copy brought.
      std::vector<Operand> coordinates;
      if (lx_.peek().is(',')) {
        lx_.next();
        if (!lx_.peek().is('{')) lx_.fail(lx_.peek(), "expected '{' and the tensor coordinates after ',' in this address");
        const Operand v = operand(coordinates, false);
        if (v.kind != OK::vec) lx_.fail(lx_.peek(), "expected the tensor coordinates in '{...}'");
        for (const Operand& c : coordinates)
          if (c.kind == OK::vec || c.kind == OK::addr) lx_.fail(t, "a tensor coordinate is a register or a constant");
        o.count = v.count;
      }
      if (!lx_.next().is(']')) lx_.fail(t, "expected ']' to close this address");
      o.index = static_cast<u32>(nested.size());
      nested.push_back(base);
      nested.insert(nested.end(), coordinates.begin(), coordinates.end());
      return o;
    }
    if (t.kind == K::number || t.is('-')) {
      o.kind = OK::imm;
      o.imm = signed_number(t);
      return o;
    }
    if (t.kind == K::name) return name_operand(t, branch);
    lx_.fail(t, "expected an operand");
  }

  i64 signed_number(std::optional<Token> first = std::nullopt) {
    Token t = first ? *first : lx_.next();
    bool neg = false;
    if (t.is('-')) neg = true, t = lx_.next();
    std::uint64_t v = 0;
    if (t.kind != K::number || !ptx_integer(t.text, v)) lx_.fail(t, "expected an integer");
    const i64 s = static_cast<i64>(v);  // 64-bit patterns as written (0xFFFFFFFFFFFFFFFF is -1)
    return neg ? static_cast<i64>(0ULL - v) : s;
  }

  Operand name_operand(const Token& t, bool branch) {
    Operand o;
    const std::string n(t.text);
    if (n == "_") {
      o.kind = OK::sink;
      return o;
    }
    if (n[0] == '%' && special_register(n, o.special)) {
      o.kind = OK::special;
      return o;
    }
    if (const auto b = lookup(n)) {
      o.kind = b->kind;
      o.index = b->index;
      return o;
    }
    if (branch) {  // a label, maybe defined later
      o.kind = OK::label;
      std::vector<u32> chain;
      for (const Scope& s : scopes_) chain.push_back(s.id);
      pending_.push_back({&o - &o, n, std::move(chain), t.pos});  // operand index filled by the caller
      return o;
    }
    if (n[0] == '%') lx_.fail(t, "register '" + n + "' is not declared");
    if (n == "WARP_SZ") {  // PTX's one predefined constant: the warp size, 32 on every target
      o.kind = OK::imm;
      o.imm = 32;
      return o;
    }
    o.kind = OK::unknown_name;
    o.index = static_cast<u32>(f_.unknown_names.size());
    f_.unknown_names.push_back(n);
    return o;
  }

  void instruction() {
    const Token at = lx_.next();  // '@'
    bool neg = false;
    if (lx_.peek().is('!')) lx_.next(), neg = true;
    const Token g = lx_.next();
    if (g.kind != K::name) lx_.fail(g, "expected a predicate register after '@'");
    const auto b = lookup(std::string(g.text));
    if (!b || b->kind != OK::reg) lx_.fail(g, "predicate '" + std::string(g.text) + "' is not a declared register");
    if (const Type t = reg_types_[b->index]; t.kind != TypeKind::pred && t.kind != TypeKind::none)
      lx_.fail(g, "the guard '" + std::string(g.text) + "' is a " + type_name(t) + " register, not a predicate (.pred)");
    const Token op = lx_.next();
    if (op.kind != K::name || op.text[0] == '.') lx_.fail(op, "expected an opcode after the guard");
    instruction_after(at, op, static_cast<i64>(b->index), neg);
  }

  void instruction_after(const Token& start, const Token& op, i64 guard = -1, bool guard_neg = false) {
    Instr in;
    in.code = decode_opcode(op.text);
    in.guard = guard;
    in.guard_neg = guard_neg;
    in.line = op.line;
    in.loc_file = loc_file_;
    in.loc_line = loc_line_;
    in.call_file = call_file_;
    in.call_line = call_line_;
    in.text_begin = static_cast<u32>(std::min<std::size_t>(start.pos, 0xffffffffu));
    const std::string_view base = op.text.substr(0, op.text.find('.'));
    std::vector<Operand> top, nested;
    const std::size_t pending_before = pending_.size();
    std::vector<std::size_t> pending_top;  // top-level operand of each new pending label
    if (in.code.op == Op::call) {
      call_operands(op, top, nested, in);
    } else if (!lx_.peek().is(';')) {
      const bool branch = base == "bra" || base == "brx";
      for (;;) {
        top.push_back(operand(nested, branch));
        if (pending_.size() > pending_before + pending_top.size()) pending_top.push_back(top.size() - 1);
        if (top.size() > kMaxOperands) lx_.fail(op, "more than " + std::to_string(kMaxOperands) + " operands");
        if (top.size() == 1 && lx_.peek().is('|')) {
          lx_.next();
          in.dual = true;
          top.push_back(operand(nested, false));
        }
        if (!lx_.peek().is(',')) break;
        lx_.next();
      }
    }
    const Token end = lx_.next();
    if (!end.is(';')) lx_.fail(end, "expected ';' to end the instruction");
    if (in.code.op != Op::call)
      if (const auto bad = check_operand_types(in, op.text, top, nested, reg_types_, f_)) lx_.fail(bad->pos, bad->what);
    in.text_end = static_cast<u32>(std::min<std::size_t>(end.pos + 1, 0xffffffffu));
    // Operands: the top level contiguous, then the nested parts (indices shifted past them).
    const u32 first = static_cast<u32>(f_.operands.size());
    const u32 shift = first + static_cast<u32>(top.size());
    for (Operand o : top) {
      if (o.kind == OK::vec || o.kind == OK::addr) o.index += shift;
      f_.operands.push_back(o);
    }
    for (Operand o : nested) {
      if (o.kind == OK::vec || o.kind == OK::addr) o.index += shift;
      f_.operands.push_back(o);
    }
    for (std::size_t k = 0; k < pending_top.size(); ++k) pending_[pending_before + k].operand = first + static_cast<u32>(pending_top[k]);
    in.first = first;
    in.count = static_cast<u32>(top.size());
    f_.code.push_back(in);
  }

  // call[.uni] [(ret, ...),] func [, (arg, ...)] [, proto];  -> [func, ret..., arg...]
  void call_operands(const Token& op, std::vector<Operand>& top, std::vector<Operand>& nested, Instr& in) {
    std::vector<Operand> rets, args;
    const auto list = [&](std::vector<Operand>& out) {
      lx_.next();  // '('
      if (lx_.peek().is(')')) {
        lx_.next();
        return;
      }
      for (;;) {
        out.push_back(operand(nested, false));
        if (out.size() > kMaxOperands) lx_.fail(op, "more than " + std::to_string(kMaxOperands) + " call operands");
        const Token sep = lx_.next();
        if (sep.is(')')) return;
        if (!sep.is(',')) lx_.fail(sep, "expected ',' or ')' in the call's list");
      }
    };
    if (lx_.peek().is('(')) {
      list(rets);
      if (!lx_.next().is(',')) lx_.fail(op, "expected ',' after the call's return list");
    }
    top.push_back(operand(nested, false));  // the function (or a register: an indirect call)
    if (lx_.peek().is(',')) {
      lx_.next();
      if (lx_.peek().is('(')) list(args);
      else (void)operand(nested, false);  // a prototype alone
      if (lx_.peek().is(',')) lx_.next(), (void)operand(nested, false);  // the prototype
    }
    in.ret_count = static_cast<u32>(rets.size());
    top.insert(top.end(), rets.begin(), rets.end());
    top.insert(top.end(), args.begin(), args.end());
  }

  void resolve_labels() {
    for (const Pending& pd : pending_) {
      const auto it = labels_.find(pd.name);
      std::optional<u32> target;
      std::size_t best = 0;
      if (it != labels_.end())
        for (const auto& [scope, at] : it->second)
          for (std::size_t k = 0; k < pd.chain.size(); ++k)
            if (pd.chain[k] == scope && (!target || k >= best)) target = at, best = k;
      if (!target) lx_.fail(pd.pos, "branch to '" + pd.name + "', a label this function does not define");
      f_.operands[pd.operand].index = *target;
    }
  }

  struct Pending {
    std::ptrdiff_t operand;
    std::string name;
    std::vector<u32> chain;
    std::size_t pos;
  };

  Program& p_;
  std::size_t fi_;
  Function& f_;
  const ReadDeadline& deadline_;
  Lexer lx_;
  std::vector<Scope> scopes_;
  u32 next_scope_ = 0;
  std::unordered_map<std::string, u32> params_;
  std::unordered_map<std::string, std::vector<std::pair<u32, u32>>> labels_;
  std::vector<Pending> pending_;
  std::vector<Type> reg_types_;  // per register number: its declared type
  u32 loc_file_ = 0, loc_line_ = 0;
  u32 call_file_ = 0, call_line_ = 0;  // the outermost call site the current .loc was inlined at (0: none)
  struct Loc {
    u32 file = 0, line = 0, column = 0;
    bool operator<(const Loc& o) const { return std::tie(file, line, column) < std::tie(o.file, o.line, o.column); }
  };
  std::map<Loc, Loc> outermost_;  // an inlined location -> its outermost call site
};

// Program::module_names, from the module level alone (before any body adds its own symbols).
void index_module_names(Program& p) {
  if (!p.module_names.empty()) return;
  std::size_t modules = p.modules.size();
  for (const Function& f : p.functions) modules = std::max(modules, static_cast<std::size_t>(f.module) + 1);
  p.module_names.resize(modules);
  for (u32 i = 0; i < p.shared.size(); ++i)
    if (p.shared[i].owner < 0) p.module_names[static_cast<std::size_t>(p.shared[i].module)][p.shared[i].name] = {OK::shared, i};
  for (u32 i = 0; i < p.vars.size(); ++i) p.var_names.emplace(p.vars[i], i);
  for (u32 i = 0; i < p.functions.size(); ++i) p.module_names[static_cast<std::size_t>(p.functions[i].module)][p.functions[i].name] = {OK::func, i};
}

// ptxas may fuse a mul and an add with no rounding modifier into one fma (the PTX ISA allows it),
// which rounds once where the two round twice: an add or sub without a rounding, one of whose
// operands a mul without one writes, is marked contractible, and its result is not known
// (model/compiled/exec/alu_float.cpp). An explicit .rn on either keeps them apart.
void mark_contractible(Function& fn) {
  const auto plain = [](const Opcode& c, Op o) { return c.op == o && c.type.is_float() && c.rnd == Round::none; };
  std::unordered_set<u32> products;
  for (const Instr& in : fn.code)
    if (plain(in.code, Op::mul) && in.count > 0 && fn.operands[in.first].kind == OK::reg) products.insert(fn.operands[in.first].index);
  if (products.empty()) return;
  for (Instr& in : fn.code) {
    if (!plain(in.code, Op::add) && !plain(in.code, Op::sub)) continue;
    for (u32 k = 1; k < in.count; ++k) {
      const Operand& o = fn.operands[in.first + k];
      if (o.kind == OK::reg && products.count(o.index)) in.code.contractible = true;
    }
  }
}

}  // namespace

void decode_function(Program& p, std::size_t f, const ReadDeadline& deadline) {
  if (f >= p.functions.size() || p.functions[f].decoded || !p.bodies[f].has_body) return;
  index_module_names(p);
  BodyReader(p, f, deadline).run();
  mark_contractible(p.functions[f]);
}

namespace {

// The functions fn calls directly (call's first operand), in the order its calls appear.
void push_callees(const Function& fn, std::vector<std::size_t>& todo) {
  for (const Instr& in : fn.code)
    if (in.code.op == Op::call && in.count > 0 && fn.operands[in.first].kind == Operand::Kind::func)
      todo.push_back(fn.operands[in.first].index);
}

}  // namespace

void decode_with_callees(Program& p, std::size_t entry, const ReadDeadline& deadline) {
  std::vector<std::size_t> todo{entry};
  while (!todo.empty()) {
    const std::size_t f = todo.back();
    todo.pop_back();
    if (p.functions[f].decoded || !p.bodies[f].has_body) continue;
    decode_function(p, f, deadline);
    push_callees(p.functions[f], todo);
  }
}

std::vector<std::size_t> kernel_functions(const Program& p, std::size_t entry) {
  std::vector<std::size_t> out, todo{entry};
  while (!todo.empty()) {  // decode_with_callees's walk, over what it decoded (proportional to the kernel)
    const std::size_t f = todo.back();
    todo.pop_back();
    if (!p.functions[f].decoded || std::find(out.begin(), out.end(), f) != out.end()) continue;
    out.push_back(f);
    push_callees(p.functions[f], todo);
  }
  return out;
}

}  // namespace layoutproof::compiled
