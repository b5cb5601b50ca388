import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import {
  bootstrap,
  discordant,
  holm,
  mcnemarExact,
  orderRanks,
  percentile,
  pooledReduction,
  resampledIndices,
  wilson,
} from '../../src/report/stats.js';

describe('wilson', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3 (score, no
  // continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i matches Newcombe 1998: [%f, %f]', (x, n, lo, hi) => {
    const i = wilson(x, n);
    expect(i.lo).toBeCloseTo(lo, 4);
    expect(i.hi).toBeCloseTo(hi, 4);
  });

  it('is symmetric: x/n and (n-x)/n mirror each other, and n/n reaches exactly 1', () => {
    const a = wilson(3, 17);
    const b = wilson(14, 17);
    expect(a.lo!).toBeCloseTo(1 - b.hi!, 12);
    expect(a.hi!).toBeCloseTo(1 - b.lo!, 12);
    expect(wilson(29, 29).hi).toBe(1);
    expect(wilson(0, 29).lo).toBe(0);
  });

  it('leaves 0/0 undefined rather than inventing 0 or 1', () => {
    expect(wilson(0, 0)).toEqual({ lo: null, hi: null });
  });

  it('rejects impossible counts', () => {
    expect(() => wilson(3, 2)).toThrow(/successes <= trials/);
    expect(() => wilson(-1, 2)).toThrow();
    expect(() => wilson(0.5, 2)).toThrow();
  });
});

describe('percentile', () => {
  it('interpolates between closest ranks (type 7)', () => {
    expect(percentile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([10, 20], 0.975)).toBeCloseTo(19.75, 12);
  });

  // The bootstrap puts in order only the ranks its percentiles read; each must hold what a full sort puts there.
  it('reads the same values from ranks put in order by selection as from a sorted copy', () => {
    const value = fc.oneof(fc.integer({ min: -4, max: 4 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 300 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        (xs, qs) => {
          // No -0: the statistics never make it, and a sort would set it apart from 0.
          const values = Float64Array.from(xs, (x) => (Object.is(x, -0) ? 0 : x));
          const sorted = Float64Array.from(values).sort();
          const ranks = qs.flatMap((q) => {
            const below = Math.floor((values.length - 1) * q);
            return [below, Math.min(values.length - 1, below + 1)];
          });
          orderRanks(values, ranks);
          for (const k of ranks) expect(values[k]).toBe(sorted[k]);
          for (const q of qs) expect(percentile(values, q)).toBe(percentile(sorted, q));
          expect(Float64Array.from(values).sort()).toEqual(sorted);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('bootstrap', () => {
  const mean = (xs: readonly number[]) => (idx: readonly number[]) => idx.reduce((s, i) => s + xs[i]!, 0) / idx.length;

  it('draws the indices once per seed, unit count and iterations, in the order a fresh generator gives them', () => {
    const rng = seedrandom('42');
    const expected = Array.from({ length: 7 * 30 }, () => Math.floor(rng() * 7));
    expect([...resampledIndices(7, '42', 30)]).toEqual(expected);
    expect([...resampledIndices(7, '43', 30)]).not.toEqual(expected);
  });

  it('puts every statistic of one seed on the same resamples, so a difference is paired', () => {
    const xs = [1, 5, 2, 8, 3];
    const ys = xs.map((x) => x + 1);
    const r = bootstrap(5, (idx) => mean(xs)(idx) - mean(ys)(idx), { seed: 9, iterations: 300 });
    // Unpaired draws would spread the difference; on shared resamples it is exactly the constant shift.
    expect(r.lo!).toBeCloseTo(-1, 12);
    expect(r.hi!).toBeCloseTo(-1, 12);
    expect(bootstrap(5, mean(ys), { seed: 9, iterations: 300 }).lo).toBeCloseTo(
      bootstrap(5, mean(xs), { seed: 9, iterations: 300 }).lo! + 1,
      12,
    );
  });

  it('gives the exact percentiles of a two-unit resampling distribution', () => {
    // Means of two draws from {0, 1}: 0 (1/4), 0.5 (1/2), 1 (1/4); the 2.5th and 97.5th percentiles are 0 and 1.
    const r = bootstrap(2, mean([0, 1]), { seed: 7, iterations: 4000 });
    expect(r).toMatchObject({ estimate: 0.5, lo: 0, hi: 1, iterations: 4000, seed: '7' });
  });

  it('approximates the normal interval of a proportion of 20 in 50', () => {
    const xs = Array.from({ length: 50 }, (_, i) => (i < 20 ? 1 : 0));
    const r = bootstrap(50, mean(xs), { seed: 20261202, iterations: 4000 });
    const half = 1.96 * Math.sqrt((0.4 * 0.6) / 50);
    expect(r.lo!).toBeGreaterThan(0.4 - half - 0.03);
    expect(r.lo!).toBeLessThan(0.4 - half + 0.03);
    expect(r.hi!).toBeGreaterThan(0.4 + half - 0.03);
    expect(r.hi!).toBeLessThan(0.4 + half + 0.03);
  });

  it('is a function of its seed: same seed same interval, another seed another draw', () => {
    const xs = [0.1, 0.5, 0.2, 0.9, 0.3, 0.7, 0.4];
    const a = bootstrap(xs.length, mean(xs), { seed: 1, iterations: 500 });
    expect(bootstrap(xs.length, mean(xs), { seed: 1, iterations: 500 })).toEqual(a);
    expect(bootstrap(xs.length, mean(xs), { seed: 2, iterations: 500 })).not.toEqual(a);
  });

  it('collapses on constant data and is undefined with no units or an undefined statistic', () => {
    expect(bootstrap(4, mean([3, 3, 3, 3]), { seed: 1, iterations: 100 })).toMatchObject({ estimate: 3, lo: 3, hi: 3 });
    expect(bootstrap(0, mean([]), { seed: 1, iterations: 100 })).toMatchObject({ estimate: null, lo: null, hi: null });
    expect(bootstrap(3, () => null, { seed: 1, iterations: 100 })).toMatchObject({
      estimate: null,
      lo: null,
      hi: null,
    });
    expect(() => bootstrap(3, mean([1, 2, 3]), { seed: 1, iterations: 0 })).toThrow(/iterations/);
  });

  it('pools token reduction as a ratio of sums, not a mean of ratios', () => {
    const stat = pooledReduction([100, 900], [50, 900]);
    expect(stat([0, 1])).toBeCloseTo(0.05, 12);
    expect(stat([0, 0])).toBeCloseTo(0.5, 12);
    expect(pooledReduction([0], [0])([0])).toBeNull();
  });
});

describe('mcnemarExact', () => {
  it('matches hand-computed binomial tails', () => {
    expect(mcnemarExact(0, 0).p).toBe(1);
    expect(mcnemarExact(5, 0).p).toBeCloseTo(2 / 32, 12);
    // n = 10, P(X <= 2) = (1 + 10 + 45) / 1024.
    expect(mcnemarExact(2, 8).p).toBeCloseTo((2 * 56) / 1024, 12);
    expect(mcnemarExact(8, 2).p).toBeCloseTo((2 * 56) / 1024, 12);
    expect(mcnemarExact(3, 3).p).toBe(1);
    // n = 20, b = 3: P(X <= 3) = (1 + 20 + 190 + 1140) / 2^20.
    expect(mcnemarExact(3, 17).p).toBeCloseTo((2 * 1351) / 2 ** 20, 12);
  });

  it('counts discordant pairs and refuses unpaired outcomes', () => {
    expect(discordant([true, true, false, false, true], [true, false, true, false, false])).toEqual({ b: 2, c: 1 });
    expect(() => discordant([true], [true, false])).toThrow(/unpaired/);
  });
});

describe('holm', () => {
  it('adjusts step-down with the running maximum, in input order', () => {
    // Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> max 0.06.
    const adjusted = holm([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((v, i) => expect(adjusted[i]).toBeCloseTo(v, 12));
  });

  it('caps at 1 and leaves a single test alone', () => {
    expect(holm([0.5, 0.6])).toEqual([1, 1]);
    expect(holm([0.04])).toEqual([0.04]);
    expect(holm([])).toEqual([]);
  });
});
