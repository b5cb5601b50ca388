import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Manifest } from '../../src/artifacts/schema.js';
import { conditionNames } from '../../src/policy/registry.js';
import { cli } from '../support/cli.js';

const committed = Manifest.parse(JSON.parse(readFileSync('results/manifest.json', 'utf8')));

/**
 * With the generated corpus the full study is too long for every CI run, so above this many fixtures the test checks
 * a subset of conditions (still over every fixture, with every frozen input checked); `npm run experiment -- --check`
 * checks the whole study.
 */
const FULL_CHECK_MAX_FIXTURES = 100;
const SUBSET = ['raw', 'exact-redundancy', 'ladder-0-3', 'ladder-0-4'];

describe('the committed results/', () => {
  it('is the preregistered study, checked against its frozen inputs', () => {
    expect(committed.study.exploratory).toBe(false);
    expect(committed.study.preregistration?.file).toBe('experiments/ch10-ablation/preregistration.json');
    expect(committed.study.fixtureManifest?.file).toBe('fixtures/MANIFEST.json');
  });

  it('is exactly what the current code and fixtures produce (npm run experiment -- --check)', async () => {
    const full = committed.fixtures.length <= FULL_CHECK_MAX_FIXTURES;
    const r = await cli(['experiment', '--check', ...(full ? [] : ['--condition', SUBSET.join(',')])]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const n = full ? conditionNames().length : SUBSET.length;
    expect(r.stdout).toMatch(
      new RegExp(
        `^results matches a fresh regeneration \\(\\d+ files, ${n} conditions, ${committed.fixtures.length} fixtures`,
      ),
    );
  });
});
