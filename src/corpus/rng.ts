// The one source of randomness for the corpus generator. Every choice goes through an Rng built on seedrandom, and
// each fixture draws from its own sub-seed derived from (seed, index), so fixture k is the same whether or not the
// fixtures before it were generated (a corpus of 400 and one of 10 share their first 10 fixtures).
import seedrandom from 'seedrandom';

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(list: readonly T[]): T;
  /** `n` distinct elements in a random order (all of them when n >= length). */
  sample<T>(list: readonly T[], n: number): T[];
  /** Lowercase hex of the given length. */
  hex(length: number): string;
  /** A positive integer whose logarithm is uniform-ish around `median`, clamped to [lo, hi]: heavy right tail. */
  logNormal(median: number, spread: number, lo: number, hi: number): number;
  /** An independent stream for one labelled purpose, so adding draws to one part does not shift another. */
  fork(label: string): Rng;
}

/** One value, drawn with probability proportional to its weight (one draw from `r`). */
export function pickWeighted<T>(r: Rng, weights: readonly (readonly [T, number])[]): T {
  if (weights.length === 0) throw new Error('internal: pickWeighted from an empty list');
  let x = r.next() * weights.reduce((s, [, w]) => s + w, 0);
  for (const [value, w] of weights) {
    x -= w;
    if (x < 0) return value;
  }
  return weights[weights.length - 1]![0];
}

export function subSeed(seed: number, index: number): string {
  return `prunelab-corpus:${seed}:${index}`;
}

export function rng(seedText: string): Rng {
  const prng = seedrandom(seedText);
  const self: Rng = {
    next: () => prng.double(),
    int(lo, hi) {
      if (!(Number.isInteger(lo) && Number.isInteger(hi) && hi >= lo))
        throw new Error(`internal: rng.int(${lo}, ${hi})`);
      return lo + Math.floor(prng.double() * (hi - lo + 1));
    },
    chance: (p) => prng.double() < p,
    pick(list) {
      if (list.length === 0) throw new Error('internal: rng.pick from an empty list');
      return list[Math.floor(prng.double() * list.length)]!;
    },
    sample(list, n) {
      const copy = [...list];
      for (let i = copy.length - 1; i > 0; i -= 1) {
        const j = Math.floor(prng.double() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, Math.max(0, n));
    },
    hex(length) {
      let out = '';
      while (out.length < length) out += Math.floor(prng.double() * 16).toString(16);
      return out;
    },
    logNormal(median, spread, lo, hi) {
      // Box-Muller from two uniforms; only the first normal is used so each call costs exactly two draws.
      const u = Math.max(prng.double(), 1e-12);
      const v = prng.double();
      const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
      return Math.min(hi, Math.max(lo, Math.round(median * Math.exp(spread * z))));
    },
    fork: (label) => rng(`${seedText}/${label}`),
  };
  return self;
}
