// The statistics of the report: seeded percentile bootstraps over fixtures (the cluster bootstrap every rate's
// interval comes from), the exact sign-flip test on paired per-fixture differences, Wilson intervals (kept only for
// units that are independent, and for the v1 criteria), exact McNemar tests (v1's prune-point pairing) and Holm's
// step-down correction. Written here rather than taken from a package because no well-kept npm package does all
// of them, and each is short enough to check by hand.
import seedrandom from 'seedrandom';

/** A proportion's interval; both bounds null when the denominator is 0 (undefined, never 0 or 1). */
export interface Interval {
  readonly lo: number | null;
  readonly hi: number | null;
}

/** A proportion with its Wilson interval (criteria.ts reads it without importing the analysis that makes it). */
export interface Proportion extends Interval {
  readonly numerator: number;
  readonly denominator: number;
  readonly value: number | null;
}

/** z for a two-sided 95% interval (the 0.975 quantile of the standard normal). */
export const Z95 = 1.959963984540054;

/**
 * Wilson score interval (Wilson 1927; Newcombe 1998 method 3; Brown, Cai and DasGupta 2001), without continuity
 * correction. 0/0 has no interval.
 */
export function wilson(successes: number, trials: number, z: number = Z95): Interval {
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || successes < 0 || trials < 0 || successes > trials) {
    throw new Error(`wilson: need integers 0 <= successes <= trials, got ${successes}/${trials}`);
  }
  if (trials === 0) return { lo: null, hi: null };
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  // The exact bounds at 0 and n are 0 and 1; clamping removes floating-point dust there.
  return {
    lo: successes === 0 ? 0 : Math.max(0, centre - half),
    hi: successes === trials ? 1 : Math.min(1, centre + half),
  };
}

export interface BootstrapOptions {
  readonly seed: number | string;
  readonly iterations: number;
  /** Two-sided level; 0.95 gives the 2.5th and 97.5th percentiles. */
  readonly level?: number;
}

export interface BootstrapResult extends Interval {
  readonly estimate: number | null;
  readonly seed: string;
  readonly iterations: number;
}

/** Percentile of sorted values by linear interpolation between closest ranks (R's type 7, numpy's default). */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new Error('percentile of no values');
  const h = (sorted.length - 1) * q;
  const below = Math.floor(h);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (h - below) * (sorted[above]! - sorted[below]!);
}

/** The two ranks `percentile(sorted, q)` reads. */
function ranksOf(length: number, q: number): [number, number] {
  const below = Math.floor((length - 1) * q);
  return [below, Math.min(length - 1, below + 1)];
}

/**
 * Reorders `values` so that each of `ranks` holds the value a numeric sort would put there, which is all that
 * `percentile` reads: a bootstrap's two bounds need four of its 10,000 ranks, and selecting them (Hoare's
 * selection, each rank in increasing order within what is left above the last) costs a fraction of a sort. Every
 * value is finite, so `<` orders them as the sort does.
 */
export function orderRanks(values: Float64Array, ranks: readonly number[]): void {
  let from = 0;
  for (const k of [...new Set(ranks)].sort((a, b) => a - b)) {
    if (k < from) continue;
    let lo = from;
    let hi = values.length - 1;
    while (hi > lo) {
      const x = values[lo]!;
      const y = values[(lo + hi) >>> 1]!;
      const z = values[hi]!;
      const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), z)); // the median of the three
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (values[i]! < pivot) i += 1;
        while (values[j]! > pivot) j -= 1;
        if (i <= j) {
          const t = values[i]!;
          values[i] = values[j]!;
          values[j] = t;
          i += 1;
          j -= 1;
        }
      }
      // [lo, j] holds nothing above the pivot, [i, hi] nothing below it, and what lies between equals it.
      if (k <= j) hi = j;
      else if (k >= i) lo = i;
      else break;
    }
    from = k + 1;
  }
}

/** Recently drawn index sets, by key; a few are kept since corpora and families bootstrap different unit counts. */
const draws = new Map<string, Int32Array>();
const KEPT_DRAWS = 8;

/**
 * The unit indices every iteration draws, iteration by iteration, for one seed, unit count and iteration count.
 * The report bootstraps dozens of statistics over the same fixtures with the same seed; drawing the indices once
 * and reusing them keeps every statistic on the very same resamples (so paired differences are paired) and spares
 * the generator, which dominates the cost at 10000 iterations. The last few sets drawn are kept.
 */
export function resampledIndices(units: number, seed: string, iterations: number): Int32Array {
  const key = `${units}\u0000${iterations}\u0000${seed}`;
  const kept = draws.get(key);
  if (kept) return kept;
  const rng = seedrandom(seed);
  const indices = new Int32Array(units * iterations);
  for (let k = 0; k < indices.length; k += 1) indices[k] = Math.floor(rng() * units);
  if (draws.size >= KEPT_DRAWS) draws.delete(draws.keys().next().value!);
  draws.set(key, indices);
  return indices;
}

/**
 * Seeded percentile bootstrap over units (fixtures): each iteration draws units with replacement and recomputes
 * `statistic` on the drawn indices. A statistic that is undefined on a draw (null) is skipped; if every draw is
 * undefined, so is the interval. The same seed, iterations and data always give the same interval.
 */
export function bootstrap(
  units: number,
  statistic: (indices: readonly number[]) => number | null,
  options: BootstrapOptions,
): BootstrapResult {
  if (!Number.isInteger(options.iterations) || options.iterations < 1)
    throw new Error(`bootstrap: iterations must be a positive integer, got ${options.iterations}`);
  const seed = String(options.seed);
  const level = options.level ?? 0.95;
  const all = Array.from({ length: units }, (_, i) => i);
  const estimate = units === 0 ? null : statistic(all);
  const base = { estimate, seed, iterations: options.iterations };
  if (units === 0 || estimate === null) return { ...base, lo: null, hi: null };
  const drawn = resampledIndices(units, seed, options.iterations);
  const draws: number[] = [];
  const indices = new Array<number>(units);
  for (let b = 0; b < options.iterations; b += 1) {
    for (let i = 0; i < units; i += 1) indices[i] = drawn[b * units + i]!;
    const value = statistic(indices);
    if (value !== null && Number.isFinite(value)) draws.push(value);
  }
  if (draws.length === 0) return { ...base, lo: null, hi: null };
  draws.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { ...base, lo: percentile(draws, tail), hi: percentile(draws, 1 - tail) };
}

/** Pooled net token reduction of the drawn fixtures: 1 - sum(final) / sum(raw); null when they hold no tokens. */
export function pooledReduction(
  raw: readonly number[],
  final: readonly number[],
): (indices: readonly number[]) => number | null {
  // Typed copies and an indexed loop: a statistic runs units times iterations (4 million times for one interval).
  const r0 = Float64Array.from(raw);
  const f0 = Float64Array.from(final);
  return (indices) => {
    let r = 0;
    let f = 0;
    for (let k = 0; k < indices.length; k += 1) {
      const i = indices[k]!;
      r += r0[i]!;
      f += f0[i]!;
    }
    return r === 0 ? null : 1 - f / r;
  };
}

/**
 * A pooled rate of the drawn clusters: sum of numerators over sum of denominators (a ratio estimator, so a fixture
 * weighs by its units); null when the drawn clusters hold no unit. With `bootstrap`, the fixture-cluster bootstrap:
 * decisions, prune points and items of one fixture are resampled together, since they are not independent.
 */
export function pooledRate(
  counts: readonly (readonly [number, number])[],
): (indices: readonly number[]) => number | null {
  const num = Float64Array.from(counts, (c) => c[0]);
  const den = Float64Array.from(counts, (c) => c[1]);
  return (indices) => {
    let n = 0;
    let d = 0;
    for (let k = 0; k < indices.length; k += 1) {
      const i = indices[k]!;
      n += num[i]!;
      d += den[i]!;
    }
    return d === 0 ? null : n / d;
  };
}

/** Per iteration, how often it drew each unit (iteration by iteration, units counts each), for the last few draws. */
const tallies = new Map<string, Uint16Array | Uint32Array>();

function drawTallies(units: number, seed: string, iterations: number): Uint16Array | Uint32Array {
  const key = `${units}\u0000${iterations}\u0000${seed}`;
  const kept = tallies.get(key);
  if (kept) return kept;
  const drawn = resampledIndices(units, seed, iterations);
  // A unit is drawn at most `units` times in one iteration.
  const tally = units <= 0xffff ? new Uint16Array(units * iterations) : new Uint32Array(units * iterations);
  // Iteration-major, so that one iteration's sum is one pass over one short row, added up in a register. Laid out
  // unit by unit, every unit's pass read and wrote all the iterations' running sums, which took twice as long.
  for (let i = 0; i < drawn.length; i += 1) {
    const at = i - (i % units) + drawn[i]!;
    tally[at] = tally[at]! + 1;
  }
  if (tallies.size >= KEPT_DRAWS) tallies.delete(tallies.keys().next().value!);
  tallies.set(key, tally);
  return tally;
}

/** Per-iteration sums of recently resampled columns, by seed, iterations and the column's values. */
const columnSums = new Map<string, Float64Array>();
const KEPT_SUMS = 256;

/**
 * Each iteration's sum of `column` over the units it drew, added in the order of the draw (so exactly the sum a
 * statistic looping over the drawn indices makes). The report resamples the same columns again and again (every
 * condition's decisions, its necessary items, a rule's zeros), so the last few hundred are kept.
 */
function drawnSums(column: readonly number[], seed: string, iterations: number): Float64Array {
  const key = `${iterations}\u0000${seed}\u0000${column.join(',')}`;
  const kept = columnSums.get(key);
  if (kept) return kept;
  const units = column.length;
  const sums = new Float64Array(iterations);
  // Integers whose sums stay exact add up to the same value in any order, so a count column is summed from how often
  // each draw took each unit, skipping the units whose count is 0 (most of a rare event's column).
  if (
    column.every(Number.isSafeInteger) &&
    column.reduce((t, v) => t + Math.abs(v), 0) * units <= Number.MAX_SAFE_INTEGER
  ) {
    const tally = drawTallies(units, seed, iterations);
    const counted: number[] = [];
    for (let u = 0; u < units; u += 1) if (column[u] !== 0) counted.push(u);
    const at = Int32Array.from(counted);
    const values = Float64Array.from(counted, (u) => column[u]!);
    for (let b = 0, row = 0; b < iterations; b += 1, row += units) {
      let sum = 0;
      for (let k = 0; k < at.length; k += 1) sum += values[k]! * tally[row + at[k]!]!;
      sums[b] = sum;
    }
  } else {
    const values = Float64Array.from(column);
    const drawn = resampledIndices(units, seed, iterations);
    for (let b = 0; b < iterations; b += 1) {
      let sum = 0;
      for (let i = b * units, end = i + units; i < end; i += 1) sum += values[drawn[i]!]!;
      sums[b] = sum;
    }
  }
  if (columnSums.size >= KEPT_SUMS) columnSums.delete(columnSums.keys().next().value!);
  columnSums.set(key, sums);
  return sums;
}

/**
 * `bootstrap` of a statistic of column sums over the drawn units (a pooled rate is summed numerators over summed
 * denominators), with the same result: the same draws, each sum added in the same order. Each column's sums are
 * computed once and shared by every statistic that resamples it.
 */
export function bootstrapSums(
  columns: readonly (readonly number[])[],
  statistic: SumsStatistic,
  options: BootstrapOptions,
): BootstrapResult {
  const units = columns[0]?.length ?? 0;
  if (columns.some((c) => c.length !== units)) throw new Error('bootstrapSums: columns of different lengths');
  if (units === 0 || !Number.isInteger(options.iterations) || options.iterations < 1) {
    return bootstrap(
      units,
      (indices) => statistic(columns.map((c) => indices.reduce((s, i) => s + c[i]!, 0))),
      options,
    );
  }
  const seed = String(options.seed);
  const { iterations } = options;
  const estimate = statistic(columns.map((c) => c.reduce((s, v) => s + v, 0)));
  const base = { estimate, seed, iterations };
  if (estimate === null) return { ...base, lo: null, hi: null };
  const sums = columns.map((c) => drawnSums(c, seed, iterations));
  const values = new Float64Array(iterations);
  let kept = 0;
  const { pair } = statistic;
  if (pair && sums.length === 2) {
    // Two arguments rather than an array destructured on every one of the 10,000 draws of about a thousand intervals
    // an analysis makes: the destructuring was a third of this loop's cost.
    const [first, second] = sums as [Float64Array, Float64Array];
    for (let b = 0; b < iterations; b += 1) {
      const value = pair(first[b]!, second[b]!);
      if (value !== null && Number.isFinite(value)) values[kept++] = value;
    }
  } else {
    const at = new Array<number>(columns.length).fill(0);
    for (let b = 0; b < iterations; b += 1) {
      for (let j = 0; j < sums.length; j += 1) at[j] = sums[j]![b]!;
      const value = statistic(at);
      if (value !== null && Number.isFinite(value)) values[kept++] = value;
    }
  }
  if (kept === 0) return { ...base, lo: null, hi: null };
  // Only the ranks the two percentiles read are put in sorted order: the values bootstrap's sort gives them (finite
  // values; it would set -0 before 0, which no statistic here makes).
  const draws = values.subarray(0, kept);
  const tail = (1 - (options.level ?? 0.95)) / 2;
  orderRanks(draws, [...ranksOf(kept, tail), ...ranksOf(kept, 1 - tail)]);
  return { ...base, lo: percentile(draws, tail), hi: percentile(draws, 1 - tail) };
}

/**
 * A statistic of one draw's column sums. One of two columns may also give `pair`, the same statistic taking the two
 * sums as arguments, which bootstrapSums calls instead.
 */
export interface SumsStatistic {
  (sums: readonly number[]): number | null;
  readonly pair?: (a: number, b: number) => number | null;
}

/** A statistic of two column sums, taken as an array or (`pair`) as two arguments. */
function ofTwo(pair: (a: number, b: number) => number | null): SumsStatistic {
  return Object.assign((sums: readonly number[]) => pair(sums[0]!, sums[1]!), { pair });
}

/** A pooled rate of summed [numerators, denominators]: null when no unit was drawn (the denominators sum to 0). */
export const rateOf = ofTwo((n, d) => (d === 0 ? null : n / d));

/** Net token reduction of summed [raw, final]: 1 - final/raw; null when they hold no tokens. */
export const reductionOf = ofTwo((raw, final) => (raw === 0 ? null : 1 - final / raw));

export interface SignFlipResult {
  /** Clusters where the difference is positive (the candidate has more of the outcome). */
  readonly b: number;
  /** Clusters where it is negative. */
  readonly c: number;
  /** The observed sum of differences. */
  readonly sum: number;
  /** Two-sided exact p-value: P(|T| >= |observed|) over all 2^n sign assignments; 1 when every difference is 0. */
  readonly p: number;
}

/**
 * Exact paired sign-flip (Fisher-Pitman permutation) test on integer per-cluster differences. Under the null that
 * the two conditions are exchangeable within a fixture, each difference is as likely to carry either sign, so the
 * sum T is distributed as the sum of +-|d_i|. T = 2S - A with A = sum |d_i| and S the sum over positive signs, so
 * the exact distribution is the subset-sum distribution of |d_i|, computed by dynamic programming in O(n A)
 * rather than by enumerating 2^n assignments.
 */
export function signFlipExact(differences: readonly number[]): SignFlipResult {
  for (const d of differences)
    if (!Number.isInteger(d)) throw new Error(`sign-flip: need integer differences, got ${d}`);
  const nonzero = differences.filter((d) => d !== 0).map(Math.abs);
  const b = differences.filter((d) => d > 0).length;
  const c = differences.filter((d) => d < 0).length;
  const sum = differences.reduce((s, d) => s + d, 0);
  if (nonzero.length === 0) return { b, c, sum, p: 1 };
  const total = nonzero.reduce((s, d) => s + d, 0);
  // One array updated in place, from the top down, so each step reads the previous step's values below it: the same
  // sums in the same order as a fresh array per difference, without allocating n arrays of A + 1 entries.
  const dist = new Float64Array(total + 1);
  dist[0] = 1;
  let reach = 0;
  for (const d of nonzero) {
    for (let s = reach + d; s >= 0; s -= 1) {
      const stay = s <= reach ? dist[s]! / 2 : 0;
      dist[s] = s >= d ? dist[s - d]! / 2 + stay : stay;
    }
    reach += d;
  }
  const observed = Math.abs(sum);
  let p = 0;
  for (let s = 0; s <= total; s += 1) if (Math.abs(2 * s - total) >= observed) p += dist[s]!;
  return { b, c, sum, p: Math.min(1, p) };
}

/** Natural log of n choose k. */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i += 1) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

export interface McNemarResult {
  /** Pairs where only the first condition has the outcome. */
  readonly b: number;
  /** Pairs where only the second condition has the outcome. */
  readonly c: number;
  /** Two-sided exact p-value; 1 when no pair is discordant. */
  readonly p: number;
}

/**
 * Exact McNemar test: under the null each discordant pair is equally likely to go either way, so
 * p = min(1, 2 * P(X <= min(b, c))) with X ~ Binomial(b + c, 1/2).
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0)
    throw new Error(`mcnemar: need non-negative integer counts, got ${b}, ${c}`);
  const n = b + c;
  if (n === 0) return { b, c, p: 1 };
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i += 1) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return { b, c, p: Math.min(1, 2 * tail) };
}

/** Discordant counts of paired booleans (the same prune points under two conditions). */
export function discordant(first: readonly boolean[], second: readonly boolean[]): { b: number; c: number } {
  if (first.length !== second.length)
    throw new Error(`mcnemar: unpaired outcomes (${first.length} against ${second.length})`);
  let b = 0;
  let c = 0;
  for (let i = 0; i < first.length; i += 1) {
    if (first[i] && !second[i]) b += 1;
    if (!first[i] && second[i]) c += 1;
  }
  return { b, c };
}

/**
 * Holm's step-down adjusted p-values (Holm 1979), in the input order: sort ascending, multiply the i-th smallest
 * (0-based) by m - i, carry the running maximum, cap at 1. Ties keep their input order.
 */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
