#!/usr/bin/env python3
"""Fixed-seed random layout-algebra cases as C++ CASE lines for algebra_reference.hpp.

  gen_random_cases.py --seed S --count N --chunk C OUTDIR     writes OUTDIR/random_K.cu

Layouts mix static (Int<8>{}) and dynamic (8) leaves, nest to depth 2, and take strides of several
kinds (compact, padded, permuted, broadcast 0, negative, arbitrary), so that CuTe's results cover
merged and unmerged modes, exact and inexact divisions, and cases CuTe refuses at compile time or
returns results that break the operation's definition. Sizes stay small (<= 512) so that the
definition checks enumerate cheaply. The same seed always gives the same cases.
"""
import argparse
import os
import random


class Leaf:
    def __init__(self, v, static, path=None):
        self.v, self.static, self.path = v, static, path  # path: a basis stride (E<path...>)

    def cpp(self):
        num = "Int<%d>{}" % self.v if self.static else "int(%d)" % self.v
        if self.path is None:
            return num
        return "(%s * E<%s>{})" % (num, ",".join(map(str, self.path)))


def tup(kind, xs):
    return "make_%s(%s)" % (kind, ", ".join(cpp(x, kind) for x in xs))


def cpp(x, kind="shape"):
    if isinstance(x, Leaf):
        return x.cpp()
    return tup(kind, x)


def leaves(x):
    return [x] if isinstance(x, Leaf) else [l for c in x for l in leaves(c)]


def size(shape):
    p = 1
    for l in leaves(shape):
        p *= l.v
    return p


def nest(flat, rng, depth=2):
    """Groups a flat list into a random nesting (a lone leaf is a leaf, sometimes a 1-tuple)."""
    if len(flat) == 1:
        return flat[0] if rng.random() < 0.85 else [flat[0]]
    if depth == 0 or rng.random() < 0.5:
        return list(flat)
    out, i = [], 0
    while i < len(flat):
        k = rng.randint(1, min(3, len(flat) - i))
        out.append(nest(flat[i:i + k], rng, depth - 1) if k > 1 else flat[i])
        i += k
    return out


def restructure(template, flat):
    """flat values in the nesting of template."""
    it = iter(flat)

    def go(t):
        if isinstance(t, Leaf):
            return next(it)
        return [go(c) for c in t]
    return go(template)


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def st(self, p_static=0.7):
        return self.rng.random() < p_static

    def shape_values(self, n, max_size=256, p_one=0.0):
        vals = []
        for _ in range(n):
            vals.append(1 if p_one and self.rng.random() < p_one else self.rng.choice([1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 8, 8, 16]))
        while self.prod(vals) > max_size:
            i = self.rng.randrange(n)
            vals[i] = max(1, vals[i] // 2)
        return vals

    @staticmethod
    def prod(vals):
        p = 1
        for v in vals:
            p *= v
        return p

    def strides(self, shape, kind):
        n = len(shape)
        order = list(range(n))
        if kind in ("permuted", "padded_permuted"):
            self.rng.shuffle(order)
        d, cur = [0] * n, 1
        for i in order:
            d[i] = cur
            pad = self.rng.choice([1, 1, 2, 3]) if kind in ("padded", "padded_permuted") else 1
            cur *= shape[i] * pad
        if kind == "broadcast":
            for i in range(n):
                if self.rng.random() < 0.4:
                    d[i] = 0
        if kind == "general":
            d = [self.rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 12, 16, -1, -2]) for _ in range(n)]
        if kind == "negative":
            i = self.rng.randrange(n)
            d[i] = -d[i] if d[i] else -1
        return d

    def layout(self, max_modes=4, max_size=256, kind=None, p_static=0.7, static_strides=False, nested=True, p_one=0.0):
        n = self.rng.randint(1, max_modes)
        s = self.shape_values(n, max_size, p_one)
        kind = kind or self.rng.choice(["compact", "compact", "padded", "permuted", "padded_permuted", "broadcast",
                                        "general", "negative"])
        d = self.strides(s, kind)
        flat_s = [Leaf(v, self.st(p_static)) for v in s]
        flat_d = [Leaf(v, True if static_strides else self.st(p_static)) for v in d]
        tmpl = nest(flat_s, self.rng) if nested else (flat_s if n > 1 else flat_s[0])
        return (restructure(tmpl, flat_s), restructure(tmpl, flat_d))

    def layout_cpp(self, l):
        return "make_layout(%s, %s)" % (cpp(l[0], "shape"), cpp(l[1], "stride"))

    def int_cpp(self, v, p_static=0.7):
        return Leaf(v, self.st(p_static)).cpp()

    def tiler(self, l, depth=0):
        """A tiler for layout l: a layout, an integer, or (at the top) a by-mode tuple."""
        shape = l[0]
        r = self.rng.random()
        if depth == 0 and not isinstance(shape, Leaf) and r < 0.4:
            modes = []
            k = self.rng.randint(1, len(shape))
            for i in range(k):
                sub = (shape[i], l[1][i])
                c = self.rng.random()
                if i > 0 and c < 0.15:
                    modes.append("_")
                else:
                    modes.append(self.tiler(sub, depth + 1))
            return "make_tile(%s)" % ", ".join(modes)
        n = size(shape)
        divisors = [x for x in range(1, n + 1) if n % x == 0] or [1]
        if r < 0.6:
            t = self.rng.choice(divisors + [2, 4])
            return self.int_cpp(t)
        t = self.layout(max_modes=2, max_size=max(2, n), kind=self.rng.choice(["compact", "padded", "permuted", "general"]))
        return self.layout_cpp(t)

    def swizzle(self):
        b = self.rng.randint(1, 3)
        m = self.rng.randint(0, 4)
        s = self.rng.choice([b, b + 1, b + 2, -b, -(b + 1)])
        return (b, m, s)

    def swizzled_cpp(self, l, offset=None):
        b, m, s = self.swizzle()
        off = offset if offset is not None else "Int<0>{}"
        return "composition(Swizzle<%d,%d,%d>{}, %s, %s)" % (b, m, s, off, self.layout_cpp(l))


def wide_ops(g):
    """Extra kinds (--mix wide): offsets on swizzles, smem_ptr forms through every operation, nested
    tilers and profiles, tuple cotargets, larger and deeper layouts, dynamic tilers."""
    rng, L, lc = g.rng, g.layout, g.layout_cpp

    def offset():
        return rng.choice(["Int<0>{}", "Int<4>{}", "Int<16>{}", "int(0)", "int(8)"])

    def smem(l):
        b, m, s = g.swizzle()
        return "composition(Swizzle<%d,%d,%d>{}, smem_ptr_flag_bits<%d>{}, %s)" % (b, m, s, rng.choice([8, 16, 32, 64]), lc(l))

    def nested_tiler(l):
        shape = l[0]
        if isinstance(shape, Leaf):
            return g.tiler(l)
        modes = []
        for i in range(rng.randint(1, len(shape))):
            sub = (shape[i], l[1][i])
            if not isinstance(sub[0], Leaf) and rng.random() < 0.5:
                modes.append(nested_tiler(sub))
            elif i > 0 and rng.random() < 0.2:
                modes.append("_")
            else:
                modes.append(g.tiler(sub, 1))
        return "make_tile(%s)" % ", ".join(modes)

    def profile(l):
        shape = l[0]
        if isinstance(shape, Leaf):
            return "Int<1>{}"
        k = rng.randint(1, len(shape))
        return "make_shape(%s)" % ", ".join(
            "make_shape(%s)" % ", ".join("Int<1>{}" for _ in shape[i]) if (not isinstance(shape[i], Leaf) and rng.random() < 0.5)
            else "Int<1>{}" for i in range(k))

    return [
        (4, lambda: (lambda l: "logical_divide_case(%s, %s)" % (g.swizzled_cpp(l, offset()), g.tiler(l)))(L())),
        (2, lambda: "coalesce_case(%s)" % g.swizzled_cpp(L(), offset())),
        (3, lambda: "right_inverse_case(%s)" % g.swizzled_cpp(L(max_modes=3, max_size=64, p_static=1.0), offset())),
        (3, lambda: "left_inverse_case(%s)" % g.swizzled_cpp(L(max_modes=3, max_size=64, p_static=1.0, static_strides=True), offset())),
        (3, lambda: "composition_case(%s, %s)" % (lc(L(max_modes=2, max_size=64, p_static=1.0)),
                                                  g.swizzled_cpp(L(max_modes=2, max_size=64, p_static=1.0), offset()))),
        (3, lambda: (lambda l: "%s(%s)" % (rng.choice(["right_inverse_case", "left_inverse_case", "coalesce_case", "complement_case"]),
                                           smem(l)))(L(max_modes=2, max_size=64, p_static=1.0))),
        (2, lambda: "composition_case(%s, %s)" % (lc(L(max_modes=2, max_size=64, p_static=1.0)), smem(L(max_modes=2, max_size=64, p_static=1.0)))),
        (2, lambda: "max_common_vector_case(%s, %s)" % (smem(L(max_modes=2, max_size=64, kind="compact", p_static=1.0)),
                                                        lc(L(max_modes=2, max_size=64, kind="compact", p_static=1.0)))),
        (6, lambda: (lambda l: "%s(%s, %s)" % (rng.choice(["logical_divide_case", "zipped_divide_case", "tiled_divide_case", "flat_divide_case",
                                                           "composition_case"]), lc(l), nested_tiler(l)))(L(max_modes=5, max_size=1024))),
        (4, lambda: (lambda l: "%s(%s, %s)" % (rng.choice(["logical_product_case", "zipped_product_case", "tiled_product_case",
                                                           "flat_product_case"]), lc(l), nested_tiler_product(g, l)))(L(max_modes=3, max_size=16))),
        (3, lambda: (lambda l: "coalesce_case(%s, %s)" % (lc(l), profile(l)))(L(max_modes=5, max_size=1024))),
        (4, lambda: "complement_case(%s, %s)" % (lc(L(max_modes=3, max_size=64, static_strides=rng.random() < 0.8)),
                                                 "make_shape(%s, make_shape(%s, %s))" % (g.int_cpp(rng.choice([2, 4, 8])),
                                                                                        g.int_cpp(rng.choice([2, 3])), g.int_cpp(rng.choice([1, 2, 4]))))),
        (6, lambda: "composition_case(%s, %s)" % (lc(L(max_modes=5, max_size=1024)), lc(L(max_modes=4, max_size=256, kind=rng.choice(["general", "negative", "padded", "broadcast"]))))),
        (4, lambda: "%s(%s)" % (rng.choice(["right_inverse_case", "left_inverse_case"]), lc(L(max_modes=6, max_size=1024, kind=rng.choice(["negative", "general", "padded_permuted", "broadcast"]), static_strides=rng.random() < 0.8)))),
        (3, lambda: "%s(%s, %s)" % (rng.choice(["blocked_product_case", "raked_product_case"]), lc(L(max_modes=3, max_size=16)), lc(L(max_modes=3, max_size=16)))),
        (2, lambda: "max_common_layout_case(%s, %s)" % (lc(L(max_modes=4, max_size=256)), lc(L(max_modes=4, max_size=256)))),
        (2, lambda: "make_layout_like_case(%s)" % lc(L(max_modes=5, max_size=1024))),
        (2, lambda: "nullspace_case(%s)" % lc(L(max_modes=5, max_size=1024, kind="broadcast", p_static=0.5))),
        (1, lambda: "domain_distribute_case(%s, Int<%d>{})" % (cpp([[Leaf(rng.choice([2, 3, 4, 8, 16]), True) for _ in range(2)],
                                                                     Leaf(rng.choice([3, 5, 6, 64]), True)]), rng.choice([4, 12, 30, 256]))),
    ]


def dynamic_ops(g):
    """--mix dynamic: run-time ints throughout (half of the leaves dynamic, a quarter of the extents 1,
    as _1 or as a run-time 1) through every operation. CuTe drops a size-1 mode only where it can prove
    the size 1 at compile time, so these results keep modes that the all-static form drops
    (complement 12:1 for 60 is (1,5):(_1,12)); the run-time tilers, cotargets and product tilers
    exercise the same in the divides and products."""
    rng, lc = g.rng, g.layout_cpp

    def L(**kw):
        kw.setdefault("p_static", 0.5)
        kw.setdefault("p_one", 0.25)
        return g.layout(**kw)

    def tiler(l, depth=0):
        shape = l[0]
        r = rng.random()
        if depth == 0 and not isinstance(shape, Leaf) and r < 0.4:
            modes = []
            for i in range(rng.randint(1, len(shape))):
                if i > 0 and rng.random() < 0.15:
                    modes.append("_")
                else:
                    modes.append(tiler((shape[i], l[1][i]), depth + 1))
            return "make_tile(%s)" % ", ".join(modes)
        n = size(shape)
        if r < 0.6:
            return g.int_cpp(rng.choice([x for x in range(1, n + 1) if n % x == 0] + [1, 2, 4]), 0.5)
        return lc(L(max_modes=2, max_size=max(2, n), kind=rng.choice(["compact", "padded", "permuted", "general"])))

    def product_tiler():
        if rng.random() < 0.3:
            return g.int_cpp(rng.choice([1, 2, 3, 4]), 0.5)
        return lc(L(max_modes=2, max_size=16, kind=rng.choice(["compact", "permuted", "padded", "broadcast"])))

    def cotarget():
        if rng.random() < 0.3:
            return "make_shape(%s, %s)" % (g.int_cpp(rng.choice([1, 2, 4, 8]), 0.5), g.int_cpp(rng.choice([1, 2, 3, 4]), 0.5))
        return g.int_cpp(rng.choice([1, 2, 5, 8, 16, 24, 32, 53, 60, 64, 128]), 0.5)

    def profile(l):
        shape = l[0]
        if isinstance(shape, Leaf):
            return "Int<1>{}"
        return "make_shape(%s)" % ", ".join("Int<1>{}" for _ in range(rng.randint(1, len(shape))))

    def pick(names):
        return rng.choice(names)

    return [
        (8, lambda: "complement_case(%s)" % lc(L(max_modes=3, max_size=64, static_strides=rng.random() < 0.6))),
        (6, lambda: "complement_case(%s, %s)" % (lc(L(max_modes=3, max_size=64, static_strides=rng.random() < 0.6)), cotarget())),
        (10, lambda: "composition_case(%s, %s)" % (lc(L(max_size=128)), lc(L(max_modes=3, max_size=64)))),
        (6, lambda: (lambda a: "composition_case(%s, %s)" % (lc(a), tiler(a)))(L(max_size=256))),
        (8, lambda: (lambda l: "logical_divide_case(%s, %s)" % (lc(l), tiler(l)))(L())),
        (6, lambda: (lambda l: "%s(%s, %s)" % (pick(["zipped_divide_case", "tiled_divide_case", "flat_divide_case"]), lc(l), tiler(l)))(L())),
        (6, lambda: "logical_product_case(%s, %s)" % (lc(L(max_modes=3, max_size=32)), product_tiler())),
        (6, lambda: "%s(%s, %s)" % (pick(["zipped_product_case", "tiled_product_case", "flat_product_case"]),
                                    lc(L(max_modes=3, max_size=32)), product_tiler())),
        (6, lambda: "%s(%s, %s)" % (pick(["blocked_product_case", "raked_product_case"]), lc(L(max_modes=2, max_size=16, nested=False)),
                                    lc(L(max_modes=2, max_size=16, nested=False)))),
        (5, lambda: "right_inverse_case(%s)" % lc(L(max_modes=4))),
        (5, lambda: "left_inverse_case(%s)" % lc(L(max_modes=4, static_strides=rng.random() < 0.9))),
        (4, lambda: "coalesce_case(%s)" % lc(L(max_modes=5))),
        (2, lambda: (lambda l: "coalesce_case(%s, %s)" % (lc(l), profile(l)))(L(max_modes=4))),
        (3, lambda: "%s(%s, %s)" % (pick(["max_common_vector_case", "max_common_layout_case"]),
                                    lc(L(max_modes=3, max_size=64, kind=pick(["compact", "permuted", "padded"]))),
                                    lc(L(max_modes=3, max_size=64, kind=pick(["compact", "permuted", "padded"]))))),
        (2, lambda: "nullspace_case(%s)" % lc(L(kind="broadcast"))),
        (2, lambda: "make_layout_like_case(%s)" % lc(L(kind=pick(["permuted", "padded_permuted", "broadcast", "general"])))),
    ]


def dynamic_extra_cases(seed, count):
    """--mix dynamic, after its --count cases: filter, size and cosize (CuTe prints _512 for a size known
    at compile time, 512 for a run-time one), from their own stream (seed + 1) so that the cases before
    them stay those of the mix alone."""
    g = Gen(seed + 1)
    rng = g.rng
    out = []
    for _ in range(count):
        l = g.layout(max_modes=5, p_static=0.5, p_one=0.25, kind=rng.choice(["compact", "padded", "broadcast", "general"]))
        out.append("%s(%s)" % (rng.choice(["filter_case", "filter_case", "size_case", "cosize_case"]), g.layout_cpp(l)))
    return out


def nested_tiler_product(g, l):
    shape = l[0]
    if isinstance(shape, Leaf) or g.rng.random() < 0.5:
        return product_tiler(g)
    return "make_tile(%s)" % ", ".join(product_tiler(g) if g.rng.random() < 0.8 else "_" for _ in range(g.rng.randint(1, len(shape))))


def cases(seed, count, mix="default"):
    g = Gen(seed)
    rng = g.rng
    out = []
    L = g.layout
    lc = g.layout_cpp
    ops = [
        (8, lambda: "coalesce_case(%s)" % lc(L(max_modes=5))),
        (2, lambda: (lambda l: "coalesce_case(%s, %s)" % (lc(l), cpp([Leaf(1, True) for _ in range(len(l[0]))])
                                                          if not isinstance(l[0], Leaf) else "Int<1>{}"))(L(max_modes=4))),
        (14, lambda: "composition_case(%s, %s)" % (lc(L(max_size=128)), lc(L(max_modes=3, max_size=64)))),
        (6, lambda: (lambda a: "composition_case(%s, %s)" % (lc(a), g.tiler(a)))(L(max_size=256))),
        (2, lambda: basis_composition(g)),
        (10, lambda: "complement_case(%s)" % lc(L(max_modes=3, max_size=64, static_strides=rng.random() < 0.7))),
        (6, lambda: "complement_case(%s, %s)" % (lc(L(max_modes=3, max_size=64, static_strides=rng.random() < 0.7)),
                                                 cotarget(g))),
        (7, lambda: "right_inverse_case(%s)" % lc(L(max_modes=4))),
        (7, lambda: "left_inverse_case(%s)" % lc(L(max_modes=4, static_strides=rng.random() < 0.9))),
        (9, lambda: (lambda l: "logical_divide_case(%s, %s)" % (lc(l), g.tiler(l)))(L())),
        (2, lambda: (lambda l: "zipped_divide_case(%s, %s)" % (lc(l), g.tiler(l)))(L())),
        (2, lambda: (lambda l: "tiled_divide_case(%s, %s)" % (lc(l), g.tiler(l)))(L())),
        (2, lambda: (lambda l: "flat_divide_case(%s, %s)" % (lc(l), g.tiler(l)))(L())),
        (7, lambda: "logical_product_case(%s, %s)" % (lc(L(max_modes=3, max_size=32)), product_tiler(g))),
        (2, lambda: "zipped_product_case(%s, %s)" % (lc(L(max_modes=3, max_size=32)), product_tiler(g))),
        (2, lambda: "tiled_product_case(%s, %s)" % (lc(L(max_modes=3, max_size=32)), product_tiler(g))),
        (2, lambda: "flat_product_case(%s, %s)" % (lc(L(max_modes=3, max_size=32)), product_tiler(g))),
        (3, lambda: "blocked_product_case(%s, %s)" % (lc(L(max_modes=2, max_size=16, nested=False)),
                                                      lc(L(max_modes=2, max_size=16, nested=False)))),
        (3, lambda: "raked_product_case(%s, %s)" % (lc(L(max_modes=2, max_size=16, nested=False)),
                                                    lc(L(max_modes=2, max_size=16, nested=False)))),
        (4, lambda: common_case(g, "max_common_vector_case")),
        (4, lambda: common_case(g, "max_common_layout_case")),
        (2, lambda: "nullspace_case(%s)" % lc(L(kind="broadcast"))),
        (3, lambda: "make_layout_like_case(%s)" % lc(L(kind=rng.choice(["permuted", "padded_permuted", "broadcast", "general"])))),
        (2, lambda: domain_case(g)),
        (3, lambda: "composition_case(%s, %s)" % (lc(L(max_modes=2, max_size=64, p_static=1.0)),
                                                  g.swizzled_cpp(L(max_modes=2, max_size=64, p_static=1.0,
                                                                   static_strides=True)))),
        (3, lambda: "right_inverse_case(%s)" % g.swizzled_cpp(L(max_modes=3, max_size=64, p_static=0.9))),
        (3, lambda: "left_inverse_case(%s)" % g.swizzled_cpp(L(max_modes=3, max_size=64, p_static=1.0,
                                                                static_strides=True))),
        (2, lambda: (lambda l: "logical_divide_case(%s, %s)" % (g.swizzled_cpp(l), g.tiler(l)))(L())),
        (1, lambda: "coalesce_case(%s)" % g.swizzled_cpp(L())),
        (1, lambda: "complement_case(%s)" % g.swizzled_cpp(L(max_modes=2, max_size=32, static_strides=True))),
        (1, lambda: smem_case(g)),
        (2, lambda: "composition_swizzle_case(%s, Swizzle<%d,%d,%d>{})" % ((lc(L(max_modes=3, max_size=256, p_static=1.0)),)
                                                                           + g.swizzle())),
        (2, lambda: swizzled_common_case(g)),
    ]
    if mix == "wide":
        ops = wide_ops(g)
    elif mix == "dynamic":
        ops = dynamic_ops(g)
    total = sum(w for w, _ in ops)
    for _ in range(count):
        r = rng.uniform(0, total)
        for w, f in ops:
            r -= w
            if r <= 0:
                out.append(f())
                break
        else:
            out.append(ops[-1][1]())
    if mix == "dynamic":
        out += dynamic_extra_cases(seed, count // 10)
    return out


def cotarget(g):
    if g.rng.random() < 0.3:
        return "make_shape(%s, %s)" % (g.int_cpp(g.rng.choice([2, 4, 8])), g.int_cpp(g.rng.choice([2, 3, 4])))
    return g.int_cpp(g.rng.choice([1, 2, 5, 8, 16, 24, 32, 53, 64, 128]))


def product_tiler(g):
    if g.rng.random() < 0.3:
        return g.int_cpp(g.rng.choice([2, 3, 4]))
    return g.layout_cpp(g.layout(max_modes=2, max_size=16, kind=g.rng.choice(["compact", "permuted", "padded", "broadcast"])))


def basis_composition(g):
    """A of rank 2 (by basis) composed with B whose strides are E<1>, E<0> scaled."""
    a = g.layout(max_modes=2, max_size=64, nested=False)
    while isinstance(a[0], Leaf) or len(a[0]) != 2:
        a = g.layout(max_modes=2, max_size=64, nested=False)
    s0, s1 = a[0][0].v, a[0][1].v
    b_shape = [Leaf(s1, g.st()), Leaf(s0, g.st())]
    b_stride = [Leaf(1, True, [1]), Leaf(1, True, [0])]
    return "composition_case(%s, make_layout(%s, %s))" % (g.layout_cpp(a), cpp(b_shape), cpp(b_stride, "stride"))


def common_case(g, fn):
    a = g.layout(max_modes=3, max_size=64, kind=g.rng.choice(["compact", "permuted", "padded"]))
    if g.rng.random() < 0.5:
        b = a
    else:
        b = g.layout(max_modes=3, max_size=64, kind=g.rng.choice(["compact", "permuted", "padded"]))
    return "%s(%s, %s)" % (fn, g.layout_cpp(a), g.layout_cpp(b))


def swizzled_common_case(g):
    a = g.layout(max_modes=2, max_size=64, kind="compact", p_static=1.0)
    b = g.layout(max_modes=2, max_size=64, kind="compact", p_static=1.0)
    fn = g.rng.choice(["max_common_vector_case", "max_common_layout_case"])
    sa = g.swizzled_cpp(a)
    return "%s(%s, %s)" % (fn, sa, g.layout_cpp(b)) if g.rng.random() < 0.5 else "%s(%s, %s)" % (fn, g.layout_cpp(b), sa)


def domain_case(g):
    a = [Leaf(g.rng.choice([2, 3, 4, 6, 8, 12, 15, 14, 64]), True) for _ in range(g.rng.randint(1, 3))]
    shape = cpp(a if len(a) > 1 else a[0])
    return "domain_distribute_case(%s, Int<%d>{})" % (shape, g.rng.choice([2, 4, 6, 8, 16, 128]))


def smem_case(g):
    l = g.layout(max_modes=2, max_size=128, p_static=1.0)
    b, m, s = g.swizzle()
    bits = g.rng.choice([8, 16, 32])
    comp = "composition(Swizzle<%d,%d,%d>{}, smem_ptr_flag_bits<%d>{}, %s)" % (b, m, s, bits, g.layout_cpp(l))
    op = g.rng.choice(["logical_divide", "coalesce"])
    if op == "coalesce":
        return "coalesce_case(%s)" % comp
    return "logical_divide_case(%s, %s)" % (comp, g.tiler(l))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--chunk", type=int, default=150)
    ap.add_argument("--mix", default="default", choices=["default", "wide", "dynamic"])
    ap.add_argument("outdir")
    a = ap.parse_args()
    all_cases = cases(a.seed, a.count, a.mix)
    os.makedirs(a.outdir, exist_ok=True)
    for k in range(0, len(all_cases), a.chunk):
        with open(os.path.join(a.outdir, "random_%03d.cu" % (k // a.chunk)), "w") as f:
            f.write("// Generated by tools/cute_reference/gen_random_cases.py --seed %d --mix %s; not committed.\n" % (a.seed, a.mix))
            f.write('#include "algebra_reference.hpp"\n\n')
            for c in all_cases[k:k + a.chunk]:
                f.write("CASE(%s);\n" % c)
            f.write("\nint main(int argc, char** argv) { return ref::run_main(argc, argv); }\n")
    print("%d cases in %d files" % (len(all_cases), (len(all_cases) + a.chunk - 1) // a.chunk))


if __name__ == "__main__":
    main()
