#!/usr/bin/env python3
"""Writes N random `layoutproof algebra -` queries (fixed seed) covering every operation.

Usage: gen_algebra_queries.py [N] [SEED] > queries.txt
Layouts are random compact/permuted/padded layouts nested to depth 3; some queries are invalid on
purpose (they exercise the error path, which must also be fast).
"""
import random
import sys


def rand_shape(rng, depth):
    if depth == 0 or rng.random() < 0.5:
        return rng.choice([1, 2, 2, 3, 4, 4, 8])
    return tuple(rand_shape(rng, depth - 1) for _ in range(rng.randint(1, 3)))


def leaves(t):
    return [t] if isinstance(t, int) else [x for c in t for x in leaves(c)]


def rebuild(t, it):
    return next(it) if isinstance(t, int) else tuple(rebuild(c, it) for c in t)


def rand_layout(rng, depth=3):
    shape = rand_shape(rng, depth)
    s = leaves(shape)
    order = list(range(len(s)))
    rng.shuffle(order)
    strides = [0] * len(s)
    cur = 1
    for k in order:
        if rng.random() < 0.1:
            strides[k] = 0
            continue
        strides[k] = cur
        cur *= s[k] * (2 if rng.random() < 0.2 else 1)
    return shape, rebuild(shape, iter(strides))


def fmt(t):
    return str(t) if isinstance(t, int) else "(" + ",".join(fmt(c) for c in t) + ")"


def lay(rng):
    shape, stride = rand_layout(rng)
    return fmt(shape) + ":" + fmt(stride)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    unary = ["size", "cosize", "rank", "depth", "coalesce", "complement", "right_inverse", "left_inverse"]
    binary = ["composition", "logical_divide", "zipped_divide", "tiled_divide", "logical_product",
              "zipped_product", "tiled_product", "blocked_product", "raked_product"]
    for i in range(n):
        kind = i % 4
        if kind == 0:
            print(rng.choice(unary), lay(rng))
        elif kind == 1:
            print(rng.choice(binary), lay(rng), rng.choice(["2:1", "4:1", "(2,2):(1,4)", "4:2", "8:1"]))
        elif kind == 2:
            print("call", lay(rng), rng.randint(0, 63))
        else:
            b = rng.randint(0, 3)
            print("swizzle", "Sw<%d,%d,%d>" % (b, rng.randint(0, 4), rng.choice([b, b + 1, -b - 1])), rng.randint(0, 4095))


if __name__ == "__main__":
    main()
