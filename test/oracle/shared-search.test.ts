// The obligation judge's string search, shared by a fixture's prune points, must answer as searching each view's
// own items afresh; and the one search over what removals left behind must find a string only where one removal's
// text holds it, as searching each text alone does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../src/fixture/freeze.js';
import { type Fixture as FixtureT, Fixture } from '../../src/fixture/schema.js';
import { buildView, viewSource } from '../../src/fixture/view.js';
import { holdersOf } from '../../src/oracle/obligations.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';
import { timeOf } from '../policy/build-view.js';
import { fixture, item, judged, obligation } from './build.js';

const NEEDLES = ['alpha', 'a', 'beta', 'pool timeout', 'line two', '\n', '137', 'zeta', 'absent', ''];

/**
 * A generated fixture with more prune points, at the given shares of its last turn. Reversed, its items' turns run
 * backwards, so a view holds the fixture's last items rather than its first (a view that is not a prefix).
 */
const withPoints = (shares: readonly number[], reversed = false) =>
  fixtureArb.map((plan) => {
    const raw = toFixture(plan) as { items: { turn: number; time: string }[]; prunePoints: Record<string, unknown>[] };
    if (reversed) {
      const turns = raw.items.map((i) => i.turn).reverse();
      raw.items.forEach((item, k) => Object.assign(item, { turn: turns[k]!, time: timeOf(turns[k]!) }));
    }
    const last = Math.max(0, ...raw.items.map((i) => i.turn));
    const [first] = raw.prunePoints;
    shares.forEach((share, k) => {
      const turn = Math.round(last * share);
      raw.prunePoints.push({ ...first, id: `extra${k}`, turn, time: timeOf(turn) });
    });
    return Fixture.parse(raw);
  });

describe("a string's holders, searched once per fixture for all its prune points", () => {
  it('are, at every point and in any order of asking, the view items whose content holds it', () => {
    const arb = fc.tuple(
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom(...NEEDLES)), { minLength: 1, maxLength: 30 }),
    );
    fc.assert(
      fc.property(
        arb.chain(([shares, asks]) =>
          fc.boolean().chain((reversed) => withPoints(shares, reversed).map((f) => [f, asks] as const)),
        ),
        ([fresh, asks]) => {
          const f: FixtureT = deepFreeze(structuredClone(fresh));
          const views = f.prunePoints.map((p) => buildView(f, p.id, (t) => t.length));
          for (const [at, s] of asks) {
            const view = views[at % views.length]!;
            const holders = holdersOf(view.items, s);
            expect(holders).toEqual(view.items.filter((i) => i.content.includes(s)));
            // The view's own items, not the fixture's: a view item carries its token count.
            expect(holders.every((h) => view.items.includes(h))).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("link a view to its fixture by an empty key, never by the fixture's items (later items and verdicts stay out of reach)", () => {
    const f = deepFreeze(fixture([item('a', 1, 'alpha'), item('b', 2, 'beta'), item('c', 9, 'later')], []));
    const source = viewSource(buildView(f, 'p', () => 1).items)!;
    expect(source.fixture).not.toBe(f.items);
    expect(Reflect.ownKeys(source.fixture)).toEqual([]);
    expect(Object.getPrototypeOf(source.fixture)).toBe(Object.prototype);
  });

  it('are searched afresh for a view of a fixture that is not frozen', () => {
    const f = fixture([item('a', 1, 'alpha'), item('b', 2, 'beta')], []);
    const view = buildView(f, 'p', () => 1);
    expect(holdersOf(view.items, 'alpha').map((i) => i.id)).toEqual(['a']);
    // Unfrozen, the item can change; the answer follows it.
    (f.items[1] as { content: string }).content = 'alpha too';
    const again = buildView(f, 'p', () => 1);
    expect(holdersOf(again.items, 'alpha').map((i) => i.id)).toEqual(['a', 'b']);
  });
});

describe('a needed string in what removals left behind', () => {
  const f = fixture(
    [item('a', 1, 'alpha'), item('b', 2, 'beta'), item('x', 3, 'al\u0000pha')],
    [obligation('alpha', { strings: ['alpha'] }), obligation('nul', { strings: ['al\u0000pha'] })],
  );
  const gone = (a: string, b: string, x = 'kept') => [
    { itemId: 'a', leftBehind: a },
    { itemId: 'b', leftBehind: b },
    { itemId: 'x', leftBehind: x },
  ];

  it('is found only within one removal, never across two', () => {
    expect(judged(f, gone('al', 'pha'))).toEqual({ alpha: false, nul: false });
    expect(judged(f, gone('', 'the alpha kept'))).toEqual({ alpha: true, nul: false });
  });

  it('holding the separator itself, is still matched per removal', () => {
    expect(judged(f, gone('al', 'pha', 'x'))).toEqual({ alpha: false, nul: false });
    expect(judged(f, gone('al\u0000', 'pha', 'x'))).toEqual({ alpha: false, nul: false });
    expect(judged(f, gone('', '', 'an al\u0000pha'))).toEqual({ alpha: false, nul: true });
  });
});
