import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Manifest } from '../../src/artifacts/schema.js';
import { sha256 } from '../../src/fixture/canonical.js';
import { PREREGISTRATION_FILE } from '../support/study.js';
import { cli } from '../support/cli.js';
import { copyResultsSample } from './support.js';

const temps: string[] = [];
// What publish writes and refuses is about the folder, not the committed figures: a sample of the committed results
// (a tenth of the fixtures) analyses in a tenth of the time. report.test.ts checks the full committed figures.
function results(edit?: (m: Manifest) => Manifest): string {
  const d = copyResultsSample(edit);
  temps.push(d);
  return d;
}
function outDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'prunelab-bundle-'));
  temps.push(d);
  return join(d, 'bundle');
}
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const exploratory = (m: Manifest): Manifest => ({
  ...m,
  study: { exploratory: true, preregistration: null, fixtureManifest: null },
});
// The report reads its analysis plan from the preregistration the results name, so it must be the real one.
const PREREG = { file: PREREGISTRATION_FILE, sha256: sha256(readFileSync(PREREGISTRATION_FILE)) };
const FIXMAN = { file: 'fixtures/MANIFEST.json', sha256: 'cd'.repeat(32) };
const preregistered = (m: Manifest): Manifest => ({
  ...m,
  study: { exploratory: false, preregistration: PREREG, fixtureManifest: FIXMAN },
});

describe('npm run publish', () => {
  it('refuses results stamped exploratory and writes nothing', async () => {
    const out = outDir();
    const r = await cli(['publish', '--results', results(exploratory), '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--allow-exploratory');
    expect(r.stderr).toContain('[PL_PUBLISH_EXPLORATORY]');
    expect(existsSync(out)).toBe(false);
  });

  it('with --allow-exploratory writes the bundle and says exploratory in every caption', async () => {
    const dir = results(exploratory);
    const out = outDir();
    const r = await cli(['publish', '--results', dir, '--out', out, '--allow-exploratory']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const index = readFileSync(join(out, 'index.md'), 'utf8');
    const charts = readdirSync(join(out, 'charts'));
    const names = charts.filter((f) => f.endsWith('.vl.json')).map((f) => f.replace('.vl.json', ''));
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const n of names) {
      for (const ext of ['.svg', '.png']) expect(charts).toContain(`${n}${ext}`);
      expect(index).toContain(`(charts/${n}.svg)`);
      expect(readFileSync(join(out, 'charts', `${n}.svg`), 'utf8')).toContain('exploratory — not preregistered');
    }
    const captions = index.split('\n').filter((l) => /^\*[^*]/.test(l));
    expect(captions).toHaveLength(names.length);
    for (const c of captions) expect(c).toContain('exploratory — not preregistered');
    expect(readdirSync(join(out, 'tables')).filter((f) => f.endsWith('.csv')).length).toBeGreaterThanOrEqual(7);
    const manifest = Manifest.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
    const prov = JSON.parse(readFileSync(join(out, 'provenance.json'), 'utf8')) as Record<string, unknown>;
    expect(prov).toMatchObject({
      gitCommit: manifest.run?.gitCommit ?? null,
      exploratory: true,
      preregistration: null,
      fixtureManifest: null,
      tokenizer: manifest.tokenizer,
      models: manifest.models,
      fixtures: manifest.fixtures.length,
    });
  });

  it('publishes preregistered results without the flag, their hash in every caption and the provenance', async () => {
    const out = outDir();
    const r = await cli(['publish', '--results', results(preregistered), '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const index = readFileSync(join(out, 'index.md'), 'utf8');
    expect(index).not.toContain('exploratory');
    for (const c of index.split('\n').filter((l) => /^\*[^*]/.test(l)))
      expect(c).toContain(`preregistration sha256 ${PREREG.sha256.slice(0, 12)}`);
    const prov = JSON.parse(readFileSync(join(out, 'provenance.json'), 'utf8')) as Record<string, unknown>;
    expect(prov).toMatchObject({
      exploratory: false,
      preregistration: PREREG,
      fixtureManifest: FIXMAN,
      analysisPlan: PREREG,
    });
    expect(prov.comparisons as string[]).toEqual(['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7']);
    expect(index).toContain('## Acceptance criteria');
    expect(index).toMatch(/- \*\*A1\*\* \(H1\): (met|not met|undefined)/);
  });

  it('needs --out', async () => {
    const r = await cli(['publish', '--allow-exploratory']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_PUBLISH_NEEDS_OUT]');
  });
});
