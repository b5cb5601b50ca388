import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecisionRecord, Manifest, PointMeasures, RunRecord, Summary } from '../../src/artifacts/schema.js';
import { sha256 } from '../../src/fixture/canonical.js';
import { conditionNames } from '../../src/policy/registry.js';
import { cli } from '../support/cli.js';
import { minimalFixture, writeFixture } from '../support/minimal.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'prunelab-out-'));

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}

describe('npm run experiment', () => {
  it('--list names every condition with its layer, rung and what it does', async () => {
    const r = await cli(['experiment', '--list']);
    expect(r.code).toBe(0);
    for (const name of conditionNames()) expect(r.stdout).toMatch(new RegExp(`^${name} `, 'm'));
    expect(r.stdout).toContain('[upper-risk]');
    const json = await cli(['experiment', '--list', '--json']);
    const listed = JSON.parse(json.stdout) as { name: string; layer: string; rung: number | null }[];
    expect(listed.map((c) => c.name)).toEqual(conditionNames());
    expect(listed.find((c) => c.name === 'checked-supersession')).toMatchObject({ layer: 'A', rung: 2 });
  });

  it('exits 2 on an unknown condition and lists the valid ones', async () => {
    const r = await cli(['experiment', '--condition', 'exact-dedup']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown condition "exact-dedup"');
    expect(r.stderr).toContain('exact-redundancy');
    expect(r.stderr).toContain('ladder-0-4');
  });

  it('exits 2 on a bad flag, naming it and the valid flags', async () => {
    const r = await cli(['experiment', '--conditions', 'raw']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option --conditions');
    expect(r.stderr).toContain(
      '--condition, --decision-log, --epochs, --estimate-cost, --exploratory, --filter, --fixtures',
    );
    expect((await cli(['experiment', '--timing', 'later'])).stderr).toContain('option --timing does not take "later"');
    expect((await cli(['experiment', '--out'])).stderr).toContain('option --out needs a value');
    expect((await cli(['experiments'])).stderr).toContain(
      'valid commands: audit-leakage, controls-train, ecology, experiment, fixtures-generate, fixtures-verify, generate, import',
    );
    expect((await cli(['experiment', '--json=false'])).stderr).toContain('option --json takes no value');
    expect((await cli(['experiment', 'raw'])).stderr).toContain('unexpected argument "raw"');
    for (const args of [
      ['--seed', '99999999999999999999'],
      ['--seed', '1.5'],
      ['--condition', ','],
      ['--placeholders', 'text'],
    ]) {
      const r = await cli(['experiment', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect((await cli(['experiment', '--condition', ','])).stderr).toContain('--condition names no condition');
  });

  it('exits 2 when --out names a file, before running anything', async () => {
    const file = join(tmp(), 'results.txt');
    writeFileSync(file, 'not a folder');
    const r = await cli(['experiment', '--out', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('which is a file, not a folder');
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });

  it('treats an unreadable manifest in the output folder as absent, and replaces it', async () => {
    const { dir } = writeFixture();
    const out = tmp();
    writeFileSync(join(out, 'manifest.json'), '{ truncated');
    const r = await cli(['experiment', '--fixtures', dir, '--out', out, '--condition', 'raw']);
    expect(r.code).toBe(0);
    expect(
      Manifest.parse(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).conditions.map((c) => c.name),
    ).toEqual(['raw']);
  });

  it('exits 2 on a missing fixture path and writes nothing', async () => {
    const out = join(tmp(), 'r');
    const r = await cli(['experiment', '--fixtures', '/no/such/fixtures', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/no/such/fixtures does not exist');
    expect(existsSync(out)).toBe(false);
  });

  it('stops on a bad fixture before writing anything, naming file, item and field', async () => {
    const f = minimalFixture();
    f.items[2]!['origin'] = 'tool';
    const { dir } = writeFixture(f);
    const out = join(tmp(), 'r');
    const r = await cli(['experiment', '--fixtures', dir, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mini\.json: item "r1" \(items\[2\]\), field "origin"/);
    expect(existsSync(out)).toBe(false);
  });

  it('writes decisions, per-point measures, a summary per condition and a manifest', async () => {
    const { dir } = writeFixture();
    const out = tmp();
    const r = await cli(['experiment', '--fixtures', dir, '--out', out, '--condition', 'exact-redundancy', '--json']);
    expect(r.code).toBe(0);
    const [summary] = JSON.parse(r.stdout) as Summary[];
    expect(Summary.parse(summary)).toMatchObject({
      condition: 'exact-redundancy',
      layer: 'A',
      rung: 0,
      fixtures: 1,
      prunePoints: 1,
    });
    expect(summary!.decisions).toEqual({ total: 5, keep: 4, prune: 1, defer: 0, abstain: 0 });
    expect(summary!.precision).toEqual({ numerator: 1, denominator: 1, value: 1 });
    const written = JSON.parse(readFileSync(join(out, 'exact-redundancy', 'summary.json'), 'utf8'));
    expect(written).toEqual(summary);
    const records = readFileSync(join(out, 'exact-redundancy', 'decisions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => DecisionRecord.parse(JSON.parse(l)));
    expect(records.map((x) => `${x.itemId}:${x.decision}`)).toEqual([
      'u1:KEEP',
      'c1:KEEP',
      'r1:PRUNE',
      'c2:KEEP',
      'r2:KEEP',
    ]);
    expect(records[2]).toMatchObject({
      rung: 0,
      appliedAt: '2026-03-04T10:03:00Z',
      removal: 'whole',
      oracle: { verdict: 'redundant-copy', outcome: 'true-prune' },
    });
    expect(records[2]!.placeholder).toContain('[pruned r1');
    PointMeasures.parse(JSON.parse(readFileSync(join(out, 'exact-redundancy', 'points.jsonl'), 'utf8')));
    const manifest = Manifest.parse(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
    expect(manifest.fixtures).toEqual([
      expect.objectContaining({ file: expect.stringMatching(/mini\.json$/), id: 'mini' }),
    ]);
    expect(manifest.tokenizer).toMatchObject({ package: 'gpt-tokenizer', encoding: 'o200k_base' });
    // A folder outside the preregistered fixtures is exploratory by definition, and every output says so.
    expect(manifest.study).toEqual({ exploratory: true, preregistration: null, fixtureManifest: null });
    expect(manifest.outputs.map((o) => o.file)).toEqual([
      'EXPLORATORY.md',
      'exact-redundancy/EXPLORATORY.md',
      'exact-redundancy/decisions.jsonl',
      'exact-redundancy/points.csv',
      'exact-redundancy/points.jsonl',
      'exact-redundancy/summary.json',
    ]);
  });

  it('shows a readable table without --json', async () => {
    const { dir } = writeFixture();
    const r = await cli(['experiment', '--fixtures', dir, '--out', tmp(), '--condition', 'raw,exact-redundancy']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 fixtures, 1 prune points, timing immediate, placeholders marker');
    expect(r.stdout).toMatch(/^raw\s+control\s+-\s+0\/0\/0\s+undef \(0\/0\)/m);
  });

  it('gives byte-identical outputs for the same inputs', async () => {
    const { dir } = writeFixture();
    const [a, b] = [tmp(), tmp()];
    expect((await cli(['experiment', '--fixtures', dir, '--out', a])).code).toBe(0);
    expect((await cli(['experiment', '--fixtures', dir, '--out', b])).code).toBe(0);
    const files = filesUnder(a);
    expect(files).toEqual(filesUnder(b));
    expect(files.length).toBe(conditionNames().length * 5 + 3);
    // The manifest too: the run's volatile facts (time, commit, dirty flag, Node) are in run.json alone.
    for (const f of files) {
      if (f === 'run.json') continue;
      expect(readFileSync(join(a, f), 'utf8'), f).toBe(readFileSync(join(b, f), 'utf8'));
    }
    const run = (d: string) => RunRecord.parse(JSON.parse(readFileSync(join(d, 'run.json'), 'utf8')));
    expect(run(a).manifestSha256).toBe(sha256(readFileSync(join(a, 'manifest.json'))));
    expect(run(a).startedAt).not.toBe('');
    expect(readFileSync(join(a, 'manifest.json'), 'utf8')).not.toMatch(/startedAt|gitCommit|gitDirty/);
  });

  it('--workers N writes the same bytes as --workers 1 (worker threads), and refuses a count below 1', async () => {
    const fixtures = 'fixtures/canonical';
    const conditions = ['--condition', 'exact-redundancy,ladder-0-3,observation-masking'];
    const [one, two] = [tmp(), tmp()];
    for (const [out, n] of [
      [one, '1'],
      [two, '2'],
    ] as const) {
      const r = await cli(['experiment', '--fixtures', fixtures, ...conditions, '--out', out, '--workers', n]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    const files = filesUnder(one).filter((f) => f !== 'run.json');
    expect(files).toEqual(filesUnder(two).filter((f) => f !== 'run.json'));
    expect(files.length).toBe(3 * 5 + 2);
    for (const f of files) expect(readFileSync(join(two, f), 'utf8'), f).toBe(readFileSync(join(one, f), 'utf8'));
    for (const bad of ['0', '-1', 'two']) {
      const r = await cli(['experiment', '--fixtures', fixtures, '--out', tmp(), '--workers', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--workers');
    }
  });

  it('--check passes on an untouched regeneration and names a changed file', async () => {
    const { dir } = writeFixture();
    const out = tmp();
    await cli(['experiment', '--fixtures', dir, '--out', out]);
    const ok = await cli(['experiment', '--check', '--fixtures', dir, '--out', out]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('matches a fresh regeneration');
    const file = join(out, 'ladder-0-2', 'summary.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"prunePoints": 1', '"prunePoints": 2'));
    const bad = await cli(['experiment', '--check', '--fixtures', dir, '--out', out]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('ladder-0-2/summary.json');
  });

  it('timing defers eligible removals and placeholders can be turned off', async () => {
    const { dir } = writeFixture();
    const out = tmp();
    const r = await cli([
      'experiment',
      '--fixtures',
      dir,
      '--out',
      out,
      '--condition',
      'exact-redundancy',
      '--timing',
      'task-boundary',
      '--json',
    ]);
    const [s] = JSON.parse(r.stdout) as Summary[];
    expect(s!.decisions).toMatchObject({ prune: 0, defer: 1 });
    expect(s!.precision.value).toBeNull();
    const none = await cli([
      'experiment',
      '--fixtures',
      dir,
      '--out',
      out,
      '--condition',
      'exact-redundancy',
      '--placeholders',
      'none',
      '--json',
    ]);
    const [n] = JSON.parse(none.stdout) as Summary[];
    expect(n!.tokens.placeholder).toBe(0);
    expect(n!.tokens.final).toBe(n!.tokens.raw - n!.tokens.removed);
  });

  it('keeps earlier condition folders that share the inputs, and drops stale ones', async () => {
    const { dir } = writeFixture();
    const out = tmp();
    await cli(['experiment', '--fixtures', dir, '--out', out, '--condition', 'raw']);
    await cli(['experiment', '--fixtures', dir, '--out', out, '--condition', 'ladder-0']);
    let m = Manifest.parse(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
    expect(m.conditions.map((c) => c.name)).toEqual(['ladder-0', 'raw']);
    await cli(['experiment', '--fixtures', dir, '--out', out, '--condition', 'ladder-0', '--timing', 'task-boundary']);
    m = Manifest.parse(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
    expect(m.conditions.map((c) => c.name)).toEqual(['ladder-0']);
    expect(existsSync(join(out, 'raw'))).toBe(false);
  });
});
