// Shards: a deterministic contiguous split, and a merge whose output is the unsharded run's, byte for byte, and
// verifies with --check. Refusals: a shard missing, given twice, or from another run; a malformed --shard.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShard, selectShard, SHARD_FILE } from '../../src/engine/shard.js';
import { cli } from '../support/cli.js';
import { studyRoot } from '../support/study.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'prunelab-shard-'));

describe('selectShard', () => {
  it('splits into contiguous blocks that cover every fixture once, in order, sizes within one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 12 }), (n, count) => {
        const all = Array.from({ length: n }, (_, i) => i);
        const shards = Array.from({ length: count }, (_, i) => selectShard(all, { index: i + 1, count }));
        expect(shards.flat()).toEqual(all);
        const sizes = shards.map((s) => s.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('parses i/n and refuses what is not one shard of n', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '3', 'a/b', '1/0', '-1/2']) expect(() => parseShard(bad)).toThrow(/--shard/);
  });
});

describe('experiment --shard and merge', () => {
  const base = ['experiment', '--fixtures', 'fixtures/canonical', '--exploratory'];

  // One condition of each kind (control, mechanism, scaled comparator, package comparator in its worker, ladder,
  // ladder variant, sweep point), not all 43: the merge joins each condition's outputs alike, and an offline run
  // charges no model calls to any. Five runs of every condition cost about 15 s of CPU; every condition over the
  // canonical fixtures is test/canonical/canonical.test.ts's to check.
  const kinds = [
    'raw',
    'prune-all',
    'exact-redundancy',
    'opencode-prune-scaled',
    'pkg-langchain-trim-messages',
    'ladder-0-4',
    'ladder-0-3~cache-safe',
    'predictive-semantic@0.3',
  ].join(',');

  it('three shards merged equal the unsharded run byte for byte (diff -r), and the merge passes --check', async () => {
    const [whole, a, b, c, merged] = [tmp(), tmp(), tmp(), tmp(), join(tmp(), 'merged')];
    const each = [...base, '--condition', kinds];
    expect((await cli([...each, '--out', whole])).code).toBe(0);
    // Given out of order: the merge orders shards by their index.
    for (const [dir, i] of [
      [c, 3],
      [a, 1],
      [b, 2],
    ] as const)
      expect((await cli([...each, '--out', dir, '--shard', `${i}/3`])).code).toBe(0);
    const sizes = [a, b, c].map(
      (d) => (JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8')) as { fixtures: unknown[] }).fixtures.length,
    );
    expect(sizes.reduce((x, y) => x + y, 0)).toBe(
      (JSON.parse(readFileSync(join(whole, 'manifest.json'), 'utf8')) as { fixtures: unknown[] }).fixtures.length,
    );
    expect(Math.min(...sizes)).toBeGreaterThan(0);
    const r = await cli(['merge', c, a, b, '--out', merged]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // run.json holds each run's volatile facts (start time, commit); everything else is the same bytes.
    expect(execFileSync('diff', ['-r', '-x', 'run.json', whole, merged], { encoding: 'utf8' })).toBe('');
    const check = await cli([...each, '--out', merged, '--check']);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
  });

  it('merges shards of the generated tier to the unsharded run in either --decision-log mode', async () => {
    // The study's root: its second fixture is generated, so the second shard writes the compressed tier alone.
    const s = studyRoot();
    for (const mode of ['committed', 'all']) {
      const each = ['experiment', '--condition', 'raw,ladder-0-3', '--decision-log', mode];
      const [whole, a, b, merged] = [`${mode}-whole`, `${mode}-a`, `${mode}-b`, `${mode}-merged`].map(s.path);
      expect((await cli([...each, '--out', whole!], s.root)).code).toBe(0);
      expect((await cli([...each, '--out', a!, '--shard', '1/2'], s.root)).code).toBe(0);
      expect((await cli([...each, '--out', b!, '--shard', '2/2'], s.root)).code).toBe(0);
      const r = await cli(['merge', a!, b!, '--out', merged!], s.root);
      expect(r.stderr).toBe('');
      expect(existsSync(join(merged!, 'raw', 'decisions.generated.jsonl.gz')), mode).toBe(mode === 'all');
      expect(execFileSync('diff', ['-r', '-x', 'run.json', whole!, merged!], { encoding: 'utf8' })).toBe('');
      expect((await cli([...each, '--out', merged!, '--check'], s.root)).code).toBe(0);
    }
  });

  it('refuses a missing shard, a shard given twice, a shard of another run, and --shard without --out', async () => {
    const [a, b, other] = [tmp(), tmp(), tmp()];
    const run = (dir: string, shard: string, extra: string[] = []) =>
      cli([...base, '--condition', 'raw,ladder-0-4', '--out', dir, '--shard', shard, ...extra]);
    expect((await run(a, '1/2')).code).toBe(0);
    expect((await run(b, '2/2')).code).toBe(0);
    expect((await run(other, '2/2', ['--seed', '7'])).code).toBe(0);
    const missing = await cli(['merge', a, '--out', join(tmp(), 'm')]);
    expect(missing.stderr).toContain('PL_MERGE_BAD_SHARD');
    expect((await cli(['merge', a, a, '--out', join(tmp(), 'm')])).stderr).toContain('missing or given twice');
    expect((await cli(['merge', a, other, '--out', join(tmp(), 'm')])).stderr).toContain('other inputs');
    const copy = tmp();
    cpSync(b, copy, { recursive: true });
    rmSync(join(copy, SHARD_FILE));
    expect((await cli(['merge', a, copy, '--out', join(tmp(), 'm')])).stderr).toContain(`no ${SHARD_FILE}`);
    const taken = tmp();
    writeFileSync(join(taken, 'x'), '');
    expect((await cli(['merge', a, b, '--out', taken])).stderr).toContain('PL_MERGE_OUT_EXISTS');
    expect((await cli(['merge', a, b, '--out', join(tmp(), 'm')])).code).toBe(0);
    const logged = tmp();
    expect((await run(logged, '2/2', ['--decision-log', 'all'])).code).toBe(0);
    const mixed = await cli(['merge', a, logged, '--out', join(tmp(), 'm')]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--decision-log all, the first shard's committed");
    const noOut = await cli([...base, '--shard', '1/2']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('PL_USAGE_SHARD_NEEDS_OUT');
  });
});
