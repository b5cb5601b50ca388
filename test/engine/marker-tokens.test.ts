// A marker's token count taken as the sum of its parts' counts (leftBehindCounted) must be exactly the count of the
// whole marker, whatever the item's recorded fields hold: ids, tools, times and rules with spaces, newlines,
// digits, punctuation, letters of other scripts and surrogate pairs at either end of a part.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import {
  type LeftBehindInput,
  leftBehind,
  leftBehindCounted,
  type MarkerInput,
  markerText,
  type PlaceholderMode,
} from '../../src/engine/placeholder.js';
import type { PolicyView, ViewItem } from '../../src/fixture/view.js';

const PIECES = [
  'a',
  'Z',
  'é',
  '7',
  '42',
  ' ',
  '  ',
  '\n',
  '\t',
  '@',
  ';',
  '/',
  "'s",
  '😀',
  'ß',
  '中',
  '-',
  '_',
  '.',
  ':',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((p) => p.join(''));
const nonEmpty = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }).map((p) => p.join(''));

const itemArb = fc.record({
  id: nonEmpty,
  kind: nonEmpty,
  time: text,
  tool: fc.option(nonEmpty, { nil: undefined }),
  source: fc.option(fc.record({ identity: nonEmpty, version: fc.constant('UNKNOWN' as const) }), { nil: undefined }),
  pointer: fc.option(fc.record({ storeKey: text, contentHash: text }), { nil: undefined }),
});

const markerArb: fc.Arbitrary<MarkerInput> = fc.record({
  rule: nonEmpty,
  rung: fc.option(fc.nat(4), { nil: null }),
  recoverability: fc.constantFrom('durable-pointer', 're-read', 're-invoke', 'none' as const),
});

function viewItem(spec: {
  id: string;
  kind: string;
  time: string;
  tool: string | undefined;
  source: { identity: string; version: 'UNKNOWN' } | undefined;
  pointer: { storeKey: string; contentHash: string } | undefined;
}): ViewItem {
  return {
    id: spec.id,
    kind: spec.kind,
    time: spec.time,
    ...(spec.tool ? { tool: { name: spec.tool, arguments: {}, callId: 'c' } } : {}),
    ...(spec.source ? { source: { ...spec.source, mutable: 'UNKNOWN' } } : {}),
    flags: spec.pointer ? { durablePointer: spec.pointer } : {},
    content: 'payload',
    tokens: 1,
  } as unknown as ViewItem;
}

const VIEW = {} as PolicyView;

const input = (item: ViewItem, marker: MarkerInput, mode: PlaceholderMode, replacement?: string): LeftBehindInput => ({
  view: VIEW,
  item,
  marker,
  mode,
  residue: undefined,
  replacement,
});

describe('a marker counted in parts', () => {
  it('has exactly the whole marker’s token count, and the same text', () => {
    const tokens = tokenCounter();
    fc.assert(
      fc.property(itemArb, markerArb, (spec, m) => {
        const item = viewItem(spec);
        const counted = leftBehindCounted(input(item, m, 'marker'), tokens);
        const whole = markerText(item, m);
        expect(counted.text).toBe(whole);
        expect(counted.text).toBe(leftBehind(input(item, m, 'marker')));
        // A fresh counter, so the whole is tokenized as one text and not answered from the parts' cache.
        expect(counted.tokens).toBe(tokenCounter()(whole));
      }),
      { numRuns: 500 },
    );
  });

  it('counts a replacement, and no marker at all, whole', () => {
    const tokens = tokenCounter();
    fc.assert(
      fc.property(itemArb, markerArb, text, (spec, m, replacement) => {
        const item = viewItem(spec);
        expect(leftBehindCounted(input(item, m, 'marker', replacement), tokens)).toEqual({
          text: replacement,
          tokens: tokens(replacement),
        });
        expect(leftBehindCounted(input(item, m, 'none'), tokens)).toEqual({ text: '', tokens: 0 });
      }),
    );
  });
});
