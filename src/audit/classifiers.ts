// The deliberately simple per-feature classifiers of the leak audit: each is fitted on one half of the corpus and
// returns a score (higher = more likely removable) for rows of the other half. Simple on purpose: the audit asks
// whether a feature alone carries the label, and a policy reading that feature could do at least this well.
import type { FeatureValue } from '../policy/controls/features.js';

export type Scorer = (value: FeatureValue) => number;

/** Pseudo-rows of the training base rate added to every value's counts, so a value seen once does not score 0 or 1. */
export const SMOOTHING = 2;

/** Quantile bins for numbers: enough to show a non-monotone pattern, few enough that each bin has support. */
export const NUMBER_BINS = 10;

export function fitScorer(values: readonly FeatureValue[], labels: readonly boolean[]): Scorer {
  const type = values[0]?.type;
  if (type === 'tokens') return fitTokens(values, labels);
  if (type === 'number') return fitNumbers(values, labels);
  return fitCategories(values.map(asCategory), labels);
}

/** Smoothed removable rate per value; a value unseen in training scores the training base rate. */
export function fitRates(values: readonly string[], labels: readonly boolean[]): (value: string) => number {
  const base = labels.filter(Boolean).length / Math.max(1, labels.length);
  const counts = new Map<string, { pos: number; n: number }>();
  values.forEach((v, i) => {
    const c = counts.get(v) ?? { pos: 0, n: 0 };
    c.pos += labels[i] ? 1 : 0;
    c.n += 1;
    counts.set(v, c);
  });
  return (v) => {
    const c = counts.get(v);
    return c ? (c.pos + SMOOTHING * base) / (c.n + SMOOTHING) : base;
  };
}

function fitCategories(values: readonly string[], labels: readonly boolean[]): Scorer {
  const rate = fitRates(values, labels);
  return (v) => rate(asCategory(v));
}

/** Bin edges at the training half's deciles (distinct values only), then a smoothed rate per bin. */
function fitNumbers(values: readonly FeatureValue[], labels: readonly boolean[]): Scorer {
  const numbers = values.map(asNumber);
  const sorted = [...numbers].sort((a, b) => a - b);
  const edges = [
    ...new Set(
      Array.from({ length: NUMBER_BINS - 1 }, (_, k) => sorted[Math.floor(((k + 1) * sorted.length) / NUMBER_BINS)]!),
    ),
  ];
  const binOf = (x: number): string => String(edges.filter((e) => x >= e).length);
  const rate = fitRates(numbers.map(binOf), labels);
  return (v) => rate(binOf(asNumber(v)));
}

/**
 * Naive Bayes over token presence: each token seen in training adds its log-odds of appearing in a removable row
 * against a necessary one (add-one smoothed); tokens never seen in training add nothing, so an item's length alone
 * cannot move its score.
 */
function fitTokens(values: readonly FeatureValue[], labels: readonly boolean[]): Scorer {
  const counts = new Map<string, { pos: number; neg: number }>();
  let positives = 0;
  values.forEach((v, i) => {
    if (labels[i]) positives += 1;
    for (const t of asTokens(v)) {
      const c = counts.get(t) ?? { pos: 0, neg: 0 };
      if (labels[i]) c.pos += 1;
      else c.neg += 1;
      counts.set(t, c);
    }
  });
  const negatives = values.length - positives;
  const weight = new Map<string, number>();
  for (const [t, c] of counts)
    weight.set(t, Math.log((c.pos + 1) / (positives + 2)) - Math.log((c.neg + 1) / (negatives + 2)));
  return (v) => asTokens(v).reduce((sum, t) => sum + (weight.get(t) ?? 0), 0);
}

function asCategory(v: FeatureValue): string {
  if (v.type !== 'category') throw new Error(`internal: expected a category, got ${v.type}`);
  return v.value;
}

function asNumber(v: FeatureValue): number {
  if (v.type !== 'number') throw new Error(`internal: expected a number, got ${v.type}`);
  return v.value;
}

function asTokens(v: FeatureValue): readonly string[] {
  if (v.type !== 'tokens') throw new Error(`internal: expected tokens, got ${v.type}`);
  return v.value;
}
