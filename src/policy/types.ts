// The one small interface every pruning mechanism and condition sits behind. Mechanisms and conditions are pure
// functions of a PolicyView and the parameters they were built with; none of them can import the oracle.
import { z } from 'zod';
import { ResidueField } from '../fixture/schema.js';
import type { PolicyView } from '../fixture/view.js';
import type { Timing } from '../timing/timing.js';

/** 0 representation identity, 1 source identity, 2 checked subsumption, 3 verified closure, 4 prediction. */
export type Rung = 0 | 1 | 2 | 3 | 4;

export type Layer = 'control' | 'A' | 'B' | 'comparator';

/**
 * What a mechanism found about one item. Items a mechanism has nothing to say about get no finding. Declared as a
 * schema because a mechanism can come from outside the project (a --policy module): its findings are checked.
 */
export const FindingSchema = z
  .strictObject({
    itemId: z.string().min(1),
    /**
     * eligible: the mechanism's evidence permits removal. abstain: it applies but a check it needs is unavailable.
     * keep: its check ran and refused removal, for the reason given; in a ladder it binds every later step (no later
     * rule judges the item and the predictor is never asked about it), as an abstention does not unless it `binds`.
     */
    outcome: z.enum(['eligible', 'abstain', 'keep']),
    reason: z.string().min(1),
    /**
     * For an abstention (ignored on any other outcome): the check that could not run asked whether the item must stay (a yes would have been a
     * KEEP), and no later rule asks it, so in a ladder the abstention binds every later step as a KEEP does: the item
     * leaves the candidates and stays ABSTAIN with this reason, and the predictor is never asked about it.
     */
    binds: z.literal(true).optional(),
    /** Ids of the visible obligations, pending steps or work units the mechanism consulted. */
    consulted: z.array(z.string()).readonly().optional(),
    /** A partial removal: only these fields of the item survive (the bulk goes). Absent means the whole item goes. */
    residue: z.array(ResidueField).readonly().optional(),
    /** Replacement text the mechanism itself defines (a comparator reproducing a published placeholder). */
    replacement: z.string().optional(),
    /**
     * Items whose staying in context an eligible finding rests on: the copy or twin that stays, the newer observation
     * that contains this one, the consequence record. A ladder keeps them from its later rules, since removing one
     * would leave this removal resting on nothing.
     */
    reliesOn: z.array(z.string()).readonly().optional(),
  })
  .readonly();

export type Finding = z.infer<typeof FindingSchema>;

export interface Mechanism {
  /** The rule name recorded as what removed an item. */
  readonly rule: string;
  readonly rung: Rung;
  readonly version: string;
  /** Judges the items it is given; `view` is the whole context so a mechanism can look for survivors. */
  assess(view: PolicyView, candidates: readonly string[]): readonly Finding[];
}

export const RungSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

/**
 * A condition's eligibility verdict on one candidate, before timing decides whether to apply it now. Declared as a
 * schema because conditions can come from outside the project: the engine checks every verdict against it.
 */
export const EligibilitySchema = z
  .strictObject({
    itemId: z.string().min(1),
    verdict: z.enum(['keep', 'eligible', 'abstain']),
    /** The rule that produced the verdict (for eligible: the rule that removes the item). */
    rule: z.string().min(1),
    rung: RungSchema.nullable(),
    reason: z.string().min(1),
    obligationsConsulted: z.array(z.string()).readonly(),
    /** A partial removal: only these fields of the item survive (the bulk goes). */
    residue: z.array(ResidueField).readonly().optional(),
    /** Replacement text the condition itself defines (a comparator reproducing a published placeholder). */
    replacement: z.string().optional(),
    /** In a ladder: 1-based position of the rule in the application order; absent elsewhere. */
    step: z.int().positive().optional(),
  })
  .readonly();

export type Eligibility = z.infer<typeof EligibilitySchema>;

const ELIGIBILITY_KEYS: ReadonlySet<string> = new Set(Object.keys(EligibilitySchema.unwrap().shape));
const VERDICTS: ReadonlySet<unknown> = new Set(EligibilitySchema.unwrap().shape.verdict.options);

/**
 * Whether a value is an eligibility EligibilitySchema accepts unchanged, checked in plain code: the engine checks
 * every verdict of every condition (millions in a study), and zod's generic walk was a twentieth of a run. It only
 * ever says yes to what the schema accepts (a property test holds it to that); anything unusual (an optional key
 * present as undefined, an odd value) gets no, and the caller then parses with the schema, which names the problem.
 */
export function isPlainEligibility(raw: unknown): raw is Eligibility {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || Object.getPrototypeOf(raw) !== Object.prototype)
    return false;
  const e = raw as Record<string, unknown>;
  for (const key of Object.keys(e)) if (!ELIGIBILITY_KEYS.has(key) || e[key] === undefined) return false;
  return (
    isText(e.itemId) &&
    VERDICTS.has(e.verdict) &&
    isText(e.rule) &&
    (e.rung === null || e.rung === 0 || e.rung === 1 || e.rung === 2 || e.rung === 3 || e.rung === 4) &&
    isText(e.reason) &&
    isStrings(e.obligationsConsulted) &&
    (!('residue' in e) || isResidue(e.residue)) &&
    (!('replacement' in e) || typeof e.replacement === 'string') &&
    (!('step' in e) || (Number.isSafeInteger(e.step) && (e.step as number) > 0))
  );
}

// The checks are module functions, not closures made per call: it runs millions of times, and tsx's keepNames
// wraps every closure it creates in a naming call.
function isText(v: unknown): boolean {
  return typeof v === 'string' && v.length > 0;
}

function isStrings(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i += 1) if (typeof v[i] !== 'string') return false;
  return true;
}

function isResidue(v: unknown): boolean {
  if (!isStrings(v)) return false;
  for (const f of v as string[]) if (!ResidueField.safeParse(f).success) return false;
  return true;
}

export interface ConditionInfo {
  readonly name: string;
  readonly layer: Layer;
  /** The highest evidence rung the condition acts on; null for control and rung-less comparators. */
  readonly rung: Rung | null;
  readonly version: string;
  readonly description: string;
  /** Conditions that remove on prediction alone are labelled upper-risk, never proposed as policy. */
  readonly upperRisk: boolean;
  /** Whether the condition refuses to remove what a visible obligation protects. */
  readonly consultsObligations: boolean;
  readonly parameters: Readonly<Record<string, number | string | boolean>>;
  /** For comparators: the published behaviour it reproduces. */
  readonly reference?: string;
  /** For ladders: the rules in application order. */
  readonly order?: readonly string[];
  /** For a parameter-sweep variant: the base condition it varies, the parameter and this variant's value. */
  readonly sweepOf?: SweepOf;
  /**
   * When the condition's eligible removals are applied: a condition that declares its own timing is run with it
   * whatever the run's --timing (a timing variant of a base condition); absent, the run's timing applies.
   */
  readonly timing?: Timing;
}

export interface SweepOf {
  readonly condition: string;
  readonly parameter: string;
  readonly value: number;
}

export interface Condition extends ConditionInfo {
  /** Exactly one eligibility per item of the view, in the view's order. */
  decide(view: PolicyView): readonly Eligibility[];
}
