#!/usr/bin/env python3
"""Every shared-memory instruction form, generated: each is counted (a site, with its op and width)
or listed as not counted with why; never absent. A claim over a listed one is UNKNOWN.

PTX: ld/st/atom/red over .shared, .shared::cta and .shared::cluster with every type, vector width
and memory-order qualifier; ldmatrix/stmatrix in every .xN/.trans/shape/type; cp.async .ca/.cg of
4/8/16 bytes; cp.async.bulk (and .tensor, cp.reduce.async.bulk); st.async and red.async;
mbarrier.*; cp.async.mbarrier.arrive; wgmma.mma_async; tcgen05.mma/cp; generic ld/st/atom/red
through cvta.shared (counted), a parameter's pointer (neither) and a loaded address (listed). SASS: LDS/STS in every width, LDSM/STSM .16.M88/.MT88 (no count, .2, .4),
LDGSTS, ATOMS.*, and the opcodes outside the model (other LDSM shapes, REDS, UTMALDG/UTMASTG/UBLKCP,
HGMMA, SYNCS, ARRIVES, STAS, generic LD/ST/ATOM/RED whose high word was loaded), generic LD/ST/ATOM/RED
through the shared window (SR_SWINHI: counted) and through a parameter's pointer (global: neither). Controls: forms that touch no shared byte
(global accesses, fences, L2 prefetches) are neither counted nor listed.

Each form is a one-instruction kernel; all kernels of a format share one file and one run.
Usage: shared_forms_test.py LAYOUTPROOF
"""
import itertools
import json
import os
import subprocess
import sys
import tempfile

# ---- PTX -----------------------------------------------------------------------------------------

REGS = ('.reg .b16 %rs<40>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<40>;\n.reg .f32 %f<40>;\n.reg .f64 %fd<40>;\n'
        '.reg .b128 %rq<8>;\n.reg .pred %p<8>;\n')
# %r1: the shared address (16 bytes a lane), %rd1: the same as a generic address, %rd2: a global one.
SETUP = ('mov.u32 %r0, %tid.x;\nmov.u32 %r1, s;\nmad.lo.u32 %r1, %r0, 16, %r1;\ncvt.u64.u32 %rd0, %r1;\n'
         'cvta.shared.u64 %rd1, %rd0;\nld.param.u64 %rd2, [g];\nmov.u32 %r2, 1;\nmov.u32 %r3, 2;\n')

TYPES = ['b8', 'b16', 'b32', 'b64', 'b128', 'u8', 'u16', 'u32', 'u64', 's8', 's16', 's32', 's64', 'f32', 'f64']


def bits_of(t):
    return int(t[1:])


def reg_for(t, i):
    """A data register of type t (narrow integers in a .b16 register, as nvcc writes them)."""
    b = bits_of(t)
    if b <= 16:
        return f'%rs{i}'
    if b == 32:
        return f'%f{i}' if t[0] == 'f' else f'%r{i + 4}'
    if b == 64:
        return f'%fd{i}' if t[0] == 'f' else f'%rd{i + 4}'
    return f'%rq{i}'


def data(t, vec):
    n = {'': 1, 'v2': 2, 'v4': 4}[vec]
    regs = [reg_for(t, i) for i in range(n)]
    return regs[0] if n == 1 else '{' + ', '.join(regs) + '}'


def ldst_forms():
    """(instruction, expected): ('site', op, width) or ('listed',)."""
    out = []
    orders = {'shared': ['', 'volatile', 'weak', 'relaxed.cta', 'acquire.cta'], 'shared::cta': ['', 'relaxed.cta'],
              'shared::cluster': ['', 'relaxed.cluster', 'acquire.cluster']}
    for space, quals in orders.items():
        for t, vec, q in itertools.product(TYPES, ['', 'v2', 'v4'], quals):
            n = {'': 1, 'v2': 2, 'v4': 4}[vec]
            width = bits_of(t) // 8 * n
            if width > 16 or (t == 'b128' and vec):
                continue
            for op in ['ld', 'st']:
                if op == 'st' and q.startswith('acquire'):
                    q2 = q.replace('acquire', 'release')
                else:
                    q2 = q
                mn = '.'.join(x for x in [op, q2, space, vec, t] if x)
                text = f'{mn} {data(t, vec)}, [%r1];' if op == 'ld' else f'{mn} [%r1], {data(t, vec)};'
                out.append((text, ('listed',) if space == 'shared::cluster' else ('site', op, width)))
    return out


ATOMS = [('add', ['u32', 's32', 'u64', 'f32', 'f64']), ('min', ['u32', 's32', 'u64', 's64']), ('max', ['u32', 's32']),
         ('inc', ['u32']), ('dec', ['u32']), ('and', ['b32', 'b64']), ('or', ['b32']), ('xor', ['b32', 'b64']),
         ('exch', ['b32', 'b64']), ('cas', ['b32', 'b64'])]


def atom_forms():
    out = []
    for space in ['shared', 'shared::cta', 'shared::cluster']:
        for sem in ['', 'relaxed.cta']:
            for op, types in ATOMS:
                for t in types:
                    d, b, c = reg_for(t, 0), reg_for(t, 1), reg_for(t, 2)
                    mn = '.'.join(x for x in ['atom', sem, space, op, t] if x)
                    want = ('listed',) if space == 'shared::cluster' else ('site', 'atom', bits_of(t) // 8)
                    out.append((f'{mn} {d}, [%r1], {b}{", " + c if op == "cas" else ""};', want))
                    if op not in ('exch', 'cas'):
                        mn = '.'.join(x for x in ['red', sem, space, op, t] if x)
                        want = ('listed',) if space == 'shared::cluster' else ('site', 'red', bits_of(t) // 8)
                        out.append((f'{mn} [%r1], {b};', want))
        out.append((f'atom.{space}.add.noftz.f16 %rs0, [%r1], %rs1;', ('listed',) if space == 'shared::cluster' else ('site', 'atom', 2)))
    return out


def matrix_forms():
    out = []
    for x, trans, space in itertools.product(['x1', 'x2', 'x4'], ['', '.trans'], ['shared', 'shared::cta']):
        n = int(x[1])
        regs = '{' + ', '.join(f'%r{10 + i}' for i in range(n)) + '}'
        out.append((f'ldmatrix.sync.aligned.m8n8.{x}{trans}.{space}.b16 {regs}, [%r1];', ('site', 'ldsm', 16)))
        out.append((f'stmatrix.sync.aligned.m8n8.{x}{trans}.{space}.b16 [%r1], {regs};', ('site', 'stsm', 16)))
    # Shapes and types outside the model (sm_100's .b8 matrices): listed.
    for x in ['x1', 'x2', 'x4']:
        n = int(x[1])
        two = '{' + ', '.join(f'%r{10 + i}' for i in range(2 * n)) + '}'
        one = '{' + ', '.join(f'%r{10 + i}' for i in range(n)) + '}'
        out.append((f'ldmatrix.sync.aligned.m16n16.{x}.trans.shared.b8 {two}, [%r1];', ('listed',)))
        out.append((f'ldmatrix.sync.aligned.m8n16.{x}.shared.b8x16.b6x16_p32 {one}, [%r1];', ('listed',)))
        out.append((f'ldmatrix.sync.aligned.m8n16.{x}.shared.b8x16.b4x16_p64 {one}, [%r1];', ('listed',)))
        out.append((f'stmatrix.sync.aligned.m16n8.{x}.trans.shared.b8 [%r1], {one};', ('listed',)))
    return out


def async_forms():
    out = []
    for kind, sizes in [('ca', [4, 8, 16]), ('cg', [16])]:
        for size, space in itertools.product(sizes, ['shared', 'shared::cta']):
            out.append((f'cp.async.{kind}.{space}.global [%r1], [%rd2], {size};', ('site', 'ldgsts', size)))
            out.append((f'cp.async.{kind}.{space}.global.L2::128B [%r1], [%rd2], {size}, %r2;', ('site', 'ldgsts', size)))
    listed = [
        'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd2], 256, [%r1];',
        'cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r1], [%r1], 256, [%r1];',
        'cp.async.bulk.global.shared::cta.bulk_group [%rd2], [%r1], 256;',
        'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd2, {%r2, %r3}], [%r1];',
        'cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {%r2, %r3}], [%r1];',
        'cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd2], [%r1], 256;',
        'cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd2, {%r2, %r3}], [%r1];',
        'cp.async.mbarrier.arrive.shared.b64 [%r1];',
        'cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r1];',
        'mbarrier.init.shared::cta.b64 [%r1], 32;',
        'mbarrier.init.b64 [%rd1], 32;',
        'mbarrier.arrive.shared::cta.b64 %rd5, [%r1];',
        'mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], 256;',
        'mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];',
        'mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 256;',
        'mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;',
        'mbarrier.test_wait.shared.b64 %p1, [%r1], %rd5;',
        'mbarrier.inval.shared.b64 [%r1];',
        'mbarrier.arrive_drop.shared.b64 %rd5, [%r1];',
        'mbarrier.arrive.b64 %rd5, [%rd1];',
        'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd5, %rd6, 1, 1, 1, 0, 0;',
        'tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd5, %rd6, %r3, 1;',
        'tcgen05.cp.cta_group::1.128x256b [%r2], %rd5;',
    ]
    for t in ['b32', 'u32', 's32', 'f32', 'b64', 'u64', 's64', 'f64']:
        listed.append(f'st.async.shared::cluster.mbarrier::complete_tx::bytes.{t} [%r1], {reg_for(t, 0)}, [%r1];')
    for vec, t in [('v2', 'b32'), ('v4', 'b32'), ('v2', 'f32'), ('v4', 'f32'), ('v2', 'b64'), ('v2', 'f64')]:
        listed.append(f'st.async.shared::cluster.mbarrier::complete_tx::bytes.{vec}.{t} [%r1], {data(t, vec)}, [%r1];')
    for op, t in [('add', 'u32'), ('min', 'u32'), ('max', 's32'), ('inc', 'u32'), ('dec', 'u32'), ('and', 'b32'), ('or', 'b32'),
                  ('xor', 'b32'), ('add', 'u64')]:
        listed.append(f'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.{op}.{t} [%r1], {reg_for(t, 0)}, [%r1];')
    out += [(t, ('listed',)) for t in listed]
    return out


def generic_forms():
    """Generic accesses whose address came from cvta.shared: counted as the .shared form (the H200 takes
    the same wavefronts: docs/bank_model.md, "Generic accesses"); through a parameter's pointer (global:
    the host has no shared-window address to pass): neither; through an address loaded from memory (it
    may be in the window): listed."""
    out = [('ld.u32 %r5, [%rd2];', ('none',)), ('st.v2.u32 [%rd2], {%r2, %r3};', ('none',)), ('atom.add.u32 %r5, [%rd2], 1;', ('none',)),
           ('ld.global.u64 %rd5, [%rd2]; ;; ld.u32 %r5, [%rd5];', ('listed',)),
           ('ld.global.u64 %rd5, [%rd2]; ;; st.v2.u32 [%rd5], {%r2, %r3};', ('listed',)),
           ('ld.global.u64 %rd5, [%rd2]; ;; atom.add.u32 %r5, [%rd5], 1;', ('listed',))]
    for t, vec in itertools.product(['u8', 's16', 'b32', 'u32', 'f32', 'b64', 'f64', 'b128'], ['', 'v2', 'v4']):
        if bits_of(t) // 8 * {'': 1, 'v2': 2, 'v4': 4}[vec] > 16 or (t == 'b128' and vec):
            continue
        for q in ['', 'volatile', 'relaxed.cta']:
            ld = '.'.join(x for x in ['ld', q, vec, t] if x)
            st = '.'.join(x for x in ['st', q.replace('acquire', 'release'), vec, t] if x)
            width = bits_of(t) // 8 * {'': 1, 'v2': 2, 'v4': 4}[vec]
            out.append((f'{ld} {data(t, vec)}, [%rd1];', ('site', 'ld', width)))
            out.append((f'{st} [%rd1], {data(t, vec)};', ('site', 'st', width)))
    for op, t in [('add', 'u32'), ('cas', 'b32'), ('exch', 'b64'), ('add', 'f32')]:
        extra = f', {reg_for(t, 2)}' if op == 'cas' else ''
        out.append((f'atom.{op}.{t} {reg_for(t, 0)}, [%rd1], {reg_for(t, 1)}{extra};', ('site', 'atom', bits_of(t) // 8)))
        if op not in ('cas', 'exch'):
            out.append((f'red.{op}.{t} [%rd1], {reg_for(t, 1)};', ('site', 'red', bits_of(t) // 8)))
    return out


def controls():
    """Forms that touch no shared byte: neither counted nor listed."""
    return [(t, ('none',)) for t in [
        'ld.global.u32 %r5, [%rd2];', 'st.global.v4.f32 [%rd2], {%f0, %f1, %f2, %f3};', 'atom.global.add.u32 %r5, [%rd2], 1;',
        'ld.param.u64 %rd5, [g];', 'fence.proxy.async.shared::cta;', 'cvta.shared.u64 %rd5, %rd0;', 'cvta.to.shared.u64 %rd5, %rd1;',
        'isspacep.shared.u64 %p1, %rd1;', 'mapa.shared::cluster.u32 %r5, %r1, 0;', 'getctarank.shared::cluster.u32 %r5, %r1;',
        'cp.async.commit_group;', 'cp.async.wait_group 0;', 'cp.async.bulk.commit_group;', 'cp.async.bulk.wait_group.read 0;',
        'cp.async.bulk.prefetch.L2.global [%rd2], 256;', 'cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd2, {%r2, %r3}];',
        'wgmma.fence.sync.aligned;', 'wgmma.commit_group.sync.aligned;', 'wgmma.wait_group.sync.aligned 0;',
        'bar.sync 0;', 'barrier.cluster.arrive;', 'prefetch.global.L2 [%rd2];']]


def ptx_file(forms):
    out = ['.version 8.7\n.target sm_100a\n.address_size 64\n.shared .align 16 .b8 s[4096];\n']
    for i, (text, _) in enumerate(forms):
        body = text.replace(' ;; ', '\n')
        out.append(f'.visible .entry k{i}(.param .u64 g)\n{{\n{REGS}{SETUP}{body}\nret;\n}}\n')
    return ''.join(out)


# ---- SASS ----------------------------------------------------------------------------------------

def sass_forms():
    out = []
    for op in ['LDS', 'STS']:
        for mod, width in [('', 4), ('.U8', 1), ('.S8', 1), ('.U16', 2), ('.S16', 2), ('.32', 4), ('.64', 8), ('.128', 16),
                           ('.U', 4), ('.U.64', 8), ('.U.128', 16)]:
            text = f'{op}{mod} R4, [R1+0x400]' if op == 'LDS' else f'{op}{mod} [R1+0x400], R4'
            out.append((text, ('site', 'ld' if op == 'LDS' else 'st', width)))
    for op in ['LDSM', 'STSM']:
        for shape, count in itertools.product(['M88', 'MT88'], ['', '.2', '.4']):
            mn = f'{op}.16.{shape}{count}'
            text = f'{mn} R4, [R1+0x400]' if op == 'LDSM' else f'{mn} [R1+0x400], R4'
            out.append((text, ('site', op.lower(), 16)))
        for shape in ['M816.4', 'MT816.2', 'M88.8']:
            text = f'{op}.16.{shape} R4, [R1+0x400]' if op == 'LDSM' else f'{op}.16.{shape} [R1+0x400], R4'
            out.append((text, ('listed',)))
    for mods, width in [('.E', 4), ('.E.64', 8), ('.E.128', 16), ('.E.BYPASS.128', 16), ('.E.LTC128B.128', 16),
                        ('.E.BYPASS.LTC128B.128.ZFILL', 16), ('.E.LTC128B.64', 8)]:
        out.append((f'LDGSTS{mods} [R1+0x400], desc[UR4][R2.64]', ('site', 'ldgsts', width)))
    for mods, width in [('.ADD', 4), ('.EXCH', 4), ('.MIN.S32', 4), ('.MAX', 4), ('.AND', 4), ('.OR', 4), ('.XOR', 4),
                        ('.INC', 4), ('.DEC', 4), ('.POPC.INC.32', 4), ('.ADD.64', 8), ('.EXCH.64', 8), ('.ARRIVE.64', 8)]:
        out.append((f'ATOMS{mods} R4, [R1+0x400], R5', ('site', 'atom', width)))
    out += [('ATOMS.CAS R4, [R1+0x400], R6, R7', ('site', 'atom', 4)), ('ATOMS.CAS.64 R4, [R1+0x400], R6, R8', ('site', 'atom', 8)),
            ('ATOMS.CAST.SPIN P0, [R1+0x400], R6, R7', ('site', 'atom', 4)),
            ('ATOMS.CAST.SPIN.64 P0, [R1+0x400], R6, R8', ('site', 'atom', 8))]
    listed = ['LDS.ZZ R4, [R1+0x400]', 'STS.ZZ [R1+0x400], R4', 'REDS.ADD [R1+0x400], R4', 'UTMALDG.2D [UR8], [UR4]',
              'UTMASTG.2D [UR4], [UR8]', 'UTMAREDG.2D.ADD [UR4], [UR8]', 'UBLKCP.S.G [UR4], [UR6], UR8', 'UBLKCP.G.S [UR6], [UR4], UR8',
              'UBLKRED.G.S.ADD.U32 [UR6], [UR4], UR8', 'HGMMA.64x64x16.F32 R24, gdesc[UR4], R24',
              'HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], R24, gsb0', 'SYNCS.EXCH.64 URZ, [UR4], UR6',
              'SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR4], RZ', 'SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R1+URZ], R4',
              'ARRIVES.LDGSTSBAR.64.TRANSCNT [URZ+0x400]', 'STAS [R1], R4', 'STAS.64 [R1], R4', 'REDAS.ADD [R1], R4',
              'LDG.E R7, desc[UR4][R2.64] ;; LD.E R4, desc[UR4][R6.64]', 'LDG.E R7, desc[UR4][R2.64] ;; ST.E.128 desc[UR4][R6.64], R4',
              'LDG.E R7, desc[UR4][R2.64] ;; ATOM.E.ADD.STRONG.GPU PT, R4, desc[UR4][R6.64], R5']
    out += [(t, ('listed',)) for t in listed]
    # Through the shared window (the high word SR_SWINHI's, the low word R1's shared address): counted.
    window = 'S2R R5, SR_SWINHI ;; MOV R6, R1 ;; MOV R7, R5 ;; '
    for text, want in [('LD.E R4, desc[UR4][R6.64+0x400]', ('site', 'ld', 4)), ('LD.E.64 R4, desc[UR4][R6.64+0x400]', ('site', 'ld', 8)),
                       ('LD.E.128 R4, desc[UR4][R6.64+0x400]', ('site', 'ld', 16)), ('LD.E.U8 R4, desc[UR4][R6.64+0x400]', ('site', 'ld', 1)),
                       ('LD.E.STRONG.SM R4, desc[UR4][R6.64+0x400]', ('site', 'ld', 4)), ('ST.E desc[UR4][R6.64+0x400], R4', ('site', 'st', 4)),
                       ('ST.E.128 desc[UR4][R6.64+0x400], R8', ('site', 'st', 16)),
                       ('ATOM.E.ADD.STRONG.GPU PT, R4, desc[UR4][R6.64+0x400], R5', ('site', 'atom', 4)),
                       ('ATOM.E.CAS.STRONG.GPU PT, R4, [R6+0x400], R8, R9', ('site', 'atom', 4)),
                       ('RED.E.ADD.STRONG.GPU desc[UR4][R6.64+0x400], R5', ('site', 'red', 4))]:
        out.append((window + text, want))
    # A global pointer's pair (a parameter's, or a known high word): neither counted nor listed.
    out += [(t, ('none',)) for t in ['MOV R7, 0x7f00 ;; MOV R6, R1 ;; LD.E R4, desc[UR4][R6.64]', 'LD.E R4, desc[UR4][R2.64]',
                                     'LD.E.64 R4, desc[UR4][R2.64]', 'ST.E desc[UR4][R2.64], R4', 'ST.E.128 desc[UR4][R2.64], R4',
                                     'ATOM.E.ADD.STRONG.GPU PT, R4, desc[UR4][R2.64], R5', 'RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5']]
    out += [(t, ('none',)) for t in ['LDG.E R4, desc[UR4][R2.64]', 'STG.E desc[UR4][R2.64], R4', 'UTMAPF.L2.2D [UR4]',
                                      'UBLKPF.L2 [UR4], UR8', 'BAR.SYNC.DEFER_BLOCKING 0x0', 'FENCE.VIEW.ASYNC.S', 'LDGDEPBAR',
                                      'DEPBAR.LE SB0, 0x0', 'WARPSYNC.ALL', 'NOP']]
    return out


def sass_file(forms):
    out = ['\tcode for sm_90\n']
    for i, (text, _) in enumerate(forms):
        out.append(f'\t\tFunction : k{i}\n\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"\n')
        body = ['S2R R0, SR_TID.X', 'IMAD.SHL.U32 R1, R0, 0x10, RZ', 'LDC.64 R2, c[0x0][0x210]', *text.split(' ;; '), 'EXIT']
        out += [f'        /*{16 * j:04x}*/                   {l} ;\n' for j, l in enumerate(body)]
    return ''.join(out)


# ---- the check -----------------------------------------------------------------------------------

def check(binary, cmd, text, forms, suffix, failures):
    with tempfile.NamedTemporaryFile('w', suffix=suffix, delete=False) as f:
        f.write(text)
        path = f.name
    try:
        p = subprocess.run([binary, cmd, path, '--block', '32', '--json', '--claim', 'conflict-free'], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if not p.stdout.startswith('{'):
        failures.append(f'{cmd}: exit {p.returncode}: {p.stderr[-1500:]}')
        return
    kernels = {k['name']: k for k in json.loads(p.stdout)['kernels']}
    for i, (form, want) in enumerate(forms):
        k = kernels.get(f'k{i}')
        if k is None:
            failures.append(f'{cmd} {form!r}: its kernel did not run')
            continue
        key = form.split(' ;; ')[-1].rstrip(';')  # the form's own instruction (the others set it up)
        sites = [s for s in k['instructions'] if key in s['text']]
        listed = [n for n in k.get('not_counted', []) if key in n['text']]
        verdicts = [v for s in sites for v in s['verdicts']] + [v for n in listed for v in n['verdicts']]
        if want[0] == 'site':
            ok = len(sites) == 1 and not listed and sites[0]['op'].startswith(want[1]) and sites[0]['width_bytes'] == want[2]
            what = f'counted as {want[1]} of {want[2]} bytes'
        elif want[0] == 'listed':
            ok = not sites and len(listed) == 1 and 'shared memory and is not counted: ' in listed[0]['why'] and \
                [v['verdict'] for v in verdicts] == ['UNKNOWN']
            what = 'listed as not counted with why, its claim UNKNOWN'
        else:
            ok = not sites and not listed
            what = 'neither counted nor listed (it touches no shared byte)'
        if not ok:
            failures.append(f'{cmd} {form!r}: not {what}: sites {[(s["op"], s["width_bytes"]) for s in sites]}, '
                            f'listed {[n["why"] for n in listed]}, verdicts {[v["verdict"] for v in verdicts]}')


def main():
    binary = sys.argv[1]
    failures = []
    ptx = ldst_forms() + atom_forms() + matrix_forms() + async_forms() + generic_forms() + controls()
    check(binary, 'ptx', ptx_file(ptx), ptx, '.ptx', failures)
    sass = sass_forms()
    check(binary, 'sass', sass_file(sass), sass, '.sass', failures)
    for f in failures:
        print('FAIL', f)
    print(f'shared forms: {len(ptx)} PTX and {len(sass)} SASS forms, {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
