// fixtures/MANIFEST.json, in one place: the sha256 of every fixture and, separately, of every oracle, so a study can
// be frozen before any condition runs and a run can prove it used exactly those inputs. The corpus generator writes
// it, fixtures:verify and the preregistration gate read it and compare it with the files on disk.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FixtureManifest, MANIFEST_VERSION, type FixtureManifest as FixtureManifestT } from '../artifacts/schema.js';
import { input } from '../errors.js';
import { byCodeUnit, relativePath, sha256 } from '../fixture/canonical.js';
import { fixtureFiles, isStaging, readJsonBytes } from '../fixture/load.js';
import { kindOf } from '../fixture/json.js';

export const FIXTURE_MANIFEST_FILE = 'fixtures/MANIFEST.json';
export const MANIFEST_NAME = 'MANIFEST.json';

/**
 * What a manifest file covers and where its paths start, one rule for every manifest: it covers the folder it sits
 * in, and names files relative to that folder's parent. So fixtures/MANIFEST.json lists fixtures/... from the
 * package root, and DIR/MANIFEST.json lists DIR/... from DIR's parent, never anything beside DIR.
 */
export function manifestScope(manifestPath: string): { readonly dir: string; readonly root: string } {
  const dir = dirname(resolve(manifestPath));
  return { dir, root: dirname(dir) };
}

export interface InputFile {
  /** Where the file is on disk. */
  readonly path: string;
  /** Relative to the root, forward slashes. */
  readonly file: string;
  /** Over the JSON text: decompressed first when the file is `.gz`, so a hash names content, not a compressor. */
  readonly sha256: string;
  readonly text: Buffer;
}

/** What a fixtures folder holds: its fixtures (as the loader finds them) and every oracle file in an oracles/ folder. */
export function inputFiles(dir: string, root: string): { fixtures: InputFile[]; oracles: InputFile[] } {
  const read = (path: string): InputFile => {
    const file = relativePath(path, root);
    const text = readJsonBytes(path, file);
    return { path, file, sha256: sha256(text), text };
  };
  const fixtures = fixtureFiles(dir).map(read);
  const oracles = oracleFiles(dir).map(read);
  const order = (a: InputFile, b: InputFile) => byCodeUnit(a.file, b.file);
  return { fixtures: fixtures.sort(order), oracles: oracles.sort(order) };
}

/** Every `*.oracle.json` (or `.oracle.json.gz`) inside a folder named oracles/ below dir, so an extra one is seen. */
export function oracleFiles(dir: string): string[] {
  if (!existsSync(dir) || statSync(dir).isFile()) return [];
  const found: string[] = [];
  const walk = (d: string, inOracles: boolean): void => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => byCodeUnit(a.name, b.name))) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !isStaging(entry.name)) walk(full, entry.name === 'oracles');
      } else if (inOracles && /\.oracle\.json(\.gz)?$/.test(entry.name) && kindOf(full) === undefined) {
        // Only regular files: the loader passes over (and reports) a FIFO or a looping link, which a read would hang on.
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
  if (typeof value !== 'string' || value === '')
    throw input(
      'PL_FIXTURE_FIELD',
      f.file,
      field === 'id' ? 'fixture' : 'oracle',
      field,
      'expected a non-empty string',
    );
  return value;
}

/**
 * The manifest of the fixtures under `dirs` (folders relative to `root`, the package root, or absolute): every
 * fixture and oracle with the sha256 of its JSON text, sorted by path. `generator` says how a generated part was
 * made (null when the corpus has none). The same files always give the same manifest.
 */
export function buildFixtureManifest(
  root: string,
  dirs: readonly string[],
  generator: FixtureManifestT['generator'],
): FixtureManifestT {
  const fixtures: FixtureManifestT['fixtures'] = [];
  const oracles: FixtureManifestT['oracles'] = [];
  for (const dir of dirs) {
    const found = inputFiles(resolve(root, dir), root);
    for (const f of found.fixtures) fixtures.push({ file: f.file, id: idField(f, 'id'), sha256: f.sha256 });
    for (const o of found.oracles) oracles.push({ file: o.file, fixtureId: idField(o, 'fixtureId'), sha256: o.sha256 });
  }
  const order = (a: { file: string }, b: { file: string }) => byCodeUnit(a.file, b.file);
  return FixtureManifest.parse({
    manifestVersion: MANIFEST_VERSION,
    generator,
    fixtures: fixtures.sort(order),
    oracles: oracles.sort(order),
  });
}

/** The text a manifest is written as; its sha256 is what a preregistration pins. */
export function renderFixtureManifest(manifest: FixtureManifestT): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export type ParsedManifest =
  | { readonly ok: true; readonly manifest: FixtureManifestT }
  | { readonly ok: false; readonly field: string; readonly problem: string };

/** A manifest's text parsed and validated; when it is not one, the first field that is wrong and why. */
export function parseFixtureManifest(text: string): ParsedManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, field: '(the whole file)', problem: `not valid JSON (${(err as Error).message})` };
  }
  const parsed = FixtureManifest.safeParse(raw);
  if (parsed.success) return { ok: true, manifest: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, field: issue.path.map(String).join('.') || '(the whole file)', problem: issue.message };
}

/** The manifest fixtures:verify checks: a missing or invalid one is an input error naming the file and field. */
export function readFixtureManifest(path: string, root: string): FixtureManifestT {
  const file = relativePath(path, root);
  if (!existsSync(path)) throw input('PL_MANIFEST_MISSING', file);
  const parsed = parseFixtureManifest(readFileSync(path, 'utf8'));
  if (!parsed.ok) throw input('PL_MANIFEST_INVALID', file, `${parsed.field}: ${parsed.problem}`);
  return parsed.manifest;
}

/** The manifest at `path` when it exists and is valid, else undefined (for defaults that fall back quietly). */
export function readFixtureManifestIfValid(path: string): FixtureManifestT | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parseFixtureManifest(text);
  return parsed.ok ? parsed.manifest : undefined;
}

export interface Entry {
  readonly file: string;
  readonly sha256: string;
}

/** How one file differs from what a manifest lists. */
export type EntryDiff =
  | { readonly change: 'changed'; readonly file: string; readonly expected: string; readonly actual: string }
  | { readonly change: 'missing'; readonly file: string; readonly expected: string }
  | { readonly change: 'extra'; readonly file: string; readonly actual: string };

/** Changed and missing files in the order `expected` lists them, then extra files in the order `actual` lists them. */
export function diffEntries(expected: readonly Entry[], actual: readonly Entry[]): EntryDiff[] {
  const want = new Set(expected.map((e) => e.file));
  const have = new Map(actual.map((e) => [e.file, e.sha256]));
  const out: EntryDiff[] = [];
  for (const e of expected) {
    const now = have.get(e.file);
    if (now === undefined) out.push({ change: 'missing', file: e.file, expected: e.sha256 });
    else if (now !== e.sha256) out.push({ change: 'changed', file: e.file, expected: e.sha256, actual: now });
  }
  for (const a of actual) if (!want.has(a.file)) out.push({ change: 'extra', file: a.file, actual: a.sha256 });
  return out;
}

/**
 * The generated corpus's folder (relative to root), whose full logs a run writes compressed: the generator's `out`
 * in the given manifest, else in fixtures/MANIFEST.json when it is readable, else none.
 */
export function generatedDir(root: string, manifest?: FixtureManifestT): string | null {
  const m = manifest ?? readFixtureManifestIfValid(join(root, FIXTURE_MANIFEST_FILE));
  return m?.generator?.out.replace(/\/+$/, '') ?? null;
}
