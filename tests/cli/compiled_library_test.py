#!/usr/bin/env python3
"""layoutproof check on a kernel library: 54 compiled: entries on one 56,000-line SASS file
(bench/gen_compiled_library.py, from the measured corpus). Checks:
  - the file is read and lowered once for the run (JSON summary.compiled_files == 1);
  - every entry's results, run with -j 2, equal those recorded when each entry read the file itself
    (compiled_library_verdicts.txt, made with -j 1: per entry, its verdict counts and a digest of
    its JSON results, times left out);
  - memory does not grow with the entries as it did with a program per entry: the run's max RSS
    is under 8 times a run of its largest kernel alone (a program per entry was over 20 times).

Usage: compiled_library_test.py LAYOUTPROOF REPO_ROOT [--record]
--record prints the verdicts, run with -j 1, for the binary given (compiled_library_verdicts.txt's lines).
"""
import collections
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VERDICTS = os.path.join(HERE, 'compiled_library_verdicts.txt')
TIME = re.compile(r'\d+(\.\d+)? ms')
METHOD = re.compile(r'"method":"(?:[^"\\]|\\.)*"')


def run(binary, cwd, args, out_path):
    """Runs `layoutproof check ...` in cwd with stdout into out_path; (exit code, max RSS in KB)."""
    with open(out_path, 'w') as out, open(out_path + '.err', 'w+') as err:
        p = subprocess.Popen([binary, 'check'] + args, cwd=cwd, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)  # this child's own rusage
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        if p.returncode not in (0, 1, 3):
            sys.exit(f'check {" ".join(args)}: exit {p.returncode}: {err.read()}')
    return p.returncode, usage.ru_maxrss


def entry_lines(text):
    """Per entry (subject), in order: 'NAME results=N PROVED=.. ... sha256=..' of its results,
    from the JSON text (each result one object beginning {"id":, which a string cannot hold
    unescaped), its times left out (time_ms, and any in its method)."""
    body = re.sub(r'"time_ms":[^,]*,', '', text[text.index('"results":[') + 11:text.rindex(']')])
    body = METHOD.sub(lambda m: TIME.sub('T ms', m.group(0)), body)
    by, verdicts = collections.OrderedDict(), collections.defaultdict(collections.Counter)
    for r in re.split(r',(?=\{"id":)', body):
        name = re.search(r'"subject":"((?:[^"\\]|\\.)*)"', r).group(1)
        by.setdefault(name, []).append(r)
        verdicts[name][re.search(r'"verdict":"([A-Z]+)"', r).group(1)] += 1
    lines = []
    for name, rs in by.items():
        counts = verdicts[name]
        digest = hashlib.sha256('\n'.join(rs).encode()).hexdigest()[:16]
        lines.append(f'{name} results={len(rs)} ' + ' '.join(f'{k}={counts[k]}' for k in sorted(counts)) + f' sha256={digest}')
    return lines


def main():
    binary, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    record = '--record' in sys.argv
    failures = []
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([sys.executable, os.path.join(root, 'bench', 'gen_compiled_library.py'), d], check=True)
        jobs = '1' if record else '2'
        rc, rss_all = run(binary, d, ['library.yaml', '-j', jobs, '--json', 'out.json'], os.path.join(d, 'table.txt'))
        # Memory against the largest kernel alone (its JSON written too), measured before this
        # process holds the JSON: a child's max RSS counts what it shared of the parent's before exec.
        spec = open(os.path.join(d, 'library.yaml')).read()
        gemm = spec[spec.index('  - name: k41\n'):spec.index('  - name: k42\n')]
        open(os.path.join(d, 'one.yaml'), 'w').write('compiled:\n' + gemm)
        _, rss_one = run(binary, d, ['one.yaml', '--json', 'one.json'], os.path.join(d, 'one.txt'))
        text = open(os.path.join(d, 'out.json')).read()
        lines = entry_lines(text)
        if record:
            print('\n'.join(lines))
            return
        if rc != 1:
            failures.append(f'exit {rc}, expected 1 (the corpus has kernels with conflicts)')
        summary = json.loads(text[text.index('"summary":') + 10:text.index(',"results":[')])
        read = summary.get('compiled_files')
        if read != 1:
            failures.append(f'summary.compiled_files is {read}: the one file of 54 entries was not read once')
        want = [l for l in open(VERDICTS).read().split('\n') if l and not l.startswith('#')]
        if lines != want:
            diff = [f'  got  {g}\n  want {w}' for g, w in zip(lines, want) if g != w]
            failures.append(f'{len(diff)} entries differ from the per-entry verdicts ({len(lines)} vs {len(want)} entries):\n' +
                            '\n'.join(diff[:5]))
        if rss_all > 8 * rss_one:
            failures.append(f'max RSS {rss_all} KB for 54 entries, {rss_one} KB for one: over 8 times')
        print(f'54 entries: max RSS {rss_all} KB; one entry: {rss_one} KB ({rss_all / rss_one:.1f}x)')
    if failures:
        print('FAILED:\n' + '\n'.join(failures))
        sys.exit(1)
    print(f'compiled library: {len(lines)} entries, {summary["proved"] + summary["refuted"] + summary["unknown"] + summary["error"]} '
          'results: all assertions passed')


if __name__ == '__main__':
    main()
