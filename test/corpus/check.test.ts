// The counterfactual rule of checkClaims: an item labelled necessary must lose a declared obligation when it alone
// is removed. It must refuse a family that labels a non-counterfactual item necessary (a copy of the needed string
// sits in another item in context, or no obligation names it) and accept the same facts declared as a redundant
// group; and every generated fixture must pass it over many seeds and all three shares, checked here again from
// the written fixture and oracle alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DraftItem } from '../../src/corpus/builder.js';
import { checkClaims, lossIfRemoved } from '../../src/corpus/check.js';
import { composeFixture } from '../../src/corpus/compose.js';
import { claims, ob } from '../../src/corpus/family.js';
import type { Item, Obligation } from '../../src/fixture/schema.js';

const item = (id: string, turn: number, content: string): DraftItem => ({
  id,
  turn,
  time: '2026-01-01T00:00:00Z',
  origin: 'model',
  kind: 'reasoning',
  content,
});
const probe = { question: 'q', expectedAnswer: 'a' };
const context = [
  item('a', 1, 'Pinned left-pad to 1.2.3; the crash at frame.ts:12 is gone.'),
  item('b', 2, 'Error at frame.ts:12 in render'),
  item('c', 3, 'unrelated'),
];
const turnOf = new Map(context.map((it) => [it.id, it.turn]));
const run =
  (necessary: string[], obligations: Obligation[], groups: { items: string[]; keep: number }[] = []) =>
  () =>
    checkClaims({
      where: 'test',
      claims: claims({ downstream: obligations, necessary, groups }),
      obligations,
      context,
      necessary: new Set(necessary),
      turnOf,
    });

describe('checkClaims: counterfactual necessity', () => {
  it('refuses an item labelled necessary whose needed string another item in context also holds (the dormant-dependency bug)', () => {
    const trace = ob('ob-trace', 'needs the crash frame', 9, ['b'], ['frame.ts:12'], probe);
    expect(run(['b'], [trace])).toThrow(
      /not counterfactually necessary: "frame.ts:12" is also held by a; the two form a redundant group/,
    );
  });

  it('refuses an item labelled necessary that no obligation names', () => {
    const trace = ob('ob-trace', 'needs the crash frame', 9, ['b'], ['render'], probe);
    expect(run(['b', 'c'], [trace])).toThrow(
      /necessary item c is not counterfactually necessary: removing it alone loses no declared obligation/,
    );
  });

  it('accepts the same copies declared as a redundant group', () => {
    const trace = ob('ob-trace', 'needs the crash frame', 9, ['a', 'b'], ['frame.ts:12'], probe);
    expect(run([], [trace], [{ items: ['a', 'b'], keep: 1 }])).not.toThrow();
  });

  it('accepts an item that alone holds a needed string, and one an obligation needs without strings', () => {
    expect(run(['b'], [ob('ob-render', 'needs where it failed', 9, ['b'], ['in render'], probe)])).not.toThrow();
    expect(run(['c'], [ob('ob-item', 'needs the item itself', 9, ['c'], [], probe)])).not.toThrow();
    expect(lossIfRemoved('b', [ob('ob-render', 'x', 9, ['b'], ['in render'], probe)], context)).toMatch(
      /loses "in render"/,
    );
    expect(lossIfRemoved('b', [ob('ob-frame', 'x', 9, ['b'], ['frame.ts:12'], probe)], context)).toBeUndefined();
  });

  // Strings of 16 characters and more are first looked up in the run index of held.ts, which may only say "held by
  // no other item": both answers must still be the search's.
  it('judges long needed strings as a search of every other item would, a copy in an error status included', () => {
    const long = 'TypeError: cannot read properties of undefined (reading "map")';
    const needs = (s: string) => [ob('ob-long', 'x', 9, ['b'], [s], probe)];
    const alone = [item('a', 1, 'nothing like it'), item('b', 2, `at render\n${long}\n  at frame.ts:12`)];
    expect(lossIfRemoved('b', needs(long), alone)).toMatch(/loses "TypeError/);
    const copied = [...alone, item('c', 3, `saw ${long} again`)];
    expect(lossIfRemoved('b', needs(long), copied)).toBeUndefined();
    const inStatus: DraftItem = {
      ...item('e', 3, 'the run failed'),
      kind: 'tool-result',
      origin: 'environment',
      status: { state: 'error', errorType: 'TypeError', message: long.slice(11), fields: {} },
    };
    expect(lossIfRemoved('b', needs(long.slice(11)), [...alone, inStatus])).toBeUndefined();
    // Near misses do not count as copies: one character changed, or the string cut across two items.
    const near = [...alone, item('c', 3, long.replace('map', 'mop')), item('d', 4, long.slice(0, 30))];
    expect(lossIfRemoved('b', needs(long), near)).toMatch(/loses/);
    // An item with the same id elsewhere in context is the item itself, not another holder.
    expect(lossIfRemoved('b', needs(long), [...alone, item('b', 5, long)])).toMatch(/loses/);
  });
});

describe('every generated necessary item is counterfactually necessary (property)', () => {
  it('holds from the written fixture and oracle alone, over seeds, indexes and shares', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 0, max: 399 }),
        fc.constantFrom(0.15, 0.3, 0.6),
        (seed, index, share) => {
          const c = composeFixture(seed, index, share);
          const items = c.fixture['items'] as Item[];
          const points = c.fixture['prunePoints'] as {
            turn: number;
            visible: { obligations: Obligation[] };
            downstream: Obligation[];
          }[];
          points.forEach((p, k) => {
            const o = c.oracle.points[k]!;
            const context = items.filter((it) => it.turn <= p.turn);
            const kept = new Set([
              ...o.removable,
              ...o.partial.map((x) => x.itemId),
              ...o.redundantGroups.flatMap((g) => g.items),
            ]);
            const obligations = [...p.visible.obligations, ...p.downstream];
            for (const it of context.filter((x) => !kept.has(x.id)))
              expect(lossIfRemoved(it.id, obligations, context), `${c.id} ${it.id}`).toBeDefined();
          });
        },
      ),
      // Each run composes a fixture and judges every item's removal alone (about 150 ms): 20 seeds, indexes and shares.
      { numRuns: 20 },
    );
  }, 300_000);
});
