// fixtures/MANIFEST.json: the sha256 of every fixture and oracle under the fixture root, plus how the generated
// part was made. Built from the files on disk after generation; checked against them by fixtures:verify.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FixtureManifest, MANIFEST_VERSION, type FixtureManifest as FixtureManifestT } from '../artifacts/schema.js';
import { input } from '../errors.js';
import { byCodeUnit, relativePath, sha256 } from '../fixture/canonical.js';
import { isFixtureName, readJsonBytes } from '../fixture/load.js';
import { messages } from '../messages.js';

export interface FileHash {
  readonly path: string;
  readonly file: string;
  readonly sha256: string;
  readonly id: string;
}

/** Every fixture under `dir` (oracles/ excluded) with its oracle, hashed over the JSON text. */
export function hashFixtures(dir: string, root: string): { fixtures: FileHash[]; oracles: FileHash[] } {
  const fixtures: FileHash[] = [];
  const oracles: FileHash[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => byCodeUnit(a.name, b.name))) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'oracles') {
          for (const o of readdirSync(full).sort(byCodeUnit)) {
            if (o.endsWith('.oracle.json')) oracles.push(hashOf(join(full, o), root, o.replace(/\.oracle\.json$/, '')));
          }
        } else if (!entry.name.startsWith('.')) walk(full);
      } else if (isFixtureName(entry.name)) {
        fixtures.push(hashOf(full, root, fixtureIdOf(full)));
      }
    }
  };
  if (existsSync(dir) && statSync(dir).isDirectory()) walk(dir);
  const byFile = (a: FileHash, b: FileHash) => byCodeUnit(a.file, b.file);
  return { fixtures: fixtures.sort(byFile), oracles: oracles.sort(byFile) };
}

function hashOf(path: string, root: string, id: string): FileHash {
  const file = relativePath(path, root);
  return { path, file, sha256: sha256(readJsonBytes(path, file)), id };
}

/** The id a fixture file declares, or its file name when it cannot be read (verify reports the file anyway). */
function fixtureIdOf(path: string): string {
  try {
    const raw = JSON.parse(readJsonBytes(path).toString('utf8')) as { id?: unknown };
    if (typeof raw.id === 'string') return raw.id;
  } catch {
    // A broken fixture still gets hashed; schema validation names its problem.
  }
  return path.replace(/^.*\//, '').replace(/\.json(\.gz)?$/, '');
}

export function buildManifest(dir: string, root: string, generator: FixtureManifestT['generator']): FixtureManifestT {
  const { fixtures, oracles } = hashFixtures(dir, root);
  return {
    manifestVersion: MANIFEST_VERSION,
    generator,
    fixtures: fixtures.map((f) => ({ file: f.file, id: f.id, sha256: f.sha256 })),
    oracles: oracles.map((o) => ({ file: o.file, fixtureId: o.id, sha256: o.sha256 })),
  };
}

export function renderManifest(m: FixtureManifestT): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}

export function readFixtureManifest(path: string, root: string): FixtureManifestT {
  const file = relativePath(path, root);
  if (!existsSync(path)) throw input('PL_MANIFEST_MISSING', file);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw input('PL_MANIFEST_INVALID', file, (err as Error).message);
  }
  const parsed = FixtureManifest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw input('PL_MANIFEST_INVALID', file, `${issue.path.join('.') || '(the whole record)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** Changed, missing and extra files between a manifest and the files under `dir`, each naming file and hashes. */
export function compareManifest(m: FixtureManifestT, dir: string, root: string): string[] {
  const { fixtures, oracles } = hashFixtures(dir, root);
  const actual = new Map([...fixtures, ...oracles].map((f) => [f.file, f.sha256]));
  const recorded = new Map([...m.fixtures, ...m.oracles].map((f) => [f.file, f.sha256]));
  const problems: string[] = [];
  for (const [file, sha] of [...recorded].sort((a, b) => byCodeUnit(a[0], b[0]))) {
    const now = actual.get(file);
    if (now === undefined) problems.push(messages.PL_VERIFY_MISSING(file, sha));
    else if (now !== sha) problems.push(messages.PL_VERIFY_CHANGED(file, sha, now));
  }
  for (const [file, sha] of [...actual].sort((a, b) => byCodeUnit(a[0], b[0]))) {
    if (!recorded.has(file)) problems.push(messages.PL_VERIFY_EXTRA(file, sha));
  }
  return problems;
}

