#!/usr/bin/env python3
"""operand-contract, tma-aligned and descriptor-valid against the H200: every variant of the TMA/WGMMA probe
(gpu_check/hopper/wgmma_probe.cu, bf16 and e4m3; outcomes in tests/hopper/wgmma_probe/wgmma_probe.txt) decided on
the probe's own PTX, its launch's parameters as the variant ran them and its tensor maps bound with
--tensor-map, and compared with what the GPU did:
  the GEMM came out right          -> every verdict of the three PROVED;
  it came out wrong                -> some operand-contract REFUTED (a wrong PROVED is the worst bug);
                                      descriptor-valid REFUTED for a wrong layout type or SBO (PROVED
                                      for any LBO: the hardware ignores it), tma-aligned for a base
                                      offset that disagrees with TMA's pattern;
  cudaErrorMisalignedAddress       -> tma-aligned REFUTED;
  cudaErrorIllegalAddress          -> operand-contract REFUTED, saying the read faults.
tensor-map-valid on the copies: PROVED on the reference, REFUTED where the kernel's expect_tx is not
the boxes' bytes or a map breaks a rule.
Also: a tensor map bound to a parameter the kernel lacks is exit 2; without --tensor-map the claims
are UNKNOWN, naming the parameter.
Usage: hopper_contract_test.py LAYOUTPROOF
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'hopper', 'wgmma_probe')
PTX = os.path.join(DATA, 'wgmma_probe.ptx')


def fields(line):
    return dict(w.split('=', 1) for w in line.split() if '=' in w)


def run(binary, args, kernel='probeILi0'):
    return subprocess.run([binary, 'ptx', PTX, '--kernel', kernel, '--block', '128', '--smem-bytes', '25600'] + args, capture_output=True, text=True)


def kernel_of(f):
    return 'probeILi1' if f.get('dtype') == 'e4m3' else 'probeILi0'  # probe<1>: e4m3, probe<0>: bf16


def launch(f, maps=True):
    span = int(f['swizzle'].rstrip('B'))
    dtype = f.get('dtype', 'bf16')
    e = 1 if dtype == 'e4m3' else 2
    k = span // e
    tm = f'dtype={dtype},dims={k}x64,strides={e * k},box={k}x64,swizzle={span}B'
    params = {2: 0, 3: k, 4: f['offset'], 5: f['layout'], 6: f['sbo'], 7: f['lbo'], 8: f['base_off'], 9: f['kstep'],
              10: {128: 1, 64: 2, 32: 3}[span], 11: 8 * span // 16}
    args = [a for i, v in params.items() for a in ('--param', f'{i}={v}')]
    return args + (['--tensor-map', f'0={tm}', '--tensor-map', f'1={tm}'] if maps else [])


def main():
    binary = sys.argv[1]
    failures, n = [], 0
    tally = {}
    for line in open(os.path.join(DATA, 'wgmma_probe.txt')):
        f = fields(line)
        if 'swizzle' not in f:
            continue
        n += 1
        p = run(binary, launch(f) + ['--claim', 'operand-contract', '--claim', 'tma-aligned', '--claim', 'descriptor-valid', '--json'], kernel_of(f))
        if not p.stdout.startswith('{'):
            failures.append(f'{line.strip()}: exit {p.returncode}: {p.stderr[-300:]}')
            continue
        vs = [(r['claim'], r['verdict'], r.get('witness_text') or r.get('detail') or '') for r in json.loads(p.stdout)['results']]
        contract = [v for v in vs if v[0] == 'operand-contract']
        valid = [v for v in vs if v[0] == 'descriptor-valid']
        aligned = [v for v in vs if v[0] == 'tma-aligned']
        # the wgmma rows that run (a loop of K/16 steps, unrolled or not): one verdict each of the
        # three; tma-aligned also on the two copies
        if not contract or len(valid) != len(contract) or len(aligned) != 2 + len(contract):
            failures.append(f'{line.strip()}: {len(contract)} operand-contract, {len(valid)} descriptor-valid and {len(aligned)} tma-aligned verdicts: {vs}')
            continue
        if f.get('what') in ('layout type', 'SBO in bytes', 'SBO halved', 'SBO doubled') and not any(v[1] == 'REFUTED' for v in valid):
            failures.append(f'{line.strip()}: descriptor-valid not REFUTED: {valid}')
        if f.get('what') == 'layout type':  # the fix: the descriptor that agrees, its bits decoding to the tile's fields
            import re
            span = int(f['swizzle'].rstrip('B'))
            for v in contract + valid:
                m = re.search(r'here: descriptor (0x[0-9a-f]+)', v[2])
                bits = int(m.group(1), 16) if m else None
                if v[1] == 'REFUTED' and (bits is None or (bits >> 62) & 3 != {128: 1, 64: 2, 32: 3}[span] or ((bits >> 32) & 0x3fff) * 16 != 8 * span
                                          or (bits >> 49) & 7 != 0):
                    failures.append(f'{line.strip()}: the suggested descriptor is not the one that agrees: {v[2][-240:]}')
        if f.get('what') in ('LBO', 'reference') and not all(v[1] == 'PROVED' for v in valid):
            failures.append(f'{line.strip()}: descriptor-valid not PROVED (LBO is ignored): {valid}')
        if 'wrong' in f and not f['wrong'].startswith('0/') and f.get('what') in ('placement', 'base offset') and \
                not any(v[1] == 'REFUTED' for v in aligned):
            failures.append(f'{line.strip()}: a base offset TMA did not write the pattern for, tma-aligned not REFUTED: {aligned}')
        if 'error' in f and f['error'] == 'cudaErrorMisalignedAddress':
            want, ok = 'fault (misaligned)', any(v[1] == 'REFUTED' and 'faults' in v[2] for v in aligned)
        elif 'error' in f:
            want, ok = 'fault (illegal address)', any(v[1] == 'REFUTED' and 'faults' in v[2] for v in contract)
        elif f['wrong'].startswith('0/'):
            want, ok = 'right', all(v[1] == 'PROVED' for v in vs)
        else:
            want = 'wrong'
            ok = any(v[1] == 'REFUTED' for v in contract)
            if any(v[1] == 'PROVED' for v in contract) and all(v[1] == 'PROVED' for v in contract):
                failures.append(f'WRONG PROVED: {line.strip()}')
        tally[want] = tally.get(want, 0) + 1
        if not ok:
            failures.append(f'{line.strip()}: measured {want}, verdicts {vs}')
    ref = fields(open(os.path.join(DATA, 'wgmma_probe.txt')).read().splitlines()[2])
    # A transposed (MN-major) operand is not modelled: every operand-contract UNKNOWN, saying so.
    with tempfile.TemporaryDirectory() as d:
        text = open(PTX).read()
        i = text.index('.entry _Z5probeILi0')
        j = text.index('p, 1, 1, 0, 0;', i)
        trans = os.path.join(d, 'trans.ptx')
        open(trans, 'w').write(text[:j] + 'p, 1, 1, 1, 0;' + text[j + len('p, 1, 1, 0, 0;'):])
        p = subprocess.run([binary, 'ptx', trans, '--kernel', 'probeILi0', '--block', '128', '--smem-bytes', '25600'] + launch(ref) +
                           ['--claim', 'operand-contract', '--json'], capture_output=True, text=True)
        vs = [(r['verdict'], r.get('detail') or '') for r in json.loads(p.stdout)['results']] if p.stdout.startswith('{') else []
        if not vs or not any(v[0] == 'UNKNOWN' and 'transposed' in v[1] for v in vs) or any(v[0] == 'PROVED' for v in vs[:1]):
            failures.append(f'a transposed operand: want operand-contract UNKNOWN on it, got {vs}')
    # A malformed parameter (was a raw stoll error when the claim was decided): exit 2, naming it.
    for bad, needle in [('0+x', "'+x' is not a byte offset"), ('+8', 'the parameter (an index or a name) is missing')]:
        p = run(binary, ['--tensor-map', bad + '=dtype=bf16,dims=64x64,strides=128,box=64x64,swizzle=128B', '--claim', 'operand-contract'])
        if p.returncode != 2 or needle not in p.stderr:
            failures.append(f'--tensor-map {bad}=...: exit {p.returncode}: {p.stderr[-200:]}')
    # Bad input and an unbound map.
    p = run(binary, ['--tensor-map', '17=dtype=bf16,dims=64x64,strides=128,box=64x64,swizzle=128B', '--claim', 'operand-contract'])
    if p.returncode != 2 or 'no selected kernel has parameter 17' not in p.stderr:
        failures.append(f'a map on a parameter the kernel lacks: exit {p.returncode}: {p.stderr[-200:]}')
    f = fields(open(os.path.join(DATA, 'wgmma_probe.txt')).read().splitlines()[2])
    args = launch(f, maps=False)
    p = run(binary, args + ['--claim', 'tma-aligned', '--json'])
    vs = [(r['verdict'], r['detail']) for r in json.loads(p.stdout)['results']] if p.stdout.startswith('{') else []
    if not vs or any(v[0] != 'UNKNOWN' or '--tensor-map' not in v[1] for v in vs) or not any('no --tensor-map for parameter 0' in v[1] for v in vs):
        failures.append(f'no --tensor-map: expected UNKNOWN naming the parameter, got {vs}')
    # tensor-map-valid: the reference's maps and expect_tx PROVED; the kernel expecting the bytes of
    # K = 48 for boxes of 64 REFUTED (the phase completes early); a box too wide for its swizzle REFUTED.
    for name, args, want, needle in [
            ('reference', launch(ref), 'PROVED', 'equals the bytes of the boxes'),
            ('expect_tx of K = 48', [a if a != '3=64' else '3=48' for a in launch(ref)], 'REFUTED', 'expects 12288 bytes'),
            ('a 256-byte box row under 128B', [a.replace('box=64x64', 'box=128x64') for a in launch(ref)], 'REFUTED', 'must fit the 128B swizzle')]:
        p = run(binary, args + ['--claim', 'tensor-map-valid', '--json'])
        vs = [(r['verdict'], r.get('witness_text') or r.get('detail') or '') for r in json.loads(p.stdout)['results']] if p.stdout.startswith('{') else []
        if len(vs) != 2 or any(v[0] != want or needle not in v[1] for v in vs):
            failures.append(f'tensor-map-valid, {name}: want {want} with {needle!r}, got {vs}')
    # A tile written twice by one phase of its mbarrier (the A copy issued twice): which copy's
    # bytes the wgmma reads is not known, so operand-contract is not decided (UNKNOWN), never PROVED.
    with tempfile.TemporaryDirectory() as d:
        text = open(PTX).read().splitlines(keepends=True)
        entry = next(i for i, l in enumerate(text) if '.entry _Z5probeILi0' in l)  # probe<0>, the bf16 kernel run below
        first = next(i for i, l in enumerate(text) if i > entry and 'cp.async.bulk.tensor' in l)
        twice = os.path.join(d, 'twice.ptx')
        open(twice, 'w').write(''.join(text[:first + 1] + [text[first]] + text[first + 1:]))
        p = subprocess.run([binary, 'ptx', twice, '--kernel', 'probeILi0', '--block', '128', '--smem-bytes', '25600'] + launch(ref) +
                           ['--claim', 'operand-contract', '--json'], capture_output=True, text=True)
        vs = [(r['verdict'], r.get('detail') or '') for r in json.loads(p.stdout)['results']] if p.stdout.startswith('{') else []
        if not vs or any(v[0] != 'UNKNOWN' or 'brings two copies into it' not in v[1] for v in vs):
            failures.append(f'a tile written twice: want operand-contract UNKNOWN, got {vs}')
    # The maps liblayoutproof_capture.so captured on the H200 from the probe's own encodes (variants 0
    # and 93, the bf16 and e4m3 references), their kernel and parameter added: every claim PROVED.
    lines = [json.loads(l) for l in open(os.path.join(DATA, 'captured_maps.jsonl'))]
    with tempfile.TemporaryDirectory() as d:
        for kernel, pair, v in [('probeILi0', lines[0:2], 0), ('probeILi1', lines[2:4], 93)]:
            caps = os.path.join(d, kernel + '.jsonl')
            with open(caps, 'w') as out:
                for param, line in enumerate(pair):
                    out.write(json.dumps({'kernel': kernel, 'param': param, **line}) + '\n')
            f = fields(open(os.path.join(DATA, 'wgmma_probe.txt')).read().splitlines()[2 + v])
            p = run(binary, launch(f, maps=False) + ['--tensor-maps', caps, '--claim', 'operand-contract', '--claim', 'tma-aligned',
                                                     '--claim', 'descriptor-valid', '--claim', 'tensor-map-valid', '--json'], kernel)
            vs = [r['verdict'] for r in json.loads(p.stdout)['results']] if p.stdout.startswith('{') else []
            if not vs or set(vs) != {'PROVED'}:
                failures.append(f'the captured maps of {kernel}: want every claim PROVED, got {vs} {p.stderr[-200:]}')
    # A spec's compiled entry takes tensor_maps: and the three claims; a bad map is exit 2 at its line.
    tm = 'dtype=bf16,dims=64x64,strides=128,box=64x64,swizzle=128B'
    entry = ('  - name: {name}\n    file: {ptx}\n    kernel: probeILi0\n    block: 128\n    smem_bytes: 25600\n'
             '    params: {{2: 0, 3: 64, 4: 0, 5: {layout}, 6: 64, 7: 1, 8: 0, 9: 32, 10: 1, 11: 64}}\n'
             '    tensor_maps:\n      0: {tm}\n      1: {tm}\n    claims: [operand-contract, tma-aligned, descriptor-valid]\n')
    with tempfile.TemporaryDirectory() as d:
        spec = os.path.join(d, 'hopper.yaml')
        with open(spec, 'w') as out:
            out.write('compiled:\n' + entry.format(name='reference', ptx=PTX, layout=1, tm=tm) + entry.format(name='64B layout type', ptx=PTX, layout=2, tm=tm))
        p = subprocess.run([binary, 'check', spec, '--json'], capture_output=True, text=True)
        res = json.loads(p.stdout)['results'] if p.stdout.startswith('{') else []
        ref = [r['verdict'] for r in res if r['subject'].startswith('reference')]
        bad = [(r['claim'], r['verdict']) for r in res if r['subject'].startswith('64B')]
        if p.returncode != 1 or not ref or set(ref) != {'PROVED'} or ('operand-contract', 'REFUTED') not in bad or ('descriptor-valid', 'REFUTED') not in bad:
            failures.append(f'spec tensor_maps: exit {p.returncode}, reference {ref}, 64B {bad}')
        with open(spec, 'w') as out:
            out.write('compiled:\n' + entry.format(name='reference', ptx=PTX, layout=1, tm=tm.replace('128B', '96B')))
        p = subprocess.run([binary, 'check', spec], capture_output=True, text=True)
        if p.returncode != 2 or "'96B' is not a swizzle the hardware has" not in p.stderr or 'hopper.yaml:9' not in p.stderr:
            failures.append(f'spec with a bad tensor map: exit {p.returncode}: {p.stderr[-300:]}')
    for x in failures:
        print('FAIL', x)
    print(f'hopper contract: {n} measured variants ({tally}), {len(failures)} failures')
    return 1 if failures or n != 147 else 0


if __name__ == '__main__':
    sys.exit(main())
