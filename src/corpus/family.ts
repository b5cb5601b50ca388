// What a scenario family is to the composer: items it writes before its prune point and at the turn its need
// falls due, and, for any prune point, what its construction implies (obligations, necessary items, residues,
// interchangeable copies, visible runtime state). The oracle is assembled from these claims, never from a policy.
import type { Obligation, PendingStep, ResidueField, WorkUnit } from '../fixture/schema.js';
import type { TrajectoryBuilder } from './builder.js';
import type { Rng } from './rng.js';

export const FAMILY_NAMES = [
  'immutable-duplicate-read',
  'mutable-reread',
  'failed-call-bulky-input',
  'superseded-run',
  'completed-subtask',
  'rejected-hypothesis',
  'one-time-secret',
  'stated-once-constraint',
  'transient-state',
  'dormant-dependency',
  'large-reconstructible-read',
] as const;
export type FamilyName = (typeof FAMILY_NAMES)[number];

export interface Claims {
  readonly visible: Obligation[];
  readonly downstream: Obligation[];
  /** Items a later step needs in full. */
  readonly necessary: string[];
  readonly partial: { itemId: string; residue: ResidueField[] }[];
  readonly groups: { items: string[]; keep: number }[];
  /** Items an obligation names whose bytes a pointer or re-read recovers (the obligation says which). */
  readonly recoverable: string[];
  readonly pinned: string[];
  readonly protectedTools: string[];
  readonly pendingSteps: PendingStep[];
  readonly workUnits: WorkUnit[];
  readonly rationale: string;
}

export const NO_CLAIMS: Claims = {
  visible: [],
  downstream: [],
  necessary: [],
  partial: [],
  groups: [],
  recoverable: [],
  pinned: [],
  protectedTools: [],
  pendingSteps: [],
  workUnits: [],
  rationale: '',
};

export function claims(partial: Partial<Claims>): Claims {
  return { ...NO_CLAIMS, ...partial };
}

export interface Placement {
  /** First turn of the opening episode; it takes `span` turns and ends before the target prune point. */
  readonly start: number;
  /** The target prune point's turn. */
  readonly point: number;
  /** When the later step that needs the family's items runs (after the target point, never on a prune point). */
  readonly needAt: number;
}

export interface FamilyInstance {
  readonly family: FamilyName;
  readonly variant: string;
  /** Turns the opening episode takes. */
  readonly span: number;
  /** The mechanisms whose behaviour the construction probes (for the corpus description). */
  readonly exercises: readonly string[];
  /** Writes the opening episode at turns placement.start .. start + span - 1. */
  open(b: TrajectoryBuilder, at: Placement): void;
  /** Writes what happens when the need falls due (the builder is at placement.needAt). */
  use(b: TrajectoryBuilder, at: Placement): void;
  /** What the construction implies at a prune point at `turn` (items after `turn` are not in context). */
  claimsAt(turn: number, at: Placement): Claims;
}

export type FamilyFactory = (r: Rng, prefix: string, context: FamilyContext) => FamilyInstance;

export interface FamilyContext {
  readonly domain: string;
  readonly service: string;
  readonly workspace: string;
  readonly repo: string;
}

export function ob(
  id: string,
  description: string,
  neededAtTurn: number,
  itemIds: string[],
  strings: string[],
  probe: { question: string; expectedAnswer: string },
  recovery: { pointer?: boolean; reread?: boolean } = {},
): Obligation {
  return {
    id,
    description,
    neededAtTurn,
    needs: { itemIds, strings },
    pointerSatisfies: recovery.pointer ?? false,
    rereadSatisfies: recovery.reread ?? false,
    probe,
  };
}
