// The fast counterpart of test/reproduce/corpus.test.ts (npm run test:reproduce regenerates the whole corpus): every
// tenth generated fixture and its oracle, regenerated from the manifest's seed and share, hash to what
// fixtures/MANIFEST.json records, so a generator change that would alter the committed corpus fails npm test too.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REMOVABLE_SHARE } from '../../src/corpus/compose.js';
import { generatedFile } from '../../src/corpus/corpus.js';
import { sha256 } from '../../src/fixture/canonical.js';
import { readFixtureManifest } from '../../src/study/manifest.js';
import { sampled } from '../support/sample.js';

const manifest = readFixtureManifest('fixtures/MANIFEST.json', process.cwd());
const generator = manifest.generator!;
const pinned = new Map([...manifest.fixtures, ...manifest.oracles].map((e) => [e.file, e.sha256]));
const sample = sampled(Array.from({ length: generator.count }, (_, i) => i));

describe('the committed generated corpus, sampled', () => {
  it('samples several fixtures of a generated corpus', () => {
    expect(sample.length).toBeGreaterThanOrEqual(10);
  });

  it.each(sample)(
    'fixture %i and its oracle equal a regeneration from the manifest seed (run npm run fixtures:generate after changing the generator)',
    (index) => {
      const g = generatedFile(generator.seed, index, generator.removableShare ?? DEFAULT_REMOVABLE_SHARE);
      for (const [name, text] of [
        [g.fixtureName, g.fixtureText],
        [g.oracleName, g.oracleText],
      ] as const) {
        const file = join(generator.out, name);
        expect(pinned.get(file), file).toBe(sha256(text));
      }
    },
  );
});
