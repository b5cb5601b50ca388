// Line-level features the leak audit adds to the controls' own (src/policy/controls/features.ts): whether an item
// holds a line no other item in its context holds, how many such lines it holds, and both crossed with the item's
// tool name and kind. The generator ties need to exactly this (a later step quotes a line only one item holds,
// src/corpus/compose.ts), so a corpus whose removable items held such lines less often than its necessary ones, for
// some tool, would hand the label to a policy reading the line and the tool's name (docs/choices.md, "Known open
// defects"). A crossed feature is one category, the crossed values joined, scored by the audit's category classifier:
// what a policy keyed on the pair could learn, beyond what either part tells alone.
import { frozenMemo } from '../fixture/memo.js';
import type { PolicyView, ViewItem } from '../fixture/view.js';
import type { Feature, FeatureValue } from '../policy/controls/features.js';

/** Shortest and longest line the features read: the lengths the generator quotes (src/corpus/generic.ts, `quotable`). */
export const LINE_LENGTH = { min: 12, max: 200 } as const;

/** An item's distinct lines, trimmed, of 12 to 200 characters. */
export function linesOf(content: string): string[] {
  return [...new Set(content.split('\n').map((l) => l.trim()))].filter(
    (l) => l.length >= LINE_LENGTH.min && l.length <= LINE_LENGTH.max,
  );
}

/**
 * Per context, for each item, how many of its lines no other item of the context holds anywhere in its content (as
 * the generator asks when it picks what a later step quotes): the contents are joined, with a separator no line
 * holds, and each line is searched for until it is found outside its own item.
 */
const uniqueCounts = frozenMemo((items: readonly ViewItem[]): readonly number[] => {
  const starts: number[] = [];
  let joined = '';
  for (const it of items) {
    starts.push(joined.length);
    joined += `${it.content}\u0000`;
  }
  const ownerOf = (at: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const heldElsewhere = (line: string, own: number): boolean => {
    for (let at = joined.indexOf(line); at >= 0; at = joined.indexOf(line, at + 1))
      if (ownerOf(at) !== own) return true;
    return false;
  };
  return items.map((it, i) => linesOf(it.content).filter((l) => !heldElsewhere(l, i)).length);
});

/** How many of the item's lines (12 to 200 characters, trimmed) no other item in its context holds. */
export function uniqueLineCount(view: PolicyView, index: number): number {
  return uniqueCounts(view.items)[index]!;
}

/** A count on a doubling scale (0, 1, 2-3, 4-7, ...): the bin's lower bound, as the controls bin age. */
export function doublingBin(n: number): number {
  return n <= 0 ? 0 : 2 ** Math.floor(Math.log2(n));
}

const category = (value: string): FeatureValue => ({ type: 'category', value });

/** A value as one part of a crossed category: a category as it is, a number on the doubling scale. */
function part(v: FeatureValue): string {
  if (v.type === 'category') return v.value;
  if (v.type === 'number') return String(doublingBin(v.value));
  throw new Error('internal: token sets are not crossed');
}

/** The feature whose value is the parts' values joined: one category per combination seen. */
export function crossed(name: string, why: string, parts: readonly Feature['of'][]): Feature {
  return { name, legitimate: false, why, of: (v, i) => category(parts.map((of) => part(of(v, i))).join(' | ')) };
}

const uniqueLine: Feature['of'] = (v, i) => category(uniqueLineCount(v, i) > 0 ? 'yes' : 'no');
const uniqueLines: Feature['of'] = (v, i) => ({ type: 'number', value: uniqueLineCount(v, i) });
const toolName: Feature['of'] = (v, i) => category(v.items[i]!.tool?.name ?? '(none)');
const kind: Feature['of'] = (v, i) => category(v.items[i]!.kind);

const WHY_LINE =
  'whether it holds a line (12 to 200 characters) no other item in its context holds anywhere: the generator quotes only such lines, so it must draw them alike for items that will be needed and items that will not (no chapter rule proves line-level redundancy)';

/** The line-level features, in the table's order after the controls' own. All are judged. */
export const LINE_FEATURES: readonly Feature[] = [
  { name: 'unique-line', legitimate: false, why: WHY_LINE, of: uniqueLine },
  {
    name: 'unique-lines',
    legitimate: false,
    why: 'how many of its lines no other item in its context holds: the same mark counted',
    of: uniqueLines,
  },
  crossed(
    'unique-line × kind',
    'the mark crossed with its kind: a generator that draws it alike overall may still draw it apart within a kind',
    [uniqueLine, kind],
  ),
  crossed(
    'unique-line × tool',
    "the mark crossed with its tool's name: a generator may draw it alike overall and still apart within a tool",
    [uniqueLine, toolName],
  ),
  crossed(
    'unique-lines × tool',
    "the count (0, 1, 2-3, 4-7, ...) crossed with its tool's name: the same, by how many such lines it holds",
    [uniqueLines, toolName],
  ),
];
