import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pool, ratio } from '../../src/score/ratio.js';

describe('ratios', () => {
  it('is undefined, never 0 or 1, when the denominator is 0', () => {
    expect(ratio(0, 0)).toEqual({ numerator: 0, denominator: 0, value: null });
  });

  it('divides otherwise', () => {
    expect(ratio(1, 4).value).toBe(0.25);
    expect(ratio(3, 3).value).toBe(1);
  });

  it('refuses a numerator above its denominator', () => {
    expect(() => ratio(2, 1)).toThrow(/numerator/);
    expect(() => ratio(-1, 1)).toThrow();
  });

  it('pools by summing counts, not by averaging values', () => {
    const pooled = pool([ratio(1, 1), ratio(0, 9), ratio(0, 0)]);
    expect(pooled).toEqual({ numerator: 1, denominator: 10, value: 0.1 });
  });

  it('keeps every pooled numerator within its denominator (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(50), fc.nat(50))), (pairs) => {
        const r = pool(pairs.map(([a, b]) => ratio(Math.min(a, b), Math.max(a, b))));
        expect(r.numerator).toBeLessThanOrEqual(r.denominator);
        if (r.denominator === 0) expect(r.value).toBeNull();
        else expect(r.value).toBeCloseTo(r.numerator / r.denominator);
      }),
    );
  });
});
