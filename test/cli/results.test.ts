// What the committed results/ are, and a sampled rerun: every condition over every tenth fixture gives the committed
// rows and measures of those fixtures. The whole study's byte-for-byte --check is test/reproduce/results.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvCells } from '../../src/artifacts/csv.js';
import { Manifest } from '../../src/artifacts/schema.js';
import { conditionNames } from '../../src/policy/registry.js';
import { cli } from '../support/cli.js';
import { sampled } from '../support/sample.js';

const committed = Manifest.parse(JSON.parse(readFileSync('results/manifest.json', 'utf8')));
const out = mkdtempSync(join(tmpdir(), 'prunelab-results-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** A condition's points.csv rows of the given fixtures, without the exploratory column a smoke run sets. */
function rows(dir: string, condition: string, fixtures: ReadonlySet<string>): string[] {
  const [header, ...lines] = readFileSync(join(dir, condition, 'points.csv'), 'utf8')
    .trim()
    .split('\n');
  const cells = csvCells(header!);
  expect(cells[0]).toBe('exploratory');
  const column = cells.indexOf('fixture');
  return lines.filter((l) => fixtures.has(csvCells(l)[column]!)).map((l) => l.slice(l.indexOf(',') + 1));
}

function perFixture(dir: string, condition: string, fixtures: ReadonlySet<string>): unknown[] {
  const summary = JSON.parse(readFileSync(join(dir, condition, 'summary.json'), 'utf8')) as {
    perFixture: { fixture: string }[];
  };
  return summary.perFixture.filter((f) => fixtures.has(f.fixture));
}

describe('the committed results/', () => {
  it('is the preregistered study, checked against its frozen inputs', () => {
    expect(committed.study.exploratory).toBe(false);
    expect(committed.study.preregistration?.file).toBe('experiments/ch10-ablation/preregistration.json');
    expect(committed.study.fixtureManifest?.file).toBe('fixtures/MANIFEST.json');
  });

  it('holds, for every tenth fixture, what every condition gives it now (the whole study: npm run test:reproduce)', async () => {
    const ids = sampled(committed.fixtures.map((f) => f.id));
    // One thread: 43 fixtures would start two worker threads, each loading the sources again (about 6 s of CPU beside
    // the other test file); the bytes are the same on any number of threads (test/engine/parallel.test.ts).
    const r = await cli(['experiment', '--out', out, '--workers', '1', ...ids.flatMap((id) => ['--filter', id])]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const fixtures = new Set(ids);
    expect(committed.conditions.map((c) => c.name).sort()).toEqual([...conditionNames()].sort());
    for (const name of conditionNames()) {
      const fresh = rows(out, name, fixtures);
      expect(fresh.length, name).toBeGreaterThanOrEqual(ids.length);
      expect(fresh, `${name}/points.csv`).toEqual(rows('results', name, fixtures));
      expect(perFixture(out, name, fixtures), `${name}/summary.json perFixture`).toEqual(
        perFixture('results', name, fixtures),
      );
    }
  });
});
