#!/usr/bin/env python3
"""ctest cli.shard_merge: `layoutproof merge` presents the shards of a check run as that run.

    shard_merge_test.py LAYOUTPROOF REPO_ROOT

For example specs with a refuted claim (gemm_sm80_f16), kernel copies (kernels_sm80: witnesses
with the lanes' addresses) and compiled entries (compiled_sm90), runs `check SPEC --shard K/3
--json` for K = 1..3 and `merge` of the three with --json/--junit/--sarif/--markdown, and compares
with one unsharded `check SPEC` with the same outputs: the same verdicts per claim (a multiset: a
dropped or duplicated result fails), the same exit code, the same JUnit once its time attributes
are removed, the same summary counts, the same result items once their times are removed, the same
SARIF and Markdown. Then: unsharded JSON has no "position" or "shard" (its bytes are those it
always had), a shard's verdict cache entries are the unsharded run's, shards against one baseline
merge into the unsharded run's marks and "gone", and merge refuses (exit 2, naming the file) what
is not one run's shards.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SPECS = ['gemm_sm80_f16', 'kernels_sm80', 'compiled_sm90']
failures = []


def fail(what):
    failures.append(what)
    print('FAIL: ' + what)


def run(args, cwd):
    p = subprocess.run([BIN] + args, cwd=cwd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def load(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def verdicts_per_claim(doc):
    return collections.Counter((r['id'], r['verdict']) for r in doc['results'])


def untimed(doc):
    return [{k: v for k, v in r.items() if k != 'time_ms'} for r in doc['results']]


COUNTS = ('proved', 'from_cache', 'repeats', 'refuted', 'unknown', 'error', 'reported', 'compiled_files', 'baseline')


def counts(doc):
    return {k: doc['summary'].get(k) for k in COUNTS}


def junit_untimed(text):
    return re.sub(r' time="[^"]*"', '', text)


def outputs(name):
    return ['--json', name + '.json', '--junit', name + '.xml', '--sarif', name + '.sarif', '--markdown', name + '.md']


def shards(spec, cwd, extra=()):
    files = []
    for k in (1, 2, 3):
        f = f'{spec}-s{k}.json'
        rc, _, err = run(['check', f'examples/{spec}.yaml', '--no-cache', '--shard', f'{k}/3', '--json', f] + list(extra), cwd)
        if rc not in (0, 1):
            fail(f'{spec}: check --shard {k}/3 exits {rc}: {err.strip()}')
        files.append(f)
    return files


def compare(spec, tmp):
    whole, merged = os.path.join(tmp, 'whole'), os.path.join(tmp, 'merged')
    for d in (whole, merged):
        os.makedirs(d, exist_ok=True)
        for link in ('examples', 'tests'):
            if not os.path.exists(os.path.join(d, link)):
                os.symlink(os.path.join(ROOT, link), os.path.join(d, link))
    rc_whole, out_whole, _ = run(['check', f'examples/{spec}.yaml', '--no-cache'] + outputs('out'), whole)
    files = shards(spec, merged)
    rc_merged, out_merged, err = run(['merge'] + files[::-1] + outputs('out'), merged)  # any order
    if rc_merged != rc_whole:
        fail(f'{spec}: merge exits {rc_merged}, the unsharded run {rc_whole}: {err.strip()}')
        return
    a, m = load(os.path.join(whole, 'out.json')), load(os.path.join(merged, 'out.json'))
    if verdicts_per_claim(a) != verdicts_per_claim(m):
        fail(f'{spec}: verdicts per claim differ: {verdicts_per_claim(a) - verdicts_per_claim(m)} missing, '
             f'{verdicts_per_claim(m) - verdicts_per_claim(a)} extra')
    if counts(a) != counts(m):
        fail(f'{spec}: summary counts {counts(m)}, not {counts(a)}')
    if untimed(a) != untimed(m):
        fail(f'{spec}: the merged result items are not the unsharded run\'s (in its order)')
    for ext, same in (('xml', junit_untimed), ('sarif', lambda t: t), ('md', lambda t: t)):
        x, y = read(os.path.join(whole, 'out.' + ext)), read(os.path.join(merged, 'out.' + ext))
        if same(x) != same(y):
            fail(f'{spec}: the merged .{ext} differs from the unsharded run\'s')
    # The summary line: the same figures (the times aside).
    line = lambda out: re.sub(r'\(Z3 .*\)$', '', out.strip().splitlines()[-1])
    if line(out_whole) != line(out_merged):
        fail(f'{spec}: summary line {line(out_merged)!r}, not {line(out_whole)!r}')
    # Unsharded JSON is what it always was; a shard's says which it is.
    if 'shard' in a['summary'] or any('position' in r for r in a['results']):
        fail(f'{spec}: an unsharded run\'s JSON has a "shard" or "position"')
    parts = [load(os.path.join(merged, f)) for f in files]
    if any(p['summary'].get('shard', {}).get('n') != 3 or any('position' not in r for r in p['results']) for p in parts):
        fail(f'{spec}: a shard\'s JSON lacks its "shard" or a result its "position"')
    if sum(len(p['results']) for p in parts) != len(a['results']):
        fail(f'{spec}: the shards hold {sum(len(p["results"]) for p in parts)} results, the run {len(a["results"])}')
    if sum(1 for p in parts if p['results']) < 2:
        fail(f'{spec}: fewer than two shards hold results: the merge is not tested')
    print(f'{spec}: {len(a["results"])} results in {[len(p["results"]) for p in parts]}, exit {rc_merged}: the same run')
    return files


def cache_keys(tmp):
    """A shard reads and writes the cache entries an unsharded run does."""
    spec, cwd = 'examples/gemm_sm80_f16.yaml', os.path.join(tmp, 'whole')
    d_shards, d_whole = os.path.join(tmp, 'cache-shards'), os.path.join(tmp, 'cache-whole')
    for k in (1, 2, 3):
        run(['check', spec, '--cache', d_shards, '--shard', f'{k}/3'], cwd)
    run(['check', spec, '--cache', d_whole], cwd)
    if sorted(os.listdir(d_shards)) != sorted(os.listdir(d_whole)) or not os.listdir(d_whole):
        fail('the three shards write other cache entries than the unsharded run')
    rc, out, _ = run(['check', spec, '--cache', d_shards, '--json'], cwd)
    cached = json.loads(out)['summary']
    rc, out, _ = run(['check', spec, '--cache', d_whole, '--json'], cwd)
    again = json.loads(out)['summary']  # a repeat takes its first's verdict: proved, not from cache
    if cached['from_cache'] == 0 or cached['from_cache'] != again['from_cache'] or again['from_cache'] != again['proved'] - again['repeats']:
        fail(f'the unsharded run reads {cached["from_cache"]} verdicts from the shards\' cache, {again["from_cache"]} from its own')
    from_cache = 0
    for k in (1, 2, 3):
        rc, out, _ = run(['check', spec, '--cache', d_whole, '--shard', f'{k}/3', '--json'], cwd)
        from_cache += json.loads(out)['summary']['from_cache']
    if from_cache != cached['from_cache']:
        fail(f'the shards read {from_cache} verdicts from the unsharded run\'s cache, not {cached["from_cache"]}')
    print(f'cache: the shards and the unsharded run share their {len(os.listdir(d_whole))} entries')


def baseline(tmp):
    """Shards run against one baseline merge into the unsharded run's marks and gone."""
    spec = 'gemm_sm80_f16'
    run(['check', f'examples/{spec}.yaml', '--no-cache', '--json', 'base.json'], os.path.join(tmp, 'whole'))
    base = load(os.path.join(tmp, 'whole', 'base.json'))
    ghost = dict(base['results'][0], id='ghost: bijective', subject='ghost')  # a result no run has: gone
    base['results'].append(ghost)
    base['results'][0]['verdict'] = 'REFUTED'  # now PROVED: fixed
    with open(os.path.join(tmp, 'old.json'), 'w') as f:
        json.dump(base, f)
    flags = ['--baseline', '../old.json', '--fail-on', 'new']
    rc_whole, out, _ = run(['check', f'examples/{spec}.yaml', '--no-cache', '--json'] + flags, os.path.join(tmp, 'whole'))
    whole = json.loads(out)
    d = os.path.join(tmp, 'based')
    os.makedirs(d)
    os.symlink(os.path.join(ROOT, 'examples'), os.path.join(d, 'examples'))
    files = shards(spec, d, flags)
    rc, out, err = run(['merge'] + files + ['--json'], d)
    if rc != rc_whole:
        fail(f'against a baseline: merge exits {rc}, the unsharded run {rc_whole}: {err.strip()}')
        return
    merged = json.loads(out)
    b = whole['summary']['baseline']
    if merged['summary'].get('baseline') != b or b['gone'] != 1 or b['fixed'] != 1:
        fail(f'against a baseline: merged {merged["summary"].get("baseline")}, unsharded {whole["summary"]["baseline"]}')
    if [r.get('change') for r in merged['results']] != [r.get('change') for r in whole['results']]:
        fail('against a baseline: the merged marks are not the unsharded run\'s')
    # Shards against different baselines are not one run.
    run(['check', f'examples/{spec}.yaml', '--no-cache', '--shard', '3/3', '--json', 'plain3.json'], d)
    expect_refused(['merge', files[0], files[1], 'plain3.json'], d, 'plain3.json', 'shards against different baselines')
    print(f'baseline: merged marks and {merged["summary"]["baseline"]} as the unsharded run')


def expect_refused(args, cwd, name, what):
    rc, _, err = run(args, cwd)
    if rc != 2 or name not in err:
        fail(f'{what}: exit {rc} (not 2) or the message does not name {name}: {err.strip()}')


def refusals(tmp, files):
    d = os.path.join(tmp, 'merged')
    s1, s2, s3 = files  # compiled_sm90's shards, the last spec compared
    g1, g2, g3 = shards('gemm_sm80_f16', d)
    with open(os.path.join(d, 'garbage.json'), 'w') as f:
        f.write('not json\n')
    with open(os.path.join(d, 'empty.json'), 'w') as f:
        f.write('{}\n')
    run(['check', 'examples/compiled_sm90.yaml', '--no-cache', '--json', 'whole.json'], d)
    run(['check', 'examples/compiled_sm90.yaml', '--no-cache', '--shard', '2/2', '--json', 'n2.json'], d)
    with open(os.path.join(d, 'bad.yaml'), 'w') as f:
        f.write('layouts: [{name: x, layout: "(8,8):(1,", claims: [bijective]}]\n')
    run(['check', 'bad.yaml', '--shard', '1/1', '--json', 'bad_input.json'], d)
    # s1's results under shard 2's name: the same positions in two shards.
    forged = load(os.path.join(d, s1))
    forged['summary']['shard']['k'] = 2
    with open(os.path.join(d, 'forged.json'), 'w') as f:
        json.dump(forged, f)
    cases = [
        ([s1, s2, 'garbage.json'], 'garbage.json', 'a file that is not JSON'),
        ([s1, s2, 'empty.json'], 'empty.json', 'JSON that is not a results document'),
        (['whole.json'], 'whole.json', 'an unsharded run\'s JSON'),
        ([s1, s2, 'missing.json'], 'missing.json', 'a file that does not exist'),
        ([s1, s2, g3], g3, 'shards of different specs'),
        ([s1, 'n2.json', s3], 'n2.json', 'shards of different N'),
        ([s1, s2], '3/3', 'a missing shard'),
        ([s1, s2, s3, s2], s2, 'a shard given twice'),
        ([s1, 'forged.json', s3], 'forged.json', 'overlapping positions'),
        (['bad_input.json'], 'bad_input.json', 'a run that stopped on bad input'),
    ]
    for args, name, what in cases:
        expect_refused(['merge'] + args, d, name, what)
    rc, _, _ = run(['merge', s1, s2, s3, '--json', 'out-ok.json'], d)
    if rc not in (0, 1):
        fail(f'after the refusals, the shards still merge (exit {rc})')
    print(f'refusals: {len(cases) + 1} sets that are not one run are bad input, each naming its file')


def main():
    tmp = tempfile.mkdtemp()
    try:
        files = None
        for spec in SPECS:
            files = compare(spec, tmp) or files
        cache_keys(tmp)
        baseline(tmp)
        if files:
            refusals(tmp, files)
    finally:
        shutil.rmtree(tmp)
    print(f'shard_merge: {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
