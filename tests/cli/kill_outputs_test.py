#!/usr/bin/env python3
"""Outputs survive a kill: kill_outputs_test.py LAYOUTPROOF REPO_ROOT [TRIALS]

`layoutproof check` is run TRIALS times (default 200) with every output requested (--json,
--junit, --sarif, --markdown, --report), each run on a spec whose layout names carry the run's
number, and is killed with SIGTERM or SIGINT after a random delay (seeded, so a failure
reproduces). After each trial:
  - the process exited 0/1 (finished) or 143/130 (killed), never anything else;
  - every output that exists is complete and parses (JSON and SARIF with json, JUnit with an XML
    parser, Markdown ends with its closing tag, the report folder has an index.html that closes);
  - all outputs that exist come from ONE run (they name the same run number): a killed run leaves
    the previous run's outputs or none, never a mix;
  - no temporary file or folder (.NAME.partial-PID, a report folder being built or retired) is left
    beside them: the signal handler removes each (cli/output/atomic_file.hpp).
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

SPEC = """version: 1
layouts:
  - name: run{k} sA
    layout: Sw<3,3,3> o (8,64):(64,1)
    element: f16
    claims: [bijective, contiguous:8, contiguous:16]
    accesses:
      - pattern: row-per-lane
        claims: [conflict-free]
  - name: run{k} padded
    layout: (32,40):(40,1)
    element: f32
    claims: [injective]
    accesses:
      - pattern: row-per-lane
        claims: [conflict-free]
kernels:
  - name: run{k} k
    mma: make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{{}}, Layout<Shape<_2,_2,_1>>{{}}, Tile<_32,_32,_16>{{}})
    smem:
      - name: sA
        element: half_t
        layout: tile_to_shape(composition(Swizzle<3,3,3>{{}}, Layout<Shape<_8,_64>,Stride<_64,_1>>{{}}), make_shape(Int<128>{{}},Int<64>{{}},Int<3>{{}}))
        copies:
          - name: s2r
            copy: make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{{}}, mma)
            side: S
            claims: [conflict-free, vector-legal, covers]
"""


def run_ids(text):
    return set(re.findall(r'run(\d+) ', text))


def check_outputs(d, k):
    """The run number every existing output names, or raises AssertionError."""
    names = {'json': 'out.json', 'junit': 'out.xml', 'sarif': 'out.sarif', 'markdown': 'out.md'}
    seen = {}
    for what, name in names.items():
        p = os.path.join(d, name)
        if not os.path.exists(p):
            continue
        text = open(p, encoding='utf-8').read()
        if what in ('json', 'sarif'):
            json.loads(text)
        elif what == 'junit':
            ET.fromstring(text)
        else:
            assert text.rstrip().endswith('</details>') or '0 claims' in text or 'claims' in text.splitlines()[-1], text[-200:]
        seen[what] = run_ids(text)
    rep = os.path.join(d, 'report')
    if os.path.exists(rep):
        idx = os.path.join(rep, 'index.html')
        assert os.path.exists(idx), 'a report folder without index.html'
        html = open(idx, encoding='utf-8').read()
        assert html.rstrip().endswith('</html>'), 'index.html cut short'
        seen['report'] = run_ids(html)
    for what, ids in seen.items():
        assert len(ids) == 1, f'{what} names runs {ids}'
    runs = set().union(*seen.values()) if seen else set()
    assert len(runs) <= 1, f'outputs of two runs: {seen}'
    left = [f for f in os.listdir(d) if '.partial' in f]
    assert not left, f'temporary files or folders left: {left}'
    return runs


def main():
    binary, root = sys.argv[1], sys.argv[2]
    trials = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    rng = random.Random(20261126)
    d = tempfile.mkdtemp()
    failures = 0
    try:
        # The full run's duration bounds the kill delays.
        open(os.path.join(d, 'spec.yaml'), 'w').write(SPEC.format(k=0))
        t0 = time.monotonic()
        args = [binary, 'check', os.path.join(d, 'spec.yaml'), '--no-cache', '--no-progress',
                '--json', os.path.join(d, 'out.json'), '--junit', os.path.join(d, 'out.xml'),
                '--sarif', os.path.join(d, 'out.sarif'), '--markdown', os.path.join(d, 'out.md'),
                '--report', os.path.join(d, 'report')]
        first = subprocess.run(args, capture_output=True, text=True)
        full = time.monotonic() - t0
        assert first.returncode == 1, first.stdout + first.stderr
        assert check_outputs(d, 0) == {'0'}
        killed = 0
        for k in range(1, trials + 1):
            open(os.path.join(d, 'spec.yaml'), 'w').write(SPEC.format(k=k))
            sig = rng.choice([signal.SIGTERM, signal.SIGTERM, signal.SIGINT])
            p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            time.sleep(rng.uniform(0, full * 1.2))
            p.send_signal(sig)
            _, err = p.communicate()
            rc = p.returncode
            try:
                assert rc in (0, 1, 128 + sig, -sig), f'exit {rc}: {err}'
                killed += rc != 1
                check_outputs(d, k)
            except AssertionError as e:
                failures += 1
                print(f'FAIL trial {k} ({signal.Signals(sig).name}): {e}')
        # A finished run leaves no hidden partial folder either.
        done = subprocess.run(args, capture_output=True, text=True)
        check_outputs(d, trials + 1)
        stale = [f for f in os.listdir(d) if '.partial-' in f]
        if done.returncode != 1 or stale:
            failures += 1
            print(f'FAIL final run: exit {done.returncode}, left {stale}')
        print(f'kill outputs: {trials} trials ({killed} killed before finishing), {failures} failures; full run {full * 1000:.0f} ms')
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
