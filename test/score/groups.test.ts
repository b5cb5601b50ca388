// Redundant groups' necessary units: a copy shared by two overlapping groups is charged only to a group it was
// among the last copies of (docs/measures.md).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Fixture, Oracle } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import { oncePerFixture, scorePoint } from '../../src/score/score.js';

type Groups = { items: string[]; keep?: number }[];

/** Items one a turn; pp1 sees the first `early` of them, pp2 all. n is necessary at both points. */
function fixtureOf(ids: readonly string[], early: number) {
  return Fixture.parse({
    schemaVersion: 1,
    id: 'groups',
    title: 'groups',
    description: 'redundant groups',
    tools: [{ name: 'read', sideEffect: 'pure' }],
    items: ids.map((id, i) => ({
      id,
      turn: i + 1,
      time: `2026-03-04T10:${String(i).padStart(2, '0')}:00Z`,
      origin: 'environment',
      kind: 'tool-result',
      content: `content of ${id}`,
      tool: { name: 'read', arguments: { path: `${id}.txt` }, callId: id },
      status: { state: 'ok' },
    })),
    world: { sources: [], store: [] },
    prunePoints: [
      { id: 'pp1', turn: early, time: '2026-03-04T11:00:00Z', budgetTokens: 50, subgoal: 's' },
      { id: 'pp2', turn: ids.length, time: '2026-03-04T11:01:00Z', budgetTokens: 50, subgoal: 's' },
    ],
  });
}

function oracleOf(pp1: Groups, pp2: Groups) {
  return Oracle.parse({
    schemaVersion: 1,
    fixtureId: 'groups',
    points: [
      { prunePoint: 'pp1', redundantGroups: pp1 },
      { prunePoint: 'pp2', redundantGroups: pp2 },
    ],
  });
}

function scoreAt(fixture: Fixture, oracle: Oracle, pointId: 'pp1' | 'pp2', removed: readonly string[]) {
  const view = buildView(fixture, pointId, (t) => t.length);
  return scorePoint({
    condition: 't',
    fixture,
    point: fixture.prunePoints.find((p) => p.id === pointId)!,
    oracle: oracle.points.find((o) => o.prunePoint === pointId)!,
    view,
    decisions: view.items.map((i) => ({ itemId: i.id, decision: removed.includes(i.id) ? 'PRUNE' : 'KEEP' })),
    removals: removed.map((itemId) => ({ itemId, leftBehind: '', leftBehindTokens: 0 })),
    overheadTokens: 0,
  }).measures;
}

describe('a copy in two overlapping groups', () => {
  // a holds the host and the pool size; b the host again, c the pool size again.
  const f = fixtureOf(['n', 'a', 'b', 'c'], 4);
  const overlap = [{ items: ['a', 'b'] }, { items: ['a', 'c'] }];
  const o = oracleOf(overlap, overlap);
  const at = (removed: string[]) => scoreAt(f, o, 'pp1', removed);

  it('is not charged to the group that keeps another copy, though its removal is a false prune', () => {
    // b goes first, so a is the host group's last copy: judged false, yet the pool group still holds c.
    const m = at(['b', 'a']);
    expect(m.falsePruneRate.numerator).toBe(1);
    expect(m.harm).toEqual({ necessaryItems: 3, necessaryRemoved: 1 });
    expect(m.necessaryUnits.filter((u) => u.removed).map((u) => u.key)).toEqual(['group:a,b#1']);
  });

  it('harms the same units whichever order the same copies go in', () => {
    expect(at(['a', 'b']).harm).toEqual(at(['b', 'a']).harm);
    expect(at(['a', 'b']).necessaryUnits).toEqual(at(['b', 'a']).necessaryUnits);
  });

  it('is charged to both groups when its removal leaves neither a copy', () => {
    expect(at(['b', 'c', 'a']).harm).toEqual({ necessaryItems: 3, necessaryRemoved: 2 });
    expect(at(['a', 'b', 'c']).harm).toEqual({ necessaryItems: 3, necessaryRemoved: 2 });
  });

  it('harms nothing while each group keeps a copy', () => {
    expect(at(['a']).harm).toEqual({ necessaryItems: 3, necessaryRemoved: 0 });
    expect(at(['b', 'c']).harm).toEqual({ necessaryItems: 3, necessaryRemoved: 0 });
  });
});

describe('units of redundant groups at one prune point (property)', () => {
  const ids = ['n', 'a', 'b', 'c', 'd', 'e'];
  const copies = ids.slice(1);
  const f = fixtureOf(ids, ids.length);
  /** Groups as the oracle checker admits them: two or more distinct copies, fewer kept than held. */
  const group = fc
    .subarray(copies, { minLength: 2 })
    .chain((items) => fc.integer({ min: 1, max: items.length - 1 }).map((keep) => ({ items, keep })));
  const removalOrder = fc.shuffledSubarray(ids);

  it('loses no more units than the point holds, nothing when nothing goes, the same in any order, and no fewer when more goes', () => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 1, maxLength: 3 }), removalOrder, removalOrder, (groups, x, y) => {
        const o = oracleOf(groups, groups);
        const harm = (removed: string[]) => scoreAt(f, o, 'pp2', removed).harm!;
        const grouped = new Set(groups.flatMap((g) => g.items));
        const single = ids.filter((id) => !grouped.has(id));
        const declared = single.length + groups.reduce((s, g) => s + g.keep, 0);
        const lost = harm(x);
        expect(lost.necessaryItems).toBe(declared);
        expect(lost.necessaryRemoved).toBeLessThanOrEqual(declared);
        expect(harm([]).necessaryRemoved).toBe(0);
        expect(harm([...x].reverse())).toEqual(lost);
        const superset = [...new Set([...x, ...y])];
        expect(harm(superset).necessaryRemoved).toBeGreaterThanOrEqual(lost.necessaryRemoved);
        // By definition: each necessary item that went, and per group its kept slots that no staying copy fills.
        const gone = new Set(x);
        const expected =
          single.filter((id) => gone.has(id)).length +
          groups.reduce((s, g) => s + Math.max(0, g.keep - g.items.filter((id) => !gone.has(id)).length), 0);
        expect(lost.necessaryRemoved).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });
});

describe('once per fixture', () => {
  it('counts a unit harmed at either point once', () => {
    const f = fixtureOf(['n', 'a', 'b', 'c'], 4);
    const o = oracleOf([{ items: ['a', 'b'] }], [{ items: ['a', 'b'] }]);
    expect(oncePerFixture([scoreAt(f, o, 'pp1', ['a', 'b']), scoreAt(f, o, 'pp2', [])]).harm).toEqual({
      necessaryItems: 3,
      necessaryRemoved: 1,
    });
  });
});
