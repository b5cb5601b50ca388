// Rule 7 inside the ladders: gated items are never shown to the classifier, and "gated" is the gate as it answers at
// the predictor's step, after the ladder's earlier removals, not as it answered on the whole context.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fixture } from '../../src/fixture/schema.js';
import type { PolicyView } from '../../src/fixture/view.js';
import { buildView } from '../../src/fixture/view.js';
import type { Predictor } from '../../src/policy/mechanisms/predictive-semantic.js';
import { lexicalPredictor } from '../../src/policy/mechanisms/predictive-semantic.js';
import { conditionsWith, predictorScopeOf } from '../../src/policy/registry.js';
import { gateSuspects, regenerabilityGate } from '../../src/policy/regenerability.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';
import { closedUnit, makeView, note, result } from './build-view.js';

const anyView: fc.Arbitrary<PolicyView> = fixtureArb.map((plan) =>
  buildView(Fixture.parse(toFixture(plan)), 'pp', (t) => t.length),
);

/**
 * Random fixtures almost never put a user record in a closed unit's trace with its text held elsewhere, the shape in
 * which the gate's answer changes once rung 3 has removed it: these views are made of that shape, varied (the record's
 * kind, how many items hold its text, which of them are in the trace or are the consequence record, a pending step).
 */
const recordInTraceView: fc.Arbitrary<PolicyView> = fc
  .record({
    kind: fc.constantFrom('constraint', 'preference', 'credential'),
    holders: fc.array(fc.record({ inTrace: fc.boolean(), kind: fc.constantFrom('note', 'result') }), {
      maxLength: 3,
    }),
    recordHolds: fc.boolean(),
    pending: fc.option(fc.nat(3), { nil: undefined }),
    subgoalHits: fc.boolean(),
  })
  .map(({ kind, holders, recordHolds, pending, subgoalHits }) => {
    const text = 'never restart the primary database';
    const held = holders.map((h, i) =>
      h.kind === 'note' ? note(`h${i}`, 5 + i, `reminder: ${text}`) : result(`h${i}`, 5 + i, `notes.md: ${text}`),
    );
    const trace = ['u', 'r2', 'n3', ...holders.flatMap((h, i) => (h.inTrace ? [`h${i}`] : []))];
    return makeView({
      items: [
        { id: 'u', turn: 1, kind, origin: 'user', content: text },
        result('r2', 2, 'replica status: 3 healthy'),
        note('n3', 3, `Decision: restart replicas only${recordHolds ? `; ${text}` : ''}`),
        ...held,
        result('q1', 9, 'unrelated listing'),
      ],
      subgoal: subgoalHits ? 'restart the primary database' : 'restart the replicas',
      visible: {
        workUnits: [closedUnit('wu1', trace, 'n3', ['restart replicas only'])],
        ...(pending !== undefined && pending < holders.length
          ? { pendingSteps: [{ id: 'p1', description: 'check the reminder', references: [`h${pending}`] }] }
          : {}),
      },
    });
  });

describe("a ladder's predictor (rule 7 after earlier removals)", () => {
  let shown: string[] = [];
  const lexical = lexicalPredictor();
  const spy: Predictor = (v, ids, scope) => {
    shown.push(...ids);
    return lexical(v, ids, scope);
  };
  const ladders = conditionsWith({ predictor: spy, label: 'spy' }).filter(
    (c) => c.layer === 'B' && predictorScopeOf(c.name) !== undefined,
  );

  const neverShownWhatTheGateRefuses = (view: PolicyView) => {
    for (const c of ladders) {
      shown = [];
      const verdicts = c.decide(view);
      const before = new Set(verdicts.filter((e) => e.verdict === 'eligible' && e.rung !== 4).map((e) => e.itemId));
      const refused = shown.filter((id) => regenerabilityGate(view, [id], before).has(id));
      expect({ condition: c.name, refused }).toEqual({ condition: c.name, refused: [] });
    }
  };

  it('every ladder that consults the predictor is checked', () => {
    expect(ladders.map((c) => c.name)).toEqual(expect.arrayContaining(['ladder-0-3', 'ladder-0-4']));
  });

  it('is never shown an item the gate refuses given what the ladder removed before asking it (random fixtures)', () => {
    fc.assert(fc.property(anyView, neverShownWhatTheGateRefuses), { numRuns: 300 });
  });

  it('is never shown an item the gate refuses given what the ladder removed before asking it (a removed user record)', () => {
    let reached = 0;
    fc.assert(
      fc.property(recordInTraceView, (view) => {
        neverShownWhatTheGateRefuses(view);
        // The shape does what it is for: in some views rung 3 takes the record and leaves a holder the last one.
        const ladder = ladders.find((c) => c.name === 'ladder-0-4')!;
        const u = ladder.decide(view).find((e) => e.itemId === 'u')!;
        if (u.verdict === 'eligible') reached += 1;
      }),
      { numRuns: 300 },
    );
    expect(reached).toBeGreaterThan(30);
  });
});

describe('the gate suspects (what a ladder asks the gate about before its predictor)', () => {
  it('include every item the gate refuses alone, whatever has gone', () => {
    fc.assert(
      fc.property(anyView, fc.array(fc.boolean(), { maxLength: 40 }), (view, picks) => {
        const gone = new Set(view.items.filter((_, i) => picks[i % Math.max(1, picks.length)]).map((i) => i.id));
        const suspect = gateSuspects(view, gone);
        for (const item of view.items) {
          if (gone.has(item.id)) continue;
          if (regenerabilityGate(view, [item.id], gone).has(item.id))
            expect({ item: item.id, suspect: suspect(item) }).toEqual({ item: item.id, suspect: true });
        }
      }),
      { numRuns: 300 },
    );
  });
});
