// The regenerability record's classes, computed only from what a runtime could know about an item. The guard
// refuses on them, every decision record carries them, and scoring raises re-fetch alerts on irreducible removals.
import type { PolicyView, ViewItem } from '../fixture/view.js';
import { toolDeclaration } from '../fixture/view.js';

export type RegenerabilityClass = 'deterministic' | 'durable-pointer' | 'irreducible';

export interface Regenerability {
  readonly class: RegenerabilityClass;
  readonly why: string;
}

/** Why an item cannot be evicted under the regenerability record's refusal cases, if it cannot. */
export function refusalCase(view: PolicyView, item: ViewItem): string | undefined {
  const f = item.flags;
  if (f.negativeResult) return 'negative result';
  if (f.oneTimeSecret) return 'one-time secret';
  if (f.transientState) return 'observation of transient state';
  if (f.soleConstraintRecord) return 'sole record of a user constraint';
  const side = toolDeclaration(view, item.tool?.name)?.sideEffect;
  if (item.kind === 'tool-result' && (side === 'non-idempotent' || side === 'destructive')) {
    return `output of a ${side} call`;
  }
  return undefined;
}

export function classify(view: PolicyView, item: ViewItem): Regenerability {
  const refusal = refusalCase(view, item);
  if (refusal) return { class: 'irreducible', why: refusal };
  if (item.flags.durablePointer) return { class: 'durable-pointer', why: `stored at ${item.flags.durablePointer.storeKey}` };
  if (item.origin === 'system') return { class: 'deterministic', why: 'supplied again by the runtime' };
  if (item.kind === 'tool-call') return { class: 'deterministic', why: 'the call is recorded in the runtime log' };
  if (item.kind !== 'tool-result') return { class: 'irreducible', why: `${item.origin} ${item.kind} exists only in this context` };
  const side = toolDeclaration(view, item.tool?.name)?.sideEffect;
  if (side === 'pure') return { class: 'deterministic', why: 'pure tool: the same arguments give the same bytes' };
  const source = item.source;
  if (source && source.mutable === false && source.identity !== 'UNKNOWN') {
    return { class: 'deterministic', why: `immutable source ${source.identity}` };
  }
  return { class: 'irreducible', why: 'read of mutable state: a re-read may return other bytes' };
}

export type Recoverability = 'durable-pointer' | 're-read' | 're-invoke' | 'none';

/** The recovery path a runtime could declare for an item once it leaves context (declared, not yet tested). */
export function recoverabilityOf(view: PolicyView, item: ViewItem): Recoverability {
  if (item.flags.durablePointer) return 'durable-pointer';
  if (item.kind !== 'tool-result') return 'none';
  const cls = classify(view, item).class;
  if (cls !== 'deterministic') return 'none';
  return item.source && item.source.identity !== 'UNKNOWN' ? 're-read' : 're-invoke';
}
