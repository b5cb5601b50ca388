// What a removed item leaves behind. Every field comes from recorded metadata, never from reading the removed
// payload for meaning: a placeholder is an audit marker, not a semantic substitute.
import { bySpaces, MAX_RUN } from '../accounting/tokens.js';
import { versionLabel } from '../fixture/canonical.js';
import { residueText } from '../fixture/residue.js';
import type { ResidueField } from '../fixture/schema.js';
import type { PolicyView, ViewItem } from '../fixture/view.js';
import type { Recoverability } from '../policy/regenerability.js';

export type PlaceholderMode = 'marker' | 'none';
export const PLACEHOLDER_CHOICES = ['marker', 'none'] as const;

export interface MarkerInput {
  readonly rule: string;
  readonly rung: number | null;
  readonly recoverability: Recoverability;
}

function sourceLabel(item: ViewItem): string {
  const s = item.source;
  if (!s || s.identity === 'UNKNOWN') return 'UNKNOWN';
  return `${s.identity}@${versionLabel(s.version)}`;
}

export function markerText(item: ViewItem, m: MarkerInput): string {
  return markerParts(item, m).join('');
}

/**
 * The marker in three parts: what names the item, what names the rule, what says how to recover the item. The
 * item's parts are the same whichever rule removed it, and each part after the first starts with a space after a
 * character that is not whitespace, where the tokenizer's pre-split always cuts (see `leftBehindCounted`).
 */
function markerParts(item: ViewItem, m: MarkerInput): [string, string, string] {
  const tool = item.tool ? ` ${item.tool.name}` : '';
  const rung = m.rung === null ? '' : ` rung ${m.rung}`;
  const pointer = item.flags.durablePointer
    ? ` ${item.flags.durablePointer.storeKey} ${item.flags.durablePointer.contentHash}`
    : '';
  return [
    `[pruned ${item.id} ${item.kind}${tool} @${item.time}`,
    ` by ${m.rule}${rung};`,
    ` source ${sourceLabel(item)}; recovery ${m.recoverability}${pointer}]`,
  ];
}

/** A removal as what it leaves behind depends on it: the item, the rule's marker fields, the mode, what stays. */
export interface LeftBehindInput {
  readonly view: PolicyView;
  readonly item: ViewItem;
  readonly marker: MarkerInput;
  readonly mode: PlaceholderMode;
  readonly residue: readonly ResidueField[] | undefined;
  readonly replacement: string | undefined;
}

/** The text left in context for a removal: a residue (always kept), behind a marker when markers are on. */
export function leftBehind({ view, item, marker: m, mode, residue, replacement }: LeftBehindInput): string {
  if (replacement !== undefined) return replacement;
  const marker = mode === 'marker' ? markerText(item, m) : '';
  if (!residue) return marker;
  const kept = residueText(view, item, residue);
  return marker ? `${marker}\n${kept}` : kept;
}

/**
 * What `leftBehind` gives, with its token count. A bare marker is counted as the sum of its parts' counts, which is
 * exactly its own count: o200k's pre-split never joins a character that is not whitespace to a space after it, and
 * restarts at that space as it would at the start of a text (no pattern looks behind), so the parts' pieces are the
 * marker's pieces (a property test holds this to the whole count). Every rule that removes an item then shares the
 * item's parts' counts instead of tokenizing a marker of its own, and each part is counted by its words under the
 * same rule (`bySpaces`), so that of a marker mostly the item's id is new text to the tokenizer. A part that could
 * end in whitespace, a marker long enough to be cut (MAX_RUN), a residue or a replacement is counted whole.
 */
export function leftBehindCounted(
  input: LeftBehindInput,
  tokens: (text: string) => number,
): { readonly text: string; readonly tokens: number } {
  if (input.replacement !== undefined || input.residue || input.mode !== 'marker') {
    const text = leftBehind(input);
    return { text, tokens: tokens(text) };
  }
  const parts = markerParts(input.item, input.marker);
  const text = parts.join('');
  if (text.length > MAX_RUN || ENDS_IN_SPACE.test(parts[0]) || ENDS_IN_SPACE.test(parts[1]))
    return { text, tokens: tokens(text) };
  // Each part is counted by its words (bySpaces): the id's is new for each item, the rest recur.
  const count = bySpaces(tokens);
  return { text, tokens: count(parts[0]) + count(parts[1]) + count(parts[2]) };
}

const ENDS_IN_SPACE = /\s$/u;
