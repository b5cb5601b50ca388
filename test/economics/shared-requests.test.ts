// What the request-sequence model now derives once per (frozen) context and shares between conditions must be what
// deriving it afresh gives: the last request's time before a prune point, and the model calls between two points.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../src/fixture/freeze.js';
import { followingRequests, previousRequestTime } from '../../src/economics/sequence.js';

const TIMES = ['2026-03-04T10:00:00Z', '2026-03-04T10:01:00Z', '2026-03-04T10:01:00.000Z', '2026-03-04T10:02:30Z'];
const itemArb = fc.record({
  origin: fc.constantFrom('model' as const, 'user' as const, 'environment' as const),
  time: fc.constantFrom(...TIMES),
  turn: fc.nat(12),
});
const asksArb = fc.array(
  fc.record({
    previous: fc.option(fc.constantFrom(...TIMES), { nil: null }),
    from: fc.nat(12),
    until: fc.option(fc.nat(14), { nil: null }),
  }),
  { minLength: 1, maxLength: 12 },
);

describe('request facts shared by every condition at a prune point', () => {
  it('are, asked in any order and again, what a fresh (unfrozen) context gives', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 10 }), asksArb, (items, asks) => {
        const frozen = deepFreeze(structuredClone(items));
        for (const ask of [...asks, ...asks]) {
          const open = structuredClone(items);
          expect(previousRequestTime({ items: frozen }, ask.previous)).toBe(
            previousRequestTime({ items: open }, ask.previous),
          );
          expect(followingRequests(frozen, ask.from, ask.until)).toBe(followingRequests(open, ask.from, ask.until));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('follow an unfrozen context when it changes', () => {
    const items = [{ origin: 'model' as const, time: TIMES[0]!, turn: 1 }];
    expect(previousRequestTime({ items }, null)).toBe(TIMES[0]);
    expect(followingRequests(items, 0, null)).toBe(1);
    items.push({ origin: 'model', time: TIMES[3]!, turn: 2 });
    expect(previousRequestTime({ items }, null)).toBe(TIMES[3]);
    expect(followingRequests(items, 0, null)).toBe(2);
  });
});
