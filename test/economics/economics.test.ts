// The request-sequence model: first divergence, what the cache bills, and the split net = savings − cache loss − overhead.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billPoint, billSide, poolEconomics, type PointInput } from '../../src/economics/bill.js';
import {
  firstDivergence,
  followingRequests,
  previousRequest,
  previousRequestTime,
  sequenceEconomics,
  type RequestEntry,
} from '../../src/economics/sequence.js';
import { cacheProfile, isModelled, type ModelledProfile } from '../../src/economics/caching.js';

const profile = (id: string): ModelledProfile => {
  const p = cacheProfile(id)!;
  if (!isModelled(p)) throw new Error(id);
  return p;
};
const A5 = profile('anthropic-5m');
const OAI = profile('openai-in-memory');
const entry = (id: string, tokens: number, text = `text of ${id}`): RequestEntry => ({ id, text, tokens });

describe('first divergence', () => {
  it("is the previous request's length when the next one only appends", () => {
    const prev = [entry('a', 500), entry('b', 700)];
    expect(firstDivergence(prev, [...prev, entry('c', 10)])).toBe(1200);
  });

  it('is the token index of the first entry removed or replaced by a placeholder', () => {
    const prev = [entry('a', 500), entry('b', 700), entry('c', 300)];
    expect(firstDivergence(prev, [entry('a', 500), entry('c', 300)])).toBe(500);
    expect(firstDivergence(prev, [entry('a', 500), entry('b', 5, '[removed b]'), entry('c', 300)])).toBe(500);
    expect(firstDivergence(prev, [entry('x', 500), ...prev.slice(1)])).toBe(0);
  });

  it('never exceeds either request and equals the common prefix (property)', () => {
    const entries = fc.array(
      fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd'), tokens: fc.integer({ min: 0, max: 50 }) }),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(entries, entries, (p, n) => {
        const prev = p.map((e) => entry(e.id, e.tokens));
        const next = n.map((e) => entry(e.id, e.tokens));
        const d = firstDivergence(prev, next);
        let common = 0;
        for (let i = 0; i < Math.min(prev.length, next.length) && prev[i]!.id === next[i]!.id; i += 1)
          common += prev[i]!.tokens;
        return d === common && d <= prev.reduce((s, e) => s + e.tokens, 0);
      }),
    );
  });
});

describe('the request before a prune point', () => {
  it("is the raw context at the first point, then the previous point's request with the new items appended", () => {
    const raw1 = [entry('a', 1), entry('b', 1)];
    const raw2 = [...raw1, entry('c', 1)];
    expect(previousRequest(null, null, raw1)).toEqual(raw1);
    const sent1 = [entry('a', 1)];
    expect(previousRequest(sent1, raw1, raw2).map((e) => e.id)).toEqual(['a', 'c']);
  });

  it("was the request that produced the newest model item, or the previous prune point's if later; none before the model spoke", () => {
    const items = [
      { time: '2026-01-01T10:00:00Z', origin: 'model' },
      { time: '2026-01-01T10:04:00Z', origin: 'model' },
      { time: '2026-01-01T10:40:00Z', origin: 'user' },
    ] as const;
    expect(previousRequestTime({ items }, null)).toBe('2026-01-01T10:04:00Z');
    expect(previousRequestTime({ items }, '2026-01-01T10:30:00Z')).toBe('2026-01-01T10:30:00Z');
    expect(previousRequestTime({ items: [items[2]] }, null)).toBeNull();
  });

  it('counts the model turns after the point and before the next', () => {
    const items = [
      { turn: 1, origin: 'model' },
      { turn: 3, origin: 'model' },
      { turn: 3, origin: 'model' },
      { turn: 4, origin: 'environment' },
      { turn: 6, origin: 'model' },
    ];
    expect(followingRequests(items, 1, 6)).toBe(1);
    expect(followingRequests(items, 1, null)).toBe(2);
  });
});

describe('billing', () => {
  const side = (previousTokens: number, divergence: number, sentTokens: number) => ({
    previousTokens,
    divergence,
    sentTokens,
  });

  it('bills Anthropic: read 0.1× up to the divergence, write 1.25× after it, later requests read the whole prefix', () => {
    // 10,000 cached; a removal at 2,000 leaves 9,000 to send: 2,000 read, 7,000 written, then 3 later requests read 9,000.
    expect(billSide(A5, side(10_000, 2_000, 9_000), true, 3)).toEqual({
      read: 2_000,
      write: 7_000,
      cost: 2_000 * 0.1 + 7_000 * 1.25 + 3 * 9_000 * 0.1,
    });
    // Raw on the same sequence reads all 10,000 it had sent and writes nothing new.
    expect(billSide(A5, side(10_000, 10_000, 10_000), true, 3).cost).toBe(1_000 + 3_000);
  });

  it('bills OpenAI in 128-token steps from 1,024, with no write surcharge', () => {
    expect(billSide(OAI, side(5_000, 2_000, 4_500), true, 0)).toEqual({
      read: 1_920,
      write: 2_580,
      cost: 1_920 * 0.5 + 2_580,
    });
    expect(billSide(OAI, side(5_000, 1_000, 4_500), true, 0).read).toBe(0);
  });

  it('reads nothing from an expired cache or below the minimum prefix', () => {
    expect(billSide(A5, side(10_000, 10_000, 10_000), false, 0)).toEqual({ read: 0, write: 10_000, cost: 12_500 });
    expect(billSide(A5, side(900, 900, 900), true, 2)).toEqual({ read: 0, write: 0, cost: 2_700 });
  });

  it('detects "reduction is large but cache effects remove the benefit": a warm cache rewritten for a small saving', () => {
    const input: PointInput = {
      condition: side(20_000, 1_000, 19_000),
      raw: side(20_000, 20_000, 20_000),
      gapSeconds: 30,
      followingRequests: 2,
      overheadTokens: 0,
    };
    const bill = billPoint(A5, input);
    expect(bill.savings).toBe(3_000);
    expect(bill.net).toBeLessThan(0);
    expect(bill.cacheLoss).toBeGreaterThan(bill.savings);
  });

  it('finds pruning a win when the cache has expired, or the saving is carried by many later requests', () => {
    const expired: PointInput = {
      condition: side(20_000, 1_000, 19_000),
      raw: side(20_000, 20_000, 20_000),
      gapSeconds: 600,
      followingRequests: 2,
      overheadTokens: 0,
    };
    expect(billPoint(A5, expired).net).toBeGreaterThan(0);
    const big: PointInput = {
      condition: side(30_000, 25_000, 10_000),
      raw: side(30_000, 30_000, 30_000),
      gapSeconds: 10,
      followingRequests: 20,
      overheadTokens: 0,
    };
    expect(billPoint(A5, big).net).toBeGreaterThan(0);
  });

  it("says UNKNOWN, not zero, when the fixture's times are not real", () => {
    const bill = billPoint(A5, {
      condition: side(5_000, 100, 4_000),
      raw: side(5_000, 5_000, 5_000),
      gapSeconds: null,
      followingRequests: 1,
      overheadTokens: 0,
    });
    expect(bill).toMatchObject({ cacheAlive: 'UNKNOWN', cost: null, cacheLoss: null, net: null, savings: 2_000 });
  });

  const sides = fc.record({
    prev: fc.integer({ min: 0, max: 50_000 }),
    cut: fc.integer({ min: 0, max: 50_000 }),
    saved: fc.integer({ min: 0, max: 20_000 }),
  });
  const cases = fc.record({
    s: sides,
    gap: fc.integer({ min: 0, max: 7_200 }),
    following: fc.integer({ min: 0, max: 30 }),
    overhead: fc.integer({ min: 0, max: 5_000 }),
  });
  const inputOf = ({
    s,
    gap,
    following,
    overhead,
  }: {
    s: { prev: number; cut: number; saved: number };
    gap: number;
    following: number;
    overhead: number;
  }): PointInput => {
    const divergence = Math.min(s.cut, s.prev);
    const sent = Math.max(divergence, s.prev - s.saved);
    return {
      condition: side(s.prev, divergence, sent),
      raw: side(s.prev, s.prev, s.prev),
      gapSeconds: gap,
      followingRequests: following,
      overheadTokens: overhead,
    };
  };

  it('always splits net = savings − cache loss − overhead, and raw against itself is 0 (property)', () => {
    fc.assert(
      fc.property(cases, fc.constantFrom(A5, OAI, profile('anthropic-1h')), (c, p) => {
        const input = inputOf(c);
        const bill = billPoint(p, input);
        const rawBill = billPoint(p, { ...input, condition: input.raw, overheadTokens: 0 });
        return (
          Math.abs(bill.net! - (bill.savings - bill.cacheLoss! - bill.overhead)) < 0.01 &&
          rawBill.net === 0 &&
          rawBill.cacheLoss === 0
        );
      }),
    );
  });

  it('never makes a removal cost money once the cache has expired, while both requests stay cacheable (property)', () => {
    fc.assert(
      fc.property(cases, (c) => {
        const input = inputOf({ ...c, gap: A5.ttlSeconds + 1 + c.gap, overhead: 0 });
        fc.pre(input.condition.sentTokens >= A5.minPrefixTokens);
        return billPoint(A5, input).net! >= 0;
      }),
    );
  });
});

describe('a sequence of prune points', () => {
  it("carries the previous point's removals: the same removal again costs no second divergence", () => {
    const raw1 = [entry('sys', 2_000), entry('dup', 3_000), entry('x', 2_000)];
    const raw2 = [...raw1, entry('y', 1_000)];
    const pruned = (raw: RequestEntry[]) => raw.map((e) => (e.id === 'dup' ? entry('dup', 10, '[removed]') : e));
    const points = sequenceEconomics(
      [
        {
          time: '2026-01-01T10:00:30Z',
          previousRequestTime: '2026-01-01T10:00:00Z',
          raw: raw1,
          sent: pruned(raw1),
          followingRequests: 1,
          overheadTokens: 0,
        },
        {
          time: '2026-01-01T10:03:00Z',
          previousRequestTime: '2026-01-01T10:02:00Z',
          raw: raw2,
          sent: pruned(raw2),
          followingRequests: 0,
          overheadTokens: 0,
        },
      ],
      [A5],
      true,
    );
    expect(points[0]).toMatchObject({
      firstDivergence: 2_000,
      reusablePrefixLost: 5_000,
      requestTokens: 4_010,
      rawRequestTokens: 7_000,
    });
    expect(points[1]).toMatchObject({
      firstDivergence: 5_010,
      reusablePrefixLost: 0,
      previousRequest: { tokens: 5_010 },
    });
    const totals = poolEconomics(points, ['anthropic-5m']);
    expect(totals[0]).toMatchObject({ points: 2, unknownPoints: 0, savedTokens: 2_990 * 2 });
    expect(totals[0]!.net).toBeCloseTo(
      points.reduce((s, p) => s + p.cache[0]!.net!, 0),
      6,
    );
  });
});
