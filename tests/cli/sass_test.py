#!/usr/bin/env python3
"""layoutproof sass on small hand-written SASS: each opcode family's address arithmetic against
Python written from the SASS semantics, UNKNOWN for what is outside the model, bad input located.

Usage: sass_test.py LAYOUTPROOF
"""
import json
import os
import subprocess
import sys
import tempfile

HEAD = '\tcode for sm_90\n\t\tFunction : _Z1kPfi\n\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"\n'


def sass(body):
    lines = [l.strip() for l in body.strip().split('\n')]
    return HEAD + ''.join(f'        /*{16 * i:04x}*/                   {l} ;\n' for i, l in enumerate(lines))


def run(binary, text, *args):
    with tempfile.NamedTemporaryFile('w', suffix='.sass', delete=False) as f:
        f.write(text)
        path = f.name
    p = subprocess.run([binary, 'sass', path, '--block', '32', '--json'] + list(args), capture_output=True, text=True)
    os.unlink(path)
    return p


def addrs(p):
    k = json.loads(p.stdout)['kernels'][0]
    return [[i['issues'][0]['addrs'] if i['issues'] else None for i in k['instructions']], k]


U32 = 0xffffffff
T = range(32)
# (name, SASS body before the shared access, the access, per-lane byte address, extra args)
CASES = [
    ('IMAD + LEA', 'S2R R0, SR_TID.X\nIMAD R1, R0, 0x21, RZ\nLEA R2, R1, 0x400, 0x2', 'LDS R3, [R2]',
     lambda t: 0x400 + 4 * (33 * t)),
    ('LOP3 xor-and', 'S2R R0, SR_TID.X\nLOP3.LUT R1, R0, 0x7, RZ, 0xc0, !PT\nLOP3.LUT R2, R0, R1, RZ, 0x3c, !PT\nIMAD.SHL.U32 R2, R2, 0x10, RZ',
     'STS.128 [R2+0x400], R4', lambda t: 0x400 + 16 * (t ^ (t & 7))),
    ('SHF + IADD3 + SGXT', 'S2R R0, SR_TID.X\nSHF.R.U32.HI R1, RZ, 0x3, R0\nSHF.L.U32 R2, R0, 0x2, RZ\nIADD3 R3, R2, R1, 0x400\nSGXT.U32 R4, R3, 0xc',
     'LDS R5, [R4]', lambda t: (((t << 2) + (t >> 3) + 0x400) & 0xfff)),
    ('LEA.HI sign fix', 'S2R R0, SR_TID.X\nVIADD R1, R0, 0x1\nSHF.R.S32.HI R2, RZ, 0x1f, R1\nLEA.HI R2, R2, R1, RZ, 0x8\nLOP3.LUT R2, R2, 0x3fffff00, RZ, 0xc0, !PT\nIMAD.IADD R3, R1, 0x1, -R2\nIMAD.SHL.U32 R3, R3, 0x4, RZ',
     'LDS R4, [R3+0x400]', lambda t: 0x400 + 4 * ((t + 1) % 256)),
    ('ISETP + SEL + PLOP3', 'S2R R0, SR_TID.X\nISETP.GE.U32.AND P0, PT, R0, 0x10, PT\nPLOP3.LUT P1, PT, P0, PT, PT, 0x0f, 0x0\nSEL R1, RZ, 0x80, P1\nIMAD R1, R0, 0x4, R1',
     'STS [R1+0x400], R0', lambda t: 0x400 + 4 * t + (0 if t < 16 else 0x80)),
    ('HFMA2.MMA constant + PRMT', 'S2R R0, SR_TID.X\nHFMA2.MMA R1, -RZ, RZ, 0, 1.9073486328125e-06\nPRMT R2, R0, 0x3210, RZ\nIMAD R2, R2, R1, 0x400',
     'LDS R3, [R2]', lambda t: 0x400 + 32 * t),
    ('parameter from the constant bank', 'S2R R0, SR_TID.X\nLDC R1, c[0x0][0x218]\nIMAD R2, R0, 0x4, R1\nULDC UR4, c[0x0][0x0]\nIMAD R2, RZ, RZ, R2',
     'LDS R3, [R2+0x400]', lambda t: 0x400 + 4 * t + 12, '--param', '1=12'),
    ('IMAD.WIDE into a pair, R+UR address', 'S2R R0, SR_TID.X\nIMAD.WIDE.U32 R2, R0, 0x8, RZ\nUMOV UR4, 0x400',
     'STS.64 [R2+UR4], R4', lambda t: 0x400 + 8 * t),
]


def comparable(path, binary, *args):
    """What `sass --json` decides for each kernel, without what the two listings differ in (their
    PTX-like line numbers, nvdisasm -g's CUDA lines): per instruction its offset, text, counts,
    issues and each verdict with its detail."""
    p = subprocess.run([binary, 'sass', path, '--block', '32', '--json', '--claim', 'conflict-free', '--claim', 'in-bounds',
                        '--smem-bytes', '5120', *args], capture_output=True, text=True)
    if p.returncode == 2:
        return p.returncode, p.stderr.strip().splitlines()[0] if p.stderr.strip() else '', None
    out = []
    for k in json.loads(p.stdout)['kernels']:
        rows = [(i['sass_offset'], i['text'], i['executed'], i['wavefronts'], i['ideal'], json.dumps(i['issues']),
                 [(v['claim'], v['verdict']) for v in i['verdicts']]) for i in k['instructions']]
        out.append((k['name'], rows))
    return p.returncode, '', out


def nvdisasm_full_form(binary):
    """`nvdisasm -g k.cubin` without -c prints the whole ELF, its data sections (.debug_frame,
    .nv.info, .nv.shared, .nv.constant0) written as directives (/*0000*/ .byte 0xff, ...): read
    as code, they once stopped the reader at .debug_frame. Its .text sections read exactly as
    the cuobjdump -sass listing of the same cubin (tests/compiled/nvdisasm/)."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'compiled', 'nvdisasm')
    full = comparable(os.path.join(here, 'column_read.nvdisasm'), binary, '--param', '1=5')
    dump = comparable(os.path.join(here, 'column_read.cuobjdump.sass'), binary, '--param', '1=5')
    if full[2] is None or dump[2] is None:
        return [f'nvdisasm full form: exit {full[0]} {full[1]!r}, cuobjdump form: exit {dump[0]} {dump[1]!r}']
    names = [k for k, _ in full[2]]
    if names != ['_Z9broadcastPfi', '_Z11column_readPf']:
        return [f'nvdisasm full form: kernels {names}']
    if full != dump:
        return [f'nvdisasm full form reads otherwise than cuobjdump: {full[2]} vs {dump[2]}']
    if full[0] != 1 or not any(v == ('conflict-free', 'REFUTED') for _, rows in full[2] for r in rows for v in r[6]):
        return [f'nvdisasm full form: exit {full[0]}, column_read\'s 32-way read not refuted']
    return []


def main():
    binary = sys.argv[1]
    failures = []
    for name, pre, access, formula, *extra in CASES:
        p = run(binary, sass(pre + '\n' + access + '\nEXIT'), *extra)
        if p.returncode != 0:
            failures.append(f'{name}: exit {p.returncode}: {p.stdout[-400:]} {p.stderr}')
            continue
        got, _ = addrs(p)
        want = [formula(t) & U32 for t in T]
        if got != [want]:
            failures.append(f'{name}: lanes {got}, want {want}')
    # An opcode outside the model in the address chain: UNKNOWN, naming it; never PROVED.
    p = run(binary, sass('S2R R0, SR_TID.X\nMUFU.EX2 R1, R0\nLDS R2, [R1]\nEXIT'), '--claim', 'conflict-free')
    k = json.loads(p.stdout)['kernels'][0] if p.stdout.startswith('{') else None
    if p.returncode != 3 or not k or k['instructions'][0]['verdicts'][0]['verdict'] != 'UNKNOWN':
        failures.append(f'MUFU.EX2 in the address: exit {p.returncode}: {p.stdout[-300:]}')
    # A carry chain (.X) is not modelled: what it writes is not known.
    p = run(binary, sass('S2R R0, SR_TID.X\nIADD3.X R1, R0, RZ, RZ, P0, !PT\nSTS [R1], R0\nEXIT'), '--claim', 'aligned')
    if p.returncode != 3:
        failures.append(f'IADD3.X in the address: exit {p.returncode} (want 3, UNKNOWN)')
    # @!PT accesses (ptxas's padding): executed once per warp, no wavefront.
    p = run(binary, sass('@!PT LDS RZ, [RZ]\nEXIT'))
    k = json.loads(p.stdout)['kernels'][0]
    i = k['instructions'][0]
    if [i['executed'], i['wavefronts'], i['ideal'], i['sass_offset']] != [1, 0, 0, 0]:
        failures.append(f'@!PT LDS: {i}')
    # A loop: ISETP + BRA back by offset (cuobjdump) and by label (nvdisasm).
    loop = sass('S2R R0, SR_TID.X\nIMAD.MOV.U32 R1, RZ, RZ, RZ\nLEA R2, R0, 0x400, 0x2\nIMAD R3, R1, 0x80, R2\nSTS [R3], R0\n'
                'VIADD R1, R1, 0x1\nISETP.NE.AND P0, PT, R1, 0x3, PT\n@P0 BRA 0x30\nEXIT')
    p = run(binary, loop, '--claim', 'conflict-free')
    k = json.loads(p.stdout)['kernels'][0] if p.returncode == 0 else None
    if not k or k['instructions'][0]['executed'] != 3 or k['totals']['wavefronts'] != 3:
        failures.append(f'loop by offset: exit {p.returncode}: {p.stdout[-300:]}')
    # LDGSTS waits on its global side: 8 bytes per lane from a 32-byte global stride put 4 lanes on
    # each global bank pair of a half-warp (8 wavefronts, ideal 2); from an 8-byte stride none (2);
    # the pointer left free only rotates the banks: the same 8.
    for stride, want, args in [(0x20, 8, ['--param', '0=0']), (0x8, 2, ['--param', '0=0']), (0x20, 8, [])]:
        body = (f'S2R R9, SR_TID.X\nLDC.64 R2, c[0x0][0x210]\nIMAD.WIDE R2, R9, {stride:#x}, R2\n'
                'IMAD.SHL.U32 R9, R9, 0x8, RZ\nLDGSTS.E.64 [R9+0x400], desc[UR6][R2.64]\nEXIT')
        p = run(binary, sass(body), '--claim', 'conflict-free', *args)
        k = json.loads(p.stdout)['kernels'][0] if p.stdout.startswith('{') else None
        got = k['instructions'][0]['wavefronts'] if k else None
        if got != want or (p.returncode == 1) != (want > 2):
            failures.append(f'LDGSTS global stride {stride} {args}: wavefronts {got}, want {want}, exit {p.returncode}')
    # --report on SASS: the stride-two kernel of the measured corpus, REFUTED, with its figure.
    with tempfile.TemporaryDirectory() as d:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        p = subprocess.run([binary, 'sass', os.path.join(root, 'tests/compiled/measured/hand.nvdisasm'), '--kernel', 'stride_two',
                            '--block', '32', '--claim', 'conflict-free', '--report', os.path.join(d, 'r')], capture_output=True, text=True)
        html = open(os.path.join(d, 'r', 'index.html')).read() if os.path.exists(os.path.join(d, 'r', 'index.html')) else ''
        if p.returncode != 1 or 'REFUTED' not in html or '/*' not in html or not os.path.exists(os.path.join(d, 'r', 'report.svg')):
            failures.append(f'sass --report: exit {p.returncode}: {p.stderr}')
    # A shared-memory opcode in a form outside the model (or TMA/wgmma) is listed, never silently uncounted:
    # the counts alone are then not complete (exit 3).
    for body in ['S2R R0, SR_TID.X\nLDS.ZZ R1, [R0]\nEXIT', 'UTMALDG.2D [UR8], [UR4]\nEXIT', 'HGMMA.64x64x16.F32 R24, gdesc[UR4], R24\nEXIT']:
        with tempfile.NamedTemporaryFile('w', suffix='.sass', delete=False) as f:
            f.write(sass(body))
            path = f.name
        p = subprocess.run([binary, 'sass', path, '--block', '32'], capture_output=True, text=True)
        os.unlink(path)
        if 'touches shared memory and is not counted' not in p.stdout or p.returncode != 3:
            failures.append(f'{body.splitlines()[-2]!r}: not listed as a shared-memory op outside the model: {p.stdout[-300:]} {p.stderr}')
    # Malformed SASS: exit 2, FILE:LINE:COL and a caret.
    for bad, where in [(HEAD + '        /*0000*/   LDS R1 [R2 ;\n', ':4:'), (HEAD + '        /*0000*/   LDS R1, [R2]\n', ':4:'),
                       (HEAD + 'this is not sass\n', ':4:'), (HEAD + '        /*0000*/   @Q1 LDS R1, [R2] ;\n', ':4:')]:
        p = run(binary, bad)
        if p.returncode != 2 or where not in p.stderr or '^' not in p.stderr:
            failures.append(f'malformed {bad.splitlines()[-1]!r}: exit {p.returncode}: {p.stderr}')
    # PTX given to sass, SASS given to ptx: refused with the right command named.
    with tempfile.NamedTemporaryFile('w', suffix='.sass', delete=False) as f:
        f.write(sass('EXIT'))
        path = f.name
    p = subprocess.run([binary, 'ptx', path, '--block', '32'], capture_output=True, text=True)
    os.unlink(path)
    if p.returncode != 2 or 'layoutproof sass' not in p.stderr:
        failures.append(f'SASS given to ptx: exit {p.returncode}: {p.stderr}')
    failures += nvdisasm_full_form(binary)
    for f in failures:
        print('FAIL', f)
    print(f'sass: {len(CASES)} address cases, {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
