// The PTX reader's module level (ptx_parse.hpp): modules, variables, function headers and where
// their bodies are. Bodies are decoded by ptx_body.cpp.
#include "model/compiled/ptx_parse.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>

#include "model/compiled/ptx_decl.hpp"
#include "model/compiled/ptx_lex.hpp"

namespace layoutproof::compiled {
namespace {

using K = Token::Kind;

// The lines `cuobjdump -ptx` prints before each module ("Fatbin ptx code:", "====", "arch = sm_90",
// "code version = [8,0]", "host = linux", "compile_size = 64bit", "compressed", ...).
bool banner_word(const Token& t) {
  if (t.is('=')) return true;
  if (t.kind != K::name) return false;
  static const char* words[] = {"Fatbin", "arch", "code", "host", "compile_size", "compressed", "identifier",
                                "ptxasOptions", "producer", "elf", "ptx"};
  for (const char* w : words)
    if (t.text == w) return true;
  return false;
}

// `.maxntid 128, 1, 1` -> {128, 1, 1}.
std::array<i64, 3> dims(Lexer& lx) {
  std::array<i64, 3> d{1, 1, 1};
  for (std::size_t k = 0; k < 3; ++k) {
    const Token n = lx.next();
    std::uint64_t v = 0;
    if (n.kind != K::number || !ptx_integer(n.text, v) || v == 0 || v > 1u << 20) lx.fail(n, "expected a thread count");
    d[k] = static_cast<i64>(v);
    if (!lx.peek().is(',')) break;
    lx.next();
  }
  return d;
}

// `( .param .u64 name, .param .align 8 .b8 name[64] )`: the declarations, in order.
std::vector<ParamDecl> param_list(Lexer& lx) {
  std::vector<ParamDecl> out;
  lx.next();  // '('
  while (!lx.peek().is(')')) {
    const Token kw = lx.peek();
    if (!kw.is_name(".param") && !kw.is_name(".reg")) lx.fail(kw, "expected .param in a parameter list");
    const std::vector<Declared> d = declaration(lx, /*one=*/true);
    out.push_back(ParamDecl{d[0].name, d[0].type, d[0].bytes});
    if (lx.peek().is(',')) lx.next();
    else if (!lx.peek().is(')')) lx.fail(lx.peek(), "expected ',' or ')' in a parameter list");
  }
  lx.next();
  return out;
}

// After `{`: the matching `}` (its byte offset); nested braces, strings and comments skipped.
std::size_t skip_body(Lexer& lx, const Token& open, const ReadDeadline& deadline) {
  int depth = 1;
  for (std::size_t n = 1;; ++n) {
    const Token t = lx.next();
    if ((n & 0xffff) == 0) check_deadline(deadline, [&] { return "while reading " + lx.file() + ", at line " + std::to_string(t.line); });
    if (t.kind == K::end) lx.fail(open, "this '{' is never closed");
    if (t.is('{')) {
      if (++depth > kMaxScopeDepth) lx.fail(t, "scopes nest deeper than " + std::to_string(kMaxScopeDepth));
    } else if (t.is('}') && --depth == 0) {
      return t.pos;
    }
  }
}

struct ModuleReader {
  Program& p;
  Lexer lx;
  ReadDeadline deadline;
  int module = -1;
  std::map<std::pair<int, std::string>, std::size_t> function_index;  // (module, name) -> p.functions

  Module& current(const Token& at) {
    if (module < 0) lx.fail(at, "a declaration before .version (a PTX module starts with .version)");
    return p.modules[static_cast<std::size_t>(module)];
  }

  void function(const Token& kw, bool is_entry) {
    Module& m = current(kw);
    (void)m;
    Function f;
    f.is_entry = is_entry;
    f.module = module;
    f.line = kw.line;
    if (!is_entry && lx.peek().is('(')) f.returns = param_list(lx);
    const Token name = lx.next();
    if (name.kind != K::name || name.text[0] == '.' || name.text[0] == '%') lx.fail(name, std::string("expected the ") + (is_entry ? "kernel's" : "function's") + " name");
    f.name = std::string(name.text);
    if (lx.peek().is('(')) f.params = param_list(lx);
    while (lx.peek().kind == K::name && lx.peek().text[0] == '.') {
      const Token d = lx.next();
      if (d.text == ".reqntid") f.reqntid = dims(lx);
      else if (d.text == ".maxntid") f.maxntid = dims(lx);
      else if (d.text == ".noreturn" || d.text == ".explicitcluster" || d.text == ".blocksareclusters") continue;
      else if (d.text == ".pragma") {
        while (!lx.peek().is(';') && lx.peek().kind != K::end) lx.next();
        lx.next();
      } else if (lx.peek().kind == K::number) {
        (void)dims(lx);  // .minnctapersm N, .maxnreg N, .reqnctapercluster X,Y,Z, ...: no bearing on addresses
      } else {
        lx.fail(d, "unknown directive '" + std::string(d.text) + "' in a function header");
      }
    }
    f.param_slots = static_cast<u32>(f.params.size() + f.returns.size());
    BodyRange body;
    const Token t = lx.next();
    if (t.is('{')) {
      body.has_body = true;
      body.begin = t.pos + 1;
      body.line = t.line;
      body.line_start = lx.line_start();
      if (t.pos < body.line_start) {  // `{` ends a line: its line starts before it
        const std::size_t nl = p.text.rfind('\n', t.pos);
        body.line_start = nl == std::string::npos ? 0 : nl + 1;
      }
      body.end = skip_body(lx, t, deadline);
    } else if (!t.is(';')) {
      lx.fail(t, "expected '{' (the body) or ';' after the function header");
    }
    // A body after an earlier declaration of the same name replaces it (one function per name).
    const auto [known, fresh] = function_index.try_emplace({module, f.name}, p.functions.size());
    if (!fresh) {
      const std::size_t i = known->second;
      if (body.has_body) {
        if (p.bodies[i].has_body) lx.fail(name, "'" + f.name + "' is defined twice in one module");
        p.functions[i] = std::move(f);
        p.bodies[i] = body;
      }
      return;
    }
    p.functions.push_back(std::move(f));
    p.bodies.push_back(body);
  }

  void variable(const Token& space) {
    (void)current(space);
    for (const Declared& d : declaration(lx, false)) {
      if (space.text == ".shared") {
        SharedSymbol s;
        s.name = d.name;
        s.align = d.align ? d.align : std::max(1, type_bytes(d.type));
        s.bytes = d.bytes;
        s.dynamic = d.unsized;
        s.module = module;
        s.line = d.line;
        p.shared.push_back(std::move(s));
      } else {
        p.vars.push_back(d.name);
      }
    }
  }

  void run() {
    for (std::size_t n = 1;; ++n) {
      Token t = lx.next();
      if ((n & 0x3ff) == 0) check_deadline(deadline, [&] { return "while reading " + p.file + ", at line " + std::to_string(t.line); });
      if (t.kind == K::end) return;
      if (banner_word(t)) {
        lx.skip_line();
        continue;
      }
      if (t.kind != K::name || t.text[0] != '.') lx.fail(t, "expected a directive (.version, .entry, .func, ...)");
      if (t.text == ".version") {
        Module m;
        const Token v = lx.next();
        if (v.kind != K::number) lx.fail(v, "expected the PTX version (.version 8.0)");
        m.version = std::string(v.text);
        p.modules.push_back(std::move(m));
        module = static_cast<int>(p.modules.size()) - 1;
      } else if (t.text == ".target") {
        std::string target;
        do {
          const Token n = lx.next();
          if (n.kind != K::name) lx.fail(n, "expected a target (sm_90)");
          target += (target.empty() ? "" : ",") + std::string(n.text);
        } while (lx.peek().is(',') && (lx.next(), true));
        current(t).target = target;
      } else if (t.text == ".address_size") {
        const Token n = lx.next();
        if (n.kind != K::number || (n.text != "32" && n.text != "64")) lx.fail(n, "expected 32 or 64");
      } else if (t.text == ".file") {
        const Token n = lx.next();
        std::uint64_t id = 0;
        if (n.kind != K::number || !ptx_integer(n.text, id) || id > 0xffffffffu) lx.fail(n, "expected a file number");
        const Token path = lx.next();
        if (path.kind != K::string) lx.fail(path, "expected the file's path in quotes");
        current(t).files[static_cast<u32>(id)] = std::string(path.text.substr(1, path.text.size() - 2));
        while (lx.peek().is(',')) lx.next(), lx.next();  // , timestamp, size
      } else if (t.text == ".visible" || t.text == ".weak" || t.text == ".extern" || t.text == ".common") {
        if (t.text == ".extern" && lx.peek().is_name(".shared")) {
          const Token s = lx.next();
          variable(s);
        }
        continue;  // linkage of what follows
      } else if (t.text == ".entry" || t.text == ".func") {
        function(t, t.text == ".entry");
      } else if (t.text == ".global" || t.text == ".const" || t.text == ".shared" || t.text == ".local" ||
                 t.text == ".tex" || t.text == ".surfref" || t.text == ".texref" || t.text == ".samplerref") {
        variable(t);
      } else if (t.text == ".pragma" || t.text == ".alias") {
        while (!lx.peek().is(';') && lx.peek().kind != K::end) lx.next();
        if (!lx.next().is(';')) lx.fail(t, "a directive that is never ended by ';'");
      } else if (t.text == ".section") {  // DWARF sections (-G): skipped whole
        while (!lx.peek().is('{') && lx.peek().kind != K::end) lx.next();
        const Token open = lx.next();
        if (!open.is('{')) lx.fail(t, "expected '{' after .section");
        (void)skip_body(lx, open, deadline);
      } else {
        lx.fail(t, "unknown directive '" + std::string(t.text) + "' at module scope");
      }
    }
  }
};

}  // namespace

Program parse_ptx(std::string text, const std::string& file, const ReadDeadline& deadline) {
  if (text.size() > kMaxPtxBytes)
    throw LayoutError(file + ": " + std::to_string(text.size()) + " bytes of PTX, more than the limit of " +
                      std::to_string(kMaxPtxBytes >> 20) + " MiB");
  Program p;
  p.file = file;
  p.text = std::move(text);
  ModuleReader r{p, Lexer(p.text, file, 0, p.text.size(), 1, 0), deadline, -1, {}};
  r.run();
  if (p.modules.empty()) throw LayoutError(file + ": no PTX module (.version ...) in the file");
  return p;
}

std::string demangle(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

std::vector<std::size_t> select_entries(const Program& p, const std::string& text) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < p.functions.size(); ++i) {
    const Function& f = p.functions[i];
    if (!f.is_entry || !p.bodies[i].has_body) continue;
    if (text.empty() || f.name.find(text) != std::string::npos || demangle(f.name).find(text) != std::string::npos)
      out.push_back(i);
  }
  return out;
}

}  // namespace layoutproof::compiled
