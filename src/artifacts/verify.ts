// A results folder checked against its own manifest before anything reads it: every file the manifest pins must hash
// as pinned, every file a condition folder holds must be pinned, and nothing a killed writer left may stand in for
// output. The report and the bundle rest on what passes; a folder edited by hand (a summary's false prunes changed)
// or left half-swapped by a kill is refused, naming each file.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findDebris } from '../files/atomic.js';
import { byCodeUnit, sha256 } from '../fixture/canonical.js';
import { messages } from '../messages.js';
import type { Manifest } from './schema.js';

/** Files every condition folder must hold, pinned, for a reader to use it. */
const REQUIRED = ['summary.json', 'points.csv'] as const;

export interface VerifiedFolder {
  /** The bytes of every plain file the manifest pins, as read and hashed (a reader parses these, never a second read). */
  readonly files: ReadonlyMap<string, Buffer>;
  /** One line per file that does not match, naming it; empty when the folder is what its manifest says. */
  readonly problems: readonly string[];
}

/**
 * Hashes every plain file `manifest` pins under `dir` and lists every file in a condition folder it does not pin.
 * Every condition's summary.json and points.csv, which readers use, must be present; any other pinned file is hashed
 * when present (a reader never opens an absent one). The compressed logs of the generated corpus are git-ignored
 * and read by no report, so they are not read here (`experiment --check` verifies them). `label` is the folder as
 * the user named it.
 */
export function verifyResultsFolder(dir: string, label: string, manifest: Manifest): VerifiedFolder {
  const files = new Map<string, Buffer>();
  const problems: string[] = [];
  const pinned = new Map(manifest.outputs.map((o) => [o.file, o.sha256]));
  const required = new Set(manifest.conditions.flatMap((c) => REQUIRED.map((r) => `${c.name}/${r}`)));
  for (const o of manifest.outputs) {
    if (o.file.endsWith('.gz')) continue;
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, o.file));
    } catch {
      if (required.has(o.file)) problems.push(messages.PL_RESULTS_FILE_MISSING(`${label}/${o.file}`, o.sha256));
      continue;
    }
    const actual = sha256(bytes);
    if (actual !== o.sha256) problems.push(messages.PL_RESULTS_FILE_CHANGED(`${label}/${o.file}`, o.sha256, actual));
    else files.set(o.file, bytes);
  }
  for (const c of manifest.conditions) {
    for (const name of REQUIRED) {
      const file = `${c.name}/${name}`;
      if (!pinned.has(file)) problems.push(messages.PL_RESULTS_FILE_UNPINNED(`${label}/${file}`));
    }
  }
  for (const file of unpinnedFiles(dir, manifest))
    if (!required.has(file)) problems.push(messages.PL_RESULTS_FILE_EXTRA(`${label}/${file}`));
  for (const d of findDebris(dir)) problems.push(messages.PL_RESULTS_DEBRIS(`${label}/${d.name}`, d.pid));
  return { files, problems };
}

/** Files inside the manifest's condition folders that it does not pin, relative to `dir`. */
export function unpinnedFiles(dir: string, manifest: Manifest): string[] {
  const pinned = new Set(manifest.outputs.map((o) => o.file));
  return manifest.conditions.flatMap((c) => filesUnder(dir, c.name)).filter((f) => !pinned.has(f));
}

/** Every file below `dir/sub`, relative to `dir`, with forward slashes, in code-unit order; none when it is absent. */
function filesUnder(dir: string, sub: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => byCodeUnit(a.name, b.name))) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory() && !lstatSync(join(dir, child)).isSymbolicLink()) walk(child);
      else out.push(child);
    }
  };
  walk(sub);
  return out;
}
