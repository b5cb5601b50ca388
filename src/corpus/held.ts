// Which lines the items of a session already hold: the generator asks for every quotable line of an echo it might
// write (echo.ts) and of a step a later step might quote (compose.ts), and its oracle check asks, for every needed
// string of every necessary item, whether another item in context holds it too (check.ts). Proving a line absent by
// searching costs a pass over the whole session's text (hundreds of kilobytes in a long session), and most lines
// asked about are new. So beside the text, kept for the search, the index holds a table of the text's 16-character
// runs counted per item: a line one of whose runs is on no item (or only on the item the line comes from) is held by
// no other item. The table only ever answers "not held"; every other answer is the search `holds` makes, so what the
// generator decides, and the corpus, are what they were without it.
import type { DraftItem } from './builder.js';
import { someRecordedRun } from './run-hash.js';

/** Whether an item holds a needed string: in its content or, for an error, in its status message and fields. */
export function holds(item: DraftItem | undefined, s: string): boolean {
  if (!item) return false;
  if (item.content.includes(s)) return true;
  const status = item.status;
  if (status?.state !== 'error') return false;
  return status.message.includes(s) || Object.values(status.fields ?? {}).some((v) => v.includes(s));
}

/** What `holds` searches in one item: its content and, for an error, its status message and fields. */
function textsOf(it: DraftItem): string[] {
  const status = it.status;
  return status?.state === 'error' ? [it.content, status.message, ...Object.values(status.fields ?? {})] : [it.content];
}

/** Chunks of the session's held text are sealed at about this many characters, so appending never copies them. */
const HELD_CHUNK = 1 << 16;
/** The table starts at 2^FIRST_BITS slots and grows fourfold, up to 2^LAST_BITS, whenever half are in use. */
const FIRST_BITS = 16;
const LAST_BITS = 20;
/** One builder's item list as the generator's questions read it. */
class Held {
  readonly items: DraftItem[] = [];
  /** Each item's content when it was added: a changed item makes the whole index stale. */
  readonly contents: string[] = [];
  /** Each item's texts, as `holds` searches them, joined by line breaks. */
  private readonly texts: string[] = [];
  /** The same texts joined into chunks, sealed at about HELD_CHUNK characters so appending never copies them. */
  private readonly chunks: string[] = [''];
  private bits = FIRST_BITS;
  /** Per slot, how many items have a recorded run there (saturating at 255: a full slot only means "search"). */
  private counts = new Uint8Array(1 << FIRST_BITS);
  /** Per slot, 1 + the index of the last item counted there, so that an item counts once per slot. */
  private stamps = new Int32Array(1 << FIRST_BITS);
  private used = 0;

  add(it: DraftItem): void {
    const i = this.items.length;
    this.items.push(it);
    this.contents.push(it.content);
    const text = textsOf(it).join('\n');
    this.texts.push(text);
    const last = this.chunks.length - 1;
    if (this.chunks[last]!.length >= HELD_CHUNK) this.chunks.push(text);
    else this.chunks[last] = this.chunks[last] === '' ? text : `${this.chunks[last]}\n${text}`;
    this.record(i, text);
    if (this.used * 2 > this.counts.length && this.bits < LAST_BITS) {
      this.bits = Math.min(LAST_BITS, this.bits + 2);
      this.counts = new Uint8Array(1 << this.bits);
      this.stamps = new Int32Array(1 << this.bits);
      this.used = 0;
      this.texts.forEach((t, k) => this.record(k, t));
    }
  }

  /**
   * Counts item i's recorded runs, once per slot. Runs across the joins of its texts are counted too: extra runs only
   * send more lines to the search.
   */
  private record(i: number, text: string): void {
    const { counts, stamps } = this;
    const mask = counts.length - 1;
    const stamp = i + 1;
    let used = 0;
    someRecordedRun(text, (r) => {
      const at = r & mask;
      if (stamps[at] === stamp) return false;
      stamps[at] = stamp;
      if (counts[at] === 0) used += 1;
      if (counts[at]! < 255) counts[at] = counts[at]! + 1;
      return false;
    });
    this.used += used;
  }

  /** False when some recorded run of the line is on fewer than `least` items: then fewer than `least` hold it. */
  private mayBeOn(line: string, least: number): boolean {
    const { counts } = this;
    const mask = counts.length - 1;
    return !someRecordedRun(line, (r) => counts[r & mask]! < least);
  }

  includes(line: string): boolean {
    return this.mayBeOn(line, 1) && this.chunks.some((c) => c.includes(line));
  }

  heldByOther(line: string, id: string): boolean {
    return this.mayBeHeldByOther(line, id) && this.items.some((o) => o.id !== id && holds(o, line));
  }

  mayBeHeldByOther(line: string, id: string): boolean {
    // The item the line comes from has every run of it, so another holder makes two.
    const own = this.items.find((it) => it.id === id);
    return this.mayBeOn(line, own && holds(own, line) ? 2 : 1);
  }
}

export interface HeldText {
  /** Whether some item holds the line. */
  includes(line: string): boolean;
  /** Whether some item other than the one with this id holds the line, as `holds` over every other item says. */
  heldByOther(line: string, id: string): boolean;
  /**
   * The table's half of `heldByOther`, without the search: false only when no item other than the one with this id
   * holds the line. A caller that searches a subset of the items itself asks this first instead.
   */
  mayBeHeldByOther(line: string, id: string): boolean;
}

/**
 * Per builder's item list, its index (a quotable line has no line break, so some item holds it exactly when some
 * chunk contains it: one native search per chunk instead of a call per item). Items are only appended between the
 * generator's questions, so the index grows with them; when an earlier item changed or went (a builder may drop
 * items), it is rebuilt.
 */
const heldBy = new WeakMap<readonly DraftItem[], Held>();

export function heldText(items: readonly DraftItem[]): HeldText {
  let held = heldBy.get(items);
  if (
    !held ||
    held.items.length > items.length ||
    held.items.some((it, i) => items[i] !== it || it.content !== held!.contents[i])
  )
    heldBy.set(items, (held = new Held()));
  for (let i = held.items.length; i < items.length; i += 1) held.add(items[i]!);
  return held;
}
