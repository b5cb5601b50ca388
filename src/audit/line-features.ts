// Line-level features the leak audit adds to the controls' own (src/policy/controls/features.ts): whether an item
// holds a line no other item in its context holds, how many such lines it holds, and both crossed with the item's
// tool name and kind. The generator ties need to exactly this (a later step quotes a line only one item holds,
// src/corpus/compose.ts), so a corpus whose removable items held such lines less often than its necessary ones, for
// some tool, would hand the label to a policy reading the line and the tool's name (docs/choices.md, "Known open
// defects"). A crossed feature is one category, the crossed values joined, scored by the audit's category classifier:
// what a policy keyed on the pair could learn, beyond what either part tells alone.
import { frozenMemo } from '../fixture/memo.js';
import { type PolicyView, type ViewItem, viewSource } from '../fixture/view.js';
import type { Feature, FeatureValue } from '../policy/controls/features.js';
import { someRecordedRun } from '../corpus/run-hash.js';

/** Shortest and longest line the features read: the lengths the generator quotes (src/corpus/generic.ts, `quotable`). */
export const LINE_LENGTH = { min: 12, max: 200 } as const;

/** An item's distinct lines, trimmed, of 12 to 200 characters. */
export function linesOf(content: string): string[] {
  return [...new Set(content.split('\n').map((l) => l.trim()))].filter(
    (l) => l.length >= LINE_LENGTH.min && l.length <= LINE_LENGTH.max,
  );
}

/**
 * For each item of a context, how many of its lines no other item of the context holds anywhere in its content (as
 * the generator asks when it picks what a later step quotes): the contents are joined, with a separator no line
 * holds, and each line is searched for until it is found outside its own item. The definition the shared answers
 * below must equal (test/audit/line-features.test.ts); exported for that test.
 */
export function uniqueCountsAfresh(items: readonly Pick<ViewItem, 'content'>[]): number[] {
  const { joined, starts } = joinedText(items.map((it) => it.content));
  return items.map(
    (it, i) => linesOf(it.content).filter((l) => firstOtherHolder(joined, starts, l, i) === NONE).length,
  );
}

/** The contents joined, each followed by the separator, and where each starts. */
function joinedText(contents: readonly string[]): { joined: string; starts: number[] } {
  const starts: number[] = [];
  let joined = '';
  for (const content of contents) {
    starts.push(joined.length);
    joined += `${content}${SEPARATOR}`;
  }
  return { joined, starts };
}

const SEPARATOR = '\u0000';

/** The index of the content holding position `at` of the joined text. */
function ownerOf(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The first content other than `own` (by index) that holds the line, or NONE: the owner of the line's first
 * occurrence outside `own`, since the joined text keeps the contents in order.
 */
function firstOtherHolder(joined: string, starts: readonly number[], line: string, own: number): number {
  for (let at = joined.indexOf(line); at >= 0; at = joined.indexOf(line, at + 1)) {
    const owner = ownerOf(starts, at);
    if (owner !== own) return owner;
  }
  return NONE;
}

/** No other item holds the line. */
const NONE = -1;

/**
 * Per slot, on how many of a context's contents a recorded run of RUN characters falls (saturating at 255). An item
 * holding a line holds every run of it, so a line one of whose recorded runs is on a single content is held by no
 * content but its own. The table only ever answers that; every other answer is the search the definition makes,
 * so what it changes is the time, never a count (runs in one slot by chance only send more lines to the search).
 */
class RunTable {
  private readonly counts: Uint8Array;
  private readonly stamps: Int32Array;

  constructor(contents: readonly string[]) {
    let chars = 0;
    for (const c of contents) chars += c.length;
    // About a quarter of the runs are recorded: at least twice as many slots, from 2^10 to 2^22.
    let bits = 10;
    while (bits < 22 && 1 << bits < chars / 2) bits += 1;
    this.counts = new Uint8Array(1 << bits);
    this.stamps = new Int32Array(1 << bits);
    contents.forEach((c, i) => this.add(c, i + 1));
  }

  private add(text: string, stamp: number): void {
    const { counts, stamps } = this;
    const mask = counts.length - 1;
    someRecordedRun(text, (r) => {
      const at = r & mask;
      if (stamps[at] === stamp) return false;
      stamps[at] = stamp;
      if (counts[at]! < 255) counts[at] = counts[at]! + 1;
      return false;
    });
  }

  /** True when some recorded run of the line is on one content at most: then only the item it comes from holds it. */
  heldByOneAtMost(line: string): boolean {
    const { counts } = this;
    const mask = counts.length - 1;
    return someRecordedRun(line, (r) => counts[r & mask]! < 2);
  }
}

/**
 * What the contexts of one fixture have established, shared across its prune points: a fixture's contexts are the
 * items up to each point's turn, so a smaller one is the start of a larger one (src/fixture/view.ts, `viewSource`).
 * For every item of the largest context asked about so far and every line of it, the first item of that context
 * (by position) other than its own that holds the line: an item's line is held elsewhere in a context of the first
 * n items exactly when that holder is below n, as no line spans two contents (none holds the separator). A larger
 * context is answered by searching the items it adds for the lines no covered item held, and every covered item
 * for the lines of the items it adds: the searches the contexts have in common are made once.
 */
interface SharedLines {
  /** The fixture indexes of the items covered, ascending: the largest context asked about so far. */
  readonly at: number[];
  readonly contents: string[];
  readonly lines: string[][];
  /** Per covered item, per line, the position of the first other covered item holding it, or NONE. */
  readonly holder: number[][];
  joined: string;
  readonly starts: number[];
}

/** Per frozen fixture (its opaque key), its shared lines; null once a content held the separator (then afresh). */
const sharedIn = frozenMemo((_fixture: object) => ({ lines: undefined as SharedLines | null | undefined }));

/** Whether `a` is the start of `b`. */
function startsWith(a: readonly number[], b: readonly number[]): boolean {
  if (a.length > b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** Covers the items past `shared.at` that `at` (which `shared.at` starts) adds. */
function extend(shared: SharedLines, items: readonly ViewItem[], at: readonly number[]): void {
  const n = shared.at.length;
  const added = items.slice(n).map((it) => it.content);
  const table = new RunTable([...shared.contents, ...added]);
  const segment = joinedText(added);
  const offset = shared.joined.length;
  // The lines no covered item held: the first item added that holds one is its first other holder.
  for (let i = 0; i < n; i += 1) {
    const lines = shared.lines[i]!;
    const holder = shared.holder[i]!;
    for (let k = 0; k < lines.length; k += 1) {
      if (holder[k] !== NONE || table.heldByOneAtMost(lines[k]!)) continue;
      const found = segment.joined.indexOf(lines[k]!);
      if (found >= 0) holder[k] = n + ownerOf(segment.starts, found);
    }
  }
  shared.joined += segment.joined;
  for (const start of segment.starts) shared.starts.push(offset + start);
  for (let i = n; i < at.length; i += 1) {
    const lines = linesOf(added[i - n]!);
    shared.at.push(at[i]!);
    shared.contents.push(added[i - n]!);
    shared.lines.push(lines);
    shared.holder.push(
      lines.map((l) => (table.heldByOneAtMost(l) ? NONE : firstOtherHolder(shared.joined, shared.starts, l, i))),
    );
  }
}

/**
 * Per context, for each item, how many of its lines no other item of the context holds: read from its fixture's
 * shared lines when the context was built from a frozen fixture and starts, or is started by, the largest context
 * of that fixture asked about so far; computed afresh otherwise.
 */
const uniqueCounts = frozenMemo((items: readonly ViewItem[]): readonly number[] => {
  const source = viewSource(items);
  if (!source) return uniqueCountsAfresh(items);
  const memo = sharedIn(source.fixture);
  if (memo.lines === undefined) memo.lines = { at: [], contents: [], lines: [], holder: [], joined: '', starts: [] };
  const shared = memo.lines;
  if (shared === null) return uniqueCountsAfresh(items);
  if (!startsWith(source.at, shared.at)) {
    if (!startsWith(shared.at, source.at)) return uniqueCountsAfresh(items);
    if (items.slice(shared.at.length).some((it) => it.content.includes(SEPARATOR))) {
      memo.lines = null;
      return uniqueCountsAfresh(items);
    }
    extend(shared, items, source.at);
  }
  const n = items.length;
  // The covered items are the view's own up to n (one frozen fixture's items, each built from the same item).
  for (let i = 0; i < n; i += 1) if (items[i]!.content !== shared.contents[i]) return uniqueCountsAfresh(items);
  return items.map((_, i) => shared.holder[i]!.filter((h) => h === NONE || h >= n).length);
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
