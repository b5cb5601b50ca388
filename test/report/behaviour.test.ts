import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXPLORATORY_STAMP } from '../../src/report/tables.js';
import { Manifest, Summary } from '../../src/artifacts/schema.js';
import { clustered } from '../../src/report/analysis.js';
import { analyseFolder, buildReport } from '../../src/report/report.js';
import { wilson } from '../../src/report/stats.js';
import { STUDY } from '../../experiments/ch10-ablation/study.js';
import { cli } from '../support/cli.js';
import { copyResults, copyResultsSample, repin, RESULTS } from './support.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** A copy of the committed results; `sample` holds a tenth of their fixtures, for a test that pays for an analysis. */
function copy(sample = false): { dir: string; names: string[] } {
  const dir = sample ? copyResultsSample() : copyResults();
  temps.push(dir);
  const names = Manifest.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).conditions.map(
    (c) => c.name,
  );
  return { dir, names };
}

/** Edits the named conditions' summaries, then re-pins the folder once (re-pinning after each edit ends the same). */
function restamp(dir: string, names: readonly string[], edit: (s: Summary, name: string) => Summary): void {
  for (const name of names) {
    const file = join(dir, name, 'summary.json');
    const summary = Summary.parse(JSON.parse(readFileSync(file, 'utf8')));
    writeFileSync(file, `${JSON.stringify(edit(summary, name), null, 2)}\n`);
  }
  repin(dir); // a folder whose files match their pins: these tests are about what the report makes of them
}

describe('behaviour table', () => {
  it('writes one row per condition with the reader, each figure pooled from perFixture as numerator/denominator with its fixture-cluster interval', async () => {
    const { dir, names } = copy(true);
    // A model reader's run: every condition's block names the model. Under oldest-first, all ten probes the pruned
    // side answers sit in one fixture (3 right) and a second holds ten the full context answered right, 7 of them
    // failed by pruning: every other fixture's behaviour is 0/0.
    const zero = { numerator: 0, denominator: 0, value: null };
    restamp(dir, names, (s, name) => ({
      ...s,
      behaviour: { ...s.behaviour, reader: 'anthropic/claude-test' },
      perFixture: s.perFixture.map((f, i) =>
        name !== 'oldest-first'
          ? { ...f, behaviour: { ...f.behaviour, reader: 'anthropic/claude-test' } }
          : {
              ...f,
              behaviour: {
                ...f.behaviour,
                reader: 'anthropic/claude-test',
                pruned: {
                  ...f.behaviour.pruned,
                  taskSuccess: i === 0 ? { numerator: 3, denominator: 10, value: 0.3 } : zero,
                },
                paired: {
                  ...f.behaviour.paired,
                  causedFailures: i === 1 ? { numerator: 7, denominator: 10, value: 0.7 } : zero,
                },
              },
            },
      ),
    }));
    const r = await buildReport(dir, 'tmp', '.', STUDY);
    const md = String(r.files.get('tables/behaviour.md'));
    const csv = String(r.files.get('tables/behaviour.csv')).trim().split('\n');
    expect(md).toContain('reader: anthropic/claude-test');
    expect(md).toContain('fixture-cluster bootstrap');
    expect(md).not.toContain('Wilson');
    const row = md.split('\n').find((l) => l.startsWith('|oldest-first|'))!;
    expect(row).toContain('|anthropic/claude-test|');
    // One fixture holds every probe, so every resample that draws it gives 0.3: the cluster interval has no width,
    // where Wilson's, counting the ten probes as independent, was [0.108, 0.603].
    expect(row).toContain('3/10 = 0.300 [0.300, 0.300]');
    expect(row).toContain('7/10 = 0.700 [0.700, 0.700]');
    expect(row).not.toContain('[0.108, 0.603]');
    // The behaviour table is not preregistered, so its first line is the exploratory stamp.
    expect(csv[0]).toBe(EXPLORATORY_STAMP);
    const header = csv[1]!.split(',');
    expect(header.slice(0, 4)).toEqual(['condition', 'reader', 'epochs', 'probes']);
    const cells = csv.find((l) => l.startsWith('oldest-first,'))!.split(',');
    const at = (c: string) => cells[header.indexOf(c)];
    expect([at('pruned_task_success_num'), at('pruned_task_success_den'), at('pruned_task_success')]).toEqual([
      '3',
      '10',
      '0.300000',
    ]);
    expect([at('pruned_task_success_lo'), at('pruned_task_success_hi')]).toEqual(['0.300000', '0.300000']);
    expect([at('caused_failures_num'), at('caused_failures_den')]).toEqual(['7', '10']);
    expect(csv.length - 2).toBe(names.length); // the stamp line and the header
  });

  it("pools each condition's perFixture behaviour and resamples fixtures with the preregistration's seed and iterations", async () => {
    const { dir, names } = copy(true);
    // The report's analysis, without the tables and charts it is rendered into (the test above reads those).
    const r = analyseFolder(dir, 'tmp', '.', STUDY);
    const { seed, iterations } = r.analysis;
    const boot = { seed, iterations, level: 0.95 };
    const fixtureOrder = Manifest.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).fixtures.map(
      (f) => f.id,
    );
    for (const name of names) {
      const s = Summary.parse(JSON.parse(readFileSync(join(dir, name, 'summary.json'), 'utf8')));
      const byId = new Map(s.perFixture.map((f) => [f.fixture, f.behaviour]));
      const blocks = fixtureOrder.filter((f) => byId.has(f)).map((f) => byId.get(f)!);
      const row = r.analysis.behaviour.find((b) => b.condition === name)!;
      const expected = clustered(
        blocks.map((b) => [b.paired.causedFailures.numerator, b.paired.causedFailures.denominator] as const),
        boot,
      );
      expect(row.causedFailures, name).toEqual(expected);
      const pruned = clustered(
        blocks.map((b) => [b.pruned.recoveryFailures.numerator, b.pruned.recoveryFailures.denominator] as const),
        boot,
      );
      expect(row.pruned.recoveryFailures, name).toEqual(pruned);
      expect(row.probes, name).toBe(blocks.reduce((n, b) => n + b.probes, 0));
    }
    // Somewhere pruning fails probes, and there the interval is a cluster interval, not Wilson's over probes.
    const failing = r.analysis.behaviour.find((b) => (b.causedFailures.value ?? 0) > 0.05)!;
    const w = wilson(failing.causedFailures.numerator, failing.causedFailures.denominator);
    expect(failing.causedFailures.hi! - failing.causedFailures.lo!).toBeGreaterThan(w.hi! - w.lo!);
  });

  it('the committed report carries it, read from each summary.json, the structural reader named on every row', () => {
    const md = readFileSync(join(RESULTS, 'tables', 'behaviour.md'), 'utf8');
    const raw = Summary.parse(JSON.parse(readFileSync(join(RESULTS, 'raw', 'summary.json'), 'utf8'))).behaviour;
    const row = md.split('\n').find((l) => l.startsWith('|raw|'))!;
    expect(row).toContain(`|structural|${raw.probes.toLocaleString('en-US')}|`);
    expect(row).toContain(
      `${raw.full.taskSuccess.numerator.toLocaleString('en-US')}/${raw.full.taskSuccess.denominator.toLocaleString('en-US')} = `,
    );
    expect(row).toContain('0/0 = undefined');
  });

  it('refuses results whose conditions were read by different readers, naming them, and writes nothing', async () => {
    // The refusal is the load step's, over the summaries; the sample (every condition, a tenth of the points.csv
    // rows the load parses before it) reaches it in a fraction of the time the whole results take.
    const { dir } = copy(true);
    restamp(dir, ['oldest-first'], (s) => ({ ...s, behaviour: { ...s.behaviour, reader: 'openai/gpt-test' } }));
    const r = await cli(['report', '--results', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_RESULTS_MIXED_READERS]');
    expect(r.stderr).toContain('oldest-first: openai/gpt-test');
    expect(r.stderr).toContain('raw: structural');
    expect(readdirSync(dir)).not.toContain('tables');
  });
});
