#!/usr/bin/env python3
"""Branches the kernel's data decides: both sides run, each under a data atom of its own per lane,
so the code after the join is counted exactly and the sides' claims hold for every value the data
may take, or are UNKNOWN (never REFUTED: no launch can be asked for the data a violation needs).

  - an if/else on a value loaded from shared memory: the load after the join has its exact counts;
    each side's store has no counts ("?", JSON null, with the reason naming the branch) and its
    conflict-free claim is PROVED (one word per lane whichever lanes run it), and a side whose
    store conflicts when enough lanes take it is UNKNOWN, not REFUTED;
  - an atomicAdd on a shared float as nvcc compiles it (a CAS loop that repeats until the swap
    succeeds): the code after the loop is counted exactly, the loop's instructions have no counts;
  - `if (data) return;` (the last-block check of a grid reduction): what follows runs under the
    data, so its executed count is not known either;
  - a guard the data decides on a loop bound the compiler reuses (a path no launch takes that runs
    on): its lanes stop with the reason, quickly, and nothing is PROVED about what they miss;
  - SASS: the same CAS loop in the form ptxas writes it (LDS, FADD, ATOMS.CAST.SPIN, ISETP, @!P0 BRA:
    llm.c's layernorm backward has dozens; tests/cli/compiled/cas_loop.sass is that loop, written
    by hand in cuobjdump's listing form);
  - twenty spin loops in a row, each with a counter (an iteration symbol each, more than the run
    keeps): the loops past the symbols are still summarized, what they change not known inside
    them (the reason says so), and the store after them counted exactly and PROVED;
  - SASS: a loop over a free trip count whose shared address ptxas spilled to the stack (STL, then
    LDL each iteration) beside a counter it stores there too: the address stays known for every
    iteration (tests/cli/compiled/spill_loop.sass, written by hand in cuobjdump's form).

Usage: data_branches_test.py LAYOUTPROOF
"""
import json
import os
import subprocess
import sys
import tempfile

HEAD = '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 16 .b8 s[8192];\n'
REGS = '.reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n.reg .pred %p<8>;\n.reg .f32 %f<8>;\n'
# %r2 = &s[tid] (4 bytes a lane), %r3 = s.
TID = 'mov.u32 %r1, %tid.x;\nmov.u32 %r3, s;\nshl.b32 %r2, %r1, 2;\nadd.u32 %r2, %r2, %r3;\n'


def kernel(body):
    return f'{HEAD}.visible .entry k()\n{{\n{REGS}{TID}{body}\nret;\n}}\n'


def run(binary, text, *args, suffix='.ptx', cmd='ptx'):
    f = tempfile.NamedTemporaryFile('w', suffix=suffix, delete=False)
    f.write(text)
    f.close()
    try:
        p = subprocess.run([binary, cmd, f.name, '--block', '32', '--grid', '1,1,1', '--json'] + list(args),
                           capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(f.name)
    if p.returncode not in (0, 1, 3):
        raise AssertionError(f'exit {p.returncode}: {p.stderr}')
    return json.loads(p.stdout)['kernels'][0]


FAILED = []


def check(cond, what):
    if not cond:
        FAILED.append(what)
        print('FAIL', what)


def by_text(k, needle):
    rows = [i for i in k['instructions'] if needle in i['text']]
    assert len(rows) == 1, (needle, [i['text'] for i in k['instructions']])
    return rows[0]


def verdict(row, claim):
    return [v for v in row['verdicts'] if v['claim'] == claim][0]


# An if/else on s[tid] > 5: the then side stores one word per lane (conflict-free for any lanes),
# the else side stores at 128 * tid (32-way when every lane takes it), the join loads s[tid].
IF_ELSE = kernel(
    'ld.shared.u32 %r4, [%r2];\n'
    'setp.gt.u32 %p1, %r4, 5;\n'
    '@%p1 bra ELSE;\n'
    'st.shared.u32 [%r2+4096], %r1;\n'
    'bra JOIN;\n'
    'ELSE:\n'
    'shl.b32 %r5, %r1, 7;\nadd.u32 %r5, %r5, %r3;\n'
    'st.shared.u32 [%r5], %r1;\n'
    'JOIN:\n'
    'ld.shared.u32 %r6, [%r2+4096];\n')

# atomicAdd(&s[0], 1.0f) as a CAS loop; then s[tid] is read.
CAS = kernel(
    'mov.f32 %f1, 0f3F800000;\n'
    'LOOP:\n'
    'ld.shared.u32 %r7, [%r3];\n'
    'mov.b32 %f2, %r7;\nadd.f32 %f3, %f2, %f1;\nmov.b32 %r8, %f3;\n'
    'atom.shared.cas.b32 %r9, [%r3], %r7, %r8;\n'
    'setp.ne.u32 %p2, %r9, %r7;\n'
    '@%p2 bra LOOP;\n'
    'ld.shared.u32 %r10, [%r2];\n')

# if (s[0] != 7) return; s[tid] = tid;
LAST_BLOCK = kernel(
    'ld.shared.u32 %r11, [%r3];\n'
    'setp.ne.u32 %p3, %r11, 7;\n'
    '@%p3 ret;\n'
    'st.shared.u32 [%r2], %r1;\n')

# n = s[0]; if (n >= 8) { for (i = n - 7 ... while i != 0: i -= 8) {} } — with n the data, the loop
# may never end in the model's view (i = n - 7 - 8k never hits 0 unless n = 7 mod 8): the lanes stop
# there, and the store after is not PROVED.
RUNAWAY = kernel(
    'ld.shared.u32 %r12, [%r3];\n'
    'setp.lt.u32 %p4, %r12, 8;\n'
    '@%p4 bra AFTER;\n'
    'mov.u32 %r13, 1;\n'
    'SPIN:\n'
    'add.u32 %r13, %r13, 8;\n'
    'setp.ne.u32 %p5, %r13, 0;\n'
    '@%p5 bra SPIN;\n'
    'AFTER:\n'
    'shl.b32 %r14, %r1, 7;\nadd.u32 %r14, %r14, %r3;\n'
    'st.shared.u32 [%r14], %r1;\n')

# Twenty `do { k++; v = s[...]; } while (v != 0);` spins (a counter: each wants an iteration
# symbol); the last one also stores at s[tid + k]; after them s[512 + tid] = tid.
SPINS = kernel(''.join(
    f'mov.u32 %r15, 0;\nSPIN{j}:\nadd.u32 %r15, %r15, 1;\nld.shared.u32 %r16, [%r2+{4096 + 128 * (j % 8)}];\n'
    + ('shl.b32 %r17, %r15, 2;\nadd.u32 %r17, %r17, %r2;\nst.shared.u32 [%r17], %r1;\n' if j == 19 else '')
    + f'setp.ne.u32 %p6, %r16, 0;\n@%p6 bra SPIN{j};\n' for j in range(20)) + 'st.shared.u32 [%r2+2048], %r1;\n')


def main():
    binary = sys.argv[1]

    k = run(binary, IF_ELSE, '--claim', 'conflict-free')
    join = by_text(k, 'ld.shared.u32 %r6')
    check(join['executed'] == 1 and join['wavefronts'] == 1 and join['ideal'] == 1, f'if/else: the join load is counted exactly: {join}')
    check(verdict(join, 'conflict-free')['verdict'] == 'PROVED', f'if/else: the join load is PROVED: {verdict(join, "conflict-free")}')
    then = by_text(k, 'st.shared.u32 [%r2+4096]')
    check(then['executed'] is None and then['wavefronts'] is None, f'if/else: the then store has no counts: {then}')
    check('data decides' in then.get('counts_unknown', '') and 'line' in then.get('executed_unknown', ''),
          f'if/else: the then store says why: {then}')
    check(verdict(then, 'conflict-free')['verdict'] == 'PROVED', f'if/else: one word per lane is PROVED for every data: {verdict(then, "conflict-free")}')
    other = by_text(k, 'st.shared.u32 [%r5]')
    v = verdict(other, 'conflict-free')
    check(v['verdict'] == 'UNKNOWN' and 'data' in v['detail'], f'if/else: a conflict only some data makes is UNKNOWN, not REFUTED: {v}')

    k = run(binary, CAS, '--claim', 'conflict-free')
    after = by_text(k, 'ld.shared.u32 %r10')
    check(after['executed'] == 1 and after['wavefronts'] == 1, f'CAS loop: the load after it is counted exactly: {after}')
    check(k['stopped'] is None, f'CAS loop: no lane stops: {k["stopped"]}')
    inside = by_text(k, 'ld.shared.u32 %r7')
    check(inside['executed'] is None and inside['wavefronts'] is None, f'CAS loop: the loop load has no counts: {inside}')

    k = run(binary, LAST_BLOCK, '--claim', 'conflict-free')
    st = by_text(k, 'st.shared.u32 [%r2]')
    check(st['executed'] is None and 'data decides' in st.get('executed_unknown', ''), f'return on data: the store after it has no executed count: {st}')
    check(verdict(st, 'conflict-free')['verdict'] == 'PROVED', f'return on data: the store is PROVED for every data: {verdict(st, "conflict-free")}')

    k = run(binary, RUNAWAY, '--claim', 'conflict-free')
    st = by_text(k, 'st.shared.u32 [%r14]')
    v = verdict(st, 'conflict-free')
    check(v['verdict'] != 'PROVED', f'runaway data path: the 32-way store is not PROVED: {v}')
    check(st['wavefronts'] is None, f'runaway data path: the store has no counts: {st}')

    sass = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'compiled', 'cas_loop.sass')
    if os.path.exists(sass):
        k = run(binary, open(sass).read(), '--claim', 'conflict-free', suffix='.sass', cmd='sass')
        rows = {i['sass_offset']: i for i in k['instructions']}
        loop = [i for i in k['instructions'] if 'ATOMS.CAST.SPIN' in i['text']]
        check(loop and all(i['executed'] is None for i in loop), f'SASS CAS loop: ATOMS.CAST.SPIN has no counts: {loop}')
        after = [i for i in k['instructions'] if i['sass_offset'] > max(j['sass_offset'] for j in loop)] if loop else []
        check(after and all(i['executed'] is not None for i in after), f'SASS CAS loop: what follows is counted: {after}')
        del rows
    else:
        check(False, f'missing fixture {sass}')

    k = run(binary, SPINS, '--claim', 'conflict-free')
    check(k['stopped'] is None, f'twenty spins: no lane stops: {k["stopped"]}')
    after = by_text(k, 'st.shared.u32 [%r2+2048]')
    check(after['executed'] == 1 and after['wavefronts'] == 1, f'twenty spins: the store after them is counted exactly: {after}')
    check(verdict(after, 'conflict-free')['verdict'] == 'PROVED', f'twenty spins: the store after them is PROVED: {verdict(after, "conflict-free")}')
    last = by_text(k, 'st.shared.u32 [%r17]')
    v = verdict(last, 'conflict-free')
    check(v['verdict'] == 'UNKNOWN' and 'symbols in use' in v['detail'], f'twenty spins: the last loop says its iteration is not a symbol: {v}')

    sass = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'compiled', 'spill_loop.sass')
    k = run(binary, open(sass).read(), '--claim', 'conflict-free', suffix='.sass', cmd='sass')
    inside = [i for i in k['instructions'] if i['text'].endswith('STS [R4], R0')]
    check(len(inside) == 1 and verdict(inside[0], 'conflict-free')['verdict'] == 'PROVED' and 'every iteration' in verdict(inside[0], 'conflict-free')['method'],
          f'spilled address: the store in the loop is PROVED for every iteration: {inside}')
    after = [i for i in k['instructions'] if 'LDS R6' in i['text']]
    check(len(after) == 1 and after[0]['executed'] == 1 and after[0]['wavefronts'] == 1, f'spilled address: the load after the loop is counted: {after}')

    if FAILED:
        print(f'{len(FAILED)} failed')
        return 1
    print('data branches: all cases pass')
    return 0


if __name__ == '__main__':
    sys.exit(main())
