#!/usr/bin/env python3
"""wgmma.mma_async's counts against Nsight Compute: every case of tests/hopper/hgmma_counts (one
wgmma per warpgroup, m64nNk16 bf16 for N = 64, 128, 256 under each swizzle and none, A in shared
memory or registers, m64nNk32 e4m3; measured on the H100, hgmma_counts.csv) run through
`layoutproof ptx` on the probe's PTX (nvcc 13.0 of gpu_check/hopper/hgmma_counts_gen.py's source):
the wgmma's executed, wavefronts and ideal equal the measured HGMMA/QGMMA row's. Also the pipeline
probe's variant 6 (tests/hopper/wgmma_pipeline/ncu_variant6.csv): each of its four wgmmas and
the totals equal the measured SASS rows (16 / 128 / 128 each; UTMALDG and SYNCS count nothing).
The same on the measured SASS (`layoutproof sass` on hgmma_counts.sass.xz and the pipeline's
wgmma_pipeline.sass.xz): each HGMMA/QGMMA row equals Nsight Compute's at its offset.
Usage: hgmma_counts_test.py LAYOUTPROOF REPO_ROOT
"""
import csv
import json
import lzma
import os
import subprocess
import sys
import tempfile

LP, ROOT = sys.argv[1], sys.argv[2]
D = os.path.join(ROOT, 'tests/hopper/hgmma_counts')
failures, n = [], 0
for row in csv.DictReader(open(os.path.join(D, 'hgmma_counts.csv'))):
    kernel = row['kernel'].split('(')[0]
    want = (int(row['executed']), int(row['wavefronts']), int(row['ideal']))
    p = subprocess.run([LP, 'ptx', os.path.join(D, 'hgmma_counts.ptx'), '--kernel', kernel + '(', '--block', '128', '--smem-bytes', '50176', '--json'],
                       capture_output=True, text=True)
    k = json.loads(p.stdout)['kernels'][0]
    got = [(x.get('executed'), x.get('wavefronts'), x.get('ideal')) for x in k['not_counted'] if 'wgmma.mma_async' in x['text']]
    n += 1
    if got != [want]:
        failures.append(f'{kernel}: measured {want}, layoutproof {got}')
P = os.path.join(ROOT, 'tests/hopper/wgmma_pipeline')
rows = list(csv.DictReader(open(os.path.join(P, 'ncu_variant6.csv'))))
measured = [(int(r['Instructions Executed']), int(r['L1 Wavefronts Shared']), int(r['L1 Wavefronts Shared Ideal'])) for r in rows if 'HGMMA' in r['Source']]
totals = tuple(sum(r[i] for r in measured) for i in range(3))  # every other row of the table counts 0 shared wavefronts
p = subprocess.run([LP, 'ptx', os.path.join(P, 'wgmma_pipeline.ptx'), '--kernel', 'pipeline', '--block', '128', '--smem-bytes', '33792', '--json'] +
                   sum((['--param', f'{i}={v}'] for i, v in [(3, 256), (4, 2), (5, 0), (6, 0), (7, 32), (8, 4)]), []), capture_output=True, text=True)
k = json.loads(p.stdout)['kernels'][0]
got = [(x.get('executed'), x.get('wavefronts'), x.get('ideal')) for x in k['not_counted'] if 'wgmma.mma_async' in x['text']]
if got != measured:
    failures.append(f'pipeline variant 6: measured {measured}, layoutproof {got}')
if (k['totals']['executed'], k['totals']['wavefronts'], k['totals']['ideal']) != totals:
    failures.append(f"pipeline variant 6: measured totals {totals}, layoutproof {k['totals']} {k.get('totals_unknown')}")
# SASS: the measured binaries' own listings. The pipeline's parameters are at their offsets in the
# parameter buffer (c[0x0][0x388] is K: buffer byte 0x178 = 376): with them free its loop runs for
# every iteration at once and the wgmmas have no count (it runs under a condition on them).
with tempfile.TemporaryDirectory() as tmp:
    hg = os.path.join(tmp, 'hg.sass')
    open(hg, 'wb').write(lzma.open(os.path.join(D, 'hgmma_counts.sass.xz')).read())
    for row in csv.DictReader(open(os.path.join(D, 'hgmma_counts.csv'))):
        kernel = row['kernel'].split('(')[0]
        want = (int(row['executed']), int(row['wavefronts']), int(row['ideal']))
        p = subprocess.run([LP, 'sass', hg, '--kernel', kernel + 'P', '--block', '128', '--smem-bytes', '50176', '--json'], capture_output=True, text=True)
        ks = json.loads(p.stdout)['kernels'] if p.stdout.startswith('{') else []
        got = [(x.get('executed'), x.get('wavefronts'), x.get('ideal')) for k in ks for x in k['not_counted'] if 'GMMA' in x['text']]
        if got != [want]:
            failures.append(f'SASS {kernel}: measured {want}, layoutproof {got} {p.stderr[-200:]}')
    wp = os.path.join(tmp, 'wp.sass')
    open(wp, 'wb').write(lzma.open(os.path.join(P, 'wgmma_pipeline.sass.xz')).read())
    p = subprocess.run([LP, 'sass', wp, '--kernel', 'pipeline', '--block', '128', '--smem-bytes', '33792', '--json'] +
                       sum((['--param', f'@{o}:4={v}'] for o, v in [(376, 256), (380, 2), (384, 0), (388, 0), (392, 32), (396, 4)]), []),
                       capture_output=True, text=True)
    k = json.loads(p.stdout)['kernels'][0]
    got = [(x.get('executed'), x.get('wavefronts'), x.get('ideal')) for x in k['not_counted'] if 'HGMMA' in x['text']]
    if got != measured or (k['totals']['executed'], k['totals']['wavefronts'], k['totals']['ideal']) != totals:
        failures.append(f"SASS pipeline variant 6: measured {measured} totals {totals}, layoutproof {got} {k['totals']} {k.get('totals_unknown')}")
    # Its parameters free: the k-loop runs for every iteration at once, so a count would rest on
    # nothing (it once printed 16/128/128 so): none, and the totals not known.
    p = subprocess.run([LP, 'sass', wp, '--kernel', 'pipeline', '--block', '128', '--smem-bytes', '33792', '--json'], capture_output=True, text=True)
    k = json.loads(p.stdout)['kernels'][0]
    if any(x.get('executed') is not None for x in k['not_counted']) or k['totals']['executed'] is not None:
        failures.append(f"SASS pipeline, parameters free: want no wgmma count and totals not known, got {k['totals']}")
    # Malformed shapes (no k, no N): no count, no crash (a shape's parse once read past the text).
    bad = os.path.join(tmp, 'bad.sass')
    open(bad, 'w').write('\tcode for sm_90a\n\t\tFunction : _Z1kPf\n\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"\n'
                         '        /*0000*/                   HGMMA.64x R24, gdesc[UR4], RZ, !UPT, gsb0 ;\n'
                         '        /*0010*/                   HGMMA.64x128 R24, gdesc[UR4], RZ ;\n        /*0020*/                   EXIT ;\n')
    p = subprocess.run([LP, 'sass', bad, '--block', '128', '--allow-empty', '--json'], capture_output=True, text=True)
    if p.returncode not in (0, 3) or any(x.get('executed') is not None for x in json.loads(p.stdout)['kernels'][0]['not_counted']):
        failures.append(f'malformed HGMMA shapes: want no count and exit 0 or 3, got exit {p.returncode} {p.stderr[-200:]}')
    for mn in ['wgmma.mma_async.sync.aligned.m64n64.f32.bf16.bf16', 'wgmma.mma_async.sync.aligned.m64n']:
        w = os.path.join(tmp, 'w.ptx')
        open(w, 'w').write('.version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n.reg .b64 %rd<4>;\n.reg .f32 %f<4>;\n'
                           '.reg .pred %p<2>;\nmov.b64 %rd1, 0;\nsetp.ne.b32 %p1, 1, 0;\n' + mn + ' {%f1, %f2}, %rd1, %rd1, %p1, 1, 1, 0, 0;\nret;\n}\n')
        p = subprocess.run([LP, 'ptx', w, '--block', '128', '--allow-empty', '--json'], capture_output=True, text=True)
        if p.returncode not in (0, 3) or any(x.get('executed') is not None for x in json.loads(p.stdout)['kernels'][0]['not_counted']):
            failures.append(f'malformed {mn}: want no count and exit 0 or 3, got exit {p.returncode} {p.stderr[-200:]}')
print(f'hgmma counts: {n} measured cases and the pipeline probe, PTX and SASS, {len(failures)} failures')
for f in failures:
    print('FAIL', f)
sys.exit(1 if failures or n < 17 else 0)
