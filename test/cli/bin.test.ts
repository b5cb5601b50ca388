import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The real entry point, run as `npm run experiment` runs it (through the launcher, on the compiled copy): exit codes
// and streams reach the shell.
function bin(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/launch.mjs', 'src/cli/bin.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

describe('the prunelab entry point', () => {
  it('exits 0 and prints the condition list', () => {
    const r = bin('experiment', '--list');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('ladder-0-3');
  });

  it('exits 2 with the message on stderr for an unknown condition', () => {
    const r = bin('experiment', '--condition', 'nope');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown condition "nope"');
  });
});

describe('the process boundary', () => {
  it('no module under src/ but src/cli/bin.ts touches the process streams (notebook display lives in notebooks/)', () => {
    const files = (readdirSync('src', { recursive: true, encoding: 'utf8' }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join('src', f));
    const touching = files
      .filter((f) => /process\.(stdout|stderr)/.test(readFileSync(f, 'utf8')))
      .map((f) => f.split('\\').join('/'));
    expect(touching).toEqual(['src/cli/bin.ts']);
  });
});
