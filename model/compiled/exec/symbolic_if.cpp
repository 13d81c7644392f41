// Forward branches on conditions over the symbols (symbolic_if.hpp).
#include "model/compiled/exec/symbolic_if.hpp"

#include <algorithm>

namespace layoutproof::compiled {
namespace {

std::vector<Val> column(const Lane& ln) {
  const std::size_t rows = ln.file->v.size() / kWarpLanes;
  std::vector<Val> out;
  out.reserve(rows);
  for (std::size_t r = 0; r < rows; ++r) out.push_back(ln.file->at(static_cast<u32>(r), ln.lane));
  return out;
}

void restore(Lane& ln, const std::vector<Val>& regs) {
  for (std::size_t r = 0; r < regs.size(); ++r) ln.file->at(static_cast<u32>(r), ln.lane) = regs[r];
}

}  // namespace

bool SymbolicIf::room(Lane& ln, u32 line) {
  // Paths at once: 2 per open region under a condition (a decided lane's runs one side only).
  const std::size_t conditioned =
      1 + static_cast<std::size_t>(std::count_if(ln.pending.begin(), ln.pending.end(), [](const Lane::Pending& p) { return p.decided < 0; }));
  if (conditioned < 63 && (std::size_t{1} << conditioned) <= l_.max_paths) return true;
  h_.stop(ln, "line " + std::to_string(line) + ": more than " + std::to_string(l_.max_paths) +
                  " paths at once (ifs on conditions over the symbols nested " + std::to_string(conditioned) +
                  " deep; --max-paths raises the bound)");
  return false;
}

bool SymbolicIf::one_sided(Lane& ln, u32 fi, u32 join, u32 line) {
  if (!room(ln, line)) return false;
  Lane::Pending pd;
  pd.function = fi, pd.join = join, pd.depth = 1, pd.line = line, pd.path = ln.path;
  pd.regs = column(ln);
  pd.cells = ln.cells, pd.local = ln.local, pd.local_lost = ln.local_lost;
  ln.pending.push_back(std::move(pd));
  ++open_;
  return true;
}

bool SymbolicIf::two_sided(Lane& ln, u32 fi, u32 join, u32 line, int decided, u32 c, u32 taken, u32 other) {
  if (decided < 0 && !room(ln, line)) return false;
  Lane::Pending pd;
  pd.function = fi, pd.join = join, pd.depth = 1, pd.line = line, pd.path = ln.path;
  pd.two_sided = true, pd.decided = decided, pd.other = other, pd.other_path = ln.path;
  if (decided < 0) {
    const u32 side0 = m_.cond_and(ln.path, c), side1 = m_.cond_and(ln.path, m_.cond_not(c));
    if (side0 == Machine::kNoCond || side1 == Machine::kNoCond) {
      h_.stop(ln, "line " + std::to_string(line) + ": more conditions over the symbols than the run keeps");
      return false;
    }
    pd.regs = column(ln);
    pd.cells = ln.cells, pd.local = ln.local, pd.local_lost = ln.local_lost;
    pd.other_path = side1;
    ln.path = side0;
  }
  // A lane that does not take the branch waits at the join while side 0 runs.
  ln.stack.back().pc = decided == 0 ? join : taken;
  ln.pending.push_back(std::move(pd));
  ++open_;
  return true;
}

void SymbolicIf::at_join(Lane& ln) {
  while (!ln.pending.empty() && !ln.stack.empty()) {
    Lane::Pending& pd = ln.pending.back();
    const Frame& fr = ln.stack.back();
    if (pd.two_sided || ln.stack.size() != pd.depth || fr.function != pd.function || fr.pc != pd.join) return;
    const u32 why = m_.reason("a value written where a condition over the symbols held (the if at line " + std::to_string(pd.line) +
                              "): not known after it");
    merge(ln, pd.regs, pd.cells, pd.local, pd.local_lost, why);
    pop(ln);
  }
}

void SymbolicIf::next_side(Lane& ln) {
  Lane::Pending& pd = ln.pending.back();
  pd.side = 1;
  if (pd.decided == 1) return;  // it ran side 0, its own: it waits at the join
  if (pd.decided < 0) {  // side 0's end state kept; side 1 starts from the branch's
    pd.side0_regs = column(ln);
    pd.side0_cells = std::move(ln.cells), pd.side0_local = std::move(ln.local), pd.side0_local_lost = ln.local_lost;
    restore(ln, pd.regs);
    ln.cells = pd.cells, ln.local = pd.local, ln.local_lost = pd.local_lost;
    ln.path = pd.other_path;
  }
  ln.stack.back().pc = pd.other;
}

void SymbolicIf::close(Lane& ln) {
  Lane::Pending& pd = ln.pending.back();
  if (pd.decided < 0) {
    const u32 why = m_.reason("a value the two sides of the if/else at line " + std::to_string(pd.line) +
                              " (a condition over the symbols) compute differently: not known after it");
    merge(ln, pd.side0_regs, pd.side0_cells, pd.side0_local, pd.side0_local_lost, why);
  }
  pop(ln);
}

// The innermost region closes: the lane's path is the one it had at the branch again.
void SymbolicIf::pop(Lane& ln) {
  ln.path = ln.pending.back().path;
  ln.pending.pop_back();
  --open_;
}

void SymbolicIf::finished(Lane& ln) {
  open_ -= static_cast<i64>(ln.pending.size());
  ln.pending.clear();
}

std::vector<u32> SymbolicIf::sides_to_come(const Lane& ln) {
  std::vector<u32> out;
  for (const Lane::Pending& pd : ln.pending)
    if (pd.two_sided && pd.side == 0 && pd.decided < 0) out.push_back(pd.other);
  return out;
}

// The lane's state becomes what it and `regs` (cells, local) agree on; the rest not known, `why`.
void SymbolicIf::merge(Lane& ln, const std::vector<Val>& regs, const std::vector<Cell>& cells, const std::vector<LocalCell>& local,
                       u32 local_lost, u32 why) {
  for (std::size_t r = 0; r < regs.size(); ++r) {
    Val& now = ln.file->at(static_cast<u32>(r), ln.lane);
    if (!same_value(now, regs[r])) now = Val{0, why, -1, now.cta || regs[r].cta};
  }
  if (!same_cells(ln.cells, cells))
    for (Cell& c : ln.cells) c.value = Val{0, why, -1, false};
  if (!same_local(ln.local, ln.local_lost, local, local_lost)) ln.local.clear(), ln.local_lost = why;
}

// Equal values: identical, or one term computed on each side (the terms table does not intern).
bool SymbolicIf::same_value(const Val& a, const Val& b) const {
  if (identical(a, b)) return true;
  return a.sym && b.sym && a.symw == b.symw && a.placement == b.placement && a.cta == b.cta && a.window == b.window &&
         m_.terms[a.sym] == m_.terms[b.sym];
}

}  // namespace layoutproof::compiled
