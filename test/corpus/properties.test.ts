// Over random seeds: an item an obligation needs is never in `removable` unless the obligation itself says a
// pointer or re-read satisfies it, and then that recovery really returns the needed strings from the world.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeFixture } from '../../src/corpus/compose.js';
import { Fixture } from '../../src/fixture/schema.js';
import { reread, resolvePointer } from '../../src/fixture/world.js';

describe('generated oracles (property)', () => {
  it('never list an item an unrecoverable obligation needs as removable', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.nat(300), (seed, index) => {
      const c = composeFixture(seed, index);
      const f = Fixture.parse(JSON.parse(JSON.stringify(c.fixture)));
      for (const point of f.prunePoints) {
        const oracle = c.oracle.points.find((p) => p.prunePoint === point.id)!;
        const removable = new Set(oracle.removable);
        for (const o of [...point.visible.obligations, ...point.downstream]) {
          for (const id of o.needs.itemIds.filter((x) => removable.has(x))) {
            expect(o.pointerSatisfies || o.rereadSatisfies, `${f.id} ${point.id} ${o.id} ${id}`).toBe(true);
            const item = f.items.find((it) => it.id === id)!;
            const viaPointer = o.pointerSatisfies && item.flags.durablePointer ? resolvePointer(f.world, item.flags.durablePointer, o.neededAtTurn) : undefined;
            const viaReread = o.rereadSatisfies && item.source ? reread(f.world, item.source.identity, o.neededAtTurn) : undefined;
            for (const s of o.needs.strings) {
              expect((viaPointer?.resolved ? viaPointer.content : '').includes(s) || (viaReread ?? '').includes(s)).toBe(true);
            }
          }
        }
      }
    }), { numRuns: 12 });
  });
});
