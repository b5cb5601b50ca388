// Issue 10's invariants over generated fixtures: the regenerability gate (rule 6), the predictor failing closed
// (rule 7) and call/result pairs under placeholders none (rule 8).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { runStudy } from '../../src/engine/run.js';
import { Fixture } from '../../src/fixture/schema.js';
import type { PolicyView } from '../../src/fixture/view.js';
import { buildView, counterpart } from '../../src/fixture/view.js';
import { sameObservation } from '../../src/policy/identity.js';
import type { Prediction, Predictor } from '../../src/policy/mechanisms/predictive-semantic.js';
import { allConditions, conditionsWith, PREDICTOR_CONSUMERS } from '../../src/policy/registry.js';
import { gateRefusal, regenerabilityGate } from '../../src/policy/regenerability.js';
import { fixtureArb, toFixture, type Plan } from '../support/arbitrary.js';
import { GATED, makeView } from './build-view.js';

const viewArb: fc.Arbitrary<PolicyView> = fixtureArb.map((plan) =>
  buildView(Fixture.parse(toFixture(plan)), 'pp', (t) => t.length),
);
const RUNS = { numRuns: 300 };

describe('the regenerability gate (rule 6)', () => {
  it('no gated condition removes (whole or to a residue) an item with a refusal case unless an identical copy stays', () => {
    const gated = allConditions().filter((c) => GATED.includes(c.name));
    expect(gated.map((c) => c.name).sort()).toEqual([...GATED].sort());
    fc.assert(
      fc.property(viewArb, (view) => {
        for (const c of gated) {
          const verdicts = c.decide(view);
          const removed = new Set(verdicts.filter((e) => e.verdict === 'eligible').map((e) => e.itemId));
          for (const item of view.items) {
            if (!removed.has(item.id) || !gateRefusal(view, item, removed)) continue;
            const copy = view.items.some(
              (other) => other.id !== item.id && !removed.has(other.id) && sameObservation(view, item, other),
            );
            expect({
              condition: c.name,
              item: item.id,
              refusal: gateRefusal(view, item, removed),
              copyStays: copy,
            }).toMatchObject({ copyStays: true });
          }
        }
      }),
      RUNS,
    );
  });
});

// A counterexample a random-seed run found (seed 131565745): r0 carries the sole-constraint-record flag and went at
// ladder step 1 (exact redundancy) leaning on its identical copy r1; step 6 (the predictor) then removed r1, which
// has no refusal of its own, so the constraint's record left context with no copy.
const flag = { negativeResult: false, transientState: false, oneTimeSecret: false, pendingPlanReference: false };
const shared = {
  step: 0,
  kind: 'constraint',
  origin: 'user',
  content: 'alpha beta',
  callContent: 'alpha beta',
  tool: 0,
  status: { state: 'ok' },
} as const;
const COUNTEREXAMPLE = {
  entries: [
    { ...shared, shape: 'result', args: { path: 'a', opt: null }, flags: { ...flag, soleConstraintRecord: true } },
    { ...shared, shape: 'pair', args: { path: 'a', opt: null }, flags: { ...flag, soleConstraintRecord: false } },
    {
      ...shared,
      shape: 'note',
      args: { path: 'a' },
      status: { state: 'error', errorType: 'SyntaxError', message: 'boom', fields: {} },
      flags: { ...flag, soleConstraintRecord: false },
    },
  ],
  turnShare: 0.3,
  subgoal: 'fix the pool timeout',
  budget: 1,
  taskBoundary: false,
  pinned: [],
  protectedTools: [],
  obligations: [],
  pendingSteps: [],
  workUnits: [],
} as unknown as Plan;

describe('the gate keeps what an earlier removal leaned on (rule 6, pinned counterexample)', () => {
  const view = buildView(Fixture.parse(toFixture(COUNTEREXAMPLE)), 'pp', (t) => t.length);

  it('ladder-0-4 removes the flagged r0 at rung 0 but then keeps r1, the copy it leaned on', () => {
    const verdicts = allConditions()
      .find((c) => c.name === 'ladder-0-4')!
      .decide(view);
    const byId = new Map(verdicts.map((e) => [e.itemId, e]));
    expect(byId.get('r0')).toMatchObject({ verdict: 'eligible', rung: 0 });
    expect(byId.get('r1')!.verdict).not.toBe('eligible');
    // The ladder keeps what any earlier removal rests on before its gate is asked (the gate's own rule, for an
    // earlier removal with a refusal case, is the next test's).
    expect(byId.get('r1')!.reason).toContain("kept for an earlier removal: r0's, by exact-redundancy at step 1");
  });

  it('refuses the last identical copy of a refused item already gone, and lets it go while another copy stays', () => {
    expect(regenerabilityGate(view, ['r1'], new Set(['r0'])).get('r1')).toContain('sole record of a user constraint');
    expect(regenerabilityGate(view, ['r1'], new Set()).has('r1')).toBe(false);
    const copies = makeView({
      items: ['r0', 'r1', 'r2'].map((id, turn) => ({
        id,
        turn,
        kind: 'tool-result',
        content: 'alpha beta',
        tool: { name: 'read_file', arguments: { path: 'a' }, callId: 'c' },
        flags: { soleConstraintRecord: id === 'r0' },
      })),
    });
    expect(regenerabilityGate(copies, ['r1'], new Set(['r0'])).has('r1')).toBe(false);
    expect(regenerabilityGate(copies, ['r1', 'r2'], new Set(['r0'])).size).toBe(1);
  });

  it("refuses the last holder of a removed user constraint's text, and lets it go while another holder stays", () => {
    const items = [
      { id: 'rule', turn: 0, kind: 'constraint', origin: 'user', content: 'never touch prod' },
      { id: 'echo', turn: 1, kind: 'reasoning', origin: 'model', content: 'noted: never touch prod' },
      { id: 'again', turn: 2, kind: 'reasoning', origin: 'model', content: 'again: never touch prod' },
    ];
    const two = makeView({ items });
    expect(regenerabilityGate(two, ['echo'], new Set(['rule'])).has('echo')).toBe(false);
    expect(regenerabilityGate(two, ['echo', 'again'], new Set(['rule'])).get('again')).toContain(
      'sole record of a user constraint (rule, removed earlier',
    );
    const one = makeView({ items: items.slice(0, 2) });
    expect(regenerabilityGate(one, ['echo'], new Set(['rule'])).get('echo')).toContain(
      'sole record of a user constraint',
    );
    expect(regenerabilityGate(one, ['echo'], new Set()).has('echo')).toBe(false);
  });
});

/**
 * Entries of another shape than the seam's, or below the threshold, that a predictor (anyone's code) may answer for
 * every item it was shown: each unusable, never a guess.
 */
const BAD_ENTRIES: Readonly<Record<string, unknown>> = {
  unsure: { reason: 'maybe', confidence: 0.1 },
  'null entry': null,
  'no reason': { confidence: 0.9 },
  'confidence as text': { reason: 'done', confidence: '0.9' },
  'confidence past 1': { reason: 'done', confidence: 5 },
  'infinite confidence': { reason: 'done', confidence: Number.POSITIVE_INFINITY },
};

/** Every way the predictor's answer is unusable that the property below tries. */
const FAILURES = ['transport', 'stray', 'throws', 'null', ...Object.keys(BAD_ENTRIES)];

describe('the predictor fails closed (rule 7)', () => {
  it('a failing predictor never yields PRUNE or KEEP for an item it was asked about, in any consumer', () => {
    // The consumers are built once around a predictor that calls this run's: building every condition reads the
    // controls' rate table from disk, which was most of this test's time when done in every run.
    let failing: Predictor = () => ({ abstain: 'no run yet' });
    const consumers = conditionsWith({
      predictor: (v, shown, scope) => failing(v, shown, scope),
      label: 'failing',
    }).filter((c) => PREDICTOR_CONSUMERS.includes(c.name));
    expect(consumers).toHaveLength(PREDICTOR_CONSUMERS.length);
    fc.assert(
      fc.property(viewArb, fc.constantFrom(...FAILURES), (view, how) => {
        const asked = new Set<string>();
        failing = (_v, shown) => {
          for (const id of shown) asked.add(id);
          if (how === 'transport') return { abstain: 'model call failed (timeout): no answer' };
          if (how === 'stray') return new Map([['not-an-item', { reason: 'x', confidence: 1 }]]);
          if (how === 'throws') throw new Error('socket hang up');
          if (how === 'null') return null as unknown as ReturnType<Predictor>;
          return new Map(shown.map((id) => [id, BAD_ENTRIES[how] as Prediction]));
        };
        for (const c of consumers) {
          asked.clear();
          const verdicts = c.decide(view);
          // One assertion each over the consumer's verdicts: none eligible on the predictor's rung, every item the
          // predictor was asked about abstained.
          expect(
            verdicts
              .filter((e) => e.verdict === 'eligible' && e.rung === 4)
              .map((e) => ({ condition: c.name, item: e.itemId, rung: e.rung })),
          ).toEqual([]);
          expect(
            verdicts
              .filter((e) => asked.has(e.itemId) && e.verdict !== 'abstain')
              .map((e) => ({ condition: c.name, item: e.itemId, verdict: e.verdict })),
          ).toEqual([]);
        }
      }),
      // Every run decides the view with every predictor consumer (tens of milliseconds): 150 runs, about 15 of each
      // way of failing, instead of 300.
      { numRuns: 150 },
    );
  });
});

describe('call/result pairs (rule 8)', () => {
  it("with placeholders none, no prune point's applied removals leave one half of a call/result pair, or a call without its result", () => {
    const tokens = tokenCounter();
    const conditions = allConditions().filter((c) => !c.name.includes('@'));
    fc.assert(
      fc.property(fixtureArb, (plan) => {
        const fixture = Fixture.parse(toFixture(plan));
        const loaded = {
          file: 'generated.json',
          sha256: '0',
          fixture,
          oracleFile: null,
          oracleSha256: null,
          oracle: null,
        };
        const view = buildView(fixture, 'pp', tokens);
        for (const run of runStudy({
          conditions,
          fixtures: [loaded],
          timing: { kind: 'immediate' },
          placeholders: 'none',
          tokens,
        })) {
          const vanished = new Set(
            run.records.filter((r) => r.decision === 'PRUNE' && r.placeholder === '').map((r) => r.itemId),
          );
          for (const item of view.items) {
            if (!vanished.has(item.id) || !item.tool || (item.kind !== 'tool-call' && item.kind !== 'tool-result'))
              continue;
            const other = counterpart(view.items, item);
            if (item.kind === 'tool-call')
              expect({ condition: run.info.name, call: item.id, result: other?.id }).toMatchObject({
                result: expect.any(String),
              });
            if (other)
              expect({
                condition: run.info.name,
                item: item.id,
                other: other.id,
                otherVanished: vanished.has(other.id),
              }).toMatchObject({ otherVanished: true });
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
