#!/usr/bin/env python3
"""A report folder survives a kill: kill_report_test.py LAYOUTPROOF REPO_ROOT [TRIALS]

`layoutproof ptx tests/ptx/basic.ptx --kernel column_read ... --report DIR` is run TRIALS times (default 300), each run
naming its number in its command line (--deadline-s 1000+K, which the report shows and which
changes nothing else), and killed with SIGTERM or SIGINT after a random delay (seeded, so a failure
reproduces). Every report folder is published by one function (cli/output/atomic_file.hpp
publish_report_folder); this once left DIR with only report.svg, or empty, and hidden
.DIR.partial-*-old folders behind, while the tool said "no output was left half-written". After each
trial:
  - the process exited 1 (finished: column_read is refuted) or 130/143 (killed), nothing else;
  - DIR is complete (index.html and report.svg, both closed, nothing else) and is the report of ONE
    run: the last run that finished before this one, or this run if it got as far as publishing;
  - nothing else is left beside DIR: no .DIR.partial-* folder or file of any kind.
"""
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def report_run(d):
    """The run number the report folder names, or raises AssertionError."""
    rep = os.path.join(d, 'r')
    assert os.path.isdir(rep), 'DIR is gone'
    files = sorted(os.listdir(rep))
    assert files == ['index.html', 'report.svg'], f'DIR holds {files}'
    html = open(os.path.join(rep, 'index.html'), encoding='utf-8').read()
    svg = open(os.path.join(rep, 'report.svg'), encoding='utf-8').read()
    assert html.rstrip().endswith('</html>'), 'index.html cut short'
    assert svg.rstrip().endswith('</svg>'), 'report.svg cut short'
    runs = set(re.findall(r'--deadline-s (\d+)', html))
    assert len(runs) == 1, f'index.html names runs {runs}'
    left = [f for f in os.listdir(d) if f != 'r']
    assert not left, f'left beside DIR: {left}'
    return int(runs.pop()) - 1000


def main():
    binary, root = sys.argv[1], sys.argv[2]
    trials = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    rng = random.Random(20261201)
    d = tempfile.mkdtemp()
    ptx = os.path.join(root, 'tests', 'ptx', 'basic.ptx')

    def args(k):
        return [binary, 'ptx', ptx, '--kernel', 'column_read', '--block', '32', '--claim', 'conflict-free', '--claim', 'in-bounds',
                '--deadline-s', str(1000 + k), '--report', os.path.join(d, 'r')]

    failures = 0
    try:
        t0 = time.monotonic()
        first = subprocess.run(args(0), capture_output=True, text=True)
        full = time.monotonic() - t0
        assert first.returncode == 1, first.stdout[-300:] + first.stderr
        assert report_run(d) == 0
        last, killed, published = 0, 0, 0
        for k in range(1, trials + 1):
            sig = rng.choice([signal.SIGTERM, signal.SIGTERM, signal.SIGINT])
            p = subprocess.Popen(args(k), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            time.sleep(rng.uniform(0, full * 1.1))
            p.send_signal(sig)
            _, err = p.communicate()
            rc = p.returncode
            try:
                assert rc in (1, 128 + sig, -sig), f'exit {rc}: {err}'
                run = report_run(d)
                if rc == 1:
                    assert run == k, f'finished, but DIR is run {run}\'s'
                else:
                    killed += 1
                    assert run in (last, k), f'DIR is run {run}\'s, neither the last finished ({last}) nor this one ({k})'
                    published += run == k
                last = run
            except AssertionError as e:
                failures += 1
                print(f'FAIL trial {k} ({signal.Signals(sig).name}): {e}')
                last = k  # the next trial compares with what is there now
        print(f'kill report: {trials} trials ({killed} killed, {published} of those after publishing), {failures} failures; '
              f'full run {full * 1000:.0f} ms')
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
