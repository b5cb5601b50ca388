// The generator's index of what a session's items hold (src/corpus/held.ts) answers as `holds` over the items does:
// its table of 16-character runs may only ever say "held by no item" or "by no other item", and a caller that
// searches the items itself after `mayBeHeldByOther` (the composer's shadowing pass) finds what `heldByOther` finds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DraftItem } from '../../src/corpus/builder.js';
import { heldText, holds } from '../../src/corpus/held.js';

const LINES = [
  'twelve chars',
  'a line of sixteen',
  'a line of sixteen and more',
  'prefix: a line of sixteen and more, then a tail',
  'Error: ECONNREFUSED 127.0.0.1:5432',
  'x'.repeat(40),
];

const text = fc
  .array(fc.oneof(fc.constantFrom(...LINES), fc.string({ minLength: 0, maxLength: 30 })), { maxLength: 4 })
  .map((lines) => lines.join('\n'));

/** Items with drawn contents; some are errors whose message and fields `holds` also reads. Ids may repeat. */
const items = fc.array(
  fc.record({
    id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
    content: text,
    error: fc.option(text, { nil: undefined }),
  }),
  { minLength: 1, maxLength: 10 },
);

function drafts(drawn: { id: string; content: string; error: string | undefined }[]): DraftItem[] {
  return drawn.map(({ id, content, error }, i) => ({
    id,
    turn: i,
    time: '2026-03-04T10:00:00Z',
    origin: 'environment',
    kind: 'tool-result',
    content,
    ...(error === undefined
      ? {}
      : { status: { state: 'error', errorType: 'E', message: error, fields: { detail: `${error}!` } } }),
  }));
}

describe('the held-text index', () => {
  it('answers includes and heldByOther as holds over the items, and mayBeHeldByOther never denies a holder', () => {
    fc.assert(
      fc.property(
        items,
        fc.array(fc.oneof(fc.constantFrom(...LINES), fc.string({ minLength: 12 }))),
        (drawn, asked) => {
          const list = drafts(drawn);
          // Asked as the generator asks: with items appended to one list between questions, so the index grows.
          const shown: DraftItem[] = [];
          for (const item of list) {
            shown.push(item);
            const held = heldText(shown);
            for (const line of [...asked, ...shown.map((it) => it.content.split('\n')[0]!)]) {
              expect(held.includes(line), line).toBe(shown.some((it) => holds(it, line)));
              for (const id of ['a', 'c', 'z']) {
                const other = shown.some((o) => o.id !== id && holds(o, line));
                expect(held.heldByOther(line, id), `${id} ${line}`).toBe(other);
                if (other) expect(held.mayBeHeldByOther(line, id), `${id} ${line}`).toBe(true);
              }
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
