#!/usr/bin/env python3
"""The verdicts users see do not change when the code behind them is reorganized.

    same_verdicts_test.py LAYOUTPROOF REPO_ROOT [--write]

Runs every example spec (`check FILE --json`), the catalog (`catalog --json`), every command of
every `--help` Examples block and every `$ layoutproof` line of README's "Five minutes" section,
from a scratch folder linked to the repository, and compares each with golden.txt:
- the exit code;
- the verdicts it printed: from its JSON (the command as written when it has --json, else with
  `--json` added when the command took it in the golden run), every string value of a key named
  "verdict", counted per verdict (in the one results document, those of its "results" alone);
- otherwise the "N proved, N refuted" figures of its last summary line.
--write records golden.txt from the binary given (only when the verdicts are meant to change,
and the commit says why)."""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VERDICTS = {'PROVED', 'REFUTED', 'UNKNOWN', 'ERROR', 'REPORT', 'NOT RUN'}


def topics(binary):
    base = ['prove', 'print', 'eval', 'check', 'catalog', 'bank', 'raster', 'raster prove', 'raster locality',
            'raster trace', 'synth', 'synth --kernel', 'trace', 'ptx', 'sass', 'demo', 'algebra']
    out = subprocess.run([binary, 'algebra', '--help'], capture_output=True, text=True).stdout
    ops = sorted(set(re.findall(r'^  ([a-z_0-9]+) ', out, re.M)))
    for op in ops:
        if subprocess.run([binary, 'help', 'algebra', op], capture_output=True).returncode == 0:
            base.append('algebra ' + op)
    return base


def help_examples(binary, topic):
    text = subprocess.run([binary] + topic.split() + ['--help'], capture_output=True, text=True).stdout
    cmds, on, lines = [], False, []
    for line in text.splitlines():
        if lines and lines[-1].endswith('\\'):
            lines[-1] = lines[-1][:-1] + ' ' + line.strip()
        else:
            lines.append(line)
    for line in lines:
        if line.startswith('Examples:'):
            on = True
            continue
        if on and line and not line.startswith(' '):
            break
        s = line.strip()
        if on and s.startswith('layoutproof ') and '|' not in s and '$(' not in s and '>' not in s:
            cmds.append(s)
    return cmds


def readme_commands(root):
    text = open(os.path.join(root, 'README.md'), encoding='utf-8').read()
    start = text.index('## Five minutes')
    sec = text[start:text.index('\n## ', start + 1)]
    cmds = []
    for block in re.findall(r'```console\n(.*?)```', sec, re.S):
        for line in block.splitlines():
            if line.startswith('$ layoutproof ') and '|' not in line and '>' not in line:
                cmds.append(line[2:].strip())
    return cmds


def verdict_counts(doc):
    counts = collections.Counter()
    # The one results document (docs/json_output.schema.json $defs results): its verdicts are its
    # results'; a view beside them (ptx's kernels, each instruction's verdicts) repeats them.
    if isinstance(doc, dict) and doc.get('tool') == 'layoutproof' and isinstance(doc.get('results'), list):
        doc = doc['results']

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == 'verdict' and isinstance(v, str) and v in VERDICTS:
                    counts[v] += 1
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(doc)
    return counts


def parse_json(out):
    try:
        return json.loads(out)
    except ValueError:  # JSON lines
        docs = []
        for line in out.splitlines():
            if line.strip():
                try:
                    docs.append(json.loads(line))
                except ValueError:
                    return None
        return docs if docs else None


def run(binary, cmd, cwd):
    env = dict(os.environ, LAYOUTPROOF_CACHE=os.path.join(cwd, 'cache'),
               PATH=os.path.dirname(binary) + os.pathsep + os.environ.get('PATH', ''))
    p = subprocess.run(['bash', '-c', cmd], cwd=cwd, capture_output=True, text=True, timeout=300, env=env)
    return p.returncode, p.stdout


def describe(binary, cmd, cwd, golden_line=None):
    """'rc=N json=PROVED:3,REFUTED:1' or 'rc=N summary=P/R' or 'rc=N'."""
    rc, out = run(binary, cmd, cwd)
    want_json = golden_line is None or ' json=' in golden_line
    if want_json:
        has_json = re.search(r'(^|\s)--json(\s|$)', cmd) is not None
        jcmd = cmd if has_json else cmd + ' --json'
        jrc, jout = (rc, out) if has_json else run(binary, jcmd, cwd)
        doc = parse_json(jout) if jrc == rc else None
        if doc is not None:
            c = verdict_counts(doc)
            return f'rc={rc} json=' + ','.join(f'{k}:{c[k]}' for k in sorted(c))
    m = re.findall(r'(\d+) proved, (\d+) refuted', out)
    if m and (golden_line is None or ' summary=' in golden_line):
        return f'rc={rc} summary={m[-1][0]}/{m[-1][1]}'
    return f'rc={rc}'


def main():
    binary, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    write = '--write' in sys.argv[3:]
    cmds = ['layoutproof catalog --json --no-cache']
    for f in sorted(os.listdir(os.path.join(root, 'examples'))):
        if f.endswith('.yaml'):
            cmds.append(f'layoutproof check examples/{f} --json --no-cache')
    for t in topics(binary):
        cmds += help_examples(binary, t)
    cmds += readme_commands(root)
    seen, unique = set(), []
    for c in cmds:
        if c not in seen:
            seen.add(c)
            unique.append(c)
    golden_path = os.path.join(HERE, 'golden.txt')
    golden = {}
    if not write:
        for line in open(golden_path, encoding='utf-8'):
            if line.strip() and not line.startswith('#'):
                cmd, _, d = line.rstrip('\n').partition('\t')
                golden[cmd] = d
    with tempfile.TemporaryDirectory() as tmp:
        for d in ('examples', 'tests'):
            os.symlink(os.path.join(root, d), os.path.join(tmp, d))
        lines, failures = [], []
        for c in unique:
            if write:
                lines.append(f'{c}\t{describe(binary, c, tmp)}')
                continue
            if c not in golden:
                continue  # a new example: golden.txt records the commands that existed before
            now = describe(binary, c, tmp, golden[c])
            if now != golden[c]:
                failures.append(f'{c}\n    golden: {golden[c]}\n    now:    {now}')
        missing = [c for c in golden if c not in seen]
    if write:
        with open(golden_path, 'w', encoding='utf-8') as f:
            f.write('# command<TAB>exit code and verdicts: tests/cli/same_verdicts/same_verdicts_test.py --write\n')
            f.write('\n'.join(lines) + '\n')
        print(f'wrote {len(lines)} commands')
        return 0
    for m in missing:
        print(f'NOTE: golden command no longer an example (still run): {m}')
    with tempfile.TemporaryDirectory() as tmp:
        for d in ('examples', 'tests'):
            os.symlink(os.path.join(root, d), os.path.join(tmp, d))
        for c in missing:
            now = describe(binary, c, tmp, golden[c])
            if now != golden[c]:
                failures.append(f'{c}\n    golden: {golden[c]}\n    now:    {now}')
    for f in failures:
        print('FAIL:', f)
    print(f'{len(golden)} commands, {len(failures)} changed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
