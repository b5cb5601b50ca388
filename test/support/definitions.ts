// Throwaway condition definitions for tests that need a registry of their own: each keeps every item (or prunes
// every item), so what is tested is the registry's and the report's bookkeeping, never a mechanism.
import { defineCondition, type ConditionDefinition, type DefinitionLayer } from '../../src/policy/definition.js';
import type { Rung } from '../../src/policy/types.js';

export interface Throwaway {
  readonly name: string;
  readonly layer: DefinitionLayer;
  readonly rung?: Rung | null;
  readonly upperRisk?: boolean;
  readonly prune?: boolean;
  readonly sweep?: readonly number[];
  readonly timed?: boolean;
}

export function throwaway(t: Throwaway): ConditionDefinition {
  const info = {
    name: t.name,
    layer: t.layer === 'baseline' ? ('control' as const) : t.layer,
    rung: t.rung ?? null,
    version: '0.0.1',
    description: `throwaway ${t.name}`,
    upperRisk: t.upperRisk ?? false,
    consultsObligations: false,
    parameters: { n: 1 },
    ...(t.layer === 'comparator' ? { reference: 'a test' } : {}),
  };
  const make = (name: string, n: number) => ({
    ...info,
    name,
    parameters: { n },
    decide: (view: { items: readonly { id: string }[] }) =>
      view.items.map((item) => ({
        itemId: item.id,
        verdict: t.prune ? ('eligible' as const) : ('keep' as const),
        rule: t.name,
        rung: t.rung ?? null,
        reason: 'throwaway',
        obligationsConsulted: [],
      })),
  });
  return defineCondition({
    ...info,
    layer: t.layer,
    ...(t.sweep
      ? {
          sweep: {
            parameter: 'n',
            values: [...t.sweep],
            variant: (n, as) => ({ ...make(as.name, n), sweepOf: as.sweepOf }),
          },
        }
      : {}),
    ...(t.timed ? { timings: [{ kind: 'task-boundary' }] } : {}),
    build: () => make(t.name, 1),
  });
}
