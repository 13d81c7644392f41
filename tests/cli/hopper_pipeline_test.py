#!/usr/bin/env python3
"""The Hopper claims on a pipelined TMA -> WGMMA GEMM against the GPU: every variant of
gpu_check/hopper/wgmma_pipeline.cu (outcomes in tests/hopper/wgmma_pipeline/wgmma_pipeline.txt,
measured on an H100) decided on the probe's own PTX at the launch the variant ran, its two tensor
maps bound with --tensor-map, and compared with what the GPU did:
  the GEMM came out right  -> every verdict of operand-contract, tma-aligned, descriptor-valid and
                              tensor-map-valid PROVED, except an operand-contract that names a race
                              (a read before its warp waits for the copy: what it sees depends on
                              when the copy lands), which must be UNKNOWN, never PROVED;
  it came out wrong        -> no operand-contract PROVED on every instruction: one REFUTED, or
                              UNKNOWN naming the race;
and for the broken pipelines the refutation names what the tile's bytes alone cannot show: A and B
on different k-tiles, a k-block summed twice. A wrong PROVED is the worst bug this can have.
Usage: hopper_pipeline_test.py LAYOUTPROOF
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'hopper', 'wgmma_pipeline')
PTX = os.path.join(DATA, 'wgmma_pipeline.ptx')
CLAIMS = ['operand-contract', 'tma-aligned', 'descriptor-valid', 'tensor-map-valid']


def main():
    binary = sys.argv[1]
    lines = open(os.path.join(DATA, 'wgmma_pipeline.txt')).read().splitlines()[2:]
    failures, outcomes = [], {'right': 0, 'wrong': 0}
    for line in lines:
        f = dict(w.split('=', 1) for w in line.split() if '=' in w)
        k, s = int(f['K']), int(f['S'])
        right = f['wrong'].startswith('0/')
        outcomes['right' if right else 'wrong'] += 1
        spec = f'dtype=bf16,dims={k}x64,strides={2 * k},box=64x64,swizzle=128B'
        args = [binary, 'ptx', PTX, '--kernel', 'pipeline', '--block', '128', '--smem-bytes', str(16384 * s + 1024),
                '--tensor-map', '0=' + spec, '--tensor-map', '1=' + spec, '--json']
        for i, name in enumerate(['K', 'S', 'stage_skew', 'b_skew', 'kstep', 'blocks']):
            args += ['--param', f'{i + 3}={f[name]}']
        for c in CLAIMS:
            args += ['--claim', c]
        p = subprocess.run(args, capture_output=True, text=True)
        if not p.stdout.startswith('{'):
            failures.append(f'{line}: no JSON (exit {p.returncode}): {p.stderr[-300:]}')
            continue
        rs = json.loads(p.stdout)['results']
        contract = [r for r in rs if r['claim'] == 'operand-contract']
        text = lambda r: r.get('witness_text') or r.get('detail') or ''
        race = lambda r: r['verdict'] == 'UNKNOWN' and 'a race' in text(r)
        if len(contract) != 4:
            failures.append(f'{line}: want operand-contract on the four wgmmas, got {len(contract)}')
        if right:
            bad = [(r['claim'], r['verdict'], text(r)[:160]) for r in rs if r['verdict'] != 'PROVED' and not race(r)]
            if bad:
                failures.append(f'{line}: right on the GPU, want every claim PROVED (or a race UNKNOWN), got {bad[:3]}')
        else:
            if all(r['verdict'] == 'PROVED' for r in contract):
                failures.append(f'{line}: WRONG PROVED: wrong on the GPU, every operand-contract PROVED')
            if not any(r['verdict'] == 'REFUTED' or race(r) for r in contract):
                failures.append(f'{line}: wrong on the GPU, want an operand-contract REFUTED or a race, got {[r["verdict"] for r in contract]}')
            need = {'B k-tile': 'the product pairs different k', 'repeat': 'a second time'}.get(f['what'])
            if need and not any(r['verdict'] == 'REFUTED' and need in text(r) for r in contract):
                failures.append(f'{line}: want a refutation saying {need!r}, got {[text(r)[:120] for r in contract]}')
    # Two consumer warpgroups on one 128-row A tile (tests/hopper/two_warpgroups, hand-written):
    # warpgroup 1's A starts 64 rows in. Right there: both claims PROVED (a regression: row m of
    # its read was held to tile row m); one row (128 bytes) or 16 bytes further: both REFUTED.
    two = os.path.join(HERE, '..', 'hopper', 'two_warpgroups', 'two_warpgroups.ptx')
    for skew, want in [(0, 'PROVED'), (128, 'REFUTED'), (16, 'REFUTED')]:
        p = subprocess.run([binary, 'ptx', two, '--kernel', 'two_wg', '--block', '256', '--param', f'2={skew}', '--json',
                            '--tensor-map', '0=dtype=bf16,dims=64x128,strides=128,box=64x128,swizzle=128B',
                            '--tensor-map', '1=dtype=bf16,dims=64x64,strides=128,box=64x64,swizzle=128B',
                            '--claim', 'operand-contract', '--claim', 'descriptor-valid'], capture_output=True, text=True)
        vs = [r['verdict'] for r in json.loads(p.stdout)['results']] if p.stdout.startswith('{') else []
        if vs != [want, want]:
            failures.append(f'two warpgroups, A start skewed {skew} bytes: want both {want}, got {vs} {p.stderr[-200:]}')
    print(f'hopper pipeline: {len(lines)} measured variants ({outcomes}), {len(failures)} failures')
    for x in failures:
        print('FAIL', x)
    sys.exit(1 if failures or len(lines) < 21 else 0)


main()
