// The tokenizer is never handed an unbroken run longer than MAX_RUN, and texts without one are counted whole.
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { bySpaces, MAX_RUN, piecesOf, tokenCounter } from '../../src/accounting/tokens.js';

const longestRun = (t: string) => Math.max(0, ...(t.match(/\S+/gu) ?? []).map((r) => r.length));
// Runs around the limit, with spaces and astral characters (surrogate pairs) among them.
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(' ', '\n', '\u3000'),
      fc.string({ unit: fc.constantFrom('a', 'b', '😀', '-'), minLength: 0, maxLength: 30 }),
      fc.integer({ min: MAX_RUN - 3, max: 3 * MAX_RUN + 3 }).map((n) => 'x'.repeat(n)),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

describe('token counting in pieces', () => {
  it('cuts only unbroken runs longer than MAX_RUN, keeps every character, and never splits a surrogate pair', () => {
    fc.assert(
      fc.property(text, (t) => {
        const pieces = piecesOf(t);
        if (longestRun(t) <= MAX_RUN) expect(pieces).toBeNull();
        if (longestRun(t) > MAX_RUN + 1) expect(pieces).not.toBeNull();
        if (pieces === null) return;
        expect(pieces.length).toBeGreaterThan(1);
        expect(pieces!.join('')).toBe(t);
        for (const p of pieces!) {
          expect(p.length).toBeGreaterThan(0);
          expect(/^[\uDC00-\uDFFF]/.test(p)).toBe(false);
        }
        // No piece holds more than MAX_RUN characters of one run (a pair's two halves may take it one over).
        for (const p of pieces!) expect(longestRun(p)).toBeLessThanOrEqual(MAX_RUN + 1);
      }),
      { numRuns: 300 },
    );
  });

  it('never cuts after the last character (a pair ending a run one over the limit stays whole)', () => {
    expect(piecesOf(`${'x'.repeat(MAX_RUN - 1)}😀`)).toBeNull();
    expect(piecesOf(`${'x'.repeat(MAX_RUN - 1)}😀y`)).toEqual([`${'x'.repeat(MAX_RUN - 1)}😀`, 'y']);
    const tokens = tokenCounter();
    expect(tokens(`${'x'.repeat(MAX_RUN - 1)}😀`)).toBeGreaterThan(0);
  });

  it('counts a text without a long run exactly as the tokenizer does, and a long run as the sum of its pieces', () => {
    const tokens = tokenCounter();
    const normal = 'exit code 137 after 3 retries\n'.repeat(200);
    expect(tokens(normal)).toBe(countTokens(normal, { disallowedSpecial: new Set() }));
    const long = `head ${'q'.repeat(2500)} tail`;
    const pieces = piecesOf(long)!;
    expect(pieces.map((p) => p.length)).toEqual([1005, 1000, 505]);
    expect(tokens(long)).toBe(pieces.reduce((s, p) => s + countTokens(p, { disallowedSpecial: new Set() }), 0));
  });
});

// Words of every kind the pre-split treats apart: letters, digits, punctuation, contractions, other scripts, astral
// characters, and every kind of whitespace before and after a space.
const WORDS = [
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  '\u00a0',
  '\u3000',
  'a',
  'Ab',
  'é',
  '7',
  '123',
  '4567',
  '@',
  ';',
  '/',
  "'s",
  "'LL",
  '😀',
  '中',
  '-',
  '_',
  '.',
  '[',
  ']',
  'i9d91c2a',
  ' rung',
  ' 0;',
];
const AS_TEXT = { disallowedSpecial: new Set<string>() };

describe('counting by words', () => {
  it('gives the whole text count for any text, cutting only before a space after a character that is not whitespace', () => {
    const tokens = tokenCounter();
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 14 }), (words) => {
        const t = words.join('');
        expect(bySpaces(tokens)(t)).toBe(countTokens(t, AS_TEXT));
      }),
      { numRuns: 3000 },
    );
  });

  it('hands the tokenizer each word once, and a text past MAX_RUN whole', () => {
    const asked: string[] = [];
    const tokens = (t: string) => {
      asked.push(t);
      return countTokens(t, AS_TEXT);
    };
    expect(bySpaces(tokens)('[pruned i1 tool-result @3')).toBe(countTokens('[pruned i1 tool-result @3', AS_TEXT));
    expect(asked).toEqual(['[pruned', ' i1', ' tool-result', ' @3']);
    // Two spaces: the first is whitespace before the second, so the cut is before the first alone.
    asked.length = 0;
    bySpaces(tokens)('a  b');
    expect(asked).toEqual(['a', '  b']);
    // Asked again, the text is not cut again.
    asked.length = 0;
    bySpaces(tokens)('a  b');
    expect(asked).toEqual([]);
    const long = `${'w '.repeat(MAX_RUN)}`;
    bySpaces(tokens)(long);
    expect(asked).toEqual([long]);
  });
});
