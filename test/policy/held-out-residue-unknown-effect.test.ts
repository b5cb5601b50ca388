// Held-out review F: in a ladder, the residue rule's abstention on a failed call whose effect on a source has no
// recorded outcome bound nothing, so checked supersession (the failed run reporting coverage keys a newer run covers),
// rung 3 (the call and run in a closed unit's trace) and ladder-0-4's predictor removed whole the bulk that, had the
// effect been recorded as succeeded, the residue rule's KEEP would have bound every later step to keep: less evidence
// removed more. The rule: an abstention whose check asked whether the item must stay, a question no later rule asks,
// binds every later step as a KEEP does (a finding's `binds`): the item leaves the candidates and stays ABSTAIN with
// that rule's reason. The residue rule's unknown-effect abstention is such a one; any other abstention binds nothing.
import { describe, expect, it } from 'vitest';
import type { PolicyView } from '../../src/fixture/view.js';
import { erroredInputResidue } from '../../src/policy/mechanisms/errored-input-residue.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, closedUnit, condition, decideById, makeView, note } from './build-view.js';

const V = (name: string, view: PolicyView, id: string) => at(decideById(condition(name), view), id);

const ws = 'workspace:pool';
const failed = { state: 'error', errorType: 'TestFailure', message: '1 failed', fields: { failed: '1' } };
const run = (
  base: string,
  turn: number,
  content: string,
  result: Record<string, unknown> = {},
  call = {},
): ItemSpec[] =>
  callAndResult(
    base,
    turn,
    'run_tests',
    { target: 'pool', updateSnapshots: true },
    {
      content,
      covers: ['test_pool_size', 'test_pool_retry'],
      source: { identity: ws, version: 'UNKNOWN', mutable: true },
      ...result,
    },
    call,
  );

const EFFECTS: Record<string, unknown[]> = {
  'recorded as unknown': [{ source: 'workspace:snapshots', outcome: 'unknown' }],
  'two bare strings': ['workspace:snapshots', 'workspace:coverage'],
};

/**
 * r0 an older passing run; r1 a failed run whose call c1 wrote snapshots with `effects`; an edit c2 recorded as
 * succeeded on the workspace; a newer passing run r3 covering r1's keys; c1 and r1 are closed unit wu1's trace.
 */
function view(effects: unknown[] | undefined): PolicyView {
  return makeView({
    items: [
      ...run('0', 1, 'test_pool_size ok; test_pool_retry ok (before)'),
      ...run(
        '1',
        2,
        'test_pool_retry FAILED: timeout; wrote 3 snapshots: s1 s2 s3',
        { status: failed },
        effects ? { effects } : {},
      ),
      ...callAndResult('2', 3, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
      ...run('3', 4, 'test_pool_size ok; test_pool_retry ok'),
      note('n9', 5, 'wu1 done: pool retry fixed'),
    ],
    subgoal: 'write the release notes',
    visible: { workUnits: [closedUnit('wu1', ['c1', 'r1'], 'n9', ['pool retry fixed'])] },
  });
}

const LADDERS = ['ladder-0-2', 'ladder-0-3', 'ladder-0-4'];

describe("a ladder step's abstention binds the later steps where its check asked whether the item must stay", () => {
  for (const [how, effects] of Object.entries(EFFECTS)) {
    it(`the residue rule abstains on c1 and r1 (effect ${how}) and says its abstention binds`, () => {
      const findings = erroredInputResidue().assess(view(effects), ['c1', 'r1']);
      for (const id of ['c1', 'r1'])
        expect(findings.find((f) => f.itemId === id)).toMatchObject({ outcome: 'abstain', binds: true });
    });
    for (const name of LADDERS)
      it(`${name}: no later step removes c1 or r1 whole when c1's effect is ${how}`, () => {
        for (const id of ['c1', 'r1'])
          expect(V(name, view(effects), id), id).toMatchObject({
            verdict: 'abstain',
            rule: 'errored-input-residue',
            step: 3,
          });
      });
  }

  it('ladder-0-4: the predictor is bound too, on a failed run no other rule touches', () => {
    const v = makeView({
      items: run(
        '1',
        1,
        'test_pool_retry FAILED: timeout',
        { status: failed },
        { effects: EFFECTS['recorded as unknown'] },
      ),
      subgoal: 'write the release notes',
    });
    for (const name of ['ladder-0-3', 'ladder-0-4'])
      expect(V(name, v, 'r1'), name).toMatchObject({ verdict: 'abstain', rule: 'errored-input-residue' });
  });
});

describe('what the binding abstention still lets go', () => {
  it('alone, rung 2 and rung 3 still remove the run: the mechanisms are not changed, the ladder is', () => {
    const v = view(EFFECTS['recorded as unknown']);
    expect(V('errored-input-residue', v, 'r1')).toMatchObject({ verdict: 'abstain' });
    expect(V('checked-supersession', v, 'r1')).toMatchObject({ verdict: 'eligible' });
    expect(V('verified-completion', v, 'c1')).toMatchObject({ verdict: 'eligible' });
  });

  for (const name of LADDERS) {
    it(`${name}: with the effect recorded as failed, the run is failed work and goes to its residue`, () => {
      const v = view([{ source: 'workspace:snapshots', outcome: 'failed' }]);
      for (const id of ['c1', 'r1'])
        expect(V(name, v, id), id).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue' });
    });
    it(`${name}: with no effect recorded, likewise; and beside a bound r1, r0 is still superseded by r3`, () => {
      expect(V(name, view(undefined), 'r1')).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue' });
      expect(V(name, view(EFFECTS['recorded as unknown']), 'r0')).toMatchObject({
        verdict: 'eligible',
        rule: 'checked-supersession',
      });
    });
  }
});
