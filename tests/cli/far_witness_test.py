#!/usr/bin/env python3
"""A violation for every launch whose first witness is far out is still refuted, by a witness that
replays: siboehm's sgemm2DBlocktiling<128,128,8,8,8> (its SASS from the measured third-party
corpus, every parameter free). Z3's first witness for some of its 2-way conflicts is a negative K,
whose unsigned trip count runs the concrete re-run past its step budget (UNKNOWN, "the concrete run
cannot decide"); asked again with K in 1..4096 and iterations below 256, a small witness replays.
Checks: every claim decided (no UNKNOWN), every REFUTED replayed at a K in 1..4096.
Usage: far_witness_test.py LAYOUTPROOF REPO_ROOT
"""
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

LP, ROOT = sys.argv[1], sys.argv[2]
KERNEL = '_Z18sgemm2DBlocktilingILi128ELi128ELi8ELi8ELi8EEviiifPKfS1_fPf'

with tempfile.TemporaryDirectory() as d:
    with tarfile.open(os.path.join(ROOT, 'tests/compiled/thirdparty/measured.tar.xz')) as t:
        t.extract(next(m for m in t.getmembers() if m.name.endswith('sgemm_cuda.sass')), d, filter='data')
    sass = next(os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs if f == 'sgemm_cuda.sass')
    p = subprocess.run([LP, 'sass', sass, '--kernel', KERNEL, '--block', '256', '--claim', 'conflict-free', '--claim', 'in-bounds',
                        '--claim', 'aligned', '--smem-bytes', '49152', '--json'], capture_output=True, text=True, timeout=600)
    rs = json.loads(p.stdout)['results']
failures = []
counts = {}
for r in rs:
    counts[r['verdict']] = counts.get(r['verdict'], 0) + 1
    text = r.get('witness_text') or r.get('detail') or ''
    if r['verdict'] == 'UNKNOWN':
        failures.append(f"UNKNOWN {r['claim']} line {r.get('line')}: {text[:200]}")
    if r['verdict'] == 'REFUTED':
        m = re.search(r'--param @8:4=(-?\d+)', text)
        if not m or not 1 <= int(m.group(1)) <= 4096:
            failures.append(f"REFUTED {r['claim']} line {r.get('line')}: want a replayed witness with K in 1..4096: {text[:240]}")
print(f'far witnesses: {len(rs)} claims {counts}, {len(failures)} failures')
for f in failures:
    print('FAIL', f)
sys.exit(1 if failures or counts.get('REFUTED', 0) < 5 else 0)
