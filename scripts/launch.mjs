#!/usr/bin/env node
// @ts-check
// `node scripts/launch.mjs FILE.ts [arguments]` runs a module of src/, experiments/ or scripts/ as `tsx FILE.ts
// [arguments]` would, but as compiled JavaScript from the cache (scripts/compiled.mjs): tsx's loader hooks and
// transforms would otherwise run in this process and in every worker thread of a run, about 3 s of CPU and 140 MB of
// memory over the full study. The npm scripts of the command line (`npm run experiment` and the others) and
// `npm run bench` enter through here; `npx tsx src/cli/bin.ts COMMAND` still runs the sources directly.
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compiledTree, LAUNCH_TREES } from './compiled.mjs';
import { isTypeScript } from './transform.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2];
const source = entry === undefined ? '' : relative(ROOT, resolve(entry)).split(sep).join('/');
if (!isTypeScript(source) || !LAUNCH_TREES.some((t) => source.startsWith(`${t}/`)))
  throw new Error(`usage: node scripts/launch.mjs FILE.ts [arguments], FILE.ts under ${LAUNCH_TREES.join('/, ')}/`);

const { dir, release } = await compiledTree(ROOT);
process.once('exit', release);
const file = join(dir, source.replace(/\.[cm]?ts$/, '.js'));
// The module sees the arguments Node would give it were it started itself: [node, its file, ...arguments].
process.argv.splice(1, 2, file);
await import(pathToFileURL(file).href);
