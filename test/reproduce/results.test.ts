// The committed results/ are exactly what the current code and fixtures produce: the study's own --check, which
// reruns it and compares every output byte for byte. test/cli/results.test.ts is the sampled counterpart in npm test.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Manifest } from '../../src/artifacts/schema.js';
import { conditionNames } from '../../src/policy/registry.js';
import { cli } from '../support/cli.js';

const committed = Manifest.parse(JSON.parse(readFileSync('results/manifest.json', 'utf8')));

describe('the committed results/', () => {
  it('is exactly what the current code and fixtures produce, every condition over every fixture (npm run experiment -- --check)', async () => {
    const r = await cli(['experiment', '--check']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^results matches a fresh regeneration \\(\\d+ files, ${conditionNames().length} conditions, ${committed.fixtures.length} fixtures`,
      ),
    );
  });
});
