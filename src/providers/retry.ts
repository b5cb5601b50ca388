// Exponential backoff with seeded jitter. A retry-after from the server wins over the computed delay (it is what
// the server asked for); the jitter draws from seedrandom so a run's schedule of waits is reproducible.
import seedrandom from 'seedrandom';
import { ProviderCallError } from './types.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  readonly baseMs: number;
  readonly maxMs: number;
  /** Seeds the jitter; combined with the call's key so concurrent calls do not share a sequence. */
  readonly seed: string;
  /** Waits; tests pass one that records the delay instead of sleeping. */
  readonly sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY = { attempts: 4, baseMs: 500, maxMs: 30_000 } as const;

export const realSleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

export interface Attempted<T> {
  readonly value: T;
  /** How many attempts it took (1 when the first one succeeded). */
  readonly attempts: number;
}

/** The delay before retry number `retry` (1-based): min(max, base * 2^(retry-1)) scaled into [0.5, 1). */
export function backoffMs(policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>, retry: number, draw: () => number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (retry - 1));
  return Math.round(ceiling * (0.5 + draw() / 2));
}

export async function withRetry<T>(key: string, policy: RetryPolicy, call: () => Promise<T>): Promise<Attempted<T>> {
  const draw = seedrandom(`${policy.seed}:${key}`);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return { value: await call(), attempts: attempt };
    } catch (err) {
      const e = err instanceof ProviderCallError ? err : new ProviderCallError('malformed', (err as Error).message);
      if (!e.retryable || attempt >= policy.attempts) throw e;
      const computed = backoffMs(policy, attempt, draw);
      await policy.sleep(e.retryAfterMs !== null ? Math.min(e.retryAfterMs, policy.maxMs) : computed);
    }
  }
}
