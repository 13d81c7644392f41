#include "model/compiled/sass/sass_parse.hpp"

#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "model/compiled/sass/sass_lower.hpp"
#include "model/layout/notation.hpp"  // ParseError

namespace layoutproof::compiled {
namespace {

using namespace sass;

// The architecture a listing is for ("code for sm_90", ".target sm_90", EF_CUDA_SM90): 0 if none.
int arch_of_line(std::string_view l) {
  for (const std::string_view key : {std::string_view("sm_"), std::string_view("EF_CUDA_SM")}) {
    const std::size_t k = l.find(key);
    if (k == std::string_view::npos) continue;
    int v = 0;
    std::size_t i = k + key.size();
    while (i < l.size() && std::isdigit(static_cast<unsigned char>(l[i])) && v < 10000) v = v * 10 + (l[i++] - '0');
    if (v > 0) return v;
  }
  return 0;
}

struct Reader {
  Reader(Program& program, const ReadDeadline& d) : p(program), deadline(d) {}
  Program& p;
  const ReadDeadline& deadline;
  int arch = 0;
  bool data_section = false;  // inside a `.section` other than `.text.NAME` (nvdisasm without -c)
  std::optional<Lowering> cur;
  std::map<std::string, u32> file_ids;
  u32 loc_file = 0, loc_line = 0;
  u32 call_file = 0, call_line = 0;  // nvdisasm -gi: the outermost `inlined at` of the line (0: none)
  bool in_line_group = false;        // the last listing line was a //## line (a chain continues)
  std::vector<std::string> labels_waiting;  // labels seen before the next instruction

  [[noreturn]] void fail(u32 line, std::size_t line_start, std::size_t pos, const std::string& what) {
    const std::size_t eol = p.text.find('\n', line_start);
    std::string shown = p.text.substr(line_start, (eol == std::string::npos ? p.text.size() : eol) - line_start);
    for (char& c : shown)
      if (c == '\t' || c == '\r') c = ' ';
    if (shown.size() > 200) shown = shown.substr(0, 200);
    const std::size_t col = pos >= line_start ? pos - line_start + 1 : 1;
    throw ParseError::located(p.file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + what,
                              std::min(col, shown.size() + 1), shown);
  }

  void finish(u32 line, std::size_t line_start) {
    if (!cur) return;
    Lowering& lw = *cur;
    Function& f = lw.f;
    // A branch lands on an instruction of its function: a target anywhere else (past the end,
    // between two instructions) is malformed, never read as the next instruction or an exit.
    // A call whose target is not in this function's code (another section's function) stops the
    // lane there, with the reason: only that lane's later work is unknown, never the file.
    const auto unfollowed_call = [&](std::size_t k) {
      Instr& in = f.code[k];
      if (in.code.op != Op::call) return false;
      in.code.op = Op::bra;
      f.operands[in.first] = Operand{};
      return true;
    };
    for (const Lowering::PendingOffset& b : lw.pending_offsets) {
      Operand& o = f.operands[f.code[b.instr].first];
      const auto it = lw.first_of_offset.find(o.imm);
      if (it == lw.first_of_offset.end() && unfollowed_call(b.instr)) continue;
      if (it == lw.first_of_offset.end()) {
        const std::size_t start = p.text.rfind('\n', b.at == 0 ? 0 : b.at - 1);
        char hex[32];
        std::snprintf(hex, sizeof hex, "%#llx", static_cast<unsigned long long>(o.imm));
        fail(b.line, start == std::string::npos ? 0 : start + 1, b.at,
             std::string("a branch to offset ") + hex + ", which is not an instruction of " + f.name);
      }
      o.index = it->second;
    }
    for (const auto& [k, name] : lw.pending_names) {
      const auto it = lw.label_offsets.find(name);
      if (it == lw.label_offsets.end() && unfollowed_call(k)) continue;
      if (it == lw.label_offsets.end()) fail(line, line_start, line_start, "branch to '" + name + "', a label this function does not define");
      f.operands[f.code[k].first].index = lw.first_of_offset.at(it->second);
    }
    // A final EXIT so a lane that runs past the last instruction finishes.
    Instr ex;
    ex.code.op = Op::exit;
    ex.line = f.line;
    f.code.push_back(ex);
    f.decoded = true;
    cur.reset();
  }

  void start(const std::string& name, u32 line) {
    Function f;
    f.name = name;
    f.is_entry = true;
    f.line = line;
    ParamDecl buf;
    buf.name = "the parameter buffer";
    buf.type = Type{TypeKind::b, 8};
    buf.bytes = 4096;
    f.params.push_back(buf);
    f.param_slots = 1;
    f.registers = kTmp + kTmps;
    p.functions.push_back(std::move(f));
    BodyRange b;
    b.has_body = true;
    b.line = line;
    p.bodies.push_back(b);
    const int a = arch == 0 ? 90 : arch;
    if (a < 70 || a > 90)
      throw LayoutError(p.file + ": SASS for sm_" + std::to_string(a) + ": the constant bank layout is modelled for sm_70..sm_90 only");
    cur.emplace(p, p.functions.back(), a, a >= 90 ? 0x210 : 0x160);
    Lowering& lw = *cur;
    lw.line = line;
    Opcode t;  // PT and UPT: true
    t.op = Op::setp, t.type = Type{TypeKind::u, 32}, t.cmp = Cmp::eq;
    lw.emit(t, {Lowering::reg(kPT), Lowering::imm(0), Lowering::imm(0)}, false, false);
    lw.emit(t, {Lowering::reg(kUPT), Lowering::imm(0), Lowering::imm(0)}, false, false);
    loc_file = loc_line = 0;
    call_file = call_line = 0;
    in_line_group = false;
    labels_waiting.clear();
  }

  void instruction(std::string_view l, u32 line, std::size_t line_start, std::size_t close) {
    // "/*0230*/   @!P0 OPCODE.MODS operands ;"
    const auto off = parse_int("0x" + std::string(l.substr(2, close - 2)));
    if (!off) fail(line, line_start, line_start + static_cast<std::size_t>(l.data() - (p.text.data() + line_start)), "a hex offset /*0230*/");
    if (!cur) fail(line, line_start, line_start, "an instruction outside a function (no 'Function :' or '.text.NAME:' before it)");
    Lowering& lw = *cur;
    const std::size_t base = static_cast<std::size_t>(l.data() - p.text.data());
    std::size_t i = close + 2;
    while (i < l.size() && std::isspace(static_cast<unsigned char>(l[i]))) ++i;
    const std::size_t semi = l.find(';', i);
    if (semi == std::string_view::npos) fail(line, line_start, base + l.size(), "';' at the end of the instruction");
    const std::size_t begin = i;
    lw.guard = -1, lw.guard_neg = false;
    if (i < l.size() && l[i] == '@') {
      std::size_t e = i + 1;
      while (e < semi && !std::isspace(static_cast<unsigned char>(l[e]))) ++e;
      std::string_view g = l.substr(i + 1, e - i - 1);
      if (!g.empty() && g[0] == '!') lw.guard_neg = true, g.remove_prefix(1);
      const RegName r = reg_name(g);
      if (!r.ok || !r.pred) fail(line, line_start, base + i, "a guard predicate (@P0, @!PT, @UP1), not '@" + std::string(g) + "'");
      lw.guard = r.reg;
      i = e;
      while (i < semi && std::isspace(static_cast<unsigned char>(l[i]))) ++i;
    }
    std::size_t e = i;
    while (e < semi && !std::isspace(static_cast<unsigned char>(l[e]))) ++e;
    const std::string_view opcode = l.substr(i, e - i);
    if (opcode.empty() || !std::isupper(static_cast<unsigned char>(opcode[0])))
      fail(line, line_start, base + i, "an opcode (LDS, IMAD, ...)");
    lw.line = line;
    lw.text_begin = static_cast<u32>(base + begin);
    lw.text_end = static_cast<u32>(base + semi);
    lw.loc_file = loc_file, lw.loc_line = loc_line;
    lw.call_file = call_file, lw.call_line = call_line;
    in_line_group = false;
    lw.offset = *off;
    lw.first_of_offset.emplace(*off, static_cast<u32>(lw.f.code.size()));
    for (const std::string& name : labels_waiting) lw.label_offsets[name] = *off;
    labels_waiting.clear();
    lw.error.clear();
    lw.lower(opcode, l.substr(e, semi - e), base + e);
    if (!lw.error.empty()) fail(line, line_start, lw.error_at == 0 ? base + i : lw.error_at, lw.error);
  }

  void read() {
    const std::string& t = p.text;
    std::size_t pos = 0;
    u32 line = 0;
    while (pos < t.size()) {
      const std::size_t eol = t.find('\n', pos);
      const std::size_t end = eol == std::string::npos ? t.size() : eol;
      ++line;
      if ((line & 0xfff) == 0) check_deadline(deadline, [&] { return "while reading " + p.file + ", at line " + std::to_string(line); });
      const std::size_t line_start = pos;
      std::string_view l = trim(std::string_view(t).substr(pos, end - pos));
      pos = end + 1;
      if (l.empty()) continue;
      if (starts_with(l, ".section") && l.size() > 8 && std::isspace(static_cast<unsigned char>(l[8]))) {  // nvdisasm's ELF sections: code in .text.NAME alone
        finish(line, line_start);
        data_section = !starts_with(trim(l.substr(8)), ".text.");
        continue;
      }
      if (data_section) continue;
      if (const std::size_t k = l.find("Function : "); k != std::string_view::npos && !starts_with(l, "/*")) {
        finish(line, line_start);
        start(std::string(trim(l.substr(k + 11))), line);
        continue;
      }
      if (starts_with(l, ".text.") && l.back() == ':') {
        finish(line, line_start);
        start(std::string(l.substr(6, l.size() - 7)), line);
        continue;
      }
      if (starts_with(l, "//## File \"")) {  // nvdisasm -g: //## File "path", line N[ inlined at "path", line N ...]
        // Each `"path", line N` in turn: the line itself, then (nvdisasm -gi) every call site it
        // was inlined at, innermost first; the last is the user's line in the kernel's own code.
        std::vector<std::pair<u32, u32>> places;
        for (std::size_t at = 10; at < l.size() && l[at] == '"';) {
          const std::size_t q = l.find('"', at + 1);
          const std::size_t n = l.find("line ", q == std::string_view::npos ? 0 : q);
          if (q == std::string_view::npos || n == std::string_view::npos) break;
          const std::string path(l.substr(at + 1, q - at - 1));
          const auto [it, fresh] = file_ids.try_emplace(path, static_cast<u32>(file_ids.size() + 1));
          if (fresh) p.modules[0].files[it->second] = path;
          std::size_t d = n + 5, v = 0;
          while (d < l.size() && std::isdigit(static_cast<unsigned char>(l[d])) && v < 100000000) v = v * 10 + static_cast<std::size_t>(l[d++] - '0');
          places.emplace_back(it->second, static_cast<u32>(v));
          const std::size_t next = l.find("inlined at \"", d);
          if (next == std::string_view::npos) break;
          at = next + 11;
        }
        // nvdisasm -gi writes a chain as consecutive lines, innermost first ("h:97 inlined at
        // g:509", "g:509 inlined at k.cu:112", "k.cu:112"): within one run of such lines before an
        // instruction the first names the code's own line and the last the user's.
        if (!places.empty()) {
          if (!in_line_group) loc_file = places.front().first, loc_line = places.front().second;
          const auto outer = places.back();
          const bool inlined = outer != std::make_pair(loc_file, loc_line);
          call_file = inlined ? outer.first : 0, call_line = inlined ? outer.second : 0;
          in_line_group = true;
        }
        continue;
      }
      if (starts_with(l, "/*") && l.size() > 6 && l.find("*/") != std::string_view::npos && std::isxdigit(static_cast<unsigned char>(l[2]))) {
        const std::size_t close = l.find("*/");
        const std::string_view inner = l.substr(2, close - 2);
        if (starts_with(inner, " 0x") || starts_with(inner, "0x")) continue;  // an encoding line
        instruction(l, line, line_start, close);
        continue;
      }
      if (starts_with(l, "/*") || starts_with(l, "//") || l[0] == '.' || l[0] == '#') {
        if (const int a = arch_of_line(l); a > 0 && (l.find("code for") != std::string_view::npos || starts_with(l, ".target") ||
                                                   l.find("EF_CUDA_SM") != std::string_view::npos) && arch == 0)
          arch = a;
        if (l[0] == '.' && l.back() == ':' && cur) labels_waiting.emplace_back(l.substr(0, l.size() - 1));  // .L_x_14:
        continue;
      }
      if (l.find("code for sm_") != std::string_view::npos) {
        arch = arch_of_line(l);
        continue;
      }
      if (l.back() == ':' && l.find(' ') == std::string_view::npos) {  // a function's symbol (nvdisasm) or a label
        if (cur) labels_waiting.emplace_back(l.substr(0, l.size() - 1));
        continue;
      }
      if (starts_with(l, "Fatbin ") || starts_with(l, "=====") || starts_with(l, "arch =") || starts_with(l, "code version") ||
          starts_with(l, "host =") || starts_with(l, "compile_size") || starts_with(l, "identifier") || starts_with(l, "ptxasOptions") ||
          starts_with(l, "has debug") || l == "compressed" || l == "uncompressed" || l.find_first_not_of('.') == std::string_view::npos)
        continue;  // cuobjdump's banners, and the dotted line between its functions
      fail(line, line_start, line_start + static_cast<std::size_t>(l.data() - (t.data() + line_start)),
           "not SASS as cuobjdump -sass or nvdisasm print it (an instruction is '/*0230*/ OPCODE operands ;')");
    }
    finish(line, line_start_of_last());
    if (p.functions.empty()) throw LayoutError(p.file + ": no SASS function (cuobjdump -sass prints 'Function : NAME' before each)");
  }
  std::size_t line_start_of_last() const {
    const std::size_t k = p.text.rfind('\n', p.text.empty() ? 0 : p.text.size() - 1);
    return k == std::string::npos ? 0 : k + 1;
  }
};

}  // namespace

bool looks_like_sass(const std::string& text) {
  const std::string_view head = std::string_view(text).substr(0, 1 << 16);
  if (head.find(".entry") != std::string_view::npos || head.find(".visible") != std::string_view::npos) return false;
  return head.find("Function : ") != std::string_view::npos || head.find("/*0000*/") != std::string_view::npos;
}

Program parse_sass(std::string text, const std::string& file, const ReadDeadline& deadline) {
  Program p;
  p.file = file;
  p.text = std::move(text);
  p.modules.push_back(Module{});
  p.format = CompiledFormat::sass;
  p.shared_window_base = 0x400;
  Reader r(p, deadline);
  r.read();
  return p;
}

}  // namespace layoutproof::compiled
