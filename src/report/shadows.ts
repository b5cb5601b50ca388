// Differences between a real package and the reimplementation it shadows, reported rather than hidden: for each
// pair that ran in one results folder, per fixture, how many item decisions differ, and which side pruned. Read from
// the decision logs (an item's decision is not in the point measures the other tables use).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAYOUT } from '../engine/write.js';
import type { ConditionDefinition } from '../policy/definition.js';

export interface ShadowPair {
  readonly package: string;
  readonly reimplementation: string;
}

export interface ShadowRow extends ShadowPair {
  readonly fixture: string;
  /** Item decisions at prune points both conditions decided. */
  readonly items: number;
  readonly disagree: number;
  /** The package pruned, the reimplementation did not; and the other way round. */
  readonly packageOnly: number;
  readonly reimplementationOnly: number;
}

export const SHADOWS_TABLE = 'shadows';

export function shadowPairs(definitions: readonly ConditionDefinition[]): ShadowPair[] {
  return definitions.flatMap((d) => (d.shadows ? [{ package: d.name, reimplementation: d.shadows }] : []));
}

interface Decided {
  readonly fixture: string;
  readonly prunePoint: string;
  readonly itemId: string;
  readonly decision: string;
}

/**
 * Every decision a condition's folder logged in plain text, keyed by fixture, prune point and item. The compressed
 * logs of the generated corpus are regenerable and not committed, so a table read from them would differ between a
 * fresh clone and the machine that ran the study: the comparison covers the plain tier (the canonical fixtures).
 */
function decisionsOf(dir: string, condition: string): Map<string, Decided> {
  const out = new Map<string, Decided>();
  const folder = join(dir, condition);
  const texts = [
    existsSync(join(folder, LAYOUT.decisions)) ? readFileSync(join(folder, LAYOUT.decisions), 'utf8') : '',
  ];
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const d = JSON.parse(line) as Decided;
      out.set(`${d.fixture}\u0000${d.prunePoint}\u0000${d.itemId}`, d);
    }
  }
  return out;
}

/** Per-fixture disagreement counts for each pair whose two conditions both have a folder in `dir`. */
export function shadowRows(dir: string, pairs: readonly ShadowPair[]): ShadowRow[] {
  const rows: ShadowRow[] = [];
  for (const pair of pairs) {
    if (!existsSync(join(dir, pair.package)) || !existsSync(join(dir, pair.reimplementation))) continue;
    const a = decisionsOf(dir, pair.package);
    const b = decisionsOf(dir, pair.reimplementation);
    const byFixture = new Map<
      string,
      { items: number; disagree: number; packageOnly: number; reimplementationOnly: number }
    >();
    for (const [key, da] of a) {
      const db = b.get(key);
      if (!db) continue;
      const row = byFixture.get(da.fixture) ?? { items: 0, disagree: 0, packageOnly: 0, reimplementationOnly: 0 };
      row.items += 1;
      if (da.decision !== db.decision) row.disagree += 1;
      if (da.decision === 'PRUNE' && db.decision !== 'PRUNE') row.packageOnly += 1;
      if (db.decision === 'PRUNE' && da.decision !== 'PRUNE') row.reimplementationOnly += 1;
      byFixture.set(da.fixture, row);
    }
    for (const fixture of [...byFixture.keys()].sort()) rows.push({ ...pair, fixture, ...byFixture.get(fixture)! });
  }
  return rows;
}

const HEADER = [
  'package',
  'reimplementation',
  'fixture',
  'items',
  'disagree',
  'package only prunes',
  'reimplementation only prunes',
];

const cells = (r: ShadowRow): string[] => [
  r.package,
  r.reimplementation,
  r.fixture,
  String(r.items),
  String(r.disagree),
  String(r.packageOnly),
  String(r.reimplementationOnly),
];

/**
 * The first line of every table the preregistration does not name (tables.ts's EXPLORATORY_STAMP, repeated here so
 * that this module stays free of the analysis): the shadows table is not one of the preregistered tables.
 */
export const SHADOWS_STAMP = 'Exploratory: not preregistered';

export function shadowsMarkdown(rows: readonly ShadowRow[], stamped = true): string {
  const lines = [
    ...(stamped ? [SHADOWS_STAMP, ''] : []),
    '# A package against the reimplementation it shadows',
    '',
    "Exploratory. Per fixture whose decision log is kept in plain text (the canonical fixtures; the generated corpus's compressed logs are regenerable and not committed): item decisions at the prune points both conditions decided, how many differ, and which side pruned where the other did not.",
    '',
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${cells(r).join(' | ')} |`),
  ];
  return `${lines.join('\n')}\n`;
}

export function shadowsCsv(rows: readonly ShadowRow[], stamped = true): string {
  return `${stamped ? `${SHADOWS_STAMP}\n` : ''}${[HEADER, ...rows.map(cells)].map((row) => row.join(',')).join('\n')}\n`;
}
