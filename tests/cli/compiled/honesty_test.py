#!/usr/bin/env python3
"""ctest cli.compiled_honesty: a compiled-kernel gate says what it did not see.

Usage: honesty_test.py LAYOUTPROOF SOURCE_DIR

- An instruction no lane of the launch runs is UNKNOWN (NOT RUN), never PROVED; a launch that runs
  none of the kernel's shared-memory instructions is an ERROR per claim, unless --allow-empty.
- `.maxntid` (__launch_bounds__) bounds the block and is not it: --block is required.
- --cta picks the CTA (inside the grid) and the verdicts say they are about it alone.
- A binary is read through cuobjdump (here a stand-in script that checks its arguments), or, with
  none found, refused with the command to run.
"""
import os
import stat
import subprocess
import sys
import tempfile

tool, src = sys.argv[1], sys.argv[2]
basic = os.path.join(src, 'tests/ptx/basic.ptx')
failures = []


def check(ok, what):
    print(('ok    ' if ok else 'FAIL  ') + what)
    if not ok:
        failures.append(what)


def run(*args, env=None):
    p = subprocess.run([tool, *args], capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


# stages(float*, int n): n = 0 runs none of its shared-memory instructions.
rc, out = run('ptx', basic, '--kernel', 'stages', '--block', '32', '--param', '1=0', '--claim', 'conflict-free')
check(rc == 3, f'an empty launch is not a pass (exit {rc})')
check('NOT RUN' in out and 'PROVED  conflict-free' not in out, 'its instructions are NOT RUN, none PROVED')
check('a gate over nothing proves nothing' in out and 'ERROR' in out, 'the kernel has an ERROR saying the gate is over nothing')
rc, out = run('ptx', basic, '--kernel', 'stages', '--block', '32', '--param', '1=0', '--claim', 'conflict-free', '--allow-empty')
check(rc == 0 and '0 claims' in out, f'--allow-empty: no claims, exit 0 (exit {rc})')
rc, out = run('ptx', basic, '--kernel', 'stages', '--block', '32', '--param', '1=4', '--claim', 'conflict-free')
check('a gate over nothing' not in out, 'a launch that runs its instructions is not called empty')

# __launch_bounds__: .maxntid only bounds the block.
rc, out = run('ptx', os.path.join(src, 'tests/ptx/cute_copy.ptx'), '--claim', 'conflict-free')
check(rc == 2 and 'says at most 128 threads' in out and 'give --block' in out, f'.maxntid without --block is exit 2 naming it (exit {rc})')

# --cta: one CTA of the grid, said on every verdict.
rc, out = run('ptx', basic, '--kernel', 'broadcast', '--block', '32', '--param', '1=5', '--grid', '4', '--cta', '3', '--claim', 'conflict-free')
check(rc == 0 and 'CTA (3,0,0) of grid 4,1,1 (that CTA alone)' in out, f'--cta 3 runs that CTA and says so (exit {rc})')
rc, out = run('ptx', basic, '--kernel', 'broadcast', '--block', '32', '--grid', '4', '--cta', '4')
check(rc == 2 and 'outside the grid' in out, f'--cta outside the grid is exit 2 (exit {rc})')

# A spec entry's cta: the same, located on the spec when outside the grid.
with tempfile.TemporaryDirectory() as d:
    spec = os.path.join(d, 's.yaml')
    for cta, want_rc, want in (('[3, 0, 0]', 0, '(that CTA alone)'), ('[4, 0, 0]', 2, 's.yaml:7:10: cta 4,0,0 is outside the grid')):
        with open(spec, 'w') as f:
            f.write(f'compiled:\n  - name: b\n    file: {os.path.abspath(basic)}\n    kernel: broadcast\n    block: 32\n    grid: [4, 1, 1]\n'
                    f'    cta: {cta}\n    params: {{1: 5}}\n    claims: [conflict-free]\n')
        rc, out = run('check', spec, '--no-cache')
        check(rc == want_rc and want in out, f'spec cta: {cta}: exit {rc}, says {want!r}')

# Binaries: an ELF file (the tool's own executable stands for a cubin).
with tempfile.TemporaryDirectory() as d:
    fake = os.path.join(d, 'cuobjdump')
    log = os.path.join(d, 'args')
    with open(fake, 'w') as f:
        f.write(f'#!/bin/sh\necho "$@" > {log}\ncat {os.path.join(src, "tests/compiled/measured/hand.sass")}\n')
    os.chmod(fake, stat.S_IRWXU)
    env = dict(os.environ, LAYOUTPROOF_CUOBJDUMP=fake)
    rc, out = run('sass', tool, '--arch', 'sm_90', '--kernel', 'column_read', '--block', '32', env=env)
    args = open(log).read().split() if os.path.exists(log) else []
    check(rc == 0 and 'column_read' in out, f'a binary is read through cuobjdump -sass (exit {rc})')
    check(args[:3] == ['-sass', '-arch', 'sm_90'] and args[-1] == tool, f'cuobjdump is given -sass, --arch and the file ({args})')
    rc, out = run('sass', tool, '--arch', 'sm90', '--block', '32', env=env)
    check(rc == 2 and 'such as sm_90' in out, '--arch takes sm_XX')
    none = dict(os.environ, LAYOUTPROOF_CUOBJDUMP='', PATH=d + '/nothing')
    if os.access('/usr/local/cuda/bin/cuobjdump', os.X_OK):
        print('skip  the no-cuobjdump message: this machine has /usr/local/cuda/bin/cuobjdump')
    else:
        rc, out = run('sass', tool, '--block', '32', env=none)
        check(rc == 2 and 'is an ELF file' in out and 'cuobjdump -sass' in out, f'without cuobjdump: exit 2 naming the command (exit {rc})')
        check('\\x' not in out, 'no raw bytes are printed')

print(f'{len(failures)} failed')
sys.exit(1 if failures else 0)
