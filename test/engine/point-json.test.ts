// A point's JSON line, with its shared obligation outcomes stringified once each and spliced in, must be exactly
// what JSON.stringify writes for the whole point, whatever the point's other fields hold (the slot's own text too).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PointMeasures } from '../../src/artifacts/schema.js';
import { deepFreeze } from '../../src/fixture/freeze.js';
import { pointJson } from '../../src/engine/write.js';

const TEXT = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('\u0000obligation outcomes\u0000', 'x"\u0000obligation outcomes\u0000', '"\\u0000', 'é😀'),
);
const outcomeArb = fc.record({
  id: TEXT,
  visibility: fc.constantFrom('visible', 'downstream'),
  preserved: fc.boolean(),
  how: fc.constantFrom('present', 'pointer', 're-read', 'lost'),
  missing: fc.array(TEXT, { maxLength: 3 }),
});
const pointArb = fc.tuple(
  fc.array(outcomeArb, { maxLength: 4 }).map((os) => os.map((o) => deepFreeze(o))),
  fc.array(fc.nat(8), { maxLength: 8 }),
  fc.boolean(),
  TEXT,
  TEXT,
);

describe("a point's JSON with its outcomes spliced in", () => {
  it('is JSON.stringify of the whole point, for frozen shared outcomes and fresh ones', () => {
    fc.assert(
      fc.property(pointArb, ([pool, picks, freeze, fixture, after]) => {
        const chosen = picks.flatMap((i) => (pool.length > 0 ? [pool[i % pool.length]!] : []));
        const outcomes = freeze ? chosen : chosen.map((o) => structuredClone(o));
        const point = { fixture, prunePoint: 'p', obligationOutcomes: outcomes, behaviour: { note: after } };
        const text = pointJson(point as unknown as PointMeasures);
        expect(text).toBe(JSON.stringify(point));
        // Asked again, the memoised outcomes give the same text.
        expect(pointJson(point as unknown as PointMeasures)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the key order of a point stamped exploratory in front', () => {
    fc.assert(
      fc.property(pointArb, ([outcomes, , , fixture, after]) => {
        const point = { exploratory: true, fixture, obligationOutcomes: outcomes, tokens: { raw: after.length } };
        expect(pointJson(point as unknown as PointMeasures)).toBe(JSON.stringify(point));
      }),
      { numRuns: 100 },
    );
  });
});
