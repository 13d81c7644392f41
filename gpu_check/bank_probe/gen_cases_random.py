#!/usr/bin/env python3
"""Probe rounds 6 and 7 (cases_random.txt, seed 20261123; cases_random2.txt, seed 7): a held-out check of the bank model's fitted LDS.64/LDS.128
merge rules. Random lane masks of every density, distinct addresses (aligned to the width), drawn
either conflict-free (distinct 16-byte slots inside one 512-byte window) or at random over 4 KiB,
plus random address sharing. Fixed seed; nothing here was used to fit the rules."""
import random

import sys
R = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 20261123)
print("# NAME OP WIDTH A0..A31 (gen_cases_random.py, seed %d)" % (int(sys.argv[1]) if len(sys.argv) > 1 else 20261123))
n = 0
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
                print(f"rand_{op}{width}_{kind}_d{int(density*100)}_{rep}", op, width, " ".join(map(str, a)))
                n += 1
