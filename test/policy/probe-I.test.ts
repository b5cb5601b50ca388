// Held-out review I: today's evidence rules tested from their stated words, each finding an it.fails (the safe
// assertion) beside an it of what the rule must still allow.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyView } from '../../src/fixture/view.js';
import { removedResultPlacesOf } from '../../src/fixture/effect-index.js';
import { withoutItems } from '../../src/policy/ladder.js';
import { holdsAsUnit } from '../../src/policy/regenerability.js';
import type { Eligibility } from '../../src/policy/types.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, closedUnit, condition, decideById, makeView, note } from './build-view.js';

const V = (name: string, view: PolicyView, id: string): Eligibility => at(decideById(condition(name), view), id);

describe('I1: a nested continuation qualifies a restatement whatever ends its line', () => {
  it('a record ending with a sentence end, restated as a bullet with a nested exception, is not held', () => {
    expect(holdsAsUnit('Style:\n- Use tabs.\n  - except in Makefiles', 'Use tabs.')).toBe(false);
    expect(holdsAsUnit('Style:\n- use tabs;\n  - only in Go files', 'use tabs')).toBe(false);
  });

  // Judgement, left open: held-out-G2 holds "- use tabs\n\n    indented code after a blank line" on purpose (a blank
  // line ends the item), yet a loose list sets its nested exception off the same way.
  it.fails('a nested exception after a blank line (a loose list) qualifies the item', () => {
    expect(holdsAsUnit('Style:\n- use tabs\n\n  - except in Makefiles', 'use tabs')).toBe(false);
    expect(holdsAsUnit('Style:\r\n- use tabs\r\n\r\n  - except in Makefiles', 'use tabs')).toBe(false);
  });

  it('still holds a sentence-ended bullet followed by a sibling, or a new sentence on its line', () => {
    expect(holdsAsUnit('Style:\n- Use tabs.\n- Keep lines under 100 columns.', 'Use tabs.')).toBe(true);
    expect(holdsAsUnit('Style:\n- use tabs\n\nThen I ran the tests.', 'use tabs')).toBe(true);
    expect(holdsAsUnit('Noted. Use tabs. I will reformat.', 'Use tabs.')).toBe(true);
    expect(holdsAsUnit('1. use tabs\n2. no trailing spaces', 'use tabs')).toBe(true);
    expect(holdsAsUnit('The user asked: "use tabs".', 'use tabs')).toBe(true);
    expect(holdsAsUnit('use tabs  \r\nnext', 'use tabs')).toBe(true);
  });

  it('property: a line indented under the restatement qualifies it whatever ends the restatement; a sibling does not', () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('', '.', ';', '!', '."', ')', '.)'),
        fc.constantFrom('', ' ', '\t'),
        fc.constantFrom('\n', '\r\n'),
        fc.constantFrom('  ', '\t', '    '),
        // Upper case: what follows never repeats the record.
        fc.array(fc.stringMatching(/^[A-Z]{1,8}$/), { minLength: 1, maxLength: 4 }),
        (words, end, trailing, nl, indent, next) => {
          const text = words.join(' ');
          const record = end === '.' ? `${text}.` : text;
          const line = `Rules:${nl}- ${text}${end}${trailing}`;
          expect(holdsAsUnit(`${line}${nl}${indent}- ${next.join(' ')}`, record)).toBe(false);
          expect(holdsAsUnit(`${line}${nl}- ${next.join(' ')}`, record)).toBe(true);
        },
      ),
    );
  });

  it('other shapes of qualification after the text already hold nothing', () => {
    for (const holder of [
      'use tabs (except Makefiles)',
      'use tabs \u2014 only for Go',
      'use tabs/spaces',
      'use tabs if possible',
      '"use tabs" only in Go files',
      'use tabs\u3002\u4f46\u662f Makefile \u9664\u5916',
      'use tabs\u2026 except in Makefiles',
      '- use tabs\n  - except in Makefiles',
      '@@ -1 +1 @@\n-use tabs\n+use spaces',
      '--- a/STYLE.md\n+++ b/STYLE.md\n- use tabs',
    ])
      expect(holdsAsUnit(holder, 'use tabs'), holder).toBe(false);
  });
});

const ws = 'workspace:pool';
const KEYS = ['test_pool_size', 'test_pool_retry'];
const failed = { state: 'error', errorType: 'TestFailure', message: '1 failed', fields: { failed: '1' } };
const source = { identity: ws, version: 'UNKNOWN', mutable: true };
const run = (base: string, turn: number, content: string, extra: Record<string, unknown> = {}): ItemSpec[] =>
  callAndResult(base, turn, 'run_tests', { target: 'pool' }, { content, covers: KEYS, source, ...extra });

/** wu1: an edit (c2, r2) and the passing run c3/r3 its closure rests on, listed as `trace`; record n9; then `later`. */
function closed(trace: string[], later: ItemSpec[], between: ItemSpec[] = []): PolicyView {
  return makeView({
    items: [
      ...callAndResult('2', 2, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
      ...run('3', 3, 'test_pool_size ok; test_pool_retry ok'),
      ...between,
      note('n9', 5, 'wu1 done: pool retry fixed'),
      ...later,
    ],
    subgoal: 'write the release notes',
    visible: { workUnits: [closedUnit('wu1', trace, 'n9', ['pool retry fixed'])] },
  });
}

const failing = (): ItemSpec[] => run('6', 6, 'test_pool_retry FAILED', { status: failed });

describe('I2: the check a closure rests on is every passing result the unit holds, a result reached by its call included', () => {
  it('a unit listing the check by its call alone: a later failure of the check contradicts the closure', () => {
    const view = closed(['c2', 'r2', 'c3'], failing());
    for (const name of ['verified-completion', 'ladder-0-3', 'ladder-0-4'])
      for (const id of ['c2', 'r2']) expect(V(name, view, id), `${name} ${id}`).toMatchObject({ verdict: 'keep' });
  });

  it('without the failure the trace listed by calls still goes; with it the trace listing the result keeps', () => {
    const calm = closed(['c2', 'r2', 'c3'], []);
    for (const id of ['c2', 'r2'])
      expect(V('verified-completion', calm, id)).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
    const listed = closed(['c2', 'r2', 'c3', 'r3'], failing());
    expect(V('verified-completion', listed, 'c2')).toMatchObject({ verdict: 'keep', rule: 'verified-completion' });
  });
  it('property: listing the check, its call or both decides alike, with or without a later failure', () => {
    fc.assert(
      fc.property(fc.subarray(['c3', 'r3'], { minLength: 1 }), fc.boolean(), (check, fails) => {
        const view = closed(['c2', 'r2', ...check], fails ? failing() : []);
        const d = V('verified-completion', view, 'c2');
        expect(d, d.reason).toMatchObject({ verdict: fails ? 'keep' : 'eligible', rule: 'verified-completion' });
      }),
    );
  });
});

describe('I3: in a ladder, the check an earlier step removed is still what the closure rests on', () => {
  // r4 repeats r3 byte for byte, so rung 0 removes r3 first; r6, later, fails.
  const repeat = (): ItemSpec[] => run('4', 4, 'test_pool_size ok; test_pool_retry ok');

  it('rung 0 removed the listed check for a later copy: a later failure still contradicts the closure', () => {
    const view = closed(['c2', 'r2', 'c3', 'r3'], failing(), repeat());
    expect(V('verified-completion', view, 'c2')).toMatchObject({ verdict: 'keep', rule: 'verified-completion' });
    for (const name of ['ladder-0-3', 'ladder-0-4'])
      expect(V(name, view, 'c2'), name).toMatchObject({ verdict: 'keep', rule: 'verified-completion' });
  });

  it('property: whichever earlier step removed, a ladder reads the closure as rung 3 alone does', () => {
    fc.assert(
      fc.property(fc.subarray(['c3', 'r3'], { minLength: 1 }), fc.boolean(), fc.boolean(), (check, copy, fails) => {
        const view = closed(['c2', 'r2', ...check], fails ? failing() : [], copy ? repeat() : []);
        const alone = V('verified-completion', view, 'c2');
        for (const name of ['ladder-0-3', 'ladder-0-4'])
          expect(V(name, view, 'c2'), name).toMatchObject({ verdict: alone.verdict, rule: alone.rule });
        expect(alone.verdict).toBe(fails ? 'keep' : 'eligible');
      }),
    );
  });

  it('with no later failure the ladder removes the copy at rung 0 and the trace at rung 3', () => {
    const view = closed(['c2', 'r2', 'c3', 'r3'], [], repeat());
    for (const name of ['ladder-0-3', 'ladder-0-4']) {
      expect(V(name, view, 'r3'), name).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
      expect(V(name, view, 'c2'), name).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
    }
  });
});

/**
 * I4 (ladders, over-refusal). H2's two identical writes between reads x and y of pool.ts, each with a bare effect:
 * rung 0 removes the first write's result, and its place stays with its call (withRemovedResultPlaces) so rung 2
 * orders the write as recorded. Here rung 1 also removes something unrelated first (the earlier of two reads of
 * other.ts under one content hash): the context is reduced again, and the place must survive that reduction too.
 */
function writesTwiceAfterRereads(batch = false): PolicyView {
  const src = (identity: string, hash: string) => ({
    identity,
    version: { kind: 'content-hash', value: hash },
    mutable: true,
  });
  const write = (base: string, turn: number): ItemSpec[] =>
    callAndResult(
      base,
      turn,
      'write',
      { path: 'pool.ts', text: 'size = 8' },
      { content: 'written' },
      { effects: ['repo:pool.ts'] },
    );
  // The later read frames the same state's bytes, so rung 1 (not rung 0) removes the earlier.
  const reread = (base: string, turn: number, content: string): ItemSpec[] =>
    callAndResult(base, turn, 'read', { path: 'other.ts' }, { content, source: src('repo:other.ts', 'o1') });
  const [ce, re] = write('e', 2);
  const [cf, rf] = write('f', batch ? 2 : 3);
  const [cy, ry] = callAndResult(
    'y',
    batch ? 2 : 4,
    'read',
    { path: 'pool.ts' },
    { content: 'size = 8', source: src('repo:pool.ts', 'h2') },
  );
  return makeView({
    items: [
      ...reread('o', 1, 'k = 1'),
      ...reread('p', 1, 'other.ts:\nk = 1'),
      callAndResult(
        'x',
        1,
        'read',
        { path: 'pool.ts' },
        { content: 'size = 4', source: src('repo:pool.ts', 'h1') },
      )[1]!,
      // A batch: both writes and the newer read issued before any result is recorded.
      ...(batch ? [ce!, cf!, cy!, re!, rf!, ry!] : [ce!, re!, cf!, rf!, cy!, ry!]),
    ],
  });
}

describe('I4 (ladders): a removed result keeps its place through every later reduction of the context', () => {
  it('the rules alone: rung 1 removes ro, rung 0 re, rung 2 x', () => {
    const view = writesTwiceAfterRereads();
    expect(V('source-identity', view, 'ro')).toMatchObject({ verdict: 'eligible' });
    expect(V('exact-redundancy', view, 're')).toMatchObject({ verdict: 'eligible' });
    expect(V('checked-supersession', view, 'rx')).toMatchObject({ verdict: 'eligible' });
  });

  for (const name of ['ladder-0-2', 'ladder-0-3', 'ladder-0-4'])
    it(`${name}: x is superseded as rung 2 alone supersedes it, after rungs 0 and 1 both removed something`, () => {
      const view = writesTwiceAfterRereads();
      expect(V(name, view, 'ro')).toMatchObject({ verdict: 'eligible', rule: 'source-identity' });
      expect(V(name, view, 're')).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
      expect(V(name, view, 'rx')).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
    });

  for (const name of ['checked-supersession', 'ladder-0-2', 'ladder-0-3'])
    it(`${name}: a batch's writes stay unordered before y however the context was reduced: x stays`, () => {
      expect(V(name, writesTwiceAfterRereads(true), 'rx').verdict).not.toBe('eligible');
    });
});

describe('I4: places survive reduction in steps as they would in one', () => {
  it('property: removing A then B leaves the same places as removing A and B at once, residue cuts included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()), { minLength: 6, maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 6, maxLength: 6 }),
        (n, picks, cuts) => {
          const items = Array.from({ length: n }, (_, i) =>
            callAndResult(`${i}`, i + 1, 'write', { i }, { content: 'ok' }, { effects: ['repo:f'] }),
          ).flat();
          const view = makeView({ items });
          const first = new Set<string>();
          const second = new Set<string>();
          for (let i = 0; i < n; i++) {
            const [inFirst, inSecond, call] = picks[i]!;
            if (inFirst) first.add(`r${i}`);
            else if (inSecond) second.add(`r${i}`);
            if (call && !inFirst && !inSecond) second.add(`c${i}`);
          }
          // A residue cut in the first step changes the context without removing anything.
          const cut = new Map(
            [...Array(n).keys()].filter((i) => cuts[i] === 0 && !first.has(`c${i}`)).map((i) => [`c${i}`, []] as const),
          );
          const stepwise = withoutItems(withoutItems(view, first, cut), second);
          const once = withoutItems(view, new Set([...first, ...second]), cut);
          expect([...removedResultPlacesOf(stepwise.items)].sort()).toEqual(
            [...removedResultPlacesOf(once.items)].sort(),
          );
        },
      ),
    );
  });
});
