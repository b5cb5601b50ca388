// Properties every condition must hold on any small fixture, not just the hand-built ones: the control removes
// nothing, the consulting conditions never make a protected item eligible, and every condition answers exactly once
// per item in the view's order (deterministically, with residue and replacement only on eligible verdicts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fixture } from '../../src/fixture/schema.js';
import type { PolicyView } from '../../src/fixture/view.js';
import { buildView } from '../../src/fixture/view.js';
import { protectionOf } from '../../src/policy/protection.js';
import { allConditions } from '../../src/policy/registry.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';

// The issue names these; every condition that declares it consults obligations (ladder-0-4 too) must behave so.
const NAMED_CONSULTING = [
  'exact-redundancy',
  'source-identity',
  'errored-input-residue',
  'checked-supersession',
  'verified-completion',
  'ladder-0',
  'ladder-0-1',
  'ladder-0-2',
  'ladder-0-3',
  'regenerability-guard',
];

const viewArb: fc.Arbitrary<PolicyView> = fixtureArb.map((plan) =>
  buildView(Fixture.parse(toFixture(plan)), 'pp', (t) => t.length),
);
const RUNS = { numRuns: 400 };

describe('policy properties over generated fixtures', () => {
  it('raw removes nothing', () => {
    const raw = allConditions().find((c) => c.name === 'raw');
    fc.assert(
      fc.property(viewArb, (view) => {
        expect(raw?.decide(view).every((e) => e.verdict === 'keep')).toBe(true);
      }),
      RUNS,
    );
  });

  it('consulting conditions never make a protected item eligible', () => {
    const consulting = allConditions().filter((c) => c.consultsObligations);
    expect(consulting.map((c) => c.name)).toEqual(expect.arrayContaining(NAMED_CONSULTING));
    expect(consulting.map((c) => c.name)).not.toContain('predictive-semantic');
    fc.assert(
      fc.property(viewArb, (view) => {
        const protectedIds = new Set(view.items.filter((item) => protectionOf(view, item)).map((item) => item.id));
        for (const c of consulting) {
          expect(
            c
              .decide(view)
              .filter((e) => protectedIds.has(e.itemId) && e.verdict === 'eligible')
              .map((e) => ({ condition: c.name, item: e.itemId, verdict: e.verdict })),
          ).toEqual([]);
        }
      }),
      RUNS,
    );
  });

  it('every condition returns exactly one eligibility per view item, in view order, deterministically', () => {
    fc.assert(
      fc.property(viewArb, (view) => {
        const ids = view.items.map((item) => item.id);
        const conditions = allConditions();
        const first = conditions.map((c) => c.decide(view));
        // Each check in one assertion over every condition and verdict (vitest's expect costs microseconds a call,
        // and an expect per verdict was most of this test's time); each entry names its condition.
        expect(
          first.map((verdicts, k) => ({ condition: conditions[k]!.name, items: verdicts.map((e) => e.itemId) })),
        ).toEqual(conditions.map((c) => ({ condition: c.name, items: ids })));
        expect(conditions.map((c) => ({ condition: c.name, verdicts: c.decide(view) }))).toEqual(
          first.map((verdicts, k) => ({ condition: conditions[k]!.name, verdicts })),
        );
        // No residue or replacement on a verdict other than eligible; no obligation consulted by a condition that
        // declares it consults none.
        expect(
          first.flatMap((verdicts, k) => {
            const c = conditions[k]!;
            return verdicts
              .filter(
                (e) =>
                  (e.verdict !== 'eligible' && (e.residue !== undefined || e.replacement !== undefined)) ||
                  (!c.consultsObligations &&
                    !(Array.isArray(e.obligationsConsulted) && e.obligationsConsulted.length === 0)),
              )
              .map((e) => ({
                condition: c.name,
                item: e.itemId,
                verdict: e.verdict,
                residue: e.residue,
                replacement: e.replacement,
                consulted: e.obligationsConsulted,
              }));
          }),
        ).toEqual([]);
      }),
      RUNS,
    );
  });

  it('ladder-0-3 never removes on prediction, and the evidence ladders never remove on it at all', () => {
    const ladders = allConditions().filter((c) =>
      ['ladder-0', 'ladder-0-1', 'ladder-0-2', 'ladder-0-3'].includes(c.name),
    );
    fc.assert(
      fc.property(viewArb, (view) => {
        for (const c of ladders) {
          for (const e of c.decide(view)) {
            if (e.verdict === 'eligible') expect(e.rung === null || e.rung <= 3).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });
});
