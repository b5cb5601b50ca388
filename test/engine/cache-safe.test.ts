// cache-safe timing: both sides of the rule. It must postpone while the previous request's prefix is cached, and must
// still apply once that prefix has expired, at a task boundary, or when the context was too short to be cached.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import { cacheProfile } from '../../src/economics/caching.js';
import { decideTiming, parseTiming, timingLabel, TIMING_CHOICES } from '../../src/timing/timing.js';
import { minimalFixture } from '../support/minimal.js';

// Each character counts 20 tokens, so the minimal fixture's context (about 150 characters) is past every minimum prefix.
const view = (opts: { taskBoundary?: boolean; perChar?: number; time?: string } = {}) => {
  const f = minimalFixture();
  Object.assign(f.prunePoints[0]!, {
    taskBoundary: opts.taskBoundary ?? false,
    ...(opts.time ? { time: opts.time } : {}),
  });
  return buildView(Fixture.parse(f), 'pp1', (t) => t.length * (opts.perChar ?? 20));
};
const SAFE = parseTiming('cache-safe');

describe('cache-safe timing', () => {
  it('parses with the default profile or a named one, and refuses a profile the table cannot bill', () => {
    expect(SAFE).toEqual({ kind: 'cache-safe', profile: 'anthropic-5m' });
    expect(timingLabel(SAFE)).toBe('cache-safe');
    expect(parseTiming('cache-safe:anthropic-1h')).toEqual({ kind: 'cache-safe', profile: 'anthropic-1h' });
    expect(timingLabel(parseTiming('cache-safe:anthropic-1h'))).toBe('cache-safe:anthropic-1h');
    for (const bad of ['cache-safe:nope', 'cache-safe:gemini-implicit', 'cache-safe:'])
      expect(() => parseTiming(bad)).toThrow(UsageError);
    expect(TIMING_CHOICES).toContain('cache-safe');
  });

  it('postpones while the previous request is younger than the TTL (the newest model item in view, 60 s before)', () => {
    const v = view();
    expect(v.contextTokens).toBeGreaterThan(cacheProfile('anthropic-5m')!.minPrefixTokens!);
    const verdict = decideTiming(SAFE, v);
    expect(verdict.applyNow).toBe(false);
    expect(verdict.reason).toMatch(/60 s since the previous request, within the anthropic-5m cache's 300 s/);
  });

  it('applies once the prefix has expired: the runtime last sent more than the TTL ago', () => {
    const verdict = decideTiming(SAFE, view(), { previousRequestTime: '2026-03-04T09:57:59Z' });
    expect(verdict.applyNow).toBe(true);
    expect(verdict.reason).toMatch(/301 s since the previous request, past the anthropic-5m cache's 300 s/);
    // Exactly the TTL is not past it.
    expect(decideTiming(SAFE, view(), { previousRequestTime: '2026-03-04T09:58:00Z' }).applyNow).toBe(false);
  });

  it("uses the named profile's TTL: 13 minutes idle has expired a 5-minute cache but not a 1-hour one", () => {
    const later = view({ time: '2026-03-04T10:15:02Z' });
    expect(decideTiming(SAFE, later).applyNow).toBe(true);
    expect(decideTiming(parseTiming('cache-safe:anthropic-1h'), later).applyNow).toBe(false);
  });

  it('applies when no request has been sent yet: nothing is cached', () => {
    expect(decideTiming(SAFE, view(), { previousRequestTime: null })).toEqual({
      applyNow: true,
      reason: 'no request has been sent yet: nothing is cached',
    });
  });

  it('applies at a task boundary even while the cache is warm', () => {
    expect(decideTiming(SAFE, view({ taskBoundary: true }))).toEqual({
      applyNow: true,
      reason: 'prune point is a task boundary',
    });
  });

  it('applies when the context is below the minimum prefix: nothing was cached', () => {
    const small = view({ perChar: 1 });
    const verdict = decideTiming(SAFE, small);
    expect(verdict.applyNow).toBe(true);
    expect(verdict.reason).toMatch(/below anthropic-5m's 1024-token minimum prefix/);
    // The same context is cached under a profile with a smaller minimum only if it reaches it: 4096 is larger still.
    expect(decideTiming(parseTiming('cache-safe:anthropic-5m-4096'), view({ perChar: 10 })).applyNow).toBe(true);
  });
});
