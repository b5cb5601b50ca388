// Properties of a whole run, engine and scoring included, over generated fixtures with generated oracles. The
// expected values are recomputed from the decision records, not taken from the scorer's own formulas.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OracleRatio, Ratio } from '../../src/artifacts/schema.js';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { runStudy } from '../../src/engine/run.js';
import type { LoadedFixture } from '../../src/fixture/load.js';
import { Fixture, Oracle } from '../../src/fixture/schema.js';
import { allConditions } from '../../src/policy/registry.js';
import type { Timing } from '../../src/timing/timing.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';

/** An oracle that sorts the context at random into removable, partial, grouped and necessary items. */
const studyArb = fc.tuple(fixtureArb, fc.array(fc.nat(3), { minLength: 60, maxLength: 60 })).map(([plan, labels]) => {
  const fixture = Fixture.parse(toFixture(plan));
  const point = fixture.prunePoints[0]!;
  const inContext = fixture.items.filter((i) => i.turn <= point.turn).map((i) => i.id);
  const label = (i: number) => labels[i % labels.length]!;
  const group = inContext.filter((_, i) => label(i) === 3);
  const oracle = Oracle.parse({
    schemaVersion: 1,
    fixtureId: fixture.id,
    points: [
      {
        prunePoint: point.id,
        removable: inContext.filter((_, i) => label(i) === 1),
        partial: inContext.filter((_, i) => label(i) === 2).map((itemId) => ({ itemId, residue: ['tool', 'message'] })),
        redundantGroups: group.length >= 2 ? [{ items: group, keep: 1 }] : [],
      },
    ],
  });
  const loaded: LoadedFixture = {
    file: 'generated.json',
    sha256: '',
    fixture,
    oracleFile: 'oracles/generated.oracle.json',
    oracleSha256: '',
    oracle,
  };
  return loaded;
});

const timingArb: fc.Arbitrary<Timing> = fc.oneof(
  fc.constant({ kind: 'immediate' as const }),
  fc.constant({ kind: 'task-boundary' as const }),
  fc.double({ min: 0.05, max: 1, noNaN: true }).map((threshold) => ({ kind: 'pressure' as const, threshold })),
  fc
    .constantFrom('anthropic-5m', 'anthropic-1h', 'openai-in-memory')
    .map((profile) => ({ kind: 'cache-safe' as const, profile })),
);

const expectRatio = (r: OracleRatio | Ratio, numerator: number, denominator: number, what: string) => {
  expect(r, what).toEqual({ numerator, denominator, value: denominator === 0 ? null : numerator / denominator });
};

describe('run properties over generated fixtures', () => {
  it('reports measures that agree with the decision records, numerators within denominators, 0/0 undefined', () => {
    fc.assert(
      fc.property(studyArb, timingArb, (loaded, timing) => {
        const runs = runStudy({
          conditions: allConditions(),
          fixtures: [loaded],
          timing,
          placeholders: 'marker',
          tokens: tokenCounter(),
        });
        const o = loaded.oracle!.points[0]!;
        const eligible =
          o.removable.length + o.partial.length + o.redundantGroups.reduce((s, g) => s + g.items.length - g.keep, 0);
        for (const { summary: s, records } of runs) {
          const pruned = records.filter((r) => r.decision === 'PRUNE');
          const truePrunes = pruned.filter((r) => r.oracle.outcome === 'true-prune').length;
          expect(pruned.every((r) => r.oracle.outcome !== null)).toBe(true);
          expect(
            records
              .filter((r) => r.decision !== 'PRUNE')
              .every((r) => r.oracle.outcome === null && r.placeholder === null),
          ).toBe(true);
          expectRatio(s.precision, truePrunes, pruned.length, `${s.condition} precision`);
          expectRatio(s.falsePruneRate, pruned.length - truePrunes, pruned.length, `${s.condition} false-prune rate`);
          expectRatio(s.coverage, truePrunes, eligible, `${s.condition} coverage`);
          expectRatio(
            s.abstentionRate,
            records.filter((r) => r.decision === 'ABSTAIN').length,
            records.length,
            `${s.condition} abstention`,
          );
          expect(s.precision.numerator).toBeLessThanOrEqual(s.precision.denominator!);
          expect(s.coverage.numerator).toBeLessThanOrEqual(s.coverage.denominator!);
          const raw = records.reduce((t, r) => t + r.tokens.item, 0);
          const removed = pruned.reduce((t, r) => t + r.tokens.item, 0);
          const placeholder = pruned.reduce((t, r) => t + r.tokens.placeholder, 0);
          expect(s.tokens).toEqual({ raw, removed, placeholder, overhead: 0, final: raw - removed + placeholder });
          expect(s.obligations.preserved).toBeLessThanOrEqual(s.obligations.total);
          if (s.condition === 'raw') expect(records.every((r) => r.decision === 'KEEP')).toBe(true);
          if (records.some((r) => r.decision === 'DEFER')) expect(pruned).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('gives each condition the points it gets alone, however many others remove the same items beside it', () => {
    // Conditions share work at a prune point: the obligation judge answers each removal set once for all of them
    // (src/oracle/obligations.ts), and timing variants decide once with their base. Run alone, a condition shares with
    // none, so the two runs must agree byte for byte. A score shared by the items removed alone fails here (what each
    // removal left behind differs from condition to condition); a sharing that keyed everything it reads passes.
    const conditions = allConditions();
    fc.assert(
      fc.property(studyArb, fc.constantFrom('marker' as const, 'none' as const), (loaded, placeholders) => {
        const run = (of: typeof conditions) =>
          runStudy({
            conditions: of,
            fixtures: [loaded],
            timing: { kind: 'immediate' },
            placeholders,
            tokens: tokenCounter(),
          });
        const together = run(conditions);
        conditions.forEach((c, i) => {
          const [alone] = run([c]);
          expect(JSON.stringify(together[i]!.points), c.name).toBe(JSON.stringify(alone!.points));
          expect(JSON.stringify(together[i]!.records), c.name).toBe(JSON.stringify(alone!.records));
        });
      }),
      { numRuns: 12 },
    );
  });
});
