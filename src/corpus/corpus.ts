// The whole generated corpus as file texts, in memory: what fixtures:generate writes and what fixtures:verify
// regenerates to compare against. Fixtures are stored gzip-compressed (`.json.gz`); oracles stay plain JSON.
import { gzipSync } from 'node:zlib';
import { composeFixture, DEFAULT_REMOVABLE_SHARE, type Composed } from './compose.js';

export const GENERATOR = { name: 'prunelab-corpus', version: '5.0.0' } as const;

/** gzip level and header are fixed (Node writes mtime 0), so the same text always compresses to the same bytes. */
export function gzipText(text: string): Buffer {
  return gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
}

/** Indented JSON with lists of plain strings (item ids, residue fields) kept on one line, a third the size. */
export function compactIdLists(json: string): string {
  return json.replace(
    /\[\n(?:\s+"[^",\\\n]*",?\n)+\s*\]/g,
    (list) =>
      `[${list
        .slice(1, -1)
        .split(',')
        .map((s) => s.trim())
        .join(', ')}]`,
  );
}

export interface GeneratedFile {
  readonly id: string;
  /** File names relative to the output folder. */
  readonly fixtureName: string;
  readonly oracleName: string;
  readonly fixtureText: string;
  readonly oracleText: string;
  readonly composed: Composed;
}

export function generatedFile(seed: number, index: number, share: number = DEFAULT_REMOVABLE_SHARE): GeneratedFile {
  const composed = composeFixture(seed, index, share);
  return {
    id: composed.id,
    fixtureName: `${composed.id}.json.gz`,
    oracleName: `oracles/${composed.id}.oracle.json`,
    fixtureText: `${JSON.stringify(composed.fixture, null, 2)}\n`,
    oracleText: `${compactIdLists(JSON.stringify(composed.oracle, null, 2))}\n`,
    composed,
  };
}

/** Calls `each` for fixtures 0..count-1 in order; one at a time, so a large corpus never sits in memory whole. */
export function forEachGenerated(
  seed: number,
  count: number,
  share: number,
  each: (file: GeneratedFile) => void,
): void {
  for (let i = 0; i < count; i += 1) each(generatedFile(seed, i, share));
}
