// What the runtime records on a tool call reaches its result, and a pending step's reference reaches what it names
// (held-out reviews F, judgement 1, and G, judgement 4; docs/choices.md, "Fixed in the code after preregistration
// version 18"). The rule, in the regenerability gate every gated condition reads (`reachedIn`,
// src/policy/regenerability.ts): a refusal flag, a pending-plan flag or a pin recorded on a call keeps its result; a
// pending step's reference keeps each item it names (an item by its id, a call's two halves by its call id, a work
// unit's trace by the unit's id) and the result of each call among them. Both sides: what the rule refuses, through a
// gated single, the ladders, the gated predictor's withholding and the guard; and what still goes.
import { describe, expect, it } from 'vitest';
import type { PolicyView } from '../../src/fixture/view.js';
import type { Eligibility } from '../../src/policy/types.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, closedUnit, condition, decideById, makeView, note } from './build-view.js';

const V = (name: string, view: PolicyView, id: string): Eligibility => at(decideById(condition(name), view), id);

type Step = { id: string; description: string; references: string[] };

describe('G4: what the runtime recorded on a call reaches its result (the gated predictor and the guard)', () => {
  /** A ps call c1 and its result r1, an unrelated pair c9/r9, and a note; the predictor would let r1 go. */
  const ps = (callExtra: Record<string, unknown> = {}, visible: Record<string, unknown> = {}) =>
    makeView({
      items: [
        ...callAndResult('1', 1, 'ps', {}, { content: 'pid 42 running' }, callExtra),
        ...callAndResult('9', 2, 'ls', {}, { content: 'zzz listing' }),
        note('n2', 3, 'deploy server now'),
      ],
      subgoal: 'deploy the server',
      visible,
    });
  const refusedOnCall: [string, PolicyView][] = [
    ['a transient-state flag on the call', ps({ flags: { transientState: true } })],
    ['a negative-result flag on the call', ps({ flags: { negativeResult: true } })],
    ['a pending-plan flag on the call', ps({ flags: { pendingPlanReference: true } })],
    ['a pin on the call', ps({}, { pinned: ['c1'] })],
    [
      'a pending step referencing the call by its item id',
      ps({}, { pendingSteps: [{ id: 's1', description: 'compare with c1', references: ['c1'] }] }),
    ],
    [
      'a pending step referencing the call by its call id',
      ps({}, { pendingSteps: [{ id: 's1', description: 'compare with call-1', references: ['call-1'] }] }),
    ],
  ];
  for (const name of ['ladder-0-4', 'regenerability-guard'])
    for (const [what, view] of refusedOnCall)
      it(`${name}: ${what} keeps its result r1 from the predictor`, () => {
        const r1 = V(name, view, 'r1');
        expect(r1.verdict).not.toBe('eligible');
        // The guard names why r1 was never shown; a ladder records an item never shown as kept by no rule.
        if (name === 'regenerability-guard') expect(r1.reason).toMatch(/never shown to the predictor: .*(c1|call-1)/);
      });
  for (const name of ['ladder-0-4', 'regenerability-guard'])
    it(`${name}: still removed: an unflagged, unpinned, unreferenced pair, and one whose step references another call`, () => {
      expect(V(name, ps(), 'r1').verdict).toBe('eligible');
      const other = ps({}, { pendingSteps: [{ id: 's1', description: 'compare', references: ['c9'] }] });
      expect(V(name, other, 'r1').verdict).toBe('eligible');
      const otherId = ps({}, { pendingSteps: [{ id: 's1', description: 'compare', references: ['call-9'] }] });
      expect(V(name, otherId, 'r1').verdict).toBe('eligible');
      const pinOther = ps({}, { pinned: ['c9'] });
      expect(V(name, pinOther, 'r1').verdict).toBe('eligible');
    });
  it('ladder-0-4: a flag on the result alone still refuses it, as before', () => {
    const view = makeView({
      items: [
        ...callAndResult('1', 1, 'ps', {}, { content: 'pid 42 running', flags: { transientState: true } }),
        note('n2', 2, 'deploy server now'),
      ],
      subgoal: 'deploy the server',
    });
    expect(V('ladder-0-4', view, 'r1').verdict).not.toBe('eligible');
  });
});

describe('F1: a pending step referencing a closed unit by its id, or a trace item by its call id (rung 3)', () => {
  const ws = 'workspace:pool';
  const KEYS = ['test_pool_size', 'test_pool_retry'];
  const source = { identity: ws, version: 'UNKNOWN', mutable: true };
  /** wu1's trace: an edit c2/r2 and a passing run c3/r3; its record n9; wu2 a second closed unit (c4/r4). */
  function closed(pending: Step[], call3: Record<string, unknown> = {}, pinned: string[] = []): PolicyView {
    const run3: ItemSpec[] = callAndResult(
      '3',
      3,
      'run_tests',
      { target: 'pool' },
      { content: 'test_pool_size ok; test_pool_retry ok', covers: KEYS, source },
      call3,
    );
    return makeView({
      items: [
        ...callAndResult('2', 2, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
        ...run3,
        ...callAndResult('4', 4, 'read_file', { path: 'README.md' }, { content: 'zzz readme' }),
        note('n9', 5, 'wu1 done: pool retry fixed; wu2 done: readme read'),
      ],
      subgoal: 'write the release notes',
      visible: {
        workUnits: [
          closedUnit('wu1', ['c2', 'r2', 'c3', 'r3'], 'n9', ['pool retry fixed']),
          closedUnit('wu2', ['c4', 'r4'], 'n9', ['readme read']),
        ],
        pendingSteps: pending,
        pinned,
      },
    });
  }
  const RUNG3 = ['verified-completion', 'ladder-0-3', 'ladder-0-4'];
  const step = (ref: string): Step[] => [{ id: 'ps', description: 'revisit the pool retry fix', references: [ref] }];
  for (const name of RUNG3) {
    it(`${name}: a reference to the unit wu1 keeps its whole trace`, () => {
      const view = closed(step('wu1'));
      for (const id of ['c2', 'r2', 'c3', 'r3']) {
        const v = V(name, view, id);
        expect(v.verdict).not.toBe('eligible');
        expect(v.reason).toContain('wu1');
      }
    });
    it(`${name}: a reference to the unit wu2 keeps wu2's trace (and not wu1's, below)`, () => {
      for (const id of ['c4', 'r4']) expect(V(name, closed(step('wu2')), id).verdict).not.toBe('eligible');
    });
    it(`${name}: a reference to call id call-3, or to the call c3, keeps r3`, () => {
      for (const ref of ['call-3', 'c3']) {
        const v = closed(step(ref));
        expect(V(name, v, 'r3').verdict).not.toBe('eligible');
        expect(V(name, v, 'c3').verdict).not.toBe('eligible');
      }
      expect(V(name, closed(step('call-3')), 'r3').reason).toContain('call-3');
    });
    it(`${name}: a pin or a transient-state flag on c3 keeps r3 from rung 3`, () => {
      expect(V(name, closed([], {}, ['c3']), 'r3').verdict).not.toBe('eligible');
      expect(V(name, closed([], { flags: { transientState: true } }), 'r3').verdict).not.toBe('eligible');
    });
    it(`${name}: still removed: the trace of a unit that is not referenced, and items a step's other call does not reach`, () => {
      const view = closed(step('wu2'));
      for (const id of ['c2', 'r2', 'c3', 'r3'])
        expect(V(name, view, id)).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
      const byCall = closed(step('call-3'));
      for (const id of ['c2', 'r2'])
        expect(V(name, byCall, id)).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
      const none = closed([]);
      for (const id of ['c2', 'r2', 'c3', 'r3', 'c4', 'r4'])
        expect(V(name, none, id)).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
    });
    it(`${name}: a reference to a result does not reach its call (the reach runs from a call to its result)`, () => {
      const view = closed(step('r3'));
      expect(V(name, view, 'r3').verdict).not.toBe('eligible');
      expect(V(name, view, 'c3')).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
    });
  }
});
