// Harm counts necessary units: a necessary item, a partial item's residue, a redundant group's `keep` slots; and a
// fixture counts each unit and each obligation once, however many prune points hold it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deepFreeze } from '../../src/fixture/freeze.js';
import { Fixture, Oracle } from '../../src/fixture/schema.js';
import { residueText } from '../../src/fixture/residue.js';
import { buildView } from '../../src/fixture/view.js';
import { oncePerFixture, scorePoint, sumOnce, type AppliedRemoval } from '../../src/score/score.js';

const ids = ['n1', 'p1', 'g1', 'g2', 'g3', 'r1'];
const f = Fixture.parse({
  schemaVersion: 1,
  id: 'harm',
  title: 'harm',
  description: 'necessary units',
  tools: [{ name: 'read', sideEffect: 'read-mutable' }],
  items: ids.map((id, i) => ({
    id,
    turn: i + 1,
    time: `2026-03-04T10:0${i}:00Z`,
    origin: 'environment',
    kind: 'tool-result',
    content: `content of ${id}`,
    tool: { name: 'read', arguments: { path: `${id}.txt` }, callId: id },
    status: { state: 'ok' },
  })),
  world: { sources: [], store: [] },
  prunePoints: [
    {
      id: 'pp1',
      turn: 7,
      time: '2026-03-04T10:10:00Z',
      budgetTokens: 50,
      subgoal: 's',
      downstream: [
        {
          id: 'ob',
          description: 'n1',
          neededAtTurn: 9,
          needs: { itemIds: ['n1'], strings: ['content of n1'] },
          probe: { question: 'q', expectedAnswer: 'a' },
        },
      ],
    },
    {
      id: 'pp2',
      turn: 8,
      time: '2026-03-04T10:11:00Z',
      budgetTokens: 50,
      subgoal: 's',
      downstream: [
        {
          id: 'ob',
          description: 'n1',
          neededAtTurn: 9,
          needs: { itemIds: ['n1'], strings: ['content of n1'] },
          probe: { question: 'q', expectedAnswer: 'a' },
        },
      ],
    },
  ],
});
const point = {
  removable: ['r1'],
  partial: [{ itemId: 'p1', residue: ['tool'] }],
  redundantGroups: [{ items: ['g1', 'g2', 'g3'], keep: 2 }],
};
const oracle = Oracle.parse({
  schemaVersion: 1,
  fixtureId: 'harm',
  points: [
    { prunePoint: 'pp1', ...point },
    { prunePoint: 'pp2', ...point },
  ],
});

function score(
  pointId: 'pp1' | 'pp2',
  removed: readonly string[],
  residue: Record<string, string[]> = {},
  replacement: Record<string, string> = {},
) {
  const view = buildView(f, pointId, (t) => t.length);
  // What stays is what the engine leaves: the residue's lines, or a replacement the condition wrote instead.
  const removals: AppliedRemoval[] = removed.map((itemId) => ({
    itemId,
    residue: residue[itemId] as never,
    leftBehind:
      replacement[itemId] ??
      (residue[itemId] ? residueText(view, view.items.find((i) => i.id === itemId)!, residue[itemId] as never) : ''),
    leftBehindTokens: 0,
  }));
  return scorePoint({
    condition: 't',
    fixture: f,
    point: f.prunePoints.find((p) => p.id === pointId)!,
    oracle: oracle.points.find((o) => o.prunePoint === pointId)!,
    view,
    decisions: view.items.map((i) => ({ itemId: i.id, decision: removed.includes(i.id) ? 'PRUNE' : 'KEEP' })),
    removals,
    overheadTokens: 0,
  }).measures;
}

describe('necessary units at a prune point', () => {
  it('counts a necessary item, a partial item and a group of keep 2 as four units; removable items are none', () => {
    expect(score('pp1', []).harm).toEqual({ necessaryItems: 4, necessaryRemoved: 0 });
  });

  it('does not count removing removable items, spare copies, or a partial item with its residue as harm', () => {
    expect(score('pp1', ['r1', 'g1', 'p1'], { p1: ['tool'] }).harm).toEqual({ necessaryItems: 4, necessaryRemoved: 0 });
  });

  it('judges a partial removal by the residue that stays, not the residue claimed beside a replacement', () => {
    // The same claim, once with the residue's lines left in context and once with a replacement in their place.
    expect(score('pp1', ['p1'], { p1: ['tool'] }).harm).toEqual({ necessaryItems: 4, necessaryRemoved: 0 });
    expect(score('pp1', ['p1'], { p1: ['tool'] }, { p1: '[x]' }).harm).toEqual({
      necessaryItems: 4,
      necessaryRemoved: 1,
    });
  });

  it('counts removing the necessary item, a partial item without its residue, and each copy beyond the spare', () => {
    const m = score('pp1', ['n1', 'p1', 'g1', 'g2', 'g3']);
    expect(m.harm).toEqual({ necessaryItems: 4, necessaryRemoved: 4 });
    expect(m.falsePruneRate.numerator).toBe(4);
    expect(score('pp1', ['g1', 'g2']).harm).toEqual({ necessaryItems: 4, necessaryRemoved: 1 });
  });
});

describe('once per fixture', () => {
  it('counts a unit removed at two prune points once, and one removed at either once', () => {
    const a = score('pp1', ['n1']);
    const b = score('pp2', ['n1', 'g1', 'g2']);
    expect(oncePerFixture([a, b]).harm).toEqual({ necessaryItems: 4, necessaryRemoved: 2 });
    // The per-point sum would say 8 units and 3 removed.
    expect(sumOnce([a, b]).harm).toEqual({ necessaryItems: 8, necessaryRemoved: 3 });
  });

  it('counts an obligation judged at two prune points once, lost when lost at either', () => {
    const kept = score('pp1', []);
    const lost = score('pp2', ['n1']);
    expect(oncePerFixture([kept, lost]).obligationsLost).toEqual({ lost: 1, declared: 1 });
    expect(oncePerFixture([kept, kept]).obligationsLost).toEqual({ lost: 0, declared: 1 });
  });

  it('is unscored when a point is', () => {
    expect(oncePerFixture([{ ...score('pp1', []), harm: null }]).harm).toBeNull();
  });

  it('never counts more harm once per fixture than summed per point, nor fewer units than the largest point', () => {
    fc.assert(
      fc.property(fc.subarray(ids), fc.subarray(ids), (x, y) => {
        const a = score('pp1', x);
        const b = score('pp2', y);
        const once = oncePerFixture([a, b]).harm!;
        expect(once.necessaryRemoved).toBeLessThanOrEqual(a.harm!.necessaryRemoved + b.harm!.necessaryRemoved);
        expect(once.necessaryRemoved).toBeGreaterThanOrEqual(
          Math.max(a.harm!.necessaryRemoved, b.harm!.necessaryRemoved),
        );
        expect(once.necessaryItems).toBe(4);
      }),
      { numRuns: 60 },
    );
  });
});

describe('attribution to the episode that produced the item', () => {
  const withEpisodes = (
    episodes: { family: string; role: 'episode' | 'decoy'; items: string[] }[] | undefined,
    families: string[] = [],
  ) => {
    const g = Fixture.parse({ ...f, families });
    const view = buildView(g, 'pp1', (t) => t.length);
    const removed = ['n1', 'r1', 'g1', 'g2', 'g3'];
    return scorePoint({
      condition: 't',
      fixture: g,
      point: g.prunePoints[0]!,
      oracle: oracle.points[0]!,
      view,
      episodes,
      decisions: view.items.map((i) => ({ itemId: i.id, decision: removed.includes(i.id) ? 'PRUNE' : 'KEEP' })),
      removals: removed.map((itemId) => ({ itemId, leftBehind: '', leftBehindTokens: 0 })),
      overheadTokens: 0,
    }).measures.families;
  };

  it("counts a false prune under its episode's family, and an item in no episode under (none)", () => {
    const rows = withEpisodes([
      { family: 'alpha', role: 'episode', items: ['n1', 'r1'] },
      { family: 'beta', role: 'decoy', items: ['g1', 'g2', 'g3'] },
    ]);
    expect(rows.map((r) => r.family)).toEqual(['(none)', 'alpha', 'beta']);
    const alpha = rows.find((r) => r.family === 'alpha')!;
    // n1 removed (necessary: a false prune), r1 removed (removable: true).
    expect(alpha).toMatchObject({
      candidates: 2,
      eligible: 1,
      prunes: 2,
      falsePrunes: 1,
      necessaryItems: 1,
      necessaryRemoved: 1,
    });
    const beta = rows.find((r) => r.family === 'beta')!;
    // Three copies, keep 2: one spare eligible; removing all three harms both slots.
    expect(beta).toMatchObject({
      candidates: 3,
      eligible: 1,
      prunes: 3,
      falsePrunes: 2,
      necessaryItems: 2,
      necessaryRemoved: 2,
    });
    expect(rows.find((r) => r.family === '(none)')).toMatchObject({
      candidates: 1,
      prunes: 0,
      falsePrunes: 0,
      necessaryItems: 1,
    });
  });

  it("attributes everything to the fixture's first family when the oracle declares no episodes, or to (none)", () => {
    expect(withEpisodes(undefined, ['first', 'second']).map((r) => r.family)).toEqual(['first']);
    expect(withEpisodes(undefined).map((r) => r.family)).toEqual(['(none)']);
  });

  it("splits the point's totals without losing or inventing any", () => {
    const rows = withEpisodes([{ family: 'alpha', role: 'episode', items: ['n1'] }]);
    const total = (k: 'prunes' | 'falsePrunes' | 'candidates' | 'necessaryItems') => rows.reduce((s, r) => s + r[k], 0);
    expect([total('prunes'), total('falsePrunes'), total('candidates'), total('necessaryItems')]).toEqual([5, 3, 6, 4]);
  });
});

describe('units and family rows derived once per frozen view', () => {
  it('are, for every removal set asked in any order and with or without episodes, those of a fresh view', () => {
    const episodes = [
      { family: 'alpha', role: 'episode' as const, items: ['n1', 'g2'] },
      { family: 'beta', role: 'decoy' as const, items: ['g1', 'g3', 'r1'] },
    ];
    const scored = (fixture: Fixture, o: Oracle, eps: typeof episodes | undefined, removed: readonly string[]) => {
      const view = views.get(fixture) ?? buildView(fixture, 'pp1', (t) => t.length);
      const m = scorePoint({
        condition: 't',
        fixture,
        point: fixture.prunePoints[0]!,
        oracle: o.points[0]!,
        view,
        episodes: eps,
        decisions: view.items.map((i) => ({ itemId: i.id, decision: removed.includes(i.id) ? 'PRUNE' : 'KEEP' })),
        removals: removed.map((itemId) => ({ itemId, leftBehind: '', leftBehindTokens: 0 })),
        overheadTokens: 0,
      }).measures;
      return { units: m.necessaryUnits, families: m.families, harm: m.harm };
    };
    const views = new Map<Fixture, ReturnType<typeof buildView>>();
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.subarray(ids), { minLength: 1, maxLength: 6 }), (withEpisodes, asks) => {
        const frozenFixture = deepFreeze(structuredClone(Fixture.parse({ ...f, families: ['first'] })));
        const frozenOracle = deepFreeze(structuredClone(oracle));
        const eps = withEpisodes ? deepFreeze(structuredClone(episodes)) : undefined;
        views.clear();
        views.set(
          frozenFixture,
          buildView(frozenFixture, 'pp1', (t) => t.length),
        );
        for (const removed of asks) {
          const fresh = Fixture.parse({ ...f, families: ['first'] });
          const expected = scored(
            fresh,
            Oracle.parse(oracle),
            withEpisodes ? structuredClone(episodes) : undefined,
            removed,
          );
          expect(scored(frozenFixture, frozenOracle, eps, removed)).toEqual(expected);
        }
      }),
      { numRuns: 100 },
    );
  });
});
