// Properties of a whole run, engine and scoring included, over generated fixtures with generated oracles.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ratio } from '../../src/artifacts/schema.js';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { runStudy } from '../../src/engine/run.js';
import type { LoadedFixture } from '../../src/fixture/load.js';
import { Fixture, Oracle } from '../../src/fixture/schema.js';
import { allConditions } from '../../src/policy/registry.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';

/** An oracle that sorts the context at random into removable, partial, grouped and necessary items. */
const studyArb = fc.tuple(fixtureArb, fc.array(fc.nat(3), { minLength: 60, maxLength: 60 })).map(([plan, labels]) => {
  const fixture = Fixture.parse(toFixture(plan));
  const point = fixture.prunePoints[0]!;
  const inContext = fixture.items.filter((i) => i.turn <= point.turn).map((i) => i.id);
  const label = (i: number) => labels[i % labels.length]!;
  const group = inContext.filter((_, i) => label(i) === 3);
  const oracle = Oracle.parse({
    schemaVersion: 1, fixtureId: fixture.id,
    points: [{
      prunePoint: point.id,
      removable: inContext.filter((_, i) => label(i) === 1),
      partial: inContext.filter((_, i) => label(i) === 2).map((itemId) => ({ itemId, residue: ['tool', 'message'] })),
      redundantGroups: group.length >= 2 ? [{ items: group, keep: 1 }] : [],
    }],
  });
  const loaded: LoadedFixture = { file: 'generated.json', sha256: '', fixture, oracleFile: 'oracles/generated.oracle.json', oracleSha256: '', oracle };
  return loaded;
});

const within = (r: Ratio) => r.numerator <= r.denominator && (r.denominator === 0 ? r.value === null : r.value === r.numerator / r.denominator);

describe('run properties over generated fixtures', () => {
  it('keeps every numerator within its denominator, 0/0 undefined, and the token books balanced', () => {
    fc.assert(fc.property(studyArb, fc.constantFrom('immediate', 'task-boundary') , (loaded, timing) => {
      const runs = runStudy({ conditions: allConditions(), fixtures: [loaded], timing: { kind: timing as 'immediate' }, placeholders: 'marker', tokens: tokenCounter() });
      for (const { summary: s } of runs) {
        for (const r of [s.precision, s.falsePruneRate, s.coverage, s.abstentionRate]) expect(within(r), `${s.condition} ${JSON.stringify(r)}`).toBe(true);
        expect(s.precision.numerator + s.falsePruneRate.numerator).toBe(s.decisions.prune);
        expect(s.precision.denominator).toBe(s.decisions.prune);
        expect(s.decisions.keep + s.decisions.prune + s.decisions.defer + s.decisions.abstain).toBe(s.decisions.total);
        expect(s.obligations.preserved).toBeLessThanOrEqual(s.obligations.total);
        expect(s.tokens.final).toBe(s.tokens.raw - s.tokens.removed + s.tokens.placeholder);
        if (s.condition === 'raw') expect([s.decisions.prune, s.decisions.defer, s.tokens.removed]).toEqual([0, 0, 0]);
      }
    }), { numRuns: 150 });
  });
});
