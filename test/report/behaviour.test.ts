import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXPLORATORY_STAMP } from '../../src/report/tables.js';
import { Manifest, Summary } from '../../src/artifacts/schema.js';
import { buildReport } from '../../src/report/report.js';
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

function restamp(dir: string, name: string, edit: (s: Summary) => Summary): void {
  const file = join(dir, name, 'summary.json');
  writeFileSync(file, `${JSON.stringify(edit(Summary.parse(JSON.parse(readFileSync(file, 'utf8')))), null, 2)}\n`);
  repin(dir); // a folder whose files match their pins: these tests are about what the report makes of them
}

describe('behaviour table', () => {
  it('writes one row per condition with the reader, each figure as numerator/denominator with its Wilson interval', async () => {
    const { dir, names } = copy(true);
    // A model reader's run: every condition's block names the model, and the pruned side of one condition fails.
    for (const name of names) {
      restamp(dir, name, (s) => ({
        ...s,
        behaviour: {
          ...s.behaviour,
          reader: 'anthropic/claude-test',
          pruned:
            name === 'oldest-first'
              ? { ...s.behaviour.pruned, taskSuccess: { numerator: 3, denominator: 10, value: 0.3 } }
              : s.behaviour.pruned,
          paired:
            name === 'oldest-first'
              ? { ...s.behaviour.paired, causedFailures: { numerator: 7, denominator: 10, value: 0.7 } }
              : s.behaviour.paired,
        },
      }));
    }
    const r = await buildReport(dir, 'tmp', '.', STUDY);
    const md = String(r.files.get('tables/behaviour.md'));
    const csv = String(r.files.get('tables/behaviour.csv')).trim().split('\n');
    expect(md).toContain('reader: anthropic/claude-test');
    const row = md.split('\n').find((l) => l.startsWith('|oldest-first|'))!;
    expect(row).toContain('|anthropic/claude-test|');
    expect(row).toContain('3/10 = 0.300 [0.108, 0.603]');
    expect(row).toContain('7/10 = 0.700 [0.397, 0.892]');
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
    expect([at('caused_failures_num'), at('caused_failures_den')]).toEqual(['7', '10']);
    expect(csv.length - 2).toBe(names.length); // the stamp line and the header
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
    restamp(dir, 'oldest-first', (s) => ({ ...s, behaviour: { ...s.behaviour, reader: 'openai/gpt-test' } }));
    const r = await cli(['report', '--results', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_RESULTS_MIXED_READERS]');
    expect(r.stderr).toContain('oldest-first: openai/gpt-test');
    expect(r.stderr).toContain('raw: structural');
    expect(readdirSync(dir)).not.toContain('tables');
  });
});
