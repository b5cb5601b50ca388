// What a reader is: something that answers an obligation's probe from a context, one side (full or pruned) at a
// time. The engine stays synchronous, so a model reader answers from answers prepared before the run (model.ts).
import type { Fixture, Obligation, PrunePoint } from '../fixture/schema.js';
import type { PolicyView } from '../fixture/view.js';
import type { CallCharge } from '../providers/telemetry.js';

/** One entry of the context as a reader sees it: an item's content, or what its removal left behind. */
export interface ContextEntry {
  readonly id: string;
  readonly kind: string;
  readonly text: string;
  /** Whether this entry is what a removal left (a placeholder or residue), not the item itself. */
  readonly removed: boolean;
}

export interface ProbeInput {
  readonly fixture: Fixture;
  readonly point: PrunePoint;
  readonly view: PolicyView;
  readonly side: 'full' | 'pruned';
  readonly context: readonly ContextEntry[];
  readonly obligation: Obligation;
  /** Whether every required fact is in `context` (looked up as scoring does). */
  readonly factsPresent: boolean;
  /** Whether facts that left the context can be recovered (pointer or re-read), as scoring found. */
  readonly recovered: boolean;
  readonly epoch: number;
}

export interface Judgement {
  readonly correct: boolean;
  /** The reader committed to an answer (a model saying UNKNOWN did not). */
  readonly answered: boolean;
  /** The call failed or its answer was unparseable (then not correct, and counted). */
  readonly error: boolean;
  readonly charge: CallCharge | null;
}

export interface Reader {
  /** 'structural' or provider/model: the label every behaviour block carries. */
  readonly label: string;
  readonly epochs: number;
  readonly temperature: number | null;
  readonly seeds: readonly number[] | null;
  judge(input: ProbeInput): Judgement;
}

/** The context text a model reader is shown: one block per entry, in context order. */
export function renderContext(context: readonly ContextEntry[]): string {
  return context.map((e) => `[${e.id}] (${e.kind}${e.removed ? ', removed' : ''})\n${e.text}`).join('\n\n');
}
