#pragma once
// Tilers: what composition, divides and products accept on the right (CuTe's Tiler concept).
//
// A tiler is a Layout, an integer n (meaning n:1), the underscore `_` (keep the mode), or a
// by-mode tuple of tilers, written in brackets: [8:1,(2,2):(1,4)] or [4,_,8].
#include <vector>

#include "model/layout/layout.hpp"

namespace layoutproof {

struct Tiler {
  enum class Kind { layout, integer, underscore, tuple };
  Kind kind = Kind::underscore;
  Layout layout;               // kind == layout
  i64 integer = 0;             // kind == integer
  bool integer_static = true;  // kind == integer: CuTe's _8 (true) or run-time 8 (false)
  std::vector<Tiler> modes;    // kind == tuple

  static Tiler of(Layout l) {
    Tiler t;
    t.kind = Kind::layout;
    t.layout = std::move(l);
    return t;
  }
  static Tiler of_int(i64 n, bool is_static = true) {
    Tiler t;
    t.kind = Kind::integer;
    t.integer = n;
    t.integer_static = is_static;
    return t;
  }
  static Tiler underscore() { return Tiler{}; }
  static Tiler by_mode(std::vector<Tiler> modes) {
    Tiler t;
    t.kind = Kind::tuple;
    t.modes = std::move(modes);
    return t;
  }
  bool is_tuple() const { return kind == Kind::tuple; }
};

}  // namespace layoutproof
