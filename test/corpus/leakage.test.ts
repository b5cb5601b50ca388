// The generated corpus must not hand a classifier its labels through ids, and its removable share must follow the
// generator parameter. Ids: a per-token label rate fitted on half the fixtures must not rank the other half's
// removable items above the rest (AUC <= 0.6, the issue's bar); the same measure on role-naming ids (v1's
// `x7`, `f2-rule`) finds the leak, so the test can fail. Base rate: the share of scored candidates the oracle
// labels removable is within 0.05 of the requested share at 0.15, 0.30 and 0.60 over 60 fixtures.
import { describe, expect, it } from 'vitest';
import type { Composed } from '../../src/corpus/compose.js';
import type { Item } from '../../src/fixture/schema.js';
import { composed } from '../support/composed.js';

const SEED = 20261202;
const COUNT = 60;
const corpora = new Map<number, Composed[]>();
function corpus(share: number): Composed[] {
  if (!corpora.has(share))
    corpora.set(
      share,
      Array.from({ length: COUNT }, (_, i) => composed(SEED, i, share)),
    );
  return corpora.get(share)!;
}

interface Row {
  readonly fixture: number;
  readonly tokens: readonly string[];
  readonly removable: boolean;
}

/** One row per scored candidate (item in context at a prune point), with the tokens `tokensOf` gives it. */
function rows(list: readonly Composed[], tokensOf: (it: Item, removable: boolean) => string[]): Row[] {
  return list.flatMap((c, fixture) => {
    const items = c.fixture['items'] as Item[];
    const points = c.fixture['prunePoints'] as { turn: number }[];
    return points.flatMap((p, k) => {
      const removable = new Set(c.oracle.points[k]!.removable);
      return items
        .filter((it) => it.turn <= p.turn)
        .map((it) => ({ fixture, tokens: tokensOf(it, removable.has(it.id)), removable: removable.has(it.id) }));
    });
  });
}

/** An id's tokens as a leak audit reads them: split at every non-letter, lowercased. */
const idTokens = (id: string) => [
  ...new Set(
    id
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean),
  ),
];

/** AUC of "mean train-half label rate of the row's tokens" for the removable label, on the other half. */
function tokenAuc(all: readonly Row[]): number {
  const train = all.filter((r) => r.fixture % 2 === 0);
  const test = all.filter((r) => r.fixture % 2 === 1);
  const base = train.filter((r) => r.removable).length / train.length;
  const rate = new Map<string, [number, number]>();
  for (const r of train)
    for (const t of r.tokens) {
      const x = rate.get(t) ?? [0, 0];
      rate.set(t, [x[0] + (r.removable ? 1 : 0), x[1] + 1]);
    }
  const score = (r: Row) => {
    const known = r.tokens.map((t) => rate.get(t)).filter((x): x is [number, number] => x !== undefined);
    return known.length === 0 ? base : known.reduce((s, [k, n]) => s + k / n, 0) / known.length;
  };
  const pos = test.filter((r) => r.removable).map(score);
  const neg = test.filter((r) => !r.removable).map(score);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

describe('ids carry no label', () => {
  it('every item id and tool-call id is opaque (i/k + 8 hex) and unique in its fixture', () => {
    for (const c of corpus(0.3)) {
      const items = c.fixture['items'] as Item[];
      // One assertion per fixture, listing every id that is not opaque (an expect per id cost more than the check).
      expect(
        items.flatMap((it) => [
          ...(/^i[0-9a-f]{8}$/.test(it.id) ? [] : [it.id]),
          ...(it.tool && !/^k[0-9a-f]{8}$/.test(it.tool.callId) ? [it.tool.callId] : []),
        ]),
        c.id,
      ).toEqual([]);
      expect(new Set(items.map((it) => it.id)).size).toBe(items.length);
    }
  }, 240_000);

  it('id and call-id tokens predict the removable label no better than AUC 0.6 on held-out fixtures', () => {
    const auc = tokenAuc(rows(corpus(0.3), (it) => [...idTokens(it.id), ...idTokens(it.tool?.callId ?? '')]));
    expect(auc).toBeLessThanOrEqual(0.6);
    expect(auc).toBeGreaterThanOrEqual(0.4);
  }, 240_000);

  it('the same measure finds ids that name their role (so the bound above can fail)', () => {
    const leaky = rows(corpus(0.3), (_it, removable) => [removable ? 'x' : 'rule']);
    expect(tokenAuc(leaky)).toBeGreaterThan(0.95);
  }, 240_000);
});

describe('the removable share follows the generator parameter', () => {
  for (const share of [0.15, 0.3, 0.6]) {
    it(`reaches ${share} within 0.05 over ${COUNT} fixtures`, () => {
      const list = corpus(share);
      const removable = list.reduce((s, c) => s + c.share.removable, 0);
      const candidates = list.reduce((s, c) => s + c.share.candidates, 0);
      expect(Math.abs(removable / candidates - share)).toBeLessThanOrEqual(0.05);
      // The per-fixture tallies are the oracle's own counts, not a separate estimate.
      for (const c of list.slice(0, 5)) {
        const points = c.fixture['prunePoints'] as { turn: number }[];
        const items = c.fixture['items'] as Item[];
        expect(c.share.removable).toBe(c.oracle.points.reduce((s, p) => s + p.removable.length, 0));
        expect(c.share.candidates).toBe(points.reduce((s, p) => s + items.filter((it) => it.turn <= p.turn).length, 0));
      }
    }, 240_000);
  }
});
