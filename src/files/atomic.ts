// Replacing outputs on disk so that a kill at any moment leaves either the old or the new output whole, and so that
// what a killed process left behind is recognised and cleared by the next one.
//
// A writer builds everything in a staging folder inside the output folder (`.staging-<pid>`, or
// `.staging-<what>-<pid>`). It then writes a journal, SWAP.json, into the staging folder: the ordered moves and
// removals that turn the old output into the new one. Writing the journal (by rename, so it is there whole or not at
// all) is the commit point. Before it, the output folder has not been touched: the old output stands. After it, every
// step is idempotent, so replaying the journal from the start finishes the swap whatever step the kill interrupted;
// the next process that opens the folder replays the journal of a dead writer (roll forward), and the new output
// stands. A folder being replaced is moved aside as `<name>.old-<pid>` and removed once the new one is in place.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { failure } from '../errors.js';

const JOURNAL = 'SWAP.json';

/** One step of a swap: put the staged `move` in place of the output's entry of that name, or `remove` an entry. */
export type SwapStep = { readonly move: string } | { readonly remove: string };

/** What a killed process can leave in an output folder, by name; the pid is the process that made it. */
const DEBRIS: readonly { readonly kind: Debris['kind']; readonly pattern: RegExp }[] = [
  { kind: 'staging', pattern: /^\.staging-(?:.+-)?(\d+)$/ },
  { kind: 'old', pattern: /^(.+)\.old-(\d+)$/ },
  { kind: 'tmp', pattern: /^(.+)\.(\d+)\.tmp$/ },
];

export interface Debris {
  readonly name: string;
  readonly kind: 'staging' | 'old' | 'tmp';
  readonly pid: number;
  /** For `old` and `tmp`: the entry it stands beside. */
  readonly of: string | null;
}

/** Writes a file by rename from a temporary file beside it, so a reader sees the old file or the new one, whole. */
export function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw failure('PL_IO', path, (err as Error).message);
  }
}

/**
 * Puts the folder `from` (built complete in staging) at `to` by rename, replacing whatever was there; the old one is
 * moved aside first and removed only after the new one stands. One folder only: several folders that must change
 * together go through commitSwap.
 */
export function swapIn(from: string, to: string): void {
  const old = `${to}.old-${process.pid}`;
  rmSync(old, { recursive: true, force: true });
  if (existsSync(to)) renameSync(to, old);
  renameSync(from, to);
  rmSync(old, { recursive: true, force: true });
}

/** The staging folder this process uses inside `dir`; `what` tells writers sharing a folder apart. */
export function stagingFolder(dir: string, what?: string): string {
  return join(dir, `.staging-${what ? `${what}-` : ''}${process.pid}`);
}

/**
 * Commits and carries out a swap from `staging` into `dir`: the journal is written first (the commit point), then
 * replayed. `steps` name entries relative to both folders; moves are done in the order given, so the entry that
 * describes the rest (a manifest) goes last among them.
 */
export function commitSwap(dir: string, staging: string, steps: readonly SwapStep[]): void {
  writeAtomic(join(staging, JOURNAL), `${JSON.stringify({ pid: process.pid, steps }, null, 2)}\n`);
  replay(dir, staging, steps, process.pid);
}

/**
 * Removes a staging folder after a failure, unless it holds a committed journal: then the swap must be finished, not
 * forgotten, and the next process to open the folder finishes it once this one has exited.
 */
export function discardStaging(staging: string): void {
  if (!present(join(staging, JOURNAL))) rmSync(staging, { recursive: true, force: true });
}

function replay(dir: string, staging: string, steps: readonly SwapStep[], pid: number): void {
  for (const step of steps) {
    if ('move' in step) {
      const from = join(staging, step.move);
      const to = join(dir, step.move);
      const old = `${to}.old-${pid}`;
      // Each state a kill can leave is recognised: staged entry still there (move it, old one aside first), or
      // already moved (only the old one may remain).
      if (present(from)) {
        if (present(to)) {
          rmSync(old, { recursive: true, force: true });
          renameSync(to, old);
        }
        renameSync(from, to);
      }
      rmSync(old, { recursive: true, force: true });
    } else {
      rmSync(join(dir, step.remove), { recursive: true, force: true });
    }
  }
  rmSync(staging, { recursive: true, force: true });
}

/** Whether a path exists, a dangling link included (existsSync follows links). */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether a process with this pid is running (a pid another user owns counts as running). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every entry directly inside `dir` that a writer, live or dead, left there: staging folders, set-aside old entries, temporary files. */
export function findDebris(dir: string): Debris[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: Debris[] = [];
  for (const name of names) {
    for (const { kind, pattern } of DEBRIS) {
      const m = pattern.exec(name);
      if (!m) continue;
      out.push({ name, kind, pid: Number(kind === 'staging' ? m[1] : m[2]), of: kind === 'staging' ? null : m[1]! });
      break;
    }
  }
  return out;
}

export interface Recovery {
  /** Staging folders of dead writers whose committed swap was finished. */
  readonly finished: readonly string[];
  /** Debris of dead writers removed (or, for an old entry whose replacement never arrived, put back). */
  readonly removed: readonly string[];
}

/**
 * Clears what dead writers left in `dir`, leaving a live writer's entries alone: a committed swap is finished from
 * its journal, an uncommitted staging folder is removed (its writer never touched the output), and a set-aside old
 * entry is removed, or renamed back when nothing replaced it.
 */
export function recoverDebris(dir: string): Recovery {
  const finished: string[] = [];
  const removed: string[] = [];
  const dead = findDebris(dir).filter((d) => !processAlive(d.pid));
  try {
    for (const d of dead.filter((x) => x.kind === 'staging')) {
      const staging = join(dir, d.name);
      const journal = readJournal(join(staging, JOURNAL));
      if (journal) {
        replay(dir, staging, journal.steps, journal.pid);
        finished.push(d.name);
      } else {
        rmSync(staging, { recursive: true, force: true });
        removed.push(d.name);
      }
    }
    for (const d of dead.filter((x) => x.kind !== 'staging')) {
      const path = join(dir, d.name);
      if (!present(path)) continue;
      if (d.kind === 'old' && !present(join(dir, d.of!))) renameSync(path, join(dir, d.of!));
      else rmSync(path, { recursive: true, force: true });
      removed.push(d.name);
    }
  } catch (err) {
    throw failure('PL_IO', dir, (err as Error).message);
  }
  return { finished, removed };
}

/**
 * Temporary folders named `<prefix><pid>-…` in `dir` (the system's temp folder) whose process is gone: removed, and
 * their names returned. A `--check` killed while it regenerated leaves a whole study in one.
 */
export function removeDeadTemps(dir: string, prefix: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names.sort()) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)-/.exec(name.slice(prefix.length));
    if (!m || processAlive(Number(m[1]))) continue;
    try {
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Another user's, or already going: not this check's to remove.
    }
  }
  return removed;
}

function readJournal(path: string): { pid: number; steps: SwapStep[] } | undefined {
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; steps?: unknown };
    if (typeof raw.pid !== 'number' || !Array.isArray(raw.steps)) return undefined;
    const steps = raw.steps.filter((s): s is SwapStep => {
      const o = s as Record<string, unknown>;
      return (typeof o.move === 'string' || typeof o.remove === 'string') && !String(o.move ?? o.remove).includes('..');
    });
    return steps.length === raw.steps.length ? { pid: raw.pid, steps } : undefined;
  } catch {
    return undefined;
  }
}
