#!/usr/bin/env python3
"""Third probe round (cases3.txt): pins down how LDS.64/LDS.128 merge phases.
A: LDS.128, two quarters of ONE half-warp, many lane patterns x address orders x half.
B: LDS.128 whole-warp variants of the odd/even/block cases (rows swapped).
C: LDS.128 one address, k active lanes.  D: LDS.128 address sharing across halves.
E: LDS.64 lane sets with <= 2 lanes per quad (which XOR partner masks allow one wavefront).
F: LDS.64 fold candidates with bank conflicts.  G: LDS.128 two lanes in one half."""
import random

R = random.Random(33)
cases = []


def emit(name, op, w, m):
    a = [-1] * 32
    for i, x in m.items():
        a[i] = x
    assert all(x == -1 or x % w == 0 for x in a)
    cases.append((name, op, w, a))


pats = {"q0123": [0, 1, 2, 3, 8, 9, 10, 11], "odd": [1, 3, 5, 7, 9, 11, 13, 15], "even": [0, 2, 4, 6, 8, 10, 12, 14],
        "q0145": [0, 1, 4, 5, 8, 9, 12, 13], "q4567": [4, 5, 6, 7, 12, 13, 14, 15], "r24": [0, 7, 9, 10, 15],
        "r10": [2, 3, 4, 8, 14], "p0_8": [0, 8], "p1_9": [1, 9], "p7_15": [7, 15], "q01": [0, 1, 8, 9],
        "q0246a": [0, 2, 4, 6, 9, 11, 13, 15], "q13": [1, 3, 8, 10], "q2367": [2, 3, 6, 7, 10, 11, 14, 15]}
# A
for pn, p in pats.items():
    for h in (0, 1):
        lanes = [x + 16 * h for x in p]
        n = len(lanes)
        orders = {"lin0": [16 * k for k in range(n)], "lin1": [128 + 16 * k for k in range(n)],
                  "rev": [16 * (n - 1 - k) for k in range(n)]}
        for t in range(2):
            orders[f"rnd{t}"] = [16 * s for s in R.sample(range(8), n)]
        for on, ad in orders.items():
            emit(f"A_{pn}_h{h}_{on}", "ld", 16, dict(zip(lanes, ad)))
# B: whole warp, rows per half chosen
for pn in ("q0123", "odd", "even", "q0145"):
    p = pats[pn]
    for r0, r1 in ((0, 0), (1, 0), (0, 1), (2, 3)):
        m = {}
        for k, x in enumerate(p):
            m[x] = 128 * r0 + 16 * k
            m[x + 16] = 128 * r1 + 16 * k
        emit(f"B_{pn}_r{r0}{r1}", "ld", 16, m)
# C: one address, k lanes
for k in (16, 17, 20, 24, 28, 31):
    emit(f"C_same_first{k}", "ld", 16, {i: 256 for i in range(k)})
for k in (17, 24):
    emit(f"C_same_rand{k}", "ld", 16, {i: 256 for i in sorted(R.sample(range(32), k))})
emit("C_same_half1", "ld", 16, {i: 256 for i in range(16, 32)})
emit("C_same_even_plus1", "ld", 16, {i: 256 for i in list(range(0, 32, 2)) + [1]})
# D: sharing across halves, LDS.128
def share(name, groups):
    # groups: list of lane lists; each group one address, distinct 16B chunks of one 128B row
    slots = R.sample(range(8), len(groups))
    m = {}
    for g, s in zip(groups, slots):
        for l in g:
            m[l] = 1024 + 16 * s
    emit(name, "ld", 16, m)
share("D_p01_p2425", [[0, 1], [24, 25]])
share("D_p01_p1617", [[0, 1], [16, 17]])
share("D_p01_p23_p1617_p1819", [[0, 1], [2, 3], [16, 17], [18, 19]])
share("D_x0_2_x16_18", [[0, 2], [16, 18]])
share("D_x0_16_x1_17", [[0, 16], [1, 17]])
share("D_x0_16", [[0, 16]])
share("D_x0_8_x16_24", [[0, 8], [16, 24]])
share("D_quads4", [[0, 1, 2, 3], [4, 5, 6, 7], [16, 17, 18, 19], [20, 21, 22, 23]])
share("D_pairs8", [[2 * k, 2 * k + 1] for k in (0, 1, 2, 3, 8, 9, 10, 11)])
share("D_pairs8b", [[2 * k, 2 * k + 1] for k in (0, 2, 4, 6, 8, 10, 12, 14)])
share("D_pairs_x2_8", [[k, k ^ 2] for k in (0, 1, 4, 5, 16, 17, 20, 21)])
share("D_pairs_x3_8", [[k, k ^ 3] for k in (0, 1, 8, 9, 16, 17, 24, 25)])
share("D_pairs_x16_8", [[k, k + 16] for k in (0, 1, 2, 3, 4, 5, 6, 7)])
share("D_pairs_x8_4", [[k, k + 8] for k in (0, 1, 16, 17)])
for t in range(8):
    ks = sorted(R.sample(range(16), R.randrange(3, 9)))
    share(f"D_rpairs_{t}", [[2 * k, 2 * k + 1] for k in ks])
for t in range(4):
    ks = sorted(R.sample(range(8), R.randrange(3, 9)))
    share(f"D_rquads_{t}", [[4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3] for k in ks])
# E: LDS.64 lane sets with <= 2 lanes per quad, distinct conflict-free addresses
def ok(lanes, m):
    s = set(lanes)
    return all((l ^ m) not in s for l in s)
seen = {}
fixed = [[0, 1, 4, 6], [0, 3, 5, 6], [0, 3, 17, 18], [0, 1, 2, 3], [0, 1, 2, 3, 4, 5], [4, 5, 6, 7, 16], [0, 1, 2, 16],
         [0, 1, 2, 3, 20], [0, 4, 8, 12, 16, 20, 24, 28, 1], [0, 1, 18, 19], [1, 2, 16, 19], [0, 3, 16, 19], [1, 2, 17, 18]]
for t, lanes in enumerate(fixed):
    slots = R.sample(range(16), len(lanes)) if len(lanes) <= 16 else None
    emit(f"E_fix{t}", "ld", 8, dict(zip(lanes, [8 * s for s in slots])))
cnt = {}
tries = 0
while sum(cnt.values()) < 70 and tries < 100000:
    tries += 1
    k = R.randrange(3, 14)
    lanes = sorted(R.sample(range(32), k))
    if any(sum(1 for l in lanes if l // 4 == q) > 2 for q in range(8)):
        continue
    key = tuple(ok(lanes, m) for m in (1, 2, 3))
    if cnt.get(key, 0) >= 12:
        continue
    cnt[key] = cnt.get(key, 0) + 1
    slots = R.sample(range(16), k)
    emit(f"E_r{''.join('1' if x else '0' for x in key)}_{cnt[key]}", "ld", 8, dict(zip(lanes, [8 * s for s in slots])))
# F: LDS.64 fold candidates with conflicts (even lanes / pairs, some 2-way)
for t in range(10):
    lanes = list(range(0, 32, 2)) if t < 5 else [l for l in range(32) if l % 4 < 2]
    slots = [R.randrange(32) for _ in lanes]
    emit(f"F_conf_{t}", "ld", 8, dict(zip(lanes, [8 * s for s in slots])))
# G: LDS.128 two lanes of one half in different quarters, distinct chunks
for t in range(24):
    h = t % 2
    i, j = R.randrange(8), R.randrange(8)
    c = R.sample(range(8), 2)
    emit(f"G_h{h}_{i}_{j + 8}", "ld", 16, {16 * h + i: 16 * c[0], 16 * h + 8 + j: 16 * c[1]})
with open("cases3.txt", "w") as f:
    f.write("# NAME OP WIDTH A0..A31 (generated by gen_cases3.py)\n")
    for name, op, w, a in cases:
        f.write(f"{name} {op} {w} {' '.join(map(str, a))}\n")
print(len(cases), "cases", cnt)
