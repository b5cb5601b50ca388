// What the tests of killed runs share: the pid of a process that has exited, and a folder's files as text.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { processAlive } from '../../src/files/atomic.js';

/** The pid of a process that has exited: what a killed run leaves its folders named after. */
export function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid!;
  expect(processAlive(pid)).toBe(false);
  return pid;
}

/** Every file under dir (debris folders included), relative with forward slashes, with its bytes as latin1 text. */
export function tree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, tree(dir, rel));
    else out[rel] = readFileSync(join(dir, rel), 'latin1');
  }
  return out;
}
