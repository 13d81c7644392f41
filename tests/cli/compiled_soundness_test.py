#!/usr/bin/env python3
"""No PROVED about what the compiled-kernel executor skipped, did not see or wrapped: each case here
was a wrong PROVED (or a claim decided over nothing, exit 0) before it was fixed.

  - calls nested deeper than the executor follows (64): a chain of 64 calls whose innermost store is
    32-way conflicting, and endless recursion: UNKNOWN naming the cut call, for `ptx` and `check`
    (63 deep still runs: REFUTED);
  - other cut-offs: a loop whose bound is a free parameter, a call into code the file does not hold;
  - shared-memory accesses the executor does not count (ld.shared::cluster, st.async, red.async,
    ldmatrix .b8, a generic ld/st through an unknown address): listed with why, every claim UNKNOWN
    on them, never PROVED by omission; a generic ld/st through cvta.shared is counted as its .shared
    form (once listed as not counted: its 32-way conflict REFUTED, its counts the .shared form's);
  - cp.async whose global side was not counted: conflict-free never PROVED on its shared side alone;
  - SASS: a branch to an offset that is not an instruction is refused at its line (exit 2), and the
    single-matrix LDSM/STSM forms ptxas writes without a count are counted as .1;
  - ill-typed PTX operands (a .f32 register as an address, a predicate as an integer, a register
    of the wrong width) are refused at the operand with a caret (exit 2).

Usage: compiled_soundness_test.py LAYOUTPROOF
"""
import json
import os
import subprocess
import sys
import tempfile

HEAD = '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 16 .b8 s[8192];\n'
# %r2 = s + 128 * tid: 32 lanes on one bank (a 32-way conflict for a 4-byte access).
CONFLICT = 'mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 7;\nmov.u32 %r3, s;\nadd.u32 %r2, %r2, %r3;\n'
REGS = '.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .pred %p<4>;\n.reg .f32 %f<4>;\n.reg .b16 %rs<4>;\n'


def entry(body, params=''):
    return f'.visible .entry k({params})\n{{\n{REGS}{body}\nret;\n}}\n'


def call_chain(depth):
    """f0 stores with a 32-way conflict; f_i calls f_(i-1); the kernel calls f_(depth-1): `depth`
    calls nested below the kernel."""
    out = [HEAD] + [f'.func f{i}();\n' for i in range(depth)]
    out.append(f'.func f0()\n{{\n.reg .b32 %r<8>;\n{CONFLICT}st.shared.u32 [%r2], %r1;\nret;\n}}\n')
    out += [f'.func f{i}()\n{{\ncall.uni f{i - 1}, ();\nret;\n}}\n' for i in range(1, depth)]
    out.append(f'.visible .entry k()\n{{\ncall.uni f{depth - 1}, ();\nret;\n}}\n')
    return ''.join(out)


def write(text, suffix):
    f = tempfile.NamedTemporaryFile('w', suffix=suffix, delete=False)
    f.write(text)
    f.close()
    return f.name


def run(binary, cmd, text, *args, suffix='.ptx'):
    path = write(text, suffix)
    try:
        return subprocess.run([binary, cmd, path, '--block', '32', '--json'] + list(args), capture_output=True, text=True)
    finally:
        os.unlink(path)


def verdicts(p):
    """Every verdict of the JSON output: (where, claim, verdict, detail)."""
    out = []
    for k in json.loads(p.stdout)['kernels']:
        for i in k['instructions']:
            out += [(f'line {i["line"]}', v['claim'], v['verdict'], v['detail']) for v in i['verdicts']]
        for n in k.get('not_counted', []):
            out += [(f'line {n["line"]} (not counted)', v['claim'], v['verdict'], v['detail']) for v in n['verdicts']]
        out += [('kernel', v['claim'], v['verdict'], v['detail']) for v in k.get('unapplied', [])]
    return out


def line_of(text, needle, after=0):
    return next(i + 1 for i, l in enumerate(text.split('\n')) if i + 1 > after and needle in l)


class Checker:
    def __init__(self, binary):
        self.binary = binary
        self.failures = []
        self.cases = 0

    def fail(self, name, why, p=None):
        extra = f'\n    exit {p.returncode}: {p.stdout[-600:]} {p.stderr[-400:]}' if p is not None else ''
        self.failures.append(f'{name}: {why}{extra}')

    def never_proved(self, name, text, needle, *args, cmd='ptx', suffix='.ptx', claims=('conflict-free', 'aligned', 'in-bounds'),
                     sites_may_prove=False):
        """Every claim: no PROVED anywhere (sites_may_prove: on no access but the counted ones, whose
        issues were all seen), some UNKNOWN naming `needle`, exit 3."""
        self.cases += 1
        claim_args = [a for c in claims for a in ('--claim', c)]
        p = run(self.binary, cmd, text, *claim_args, *args, suffix=suffix)
        if p.returncode != 3 or not p.stdout.startswith('{'):
            return self.fail(name, 'expected exit 3 (UNKNOWN)', p)
        vs = verdicts(p)
        proved = [v for v in vs if v[2] == 'PROVED' and not (sites_may_prove and v[0].endswith(tuple('0123456789')))]
        if proved:
            return self.fail(name, f'PROVED: {proved}')
        if not any(v[2] == 'UNKNOWN' and needle in v[3] for v in vs):
            return self.fail(name, f'no UNKNOWN naming {needle!r}: {vs}')
        for c in claims:
            if not any(v[1] == c for v in vs):
                self.fail(name, f'claim {c} has no verdict at all (decided over nothing): {vs}')
        return p

    def refused(self, name, text, line, needle, cmd='ptx', suffix='.ptx'):
        """Exit 2, FILE:LINE:COL naming the line, a caret, `needle` in the message."""
        self.cases += 1
        p = run(self.binary, cmd, text, '--claim', 'conflict-free', suffix=suffix)
        if p.returncode != 2 or f':{line}:' not in p.stderr or '^' not in p.stderr or needle not in p.stderr:
            self.fail(name, f'expected exit 2 at line {line} with a caret and {needle!r}', p)


def check_spec(binary, ptx_text):
    """`layoutproof check` on a compiled: entry over `ptx_text`: (exit, stdout)."""
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, 'k.ptx'), 'w').write(ptx_text)
        open(os.path.join(d, 'spec.yaml'), 'w').write(
            'compiled:\n  - name: k\n    file: k.ptx\n    kernel: k\n    block: 32\n    claims: [conflict-free]\n')
        p = subprocess.run([binary, 'check', os.path.join(d, 'spec.yaml'), '--no-cache', '--no-progress'],
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


def cut_offs(c):
    # 63 nested calls still run: the innermost store's conflict is REFUTED.
    p = run(c.binary, 'ptx', call_chain(63), '--claim', 'conflict-free')
    c.cases += 1
    if p.returncode != 1:
        c.fail('63 nested calls', 'expected REFUTED (exit 1)', p)
    # 64: the innermost call is cut. Before: "PROVED ... no issue with an active lane", exit 0.
    text = call_chain(64)
    cut = line_of(text, 'call.uni f0,')
    c.never_proved('64 nested calls', text, f'calls nested deeper than 64 at line {cut}')
    rc, out = check_spec(c.binary, text)
    c.cases += 1
    if rc != 3 or f'calls nested deeper than 64 at line {cut}' not in out or 'PROVED' in out.split('claims:')[-1].split('\n')[0]:
        c.fail('64 nested calls, check', f'exit {rc}: {out[-800:]}')
    # Endless mutual recursion before a store: the store never runs (before: PROVED, the store
    # counted after a call that never returns).
    text = HEAD + '.func g();\n.func f()\n{\ncall.uni g, ();\nret;\n}\n.func g()\n{\ncall.uni f, ();\nret;\n}\n' + \
        entry('call.uni f, ();\nmov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, s;\nadd.u32 %r2, %r2, %r3;\nst.shared.u32 [%r2], %r1;')
    c.never_proved('endless recursion', text, 'calls nested deeper than 64 at line')
    # (A loop whose bound is a free parameter is summarized over its iterations: loop_twin_test.py
    # checks those verdicts against every bound.)
    # A call into code this file does not hold: its accesses are not seen.
    text = HEAD + '.extern .func ext();\n' + entry('call.uni ext, ();\n' + CONFLICT.replace('shl.b32 %r2, %r1, 7', 'shl.b32 %r2, %r1, 2') +
                                                   'st.shared.u32 [%r2], %r1;')
    # The store after it is decided on its own issues; the call is UNKNOWN for every claim.
    c.never_proved('a call to a function with no body', text, 'a call to ext, which has no body in this file', sites_may_prove=True)


def not_counted(c):
    a = CONFLICT
    cases = [
        ('ld.shared::cluster', a + 'ld.shared::cluster.u32 %r4, [%r2];'),
        ('st.async', a + 'st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r2], %r1, [%r3];'),
        ('red.async', a + 'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r2], %r1, [%r3];'),
        ('ldmatrix .b8', a + 'ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r4, %r5}, [%r2];'),
        ('generic st, address not known', a + 'ld.global.u64 %rd1, [%rd3];\nst.u32 [%rd1], %r1;'),
        ('mbarrier', a + 'mbarrier.init.shared::cta.b64 [%r3], 32;'),
    ]
    for name, body in cases:
        text = HEAD + entry(body)
        line = line_of(text, body.split('\n')[-1])
        p = c.never_proved(name, text, 'shared memory and is not counted: ')
        if not p:
            continue
        listed = [n for k in json.loads(p.stdout)['kernels'] for n in k.get('not_counted', [])]
        if [n['line'] for n in listed] != [line] or not listed[0]['why']:
            c.fail(name, f'not listed at line {line} with why: {listed}')
    # A generic access through the shared window (cvta.shared) is counted as its .shared form: the
    # 32-way conflict refuted, with the same witness lanes and wavefronts.
    for name, op in [('generic ld after cvta.shared', 'ld.u32 %r4, [%rd2];'), ('generic st after cvta.shared', 'st.u32 [%rd2], %r1;'),
                     ('generic v4 ld after cvta.shared', 'ld.v4.u32 {%r4, %r5, %r6, %r7}, [%rd2];')]:
        text = HEAD + entry(a + 'cvt.u64.u32 %rd1, %r2;\ncvta.shared.u64 %rd2, %rd1;\n' + op)
        shared = HEAD + entry(a + op.replace('[%rd2]', '[%r2]').replace('ld.', 'ld.shared.').replace('st.', 'st.shared.'))
        p, q = run(c.binary, 'ptx', text, '--claim', 'conflict-free'), run(c.binary, 'ptx', shared, '--claim', 'conflict-free')
        c.cases += 1
        if p.returncode != 1 or not p.stdout.startswith('{'):
            c.fail(name, f'expected REFUTED (exit 1), got exit {p.returncode}', p)
            continue
        got = [(i['op'], i['width_bytes'], i['executed'], i['wavefronts'], i['ideal']) for i in json.loads(p.stdout)['kernels'][0]['instructions']]
        want = [(i['op'], i['width_bytes'], i['executed'], i['wavefronts'], i['ideal']) for i in json.loads(q.stdout)['kernels'][0]['instructions']]
        if got != want or json.loads(p.stdout)['kernels'][0].get('not_counted'):
            c.fail(name, f'counts {got}, the .shared form {want}, listed {json.loads(p.stdout)["kernels"][0].get("not_counted")}', p)
    # A counted store beside a not-counted one keeps its own verdict; the kernel is not PROVED whole.
    text = HEAD + entry(CONFLICT.replace('shl.b32 %r2, %r1, 7', 'shl.b32 %r2, %r1, 2') +
                        'st.shared.u32 [%r2], %r1;\nst.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r2], %r1, [%r3];')
    p = run(c.binary, 'ptx', text, '--claim', 'conflict-free')
    c.cases += 1
    vs = verdicts(p) if p.stdout.startswith('{') else []
    if p.returncode != 3 or [v[2] for v in vs] != ['PROVED', 'UNKNOWN']:
        c.fail('a counted store beside st.async', f'verdicts {vs}', p)
    # Not listed: a generic access through a global pointer, fences, cvta itself.
    text = HEAD + entry('ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\nst.global.u32 [%rd2], 1;\nst.u32 [%rd1], 2;\n'
                        'fence.proxy.async.shared::cta;\nmov.u32 %r3, s;\ncvta.shared.u32 %r4, %r3;\n' + CONFLICT + 'st.shared.u32 [%r2], %r1;',
                        '.param .u64 p')
    p = run(c.binary, 'ptx', text, '--claim', 'aligned', '--param', '0=0')
    c.cases += 1
    if p.returncode != 0 or json.loads(p.stdout)['kernels'][0].get('not_counted', []):
        c.fail('no shared access beyond the store', 'expected PROVED, nothing listed', p)


SASS_HEAD = '\tcode for sm_90\n\t\tFunction : _Z1kPfi\n\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"\n'


def sass(body):
    lines = [l.strip() for l in body.strip().split('\n')]
    return SASS_HEAD + ''.join(f'        /*{16 * i:04x}*/                   {l} ;\n' for i, l in enumerate(lines))


def sass_cases(c):
    # A branch over the store to an offset outside the function / between instructions: refused at
    # the branch (before: the store vacuously PROVED, exit 0).
    for target, name in [('0x1000', 'outside the function'), ('0x38', 'not an instruction')]:
        text = sass(f'S2R R0, SR_TID.X\nIMAD.SHL.U32 R1, R0, 0x80, RZ\nBRA {target}\nSTS [R1+0x400], R0\nEXIT')
        c.refused(f'SASS BRA {target} ({name})', text, 6, f'{target}', cmd='sass', suffix='.sass')
    # Single-matrix LDSM/STSM (ptxas writes no .1): counted as x1. 8 rows 16 bytes apart in one
    # 128-byte line... here rows 128 bytes apart: each 8-lane phase hits 8 distinct words of one bank.
    for op in ['LDSM.16.M88 R4, [R1+0x400]', 'LDSM.16.MT88 R4, [R1+0x400]', 'STSM.16.M88 [R1+0x400], R4', 'STSM.16.MT88 [R1+0x400], R4']:
        c.cases += 1
        p = run(c.binary, 'sass', sass(f'S2R R0, SR_TID.X\nIMAD.SHL.U32 R1, R0, 0x80, RZ\n{op}\nEXIT'), '--claim', 'conflict-free',
                suffix='.sass')
        k = json.loads(p.stdout)['kernels'][0] if p.stdout.startswith('{') else None
        ins = k['instructions'] if k else []
        if p.returncode != 1 or len(ins) != 1 or ins[0]['op'] not in ('ldsm1', 'stsm1') or ins[0]['wavefronts'] != 8:
            c.fail(op, 'expected one x1 site, 8 wavefronts, REFUTED', p)


def ill_typed(c):
    # (name, body, the line refused, the operand named)
    cases = [
        ('a .f32 register as an address', 'mov.f32 %f1, 0f00000000;\nld.shared.u32 %r1, [%f1];', 'ld.shared.u32 %r1, [%f1];', '%f1'),
        ('a predicate as an integer', 'setp.eq.u32 %p1, 0, 0;\nadd.u32 %r1, %p1, 1;', 'add.u32 %r1, %p1, 1;', '%p1'),
        ('a 64-bit register in a 32-bit add', 'mov.u64 %rd1, 0;\nadd.u32 %r1, %rd1, 1;', 'add.u32 %r1, %rd1, 1;', '%rd1'),
        ('a 16-bit register as an address', 'mov.u16 %rs1, 0;\nst.shared.u32 [%rs1], 1;', 'st.shared.u32 [%rs1], 1;', '%rs1'),
        ('an integer register as a guard', 'mov.u32 %r1, 1;\n@%r1 bra L;\nL: ret;', '@%r1 bra L;', '%r1'),
        ("an integer register as selp's predicate", 'mov.u32 %r2, 1;\nselp.b32 %r1, 1, 2, %r2;', 'selp.b32 %r1, 1, 2, %r2;', '%r2'),
        ('a .f32 register as .u32 store data', 'mov.f32 %f1, 0f00000000;\nmov.u32 %r3, s;\nst.shared.u32 [%r3], %f1;',
         'st.shared.u32 [%r3], %f1;', '%f1'),
        ('a predicate as a shift amount', 'setp.eq.u32 %p1, 0, 0;\nshl.b32 %r1, 1, %p1;', 'shl.b32 %r1, 1, %p1;', '%p1'),
        ('a .f32 register as a setp destination', 'setp.eq.u32 %f1, 0, 0;', 'setp.eq.u32 %f1, 0, 0;', '%f1'),
    ]
    for name, body, bad, reg in cases:
        text = HEAD + entry(body)
        c.refused(name, text, line_of(text, bad), reg)


def cp_async_global_side(c):
    """cp.async whose shared side is conflict-free but whose global side was not counted (a .cg copy
    with lanes that do not copy; a copy whose global side is not known): conflict-free is not PROVED
    on the shared side alone (the soak found it PROVED where the global reads met in one L1 bank)."""
    shared = 'mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 4;\nmov.u32 %r3, s;\nadd.u32 %r2, %r2, %r3;\n'
    glob = 'ld.param.u64 %rd1, [p];\nmul.wide.u32 %rd2, %r1, 128;\nadd.s64 %rd3, %rd1, %rd2;\n'
    for name, body in [('cp.async.cg, 8 lanes copying, global stride 128',
                        shared + glob + 'setp.lt.u32 %p1, %r1, 8;\n@%p1 cp.async.cg.shared.global [%r2], [%rd3], 16;\ncp.async.wait_all;'),
                       ('cp.async.cg, global address loaded',
                        shared + 'ld.param.u64 %rd1, [p];\nld.global.u64 %rd3, [%rd1];\ncp.async.cg.shared.global [%r2], [%rd3], 16;\ncp.async.wait_all;')]:
        text = HEAD + entry(body, '.param .u64 p')
        p = run(c.binary, 'ptx', text, '--claim', 'conflict-free', '--param', '0=0x10000')
        c.cases += 1
        vs = verdicts(p) if p.stdout.startswith('{') else []
        if p.returncode != 3 or [v[2] for v in vs] != ['UNKNOWN']:
            c.fail(name, f'expected UNKNOWN (exit 3), got exit {p.returncode}: {vs}', p)


def main():
    c = Checker(sys.argv[1])
    cut_offs(c)
    not_counted(c)
    cp_async_global_side(c)
    sass_cases(c)
    ill_typed(c)
    for f in c.failures:
        print('FAIL', f)
    print(f'compiled soundness: {c.cases} cases, {len(c.failures)} failures')
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
