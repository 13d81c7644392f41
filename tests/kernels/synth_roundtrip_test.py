#!/usr/bin/env python3
"""synth --kernel round trip: for every configuration of synth_roundtrip/configs.txt,
`layoutproof synth --kernel --json` picks a layout; the C++ it prints (and its notation) is handed
back to `layoutproof trace --smem` for every copy, and conflict-free, vector-legal and covers must be
PROVED there too. A configuration named 'none ...' must end with no member conflict-free (exit 1),
and its best member's worst copy must be REFUTED conflict-free by trace.
Usage: synth_roundtrip_test.py LAYOUTPROOF CONFIGS"""
import json
import subprocess
import sys


def run(binary, args):
    p = subprocess.run([binary] + args, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def copy_args(copy):
    side, expr = copy.split(":", 1)
    return ["--side", side, "--copy", expr]


def trace(binary, smem, cfg, copy, claims):
    args = ["trace", "--smem", smem, "--element", cfg["element"]] + copy_args(copy)
    if cfg["mma"]:
        args += ["--mma", cfg["mma"]]
    for c in claims:
        args += ["--claim", c]
    return run(binary, args)


def main():
    binary, path = sys.argv[1], sys.argv[2]
    configs = []
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            continue
        f = [x.strip() for x in line.split(" | ")]
        configs.append({"name": f[0], "shape": f[1], "element": f[2], "mma": f[3], "copies": f[4:]})
    failures, found, none = 0, 0, 0
    for cfg in configs:
        args = ["synth", "--kernel", "--shape", cfg["shape"], "--element", cfg["element"], "--json", "--no-progress"]
        if cfg["mma"]:
            args += ["--mma", cfg["mma"]]
        for c in cfg["copies"]:
            args += ["--copy", c]
        rc, out = run(binary, args)
        try:
            d = json.loads(out[out.index("{"):])
        except ValueError:
            print(f"FAIL {cfg['name']}: synth exit {rc}, no JSON: {out[-400:]}")
            failures += 1
            continue
        want_none = cfg["name"].startswith("none")
        if want_none:
            ok = rc == 1 and not d["found"] and d["best_ratio"] > 1
            best = d["ranked"][0]["smem"] if d.get("ranked") else None
            refuted = 0
            if ok and best:
                for c in cfg["copies"]:
                    trc, tout = trace(binary, best, cfg, c, ["conflict-free"])
                    refuted += trc == 1 and "REFUTED  conflict-free" in tout
            if ok and refuted >= 1:
                none += 1
                print(f"ok   {cfg['name']}: none exists (best ratio {d['best_ratio']}, {refuted} copy refuted by trace)")
            else:
                print(f"FAIL {cfg['name']}: synth exit {rc}, found {d.get('found')}, best {best}, refuted {refuted}")
                failures += 1
            continue
        if rc != 0 or not d["found"]:
            print(f"FAIL {cfg['name']}: synth exit {rc}, found {d.get('found')}: {out[-600:]}")
            failures += 1
            continue
        bad = []
        for form in ("smem", "notation"):
            for c in cfg["copies"]:
                trc, tout = trace(binary, d[form], cfg, c, ["conflict-free", "vector-legal", "covers"])
                if trc != 0 or tout.count("PROVED  ") != 3:
                    bad.append(f"{form} {c.split(':')[0]}: trace exit {trc}: {tout[-300:]}")
        if bad:
            print(f"FAIL {cfg['name']}: winner {d['notation']}")
            for b in bad:
                print("    " + b)
            failures += 1
        else:
            found += 1
            print(f"ok   {cfg['name']}: {d['notation']} ({len(cfg['copies'])} copies re-proved by trace, C++ and notation)")
    print(f"{len(configs)} configurations: {found} found and re-proved, {none} none-exists confirmed, {failures} failures")
    return 1 if failures or not configs else 0


if __name__ == "__main__":
    sys.exit(main())
