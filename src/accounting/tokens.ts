// Token counts with a real BPE tokenizer. One counter serves a whole run, so each distinct text (every item's
// payload, every placeholder) is tokenized once however many conditions look at it.
//
// BPE's cost grows with the square of an unbroken run of characters (50,000 of one letter take seconds, a 50 MB one
// never finishes), so the tokenizer is never handed a run of non-whitespace longer than MAX_RUN: a text holding one
// is counted as consecutive pieces cut every MAX_RUN characters of such a run, and the counts summed. A cut can
// change the count of that text by a token or two per piece; no text in the committed corpus has a run that long
// (its longest is 348 characters), so its counts are exactly the whole-text counts.
import { createRequire } from 'node:module';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const tokenizerVersion = (createRequire(import.meta.url)('gpt-tokenizer/package.json') as { version: string }).version;

export const TOKENIZER = { package: 'gpt-tokenizer', version: tokenizerVersion, encoding: 'o200k_base' } as const;

/** Special-token text inside a payload is ordinary text to the model's context, so it is counted, not rejected. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** The longest unbroken run of non-whitespace characters handed to the tokenizer at once. */
export const MAX_RUN = 1000;

export interface TokenCounter {
  (text: string): number;
  /** How many distinct texts were tokenized: the run's tokenizer work. */
  readonly distinct: () => number;
}

export function tokenCounter(): TokenCounter {
  const cache = new Map<string, number>();
  const count = (text: string): number => {
    let n = cache.get(text);
    if (n === undefined) {
      const pieces = text.length > MAX_RUN ? piecesOf(text) : null;
      n = text.length === 0 ? 0 : pieces ? pieces.reduce((sum, p) => sum + count(p), 0) : countTokens(text, AS_TEXT);
      cache.set(text, n);
    }
    return n;
  };
  return Object.assign(count, { distinct: () => cache.size });
}

/** Per counter, the counts `bySpaces` summed for each text it was asked, so a text is cut once per counter. */
const bySpacesOf = new WeakMap<(text: string) => number, (text: string) => number>();

/**
 * A count of a text as the sum of the counts of its pieces, cut before every space that follows a character that
 * is not whitespace. It is the whole text's count: o200k's pre-split never joins such a character to the space after
 * it (no pattern holds a non-whitespace character followed by a space) and restarts at that space as at the start of
 * a text (no pattern looks behind), and BPE merges only within a pre-split piece. Pieces recur where whole texts do
 * not (a marker's words, as against the item id among them), and `tokens` tokenizes each distinct piece once. A text
 * longer than MAX_RUN is counted whole, since `tokens` cuts its long runs where they fall in the whole text.
 */
export function bySpaces(tokens: (text: string) => number): (text: string) => number {
  let count = bySpacesOf.get(tokens);
  if (count) return count;
  const known = new Map<string, number>();
  count = (text) => {
    if (text.length > MAX_RUN) return tokens(text);
    let n = known.get(text);
    if (n === undefined) {
      n = 0;
      let start = 0;
      for (let i = 1; i < text.length; i += 1) {
        if (text.charCodeAt(i) !== 0x20 || isSpace(text.charCodeAt(i - 1))) continue;
        n += tokens(text.slice(start, i));
        start = i;
      }
      n += tokens(text.slice(start));
      known.set(text, n);
    }
    return n;
  };
  bySpacesOf.set(tokens, count);
  return count;
}

/**
 * The text cut after every MAX_RUN characters of an unbroken run, or null when it has no run that long (the usual
 * case, counted whole). One linear pass; whitespace is what JavaScript's \s matches.
 */
export function piecesOf(text: string): string[] | null {
  const pieces: string[] = [];
  let start = 0;
  let run = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (isSpace(text.charCodeAt(i))) run = 0;
    else if (++run > MAX_RUN) {
      // Never between the halves of a surrogate pair: both halves go with the piece before the cut.
      const cut = (text.charCodeAt(i) & 0xfc00) === 0xdc00 ? i + 1 : i;
      // A pair that ends the text stays with the piece before: a cut there would leave nothing after it.
      if (cut >= text.length) break;
      pieces.push(text.slice(start, cut));
      start = cut;
      run = i + 1 - cut;
    }
  }
  if (pieces.length === 0) return null;
  pieces.push(text.slice(start));
  return pieces;
}

/** JavaScript's white space (what \s matches and trim() strips), by code unit. */
export function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
