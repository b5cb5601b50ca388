// Progress on long commands and smoke runs: plain lines on a stderr that is not a terminal, a live bar on one
// that is, nothing with --json or for callers that report no progress, and never a byte on stdout. Smoke runs
// (--filter, --limit) select fixtures, are stamped exploratory with the reason, and refuse a filter matching nothing.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';
import { PLAIN_INTERVAL_MS, progressCallback, runSteps, type Step } from '../../src/cli/progress.js';
import { matchesFilter, selectFixtures } from '../../src/load/select.js';
import type { LoadedFixture } from '../../src/fixture/load.js';
import { capture } from '../support/io.js';
import { clockedProgress, NOT_A_TTY } from '../support/progress.js';

describe('progress lines when stderr is not a terminal', () => {
  it('prints a plain line at every tenth of the work, with done/total, conditions, elapsed and ETA, and a last line', () => {
    const c = clockedProgress(NOT_A_TTY, { total: 100, conditions: 23 });
    for (let i = 1; i <= 100; i++) {
      c.tick(10); // 10 ms a fixture: never the 5 s cadence
      c.p.update(i);
    }
    c.p.stop();
    const lines = c.err().trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('experiment: fixtures 10/100 (10%), 23 conditions, elapsed 0:00, ETA 0:01');
    expect(lines.at(-1)).toBe('experiment: fixtures 100/100 (100%), 23 conditions, elapsed 0:01, ETA 0:00');
    expect(c.err().includes('\u001b') || c.err().includes('\r')).toBe(false);
    expect(c.out()).toBe('');
  });

  it('prints every five seconds when a tenth takes longer, and a last line for the unfinished remainder', () => {
    const c = clockedProgress(NOT_A_TTY, {
      total: 1000,
      conditions: 1,
      models: () => ({ calls: 7, spentUsd: 0.0123 }),
    });
    c.tick(PLAIN_INTERVAL_MS + 1);
    c.p.update(3);
    c.tick(100);
    c.p.update(4); // under a tenth and under five seconds: silent
    c.p.stop();
    const lines = c.err().trimEnd().split('\n');
    expect(lines).toEqual([
      'experiment: fixtures 3/1000 (0%), 1 condition, elapsed 0:05, ETA 27:42, model calls 7, spent $0.0123',
      'experiment: fixtures 4/1000 (0%), 1 condition, elapsed 0:05, ETA 21:10, model calls 7, spent $0.0123',
    ]);
  });
});

describe('a live bar on a terminal', () => {
  it('draws through stderr with cursor control, the bar and the counts, and nothing on stdout', () => {
    const c = clockedProgress({ tty: true, columns: 120 }, { total: 4, conditions: 2 });
    for (let i = 1; i <= 4; i++) {
      c.tick(1000);
      c.p.update(i);
    }
    c.p.stop();
    expect(c.err()).toContain('\x1b[');
    expect(c.err()).toContain('fixtures 4/4 (100%), 2 conditions, elapsed 0:04, ETA 0:00');
    expect(c.err()).toMatch(/={20}/);
    expect(c.out()).toBe('');
  });
});

describe('progress whose total the work learns', () => {
  it('starts at the first report and ends with a last line', () => {
    const c = capture({ progress: NOT_A_TTY });
    const p = progressCallback(c.io, {
      label: 'report',
      unit: 'analysis steps',
      conditions: 0,
      quiet: false,
      now: () => 0,
    });
    for (let i = 1; i <= 4; i++) p.onProgress(i, 4);
    p.stop();
    expect(c.err().trimEnd().split('\n')).toEqual([
      'report: analysis steps 1/4 (25%), elapsed 0:00, ETA 0:00',
      'report: analysis steps 2/4 (50%), elapsed 0:00, ETA 0:00',
      'report: analysis steps 3/4 (75%), elapsed 0:00, ETA 0:00',
      'report: analysis steps 4/4 (100%), elapsed 0:00, ETA 0:00',
    ]);
    const none = capture({ progress: NOT_A_TTY });
    progressCallback(none.io, { label: 'report', unit: 'x', conditions: 0, quiet: false }).stop();
    expect(none.err()).toBe('');
  });
});

describe('no progress', () => {
  it('with --json (quiet), for a caller that reports none, or when there is nothing to count', () => {
    for (const [progress, quiet, total] of [
      [NOT_A_TTY, true, 10],
      [undefined, false, 10],
      [NOT_A_TTY, false, 0],
    ] as const) {
      const c = clockedProgress(progress, { label: 'x', total, conditions: 1, quiet });
      c.p.update(10);
      c.p.stop();
      expect(c.err() + c.out()).toBe('');
    }
  });
});

// A stand-in for npm run base-rate's steps: tiny node children writing their own progress on stderr and a line on
// stdout that must not reach the command's stdout.
const child = (name: string, status = 0): Step => ({
  what: name,
  command: process.execPath,
  args: [
    '-e',
    `process.stderr.write('${name}: own progress\\n'); process.stdout.write('${name} stdout\\n'); process.exit(${status})`,
  ],
});

/** runSteps on a captured io whose clock reads 0 at the start and 2 s more at each later reading. */
async function steps(progress: CliIO['progress'] | undefined, list: readonly Step[], quiet = false) {
  const c = capture(progress ? { progress } : {});
  let clock = 0;
  const outcome = await runSteps(c.io, { label: 'base-rate', quiet, now: () => (clock += 2000) - 2000 }, list);
  return { ...c, outcome };
}

describe('a command made of steps (npm run base-rate)', () => {
  it("prints a line as each step starts and when all are done, passing each child's stderr through and not its stdout", async () => {
    const r = await steps(NOT_A_TTY, [child('generate'), child('audit'), child('experiment')]);
    expect(r.outcome).toEqual({ failed: null });
    expect(r.err().trimEnd().split('\n')).toEqual([
      'base-rate: step 1/3 (generate), elapsed 0:02',
      'generate: own progress',
      'base-rate: step 2/3 (audit), elapsed 0:04',
      'audit: own progress',
      'base-rate: step 3/3 (experiment), elapsed 0:06',
      'experiment: own progress',
      'base-rate: 3/3 steps done, elapsed 0:08',
    ]);
    expect(r.out()).toBe('');
  });

  it('stops at a step whose exit status it does not accept, running none after it', async () => {
    const leaks = { ...child('audit', 1), accepts: (s: number | null) => s === 0 || s === 1 };
    const r = await steps(NOT_A_TTY, [leaks, child('experiment', 3), child('never')]);
    expect(r.outcome).toMatchObject({ failed: { what: 'experiment' }, status: 3 });
    expect(r.err()).toContain('experiment: own progress');
    expect(r.err()).not.toContain('never');
    expect(r.err()).not.toContain('steps done');
    expect(r.out()).toBe('');
  });

  it('prints no step lines with --json or for a caller that reports no progress; the children still speak', async () => {
    for (const r of [await steps(NOT_A_TTY, [child('a')], true), await steps(undefined, [child('a')])]) {
      expect(r.outcome).toEqual({ failed: null });
      expect(r.err()).toBe('a: own progress\n');
      expect(r.out()).toBe('');
    }
  });
});

const loaded = (id: string, families: string[]) => ({ fixture: { id, families } }) as unknown as LoadedFixture;
const corpus = [
  loaded('cache-timing-defer', ['immutable-duplicate-read']),
  loaded('cache-timing-prune-now', ['immutable-duplicate-read']),
  loaded('credential-once', ['one-time-secret']),
  loaded('gen-0001', ['one-time-secret', 'generic-work']),
];

describe('fixture selection for smoke runs', () => {
  it('matches ids by glob and families by family:NAME, keeping file order, any filter sufficing', () => {
    const ids = (fs: LoadedFixture[]) => fs.map((f) => f.fixture.id);
    expect(ids(selectFixtures(corpus, { filters: ['cache-*'], limit: null }))).toEqual([
      'cache-timing-defer',
      'cache-timing-prune-now',
    ]);
    expect(ids(selectFixtures(corpus, { filters: ['family:one-time-secret'], limit: null }))).toEqual([
      'credential-once',
      'gen-0001',
    ]);
    expect(ids(selectFixtures(corpus, { filters: ['gen-000?', 'credential-once'], limit: null }))).toEqual([
      'credential-once',
      'gen-0001',
    ]);
    expect(ids(selectFixtures(corpus, { filters: [], limit: 2 }))).toEqual([
      'cache-timing-defer',
      'cache-timing-prune-now',
    ]);
    // A limit beyond the count keeps them all.
    expect(ids(selectFixtures(corpus, { filters: ['family:one-time-secret'], limit: 50 }))).toHaveLength(2);
  });

  it('refuses what does not match: a glob is anchored, dots are literal, a family is matched whole', () => {
    expect(matchesFilter('cache', { id: 'cache-timing-defer', families: [] })).toBe(false);
    expect(matchesFilter('cache.timing*', { id: 'cache-timing-defer', families: [] })).toBe(false);
    expect(matchesFilter('family:one-time', { id: 'x', families: ['one-time-secret'] })).toBe(false);
    expect(() => selectFixtures(corpus, { filters: ['nothing-*'], limit: null })).toThrow(
      /matches none of the 4 fixtures/,
    );
  });
});

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
const outDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'prunelab-smoke-'));
  temps.push(d);
  return d;
};

describe('prunelab experiment --filter/--limit', () => {
  it('runs the selected fixtures, stamps the run exploratory saying why, and reports progress on stderr only', async () => {
    const c = capture({ progress: NOT_A_TTY });
    const out = outDir();
    const args = ['experiment', '--fixtures', 'fixtures/canonical', '--filter', 'cache-timing-*', '--limit', '1000'];
    const code = await runCli([...args, '--condition', 'raw', '--out', out], c.io);
    expect(code).toBe(0);
    expect(c.out()).toContain('--filter cache-timing-* and --limit 1000 runs a subset of the fixtures (a smoke run)');
    expect(c.err()).toContain('experiment: fixtures 2/2 (100%), 1 condition');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      fixtures: { id: string }[];
      study: { exploratory: boolean };
    };
    expect(manifest.fixtures.map((f) => f.id)).toEqual(['cache-timing-defer', 'cache-timing-prune-now']);
    expect(manifest.study.exploratory).toBe(true);

    const json = capture({ progress: NOT_A_TTY });
    expect(await runCli([...args, '--limit', '1', '--condition', 'raw', '--out', outDir(), '--json'], json.io)).toBe(0);
    expect(json.err()).toBe('');
    expect(JSON.parse(json.out())).toHaveLength(1);
  });

  it('is exploratory even on the default fixtures, so it may not write into results/', async () => {
    const c = capture();
    const code = await runCli(['experiment', '--limit', '1', '--condition', 'raw'], c.io);
    expect(code).toBe(2);
    expect(c.err()).toContain('--limit 1 runs a subset of the fixtures');
    expect(c.err()).toContain('give --out DIR');
  });

  it('exits 2 with a clear message when the filter matches nothing, and on a limit below 1', async () => {
    const c = capture();
    const code = await runCli(
      ['experiment', '--fixtures', 'fixtures/canonical', '--filter', 'family:no-such', '--out', outDir()],
      c.io,
    );
    expect(code).toBe(2);
    expect(c.err()).toMatch(/--filter family:no-such matches none of the \d+ fixtures/);
    expect(c.err()).toContain('[PL_USAGE_FILTER_NONE]');
    const zero = capture();
    expect(
      await runCli(['experiment', '--fixtures', 'fixtures/canonical', '--limit', '0', '--out', outDir()], zero.io),
    ).toBe(2);
    expect(zero.err()).toContain('--limit');
  });
});
