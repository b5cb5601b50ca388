// Timing is a separate decision from eligibility: an eligible removal is applied now (PRUNE) or postponed (DEFER).
import { usage } from '../errors.js';
import type { PolicyView } from '../fixture/view.js';
import { previousRequestTime, secondsBetween } from '../economics/sequence.js';
import { cacheProfile, isModelled, modelledProfiles, type ModelledProfile } from '../economics/caching.js';

export type Timing =
  | { readonly kind: 'immediate' }
  | { readonly kind: 'pressure'; readonly threshold: number }
  | { readonly kind: 'task-boundary' }
  /** Apply when the provider's cached prefix has expired (TTL of the profile since the previous request) or at a task boundary. */
  | { readonly kind: 'cache-safe'; readonly profile: string };

/** The profile `cache-safe` uses when none is named: Anthropic's default 5-minute cache. */
export const DEFAULT_CACHE_PROFILE = 'anthropic-5m';

export const TIMING_CHOICES = `immediate, pressure:<share of budget in (0,1]>, task-boundary, cache-safe[:<profile: ${modelledProfiles()
  .map((p) => p.id)
  .join(', ')}>]`;

export function parseTiming(text: string): Timing {
  if (text === 'immediate' || text === 'task-boundary') return { kind: text };
  const cache = /^cache-safe(?::(.+))?$/.exec(text);
  if (cache) {
    const id = cache[1] ?? DEFAULT_CACHE_PROFILE;
    const profile = cacheProfile(id);
    if (profile && isModelled(profile)) return { kind: 'cache-safe', profile: id };
    throw usage('PL_USAGE_BAD_VALUE', '--timing', text, TIMING_CHOICES);
  }
  const match = /^pressure:(\d*\.?\d+)$/.exec(text);
  const threshold = match ? Number(match[1]) : NaN;
  if (match && threshold > 0 && threshold <= 1) return { kind: 'pressure', threshold };
  throw usage('PL_USAGE_BAD_VALUE', '--timing', text, TIMING_CHOICES);
}

/** Whether a value from outside (a --policy module's declared timing) is a Timing this module can decide with. */
export function isTiming(value: unknown): value is Timing {
  if (!value || typeof value !== 'object') return false;
  const t = value as { kind?: unknown; threshold?: unknown; profile?: unknown };
  if (t.kind === 'immediate' || t.kind === 'task-boundary') return Object.keys(t).length === 1;
  if (t.kind === 'cache-safe') {
    const profile = typeof t.profile === 'string' ? cacheProfile(t.profile) : undefined;
    return profile !== undefined && isModelled(profile) && Object.keys(t).length === 2;
  }
  return (
    t.kind === 'pressure' &&
    typeof t.threshold === 'number' &&
    t.threshold > 0 &&
    t.threshold <= 1 &&
    Object.keys(t).length === 2
  );
}

export function timingLabel(timing: Timing): string {
  if (timing.kind === 'pressure') return `pressure:${timing.threshold}`;
  if (timing.kind === 'cache-safe')
    return timing.profile === DEFAULT_CACHE_PROFILE ? 'cache-safe' : `cache-safe:${timing.profile}`;
  return timing.kind;
}

/** What the runtime knows about its own requests at a prune point, beyond the view. */
export interface RequestClock {
  /** When it last sent a request (null: never); absent: read from the view (previousRequestTime). */
  readonly previousRequestTime?: string | null;
}

export interface TimingVerdict {
  readonly applyNow: boolean;
  readonly reason: string;
}

/** Whether eligible removals at this prune point are applied now; the same verdict holds for all its candidates. */
export function decideTiming(timing: Timing, view: PolicyView, clock: RequestClock = {}): TimingVerdict {
  const { budgetTokens, taskBoundary } = view.prunePoint;
  switch (timing.kind) {
    case 'immediate':
      return { applyNow: true, reason: 'applied as soon as eligible' };
    case 'pressure': {
      const share = view.contextTokens / budgetTokens;
      const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
      return share > timing.threshold
        ? { applyNow: true, reason: `context at ${pct(share)} of budget, above ${pct(timing.threshold)}` }
        : {
            applyNow: false,
            reason: `context at ${pct(share)} of budget, not above ${pct(timing.threshold)}: postponed`,
          };
    }
    case 'task-boundary':
      return taskBoundary
        ? { applyNow: true, reason: 'prune point is a task boundary' }
        : { applyNow: false, reason: 'not a task boundary: postponed to the next one' };
    case 'cache-safe':
      return cacheSafe(
        modelledProfile(timing.profile),
        view,
        clock.previousRequestTime === undefined ? previousRequestTime(view, null) : clock.previousRequestTime,
      );
  }
}

function modelledProfile(id: string): ModelledProfile {
  const profile = cacheProfile(id);
  if (!profile || !isModelled(profile))
    throw new Error(`internal: cache profile ${id} is not in the caching table with every figure`);
  return profile;
}

/**
 * A removal rewrites the cached prefix from its position on, so while the previous request's prefix is still cached
 * the removal waits: until the prefix has expired (more than the TTL since the previous request), or a task
 * boundary, where the next request changes anyway. A context shorter than the provider's minimum prefix was never
 * cached, so there is nothing to lose.
 */
function cacheSafe(profile: ModelledProfile, view: PolicyView, previous: string | null): TimingVerdict {
  const { taskBoundary, time } = view.prunePoint;
  if (taskBoundary) return { applyNow: true, reason: 'prune point is a task boundary' };
  if (previous === null) return { applyNow: true, reason: 'no request has been sent yet: nothing is cached' };
  const gap = secondsBetween(previous, time);
  if (gap > profile.ttlSeconds)
    return {
      applyNow: true,
      reason: `${gap} s since the previous request, past the ${profile.id} cache's ${profile.ttlSeconds} s: the cached prefix has expired`,
    };
  if (view.contextTokens < profile.minPrefixTokens)
    return {
      applyNow: true,
      reason: `context of ${view.contextTokens} tokens, below ${profile.id}'s ${profile.minPrefixTokens}-token minimum prefix: nothing is cached`,
    };
  return {
    applyNow: false,
    reason: `${gap} s since the previous request, within the ${profile.id} cache's ${profile.ttlSeconds} s: postponed until the prefix expires or a task boundary`,
  };
}
