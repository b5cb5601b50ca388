// Size bounds with real token counts: sessions of 20 to 2,000 items and at most 500,000 tokens, reads of 200 to
// 15,000 tokens. Checked on the first fixtures of the study seed and on its largest (xl) sessions.
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { rng, subSeed } from '../../src/corpus/rng.js';
import { READ_TOKENS, SESSION_LIMITS, sizeClass } from '../../src/corpus/size.js';
import type { Item } from '../../src/fixture/schema.js';
import { composed } from '../support/composed.js';

const SEED = 20261202;
const READS = new Set(['read_file', 'git_show', 'http_get']);

function indexesOf(cls: string, want: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < 2000 && out.length < want; i += 1)
    if (sizeClass(rng(subSeed(SEED, i)).fork('size')).name === cls) out.push(i);
  return out;
}

describe('generated sizes', () => {
  const tokens = tokenCounter();
  const indexes = [...Array.from({ length: 16 }, (_, i) => i), ...indexesOf('large', 1), ...indexesOf('xl', 2)];
  for (const index of indexes) {
    it(`fixture ${index} stays within the session and read bounds`, () => {
      const c = composed(SEED, index);
      const items = c.fixture['items'] as Item[];
      expect(items.length).toBeGreaterThanOrEqual(SESSION_LIMITS.minItems);
      expect(items.length).toBeLessThanOrEqual(SESSION_LIMITS.maxItems);
      expect(items.reduce((s, it) => s + tokens(it.content), 0)).toBeLessThanOrEqual(SESSION_LIMITS.maxTokens);
      for (const it of items.filter((x) => x.kind === 'tool-result' && READS.has(x.tool!.name))) {
        const n = tokens(it.content);
        expect(n, `${it.id}`).toBeGreaterThanOrEqual(READ_TOKENS.min);
        expect(n, `${it.id}`).toBeLessThanOrEqual(READ_TOKENS.max);
      }
    });
  }

  it('has a large tail: the xl sessions of the study seed are at least ten times the median small one', () => {
    const size = (i: number) =>
      (composed(SEED, i).fixture['items'] as Item[]).reduce((s, it) => s + tokens(it.content), 0);
    const small = indexesOf('small', 5)
      .map(size)
      .sort((a, b) => a - b)[2]!;
    for (const i of indexesOf('xl', 1)) expect(size(i)).toBeGreaterThan(10 * small);
  });
});
