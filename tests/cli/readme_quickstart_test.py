#!/usr/bin/env python3
"""README's "Five minutes" section runs as written: readme_quickstart_test.py BUILD_DIR REPO_ROOT

Every `$ ` line of the section's console blocks is run from the repository root with BUILD_DIR
first on PATH (as the section's `export PATH` says); every other line of a block is an expected
output line, where `...` stands for any text: each must match the start of a line of that
command's output.
`$ echo $?` prints the previous command's exit code. The section's sh block must build with the
project's own scripts (checked by name; this test does not install)."""
import os
import re
import subprocess
import sys


def section(readme):
    text = open(readme, encoding='utf-8').read()
    start = text.index('## Five minutes')
    end = text.index('\n## ', start + 1)
    return text[start:end]


def blocks(sec, lang):
    return re.findall(r'```' + lang + r'\n(.*?)```', sec, re.S)


def pattern(line):
    parts = [re.escape(p) for p in line.strip().split('...')]
    return re.compile('^' + '.*'.join(parts))


def main():
    build, root = sys.argv[1], sys.argv[2]
    sec = section(os.path.join(root, 'README.md'))
    failures = []
    sh = ''.join(blocks(sec, 'sh'))
    for needed in ('bash scripts/setup.sh', 'bash scripts/build.sh', 'export PATH="$PWD/build:$PATH"'):
        if needed not in sh:
            failures.append(f'the install block does not say {needed!r}')
    env = dict(os.environ, PATH=build + os.pathsep + os.environ.get('PATH', ''))
    last_rc, commands = None, 0
    for block in blocks(sec, 'console'):
        steps = []
        for line in block.splitlines():
            if line.startswith('$ '):
                steps.append([line[2:], []])
            elif steps and line.strip():
                steps[-1][1].append(line)
        for cmd, expected in steps:
            commands += 1
            if cmd.strip() == 'echo $?':
                out = f'{last_rc}\n'
            else:
                p = subprocess.run(['bash', '-c', cmd], cwd=root, env=env, capture_output=True, text=True, timeout=120)
                out, last_rc = p.stdout + p.stderr, p.returncode
            lines = [l.strip() for l in out.splitlines()]
            for e in expected:
                if not any(pattern(e).match(l) for l in lines):
                    failures.append(f'{cmd[:80]}...: no output line matches {e.strip()!r}\n--- output:\n{out}')
    for f in failures:
        print('FAIL', f)
    print(f'readme quickstart: {commands} commands, {len(failures)} failures')
    return 1 if failures or commands < 4 else 0


if __name__ == '__main__':
    sys.exit(main())
