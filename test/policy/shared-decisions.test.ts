// What is now derived once per (frozen) view and shared by the conditions that ask it must be what deriving it afresh
// gives: a base condition's decisions (its timing variants ask the same view) and the gate's answer for an item a
// predictor may or may not be shown.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView, type PolicyView } from '../../src/fixture/view.js';
import { withheldFromClassifier } from '../../src/policy/mechanisms/predictive-semantic.js';
import { protectionOf } from '../../src/policy/protection.js';
import { regenerabilityGate } from '../../src/policy/regenerability.js';
import { allConditions, builtInRegistry } from '../../src/policy/registry.js';
import { decidingOnce, timed } from '../../src/policy/timed.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';

const viewArb = fixtureArb.map((plan) => {
  const fixture = Fixture.parse(toFixture(plan));
  return buildView(fixture, fixture.prunePoints[0]!.id, (t) => t.length);
});

/** The same view with fresh, unfrozen copies of everything: nothing can be answered from a memo. */
const unfrozen = (view: PolicyView): PolicyView => structuredClone(view);

describe('a base condition deciding once for its timing variants', () => {
  const ladder = builtInRegistry().definitions.find((d) => (d.timings ?? []).length > 0)!;

  it('gives every variant, and the base, what the base decides afresh', () => {
    const fresh = ladder.build({});
    const base = decidingOnce(fresh);
    const variants = (ladder.timings ?? []).map((t) => timed(base, t));
    fc.assert(
      fc.property(viewArb, (view) => {
        const expected = fresh.decide(unfrozen(view));
        expect(base.decide(view)).toEqual(expected);
        for (const v of variants) expect(v.decide(view)).toEqual(expected);
        // One list, frozen, for the base and all its variants on a frozen view.
        expect(variants.every((v) => v.decide(view) === base.decide(view))).toBe(true);
        expect(Object.isFrozen(base.decide(view))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('decides an unfrozen view afresh on every call', () => {
    const base = decidingOnce(ladder.build({}));
    fc.assert(
      fc.property(viewArb, (view) => {
        const open = unfrozen(view);
        expect(base.decide(open)).not.toBe(base.decide(open));
      }),
      { numRuns: 10 },
    );
  });

  it('is what the registry runs: the registered base and its variants decide as the unshared base', () => {
    const registered = allConditions();
    const base = registered.find((c) => c.name === ladder.name)!;
    const variants = registered.filter((c) => c.name.startsWith(`${ladder.name}~`));
    expect(variants.length).toBe((ladder.timings ?? []).length);
    fc.assert(
      fc.property(viewArb, (view) => {
        const expected = ladder.build({}).decide(unfrozen(view));
        for (const c of [base, ...variants]) expect(c.decide(view)).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });
});

describe("the gate's answer for an item shown to the predictor, remembered per view", () => {
  it('is what asking the protection and the gate afresh gives, for either scope, asked in any order', () => {
    fc.assert(
      fc.property(viewArb, fc.boolean(), (view, reversed) => {
        const items = reversed ? [...view.items].reverse() : view.items;
        for (const scope of ['gated', 'ungated'] as const)
          for (const item of items) {
            const open = unfrozen(view);
            const same = open.items.find((i) => i.id === item.id && i.turn === item.turn)!;
            const expected =
              protectionOf(open, same)?.reason ??
              (scope === 'ungated' ? undefined : regenerabilityGate(open, [same.id]).get(same.id));
            expect(withheldFromClassifier(view, item, scope)).toBe(expected);
            expect(withheldFromClassifier(view, item, scope)).toBe(expected);
          }
      }),
      { numRuns: 80 },
    );
  });
});
