// Fresh names in bounded steps: redraws come first and consume exactly the draws the old redraw loop did (so the
// committed corpus keeps its bytes); only a used-up pool falls back to numbering, which always finds a free name.
// Then the two places that used to fail: a builder whose name pool runs out, and a test suite with more files than
// its runner has names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TrajectoryBuilder } from '../../src/corpus/builder.js';
import { drawFresh, numbered } from '../../src/corpus/fresh.js';
import { RUNNERS, testSuite } from '../../src/corpus/payloads/tests.js';
import { NOUNS } from '../../src/corpus/payloads/vocab.js';
import { rng } from '../../src/corpus/rng.js';

/** A maker that returns the given names in turn (the last one forever), counting its calls. */
function maker(names: readonly string[]) {
  let calls = 0;
  return { make: () => names[Math.min(calls++, names.length - 1)]!, calls: () => calls };
}

describe('numbered', () => {
  it('puts the counter after the stem of the last path segment, keeping extensions and module paths', () => {
    expect(numbered('src/cart/applyCart.test.ts', 2)).toBe('src/cart/applyCart2.test.ts');
    expect(numbered('./internal/ledger', 3)).toBe('./internal/ledger3');
    expect(numbered('ledger_sync::tests', 2)).toBe('ledger_sync2::tests');
    expect(numbered('config/orders-api.staging.yaml', 4)).toBe('config/orders-api4.staging.yaml');
    expect(numbered('packages/orders-cart', 12)).toBe('packages/orders-cart12');
  });
});

describe('drawFresh', () => {
  it('returns the first fresh draw, after exactly as many draws as a plain redraw loop makes', () => {
    const m = maker(['a', 'b', 'a', 'c']);
    expect(drawFresh(m.make, new Set(['a', 'b']), 50)).toBe('c');
    expect(m.calls()).toBe(4);
    const first = maker(['z']);
    expect(drawFresh(first.make, new Set(['a']), 50)).toBe('z');
    expect(first.calls()).toBe(1);
  });

  it('draws at most `tries` times, then numbers the last draw past every taken number', () => {
    const m = maker(['x.ts']);
    expect(drawFresh(m.make, new Set(['x.ts', 'x2.ts', 'x3.ts']), 50)).toBe('x4.ts');
    expect(m.calls()).toBe(50);
  });

  it('always returns a name outside the taken set, whatever the pool and whatever is taken (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'a2', 'dir/a.ts', 'dir/a2.ts'), { minLength: 1, maxLength: 6 }),
        fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'a2', 'a3', 'b2', 'c2', 'dir/a.ts', 'dir/a2.ts', 'dir/a3.ts')),
        fc.integer({ min: 1, max: 5 }),
        (pool, taken, tries) => {
          const m = maker(pool);
          const name = drawFresh(m.make, new Set(taken), tries);
          expect(taken).not.toContain(name);
          expect(m.calls()).toBeLessThanOrEqual(tries);
        },
      ),
    );
  });
});

describe('names that used to run out', () => {
  it('a builder hands out more fresh names than its pool holds, all distinct', () => {
    const b = new TrajectoryBuilder(0, rng('fresh-ids'));
    const r = rng('fresh-pool');
    const names = Array.from({ length: NOUNS.length * 3 }, () => b.unique(() => `packages/orders-${r.pick(NOUNS)}`));
    expect(new Set(names).size).toBe(names.length);
    // The pool is used first: every noun appears unnumbered before numbering is needed.
    for (const noun of NOUNS) expect(names).toContain(`packages/orders-${noun}`);
  });

  it('a test suite larger than its runner has file names terminates with distinct files and exactly `size` tests', () => {
    // go names a file by one of 32 nouns, and each file holds at most 9 tests: 600 tests need more files than that.
    for (const runner of RUNNERS) {
      const suite = testSuite(rng(`big-suite-${runner}`), runner, 'packages/orders-cart', 600);
      const files = suite.files.map((f) => f.file);
      expect(new Set(files).size).toBe(files.length);
      expect(suite.files.reduce((n, f) => n + f.tests.length, 0)).toBe(600);
      for (const f of suite.files) expect(new Set(f.tests).size).toBe(f.tests.length);
    }
    const go = testSuite(rng('big-suite-go'), 'go', 'packages/orders-cart', 600);
    expect(go.files.length).toBeGreaterThan(NOUNS.length);
  });

  it('a small suite still uses plain names only', () => {
    const suite = testSuite(rng('small-suite'), 'go', 'packages/orders-cart', 12);
    for (const f of suite.files) expect(f.file).toMatch(/^\.\/internal\/[a-z]+$/);
  });
});
