// @ts-check
// The compiled copy of the sources that the launcher (scripts/launch.mjs) runs: src/, experiments/ and scripts/
// transformed by scripts/transform.mjs into .cache/prunelab/<key>/, where the key hashes every input file's bytes,
// how they are transformed (scripts/transform.mjs, tsconfig.json), esbuild's version and Node's major. It lives
// inside the repository, not under node_modules, because a compiled module finds the repository by its own place
// (package.json above it, for PACKAGE_ROOT and the git facts of a run's manifest), and Node names a module by its
// real path while node_modules may be a link into another checkout.
//
// Nothing half-made is ever used: a build is written into `<key>.build-<pid>` and renamed into place, a rename being
// atomic, so `<key>` exists whole or not at all; two launches building the same key at once both finish and the
// second's rename fails harmlessly. Every launch takes a lease, `<key>.lease-<pid>`, before it looks at its key, and
// removes the caches of other keys that no live process holds, and whatever a dead process left (its builds, leases,
// caches being removed), so that a run still starting workers from an older copy is never pulled out from under.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { inputsOf, TREES, transformTrees } from './transform.mjs';

/** What the launcher compiles: the package's trees, and scripts/ for the scripts run through it (npm run bench). */
export const LAUNCH_TREES = [...TREES, 'scripts'];

/** Where the compiled copies live, relative to the repository (git-ignored). */
export const CACHE_DIR = '.cache/prunelab';

/** Bumped when the key's recipe changes, so that an old cache is never taken for a new one. */
const RECIPE = 'prunelab-compiled 1';

/** How every module is transformed: this launcher's own transform, and the tsconfig.json esbuild reads beside it. */
const TRANSFORM = new URL('./transform.mjs', import.meta.url);

const ENTRY = /^([0-9a-f]{24})(?:\.(build|lease|stale)-(\d+))?$/;

/**
 * The key of the compiled copy of `trees` under `root`: the first 24 hex digits of a sha256 over the recipe, esbuild's
 * version, Node's major, and each input file's path, length and bytes, in sorted order.
 * @param {string} root
 * @param {readonly string[]} [trees]
 * @returns {string}
 */
export function cacheKey(root, trees = LAUNCH_TREES) {
  const esbuild = /** @type {{ version: string }} */ (createRequire(import.meta.url)('esbuild/package.json'));
  const hash = createHash('sha256');
  hash.update(`${RECIPE}\0esbuild ${esbuild.version}\0node ${process.versions.node.split('.')[0]}\0`);
  /** @param {string} name @param {Buffer} bytes */
  const add = (name, bytes) => {
    hash.update(`${name}\0${bytes.length}\0`);
    hash.update(bytes);
  };
  add('(transform)', readFileSync(TRANSFORM));
  if (existsSync(join(root, 'tsconfig.json'))) add('tsconfig.json', readFileSync(join(root, 'tsconfig.json')));
  const { modules, copied } = inputsOf(root, trees);
  for (const file of [...modules, ...copied]) add(file, readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 24);
}

/**
 * The folder holding the compiled copy of the current sources (building it if no copy of this key exists), and
 * `release`, which gives up this process's lease on it (the launcher calls it on exit; a killed process's lease is
 * cleared by the next launch, which finds its process gone).
 * @param {string} root
 * @param {{ trees?: readonly string[], transform?: (root: string, out: string, trees: readonly string[]) => Promise<void> }} [options]
 * @returns {Promise<{ dir: string, key: string, built: boolean, release: () => void }>}
 */
export async function compiledTree(root, options = {}) {
  const trees = options.trees ?? LAUNCH_TREES;
  const cache = join(root, CACHE_DIR);
  mkdirSync(cache, { recursive: true });
  const key = cacheKey(root, trees);
  const dir = join(cache, key);
  const lease = join(cache, `${key}.lease-${process.pid}`);
  writeFileSync(lease, '');
  const release = () => rmSync(lease, { force: true });
  let built = false;
  try {
    if (!existsSync(dir)) built = await build(root, trees, cache, key, options.transform);
    sweep(cache, key);
  } catch (err) {
    release();
    throw err;
  }
  return { dir, key, built, release };
}

/**
 * @param {string} root
 * @param {readonly string[]} trees
 * @param {string} cache
 * @param {string} key
 * @param {((root: string, out: string, trees: readonly string[]) => Promise<void>) | undefined} transform
 * @returns {Promise<boolean>} whether this launch's build is the one in place
 */
async function build(root, trees, cache, key, transform) {
  const temp = join(cache, `${key}.build-${process.pid}`);
  rmSync(temp, { recursive: true, force: true });
  try {
    await (transform ?? transformTrees)(root, temp, trees);
    renameSync(temp, join(cache, key));
    return true;
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    // Another launch put the same key in place first: its copy is the same bytes.
    if (existsSync(join(cache, key))) return false;
    throw err;
  }
}

/**
 * Removes the caches of other keys that no live process holds, and what dead processes left.
 * @param {string} cache
 * @param {string} key
 */
function sweep(cache, key) {
  for (const name of readdirSync(cache)) {
    const m = ENTRY.exec(name);
    if (!m) continue;
    const [, k, kind, pid] = m;
    if (kind === undefined) {
      if (k !== key && !leased(cache, /** @type {string} */ (k))) retire(cache, /** @type {string} */ (k));
    } else if (!alive(Number(pid))) rmSync(join(cache, name), { recursive: true, force: true });
  }
}

/**
 * Moves a cache aside before removing it, so that no launch ever sees it half removed; a launch that took its lease
 * meanwhile gets it back.
 * @param {string} cache
 * @param {string} key
 */
function retire(cache, key) {
  const aside = join(cache, `${key}.stale-${process.pid}`);
  try {
    renameSync(join(cache, key), aside);
  } catch {
    return; // another launch retired it first
  }
  if (leased(cache, key)) {
    try {
      renameSync(aside, join(cache, key));
      return;
    } catch {
      // rebuilt meanwhile: this copy is surplus
    }
  }
  rmSync(aside, { recursive: true, force: true });
}

/**
 * Whether a live process holds a lease on `key`.
 * @param {string} cache
 * @param {string} key
 */
function leased(cache, key) {
  return readdirSync(cache).some((name) => {
    const m = ENTRY.exec(name);
    return m?.[1] === key && m[2] === 'lease' && alive(Number(m[3]));
  });
}

/** @param {number} pid */
function alive(pid) {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}
