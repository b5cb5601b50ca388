// The committed corpus and manifest are exactly what the current generator produces from the manifest's seed and
// count, and every file matches its recorded hash (npm run fixtures:verify on the repository itself).
// test/corpus/committed.test.ts regenerates every tenth generated fixture in npm test.
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

describe('the committed fixtures/', () => {
  it('verifies against fixtures/MANIFEST.json and a regeneration from its seed (run npm run fixtures:generate after changing the generator)', async () => {
    const r = await cli(['fixtures-verify']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('the 400 generated fixtures equal a regeneration from seed 20261202');
  }, 120_000);
});
