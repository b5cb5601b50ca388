// Redundant groups' necessary units: a copy shared by two overlapping groups is charged only to a group it was
// among the last copies of, and a group whose copies change between prune points is one group (docs/measures.md).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { runStudy } from '../../src/engine/run.js';
import { deepFreeze } from '../../src/fixture/freeze.js';
import { Fixture, Oracle } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import { loadFixture } from '../../src/load/fixtures.js';
import { getCondition } from '../../src/policy/registry.js';
import { groupIdentities } from '../../src/score/groups.js';
import { oncePerFixture, scorePoint } from '../../src/score/score.js';

type Groups = { items: string[]; keep?: number }[];
type At = Groups | { groups: Groups; removable: string[] };

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

function oracleOf(pp1: At, pp2: At) {
  const point = (prunePoint: string, at: At) =>
    Array.isArray(at)
      ? { prunePoint, redundantGroups: at }
      : { prunePoint, redundantGroups: at.groups, removable: at.removable };
  return Oracle.parse({ schemaVersion: 1, fixtureId: 'groups', points: [point('pp1', pp1), point('pp2', pp2)] });
}

function scoreAt(
  fixture: Fixture,
  oracle: Oracle,
  pointId: 'pp1' | 'pp2',
  removed: readonly string[],
  whole: Oracle | null = oracle,
) {
  const view = buildView(fixture, pointId, (t) => t.length);
  return scorePoint({
    condition: 't',
    fixture,
    point: fixture.prunePoints.find((p) => p.id === pointId)!,
    oracle: oracle.points.find((o) => o.prunePoint === pointId)!,
    fixtureOracle: whole,
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

describe('a redundant group whose copies change between prune points', () => {
  // pp1 sees n, a, b; pp2 also c and d.
  const f = fixtureOf(['n', 'a', 'b', 'c', 'd'], 3);
  const once = (o: Oracle, pp1: string[], pp2: string[], whole: Oracle | null = o) =>
    oncePerFixture([scoreAt(f, o, 'pp1', pp1, whole), scoreAt(f, o, 'pp2', pp2, whole)]).harm;

  it('is one unit when it gains a copy, harmed when lost at either point', () => {
    const o = oracleOf([{ items: ['a', 'b'] }], { groups: [{ items: ['a', 'b', 'c'] }], removable: ['d'] });
    expect(once(o, [], [])).toEqual({ necessaryItems: 2, necessaryRemoved: 0 });
    expect(once(o, ['a', 'b'], [])).toEqual({ necessaryItems: 2, necessaryRemoved: 1 });
    expect(once(o, ['a', 'b'], ['a', 'b', 'c'])).toEqual({ necessaryItems: 2, necessaryRemoved: 1 });
    // Keyed by its copies at each point alone, as without the whole oracle, it would be two.
    expect(once(o, [], [], null)).toEqual({ necessaryItems: 3, necessaryRemoved: 0 });
  });

  it('is one unit when it loses a copy', () => {
    const g = fixtureOf(['n', 'a', 'b', 'c', 'd'], 4);
    const o = oracleOf([{ items: ['a', 'b', 'c'] }], { groups: [{ items: ['b', 'c'] }], removable: ['a', 'd'] });
    const units = [scoreAt(g, o, 'pp1', []), scoreAt(g, o, 'pp2', [])];
    expect(oncePerFixture(units).harm).toEqual({ necessaryItems: 2, necessaryRemoved: 0 });
  });

  it('keeps each of its keep slots one unit as it grows', () => {
    const g = fixtureOf(['n', 'a', 'b', 'c', 'd'], 4);
    const o = oracleOf([{ items: ['a', 'b', 'c'], keep: 2 }], [{ items: ['a', 'b', 'c', 'd'], keep: 2 }]);
    const harm = (pp1: string[], pp2: string[]) =>
      oncePerFixture([scoreAt(g, o, 'pp1', pp1), scoreAt(g, o, 'pp2', pp2)]).harm;
    expect(harm([], [])).toEqual({ necessaryItems: 3, necessaryRemoved: 0 });
    expect(harm(['a', 'b'], ['a', 'b', 'c'])).toEqual({ necessaryItems: 3, necessaryRemoved: 1 });
    expect(harm(['a', 'b', 'c'], [])).toEqual({ necessaryItems: 3, necessaryRemoved: 2 });
  });

  it('counts two groups with no copy in common as two units, each lost once', () => {
    const o = oracleOf([{ items: ['a', 'b'] }], { groups: [{ items: ['c', 'd'] }], removable: ['a', 'b'] });
    expect(once(o, [], [])).toEqual({ necessaryItems: 3, necessaryRemoved: 0 });
    expect(once(o, ['a', 'b'], ['c', 'd'])).toEqual({ necessaryItems: 3, necessaryRemoved: 2 });
  });

  it('counts a group whose copies both left and joined as a new group: a shared copy need not mean the same fact', () => {
    const o = oracleOf([{ items: ['a', 'b'] }], { groups: [{ items: ['b', 'c'] }], removable: ['a', 'd'] });
    expect(once(o, [], [])).toEqual({ necessaryItems: 3, necessaryRemoved: 0 });
  });

  it('keeps two overlapping groups two when one of them grows, whatever order the oracle lists them in', () => {
    const pp1 = [{ items: ['a', 'b'] }, { items: ['a', 'c'] }];
    const g = fixtureOf(['n', 'a', 'b', 'c', 'd'], 4);
    const o = oracleOf(pp1, [{ items: ['a', 'c'] }, { items: ['a', 'b', 'd'] }]);
    const points = [scoreAt(g, o, 'pp1', []), scoreAt(g, o, 'pp2', ['b', 'd', 'a'])];
    expect(oncePerFixture(points).harm).toEqual({ necessaryItems: 3, necessaryRemoved: 1 });
    expect(points[1]!.necessaryUnits.filter((u) => u.removed).map((u) => u.key)).toEqual(['group:a,b#1']);
  });
});

describe('units derived once per frozen view', () => {
  it('are keyed as a fresh view keys them, whether the whole oracle is given first, later or not at all', () => {
    const fresh = fixtureOf(['n', 'a', 'b', 'c', 'd'], 3);
    const o = oracleOf([{ items: ['a', 'b'] }], { groups: [{ items: ['a', 'b', 'c'] }], removable: ['d'] });
    const unitsAt = (
      fixture: Fixture,
      oracle: Oracle,
      whole: Oracle | null,
      view = buildView(fixture, 'pp2', (t) => t.length),
    ) =>
      scorePoint({
        condition: 't',
        fixture,
        point: fixture.prunePoints[1]!,
        oracle: oracle.points[1]!,
        fixtureOracle: whole,
        view,
        decisions: [],
        removals: [{ itemId: 'a', leftBehind: '', leftBehindTokens: 0 }],
        overheadTokens: 0,
      }).measures.necessaryUnits;
    const expected = { whole: unitsAt(fresh, o, o), alone: unitsAt(fresh, o, null) };
    expect(expected.whole).not.toEqual(expected.alone);
    for (const order of [
      ['whole', 'alone', 'whole'],
      ['alone', 'whole', 'alone'],
    ] as const) {
      const f = deepFreeze(structuredClone(fresh));
      const frozen = deepFreeze(structuredClone(o));
      const view = buildView(f, 'pp2', (t) => t.length);
      for (const ask of order) expect(unitsAt(f, frozen, ask === 'whole' ? frozen : null, view)).toEqual(expected[ask]);
    }
  });
});

describe('group identities (property)', () => {
  const copies = ['a', 'b', 'c', 'd', 'e'];
  const group = fc.subarray(copies, { minLength: 2 }).map((items) => ({ items }));
  const ids = ['n', ...copies];
  const f = fixtureOf(ids, ids.length);

  it('never gives two groups of one point one identity, and names a group that never changes by its copies', () => {
    fc.assert(
      fc.property(fc.array(group, { maxLength: 3 }), fc.array(group, { maxLength: 3 }), (pp1, pp2) => {
        const o = oracleOf(pp1, pp2);
        const known = groupIdentities(f, o);
        for (const [point, groups] of [
          ['pp1', pp1],
          ['pp2', pp2],
        ] as const) {
          const keys = known.get(point)!;
          expect(keys).toHaveLength(groups.length);
          expect(new Set(keys).size).toBe(keys.length);
        }
        const unchanged = (g: { items: string[] }) => `group:${[...g.items].sort().join(',')}`;
        if (JSON.stringify(pp1) === JSON.stringify(pp2) && new Set(pp1.map(unchanged)).size === pp1.length)
          expect(known.get('pp2')).toEqual(pp1.map(unchanged));
      }),
      { numRuns: 150 },
    );
  });

  it('counts no more units once per fixture than at both points together, nor fewer than at either', () => {
    fc.assert(
      fc.property(
        fc.array(group, { maxLength: 3 }),
        fc.array(group, { maxLength: 3 }),
        fc.subarray(ids),
        fc.subarray(ids),
        (pp1, pp2, x, y) => {
          const o = oracleOf(pp1, pp2);
          const a = scoreAt(f, o, 'pp1', x);
          const b = scoreAt(f, o, 'pp2', y);
          const whole = oncePerFixture([a, b]).harm!;
          for (const k of ['necessaryItems', 'necessaryRemoved'] as const) {
            expect(whole[k]).toBeLessThanOrEqual(a.harm![k] + b.harm![k]);
            expect(whole[k]).toBeGreaterThanOrEqual(Math.max(a.harm![k], b.harm![k]));
          }
          expect(oncePerFixture([scoreAt(f, o, 'pp1', []), scoreAt(f, o, 'pp2', [])]).harm!.necessaryRemoved).toBe(0);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('the engine', () => {
  it("counts failed-call-input-explains' git status outputs, two copies then three, as one unit", () => {
    const loaded = loadFixture('fixtures/canonical/failed-call-input-explains.json', process.cwd());
    const [run] = runStudy({
      conditions: [getCondition('prune-all')!],
      fixtures: [loaded],
      timing: { kind: 'immediate' },
      placeholders: 'marker',
      tokens: tokenCounter(),
    });
    const keys = new Set(run!.points.flatMap((p) => p.necessaryUnits.map((u) => u.key)));
    expect([...keys].filter((k) => k.startsWith('group:'))).toEqual(['group:r-gs1,r-gs2#1']);
    const h = run!.summary.perFixture[0]!.harm!;
    expect(h.necessaryRemoved).toBe(h.necessaryItems);
    expect(h.necessaryItems).toBe(keys.size);
  });
});
