// Held-out review F: scenarios at rungs 2 and 3 and in how ladders compose them that held on the code as it was, kept
// as tests both sides. A unit closed and then reopened (the same id listed again as open, or a new open unit listing
// an old trace item) is open work; a reliance chain across three steps (rung 0's copy, rung 2's newer observation and
// a closed unit's trace, one item) keeps the item every removal rests on; a timing variant decides what its base does.
import { describe, expect, it } from 'vitest';
import type { PolicyView } from '../../src/fixture/view.js';
import { timed } from '../../src/policy/timed.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, closedUnit, condition, decideById, makeView, note, result } from './build-view.js';

const V = (name: string, view: PolicyView, id: string) => at(decideById(condition(name), view), id);

const ws = 'workspace:pool';
const run = (base: string, turn: number, content: string): ItemSpec[] =>
  callAndResult(
    base,
    turn,
    'run_tests',
    { target: 'pool' },
    { content, covers: ['test_pool_size'], source: { identity: ws, version: 'UNKNOWN', mutable: true } },
  );

const RUNG3 = ['verified-completion', 'ladder-0-3', 'ladder-0-4'];

function reopened(units: Record<string, unknown>[]): PolicyView {
  return makeView({
    items: [
      ...callAndResult('2', 2, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
      ...run('3', 3, 'test_pool_size ok'),
      note('n9', 4, 'wu1 done: pool size fixed'),
    ],
    subgoal: 'write the release notes',
    visible: { workUnits: units },
  });
}

describe('rung 3: a unit closed and reopened is open work', () => {
  const closed = closedUnit('wu1', ['c2', 'r2', 'c3', 'r3'], 'n9', ['pool size fixed']);
  for (const name of RUNG3) {
    it(`${name}: the same id listed again as open keeps its trace from rung 3`, () => {
      const v = reopened([closed, { id: 'wu1', description: 'reopened', state: 'open', traceItems: ['c3', 'r3'] }]);
      expect(V(name, v, 'r3').rule).not.toBe('verified-completion');
    });
    it(`${name}: a new open unit listing an old trace item keeps that item, and only that one`, () => {
      const v = reopened([closed, { id: 'wu1-b', description: 'follow-up', state: 'open', traceItems: ['r3'] }]);
      expect(V(name, v, 'r3').rule).not.toBe('verified-completion');
      expect(V(name, v, 'c2')).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
    });
    it(`${name}: the other side: closed alone, its trace goes`, () => {
      expect(V(name, reopened([closed]), 'r3')).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
    });
  }
});

/**
 * x (an older read), an edit recorded as succeeded, then a and b, identical newer reads of the changed file. Rung 0
 * removes a for b, rung 2 supersedes x by b, and b is in closed unit wu1's trace, so rung 3 alone would remove it.
 */
function chain(): PolicyView {
  const source = (hash: string) => ({
    identity: 'repo:app/a.txt',
    version: { kind: 'content-hash', value: hash },
    mutable: true,
  });
  return makeView({
    items: [
      result('x', 1, 'size = 4', { source: source('h1') }),
      ...callAndResult('e', 2, 'edit', { path: 'a.txt' }, { content: 'ok' }, { effects: ['repo:app/a.txt'] }),
      result('a', 3, 'size = 8', { source: source('h2') }),
      result('b', 4, 'size = 8', { source: source('h2') }),
      note('n9', 5, 'wu1 done: size raised to 8'),
    ],
    subgoal: 'write the release notes',
    visible: { workUnits: [closedUnit('wu1', ['ce', 're', 'b'], 'n9', ['size raised to 8'])] },
  });
}

describe('a reliance chain across three steps keeps the item every removal rests on', () => {
  it('alone, rung 3 removes b and rung 2 supersedes x by it', () => {
    expect(V('verified-completion', chain(), 'b')).toMatchObject({ verdict: 'eligible' });
    expect(V('checked-supersession', chain(), 'x')).toMatchObject({ verdict: 'eligible' });
  });
  for (const name of ['ladder-0-3', 'ladder-0-4'])
    it(`${name}: a goes by rung 0 and x by rung 2, both resting on b, which rung 3 does not then remove`, () => {
      const d = decideById(condition(name), chain());
      expect(at(d, 'a')).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
      expect(at(d, 'x')).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
      expect(at(d, 'b')).toMatchObject({ verdict: 'keep' });
      expect(at(d, 'b').reason).toMatch(/kept for an earlier removal: a's, by exact-redundancy at step 1/);
      expect(at(d, 're')).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
    });
});

describe('a timing variant decides exactly what its base decides', () => {
  for (const timing of [
    { kind: 'task-boundary' },
    { kind: 'pressure', threshold: 0.8 },
    { kind: 'cache-safe', profile: 'anthropic-5m' },
  ] as const)
    it(`ladder-0-3~${timing.kind}: the same verdicts, reasons and reliance as ladder-0-3 on the chain`, () => {
      const base = condition('ladder-0-3');
      expect(timed(base, timing).decide(chain())).toEqual(base.decide(chain()));
      expect(condition(timed(base, timing).name).decide(chain())).toEqual(base.decide(chain()));
    });
});
