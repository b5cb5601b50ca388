// The one reading of an item as a chat message, shared by every format: who says it and what it is. Each format
// only decides how pieces are grouped into its messages and spelled.
import { frozenMemo } from '../fixture/memo.js';
import type { PolicyView, ViewItem } from '../fixture/view.js';

export type Speaker = 'system' | 'user' | 'assistant' | 'tool';

export interface Piece {
  readonly itemId: string;
  readonly speaker: Speaker;
  readonly kind: 'text' | 'reasoning' | 'tool-call' | 'tool-result';
  /** The item's content; for a tool call, its recorded arguments as JSON (the call is rendered structured). */
  readonly text: string;
  readonly callId?: string;
  readonly toolName?: string;
  readonly args?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
}

/**
 * A tool call or result with its recorded invocation becomes the format's structured call or result; a call or result
 * without one (an imported trace that recorded none) is text like any other. System items are the system's, model
 * items the assistant's; user and environment items are the user's (no chat format has another speaker for them).
 */
export function pieceOf(item: ViewItem): Piece {
  const base = { itemId: item.id, text: item.content };
  if (item.tool && item.kind === 'tool-call') {
    const args = item.tool.arguments;
    return {
      ...base,
      speaker: 'assistant',
      kind: 'tool-call',
      text: JSON.stringify(args),
      callId: item.tool.callId,
      toolName: item.tool.name,
      args,
    };
  }
  if (item.tool && item.kind === 'tool-result') {
    return {
      ...base,
      speaker: 'tool',
      kind: 'tool-result',
      callId: item.tool.callId,
      toolName: item.tool.name,
      isError: item.status?.state === 'error',
    };
  }
  if (item.origin === 'system') return { ...base, speaker: 'system', kind: 'text' };
  if (item.origin === 'model')
    return { ...base, speaker: 'assistant', kind: item.kind === 'reasoning' ? 'reasoning' : 'text' };
  return { ...base, speaker: 'user', kind: 'text' };
}

/**
 * A (frozen) item's piece, made once: every pruner condition at a prune point renders the same view's items, and a
 * piece is read only of its item. Frozen, since they all share it. (A view builds its own items, so pieces are not
 * shared across prune points.)
 */
const pieceOnce = frozenMemo((item: ViewItem): Piece => Object.freeze(pieceOf(item)));

export function piecesOf(view: PolicyView): Piece[] {
  return view.items.map((item) => pieceOnce(item));
}

/** Consecutive pieces that `together` says share a message, in order. */
export function runs<T>(pieces: readonly T[], together: (a: T, b: T) => boolean): T[][] {
  const out: T[][] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if (last && together(last[last.length - 1]!, p)) last.push(p);
    else out.push([p]);
  }
  return out;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A call's arguments as compared: a string as given (OpenAI sends JSON text), anything else as JSON. */
export function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** A content given as a string or as text parts (`{ type: 'text', text }`), as one text; null for anything else. */
export function plainText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  let text = '';
  for (const part of content) {
    if (!isRecord(part) || part['type'] !== 'text' || typeof part['text'] !== 'string') return null;
    text += part['text'];
  }
  return text;
}
