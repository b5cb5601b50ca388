// Which files a sandboxed policy may read, and why a path it was refused is off limits. The permission model grants
// the policy's own folder; it has no deny-list and follows symbolic links out of a granted folder, so the folder is
// vetted first: it must not hold (or be inside) oracles, fixtures or results, nor a link that leads out of it.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { input } from '../errors.js';
import { PACKAGE_ROOT } from '../files/package-root.js';
import { sandboxWords } from '../messages.js';

/** Places a policy must never read, beyond every oracle wherever it lies. */
export interface OffLimits {
  readonly fixtures: readonly string[];
  readonly results: readonly string[];
}

export type Refusal = keyof typeof sandboxWords.why;

/** prunelab's own library code (src/), which a policy may import for the view's helpers (bundle.ts compiles it in). */
export const LIBRARY = realpathSync(fileURLToPath(new URL('..', import.meta.url)));

/**
 * The library wherever a policy may name it: where this code runs from and, when that is a compiled copy inside a
 * clone (the launcher's cache, .cache/prunelab/, or dist/), the sources beside package.json it was compiled from, so
 * that a policy importing `src/...` is admitted or refused exactly as when the sources run.
 */
export const LIBRARIES: readonly string[] = librariesOf(LIBRARY, join(PACKAGE_ROOT, 'src'));

function librariesOf(running: string, sources: string): string[] {
  if (!existsSync(join(sources, 'sandbox', 'folder.ts'))) return [running];
  const real = realpathSync(sources);
  return real === running ? [running] : [running, real];
}

/**
 * Library code a policy may not import: the corpus generator, which could regenerate a generated fixture and its
 * labels from the seed, and the oracle's own code.
 */
const LABEL_CODE = LIBRARIES.flatMap((l) => ['corpus', 'oracle'].map((d) => join(l, d)));

/** A folder holding more entries than this is not a policy's own folder; vetting it would cost more than the run. */
export const FOLDER_ENTRY_LIMIT = 5000;

export function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

/** An oracle is any `*.oracle.json` or anything under an `oracles` folder (src/fixture/load.ts: oraclePathFor). */
export function isOracle(path: string): boolean {
  return basename(path).endsWith('.oracle.json') || path.split(/[\\/]/).includes('oracles');
}

/** Why reading `path` is refused (for a path outside the granted folder: just that). */
export function refusalOf(path: string, off: OffLimits): Refusal {
  if (isOracle(path)) return 'oracle';
  const real = realOrSelf(path);
  if (LABEL_CODE.some((c) => inside(real, c))) return 'labelCode';
  if (off.fixtures.some((f) => inside(path, f) || inside(real, f))) return 'fixtures';
  if (off.results.some((r) => inside(path, r) || inside(real, r))) return 'results';
  return 'outside';
}

/** Throws unless `folder` (a real path) can be granted whole: nothing off limits in it, no link out of it. */
export function vetFolder(file: string, folder: string, off: OffLimits, limit = FOLDER_ENTRY_LIMIT): void {
  const refuse = (path: string, why: string): never => {
    throw input('PL_POLICY_SANDBOX_FOLDER', file, folder, path, why);
  };
  for (const [kind, roots] of [
    ['fixtures', off.fixtures],
    ['results', off.results],
  ] as const) {
    for (const root of roots.map(realOrSelf)) {
      if (inside(root, folder) || inside(folder, root)) refuse(root, sandboxWords.why[kind]);
    }
  }
  let seen = 0;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if ((seen += 1) > limit) refuse(folder, sandboxWords.tooLarge(limit));
      if (isOracle(path)) refuse(path, sandboxWords.why.oracle);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) {
        const target = realOrNull(path);
        if (target === null || !inside(target, folder)) refuse(path, sandboxWords.linkOut(target));
      } else if (stat.isDirectory()) walk(path);
      else {
        const held = labelsIn(path, stat.size);
        if (held) refuse(path, sandboxWords.why[held]);
      }
    }
  };
  walk(folder);
}

/** Files larger than this are not read for labels: an oracle or fixture is far smaller, model weights may be larger. */
export const CONTENT_CHECK_LIMIT = 64 * 1024 * 1024;

/**
 * Whether a file holds an oracle or a fixture whatever its name (a renamed copy, gzipped or not, or one wrapped in
 * another object or array): the shape is what gives it away, read loosely so that an added field does not hide it.
 * The module may read every file in its folder, so a name-only check would let a copy through.
 */
export function labelsIn(path: string, size: number): 'oracle' | 'fixtures' | undefined {
  if (size > CONTENT_CHECK_LIMIT) return undefined;
  let value: unknown;
  try {
    let bytes = readFileSync(path);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  return shapeOf(value, 4);
}

function shapeOf(value: unknown, depth: number): 'oracle' | 'fixtures' | undefined {
  if (value === null || typeof value !== 'object' || depth < 0) return undefined;
  const o = value as Record<string, unknown>;
  const some = (list: unknown, keys: readonly string[]): boolean =>
    Array.isArray(list) &&
    list.some((e) => e !== null && typeof e === 'object' && keys.every((k) => k in (e as object)));
  if (some(o['points'], ['prunePoint']) && (o['fixtureId'] !== undefined || some(o['points'], ['removable'])))
    return 'oracle';
  if (some(o['prunePoints'], ['downstream'])) return 'fixtures';
  for (const inner of Array.isArray(value) ? value : Object.values(o)) {
    const found = shapeOf(inner, depth - 1);
    if (found) return found;
  }
  return undefined;
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function realOrSelf(path: string): string {
  return realOrNull(path) ?? path;
}
