#!/usr/bin/env python3
"""Generates the bank-probe cases (cases.txt): address patterns chosen to pin down the
shared-memory wavefront rules (distinct addresses, broadcasts, same word/different bytes,
cross-phase duplicates, inactive lanes, ldmatrix/stmatrix rows). Deterministic (seeded)."""
import random

R = random.Random(20261113)
cases = []


def add(name, op, w, a):
    assert len(a) == 32, name
    for x in a:
        assert x == -1 or (0 <= x < 48 * 1024 and x % w == 0), (name, x)
    cases.append((name, op, w, list(a)))


def mask(a, keep):
    return [x if keep(i) else -1 for i, x in enumerate(a)]


def rand_distinct(w, span, n=32):
    slots = R.sample(range(span // w), n)
    return [s * w for s in slots]


def rand_pool(w, span, k):
    pool = [R.randrange(span // w) * w for _ in range(k)]
    return [R.choice(pool) for _ in range(32)]


for op in ("ld", "st"):
    heavy = op == "ld"
    for w in (1, 2, 4, 8, 16):
        p = f"{op}{w}"
        add(f"{p}_linear", op, w, [i * w for i in range(32)])
        strides = sorted({w, 2 * w, 3 * w, 4 * w, 8 * w, 16 * w, 32 * w, 128, 132, 136, 144, 160, 256, 264, 272, 512, 1024, 36, 68} )
        for s in strides:
            if s % w or s * 31 >= 48 * 1024:
                continue
            if not heavy and s not in (w, 2 * w, 4 * w, 128, 136, 144, 256, 272):
                continue
            add(f"{p}_stride{s}", op, w, [i * s for i in range(32)])
        for t in range(10 if heavy else 5):
            add(f"{p}_rand_distinct_4k_{t}", op, w, rand_distinct(w, 4096))
        for t in range(6 if heavy else 3):
            add(f"{p}_rand_distinct_512_{t}", op, w, rand_distinct(w, 512 if w < 16 else 1024))
        add(f"{p}_bcast", op, w, [64] * 32)
        add(f"{p}_bcast_2addr_samebank", op, w, [0 if i % 2 == 0 else 128 for i in range(32)])
        add(f"{p}_bcast_halves", op, w, [0 if i < 16 else 128 for i in range(32)])
        add(f"{p}_dup_mod8", op, w, [(i % 8) * w for i in range(32)])
        add(f"{p}_dup_mod8_stride128", op, w, [(i % 8) * 128 for i in range(32)])
        add(f"{p}_dup_mod16_stride128", op, w, [(i % 16) * 128 for i in range(32)])
        add(f"{p}_dup_div2_linear", op, w, [(i // 2) * w for i in range(32)])
        add(f"{p}_dup_div4_stride128", op, w, [(i // 4) * 128 for i in range(32)])
        add(f"{p}_dup_xor16", op, w, [((i % 16) * w) for i in range(32)])
        add(f"{p}_dup_rev_halves", op, w, [((i if i < 16 else 31 - i) * 256) for i in range(32)])
        for t in range(8 if heavy else 4):
            add(f"{p}_rand_pool{4 + 4 * t}_{t}", op, w, rand_pool(w, 2048, 4 + 4 * t))
        if w < 4:
            per = 4 // w
            add(f"{p}_sameword_bytes", op, w, [(i // per) * 4 + (i % per) * w for i in range(32)])
            add(f"{p}_sameword_bytes_stride128", op, w, [(i // per) * 128 + (i % per) * w for i in range(32)])
            add(f"{p}_allbytes_one_word", op, w, [(i % per) * w for i in range(32)])
            add(f"{p}_words_samebank_rand_bytes", op, w, [(i % 4) * 128 + R.randrange(per) * w for i in range(32)])
        if w == 8:
            # pairs of lanes in different half-warps / same half-warp
            add(f"{p}_half1_eq_half0", op, w, [(i % 16) * 8 for i in range(32)])
            add(f"{p}_half1_eq_half0_conflict", op, w, [(i % 16) * 128 for i in range(32)])
            add(f"{p}_half1_conflicts_half0", op, w, [(i % 16) * 8 + (128 if i >= 16 else 0) for i in range(32)])
            add(f"{p}_lanes0_7_16_23", op, w, mask([(i % 8) * 8 + (64 if i >= 16 else 0) for i in range(32)], lambda i: (i % 16) < 8))
            add(f"{p}_lanes0_7_16_23_samebytes", op, w, mask([(i % 8) * 8 for i in range(32)], lambda i: (i % 16) < 8))
            add(f"{p}_even_lanes_256B", op, w, mask([i * 8 for i in range(32)], lambda i: i % 2 == 0))
            add(f"{p}_even_lanes_linear", op, w, mask([(i // 2) * 8 for i in range(32)], lambda i: i % 2 == 0))
            add(f"{p}_only_half0", op, w, mask([i * 8 for i in range(32)], lambda i: i < 16))
            add(f"{p}_only_half1", op, w, mask([i * 8 for i in range(32)], lambda i: i >= 16))
            add(f"{p}_lane0_lane16", op, w, mask([0] * 32, lambda i: i in (0, 16)))
            add(f"{p}_lane0_lane16_conflict", op, w, mask([0] * 16 + [128] * 16, lambda i: i in (0, 16)))
            add(f"{p}_interleaved_halves", op, w, [((i % 2) * 16 + i // 2) * 8 for i in range(32)])
            add(f"{p}_stride16_within_half", op, w, [i * 16 for i in range(32)])
            add(f"{p}_half_stride_mix", op, w, [i * 8 if i < 16 else (i - 16) * 16 for i in range(32)])
        if w == 16:
            add(f"{p}_quarters_equal", op, w, [(i % 8) * 16 for i in range(32)])
            add(f"{p}_quarters_equal_conflict", op, w, [(i % 8) * 128 for i in range(32)])
            add(f"{p}_quarter_pairs", op, w, [(i % 16) * 16 for i in range(32)])
            add(f"{p}_div4", op, w, [(i // 4) * 16 for i in range(32)])
            add(f"{p}_div8", op, w, [(i // 8) * 16 for i in range(32)])
            add(f"{p}_div8_samebank", op, w, [(i // 8) * 128 for i in range(32)])
            add(f"{p}_mod4", op, w, [(i % 4) * 16 for i in range(32)])
            add(f"{p}_mod4_conflict", op, w, [(i % 4) * 128 for i in range(32)])
            add(f"{p}_one_lane_per_quarter", op, w, mask([i * 16 for i in range(32)], lambda i: i % 8 == 0))
            add(f"{p}_one_lane_per_quarter_same", op, w, mask([0] * 32, lambda i: i % 8 == 0))
            add(f"{p}_one_lane_per_quarter_conflict", op, w, mask([(i // 8) * 128 for i in range(32)], lambda i: i % 8 == 0))
            add(f"{p}_lanes0_3_each_quarter", op, w, mask([((i // 8) * 4 + i % 8) * 16 for i in range(32)], lambda i: i % 8 < 4))
            add(f"{p}_lanes0_1_q0_q1", op, w, mask([i * 16 for i in range(32)], lambda i: i in (0, 1, 8, 9)))
            add(f"{p}_only_q0", op, w, mask([i * 16 for i in range(32)], lambda i: i < 8))
            add(f"{p}_only_q3", op, w, mask([i * 16 for i in range(32)], lambda i: i >= 24))
            add(f"{p}_q0_q2_only", op, w, mask([(i % 8) * 16 + (128 if i >= 16 else 0) for i in range(32)], lambda i: (i // 8) % 2 == 0))
            add(f"{p}_q0_q2_only_same", op, w, mask([(i % 8) * 16 for i in range(32)], lambda i: (i // 8) % 2 == 0))
            add(f"{p}_even_lanes", op, w, mask([i * 16 for i in range(32)], lambda i: i % 2 == 0))
            add(f"{p}_even_lanes_compact", op, w, mask([(i // 2) * 16 for i in range(32)], lambda i: i % 2 == 0))
            add(f"{p}_half_linear_rest_same", op, w, [(i % 8) * 16 if i < 16 else 0 for i in range(32)])
        # inactive lanes on random distinct / pooled patterns
        for t in range(6 if heavy else 3):
            keep = set(R.sample(range(32), R.randrange(1, 32)))
            add(f"{p}_mask_rand_distinct_{t}", op, w, mask(rand_distinct(w, 2048), lambda i: i in keep))
        for t in range(4 if heavy else 2):
            keep = set(R.sample(range(32), R.randrange(1, 32)))
            add(f"{p}_mask_rand_pool_{t}", op, w, mask(rand_pool(w, 1024, 8), lambda i: i in keep))
        add(f"{p}_half_warp_col", op, w, mask([i * 128 for i in range(32)], lambda i: i < 16))
        add(f"{p}_single_lane", op, w, mask([i * 128 for i in range(32)], lambda i: i == 5))


def rows_of(n, f):
    """ldsm/stsm address list: lane 8m+r gives row r of matrix m for m < n; other lanes 0."""
    a = [0] * 32
    for m in range(n):
        for r in range(8):
            a[8 * m + r] = f(m, r)
    return a


for kind in ("ldsm", "stsm"):
    heavy = kind == "ldsm"
    for n in (1, 2, 4):
        op = f"{kind}{n}"
        add(f"{op}_contig", op, 16, rows_of(n, lambda m, r: m * 128 + r * 16))
        add(f"{op}_rowstride128", op, 16, rows_of(n, lambda m, r: m * 16 + r * 128))
        add(f"{op}_rowstride128_mstride1024", op, 16, rows_of(n, lambda m, r: m * 1024 + r * 128))
        add(f"{op}_rowstride144", op, 16, rows_of(n, lambda m, r: m * 16 + r * 144))
        add(f"{op}_rowstride64", op, 16, rows_of(n, lambda m, r: m * 16 + r * 64))
        add(f"{op}_rowstride32", op, 16, rows_of(n, lambda m, r: m * 256 + r * 32))
        add(f"{op}_sw333", op, 16, rows_of(n, lambda m, r: r * 128 + (((m) ^ r) % 8) * 16))
        add(f"{op}_all_same", op, 16, rows_of(n, lambda m, r: 0))
        add(f"{op}_matrices_same", op, 16, rows_of(n, lambda m, r: r * 16))
        add(f"{op}_matrices_same_conflict", op, 16, rows_of(n, lambda m, r: r * 128))
        add(f"{op}_rows_pairs_same", op, 16, rows_of(n, lambda m, r: m * 128 + (r // 2) * 16))
        add(f"{op}_rows_pairs_samebank", op, 16, rows_of(n, lambda m, r: m * 128 + (r // 2) * 16 + (r % 2) * 128 * 4))
        add(f"{op}_rows_mod4", op, 16, rows_of(n, lambda m, r: m * 1024 + (r % 4) * 128))
        for t in range(8 if heavy else 4):
            add(f"{op}_rand_distinct_{t}", op, 16, rows_of(n, (lambda pool: lambda m, r: pool[8 * m + r])(rand_distinct(16, 2048))))
        for t in range(6 if heavy else 3):
            add(f"{op}_rand_pool_{t}", op, 16, rows_of(n, (lambda pool: lambda m, r: pool[8 * m + r])(rand_pool(16, 1024, 6 + 2 * t))))
        for t in range(3 if heavy else 2):
            add(f"{op}_rand_small_{t}", op, 16, rows_of(n, (lambda pool: lambda m, r: pool[8 * m + r])(rand_distinct(16, 512))))
        if n > 1:
            add(f"{op}_m1_eq_m0_shift", op, 16, rows_of(n, lambda m, r: (m % 2) * 0 + r * 16 + (m // 2) * 128))
            add(f"{op}_matrix_rows_across_matrices_conflict", op, 16, rows_of(n, lambda m, r: m * 128 + r * 16 if m == 0 else m * 1024 + r * 16))

with open("cases.txt", "w") as f:
    f.write("# NAME OP WIDTH A0..A31 (generated by gen_cases.py)\n")
    for name, op, w, a in cases:
        f.write(f"{name} {op} {w} {' '.join(map(str, a))}\n")
print(len(cases), "cases")
