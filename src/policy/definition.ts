// What one built-in condition declares about itself, in its own file: everything the registry, the report's
// comparisons, the predictor seam, the sweeps and docs/conditions.md's table need is read from here, so adding a
// condition is one file (and its test) plus one line in the registry's list. Entering it into the preregistered study
// is a separate, deliberate step (experiments/<study>/).
import { z } from 'zod';
import { isTiming, type Timing } from '../timing/timing.js';
import type { Predictor } from './predictor.js';
import { RungSchema, type Condition, type Layer, type SweepOf } from './types.js';

/** A predictor to build the rung-4 conditions with instead of the embedded lexical one, and its label. */
export interface InjectedPredictor {
  readonly predictor: Predictor;
  readonly label: string;
}

/** What a build may be given: a model-backed predictor, for a definition that consumes one. */
export interface BuildContext {
  readonly predictor?: InjectedPredictor;
}

/**
 * `baseline` is the one condition every other is compared with ("keep everything"); results record it as a
 * `control`, the layer its rows have always had, so a run's files do not change with this declaration.
 */
export const DefinitionLayer = z.enum(['baseline', 'control', 'A', 'B', 'comparator']);
export type DefinitionLayer = z.infer<typeof DefinitionLayer>;

export function recordedLayer(layer: DefinitionLayer): Layer {
  return layer === 'baseline' ? 'control' : layer;
}

const fn = <T>(what: string) => z.custom<T>((v) => typeof v === 'function', { message: `must be a function: ${what}` });

/** A base name: its variants add `@value` (a sweep) or `~timing` (a timing variant), so neither may appear in it. */
export const CONDITION_NAME = /^[a-z0-9][a-z0-9-]*$/;
export const VERSION = /^\d+\.\d+\.\d+$/;

const Parameters = z.record(z.string(), z.union([z.number(), z.string(), z.boolean()]));

export const ConditionDefinition = z
  .strictObject({
    name: z.string().regex(CONDITION_NAME),
    layer: DefinitionLayer,
    /** The highest rung the condition acts on; null for controls and rung-less comparators. */
    rung: RungSchema.nullable(),
    version: z.string().regex(VERSION),
    /** One line. A build may append what it only learns when it runs (a control table's training seed). */
    description: z
      .string()
      .min(1)
      .regex(/^[^\n]+$/),
    upperRisk: z.boolean(),
    consultsObligations: z.boolean(),
    /** The default parameters; a build may add derived ones (a table's hash, the predictor's label). */
    parameters: Parameters,
    /** For a comparator: the published behaviour it reproduces (repository, path and commit, or docs page). */
    reference: z.string().min(1).optional(),
    /** For a condition that runs a published package: the reimplementation of the same rule it is compared with. */
    shadows: z.string().regex(CONDITION_NAME).optional(),
    /** The model seams it reads: the predictor, under the scope it asks with (see PredictorScope). */
    consumes: z.strictObject({ predictor: z.enum(['gated', 'ladder', 'ungated']) }).optional(),
    /** A parameter sweep: each value is an ordinary condition `<name>@<value>`, registered after every base. */
    sweep: z
      .strictObject({
        parameter: z.string().min(1),
        values: z.array(z.number()).min(1),
        variant: fn<(value: number, as: { readonly name: string; readonly sweepOf: SweepOf }) => Condition>(
          '(value, { name, sweepOf }) => Condition',
        ),
      })
      .optional(),
    /** Timings it is also registered with, each as `<name>~<timing>` deciding what the base decides (timed.ts). */
    timings: z
      .array(z.custom<Timing>(isTiming, { message: 'must be a Timing' }))
      .min(1)
      .optional(),
    build: fn<(context: BuildContext) => Condition>('(context) => Condition'),
  })
  .superRefine((d, ctx) => {
    if (d.layer === 'comparator' && d.reference === undefined)
      ctx.addIssue({ code: 'custom', path: ['reference'], message: 'a comparator cites what it reproduces' });
    if (d.sweep && !(d.sweep.parameter in d.parameters)) {
      ctx.addIssue({
        code: 'custom',
        path: ['sweep', 'parameter'],
        message: `"${d.sweep.parameter}" is not one of its parameters`,
      });
    }
  });

export type ConditionDefinition = z.infer<typeof ConditionDefinition>;

/** Checks a definition when its module loads, so a malformed one fails at once, naming itself and the field. */
export function defineCondition(definition: ConditionDefinition): ConditionDefinition {
  const parsed = ConditionDefinition.safeParse(definition);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(
      `internal: condition definition "${String(definition.name)}", field "${issue.path.join('.')}": ${issue.message}`,
    );
  }
  return Object.freeze(definition);
}

/**
 * The condition a definition describes, deciding with `decide`: for a condition whose built form carries exactly its
 * definition's self-description (name, layer, flags, parameters, reference), so that is stated once, in the definition.
 */
export function conditionOf(definition: ConditionDefinition, decide: Condition['decide']): Condition {
  const { name, layer, rung, version, description, upperRisk, consultsObligations, parameters, reference } = definition;
  return {
    name,
    layer: recordedLayer(layer),
    rung,
    version,
    description,
    upperRisk,
    consultsObligations,
    parameters,
    ...(reference === undefined ? {} : { reference }),
    decide,
  };
}

export function sweepName(base: string, value: number): string {
  return `${base}@${String(value)}`;
}
