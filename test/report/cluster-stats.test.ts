// The cluster statistics checked against values computed independently: the sign-flip p-value against brute-force
// enumeration of every sign assignment, and the fixture-cluster bootstrap against the exact distribution of the
// pooled rate over all 27 resamples of 3 clusters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bootstrap,
  bootstrapSums,
  pooledRate,
  pooledReduction,
  rateOf,
  reductionOf,
  signFlipExact,
} from '../../src/report/stats.js';

/** Two-sided p by enumerating all 2^n sign assignments of the nonzero differences. */
function bruteForceSignFlip(d: readonly number[]): number {
  const nz = d.filter((x) => x !== 0).map(Math.abs);
  const observed = Math.abs(d.reduce((s, x) => s + x, 0));
  let hits = 0;
  for (let mask = 0; mask < 2 ** nz.length; mask += 1) {
    let t = 0;
    nz.forEach((x, i) => {
      t += (mask >> i) & 1 ? x : -x;
    });
    if (Math.abs(t) >= observed) hits += 1;
  }
  return nz.length === 0 ? 1 : hits / 2 ** nz.length;
}

describe('exact sign-flip test', () => {
  it('matches hand computations', () => {
    // Four fixtures all +1: only all-plus and all-minus reach |T| = 4, so p = 2/16.
    expect(signFlipExact([1, 1, 1, 1]).p).toBeCloseTo(2 / 16, 12);
    // [3, -1]: T in {4, 2, -2, -4}; |T| >= 2 always, so p = 1.
    expect(signFlipExact([3, -1])).toEqual({ b: 1, c: 1, sum: 2, p: 1 });
    // No difference at all: p = 1, and zero differences count on neither side.
    expect(signFlipExact([0, 0, 0])).toEqual({ b: 0, c: 0, sum: 0, p: 1 });
  });

  it('agrees with brute-force enumeration over every sign assignment', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -6, max: 6 }), { maxLength: 12 }), (d) => {
        // Exactly: every probability here is a multiple of 2^-n (n <= 12), which doubles add without rounding.
        expect(signFlipExact(d).p).toBe(bruteForceSignFlip(d));
      }),
      { numRuns: 300 },
    );
  });

  it('is symmetric: swapping candidate and reference keeps p and swaps b and c', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 15 }), (d) => {
        const a = signFlipExact(d);
        const b = signFlipExact(d.map((x) => -x));
        expect(b.p).toBeCloseTo(a.p, 12);
        expect([b.b, b.c]).toEqual([a.c, a.b]);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses non-integer differences', () => {
    expect(() => signFlipExact([0.5])).toThrow(/integer/);
  });
});

describe('fixture-cluster bootstrap of a pooled rate', () => {
  // Three fixtures with (harmed, necessary) counts: 1/2, 0/2, 2/4. Pooled: 3/8.
  const counts: [number, number][] = [
    [1, 2],
    [0, 2],
    [2, 4],
  ];

  /** The pooled rate over every one of the 3^3 ordered resamples, each with probability 1/27. */
  function exactDistribution(): number[] {
    const out: number[] = [];
    for (let i = 0; i < 3; i += 1)
      for (let j = 0; j < 3; j += 1)
        for (let k = 0; k < 3; k += 1) {
          const pick = [counts[i]!, counts[j]!, counts[k]!];
          out.push(pick.reduce((s, c) => s + c[0], 0) / pick.reduce((s, c) => s + c[1], 0));
        }
    return out.sort((a, b) => a - b);
  }

  it('estimates the pooled rate (sum of numerators over sum of denominators, not a mean of rates)', () => {
    expect(bootstrap(3, pooledRate(counts), { seed: 1, iterations: 10 }).estimate).toBe(3 / 8);
  });

  it('puts its 95% ends at the exact extremes of the resampling distribution, each of which has probability 1/27 > 2.5%', () => {
    const exact = exactDistribution();
    // By hand: the lowest is 0/6 (fixture 2 thrice), the highest 6/12 = 0.5 (fixture 3, or 1 with 3, throughout).
    expect(exact[0]).toBe(0);
    expect(exact[exact.length - 1]).toBe(0.5);
    const r = bootstrap(3, pooledRate(counts), { seed: 7, iterations: 20000 });
    expect(r.lo).toBe(exact[0]);
    expect(r.hi).toBe(exact[exact.length - 1]);
  });

  it('draws resamples with the exact probabilities (each distinct pooled value within sampling error)', () => {
    const exact = exactDistribution();
    const values = new Map<number, number>();
    for (const v of exact) values.set(v, (values.get(v) ?? 0) + 1 / 27);
    const seen = new Map<number, number>();
    const iterations = 27000;
    bootstrap(
      3,
      (idx) => {
        const v = pooledRate(counts)(idx)!;
        seen.set(v, (seen.get(v) ?? 0) + 1);
        return v;
      },
      { seed: 11, iterations },
    );
    for (const [v, p] of values) {
      // The first call is the estimate on all three fixtures, 3/8, once; a binomial sd at n = 27000 is < 0.003.
      const share = ((seen.get(v) ?? 0) - (v === 3 / 8 ? 1 : 0)) / iterations;
      expect(Math.abs(share - p)).toBeLessThan(0.012);
    }
  });

  it('is undefined when no fixture holds a unit (0/0), never 0', () => {
    const r = bootstrap(
      2,
      pooledRate([
        [0, 0],
        [0, 0],
      ]),
      { seed: 1, iterations: 50 },
    );
    expect(r).toMatchObject({ estimate: null, lo: null, hi: null });
  });
});

describe("bootstrapSums (the report's intervals, from per-column sums shared between statistics)", () => {
  const counts = fc.array(
    fc.tuple(fc.nat(6), fc.nat(6)).map(([n, extra]) => [n, n + extra] as [number, number]),
    { minLength: 0, maxLength: 8 },
  );
  const zeros = fc.array(
    fc.oneof(fc.constant(0), fc.nat(6)).map((d) => [0, d] as [number, number]),
    { minLength: 0, maxLength: 8 },
  );
  const options = fc.record({ seed: fc.nat(1000), iterations: fc.integer({ min: 1, max: 60 }) });

  it('gives exactly bootstrap(pooledRate) for rates with events, without events and without units', () => {
    fc.assert(
      fc.property(fc.oneof(counts, zeros), options, (cs, o) => {
        const columns = [cs.map((c) => c[0]), cs.map((c) => c[1])];
        expect(bootstrapSums(columns, rateOf, o)).toEqual(bootstrap(cs.length, pooledRate(cs), o));
        // The same statistic without its two-argument form goes through the general loop, to the same interval.
        expect(bootstrapSums(columns, (sums) => rateOf(sums), o)).toEqual(bootstrapSums(columns, rateOf, o));
      }),
      { numRuns: 300 },
    );
  });

  it('gives exactly bootstrap(pooledReduction) on fractional values too: each sum is added in the order of the draw', () => {
    const value = fc.double({ min: 0, max: 1000, noNaN: true });
    fc.assert(
      fc.property(fc.array(fc.tuple(value, value), { maxLength: 8 }), options, (rf, o) => {
        const [raw, final] = [rf.map((x) => x[0]), rf.map((x) => x[1])];
        expect(bootstrapSums([raw, final], reductionOf, o)).toEqual(
          bootstrap(rf.length, pooledReduction(raw, final), o),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('answers a second statistic over an already resampled column the same as a first one, and refuses ragged columns', () => {
    const n = [0, 3, 1, 0, 2];
    const d = [4, 5, 1, 2, 3];
    const o = { seed: 5, iterations: 400 };
    const first = bootstrapSums([n, d], rateOf, o);
    expect(bootstrapSums([n, d], rateOf, o)).toEqual(first);
    expect(first).toEqual(bootstrap(5, pooledRate(n.map((x, i) => [x, d[i]!] as [number, number])), o));
    expect(() => bootstrapSums([n, d.slice(1)], rateOf, o)).toThrow(/lengths/);
  });
});
