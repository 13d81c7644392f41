// Post-dominators and separate paths of a function's control-flow graph (ptx_cfg.hpp).
#include "model/compiled/ptx_cfg.hpp"

#include <algorithm>

namespace layoutproof::compiled {

std::vector<u32> successors(const Function& f, u32 i) {
  const Instr& in = f.code[i];
  const u32 n = static_cast<u32>(f.code.size());
  const u32 next = i + 1;  // == n: exit
  std::vector<u32> out;
  switch (in.code.op) {
    case Op::bra: {
      const bool label = in.count > 0 && f.operands[in.first].kind == Operand::Kind::label;
      out.push_back(label ? std::min(f.operands[in.first].index, n) : n);
      break;
    }
    case Op::ret: case Op::exit: out.push_back(n); break;
    default: out.push_back(next); return out;
  }
  if (in.guard >= 0 && std::find(out.begin(), out.end(), next) == out.end()) out.push_back(next);
  return out;
}

Cfg build_cfg(const Function& f) {
  const u32 n = static_cast<u32>(f.code.size());
  Cfg g;
  g.exit = n;
  // Forward successors (CSR) and predecessors: the reverse graph's edges.
  std::vector<u32> succ_begin(n + 2, 0), succ;
  for (u32 i = 0; i < n; ++i) {
    const std::vector<u32> s = successors(f, i);
    succ.insert(succ.end(), s.begin(), s.end());
    succ_begin[i + 1] = static_cast<u32>(succ.size());
  }
  succ_begin[n + 1] = static_cast<u32>(succ.size());
  std::vector<u32> pred_begin(n + 2, 0), pred(succ.size());
  for (const u32 s : succ) ++pred_begin[s + 1];
  for (u32 v = 0; v <= n; ++v) pred_begin[v + 1] += pred_begin[v];
  std::vector<u32> fill(pred_begin.begin(), pred_begin.end() - 1);
  for (u32 i = 0; i < n; ++i)
    for (u32 e = succ_begin[i]; e < succ_begin[i + 1]; ++e) pred[fill[succ[e]]++] = i;
  // Postorder of the reverse graph from exit (iterative depth-first search over predecessors).
  constexpr u32 kUnseen = Cfg::kNone;
  std::vector<u32> po(n + 1, kUnseen), order;
  order.reserve(n + 1);
  std::vector<std::pair<u32, u32>> stack{{n, pred_begin[n]}};
  std::vector<bool> seen(n + 1, false);
  seen[n] = true;
  while (!stack.empty()) {
    auto& [v, e] = stack.back();
    if (e < pred_begin[v + 1]) {
      const u32 w = pred[e++];
      if (!seen[w]) {
        seen[w] = true;
        stack.push_back({w, pred_begin[w]});
      }
      continue;
    }
    po[v] = static_cast<u32>(order.size());
    order.push_back(v);
    stack.pop_back();
  }
  // idom in the reverse graph = ipdom; iterate in reverse postorder until nothing changes.
  std::vector<u32> idom(n + 1, kUnseen);
  idom[n] = n;
  const auto intersect = [&](u32 a, u32 b) {
    while (a != b) {
      while (po[a] < po[b]) a = idom[a];
      while (po[b] < po[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const u32 v = *it;
      if (v == n) continue;
      u32 best = kUnseen;
      for (u32 e = succ_begin[v]; e < succ_begin[v + 1]; ++e) {  // v's predecessors in the reverse graph
        const u32 p = succ[e];
        if (idom[p] == kUnseen) continue;
        best = best == kUnseen ? p : intersect(p, best);
      }
      if (best != idom[v]) idom[v] = best, changed = true;
    }
  }
  g.ipdom.assign(idom.begin(), idom.begin() + n);
  return g;
}

bool separate_paths(const Function& f, const Cfg& g, u32 b) {
  const u32 join = g.ipdom[b];
  if (join == Cfg::kNone) return false;
  std::vector<u32> owner(g.exit + 1, Cfg::kNone);  // the path that reached each instruction
  int calling = 0;                                  // paths that call a function
  const std::vector<u32> starts = successors(f, b);
  for (u32 path = 0; path < starts.size(); ++path) {
    bool calls = false;
    std::vector<u32> todo{starts[path]};
    while (!todo.empty()) {
      const u32 v = todo.back();
      todo.pop_back();
      if (v == join || v == g.exit || owner[v] == path) continue;
      if (owner[v] != Cfg::kNone) return false;  // reached by another path before the join
      owner[v] = path;
      calls = calls || f.code[v].code.op == Op::call;
      for (const u32 w : successors(f, v)) todo.push_back(w);
    }
    calling += calls;
  }
  return calling <= 1;
}

}  // namespace layoutproof::compiled
