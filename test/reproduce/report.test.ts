// The committed results/tables and results/charts are exactly what npm run report builds from the committed results,
// and two analyses of the whole from scratch agree byte for byte. test/report/report.test.ts checks the same over a
// sample of the results in npm test.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDY } from '../../experiments/ch10-ablation/study.js';
import { buildReport, type Report } from '../../src/report/report.js';
import { cli } from '../support/cli.js';
import { copyResults, listing, RESULTS, SHADOW_TABLES } from '../report/support.js';

let report: Report;
let dir: string;
beforeAll(async () => {
  dir = copyResults();
  report = await buildReport(RESULTS, RESULTS, '.', STUDY);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run report over the committed results', () => {
  it('committed results/tables and results/charts are exactly what the current code builds from results/', () => {
    const expected = [...report.files.keys()].sort();
    expect([...listing(RESULTS, 'tables'), ...listing(RESULTS, 'charts')].sort()).toEqual(expected);
    const stale = expected.filter((f) => !readFileSync(join(RESULTS, f)).equals(Buffer.from(report.files.get(f)!)));
    expect(stale, 'run `npm run report` and commit results/tables and results/charts').toEqual([]);
    for (const f of ['tables/hypotheses.md', 'tables/hypotheses.csv']) expect(expected).toContain(f);
  });

  // Two analyses from scratch: this CLI run and the one in beforeAll (an analysis costs seconds, so not a third).
  it('is byte-deterministic and needs no decision logs but for the shadows table: a run over a copy without decisions.jsonl matches the report built from the committed results', async () => {
    const first = await cli(['report', '--results', dir]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const fromLogs = [...report.files.keys()].filter((f) => f.startsWith('tables/shadows.'));
    expect(fromLogs).toEqual(SHADOW_TABLES);
    for (const f of fromLogs) expect(existsSync(join(dir, f)), f).toBe(false);
    for (const f of report.files.keys())
      if (!fromLogs.includes(f))
        expect(readFileSync(join(dir, f)).equals(Buffer.from(report.files.get(f)!)), f).toBe(true);
  });
});
