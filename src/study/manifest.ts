// Builds and reads fixtures/MANIFEST.json: the sha256 of every fixture and, separately, of every oracle, so a study
// can be frozen before any condition runs and a run can prove it used exactly those inputs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { FixtureManifest, MANIFEST_VERSION, type FixtureManifest as FixtureManifestT } from '../artifacts/schema.js';
import { input } from '../errors.js';
import { byCodeUnit, relativePath, sha256 } from '../fixture/canonical.js';
import { fixtureFiles } from '../fixture/load.js';

export const FIXTURE_MANIFEST_FILE = 'fixtures/MANIFEST.json';

/** A file's JSON text: decompressed first when it is stored as `.gz`, so a hash names content, not a compressor. */
export function jsonText(path: string): Buffer {
  const bytes = readFileSync(path);
  return path.endsWith('.gz') ? gunzipSync(bytes) : bytes;
}

export interface InputFile {
  /** Relative to the root, forward slashes. */
  readonly file: string;
  readonly sha256: string;
  readonly text: Buffer;
}

/** What a fixtures folder holds: its fixtures (as the loader finds them) and every oracle file in an oracles/ folder. */
export function inputFiles(dir: string, root: string): { fixtures: InputFile[]; oracles: InputFile[] } {
  const read = (path: string): InputFile => {
    const text = jsonText(path);
    return { file: relativePath(path, root), sha256: sha256(text), text };
  };
  const fixtures = fixtureFiles(dir).map(read);
  const oracles = oracleFiles(dir).map(read);
  const order = (a: InputFile, b: InputFile) => byCodeUnit(a.file, b.file);
  return { fixtures: fixtures.sort(order), oracles: oracles.sort(order) };
}

/** Every `*.oracle.json` (or `.oracle.json.gz`) inside a folder named oracles/ below dir, so an extra one is seen. */
function oracleFiles(dir: string): string[] {
  if (!existsSync(dir) || statSync(dir).isFile()) return [];
  const found: string[] = [];
  const walk = (d: string, inOracles: boolean): void => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => byCodeUnit(a.name, b.name))) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full, entry.name === 'oracles');
      } else if (inOracles && /\.oracle\.json(\.gz)?$/.test(entry.name)) {
        found.push(full);
      }
    }
  };
  walk(dir, false);
  return found;
}

function idField(f: InputFile, field: 'id' | 'fixtureId'): string {
  let raw: unknown;
  try {
    raw = JSON.parse(f.text.toString('utf8'));
  } catch (err) {
    throw input('PL_FIXTURE_JSON', f.file, (err as Error).message);
  }
  const value = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[field] : undefined;
  if (typeof value !== 'string' || value === '') throw input('PL_FIXTURE_FIELD', f.file, field === 'id' ? 'fixture' : 'oracle', field, 'expected a non-empty string');
  return value;
}

/**
 * The manifest of the fixtures under `dirs` (folders relative to `root`, the package root): every fixture and
 * oracle with the sha256 of its JSON text, sorted by path. `generator` says how a generated part was made (null
 * when the corpus has none). The same files always give the same manifest.
 */
export function buildFixtureManifest(root: string, dirs: readonly string[], generator: FixtureManifestT['generator']): FixtureManifestT {
  const fixtures: FixtureManifestT['fixtures'] = [];
  const oracles: FixtureManifestT['oracles'] = [];
  for (const dir of dirs) {
    const found = inputFiles(join(root, dir), root);
    for (const f of found.fixtures) fixtures.push({ file: f.file, id: idField(f, 'id'), sha256: f.sha256 });
    for (const o of found.oracles) oracles.push({ file: o.file, fixtureId: idField(o, 'fixtureId'), sha256: o.sha256 });
  }
  const order = (a: { file: string }, b: { file: string }) => byCodeUnit(a.file, b.file);
  return FixtureManifest.parse({ manifestVersion: MANIFEST_VERSION, generator, fixtures: fixtures.sort(order), oracles: oracles.sort(order) });
}

/** The text a manifest is written as; its sha256 is what a preregistration pins. */
export function renderFixtureManifest(manifest: FixtureManifestT): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The generated corpus's folder (relative to root), whose full logs a run writes compressed: the generator's `out`
 * in the given manifest, else in fixtures/MANIFEST.json when it is readable, else none.
 */
export function generatedDir(root: string, manifest?: FixtureManifestT): string | null {
  if (manifest) return manifest.generator?.out.replace(/\/+$/, '') ?? null;
  try {
    const parsed = FixtureManifest.safeParse(JSON.parse(readFileSync(join(root, FIXTURE_MANIFEST_FILE), 'utf8')));
    return parsed.success ? parsed.data.generator?.out.replace(/\/+$/, '') ?? null : null;
  } catch {
    return null;
  }
}
