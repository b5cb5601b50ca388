// Every canonical fixture, run through every condition once, checked against what its author pinned.
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DecisionRecord, PointMeasures } from '../../src/artifacts/schema.js';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { residueText } from '../../src/fixture/residue.js';
import { runStudy, type ConditionRun } from '../../src/engine/run.js';
import type { LoadedFixture } from '../../src/fixture/load.js';
import { loadFixtures } from '../../src/load/fixtures.js';
import { buildView } from '../../src/fixture/view.js';
import { counterfactualProblems, problemText } from '../../src/oracle/counterfactual.js';
import { protectionOf } from '../../src/policy/protection.js';
import { allConditions, conditionNames } from '../../src/policy/registry.js';
import { scorePoint } from '../../src/score/score.js';
import type { FixtureExpectations } from './expectation.js';

const DIR = 'fixtures/canonical';
let fixtures: LoadedFixture[] = [];
let runs: ConditionRun[] = [];
const expectations: FixtureExpectations[] = [];

beforeAll(async () => {
  fixtures = loadFixtures(DIR, process.cwd());
  runs = runStudy({
    conditions: allConditions(),
    fixtures,
    timing: { kind: 'immediate' },
    placeholders: 'marker',
    tokens: tokenCounter(),
  });
  const files = readdirSync('test/canonical/expectations')
    .filter((f) => f.endsWith('.ts'))
    .sort();
  for (const f of files) {
    const name = f.slice(0, -'.ts'.length);
    expectations.push(((await import(`./expectations/${name}.ts`)) as { default: FixtureExpectations }).default);
  }
}, 120_000); // every condition over every canonical fixture: well past the 10 s default on a shared, loaded machine

const record = (condition: string, fixture: string, point: string, item: string): DecisionRecord | undefined =>
  runs
    .find((r) => r.info.name === condition)
    ?.records.find((x) => x.fixture === fixture && x.prunePoint === point && x.itemId === item);
const measures = (condition: string, fixture: string, point: string): PointMeasures | undefined =>
  runs.find((r) => r.info.name === condition)?.points.find((p) => p.fixture === fixture && p.prunePoint === point);

describe('canonical fixtures', () => {
  it('has at least the thirteen scenarios the study needs, each with pinned expectations', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(13);
    expect(expectations.map((e) => e.fixture).sort()).toEqual(fixtures.map((f) => f.fixture.id).sort());
  });

  it('pins every condition somewhere', () => {
    const pinned = new Set(expectations.flatMap((e) => e.decisions.map((d) => d.condition)));
    expect([...conditionNames()].filter((n) => !pinned.has(n))).toEqual([]);
  });

  it('gives each pinned decision, with the oracle outcome the author expected', () => {
    const failures: string[] = [];
    for (const e of expectations) {
      for (const d of e.decisions) {
        const r = record(d.condition, e.fixture, d.prunePoint, d.item);
        const got = r ? `${r.decision}${r.oracle.outcome ? ` (${r.oracle.outcome})` : ''}` : 'no record';
        const want = `${d.decision}${d.outcome ? ` (${d.outcome})` : ''}`;
        if (got !== want && !(d.outcome === undefined && r?.decision === d.decision)) {
          failures.push(
            `${e.fixture} ${d.prunePoint} ${d.condition} ${d.item}: expected ${want}, got ${got} — ${r?.reason ?? ''} [pinned because: ${d.why}]`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('preserves or loses the obligations the author pinned', () => {
    const failures: string[] = [];
    for (const e of expectations) {
      for (const o of e.obligations ?? []) {
        const got = measures(o.condition, e.fixture, o.prunePoint)?.obligationOutcomes.find(
          (x) => x.id === o.obligation,
        );
        if (got?.preserved !== o.preserved)
          failures.push(
            `${e.fixture} ${o.prunePoint} ${o.condition} ${o.obligation}: expected preserved=${o.preserved}, got ${JSON.stringify(got)} [${o.why}]`,
          );
      }
      for (const a of e.refetchAlerts ?? []) {
        const got = measures(a.condition, e.fixture, a.prunePoint)?.refetchAlerts;
        if (got !== a.count)
          failures.push(
            `${e.fixture} ${a.prunePoint} ${a.condition}: expected ${a.count} re-fetch alerts, got ${got} [${a.why}]`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it("has oracles consistent with their own obligations: applying exactly the oracle's removals preserves them all", () => {
    const counter = tokenCounter();
    for (const { fixture, oracle } of fixtures) {
      for (const point of fixture.prunePoints) {
        const o = oracle!.points.find((p) => p.prunePoint === point.id)!;
        const view = buildView(fixture, point.id, counter);
        // Spare copies taken greedily, an item once, while every group it is in (groups may overlap) can spare it.
        const left = o.redundantGroups.map((g) => g.items.length - g.keep);
        const spare: string[] = [];
        for (const id of new Set(o.redundantGroups.flatMap((g) => g.items))) {
          const groups = o.redundantGroups.flatMap((g, i) => (g.items.includes(id) ? [i] : []));
          if (groups.every((i) => left[i]! > 0)) {
            groups.forEach((i) => {
              left[i]! -= 1;
            });
            spare.push(id);
          }
        }
        const removals = [
          ...o.removable.map((itemId) => ({ itemId, residue: undefined })),
          ...o.partial.map((p) => ({ itemId: p.itemId, residue: p.residue })),
          ...spare.map((itemId) => ({ itemId, residue: undefined })),
        ].map((r) => {
          const item = view.items.find((i) => i.id === r.itemId)!;
          const kept = r.residue ? residueText(view, item, r.residue) : '';
          return { ...r, leftBehind: kept, leftBehindTokens: 0 };
        });
        const m = scorePoint({
          condition: 'oracle',
          fixture,
          point,
          oracle: o,
          view,
          decisions: [],
          removals,
          overheadTokens: 0,
        }).measures;
        const lost = m.obligationOutcomes
          .filter((x) => !x.preserved)
          .map((x) => `${x.id} missing ${x.missing.join(' | ')}`);
        expect(lost, `${fixture.id} ${point.id}`).toEqual([]);
        expect(m.falsePruneRate.numerator, `${fixture.id} ${point.id}`).toBe(0);
      }
    }
  });

  it('has oracles that pass the counterfactual rule: each necessary item loses an obligation alone or is declared kept', () => {
    const problems = fixtures.flatMap(({ fixture, oracle, oracleFile }) =>
      counterfactualProblems(fixture, oracle!).map((p) => problemText(oracleFile!, p)),
    );
    expect(problems).toEqual([]);
  });

  it('never lets a consulting condition remove an item a visible obligation protects', () => {
    for (const run of runs.filter((r) => r.info.consultsObligations)) {
      for (const { fixture } of fixtures) {
        for (const point of fixture.prunePoints) {
          const view = buildView(fixture, point.id, (t) => t.length);
          for (const item of view.items) {
            const r = record(run.info.name, fixture.id, point.id, item.id)!;
            if (protectionOf(view, item))
              expect(r.decision, `${run.info.name} ${fixture.id} ${point.id} ${item.id}`).not.toBe('PRUNE');
          }
        }
      }
    }
  });

  it('raw removes nothing on any canonical fixture', () => {
    const raw = runs.find((r) => r.info.name === 'raw')!;
    expect(raw.records.every((r) => r.decision === 'KEEP')).toBe(true);
    expect(raw.summary.tokens.removed).toBe(0);
    expect(raw.summary.precision.value).toBeNull();
  });
});
