// A temporary package root holding a frozen study: the real preregistration, a fixtures/ folder with a canonical
// part and a generated part, and a fixture manifest pinned into the preregistration, as `npm run prereg:freeze` does.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STUDY } from '../../src/cli/study.js';
import { studyFiles } from '../../src/study/preregistration.js';
import { freezePreregistration, writeFixtureManifest } from '../../src/study/freeze.js';
import { minimalFixture, minimalOracle } from './minimal.js';

/** The study's preregistration and its prose, where the loaded study definition puts them. */
export const { preregistration: PREREGISTRATION_FILE, prose: PREREGISTRATION_PROSE_FILE } = studyFiles(STUDY.name);

export interface StudyRoot {
  readonly root: string;
  readonly path: (relative: string) => string;
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * canonical: 'mini' writes the minimal fixture as fixtures/canonical/mini.json; 'real' copies fixtures/canonical.
 * The generated part is one minimal fixture under fixtures/generated/ with a generator block naming that folder.
 */
export function studyRoot(canonical: 'mini' | 'real' = 'mini'): StudyRoot {
  const root = mkdtempSync(join(tmpdir(), 'prunelab-study-'));
  const path = (relative: string) => join(root, relative);
  cpSync(PREREGISTRATION_FILE, path(PREREGISTRATION_FILE));
  if (canonical === 'real') cpSync('fixtures/canonical', path('fixtures/canonical'), { recursive: true });
  else {
    writeJson(path('fixtures/canonical/mini.json'), minimalFixture());
    writeJson(path('fixtures/canonical/oracles/mini.oracle.json'), minimalOracle());
  }
  writeJson(path('fixtures/generated/gen-0001.json'), { ...minimalFixture(), id: 'gen-0001' });
  writeJson(path('fixtures/generated/oracles/gen-0001.oracle.json'), { ...minimalOracle(), fixtureId: 'gen-0001' });
  writeJson(path('fixtures/MANIFEST.json'), {
    manifestVersion: 1,
    generator: { name: 'test', version: '0', seed: 1, count: 1, out: 'fixtures/generated' },
    fixtures: [],
    oracles: [],
  });
  writeFixtureManifest(root);
  freezePreregistration(root, STUDY.name);
  return { root, path };
}
