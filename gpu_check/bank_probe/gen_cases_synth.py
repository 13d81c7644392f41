#!/usr/bin/env python3
"""Probe round 5 (cases_synth.txt): hardware evidence for `layoutproof synth`.

For row-major tiles of many row lengths, the swizzle synth finds (if any) and the unswizzled tile,
every row-per-lane instruction of the first chunks as LDS/STS of the vector width. The names say
tile, element, vector, swizzle, op and chunk. Usage: gen_cases_synth.py LAYOUTPROOF > cases_synth.txt
"""
import json
import subprocess
import sys

BIN = sys.argv[1]


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


def synth(rows, cols, e, v):
    out = subprocess.run([BIN, "synth", "--tile", f"({rows},{cols}):({cols},1)", "--elem-bytes", str(e), "--vec", str(v),
                          "--pattern", "row-per-lane", "--json"], capture_output=True, text=True)
    d = json.loads(out.stdout)
    return d["best"]["swizzle"] if d.get("found") else None


def cases_for(rows, cols, e, v, sw_text, chunks):
    sw = parse_sw(sw_text)
    tag = (sw_text or "none").replace("<", "").replace(">", "").replace(",", "")
    for op in ("ld", "st"):
        for c in range(min(chunks, cols // v)):
            addrs = [4 * 0 + e * swz(sw, (lane % rows) * cols + c * v) for lane in range(32)]
            yield f"synth_{rows}x{cols}_e{e}v{v}_{tag}_{op}_c{c}", op, e * v, addrs


print("# NAME OP WIDTH A0..A31 (gen_cases_synth.py: swizzles found by layoutproof synth, and none)")
tiles = [(32, c, 4, 4) for c in range(36, 132, 4)] + [(8, c, 2, 8) for c in (72, 80, 96, 112, 136)] + \
        [(32, c, 4, 1) for c in (40, 48, 64, 72, 96)]
for rows, cols, e, v in tiles:
    best = synth(rows, cols, e, v)
    for sw_text in ([best] if best else []) + [None]:
        for name, op, w, a in cases_for(rows, cols, e, v, sw_text, 3):
            print(name, op, w, " ".join(str(x) for x in a))
