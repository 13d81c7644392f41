#!/usr/bin/env python3
"""Writes a kernel library's SASS and the spec gating it: one `cuobjdump -sass` file of many
kernels, and a `compiled:` entry per kernel, as a library's CI gate lists them.

Usage: gen_compiled_library.py OUTDIR [KERNELS] [LINES]   (defaults 54 and 56000)
Writes OUTDIR/library.sass and OUTDIR/library.yaml (whose `file:` is library.sass beside it).

The kernels are the measured corpus's (tests/compiled/measured/*.sass, every one that launches.txt
launches, with its block and SASS parameters from there): each once, in the corpus's order, then
copies until the file holds KERNELS kernels, each copy picked so that the file's size approaches
LINES (the kernel whose size is nearest to the lines still wanted per kernel still to add). A copy's
`Function :` header is renamed: its first mangled source name gets `_cNN` (`_Z8row_copyPKfPf` ->
`_Z12row_copy_c01PKfPf`), so it stays a valid mangled name and every entry names one kernel. No
cuobjdump is needed: only the committed fixtures are read. The output is deterministic.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
MEASURED = os.path.join(ROOT, 'tests', 'compiled', 'measured')
PROGRAMS = ['hand', 'cute', 'cute_copies', 'sgemm_sm80']
CLAIMS = '[conflict-free, aligned]'
HEADER = ('\nFatbin elf code:\n================\narch = sm_90\ncode version = [1,8]\nhost = linux\n'
          'compile_size = 64bit\n\n\tcode for sm_90\n\t.target\tsm_90\n\n')


def functions(path):
    """[(mangled name, its lines from the `Function :` header through the `..........` end)]"""
    out, cur = [], None
    for line in open(path).read().split('\n'):
        m = re.match(r'\t\tFunction : (\S+)$', line)
        if m:
            cur = (m.group(1), [line])
            out.append(cur)
        elif cur is not None:
            cur[1].append(line)
            if line.strip() == '..........':
                cur = None
    return out


def launches():
    """program -> [(kernel text, block, [SASS parameter KEY=VALUE])], from launches.txt."""
    out = {}
    for line in open(os.path.join(MEASURED, 'launches.txt')):
        if line.startswith('#') or not line.strip():
            continue
        prog, kernel, block, ptx_params, sass_params = line.split()[:5]
        params = ptx_params if sass_params == '=' else sass_params
        out.setdefault(prog, []).append((kernel, block, [] if params == '-' else params.split(',')))
    return out


def renamed(name, copy):
    """The mangled name with `_cNN` after its first source name."""
    m = re.match(r'(_ZN?)(\d+)', name)
    n = int(m.group(2))
    ident = name[m.end():m.end() + n] + '_c%02d' % copy
    return m.group(1) + str(len(ident)) + ident + name[m.end() + n:]


def pool():
    """[(mangled name, lines, block, params)]: every launched kernel of the corpus, in order."""
    out = []
    runs = launches()
    for prog in PROGRAMS:
        funcs = functions(os.path.join(MEASURED, prog + '.sass'))
        for kernel, block, params in runs[prog]:
            hits = [f for f in funcs if kernel in f[0]]
            assert len(hits) == 1, (prog, kernel, [h[0] for h in hits])
            out.append((hits[0][0], hits[0][1], block, params))
    return out


def library(kernels, lines):
    """[(mangled name, lines, block, params)]: the pool once, then the copies."""
    base = pool()
    assert kernels >= len(base), 'at least %d kernels (the corpus once)' % len(base)
    out = list(base)
    copies = {}
    while len(out) < kernels:
        left = max(0, lines - sum(len(k[1]) for k in out)) / (kernels - len(out))
        name, body, block, params = min(base, key=lambda k: (abs(len(k[1]) - left), base.index(k)))
        copies[name] = copies.get(name, 0) + 1
        new = renamed(name, copies[name])
        out.append((new, [body[0].replace(name, new)] + body[1:], block, params))
    names = [k[0] for k in out]
    for n in names:  # each entry's kernel text must select exactly its own kernel
        assert sum(n in m for m in names) == 1, n
    return out


def spec_entry(i, name, block, params):
    dims = block.split(',')
    lines = ['  - name: k%02d' % i, '    file: library.sass', '    kernel: ' + name,
             '    block: ' + (dims[0] if len(dims) == 1 else '[' + ', '.join(dims) + ']')]
    if params:
        kv = [p.split('=', 1) for p in params]
        lines.append('    params: {' + ', '.join('"%s": %s' % (k, v) for k, v in kv) + '}')
    lines.append('    claims: ' + CLAIMS)
    return '\n'.join(lines) + '\n'


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    outdir = sys.argv[1]
    kernels = int(sys.argv[2]) if len(sys.argv) > 2 else 54
    lines = int(sys.argv[3]) if len(sys.argv) > 3 else 56000
    lib = library(kernels, lines)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'library.sass'), 'w') as f:
        f.write(HEADER)
        for _, body, _, _ in lib:
            f.write('\n'.join(body) + '\n\n\n')
    with open(os.path.join(outdir, 'library.yaml'), 'w') as f:
        f.write('# %d kernels of one SASS file (bench/gen_compiled_library.py), one compiled: entry each.\n' % len(lib))
        f.write('compiled:\n')
        for i, (name, _, block, params) in enumerate(lib):
            f.write(spec_entry(i, name, block, params))


if __name__ == '__main__':
    main()
