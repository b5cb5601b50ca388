import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/fixture/canonical.js';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView, resolveInView, type PolicyView } from '../../src/fixture/view.js';
import { verifiedCompletion } from '../../src/policy/mechanisms/verified-completion.js';
import {
  at,
  condition,
  decideById,
  fixtureObject,
  makeView,
  note,
  result,
  verdicts,
  type ViewSpec,
} from './build-view.js';

const vc = condition('verified-completion');
const trace = [
  result('r1', 1, 'grep output'),
  result('r2', 2, 'file read'),
  note('n3', 3, 'Decision: use pool size 20 (timeout 30s)'),
];
const unit = (extra: Record<string, unknown>) => ({
  id: 'wu1',
  description: 'tune the pool',
  state: 'closed',
  traceItems: ['r1', 'r2', 'n3'],
  ...extra,
});

describe('verified-completion (rung 3)', () => {
  it("makes a closed unit's trace eligible when its consequence record is in context with every string", () => {
    const view = makeView({
      items: trace,
      visible: { workUnits: [unit({ consequence: { itemId: 'n3', strings: ['pool size 20', 'timeout 30s'] } })] },
    });
    const d = decideById(vc, view);
    expect(verdicts(vc, view)).toEqual({ r1: 'eligible', r2: 'eligible', n3: 'keep' });
    expect(at(d, 'r1')).toMatchObject({ rule: 'verified-completion', rung: 3, obligationsConsulted: ['wu1'] });
    expect(at(d, 'r1').reason).toBe(
      'trace of closed work unit wu1, whose consequence is recorded in n3, which holds every consequence string',
    );
  });

  it('abstains when the consequence record lacks a string, is not in context, or is absent', () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { consequence: { itemId: 'n3', strings: ['pool size 20', 'max 50'] } },
        `wu1's consequence record n3 lacks "max 50"`,
      ],
      [{ consequence: { itemId: 'n9', strings: ['pool size 20'] } }, `wu1's consequence record n9 is not in context`],
      [{}, 'wu1 closed with no recorded consequence'],
    ];
    for (const [extra, why] of cases) {
      const view = makeView({
        items: [...trace, note('n9', 9, 'pool size 20')],
        turn: 3,
        visible: { workUnits: [unit(extra)] },
      });
      const d = decideById(vc, view);
      expect(at(d, 'r1').verdict).toBe('abstain');
      expect(at(d, 'r1').reason).toBe(`closure not verified: ${why}`);
    }
  });

  it('keeps the trace of an open unit, and an item that is also part of open work', () => {
    const view = makeView({
      items: trace,
      visible: {
        workUnits: [
          unit({ consequence: { itemId: 'n3', strings: ['pool size 20'] } }),
          { id: 'wu2', description: 'still going', state: 'open', traceItems: ['r2'] },
        ],
      },
    });
    expect(verdicts(vc, view)).toEqual({ r1: 'eligible', r2: 'keep', n3: 'keep' });
  });

  it("never removes a unit's consequence record, even when it is another unit's trace", () => {
    const view = makeView({
      items: [...trace, note('n4', 4, 'summary: n3 recorded')],
      visible: {
        workUnits: [
          unit({ consequence: { itemId: 'n3', strings: ['pool size 20'] } }),
          {
            id: 'wu2',
            description: 'write-up',
            state: 'closed',
            traceItems: ['n3'],
            consequence: { itemId: 'n4', strings: ['summary'] },
          },
        ],
      },
    });
    expect(at(decideById(vc, view), 'n3').verdict).toBe('keep');
  });

  it('gates first: a pinned trace item stays', () => {
    const view = makeView({
      items: trace,
      visible: { pinned: ['r2'], workUnits: [unit({ consequence: { itemId: 'n3', strings: ['pool size 20'] } })] },
    });
    expect(verdicts(vc, view)).toEqual({ r1: 'eligible', r2: 'keep', n3: 'keep' });
  });

  it('abstains on the trace of a unit that closed unresolved, which is not completed work', () => {
    const view = makeView({
      items: trace,
      visible: {
        workUnits: [unit({ state: 'closed-unresolved', consequence: { itemId: 'n3', strings: ['pool size 20'] } })],
      },
    });
    const d = decideById(vc, view);
    expect(at(d, 'r1')).toMatchObject({
      verdict: 'abstain',
      reason: 'not completed work: wu1 closed unresolved',
      obligationsConsulted: ['wu1'],
    });
    expect(at(d, 'r2').verdict).toBe('abstain');
  });
});

const NOTE =
  'PAY-311: payouts round with ROUND_HALF_EVEN in payouts/rounding.py; regression test test_payout_rounding_half_even';
const hashOf = (text: string) => `sha256:${sha256(text)}`;
const pointerUnit = (storeKey: string, hash: string, strings = ['ROUND_HALF_EVEN', 'payouts/rounding.py']) =>
  unit({ consequence: { pointer: { storeKey, contentHash: hash }, strings } });

/** The trace at turn 3 and a prune point at `turn`, with the store writes given (world store as of the prune point). */
function pointerView(
  turn: number,
  store: { key: string; content: string; fromTurn: number }[],
  u: Record<string, unknown>,
): PolicyView {
  const spec: ViewSpec = { items: trace, turn, visible: { workUnits: [u] } };
  return buildView(Fixture.parse({ ...fixtureObject(spec), world: { store } }), 'pp', (t) => t.length);
}

describe('verified-completion with a pointer consequence', () => {
  it('removes the trace when the pointer resolves at the prune point with its recorded hash and holds every string', () => {
    const view = pointerView(
      5,
      [{ key: '.agent/notes/PAY-311.md', content: NOTE, fromTurn: 3 }],
      pointerUnit('.agent/notes/PAY-311.md', hashOf(NOTE)),
    );
    const d = decideById(vc, view);
    expect(verdicts(vc, view)).toEqual({ r1: 'eligible', r2: 'eligible', n3: 'eligible' });
    expect(at(d, 'r1').reason).toBe(
      'trace of closed work unit wu1, whose consequence is recorded in .agent/notes/PAY-311.md (hash as recorded), which holds every consequence string',
    );
  });

  it('abstains when the pointer does not resolve at the prune point, though it is written later', () => {
    const view = pointerView(
      5,
      [{ key: '.agent/notes/PAY-311.md', content: NOTE, fromTurn: 7 }],
      pointerUnit('.agent/notes/PAY-311.md', hashOf(NOTE)),
    );
    expect(at(decideById(vc, view), 'r1')).toMatchObject({ verdict: 'abstain' });
    expect(at(decideById(vc, view), 'r1').reason).toBe(
      "closure not verified: wu1's consequence pointer fails at the prune point: store key .agent/notes/PAY-311.md does not resolve",
    );
    const later = pointerView(
      8,
      [{ key: '.agent/notes/PAY-311.md', content: NOTE, fromTurn: 7 }],
      pointerUnit('.agent/notes/PAY-311.md', hashOf(NOTE)),
    );
    expect(at(decideById(vc, later), 'r1').verdict).toBe('eligible');
  });

  it('abstains when a later write to the key, before the prune point, breaks the hash', () => {
    const rewritten = 'PAY-318: fee schedule moved to fees/schedule.yaml';
    const store = [
      { key: '.agent/notes/current.md', content: NOTE, fromTurn: 3 },
      { key: '.agent/notes/current.md', content: rewritten, fromTurn: 4 },
    ];
    const d = decideById(vc, pointerView(5, store, pointerUnit('.agent/notes/current.md', hashOf(NOTE))));
    expect(at(d, 'r1').verdict).toBe('abstain');
    expect(at(d, 'r1').reason).toContain(
      `hashes to ${hashOf(rewritten)}, not the recorded ${hashOf(NOTE)} (written at turn 4)`,
    );
    // Before that write, the same pointer verified.
    expect(
      at(decideById(vc, pointerView(3, store, pointerUnit('.agent/notes/current.md', hashOf(NOTE)))), 'r1').verdict,
    ).toBe('eligible');
  });

  it('abstains when the resolved content lacks a consequence string', () => {
    const view = pointerView(
      5,
      [{ key: 'n', content: NOTE, fromTurn: 0 }],
      pointerUnit('n', hashOf(NOTE), ['ROUND_HALF_EVEN', 'test_payout_rounding_bankers']),
    );
    expect(at(decideById(vc, view), 'r1').reason).toBe(
      'closure not verified: wu1\'s consequence at n lacks "test_payout_rounding_bankers"',
    );
  });

  it('property: never finds eligible when the pointer does not resolve with its hash in the store as of the prune point', () => {
    const write = fc.record({
      content: fc.constantFrom(NOTE, `${NOTE}\nupdated`, 'unrelated'),
      fromTurn: fc.integer({ min: 0, max: 8 }),
    });
    fc.assert(
      fc.property(
        fc.array(write, { maxLength: 4 }),
        fc.integer({ min: 3, max: 8 }),
        fc.constantFrom(NOTE, `${NOTE}\nupdated`),
        (writes, turn, recorded) => {
          const u = pointerUnit('k', hashOf(recorded));
          const view = pointerView(
            turn,
            writes.map((w) => ({ key: 'k', ...w })),
            u,
          );
          const check = resolveInView(view, { storeKey: 'k', contentHash: hashOf(recorded) });
          const eligible = verifiedCompletion()
            .assess(
              view,
              view.items.map((i) => i.id),
            )
            .some((f) => f.outcome === 'eligible');
          if (!check.resolved) expect(eligible).toBe(false);
          // Independently of the view: the latest write at or before the turn must hash as recorded.
          const latest = writes
            .map((w, i) => ({ ...w, i }))
            .filter((w) => w.fromTurn <= turn)
            .sort((a, b) => a.fromTurn - b.fromTurn || a.i - b.i)
            .pop();
          if (eligible) expect(latest && hashOf(latest.content) === hashOf(recorded)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
