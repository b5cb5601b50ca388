// The line features' counts shared across a fixture's prune points (src/audit/line-features.ts) are those each
// context gives when its lines are searched afresh: over random fixtures whose items repeat, nest and share lines,
// whose turns may go back (so a later context need not extend an earlier one), read at their prune points in any
// order, frozen (shared) and not (afresh).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linesOf, uniqueCountsAfresh, uniqueLineCount } from '../../src/audit/line-features.js';
import { deepFreeze } from '../../src/fixture/freeze.js';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import { timeOf } from '../policy/build-view.js';

const chars = (text: string) => text.length;

/** Lines that hold one another, some shorter than the tables' runs (16), one with the separator the search joins by. */
const LINES = [
  'twelve chars',
  'fifteen chars..',
  'a line of sixteen',
  'a line of sixteen and more',
  'prefix: a line of sixteen and more, then a tail',
  'PASS test/cache.test.ts (12 tests)',
  'FAIL test/cache.test.ts (12 tests)',
  'error: connection refused on port 5432',
  'x'.repeat(40),
  'x'.repeat(17),
  'nul \u0000 inside this line',
  'short',
];

const contentOf = fc
  .array(
    fc.oneof(
      fc.constantFrom(...LINES),
      fc.constantFrom(...LINES).map((l) => `  ${l} `),
      fc.string({ minLength: 10, maxLength: 30 }),
    ),
    { minLength: 0, maxLength: 5 },
  )
  .map((lines) => lines.join('\n'));

/** A fixture of the drawn contents and turns, with a prune point at each drawn turn. */
function fixtureOf(contents: readonly string[], turns: readonly number[], points: readonly number[]) {
  return Fixture.parse({
    schemaVersion: 1,
    id: 'lines',
    title: 'lines',
    description: 'shared line counts',
    tools: [{ name: 'shell', sideEffect: 'read-mutable' }],
    items: contents.map((content, i) => ({
      id: `i${i}`,
      turn: turns[i]!,
      time: timeOf(turns[i]!),
      origin: 'environment',
      kind: 'tool-result',
      content,
      tool: { name: 'shell', arguments: { n: i }, callId: `k${i}` },
      status: { state: 'ok' },
    })),
    prunePoints: points.map((turn, k) => ({
      id: `p${k}`,
      turn,
      time: timeOf(turn),
      budgetTokens: 100_000,
      subgoal: 'finish the task',
    })),
  });
}

describe('the line features shared across prune points', () => {
  it('count, at every prune point and in any order of asking, what a fresh search of that context counts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(contentOf, fc.nat(6)), { minLength: 1, maxLength: 14 }),
        fc.boolean(),
        fc.array(fc.nat(6), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (drawn, sorted, points, frozen) => {
          const turns = drawn.map(([, t]) => t);
          if (sorted) turns.sort((a, b) => a - b);
          const fixture = fixtureOf(
            drawn.map(([c]) => c),
            turns,
            points,
          );
          if (frozen) deepFreeze(fixture);
          for (const point of fixture.prunePoints) {
            const view = buildView(fixture, point.id, chars);
            expect(
              view.items.map((_, i) => uniqueLineCount(view, i)),
              point.id,
            ).toEqual(uniqueCountsAfresh(view.items));
          }
        },
      ),
      // A run is a few views of at most 14 items: 300 runs reach contexts that extend, repeat, shrink and skip.
      { numRuns: 300 },
    );
  });

  it('afresh, count the lines no other item of the context holds anywhere in its content', () => {
    const counts = uniqueCountsAfresh(
      ['a shared line\nmy own line here', 'a shared line', '  my own line here  \nonly here, twelve+', 'ok'].map(
        (content) => ({ content }),
      ),
    );
    expect(counts).toEqual([0, 0, 1, 0]);
    expect(linesOf('only here, twelve+')).toEqual(['only here, twelve+']);
  });
});
