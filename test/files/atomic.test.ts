// A writer killed at any file operation of its swap leaves a folder that the next process restores to the old
// output or the new one, whole; and only a dead writer's leftovers are touched.
import * as realFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { commitSwap, findDebris, recoverDebris, removeDeadTemps, type SwapStep } from '../../src/files/atomic.js';
import { deadPid, tree } from '../support/debris.js';

// Every rename, removal and write the swap makes counts down; at zero the "process" dies mid-swap.
const ops = { left: Number.POSITIVE_INFINITY };
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const guard =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    (...a: A): R => {
      if (ops.left <= 0) throw new Error('killed');
      ops.left -= 1;
      return f(...a);
    };
  const patched = {
    ...fs,
    renameSync: guard(fs.renameSync),
    rmSync: guard(fs.rmSync),
    writeFileSync: guard(fs.writeFileSync),
  };
  return { ...patched, default: patched };
});

const { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } = realFs;

function write(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}

const OLD = {
  'a/x.txt': 'old a',
  'b/x.txt': 'old b',
  'stale/x.txt': 'old stale',
  'manifest.json': 'old manifest',
  'tables/t.md': 'kept',
};
const NEW = {
  'a/x.txt': 'new a',
  'b/x.txt': 'new b',
  'c/x.txt': 'new c',
  'manifest.json': 'new manifest',
  'tables/t.md': 'kept',
};
const STEPS: SwapStep[] = [{ move: 'a' }, { move: 'b' }, { move: 'c' }, { move: 'manifest.json' }, { remove: 'stale' }];

/** Renames what this process left so it looks like the leftovers of the process `pid`. */
function orphan(dir: string, pid: number): void {
  for (const d of findDebris(dir)) {
    if (d.pid !== process.pid) continue;
    const name = d.name.replace(new RegExp(`${process.pid}(\\.tmp)?$`), `${pid}$1`);
    renameSync(join(dir, d.name), join(dir, name));
    const journal = join(dir, name, 'SWAP.json');
    if (d.kind === 'staging' && realFs.existsSync(journal)) {
      writeFileSync(journal, readFileSync(journal, 'utf8').replace(`"pid": ${process.pid}`, `"pid": ${pid}`));
    }
  }
}

describe('a journaled swap killed at any operation', () => {
  it('is restored by the next process to the old output before the commit point and the new one after it', () => {
    const pid = deadPid();
    let outcomes = { old: 0, new: 0 };
    for (let n = 0; ; n += 1) {
      const dir = mkdtempSync(join(tmpdir(), 'prunelab-swap-'));
      write(dir, OLD);
      const staging = join(dir, `.staging-${process.pid}`);
      write(staging, Object.fromEntries(Object.entries(NEW).filter(([f]) => !f.startsWith('tables/'))));
      ops.left = n;
      let killed = false;
      try {
        commitSwap(dir, staging, STEPS);
      } catch (err) {
        killed = (err as Error).message === 'killed';
        if (!killed) throw err;
      } finally {
        ops.left = Number.POSITIVE_INFINITY;
      }
      if (!killed) {
        expect(tree(dir)).toEqual(NEW);
        break;
      }
      const committed = realFs.existsSync(join(staging, 'SWAP.json'));
      orphan(dir, pid);
      const r = recoverDebris(dir);
      expect(tree(dir), `killed after ${n} operations`).toEqual(committed ? NEW : OLD);
      expect(findDebris(dir)).toEqual([]);
      if (committed) expect(r.finished).toEqual([`.staging-${pid}`]);
      outcomes = committed ? { ...outcomes, new: outcomes.new + 1 } : { ...outcomes, old: outcomes.old + 1 };
    }
    // Both sides of the commit point were exercised: kills while staging the journal and kills during the moves.
    expect(outcomes.old).toBeGreaterThan(0);
    expect(outcomes.new).toBeGreaterThan(4);
  });
});

describe('recoverDebris', () => {
  it("removes a dead writer's uncommitted staging, set-aside folders and temporary files, and leaves the output", () => {
    const pid = deadPid();
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-debris-'));
    write(dir, {
      ...OLD,
      [`.staging-${pid}/a/x.txt`]: 'half written',
      [`.staging-report-${pid}/tables/t.md`]: 'half',
      [`b.old-${pid}/x.txt`]: 'older b',
      [`manifest.json.${pid}.tmp`]: 'partial',
    });
    const r = recoverDebris(dir);
    expect(tree(dir)).toEqual(OLD);
    expect([...r.removed].sort()).toEqual(
      [`.staging-${pid}`, `.staging-report-${pid}`, `b.old-${pid}`, `manifest.json.${pid}.tmp`].sort(),
    );
  });

  it('puts a set-aside folder back when a kill left nothing in its place', () => {
    const pid = deadPid();
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-debris-'));
    write(dir, { 'manifest.json': 'm', [`a.old-${pid}/x.txt`]: 'old a' });
    recoverDebris(dir);
    expect(tree(dir)).toEqual({ 'manifest.json': 'm', 'a/x.txt': 'old a' });
  });

  it('leaves what a running writer has in the folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-debris-'));
    const live = {
      [`.staging-${process.pid}/a/x.txt`]: 'being written',
      [`a.old-${process.pid}/x.txt`]: 'being replaced',
    };
    write(dir, { ...OLD, ...live });
    expect(recoverDebris(dir)).toEqual({ finished: [], removed: [] });
    expect(tree(dir)).toEqual({ ...OLD, ...live });
    expect(
      findDebris(dir)
        .map((d) => d.kind)
        .sort(),
    ).toEqual(['old', 'staging']);
  });
});

describe('removeDeadTemps', () => {
  it('removes the temporary folders of dead processes with the prefix, and nothing else', () => {
    const pid = deadPid();
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-temps-'));
    write(dir, {
      [`prunelab-check-${pid}-abc/manifest.json`]: 'x',
      [`prunelab-check-${process.pid}-def/manifest.json`]: 'y',
      'prunelab-check-old/x': 'z',
      [`other-${pid}-a/x`]: 'w',
    });
    expect(removeDeadTemps(dir, 'prunelab-check-')).toEqual([`prunelab-check-${pid}-abc`]);
    expect(Object.keys(tree(dir)).sort()).toEqual([
      `other-${pid}-a/x`,
      `prunelab-check-${process.pid}-def/manifest.json`,
      'prunelab-check-old/x',
    ]);
  });
});
