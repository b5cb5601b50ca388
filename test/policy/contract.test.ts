// The contract every built-in condition's definition keeps, run over each one, and the proof that adding one is one
// file plus one test: a throwaway definition registered in a fresh registry joins every derived list by its
// declaration alone, and the global registry does not see it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { loadFixtures } from '../../src/load/fixtures.js';
import { buildView, type PolicyView } from '../../src/fixture/view.js';
import { ConditionDefinition, recordedLayer, VERSION } from '../../src/policy/definition.js';
import {
  builtInRegistry,
  conditionNames,
  createRegistry,
  DEFINITIONS,
  PREDICTOR_CONSUMERS,
  predictorScopeOf,
  type Registry,
} from '../../src/policy/registry.js';
import { EligibilitySchema, type Condition } from '../../src/policy/types.js';
import { outsiderComparisons, secondaryFromRegistry } from '../../src/report/study.js';
import { PROPOSED } from '../../experiments/ch10-ablation/study.js';
import { throwaway } from '../support/definitions.js';

const tokens = tokenCounter();
// Canonical fixtures that between them have failed calls, re-reads, a closed work unit and an over-budget point.
const VIEWS: PolicyView[] = loadFixtures('fixtures/canonical', process.cwd())
  .filter((f) =>
    ['config-reread-drift', 'completed-work-test-id', 'credential-once'].some((id) => f.fixture.id.startsWith(id)),
  )
  .flatMap((f) => f.fixture.prunePoints.map((p) => buildView(f.fixture, p.id, tokens)));

function validDecisions(condition: Condition): void {
  expect(VIEWS.length).toBeGreaterThan(0);
  for (const view of VIEWS) {
    const out = condition.decide(view);
    expect(
      out.map((e) => e.itemId),
      `${condition.name} on ${view.fixtureId}/${view.prunePoint.id}`,
    ).toEqual(view.items.map((i) => i.id));
    for (const e of out) expect(() => EligibilitySchema.parse(e)).not.toThrow();
  }
}

/** Every list derived from a registry's definitions, as a reader of the report or the predictor seam sees them. */
function derived(registry: Registry, proposed: string) {
  const ids = new Set([...secondaryFromRegistry(registry, proposed).map((c) => c.id)]);
  return { ids, names: registry.registered.map((r) => r.condition.name) };
}

describe('the contract of every condition definition', () => {
  const registry = builtInRegistry();
  const { ids } = derived(registry, PROPOSED);
  const readme = readFileSync('docs/conditions.md', 'utf8');

  it('has unique names, and the registry lists exactly the definitions (bases first, then their variants)', () => {
    const bases = DEFINITIONS.map((d) => d.name);
    expect(new Set(bases).size).toBe(bases.length);
    expect(conditionNames().slice(0, bases.length)).toEqual(bases);
    expect(new Set(conditionNames()).size).toBe(conditionNames().length);
  });

  for (const definition of DEFINITIONS) {
    describe(definition.name, () => {
      it('declares every required field in its valid form', () => {
        expect(ConditionDefinition.safeParse(definition).success).toBe(true);
        expect(definition.version).toMatch(VERSION);
        expect(definition.description.trim().length).toBeGreaterThan(10);
        if (definition.layer === 'comparator') expect(definition.reference?.length).toBeGreaterThan(10);
      });

      it('builds the condition it declares, whose decisions are valid on canonical fixtures', () => {
        const built = definition.build({});
        expect({
          name: built.name,
          layer: built.layer,
          rung: built.rung,
          version: built.version,
          upperRisk: built.upperRisk,
          consultsObligations: built.consultsObligations,
          reference: built.reference,
        }).toEqual({
          name: definition.name,
          layer: recordedLayer(definition.layer),
          rung: definition.rung,
          version: definition.version,
          upperRisk: definition.upperRisk,
          consultsObligations: definition.consultsObligations,
          reference: definition.reference,
        });
        expect(built.description.startsWith(definition.description)).toBe(true);
        expect(built.parameters).toMatchObject(definition.parameters);
        validDecisions(built);
      });

      it('is in every derived list its declaration puts it in, and in no other', () => {
        const name = definition.name;
        expect(readme).toContain(`| \`${name}\` | ${definition.layer} |`);
        expect(predictorScopeOf(name)).toBe(definition.consumes?.predictor);
        expect(PREDICTOR_CONSUMERS.includes(name)).toBe(definition.consumes !== undefined);
        for (const value of definition.sweep?.values ?? []) {
          const variant = registry.find(`${name}@${String(value)}`);
          expect(variant?.condition.sweepOf).toEqual({
            condition: name,
            parameter: definition.sweep!.parameter,
            value,
          });
          expect(variant?.condition.parameters[definition.sweep!.parameter]).toBe(value);
          // A sweep keeps the embedded predictor: it never becomes a consumer.
          expect(PREDICTOR_CONSUMERS).not.toContain(variant?.condition.name);
        }
        const timed = registry.registered.filter((r) => r.variant === 'timing' && r.definition === definition);
        expect(timed).toHaveLength(definition.timings?.length ?? 0);
        for (const t of timed) expect(predictorScopeOf(t.condition.name)).toBe(definition.consumes?.predictor);
        if (definition.layer === 'baseline') expect(registry.baseline).toBe(name);
        if (definition.layer === 'A') expect(ids).toContain(`${name}-vs-${registry.baseline}`);
        if (definition.layer === 'A' && definition.upperRisk) expect(ids).toContain(`${name}-vs-${PROPOSED}`);
        if (definition.layer === 'comparator') {
          expect(ids).toContain(`${name}-vs-${PROPOSED}`);
          expect(ids).toContain(`${name}-vs-${registry.baseline}`);
        }
        if (definition.layer === 'B') {
          // Each ladder that adds a rung is compared with the ladder before it.
          const chain = DEFINITIONS.filter((d) => d.layer === 'B')
            .filter((d, i, all) => all.findIndex((x) => x.rung === d.rung) === i)
            .map((d) => d.name);
          const at = chain.indexOf(name);
          if (at > 0) expect(ids).toContain(`${name}-vs-${chain[at - 1]!}`);
        }
        if (definition.layer === 'control' || definition.layer === 'baseline')
          expect([...ids].some((id) => id.startsWith(`${name}-vs-`))).toBe(false);
      });
    });
  }

  it("derives the sweep and timing variants' builds as valid conditions too", () => {
    for (const r of registry.registered.filter((x) => x.variant !== 'base')) validDecisions(r.condition);
  });
});

describe('adding a built-in condition is one definition', () => {
  const extra = [
    throwaway({ name: 'drop-everything', layer: 'comparator', prune: true, sweep: [2, 3] }),
    throwaway({ name: 'my-mechanism', layer: 'A', rung: 2 }),
  ];
  const fresh = createRegistry([...DEFINITIONS, ...extra]);

  it('joins the conditions, its variants, and the comparisons its layer gives it, in a fresh registry only', () => {
    const names = fresh.registered.map((r) => r.condition.name);
    expect(names).toContain('drop-everything');
    expect(names.slice(-2)).toEqual(['drop-everything@2', 'drop-everything@3']);
    const ids = secondaryFromRegistry(fresh, PROPOSED).map((c) => c.id);
    expect(ids).toContain(`drop-everything-vs-${PROPOSED}`);
    expect(ids).toContain('my-mechanism-vs-raw');
    expect(ids).toContain('drop-everything-vs-raw');
    expect(ids).not.toContain('my-mechanism-vs-ladder-0-3');
    validDecisions(fresh.find('drop-everything')!.condition);
    // The global registry never saw it: a condition from outside it gets the outsider's comparisons.
    expect(conditionNames()).not.toContain('drop-everything');
    expect(outsiderComparisons(['drop-everything'], PROPOSED).map((c) => c.id)).toEqual([
      'drop-everything-vs-raw',
      `drop-everything-vs-${PROPOSED}`,
    ]);
    expect(outsiderComparisons(['drop-everything'], PROPOSED, fresh)).toEqual([]);
  });

  it('is refused when its declaration is incomplete or collides, naming what is wrong', () => {
    expect(() => throwaway({ name: 'Bad Name', layer: 'A' })).toThrow(/field "name"/);
    const noReference = { ...throwaway({ name: 'cited', layer: 'control' }), layer: 'comparator' as const };
    expect(ConditionDefinition.safeParse(noReference).error?.issues[0]?.path).toEqual(['reference']);
    expect(() => createRegistry([...DEFINITIONS, throwaway({ name: 'raw', layer: 'control' })])).toThrow(
      /two condition definitions are named "raw"/,
    );
    expect(() => createRegistry(DEFINITIONS.filter((d) => d.layer !== 'baseline'))).toThrow(/exactly one baseline/);
  });
});
