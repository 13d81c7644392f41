#!/usr/bin/env python3
"""Every output format stays valid on hostile names: hostile_outputs_test.py LAYOUTPROOF

A spec whose names hold quotes, markup, backslashes, control characters, a right-to-left override,
emoji and 2,000-character names; a spec that is not UTF-8; a spec whose FILE NAME is not UTF-8.
Each run writes --json, --junit, --sarif, --markdown and --report; every file must decode as UTF-8
and parse with a real parser (json, xml.etree and xmllint for JUnit and the report's SVG/HTML
where present, html.parser for the report pages); the non-UTF-8 spec is exit 2, located."""
import glob
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HOSTILE = ['q"uote\'s', '<b>&amp;</b>', 'back\\slash', 'ctl \x01\x1b[31m', 'rtl \u202e gnp.exe', 'emoji \U0001F600', 'x' * 2000]


def spec_text():
    lines = ['version: 1', 'layouts:']
    for i, n in enumerate(HOSTILE):
        lines += [f"  - name: {json.dumps(n + ' ' + str(i), ensure_ascii=False)}", '    layout: Sw<2,2,3> o (32,40):(40,1)', '    element: f32',
                  '    claims: [bijective]', '    accesses:', '      - pattern: row-per-lane', '        claims: [conflict-free]']
    return '\n'.join(lines) + '\n'


def outputs(d):
    return {k: os.path.join(d, v) for k, v in
            {'json': 'o.json', 'junit': 'o.xml', 'sarif': 'o.sarif', 'markdown': 'o.md', 'report': 'rep'}.items()}


def run(binary, spec_path, d):
    o = outputs(d)
    args = [binary, 'check', spec_path, '--no-cache', '--no-progress', '--json', o['json'], '--junit', o['junit'],
            '--sarif', o['sarif'], '--markdown', o['markdown'], '--report', o['report']]
    return subprocess.run(args, capture_output=True), o


def validate(o, failures, what):
    def fail(m):
        failures.append(f'{what}: {m}')
    for key in ('json', 'sarif'):
        try:
            json.loads(open(o[key], 'rb').read().decode('utf-8'))
        except Exception as e:  # noqa: BLE001 - any failure to decode or parse is the finding
            fail(f'{key}: {e}')
    try:
        ET.fromstring(open(o['junit'], 'rb').read().decode('utf-8'))
        subprocess.run(['xmllint', '--noout', o['junit']], check=True, capture_output=True)
    except Exception as e:  # noqa: BLE001
        fail(f'junit: {e}')
    try:
        open(o['markdown'], 'rb').read().decode('utf-8')
    except Exception as e:  # noqa: BLE001
        fail(f'markdown: {e}')
    if 'report' in o and os.path.isdir(o['report']):
        for page in glob.glob(os.path.join(o['report'], '**', '*'), recursive=True):
            if os.path.isdir(page):
                continue
            try:
                text = open(page, 'rb').read().decode('utf-8')
                if page.endswith('.svg'):
                    ET.fromstring(text)
                elif page.endswith('.html'):
                    html.parser.HTMLParser().feed(text)
                    assert text.rstrip().endswith('</html>')
            except Exception as e:  # noqa: BLE001
                fail(f'report page {os.path.relpath(page, o["report"])}: {e}')


def main():
    binary = sys.argv[1]
    failures = []
    d = tempfile.mkdtemp()
    try:
        spec = os.path.join(d, 'hostile.yaml')
        open(spec, 'w', encoding='utf-8').write(spec_text())
        p, o = run(binary, spec, d)
        if p.returncode != 1:
            failures.append(f'hostile names: exit {p.returncode}: {p.stderr.decode("utf-8", "replace")}')
        validate(o, failures, 'hostile names')
        if not glob.glob(os.path.join(o['report'], '*', 'index.html')):
            failures.append('hostile names: the refuted bank claims have no figure page')
        # A spec that is not UTF-8: exit 2 at the byte, every output still valid.
        bad = os.path.join(d, 'bad.yaml')
        open(bad, 'wb').write(b'version: 1\nlayouts:\n  - name: "bad \xff\xfe"\n    layout: (8,8):(8,1)\n    claims: [bijective]\n')
        shutil.rmtree(o['report'], ignore_errors=True)
        p, o = run(binary, bad, d)
        err = p.stderr.decode('utf-8', 'replace')
        if p.returncode != 2 or 'bad.yaml:3:16: the spec is not UTF-8 text: byte 0xFF' not in err:
            failures.append(f'non-UTF-8 spec: exit {p.returncode}: {err}')
        validate({k: v for k, v in o.items() if k != 'report'}, failures, 'non-UTF-8 spec')
        # A spec whose file name is not UTF-8: its name goes into every output, replaced where ill-formed.
        odd = os.path.join(os.fsencode(d), b'odd\xff\xfe.yaml')
        open(odd, 'w', encoding='utf-8').write(spec_text())
        p, o = run(binary, os.fsdecode(odd), d)
        if p.returncode != 1:
            failures.append(f'non-UTF-8 file name: exit {p.returncode}: {p.stderr.decode("utf-8", "replace")}')
        validate(o, failures, 'non-UTF-8 file name')
    finally:
        shutil.rmtree(d, ignore_errors=True)
    for f in failures:
        print('FAIL', f[:2000])
    print(f'hostile outputs: 3 runs, {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
