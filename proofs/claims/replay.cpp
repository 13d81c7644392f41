// Replay (conventions.md #5): a violation is reported only when model/ reproduces it.
#include "model/layout/notation.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::proofs {
namespace {

WitnessPoint point(const AnyLayout& l, const std::string& role, i64 index) {
  return {role, index, to_string(idx2crd(IntTuple(index), l.layout.shape)), evaluate(l, IntTuple(index))};
}

bool in_image(const AnyLayout& l, i64 o) {
  if (size(l.layout) > (i64{1} << 26)) throw LayoutError("replay: image too large to enumerate");
  for (i64 x : offsets(l))
    if (x == o) return true;
  return false;
}

// Returns the witness when v reproduces on the model, else an empty `why` with the mismatch.
Witness build(const Subject& s, const Claim& c, const Violation& v, std::string& mismatch) {
  Witness w;
  const AnyLayout& l = s.layout;
  auto fail = [&](std::string m) { mismatch = std::move(m); return Witness{}; };
  using K = Violation::Kind;
  if (s.bare_swizzle || v.kind == K::not_involution) {
    const Swizzle& sw = *l.swizzle;
    if (v.kind == K::not_involution) {
      const i64 once = sw.apply(v.a), twice = sw.apply(once);
      if (twice == v.a) return fail("Sw(Sw(v)) == v");
      w.points = {{"v", -1, "", v.a, "offset"}, {"Sw(v)", -1, "", once, "offset"}, {"Sw(Sw(v))", -1, "", twice, "offset"}};
      w.why = "Sw(Sw(" + std::to_string(v.a) + ")) = " + std::to_string(twice);
      return w;
    }
    if (v.kind != K::collision || v.a >= v.b || sw.apply(v.a) != sw.apply(v.b)) return fail("no collision");
    w.points = {{"x", -1, std::to_string(v.a), sw.apply(v.a), "offset"}, {"y", -1, std::to_string(v.b), sw.apply(v.b), "offset"}};
    w.why = "offsets " + std::to_string(v.a) + " and " + std::to_string(v.b) + " both map to " +
            std::to_string(sw.apply(v.a));
    return w;
  }
  const i64 n = size(l.layout);
  auto in_domain = [&](i64 i) { return i >= 0 && i < n; };
  switch (v.kind) {
    case K::collision: {
      if (!in_domain(v.a) || !in_domain(v.b) || v.a >= v.b) return fail("indices out of the domain");
      WitnessPoint x = point(l, "x", v.a), y = point(l, "y", v.b);
      if (x.offset != y.offset) return fail("no collision");
      w.points = {x, y};
      w.why = "two indices map to offset " + std::to_string(x.offset);
      return w;
    }
    case K::not_in_target: {
      if (!in_domain(v.a)) return fail("index out of the domain");
      WitnessPoint x = point(l, "x", v.a);
      if (c.kind == Claim::Kind::swizzle_permutes) {
        if (in_image(AnyLayout(l.layout), x.offset)) return fail("offset inside the inner image");
        w.why = "offset not in the inner layout's image";
      } else {
        if (x.offset >= 0 && x.offset < n) return fail("offset inside [0,size)");
        w.why = "offset outside [0," + std::to_string(n) + ")";
      }
      w.points = {x};
      return w;
    }
    case K::missing: {
      if (v.a < 0 || v.a >= c.n || in_image(l, v.a)) return fail("offset is covered");
      w.points = {{"missing", -1, "", v.a}};
      w.why = "no index maps to offset " + std::to_string(v.a);
      return w;
    }
    case K::not_contiguous: {
      if (!in_domain(v.a) || c.mode >= l.layout.rank()) return fail("index out of the domain");
      const i64 p_m = mode_stride_product(l.layout, c.mode), s_m = product(l.layout.shape[c.mode]);
      const i64 pos = (v.a / p_m) % s_m, j = pos % c.n, base = v.a - j * p_m;
      if (s_m % c.n != 0) {
        if (pos != s_m - s_m % c.n) return fail("not the first element of the incomplete group");
        w.points = {point(l, "x", v.a)};
        w.why = "mode " + std::to_string(c.mode) + " has size " + std::to_string(s_m) + ", not a multiple of " +
                std::to_string(c.n) + ": the last group is incomplete";
        return w;
      }
      WitnessPoint b = point(l, "base", base), x = point(l, "x", v.a);
      const bool aligned = ((b.offset % c.n) + c.n) % c.n == 0;
      if (aligned && x.offset == b.offset + j) return fail("the group is contiguous there");
      w.points = j == 0 ? std::vector<WitnessPoint>{x} : std::vector<WitnessPoint>{b, x};
      w.why = !aligned ? "group base offset " + std::to_string(b.offset) + " is not a multiple of " + std::to_string(c.n)
                       : "element " + std::to_string(j) + " of its group is at " + std::to_string(x.offset) +
                             ", not " + std::to_string(b.offset + j);
      return w;
    }
    case K::size_mismatch: {
      const i64 n2 = size(c.other->layout);
      if (n == n2 || v.a != std::min(n, n2)) return fail("sizes agree");
      w.why = "size " + std::to_string(n) + " != size " + std::to_string(n2);
      return w;
    }
    case K::mismatch: {
      if (!in_domain(v.a)) return fail("index out of the domain");
      WitnessPoint x = point(l, "x", v.a);
      if (c.kind == Claim::Kind::equivalent) {
        const i64 o2 = evaluate(*c.other, IntTuple(v.a));
        if (o2 == x.offset) return fail("L(x) == L2(x)");
        w.points = {x, {"L2(x)", v.a, x.coord, o2}};
        w.why = "L(x) = " + std::to_string(x.offset) + " but L2(x) = " + std::to_string(o2);
        return w;
      }
      const i64 nr = size(c.other->layout);
      w.points = {x};
      if (x.offset < 0 || x.offset >= nr) {
        w.why = "L(x) = " + std::to_string(x.offset) + " is outside R's domain [0," + std::to_string(nr) + ")";
        return w;
      }
      const i64 back = evaluate(*c.other, IntTuple(x.offset));
      if (back == v.a) return fail("R(L(x)) == x");
      w.points.push_back({"R(L(x))", -1, "", back, "index"});
      w.why = "R(L(x)) = " + std::to_string(back) + ", not " + std::to_string(v.a);
      return w;
    }
    default: return fail("violation kind does not fit the claim");
  }
}

}  // namespace

Verdict replay(const Subject& s, const Claim& c, const Violation& v, const std::string& method) {
  std::string mismatch;
  Witness w;
  try {
    w = build(s, c, v, mismatch);
  } catch (const LayoutError& e) {
    return Verdict::error(method, std::string("cannot replay the counterexample: ") + e.what());
  }
  if (!mismatch.empty())
    return Verdict::error(method, "encoding mismatch: the counterexample does not replay on the model (" + mismatch + ")");
  return Verdict::refuted(method, std::move(w));
}

}  // namespace layoutproof::proofs
