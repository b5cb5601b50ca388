// The bench's synthetic long trace must be a valid fixture of the length asked for, exercising the per-source
// histories that grow with the trace, or the linearity figure in the README measures nothing.
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { runStudy } from '../../src/engine/run.js';
import { allConditions } from '../../src/policy/registry.js';
import { longTrace } from '../../scripts/long-trace.js';

describe('the synthetic long trace (npm run bench)', () => {
  it('has at least the items asked for, unique ids, and an oracle naming only items in context at each point', () => {
    for (const n of [50, 300]) {
      const { fixture, oracle } = longTrace(n);
      expect(fixture.items.length).toBeGreaterThanOrEqual(n);
      expect(fixture.items.length).toBeLessThan(n + 40);
      expect(new Set(fixture.items.map((i) => i.id)).size).toBe(fixture.items.length);
      for (const point of oracle!.points) {
        const turn = fixture.prunePoints.find((p) => p.id === point.prunePoint)!.turn;
        for (const id of point.removable)
          expect(fixture.items.find((i) => i.id === id)!.turn).toBeLessThanOrEqual(turn);
      }
    }
  });

  it('gives every rung something to remove and something to refuse', () => {
    const loaded = longTrace(300);
    const runs = runStudy({
      conditions: allConditions().filter((c) => ['ladder-0-3', 'regenerability-guard'].includes(c.name)),
      fixtures: [loaded],
      timing: { kind: 'immediate' },
      placeholders: 'marker',
      tokens: tokenCounter(),
    });
    const ladder = runs.find((r) => r.info.name === 'ladder-0-3')!;
    const pruned = new Set(ladder.records.filter((r) => r.decision === 'PRUNE').map((r) => r.rule));
    expect([...pruned].sort()).toEqual([
      'checked-supersession',
      'errored-input-residue',
      'exact-redundancy',
      'source-identity',
      'verified-completion',
    ]);
    expect(ladder.records.some((r) => r.decision === 'ABSTAIN')).toBe(true);
    expect(ladder.records.some((r) => r.decision === 'KEEP' && r.rule === 'protection')).toBe(true);
  });
});
