#!/usr/bin/env python3
"""A ratio guard's verdict: the user seconds of a run against those of a reference run on the same
machine must stay under a bound (never an absolute time). Prints both and the ratio; exit 1 past it.

Usage: ratio_guard.py WHAT SECONDS REFERENCE REFERENCE_SECONDS BOUND
  e.g. ratio_guard.py "symbolic SGEMM proof" 0.31 "one concrete launch" 0.88 4
"""
import sys

what, s, ref, r, bound = sys.argv[1], float(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
ratio = s / max(r, 0.01)
print(f"{what} {s:.2f} s user, {ref} {r:.2f} s user: ratio {ratio:.1f} (bound {bound:g})")
sys.exit(0 if ratio < bound else 1)
