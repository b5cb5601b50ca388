// Held-out review F's open judgements: each an expected-fail repro (`it.fails`) of what a stricter rule would refuse,
// beside what the rule must still allow. F2 is not fixed, because the ground truth does not clearly support
// one rule (docs/choices.md, "Known open defects"): the runtime's record does not say whether a parallel batch ran in
// order, and closure is the runtime's declaration.
// Judgement F1 (a pending step referencing a unit by its id, or a trace item by its call id) is fixed:
// test/policy/held-out-call-reach.test.ts; judgement F3 too: test/policy/held-out-F2-F3.test.ts.
import { describe, expect, it } from 'vitest';
import type { PolicyView } from '../../src/fixture/view.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, closedUnit, condition, decideById, makeView, note } from './build-view.js';

const V = (name: string, view: PolicyView, id: string) => at(decideById(condition(name), view), id);

const ws = 'workspace:pool';
const KEYS = ['test_pool_size', 'test_pool_retry'];
const failed = { state: 'error', errorType: 'TestFailure', message: '1 failed', fields: { failed: '1' } };
const source = { identity: ws, version: 'UNKNOWN', mutable: true };
const run = (base: string, turn: number, content: string, extra: Record<string, unknown> = {}): ItemSpec[] =>
  callAndResult(base, turn, 'run_tests', { target: 'pool' }, { content, covers: KEYS, source, ...extra });

/**
 * wu1's trace: an edit c2 (recorded as succeeded) and a passing run r3; its record n9 holds "pool retry fixed". After
 * it, `later` (a run of the same call and keys, or nothing) and the pending steps in `pending`.
 */
function closedThen(later: ItemSpec[], pending: { id: string; description: string; references: string[] }[] = []) {
  return makeView({
    items: [
      ...callAndResult('2', 2, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
      ...run('3', 3, 'test_pool_size ok; test_pool_retry ok'),
      note('n9', 4, 'wu1 done: pool retry fixed'),
      ...later,
    ],
    subgoal: 'write the release notes',
    visible: {
      workUnits: [closedUnit('wu1', ['c2', 'r2', 'c3', 'r3'], 'n9', ['pool retry fixed'])],
      pendingSteps: pending,
    },
  });
}

const RUNG3 = ['verified-completion', 'ladder-0-3', 'ladder-0-4'];

describe('judgement F2: a closure a later failure of the same call and keys contradicts', () => {
  const laterFailure = run('5', 5, 'test_pool_retry FAILED: timeout after 3 retries', { status: failed });
  for (const name of RUNG3)
    it.fails(`${name}: rung 3 does not remove the unit's passing run r3 once a later run of its keys failed`, () => {
      expect(V(name, closedThen(laterFailure), 'r3').verdict).not.toBe('eligible');
    });
  for (const name of RUNG3)
    it(`${name}: the allowed side: with the later run passing, or none, the trace goes`, () => {
      const passing = run('5', 5, 'test_pool_size ok; test_pool_retry ok');
      for (const later of [[], passing])
        expect(V(name, closedThen(later), 'c2')).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
    });
});
