// What the message-format adapters share. A prune point's view is rendered into a framework's message array; each
// item becomes exactly one unit (a message's text, one content part, one tool call or one tool result), and reading
// any array of that format back into units is what lets prunelab infer, from what a pruner returned, what it did to
// each item.
export const PRUNER_FORMATS = ['openai-chat', 'anthropic-messages', 'ai-sdk'] as const;
export type PrunerFormat = (typeof PRUNER_FORMATS)[number];

export function isPrunerFormat(value: string): value is PrunerFormat {
  return (PRUNER_FORMATS as readonly string[]).includes(value);
}

export type UnitKind = 'text' | 'reasoning' | 'tool-call' | 'tool-result';

/** One thing a pruner can keep, drop or change, as read from a message array. */
export interface Unit {
  /** The format's own role of the message holding it. */
  readonly role: string;
  readonly kind: UnitKind;
  /** Tool calls and results: the id that pairs them, which names the slot even when the content changed. */
  readonly callId?: string;
  readonly toolName?: string;
  /** What is compared: the text, a call's arguments as JSON, a result's content. */
  readonly text: string;
  /** Index of the message in the array. */
  readonly message: number;
}

export interface Rendered {
  readonly format: PrunerFormat;
  /** The array handed to the pruner: plain JSON data in the format's shape. */
  readonly messages: readonly unknown[];
  /** anthropic-messages only: the system items, which that format passes beside the messages (`system`). */
  readonly system?: readonly { readonly type: 'text'; readonly text: string }[];
  /** Every unit of `messages`, in order, and the item each one renders. */
  readonly units: readonly Unit[];
  readonly itemOfUnit: readonly string[];
  /** Items not in `messages` (anthropic system text): a pruner of the array cannot touch them. */
  readonly beside: readonly string[];
}

/** A message array's shape is not the format's: which message, and what is wrong with it. */
export class ShapeProblem extends Error {
  constructor(
    readonly index: number | null,
    readonly problem: string,
  ) {
    super(problem);
  }
}

export interface MessageFormat {
  readonly name: PrunerFormat;
  /** What the renderer adds beyond the items' own text, for the docs and the condition's record. */
  readonly adds: string;
  render(view: import('../fixture/view.js').PolicyView): Rendered;
  /** Reads any array of this format into units; throws ShapeProblem for anything else. */
  unitsOf(messages: unknown): Unit[];
}
