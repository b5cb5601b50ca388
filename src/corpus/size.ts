// The designed size distribution: most sessions moderate, a controlled tail large. Shares and bounds are choices
// (see fixtures/generated/README.md), not measurements of real sessions.
import type { Rng } from './rng.js';

export interface SizeClass {
  readonly name: 'small' | 'medium' | 'large' | 'xl';
  /** Share of the corpus, in percent. */
  readonly share: number;
  readonly items: readonly [number, number];
  /** Upper bound on the session's tokens as the generator estimates them (characters / 3.6). */
  readonly tokenBudget: number;
  /** Median size of a filler read, in tokens. */
  readonly readMedian: number;
}

export const SIZE_CLASSES: readonly SizeClass[] = [
  { name: 'small', share: 60, items: [20, 60], tokenBudget: 25_000, readMedian: 240 },
  { name: 'medium', share: 32, items: [60, 200], tokenBudget: 60_000, readMedian: 200 },
  { name: 'large', share: 6, items: [200, 900], tokenBudget: 160_000, readMedian: 320 },
  { name: 'xl', share: 2, items: [900, 1_900], tokenBudget: 420_000, readMedian: 320 },
];

/** Reads (tool results of read and show calls) stay within these token bounds. */
export const READ_TOKENS = { min: 200, max: 15_000 } as const;
/** The largest read the generator asks for: below READ_TOKENS.max with room for tokenizer variation. */
export const READ_TARGET_MAX = 11_500;
export const SESSION_LIMITS = { minItems: 20, maxItems: 2_000, maxTokens: 500_000 } as const;

export function sizeClass(r: Rng): SizeClass {
  let x = r.next() * 100;
  for (const c of SIZE_CLASSES) {
    x -= c.share;
    if (x < 0) return c;
  }
  return SIZE_CLASSES[0]!;
}
