// What an item shows the model, as every rule that asks whether an item holds a string reads it: its content, each
// text block (the schema does not bind the content to the blocks), and for a call its arguments, both as the call
// renders them (canonical JSON) and as each string value is written (a quote or a newline is escaped in the JSON,
// so a string holding one is found only in the value itself).
import { canonicalJson } from '../fixture/canonical.js';
import { frozenMemo } from '../fixture/memo.js';
import type { ViewItem } from '../fixture/view.js';

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** Every text the item shows, found once per frozen item. */
export const heldTexts: (item: ViewItem) => readonly string[] = frozenMemo((item: ViewItem) => {
  const texts = [item.content, ...(item.blocks ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : []))];
  if (item.kind === 'tool-call' && item.tool)
    texts.push(canonicalJson(item.tool.arguments), ...stringsIn(item.tool.arguments));
  return Object.freeze(texts);
});

/** Whether the item shows the string anywhere it shows text. */
export function holdsText(item: ViewItem, s: string): boolean {
  return heldTexts(item).some((t) => t.includes(s));
}

/** Each block that is not text, in canonical form, found once per frozen item. */
const otherBlocks = frozenMemo((item: ViewItem): readonly string[] =>
  (item.blocks ?? []).flatMap((b) => (b.type === 'text' ? [] : [canonicalJson(b)])),
);

/**
 * Whether `holder` shows everything `item` shows: each text `item` shows (`heldTexts`: for a result, its content and
 * each text block) whole within one text `holder` shows, and each of its other blocks (an image, a binary, by hash)
 * among `holder`'s blocks. Equal renderings always do; a stub that only points at an earlier result ("File unchanged
 * since last read") never does.
 */
export function showsAllOf(holder: ViewItem, item: ViewItem): boolean {
  const texts = heldTexts(holder);
  const within = (text: string) => texts.some((t) => t.includes(text));
  return heldTexts(item).every(within) && showsBlocksOf(holder, item);
}

/**
 * Whether each block of `item` that is not text (an image, a binary, by hash) is among `holder`'s blocks: what no
 * comparison of texts can find, a record of it held elsewhere must show too.
 */
export function showsBlocksOf(holder: ViewItem, item: ViewItem): boolean {
  const wanted = otherBlocks(item);
  if (wanted.length === 0) return true;
  const others = new Set(otherBlocks(holder));
  return wanted.every((block) => others.has(block));
}
