// The two canonical timing fixtures, billed by the request-sequence model under both timings: one whose cheapest
// timing is to defer (the cache expires before the next point), one whose cheapest is to prune now (many later
// requests carry the saving). cache-safe must DEFER in both at p1, and be right in the first and wrong in the second.
import { beforeAll, describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { runStudy, type ConditionRun } from '../../src/engine/run.js';
import type { LoadedFixture } from '../../src/fixture/load.js';
import { loadFixtures } from '../../src/load/fixtures.js';
import { allConditions } from '../../src/policy/registry.js';
import { parseTiming, type Timing } from '../../src/timing/timing.js';

let fixtures: LoadedFixture[] = [];
beforeAll(() => {
  fixtures = loadFixtures('fixtures/canonical', process.cwd()).filter((f) => f.fixture.id.startsWith('cache-timing-'));
});

const run = (id: string, timing: Timing): ConditionRun => {
  const condition = allConditions().find((c) => c.name === 'exact-redundancy')!;
  return runStudy({
    conditions: [condition],
    fixtures: fixtures.filter((f) => f.fixture.id === id),
    timing,
    placeholders: 'marker',
    tokens: tokenCounter(),
  })[0]!;
};
const net = (r: ConditionRun, profile: string): number => r.summary.economics!.find((e) => e.profile === profile)!.net;
const IMMEDIATE = parseTiming('immediate');
const SAFE = parseTiming('cache-safe');

describe('cheapest timing on the canonical timing fixtures', () => {
  it('cache-timing-defer: deferring to the expired cache is cheaper than pruning into a warm one', () => {
    const now = run('cache-timing-defer', IMMEDIATE);
    const safe = run('cache-timing-defer', SAFE);
    expect(safe.records.find((r) => r.prunePoint === 'p1' && r.itemId === 'r01')!.decision).toBe('DEFER');
    expect(safe.records.find((r) => r.prunePoint === 'p2' && r.itemId === 'r01')!.decision).toBe('PRUNE');
    for (const profile of ['anthropic-5m', 'openai-in-memory'])
      expect(net(safe, profile), profile).toBeGreaterThan(net(now, profile));
    // Pruning at once into the warm cache is a net loss: the outcome "cache effects remove the economic benefit".
    expect(net(now, 'anthropic-5m')).toBeLessThan(0);
    const p1 = now.points.find((p) => p.prunePoint === 'p1')!.economics!;
    expect(p1.reusablePrefixLost).toBeGreaterThan(1000);
    expect(p1.cache.find((c) => c.profile === 'anthropic-5m')!.cacheAlive).toBe(true);
    expect(
      safe.points.find((p) => p.prunePoint === 'p2')!.economics!.cache.find((c) => c.profile === 'anthropic-5m')!
        .cacheAlive,
    ).toBe(false);
  });

  it('cache-timing-prune-now: pruning at once is cheaper under every modelled profile, though the cache is warm', () => {
    const now = run('cache-timing-prune-now', IMMEDIATE);
    const safe = run('cache-timing-prune-now', SAFE);
    expect(safe.records.find((r) => r.prunePoint === 'p1' && r.itemId === 'r01')!.decision).toBe('DEFER');
    for (const e of now.summary.economics!) {
      expect(e.net, e.profile).toBeGreaterThan(net(safe, e.profile));
      expect(e.net, e.profile).toBeGreaterThan(0);
    }
    expect(now.points.find((p) => p.prunePoint === 'p1')!.economics!.followingRequests).toBe(24);
  });
});
