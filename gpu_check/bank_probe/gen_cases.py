#!/usr/bin/env python3
"""gen_cases.py: every bank-probe case, in named families (one per probe round).

Usage: gen_cases.py [--family NAME[:SEED]]... [--list] [--layoutproof BIN]
  no --family     writes every family of the committed case file, in order (= cases.txt):
                    python3 gpu_check/bank_probe/gen_cases.py > gpu_check/bank_probe/cases.txt
  --family F      writes family F only (repeatable); F = NAME, or NAME:SEED for a seeded family
                  (random:99); each family is preceded by its '# family ...' comment line
  --list          prints the families (name, what they probe, the measured data) and exits
  --layoutproof B the synth family asks `B synth` for its swizzles instead of the ones synth
                  picked when that round was measured (for a new round; the output may then differ)

Output: one case per line, "NAME OP WIDTH A0 ... A31" (probe.cu's input; A = byte offset into shared
memory, -1 = inactive lane); '#' lines are comments (run_probe.sh and parse_ncu.py skip them).
FAMILY=NAME bash run_probe.sh runs one family of cases.txt. Every family is deterministic (a fixed
seed of its own, or fixed cases), so its cases do not depend on which other families are written.
"""
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "tests", "bank", "data")
SMEM_BYTES = 48 * 1024  # probe.cu's dynamic shared memory (kSmem)


def mask(a, keep):
    return [x if keep(i) else -1 for i, x in enumerate(a)]


# ---- basic (round 1) -------------------------------------------------------------------------

def family_basic(_seed, _opts):
    """Distinct addresses, strides, broadcasts, same word/different bytes, cross-phase duplicates,
    inactive lanes, ldmatrix/stmatrix rows, for LDS/STS of every width and LDSM/STSM .x1/.x2/.x4;
    then the 38 cases of the calibration sample, named shared_NAME."""
    R = random.Random(20261113)
    cases = []

    def add(name, op, w, a):
        cases.append((name, op, w, list(a)))

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
            strides = sorted({w, 2 * w, 3 * w, 4 * w, 8 * w, 16 * w, 32 * w, 128, 132, 136, 144, 160, 256, 264, 272, 512, 1024, 36, 68})
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

    # The calibration sample (measured before the probe existed), re-measured in the same run: it
    # reproduced exactly; its measurement stays in h100_shared_memory_wavefronts.jsonl.
    for line in open(os.path.join(DATA, "h100_shared_memory_wavefronts.jsonl")):
        r = json.loads(line)
        add("shared_" + r["name"], r["op"], r["width_bytes"], r["lane_byte_addresses"])
    return cases


# ---- inactive (round 2) ----------------------------------------------------------------------

def family_inactive(_seed, _opts):
    """Inactive-lane merging of 64- and 128-bit LDS/STS. Each case activates a lane subset whose
    addresses are conflict-free when all active lanes share one wavefront, so any merging of
    half-/quarter-warp phases shows in the count."""
    R = random.Random(7)
    cases = []

    def emit(name, op, w, active, addr_of):
        a = [-1] * 32
        for i in active:
            a[i] = addr_of(i)
        cases.append((name, op, w, a))

    def distinct_groups(active, w, base=0):
        # each active lane its own w-byte slot of one 128-byte row, slots shuffled: conflict-free
        n = 128 // w
        slots = R.sample(range(n), len(active))
        return dict(zip(active, [base + s * w for s in slots]))

    for op in ("ld", "st"):
        for w in (8, 16):
            cap = 128 // w  # lanes that fit one conflict-free wavefront
            # pairs of single lanes
            for i, j in [(0, 1), (0, 2), (0, 4), (0, 7), (0, 8), (0, 9), (0, 15), (0, 16), (0, 17), (0, 24), (0, 31), (1, 8), (3, 12), (7, 8), (8, 16), (15, 16), (12, 31), (5, 21), (2, 30)]:
                m = distinct_groups([i, j], w)
                emit(f"{op}{w}_two_{i}_{j}", op, w, [i, j], m.get)
            # blocks of lanes
            blocks = [[0, 1, 2, 3, 8, 9, 10, 11], [0, 1, 2, 3, 16, 17, 18, 19], [0, 1, 2, 3, 24, 25, 26, 27], [8, 9, 10, 11, 16, 17, 18, 19],
                      [0, 1, 16, 17], [0, 1, 8, 9], [0, 2, 4, 6, 8, 10, 12, 14], [0, 4, 8, 12, 16, 20, 24, 28], [0, 8, 16, 24],
                      [1, 9, 17, 25], [0, 9, 18, 27], [0, 1, 2, 3], [4, 5, 6, 7, 8, 9, 10, 11], [6, 7, 8, 9], [14, 15, 16, 17],
                      [0, 3, 5, 6, 9, 10, 12, 15], [0, 2, 16, 18], [0, 16], [1, 3, 5, 7], [0, 1, 2, 3, 4, 5, 6, 7], [0, 2, 4, 6],
                      list(range(0, 32, 2)), list(range(1, 32, 2)), list(range(0, 16)), [0, 1, 4, 5, 8, 9, 12, 13], [0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29],
                      list(range(0, 32, 4)), [i for i in range(32) if i % 4 < 2], [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27]]
            for k, b in enumerate(blocks):
                if len(b) <= cap:
                    m = distinct_groups(b, w)
                else:  # more lanes than one wavefront holds: consecutive active lanes, linear addresses
                    m = {lane: t * w for t, lane in enumerate(b)}
                emit(f"{op}{w}_block{k}", op, w, b, m.get)
                # the same lanes, all one address
                emit(f"{op}{w}_block{k}_same", op, w, b, lambda i: 256)
                # the same lanes, pairs (2k,2k+1) sharing an address
                emit(f"{op}{w}_block{k}_pairaddr", op, w, b, lambda i: (i // 2) * w % 256 + 512)
            # random subsets, conflict-free when merged (<= cap lanes)
            for t in range(25 if op == "ld" else 8):
                k = R.randrange(2, cap + 1)
                act = sorted(R.sample(range(32), k))
                m = distinct_groups(act, w)
                emit(f"{op}{w}_rsub_{t}", op, w, act, m.get)
            # random subsets with more lanes, random distinct addresses in 512 bytes
            for t in range(15 if op == "ld" else 5):
                k = R.randrange(cap + 1, 33)
                act = sorted(R.sample(range(32), k))
                slots = R.sample(range(512 // w), k)
                m = dict(zip(act, [s * w for s in slots]))
                emit(f"{op}{w}_rbig_{t}", op, w, act, m.get)
            # random with shared addresses, all lanes active
            for t in range(10 if op == "ld" else 4):
                pool = R.sample(range(256 // w), R.randrange(1, 12))
                emit(f"{op}{w}_rshare_{t}", op, w, list(range(32)), lambda i: R.choice(pool) * w)
            # pairs sharing, random conflicts
            for t in range(8 if op == "ld" else 3):
                addrs = [R.randrange(1024 // w) * w for _ in range(16)]
                emit(f"{op}{w}_rpairs_{t}", op, w, list(range(32)), lambda i: addrs[i // 2])
                addrs4 = [R.randrange(1024 // w) * w for _ in range(8)]
                emit(f"{op}{w}_rquads_{t}", op, w, list(range(32)), lambda i: addrs4[i // 4])
    # narrow widths: random masks + random sharing (sanity of the single-phase rule)
    for w in (1, 2, 4):
        for t in range(6):
            pool = [R.randrange(2048 // w) * w for _ in range(R.randrange(2, 20))]
            act = sorted(R.sample(range(32), R.randrange(1, 33)))
            emit(f"ld{w}_r2_{t}", "ld", w, act, lambda i: R.choice(pool))
    return cases


# ---- wide_merge (round 3) --------------------------------------------------------------------

def family_wide_merge(_seed, _opts):
    """How LDS.64/LDS.128 merge phases.
    A: LDS.128, two quarters of ONE half-warp, many lane patterns x address orders x half.
    B: LDS.128 whole-warp variants of the odd/even/block cases (rows swapped).
    C: LDS.128 one address, k active lanes.  D: LDS.128 address sharing across halves.
    E: LDS.64 lane sets with <= 2 lanes per quad (which XOR partner masks allow one wavefront).
    F: LDS.64 fold candidates with bank conflicts.  G: LDS.128 two lanes in one half.
    G draws its lanes at random: G_h0_7_11 and G_h1_5_8 occur twice each (different addresses),
    as in the measured data."""
    R = random.Random(33)
    cases = []

    def emit(name, op, w, m):
        a = [-1] * 32
        for i, x in m.items():
            a[i] = x
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
    return cases


# ---- lane31 (round 4) ------------------------------------------------------------------------

def family_lane31(_seed, _opts):
    """Which half-1 lanes stop an LDS.128 half-1 fold when half 0 is also active (odd lanes and
    rsub_24 took 3, even lanes 2): the extra lane-31 wavefront. Half 0 = a merged set; half 1 = a
    fold-able set with/without lane 31, 30, 29, 23, ...; plus the mirrored half-0 variants."""
    R = random.Random(44)
    cases = []

    def emit(name, lanes):
        slots0 = R.sample(range(8), len([l for l in lanes if l < 16]))
        slots1 = R.sample(range(8), len([l for l in lanes if l >= 16]))
        m = dict(zip([l for l in lanes if l < 16], [16 * s for s in slots0]))
        m.update(zip([l for l in lanes if l >= 16], [128 + 16 * s for s in slots1]))
        a = [m.get(i, -1) for i in range(32)]
        cases.append((name, "ld", 16, a))

    h0s = {"h0even": [0, 2, 4, 6, 8, 10, 12, 14], "h0one": [5], "h0odd": [1, 3, 5, 7, 9, 11, 13, 15], "h0two": [1, 11]}
    h1s = {"odd": [17, 19, 21, 23, 25, 27, 29, 31], "odd_no31": [17, 19, 21, 23, 25, 27, 29], "odd_no31_30": [17, 19, 21, 23, 25, 27, 30],
           "even": [16, 18, 20, 22, 24, 26, 28, 30], "even_31": [16, 18, 20, 22, 24, 26, 28, 31], "p16_31": [16, 31], "p24_31": [24, 31],
           "p16_30": [16, 30], "p17_29": [17, 29], "p23_31": [23, 31], "p16_27": [16, 27], "r24": [16, 23, 25, 26, 31], "r24_no31": [16, 23, 25, 26, 30],
           "q0145": [16, 17, 20, 21, 24, 25, 28, 29], "q2367": [18, 19, 22, 23, 26, 27, 30, 31], "p22_31": [22, 31], "p19_28": [19, 28]}
    for hn, h0 in h0s.items():
        for gn, h1 in h1s.items():
            emit(f"W_{hn}_{gn}", h0 + h1)
    # mirrored: half 1 merged set, half 0 fold set with lane 15
    for gn, h1 in h1s.items():
        emit(f"M_{gn}_h1even", [l - 16 for l in h1] + [16, 18, 20, 22, 24, 26, 28, 30])
    return cases


# ---- synth (round 5) -------------------------------------------------------------------------

# Row-major tiles (rows, cols, element bytes, vector elements) and the swizzle `layoutproof synth`
# picked for each when round 5 was measured (tests/bank/data/h100_measured_4.jsonl).
SYNTH_TILES = [(32, c, 4, 4) for c in range(36, 132, 4)] + [(8, c, 2, 8) for c in (72, 80, 96, 112, 136)] + \
              [(32, c, 4, 1) for c in (40, 48, 64, 72, 96)]
SYNTH_MEASURED_SWIZZLES = {
    (32, 36, 4, 4): "Sw<0,0,0>", (32, 40, 4, 4): "Sw<1,2,3>", (32, 44, 4, 4): "Sw<0,0,0>", (32, 48, 4, 4): "Sw<2,2,3>",
    (32, 52, 4, 4): "Sw<0,0,0>", (32, 56, 4, 4): "Sw<1,2,3>", (32, 60, 4, 4): "Sw<0,0,0>", (32, 64, 4, 4): "Sw<3,2,4>",
    (32, 68, 4, 4): "Sw<0,0,0>", (32, 72, 4, 4): "Sw<1,2,3>", (32, 76, 4, 4): "Sw<0,0,0>", (32, 80, 4, 4): "Sw<2,2,3>",
    (32, 84, 4, 4): "Sw<0,0,0>", (32, 88, 4, 4): "Sw<1,2,3>", (32, 92, 4, 4): "Sw<0,0,0>", (32, 96, 4, 4): "Sw<3,2,3>",
    (32, 100, 4, 4): "Sw<0,0,0>", (32, 104, 4, 4): "Sw<1,2,3>", (32, 108, 4, 4): "Sw<0,0,0>", (32, 112, 4, 4): "Sw<2,2,3>",
    (32, 116, 4, 4): "Sw<0,0,0>", (32, 120, 4, 4): "Sw<1,2,3>", (32, 124, 4, 4): "Sw<0,0,0>", (32, 128, 4, 4): "Sw<3,2,5>",
    (8, 72, 2, 8): "Sw<0,0,0>", (8, 80, 2, 8): "Sw<1,3,3>", (8, 96, 2, 8): "Sw<2,3,3>", (8, 112, 2, 8): "Sw<1,3,3>",
    (8, 136, 2, 8): "Sw<0,0,0>",
    (32, 40, 4, 1): "Sw<3,0,5>", (32, 48, 4, 1): "Sw<4,0,5>", (32, 64, 4, 1): "Sw<5,0,6>", (32, 72, 4, 1): "Sw<3,0,5>",
    (32, 96, 4, 1): "Sw<5,0,5>",
}


def swz(spec, x):
    if spec is None:
        return x
    b, m, s = spec
    y = x & (((1 << b) - 1) << (m + max(0, s)))
    return x ^ ((y >> s) if s >= 0 else (y << -s))


def parse_sw(text):
    if not text or text == "none":
        return None
    b, m, s = (int(t) for t in text[3:-1].split(","))
    return (b, m, s)


def synth_swizzle(binary, rows, cols, e, v):
    """The swizzle `BIN synth` finds for the tile (None if none)."""
    out = subprocess.run([binary, "synth", "--tile", f"({rows},{cols}):({cols},1)", "--elem-bytes", str(e), "--vec", str(v),
                          "--pattern", "row-per-lane", "--json"], capture_output=True, text=True)
    d = json.loads(out.stdout)
    return d["best"]["swizzle"] if d.get("found") else None


def family_synth(_seed, opts):
    """Hardware evidence for `layoutproof synth`: for row-major tiles of many row lengths, the
    swizzle synth picks (if any) and the unswizzled tile, every row-per-lane instruction of the first
    chunks as LDS/STS of the vector width. The names say tile, element, vector, swizzle, op, chunk."""
    cases = []
    for rows, cols, e, v in SYNTH_TILES:
        if opts.get("layoutproof"):
            best = synth_swizzle(opts["layoutproof"], rows, cols, e, v)
        else:
            best = SYNTH_MEASURED_SWIZZLES[(rows, cols, e, v)]
        for sw_text in ([best] if best else []) + [None]:
            sw = parse_sw(sw_text)
            tag = (sw_text or "none").replace("<", "").replace(">", "").replace(",", "")
            for op in ("ld", "st"):
                for c in range(min(3, cols // v)):
                    addrs = [e * swz(sw, (lane % rows) * cols + c * v) for lane in range(32)]
                    cases.append((f"synth_{rows}x{cols}_e{e}v{v}_{tag}_{op}_c{c}", op, e * v, addrs))
    return cases


# ---- random (rounds 6-8) ---------------------------------------------------------------------

def family_random(seed, _opts):
    """A held-out check of the fitted LDS.64/LDS.128 merge rules: random lane masks of every
    density, distinct addresses (aligned to the width), drawn either conflict-free (distinct slots
    inside one 512-byte window) or at random over 4 KiB, plus random address sharing. Nothing here
    was used to fit the rules. The same names recur for every seed (the addresses differ)."""
    R = random.Random(seed)
    cases = []
    for width in (8, 16):
        for density in (0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9):
            for kind in ("window", "random", "shared"):
                for rep in range(7):
                    lanes = [l for l in range(32) if R.random() < density] or [R.randrange(32)]
                    if kind == "window":   # distinct slots of one 512-byte window
                        slots = R.sample(range(512 // width), len(lanes)) if len(lanes) <= 512 // width else None
                        if slots is None:
                            continue
                        addr = {l: s * width for l, s in zip(lanes, slots)}
                    elif kind == "random":  # distinct over 4 KiB
                        slots = R.sample(range(4096 // width), len(lanes))
                        addr = {l: s * width for l, s in zip(lanes, slots)}
                    else:                   # a few addresses shared by several lanes
                        pool = [s * width for s in R.sample(range(1024 // width), max(1, len(lanes) // 3))]
                        addr = {l: R.choice(pool) for l in lanes}
                    a = [addr.get(l, -1) for l in range(32)]
                    op = "ld" if R.random() < 0.8 else "st"
                    cases.append((f"rand_{op}{width}_{kind}_d{int(density*100)}_{rep}", op, width, a))
    return cases


# ---- h16b (after round 8) --------------------------------------------------------------------

def family_h16b(_seed, _opts):
    """LDS.128 with half 0 merged and a collision in half 1: does a wide-load merge absorb the
    collision? (docs/bank_model.md, "Ideal with wide-load merges"). Each case with and without the
    collision; measured and predicted 4, 2, 3, 2 wavefronts."""
    rep = [0, 0, 0, 0, 0, 0, 0, -1, -1, 0, -1, 0] + [-1] * 8 + [160, -1, 32, -1, 0] + [-1] * 7
    half0 = [0, 16, 32, 48, -1, -1, -1, -1, 64, 80, 96, 112, -1, -1, -1, -1, 512, 640] + [-1] * 14
    rep_free = list(rep)
    rep_free[22] = 48   # lane 22 off lane 20's banks 8-11
    half0_free = list(half0)
    half0_free[17] = 656  # lane 17 off lane 16's banks
    return [("H16B_rep", "ld", 16, rep), ("H16B_rep_nocollision", "ld", 16, rep_free),
            ("H16B_half0_16_17", "ld", 16, half0), ("H16B_half0_16_17_nocollision", "ld", 16, half0_free)]


# ---- the families ----------------------------------------------------------------------------

D = "tests/bank/data/"
# name -> (generator, default seed (None: takes no seed), what it probes, where its measurement is)
FAMILIES = {
    "basic": (family_basic, None,
              "round 1: distinct addresses, strides, broadcasts, same word/other bytes, cross-phase duplicates, "
              "inactive lanes, LDSM/STSM rows, every op and width",
              "H100, " + D + "h100_measured.jsonl (its first 753 cases; the last 38, shared_*, are the calibration "
              "sample " + D + "h100_shared_memory_wavefronts.jsonl, which they reproduced)"),
    "inactive": (family_inactive, None,
                 "round 2: inactive-lane merging of LDS/STS.64 and .128 (lane subsets conflict-free when merged)",
                 "H100, " + D + "h100_measured.jsonl (its last 620 cases)"),
    "wide_merge": (family_wide_merge, None,
                   "round 3: how LDS.64/LDS.128 merge phases (quarters of a half-warp, XOR folds, one address, "
                   "sharing across halves)",
                   "H100, " + D + "h100_measured_2.jsonl"),
    "lane31": (family_lane31, None,
               "round 4: the extra LDS.128 wavefront of lane 31 (which half-1 lanes stop a fold when half 0 merged)",
               "H100, " + D + "h100_measured_3.jsonl"),
    "synth": (family_synth, None,
              "round 5: the swizzles layoutproof synth picks for row-major tiles, and no swizzle",
              "H100, " + D + "h100_measured_4.jsonl"),
    "random": (family_random, 20261123,
               "held-out check: random lane masks and addresses for LDS/STS.64 and .128",
               None),
    "h16b": (family_h16b, None,
             "LDS.128 with half 0 merged and a collision in half 1 (absorbed or not?), with and without the collision",
             "H200 (sm_90), 4, 2, 3, 2 wavefronts as the model predicts; no data file, see docs/bank_model.md"),
}
# The measured rounds of the random family, by seed.
RANDOM_MEASURED = {20261123: "round 6, H100, " + D + "h100_measured_5.jsonl",
                   7: "round 7, H100, " + D + "h100_measured_6.jsonl",
                   99: "round 8, H100, " + D + "h100_measured_7.jsonl"}
# The committed case file, in measurement order.
COMMITTED = ["basic", "inactive", "wide_merge", "lane31", "synth", "random:20261123", "random:7", "random:99", "h16b"]
FILE_HEADER = ("# Bank-probe cases (probe.cu's input), written by gpu_check/bank_probe/gen_cases.py with no arguments.\n"
               "# NAME OP WIDTH A0..A31 (A = shared-memory byte offset, -1 = inactive lane). A family starts at its\n"
               "# line '# family NAME -- ...'; FAMILY=NAME bash gpu_check/bank_probe/run_probe.sh runs one family.\n")


def family_comment(spec):
    """'# family SPEC -- what it probes; measured: where' (run_probe.sh's FAMILY= matches SPEC)."""
    name, seed = parse_spec(spec)
    _, _, what, measured = FAMILIES[name]
    if name == "random":
        what += ", seed %d" % seed
        measured = RANDOM_MEASURED.get(seed, "not measured")
    return "# family %s -- %s; measured: %s\n" % (spec, what, measured)


def parse_spec(spec):
    name, _, seed = spec.partition(":")
    if name not in FAMILIES:
        raise SystemExit("gen_cases.py: no family %r (families: %s)" % (name, ", ".join(FAMILIES)))
    default = FAMILIES[name][1]
    if seed and default is None:
        raise SystemExit("gen_cases.py: family %r takes no seed" % name)
    try:
        return name, (int(seed) if seed else default)
    except ValueError:
        raise SystemExit("gen_cases.py: bad seed %r" % seed)


def check(name, op, w, a):
    """probe.cu's input rules: 32 lanes, -1 or an offset in its 48 KiB aligned to the width."""
    assert len(a) == 32, name
    for x in a:
        assert x == -1 or (0 <= x < SMEM_BYTES and x % w == 0), (name, x)


def family_text(spec, opts):
    name, seed = parse_spec(spec)
    spec = name if FAMILIES[name][1] is None else "%s:%d" % (name, seed)
    out = [family_comment(spec)]
    for cname, op, w, a in FAMILIES[name][0](seed, opts):
        check(cname, op, w, a)
        out.append(f"{cname} {op} {w} {' '.join(map(str, a))}\n")
    return "".join(out)


def main(argv):
    specs, opts = [], {}
    i = 0
    while i < len(argv):
        if argv[i] == "--family" and i + 1 < len(argv):
            specs.append(argv[i + 1])
            i += 2
        elif argv[i].startswith("--family="):
            specs.append(argv[i].split("=", 1)[1])
            i += 1
        elif argv[i] == "--layoutproof" and i + 1 < len(argv):
            opts["layoutproof"] = argv[i + 1]
            i += 2
        elif argv[i] == "--list":
            for name, (_, seed, what, measured) in FAMILIES.items():
                if seed is not None:
                    name += ":SEED"
                    measured = "; ".join("seed %d: %s" % kv for kv in RANDOM_MEASURED.items())
                print("%-11s %s; measured: %s" % (name, what, measured))
            print("cases.txt holds, in order:", " ".join(COMMITTED))
            return 0
        elif argv[i] in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            print("usage: gen_cases.py [--family NAME[:SEED]]... [--list] [--layoutproof BIN]", file=sys.stderr)
            return 2
    text = "".join(family_text(s, opts) for s in specs) if specs else \
        FILE_HEADER + "".join(family_text(s, opts) for s in COMMITTED)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
