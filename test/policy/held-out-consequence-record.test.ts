// Held-out review E's third defect, fixed: the gate did not protect what the oracle counts as declared, a work unit's
// consequence record (src/oracle/counterfactual.ts declaredProtection: "any unit's consequence record is where its
// result lives"). Protecting every record was tried and not kept (the oracle labels a fifth of them removable); the
// rule the ground truth supports is narrower: the regenerability gate refuses to remove a consequence record while it
// is the last item in context holding one of the consequence strings it shows, another item holding it only where it
// repeats it whole (`holdsAsUnit`); once another item that stays holds it, the record may go and that item is leaned
// on. Each case here is held on both sides, through the mechanisms, the gated singles and the ladders.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView, type PolicyView } from '../../src/fixture/view.js';
import { sameObservation } from '../../src/policy/identity.js';
import { holdsText } from '../../src/policy/held-text.js';
import { allConditions } from '../../src/policy/registry.js';
import { gateSuspects, holdsAsUnit, regenerabilityGate } from '../../src/policy/regenerability.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, condition, decideById, GATED, makeView, note } from './build-view.js';

const V = (name: string, view: PolicyView, id: string) => at(decideById(condition(name), view), id);

const LADDERS = ['ladder-0-2', 'ladder-0-3', 'ladder-0-4'];
const RUNG2 = ['checked-supersession', ...LADDERS];

const ws = 'workspace:payments';
const run = (base: string, turn: number, content: string): ItemSpec[] =>
  callAndResult(
    base,
    turn,
    'run_tests',
    { suite: 'unit' },
    { content, source: { identity: ws, version: 'UNKNOWN', mutable: true }, covers: ['t1', 't2'] },
  );
const edit = (base: string, turn: number): ItemSpec[] =>
  callAndResult(base, turn, 'edit', { path: 'pool.ts', v: base }, { content: 'ok' }, { effects: [ws] });

/**
 * wu1 closed with its consequence recorded in `record` (r1 by default, the passing run a later failing run r3
 * supersedes at rung 2), holding `strings`; `extra` items follow the runs.
 */
function view(
  options: { record?: string; strings?: string[]; state?: string; extra?: ItemSpec[]; units?: unknown[] } = {},
): PolicyView {
  return makeView({
    items: [
      ...edit('0', 0),
      ...run('1', 1, 'retry_backoff passed; 2 passed'),
      ...edit('2', 2),
      ...run('3', 3, 'retry_backoff FAILED; 1 passed'),
      ...(options.extra ?? []),
    ],
    subgoal: 'fix the retry',
    visible: {
      workUnits: [
        {
          id: 'wu1',
          description: 'fix retry',
          state: options.state ?? 'closed',
          traceItems: ['c0', 'r0', 'c1'],
          consequence: { itemId: options.record ?? 'r1', strings: options.strings ?? ['retry_backoff passed'] },
        },
        ...(options.units ?? []),
      ],
    },
  });
}

describe('the gate keeps a consequence record while it is the last item holding a consequence string', () => {
  // Probe E's case, with no other item holding the string (the probe's own note n4 held it as a unit, so the record
  // was never its last holder: that side is below).
  for (const name of RUNG2) {
    it(`${name}: does not supersede r1, wu1's record and the last item holding "retry_backoff passed"`, () => {
      const d = V(name, view(), 'r1');
      expect(d.verdict).not.toBe('eligible');
    });
    it(`${name}: another item holding the string only inside other words does not hold it`, () => {
      for (const words of [
        'no longer retry_backoff passed',
        'retry_backoff passed_twice on the old pool',
        'xretry_backoff passed',
      ]) {
        const d = V(name, view({ extra: [note('n4', 4, words)] }), 'r1');
        expect(d.verdict, words).not.toBe('eligible');
      }
    });
    it(`${name}: a record holding two strings stays while either has no other holder`, () => {
      const v = view({
        strings: ['retry_backoff passed', '2 passed'],
        extra: [note('n4', 4, 'Done: retry_backoff passed')],
      });
      expect(V(name, v, 'r1').verdict).not.toBe('eligible');
    });
    it(`${name}: any unit's record, open or closed unresolved, as the oracle counts it`, () => {
      for (const state of ['open', 'closed-unresolved'])
        expect(V(name, view({ state }), 'r1').verdict, state).not.toBe('eligible');
    });
  }

  it('the gate says why, naming the unit and the string', () => {
    expect(regenerabilityGate(view(), ['r1']).get('r1')).toBe(
      'regenerability gate: consequence record of work unit wu1 and the last item in context holding "retry_backoff passed", and no identical copy of it stays in context',
    );
    expect(V('checked-supersession', view(), 'r1')).toMatchObject({ verdict: 'abstain', rule: 'checked-supersession' });
  });

  it('of two superseded runs holding the string, one stays (the same step cannot remove both)', () => {
    // r1 (the record) and r3 both hold it; r5, the newest run, holds neither. Latest first, r3 goes and r1 stays.
    const v = makeView({
      items: [
        ...edit('0', 0),
        ...run('1', 1, 'retry_backoff passed; 2 passed'),
        ...edit('2', 2),
        ...run('3', 3, 'retry_backoff passed; 2 passed in 0.4s'),
        ...edit('4', 4),
        ...run('5', 5, 'retry_backoff FAILED; 1 passed'),
      ],
      visible: {
        workUnits: [
          {
            id: 'wu1',
            description: 'fix retry',
            state: 'closed',
            traceItems: ['c0', 'r0'],
            consequence: { itemId: 'r1', strings: ['retry_backoff passed'] },
          },
        ],
      },
    });
    for (const name of RUNG2) {
      const d = decideById(condition(name), v);
      expect(at(d, 'r3').verdict, name).toBe('eligible');
      expect(at(d, 'r1').verdict, name).not.toBe('eligible');
    }
  });

  it('ladders: a holder the record was removed leaning on is kept from a later step (rung 3, the predictor)', () => {
    // r1 goes at rung 2 because n4 holds its string; n4 is the trace of closed unit wu2, which rung 3 would remove.
    const v = view({
      extra: [note('n4', 4, 'Done: retry_backoff passed'), note('n5', 5, 'wu2 done: pool sizing settled')],
      units: [
        {
          id: 'wu2',
          description: 'size the pool',
          state: 'closed',
          traceItems: ['n4'],
          consequence: { itemId: 'n5', strings: ['pool sizing settled'] },
        },
      ],
    });
    // Alone, rung 3 removes n4 (r1 stays and holds the string).
    expect(V('verified-completion', v, 'n4').verdict).toBe('eligible');
    for (const name of LADDERS) {
      const d = decideById(condition(name), v);
      expect(at(d, 'r1'), name).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
      expect(at(d, 'n4').verdict, name).not.toBe('eligible');
    }
    expect(V('ladder-0-3', v, 'n4').reason).toContain('(r1, removed earlier, leaned on this item)');
    expect(gateSuspects(v, new Set(['r1']))(v.items.find((i) => i.id === 'n4')!)).toBe(true);
  });
});

describe('the consequence rule still lets a record go where its strings stay held', () => {
  for (const name of RUNG2) {
    it(`${name}: supersedes r1 while another item that stays repeats its string whole`, () => {
      for (const holder of ['Done: retry_backoff passed', 'retry_backoff passed', 'summary: "retry_backoff passed"'])
        expect(V(name, view({ extra: [note('n4', 4, holder)] }), 'r1').verdict, holder).toBe('eligible');
    });
    it(`${name}: supersedes r1 when it is not the record, or shows none of the unit's strings`, () => {
      const n4 = note('n4', 4, 'Done: retry_backoff passed');
      expect(V(name, view({ record: 'n4', extra: [n4] }), 'r1').verdict).toBe('eligible');
      expect(V(name, view({ strings: ['retry_backoff fixed'] }), 'r1').verdict).toBe('eligible');
    });
  }

  it('ladder-0-4: the holder r1 leaned on stays, while the predictor still removes what nothing leans on', () => {
    const v = view({ extra: [note('n4', 4, 'Done: retry_backoff passed'), note('n6', 6, 'lunch order: two pizzas')] });
    const d = decideById(condition('ladder-0-4'), v);
    expect(at(d, 'r1').verdict).toBe('eligible');
    expect(at(d, 'n4')).toMatchObject({ verdict: 'keep' });
    expect(at(d, 'n4').reason).toContain('kept for an earlier removal');
    expect(at(d, 'n6')).toMatchObject({ verdict: 'eligible', rule: 'predictive-semantic' });
  });

  it("rung 3 still removes a unit's trace while its record stays, a trace item holding the string included", () => {
    const traced = makeView({
      items: [
        ...edit('0', 0),
        note('n4', 1, 'Done: retry_backoff passed'),
        note('n5', 2, 'wu1 closed. retry_backoff passed'),
      ],
      subgoal: 'fix the retry',
      visible: {
        workUnits: [
          {
            id: 'wu1',
            description: 'fix retry',
            state: 'closed',
            traceItems: ['c0', 'r0', 'n4'],
            consequence: { itemId: 'n5', strings: ['retry_backoff passed'] },
          },
        ],
      },
    });
    for (const name of ['verified-completion', 'ladder-0-3', 'ladder-0-4']) {
      const d = decideById(condition(name), traced);
      for (const id of ['c0', 'r0', 'n4'])
        expect(at(d, id), `${name} ${id}`).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
      expect(at(d, 'n5').verdict, name).not.toBe('eligible');
    }
  });

  it('an identical copy of the record that stays lets the record go, as for any refusal', () => {
    const v = makeView({
      items: [...run('1', 1, 'retry_backoff passed; 2 passed'), ...run('2', 2, 'retry_backoff passed; 2 passed')],
      visible: {
        workUnits: [
          {
            id: 'wu1',
            description: 'fix retry',
            state: 'closed',
            traceItems: [],
            consequence: { itemId: 'r1', strings: ['retry_backoff passed'] },
          },
        ],
      },
    });
    for (const name of ['exact-redundancy', ...LADDERS])
      expect(V(name, v, 'r1'), name).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
  });
});

describe('property: no gated condition removes the last holder of a consequence string a record in context shows', () => {
  const viewArb = fixtureArb.map((plan) => buildView(Fixture.parse(toFixture(plan)), 'pp', (t) => t.length));
  it('every string a removed record showed stays held whole by an item that stays, or the record has a copy that stays', () => {
    const gated = allConditions().filter((c) => GATED.includes(c.name));
    expect(gated).toHaveLength(GATED.length);
    fc.assert(
      fc.property(viewArb, (v) => {
        const byId = new Map(v.items.map((i) => [i.id, i]));
        for (const c of gated) {
          const removed = new Set(
            c
              .decide(v)
              .filter((e) => e.verdict === 'eligible')
              .map((e) => e.itemId),
          );
          for (const unit of v.visible.workUnits) {
            const consequence = unit.consequence;
            if (!consequence || !('itemId' in consequence) || !removed.has(consequence.itemId)) continue;
            const record = byId.get(consequence.itemId);
            if (!record) continue;
            const stays = v.items.filter((o) => o.id !== record.id && !removed.has(o.id));
            if (stays.some((o) => o.content === record.content && sameObservation(v, record, o))) continue;
            for (const s of consequence.strings.filter((text) => holdsText(record, text)))
              expect(
                stays.some((o) => holdsAsUnit(o.content, s)),
                `${c.name} removed ${record.id}, ${unit.id}'s record, and nothing that stays holds ${JSON.stringify(s)}`,
              ).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
