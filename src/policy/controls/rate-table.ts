// A frozen table of removable rates by one feature key, fitted on a training corpus (a different generator seed from
// the study's, so the study's oracles are never read): what the feature-reading controls know. The table carries
// the sha256 of its own content, so an edit by hand is caught when the table is read.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { failure } from '../../errors.js';
import { canonicalJson, sha256 } from '../../fixture/canonical.js';

export const RateTable = z.strictObject({
  control: z.string().min(1),
  /** What the key is, in words. */
  key: z.string().min(1),
  training: z.strictObject({
    generator: z.strictObject({ name: z.string(), version: z.string() }),
    seed: z.int(),
    count: z.int().positive(),
    rows: z.int().nonnegative(),
    removable: z.int().nonnegative(),
  }),
  /** Pseudo-rows at the training base rate added to every key's counts. */
  smoothing: z.number().nonnegative(),
  entries: z.record(z.string(), z.strictObject({ rows: z.int().positive(), removable: z.int().nonnegative() })),
  /** sha256 of the canonical JSON of every other field. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type RateTable = z.infer<typeof RateTable>;

export function tableHash(table: Omit<RateTable, 'sha256'>): string {
  return sha256(canonicalJson(table));
}

/** A table with its hash set, rendered as the committed file holds it. */
export function rateTableText(table: Omit<RateTable, 'sha256'>): string {
  return `${JSON.stringify({ ...table, sha256: tableHash(table) }, null, 2)}\n`;
}

export function readRateTable(file: string, shownAs: string): RateTable {
  let parsed: RateTable;
  try {
    parsed = RateTable.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (err) {
    throw failure('PL_CONTROL_TABLE', shownAs, (err as Error).message.split('\n')[0] ?? String(err));
  }
  const { sha256: recorded, ...rest } = parsed;
  const actual = tableHash(rest);
  if (actual !== recorded)
    throw failure(
      'PL_CONTROL_TABLE',
      shownAs,
      `its content hashes to ${actual}, not the recorded ${recorded} (retrain it with npm run controls:train)`,
    );
  return parsed;
}

/** The smoothed removable rate of a key; a key the training corpus never showed gets the training base rate. */
export function estimateOf(table: RateTable, key: string): number {
  const base = table.training.rows === 0 ? 0 : table.training.removable / table.training.rows;
  const e = table.entries[key];
  return e ? (e.removable + table.smoothing * base) / (e.rows + table.smoothing) : base;
}
