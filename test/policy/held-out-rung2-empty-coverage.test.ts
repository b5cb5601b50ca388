// Held-out review F: rung 2 read an empty list of coverage keys as keys reported. Every set of keys includes the empty
// one, so a failed run that reported none (it failed to start: a collection error, an import error) was "covered" by
// any newer run of its call and superseded whole, where the rule keeps failed work that reports no coverage for the
// residue rule; and an ok run that reported none was superseded on a scope it never showed. The rule: coverage keys
// demonstrate a scope only where the observation reports at least one; an empty list reports no coverage, as an absent
// one does. Held on both sides, through the mechanism, the gated single and the ladders.
import { describe, expect, it } from 'vitest';
import type { PolicyView } from '../../src/fixture/view.js';
import { checkedSupersession } from '../../src/policy/mechanisms/checked-supersession.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, condition, decideById, makeView } from './build-view.js';

const V = (name: string, view: PolicyView, id: string) => at(decideById(condition(name), view), id);
const mechanism = (view: PolicyView, id: string) =>
  checkedSupersession()
    .assess(view, [id])
    .find((f) => f.itemId === id);

const ws = 'workspace:pool';
const KEYS = ['test_pool_size', 'test_pool_retry'];
const run = (base: string, turn: number, content: string, extra: Record<string, unknown> = {}): ItemSpec[] =>
  callAndResult(
    base,
    turn,
    'run_tests',
    { target: 'pool' },
    { content, covers: KEYS, source: { identity: ws, version: 'UNKNOWN', mutable: true }, ...extra },
  );

/** A run that failed to start: its message synthesized by the importer, so the residue rule has nothing to keep. */
const notStarted = (covers: string[] | undefined, synthesized = true) => ({
  covers,
  status: {
    state: 'error',
    errorType: 'CollectionError',
    message: synthesized ? 'exit code 2' : 'ImportError: cannot import name PoolConfig',
    synthesized,
    fields: {},
  },
});

/** r1 (the subject), an edit c2 recorded as succeeded on the workspace, and a newer run r3 reporting both keys. */
function view(r1: Record<string, unknown>, r1Content = 'ImportError: cannot import name PoolConfig'): PolicyView {
  return makeView({
    items: [
      ...run('1', 1, r1Content, r1),
      ...callAndResult('2', 2, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
      ...run('3', 3, 'test_pool_size ok; test_pool_retry ok'),
    ],
    subgoal: 'write the release notes',
  });
}

const LADDERS = ['ladder-0-2', 'ladder-0-3', 'ladder-0-4'];

describe('rung 2: an empty list of coverage keys reports no coverage', () => {
  it('a failed run reporting no keys is not superseded whole by the mechanism or the gated single', () => {
    const v = view(notStarted([]));
    expect(mechanism(v, 'r1')).toBeUndefined();
    expect(V('checked-supersession', v, 'r1')).toMatchObject({ verdict: 'keep' });
  });

  for (const name of LADDERS)
    it(`${name}: a failed run reporting no keys is not removed whole by rung 2 where the residue rule abstains`, () => {
      const e = V(name, view(notStarted([])), 'r1');
      // ladder-0-4's predictor may still remove it (upper-risk); rungs 0-3 must not.
      expect(e.rule).not.toBe('checked-supersession');
      if (name !== 'ladder-0-4') expect(e).toMatchObject({ verdict: 'abstain', rule: 'errored-input-residue' });
    });

  it('an ok run reporting no keys is not superseded on a scope it never showed: ABSTAIN, coverage unparsed', () => {
    const v = view({ covers: [] }, 'collected 0 items');
    expect(mechanism(v, 'r1')).toMatchObject({ outcome: 'abstain' });
    expect(mechanism(v, 'r1')?.reason).toMatch(/coverage of r1 is unparsed/);
    expect(V('checked-supersession', v, 'r1')).toMatchObject({ verdict: 'abstain', rule: 'checked-supersession' });
    // The ladders record the first abstention (rung 1's: an UNKNOWN version); no rung removes r1.
    for (const name of LADDERS.slice(0, 2)) expect(V(name, v, 'r1'), name).toMatchObject({ verdict: 'abstain' });
    expect(V('ladder-0-4', v, 'r1').rule).not.toBe('checked-supersession');
  });

  it('a newer run reporting no keys covers nothing of an older run that reported some', () => {
    const v = makeView({
      items: [
        ...run('1', 1, 'test_pool_size ok; test_pool_retry ok'),
        ...callAndResult('2', 2, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
        ...run('3', 3, 'collected 0 items', { covers: [] }),
      ],
    });
    expect(mechanism(v, 'r1')?.outcome).not.toBe('eligible');
    for (const name of ['checked-supersession', ...LADDERS.slice(0, 2)])
      expect(V(name, v, 'r1').verdict, name).not.toBe('eligible');
    expect(V('ladder-0-4', v, 'r1').rule).not.toBe('checked-supersession');
  });

  // The other side: what the rule must still remove.
  it('a failed run that reports its keys is still superseded by a newer run covering them', () => {
    const failed = {
      status: { state: 'error', errorType: 'TestFailure', message: '1 failed', fields: { failed: '1' } },
    };
    const v = view(failed, 'test_pool_retry FAILED: timeout');
    expect(mechanism(v, 'r1')).toMatchObject({ outcome: 'eligible', reliesOn: ['r3'] });
    expect(V('checked-supersession', v, 'r1')).toMatchObject({ verdict: 'eligible' });
  });

  it('a failed run reporting no keys with a recorded message still loses its bulk to the residue rule in the ladders', () => {
    const v = view(notStarted([], false));
    for (const name of LADDERS)
      expect(V(name, v, 'r1'), name).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue' });
  });

  it('an ok run that reports its keys is still superseded after a succeeded edit, alone and in the ladders', () => {
    const v = view({}, 'test_pool_size ok; test_pool_retry FAILED');
    expect(mechanism(v, 'r1')).toMatchObject({ outcome: 'eligible', reliesOn: ['r3'] });
    for (const name of ['checked-supersession', ...LADDERS])
      expect(V(name, v, 'r1'), name).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
  });

  it('a failed run with no keys recorded at all is left to the residue rule, as before', () => {
    const v = view(notStarted(undefined));
    expect(mechanism(v, 'r1')).toBeUndefined();
  });
});
