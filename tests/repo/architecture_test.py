#!/usr/bin/env python3
"""The map (docs/architecture.md) and the tree agree.

Usage: architecture_test.py REPO_ROOT

Checks, each of which fails on the tree it guards:
  1. every folder and file docs/architecture.md names in backticks exists;
  2. the include rules: model/ includes only model/, gpu_check/ only gpu_check/ and model/,
     proofs/ no cli/; Z3 only in proofs/smt/; inside model/ and proofs/ a room includes only the
     rooms the map lists for it (and, transitively, theirs); cli/spec/ and cli/output/ never
     include cli/commands/;
  3. no source folder of model/, proofs/ or cli/ holds more than MAX_SOURCES .cpp/.hpp files;
  4. no file of the tree cites the issue tracker by number: a comment states the reason instead.
"""
import os
import re
import subprocess
import sys

MAX_SOURCES = 20

# The rooms of docs/architecture.md's tables and what each may include directly, as the build
# declares them (cmake/rooms.cmake: one table for the compiler and for this test), and the edges
# back up it declares file by file (layoutproof_file_edge).
ROOMS_CMAKE = 'cmake/rooms.cmake'


def room_table(root):
    text = open(os.path.join(root, ROOMS_CMAKE), encoding='utf-8').read()
    rooms = {'model': {}, 'proofs': {}}
    for floor, room, deps in re.findall(r'^\s*layoutproof_room\((model|proofs)/(\w+)(?: DEPENDS ([^)]*))?\)', text, re.M):
        rooms[floor][room] = {d.split('/')[1] for d in (deps or '').split() if d.startswith(floor + '/')}
    edges = set()
    for f, to in re.findall(r'^\s*layoutproof_file_edge\((\S+) ([^)]*)\)', text, re.M):
        edges |= {(f, d.split('/')[1]) for d in to.split() if d.startswith('proofs/')}
    return rooms['model'], rooms['proofs'], edges


def closure(rooms):
    out = {}
    for r in rooms:
        seen, todo = {r}, [r]
        while todo:
            for d in rooms[todo.pop()]:
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        out[r] = seen
    return out


def tracked(root):
    return subprocess.run(['git', 'ls-files'], cwd=root, capture_output=True, text=True,
                          check=True).stdout.split('\n')


def includes(path):
    """Every included path, and whether it is a system header (<sys/wait.h>: the rooms' rules are
    about the project's own, quoted, headers; Z3's rule is about both)."""
    with open(path, encoding='utf-8') as f:
        return [(m[1], m[0] == '<') for m in re.findall(r'^\s*#\s*include\s*([<"])([^">]+)[">]', f.read(), re.M)]


def main():
    root = sys.argv[1]
    errors = []
    MODEL_ROOMS, PROOFS_ROOMS, PROOFS_EXCEPTIONS = room_table(root)
    if not MODEL_ROOMS or not PROOFS_ROOMS:
        errors.append(f'{ROOMS_CMAKE} declares no rooms (layoutproof_room): the table moved?')
    files = [f for f in tracked(root) if f and os.path.isfile(os.path.join(root, f))]

    # 1. The map names what exists.
    doc = open(os.path.join(root, 'docs/architecture.md'), encoding='utf-8').read()
    named = set()
    for tok in re.findall(r'`([^`\s]+)`', doc):
        tok = tok.split('<')[0]
        if '/' in tok and re.fullmatch(r'[\w./-]+', tok):
            named.add(tok)
    for n in sorted(named):
        if not os.path.exists(os.path.join(root, n)):
            errors.append(f'docs/architecture.md names {n}, which does not exist')
    for floor, rooms in (('model', MODEL_ROOMS), ('proofs', PROOFS_ROOMS)):
        for r in rooms:
            if f'`{floor}/{r}/`' not in doc:
                errors.append(f'docs/architecture.md does not name the room {floor}/{r}/')
        present = {d for d in os.listdir(os.path.join(root, floor)) if os.path.isdir(os.path.join(root, floor, d))}
        for d in sorted(present - set(rooms)):
            errors.append(f'{floor}/{d}/ is a room the map does not list')

    # 2. Include rules.
    model_ok, proofs_ok = closure(MODEL_ROOMS), closure(PROOFS_ROOMS)
    sources = [f for f in files if f.endswith(('.cpp', '.hpp', '.cu', '.inc', '.h'))]
    for f in sources:
        parts = f.split('/')
        for inc, system in includes(os.path.join(root, f)):
            ip = inc.split('/')
            where = f'{f}: #include "{inc}"'
            if inc.startswith('z3') and not f.startswith('proofs/smt/'):
                errors.append(f'{where}: Z3 is included only in proofs/smt/')
            if len(ip) < 2 or (system and ip[0] in ('sys', 'bits', 'linux', 'asm')):
                continue
            if parts[0] == 'model':
                if ip[0] != 'model':
                    errors.append(f'{where}: model/ includes only model/')
                elif len(parts) > 2 and len(ip) > 2 and ip[1] not in model_ok[parts[1]]:
                    errors.append(f'{where}: model/{parts[1]}/ may include only {sorted(model_ok[parts[1]])}')
            elif parts[0] == 'gpu_check':
                if ip[0] in ('proofs', 'cli'):
                    errors.append(f'{where}: gpu_check/ includes only gpu_check/ and model/')
            elif parts[0] == 'proofs':
                if ip[0] == 'cli':
                    errors.append(f'{where}: proofs/ never includes cli/')
                elif ip[0] == 'proofs' and len(parts) > 2 and len(ip) > 2 and parts[1] in proofs_ok \
                        and ip[1] not in proofs_ok[parts[1]] and (f, ip[1]) not in PROOFS_EXCEPTIONS:
                    errors.append(f'{where}: proofs/{parts[1]}/ may include only {sorted(proofs_ok[parts[1]])}')
            elif parts[0] == 'cli' and len(parts) > 2 and parts[1] in ('spec', 'output'):
                if inc.startswith('cli/commands/'):
                    errors.append(f'{where}: cli/{parts[1]}/ never includes cli/commands/')

    # 3. Room sizes.
    counts = {}
    for f in files:
        if f.split('/')[0] in ('model', 'proofs', 'cli') and f.endswith(('.cpp', '.hpp')):
            counts[os.path.dirname(f)] = counts.get(os.path.dirname(f), 0) + 1
    for d, n in sorted(counts.items()):
        if n > MAX_SOURCES:
            errors.append(f'{d}/ holds {n} source files (at most {MAX_SOURCES}): split it by concern')

    # 4. No citations of the tracker by number.
    # A tracker citation is the word issue(s) and a number; the verb followed by a count of
    # instructions, wavefronts, loads or stores (CuTe issues N instructions) is not one.
    cite = re.compile(r'\b[Ii]ssues?' + r' #?[0-9]+\b(?! ?(x |instructions?|wavefronts?|loads?|stores?|LDS|STS|ld\b|st\b))')
    for f in files:
        if f.startswith('fuzz/corpus/'):
            continue
        try:
            text = open(os.path.join(root, f), encoding='utf-8').read()
        except (UnicodeDecodeError, OSError):
            continue
        for i, line in enumerate(text.split('\n'), 1):
            if cite.search(line):
                errors.append(f'{f}:{i}: cites the issue tracker ("{cite.search(line).group(0)}"); state the reason instead')

    for e in errors:
        print('FAIL', e)
    print(f'architecture: {len(named)} named paths, {len(sources)} sources, {len(counts)} source folders checked; '
          f'{len(errors)} problems')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
