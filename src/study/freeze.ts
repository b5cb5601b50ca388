// Freezing: writes fixtures/MANIFEST.json over the fixture folders, and stamps that manifest's hash into the
// preregistration (re-rendering its prose), so after the corpus is regenerated the study refreezes in one step.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { input } from '../errors.js';
import { sha256 } from '../fixture/canonical.js';
import { writeAtomic } from '../files/atomic.js';
import {
  buildFixtureManifest,
  FIXTURE_MANIFEST_FILE,
  readFixtureManifestIfValid,
  renderFixtureManifest,
} from './manifest.js';
import {
  loadPreregistration,
  parsePin,
  pinFileOf,
  renderPin,
  renderPreregistration,
  studyFiles,
} from './preregistration.js';
import { renderPreregistrationMarkdown } from './prose.js';

/**
 * Writes the fixture manifest of `dirs` (relative to root). A generator block already in the manifest is kept, so
 * rewriting it after a generated corpus exists does not forget how the corpus was made.
 */
export function writeFixtureManifest(
  root: string,
  dirs: readonly string[] = ['fixtures'],
): { file: string; sha256: string; fixtures: number; oracles: number } {
  const path = join(root, FIXTURE_MANIFEST_FILE);
  const generator = readFixtureManifestIfValid(path)?.generator ?? null;
  const manifest = buildFixtureManifest(root, dirs, generator);
  const text = renderFixtureManifest(manifest);
  writeAtomic(path, text);
  return {
    file: FIXTURE_MANIFEST_FILE,
    sha256: sha256(text),
    fixtures: manifest.fixtures.length,
    oracles: manifest.oracles.length,
  };
}

/**
 * Stamps sha256(fixtures manifest text) into the preregistration, re-renders its prose, and pins the whole
 * preregistration's text in the pin file beside it: the one step that turns an amended preregistration into the
 * frozen one. `previous` and `pinned` name the fixture manifest's pins; `preregistration` the whole file's.
 */
export function freezePreregistration(
  root: string,
  study: string,
): {
  file: string;
  pinned: string;
  previous: string;
  pin: string;
  preregistration: { previous: string | null; pinned: string };
} {
  const files = studyFiles(study);
  const loaded = loadPreregistration(root, files.preregistration);
  const p = loaded.preregistration;
  const manifestPath = join(root, p.fixtureManifest.file);
  if (!existsSync(manifestPath)) throw input('PL_FROZEN_MANIFEST_MISSING', p.fixtureManifest.file, loaded.file);
  const pinned = sha256(readFileSync(manifestPath));
  const next = { ...p, fixtureManifest: { ...p.fixtureManifest, sha256: pinned } };
  const text = renderPreregistration(next);
  const pin = pinFileOf(loaded.file);
  const before = existsSync(join(root, pin))
    ? (parsePin(readFileSync(join(root, pin), 'utf8'), loaded.file) ?? null)
    : null;
  writeAtomic(join(root, loaded.file), text);
  writeAtomic(join(root, files.prose), renderPreregistrationMarkdown(next));
  // Last, so a preregistration is never pinned before its text is on disk.
  writeAtomic(join(root, pin), renderPin(loaded.file, sha256(text)));
  return {
    file: loaded.file,
    pinned,
    previous: p.fixtureManifest.sha256,
    pin,
    preregistration: { previous: before, pinned: sha256(text) },
  };
}
