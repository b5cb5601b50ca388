// What the --policy and --pruner tests share: a module file written to a fresh folder, and `experiment` run with it
// over the one-fixture folder (writeFixture) into a fresh --out.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, type CliResult } from './cli.js';
import { writeFixture } from './minimal.js';

/** Writes `body` as `name` in a fresh temporary folder and returns the file's path. */
export function moduleFile(body: string, name: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'prunelab-module-')), name);
  writeFileSync(file, body);
  return file;
}

/**
 * `experiment --fixtures F --out O` followed by `args`: F a fresh one-fixture folder and O a fresh folder unless
 * given (a test that runs twice into one --out, or several modules on one fixture folder).
 */
export async function experimentOnFixture(
  args: readonly string[],
  at: { readonly fixtures?: string; readonly out?: string } = {},
): Promise<CliResult & { out: string }> {
  const fixtures = at.fixtures ?? writeFixture().dir;
  const out = at.out ?? mkdtempSync(join(tmpdir(), 'prunelab-out-'));
  const r = await cli(['experiment', '--fixtures', fixtures, '--out', out, ...args]);
  return { ...r, out };
}
