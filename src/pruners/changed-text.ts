// What a changed text in an item's slot is: the item cut short (a prefix, a suffix, or both ends, with at most a
// marker between), a placeholder in its place, or new text, which is transformation and not pruning. The line is
// drawn on what the new text carries: a placeholder or a truncation marker is short and carries nothing of what it
// stands for; a summary carries what it summarises.

/** The longest marker or placeholder accepted, in characters: the published ones are under 60. */
export const PLACEHOLDER_MAX_CHARS = 200;

/** Fewer characters of the original than this, kept at its ends, is a placeholder that happens to share them. */
export const MIN_KEPT_CHARS = 8;

/** Three words in a row of the removed text, carried into the new text, are content, not a marker. */
export const CARRIED_RUN = 3;

export type Change =
  | { readonly kind: 'truncated'; readonly kept: number }
  | { readonly kind: 'replaced' }
  | { readonly kind: 'transformed'; readonly why: string };

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** An identifier-like word (a path, a hash, a version): six or more characters with a digit or . / _ : in them. */
const identifiers = (text: string): string[] =>
  (text.match(/[\p{L}\p{N}._/:-]{6,}/gu) ?? []).filter((w) => /[\p{N}._/:]/u.test(w));

/** Why `marker` is not a bare marker for `removed`, or null when it is one. */
export function carriedContent(marker: string, removed: string): string | null {
  if (marker.length > PLACEHOLDER_MAX_CHARS)
    return `${marker.length} characters of new text (a placeholder or marker is at most ${PLACEHOLDER_MAX_CHARS})`;
  const gone = words(removed);
  const runs = new Set<string>();
  for (let i = 0; i + CARRIED_RUN <= gone.length; i += 1) runs.add(gone.slice(i, i + CARRIED_RUN).join(' '));
  const said = words(marker);
  for (let i = 0; i + CARRIED_RUN <= said.length; i += 1) {
    const run = said.slice(i, i + CARRIED_RUN).join(' ');
    if (runs.has(run)) return `new text that repeats "${run}" from what it replaces`;
  }
  const removedText = removed.toLowerCase();
  const carried = identifiers(marker).find((w) => removedText.includes(w.toLowerCase()));
  return carried ? `new text that repeats "${carried}" from what it replaces` : null;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

function commonSuffix(a: string, b: string, limit: number): number {
  let i = 0;
  while (i < limit && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i += 1;
  return i;
}

/** How `changed` stands for `original` in the same slot (the two differ). */
export function classifyChange(original: string, changed: string): Change {
  const head = commonPrefix(original, changed);
  const tail = commonSuffix(original, changed, Math.min(original.length, changed.length) - head);
  const removed = original.slice(head, original.length - tail);
  const marker = changed.slice(head, changed.length - tail);
  if (removed.length === 0) return { kind: 'transformed', why: 'adds text to the original and removes none of it' };
  const kept = head + tail;
  // Too little kept: the whole new text is judged as a placeholder for the whole original.
  const [judged, against] = kept >= MIN_KEPT_CHARS ? [marker, removed] : [changed, original];
  const carried = carriedContent(judged, against);
  if (carried) return { kind: 'transformed', why: carried };
  return kept >= MIN_KEPT_CHARS ? { kind: 'truncated', kept } : { kind: 'replaced' };
}
