// Held-out review E's fourth defect, fixed: in a ladder, the residue rule's KEEP of a failed run's bulk did not bind
// the later steps, so checked supersession (a failed run reporting coverage keys a newer run covers), rung 3 (the run
// in a closed unit's trace) or the predictor could still remove the run whole. The rule: a step's KEEP with a stated
// reason (its check ran and refused removal, a finding with outcome `keep`) binds every later step of the ladder: the
// item leaves the candidates and is KEEP with that rule's reason. An abstention binds nothing, and what an earlier
// step removed stands. Held on both sides, through the mechanisms, the gated singles and the ladders, and a property.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView, type PolicyView } from '../../src/fixture/view.js';
import { conservativeRules } from '../../src/policy/conservative.js';
import type { ConfiguredMechanism } from '../../src/policy/eligibility.js';
import { ladder } from '../../src/policy/ladder.js';
import { predictiveSemantic } from '../../src/policy/mechanisms/predictive-semantic.js';
import { protectionOf } from '../../src/policy/protection.js';
import type { Finding } from '../../src/policy/types.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, condition, decideById, makeView, note, obligation } from './build-view.js';

const V = (name: string, view: PolicyView, id: string) => at(decideById(condition(name), view), id);

const LADDERS = ['ladder-0-2', 'ladder-0-3', 'ladder-0-4'];
const ws = 'workspace:pool';
const failed = { state: 'error', errorType: 'TestFailure', message: '1 failed', fields: { failed: '1' } };
const run = (base: string, turn: number, content: string, extra: Record<string, unknown> = {}, call = {}): ItemSpec[] =>
  callAndResult(
    base,
    turn,
    'run_tests',
    { target: 'pool' },
    {
      content,
      covers: ['test_pool_size', 'test_pool_retry'],
      source: { identity: ws, version: 'UNKNOWN', mutable: true },
      ...extra,
    },
    call,
  );

/**
 * A passing run r0, a failed run r1 (its bulk the subject), an edit c2 on the workspace, and a newer passing run r3
 * covering r1's keys: rung 2 supersedes r0 and, unless bound, r1. `visible` and `call` vary what keeps r1's bulk.
 */
function view(
  options: {
    visible?: Record<string, unknown>;
    call?: Record<string, unknown>;
    r1?: Record<string, unknown>;
    lead?: ItemSpec[];
  } = {},
) {
  return makeView({
    items: [
      note('rel-8f2c', 0, 'release rel-8f2c holds the pool config'),
      ...(options.lead ?? []),
      ...run('0', 1, 'test_pool_size ok; test_pool_retry ok (before the change)'),
      ...run(
        '1',
        2,
        'test_pool_retry FAILED: timeout after 3 retries, blocked by rel-8f2c',
        { status: failed, ...options.r1 },
        options.call ?? {},
      ),
      ...callAndResult('2', 3, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
      ...run('3', 4, 'test_pool_size ok; test_pool_retry ok'),
    ],
    subgoal: 'write the release notes',
    visible: options.visible ?? {},
  });
}

const step = (references: string[]) => ({
  pendingSteps: [{ id: 'ps1', description: 'retry the failed run', references }],
});

// Each way the residue rule keeps r1's bulk: a pending step naming its call, the call id, or an id its bulk names; a
// visible obligation naming its call; its call's effect recorded as succeeded.
const KEPT: Record<string, Parameters<typeof view>[0]> = {
  'a pending step references its call': { visible: step(['c1']) },
  'a pending step references its call id': { visible: step(['call-1']) },
  'its bulk names an id a pending step references': { visible: step(['rel-8f2c']) },
  'a visible obligation names its call': {
    visible: { obligations: [obligation('o1', { itemIds: ['c1'] })] },
  },
  "its call's effect is recorded as succeeded": {
    call: { effects: [{ source: 'workspace:snapshots', outcome: 'succeeded' }] },
  },
};

describe("a ladder step's KEEP binds every later step", () => {
  for (const [why, options] of Object.entries(KEPT)) {
    it(`the residue rule keeps r1 (${why}), and it says so in the single`, () => {
      expect(V('errored-input-residue', view(options), 'r1')).toMatchObject({
        verdict: 'keep',
        rule: 'errored-input-residue',
        rung: 2,
      });
    });
    for (const name of LADDERS)
      it(`${name}: a later step does not remove r1 whole when ${why}`, () => {
        // Alone, rung 2 supersedes it: the mechanism is not changed, the ladder is. A pending step naming its call or
        // call id reaches r1 in the gate too since preregistration version 18's fix (held-out-call-reach.test.ts).
        const alone = V('checked-supersession', view(options), 'r1');
        if (why.includes('references its call')) expect(alone.verdict).not.toBe('eligible');
        else expect(alone).toMatchObject({ verdict: 'eligible' });
        expect(V(name, view(options), 'r1')).toMatchObject({
          verdict: 'keep',
          rule: 'errored-input-residue',
          step: 3,
        });
      });
  }

  it('rung 3 is bound too: a failed run in a closed unit trace is not removed once the residue rule kept it', () => {
    const unit = {
      id: 'wu1',
      description: 'fix the pool retry',
      state: 'closed',
      traceItems: ['c1', 'r1'],
      consequence: { itemId: 'n9', strings: ['pool retry fixed'] },
    };
    const v = makeView({
      items: [
        note('rel-8f2c', 0, 'release rel-8f2c holds the pool config'),
        ...run('1', 2, 'test_pool_retry FAILED: blocked by rel-8f2c', { status: failed }),
        note('n9', 3, 'wu1 done: pool retry fixed'),
      ],
      visible: { ...step(['rel-8f2c']), workUnits: [unit] },
    });
    expect(V('verified-completion', v, 'r1')).toMatchObject({ verdict: 'eligible' });
    for (const name of ['ladder-0-3', 'ladder-0-4'])
      expect(V(name, v, 'r1'), name).toMatchObject({ verdict: 'keep', rule: 'errored-input-residue' });
  });

  it('the predictor is bound too: ladder-0-4 does not remove a kept run no other rule touches, nor ladder-0-3 abstain on it', () => {
    const v = makeView({
      items: [
        note('rel-8f2c', 0, 'release rel-8f2c holds the pool config'),
        ...run('1', 2, 'test_pool_retry FAILED: blocked by rel-8f2c', { status: failed }),
      ],
      subgoal: 'write the release notes',
      visible: step(['rel-8f2c']),
    });
    for (const name of ['ladder-0-3', 'ladder-0-4'])
      expect(V(name, v, 'r1'), name).toMatchObject({ verdict: 'keep', rule: 'errored-input-residue' });
  });
});

describe('what the binding KEEP still lets go', () => {
  for (const name of LADDERS) {
    it(`${name}: r1 goes to its residue where nothing needs its bulk, and r0 is superseded beside a kept r1`, () => {
      expect(V(name, view(), 'r1')).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue' });
      expect(V(name, view(), 'r1').residue).toBeDefined();
      expect(V(name, view(KEPT['a pending step references its call']), 'r0')).toMatchObject({
        verdict: 'eligible',
        rule: 'checked-supersession',
      });
    });
    it(`${name}: an abstention binds nothing: a failed run the residue rule abstains on is still superseded`, () => {
      // A synthesized message with no structured field: no recorded residue would stay, so the rule abstains.
      const synthesized = {
        state: 'error',
        errorType: 'NonZeroExit',
        message: 'exit code 1',
        fields: {},
        synthesized: true,
      };
      const v = view({ r1: { status: synthesized } });
      expect(V('errored-input-residue', v, 'r1').verdict).toBe('abstain');
      expect(V(name, v, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
    });
  }
  it("an earlier step's removal stands: a copy rung 0 removed is not brought back by a later KEEP", () => {
    // r1's identical earlier failure rA goes at rung 0 leaning on r1; the residue rule then keeps r1.
    const lead = run('A', 1, 'test_pool_retry FAILED: timeout after 3 retries, blocked by rel-8f2c', {
      status: failed,
    });
    const v = view({ ...KEPT['its bulk names an id a pending step references'], lead });
    for (const name of LADDERS) {
      const d = decideById(condition(name), v);
      expect(at(d, 'rA'), name).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
      expect(at(d, 'r1'), name).toMatchObject({ verdict: 'keep' });
    }
  });
});

/** A rule that keeps the items it is given and finds nothing else: a first step whose KEEPs must bind the rest. */
function keeping(ids: ReadonlySet<string>, outcome: 'keep' | 'abstain' = 'keep'): ConfiguredMechanism {
  return {
    rule: 'keeps',
    rung: 0,
    version: '1.0.0',
    parameters: {},
    assess: (_view, candidates) =>
      candidates
        .filter((id) => ids.has(id))
        .map((id): Finding => ({ itemId: id, outcome, reason: `checked ${id} and it must stay` })),
  };
}

describe('the rule, in the ladder composition', () => {
  const removing: ConfiguredMechanism = {
    rule: 'removes',
    rung: 0,
    version: '1.0.0',
    parameters: {},
    assess: (_view, candidates) => candidates.map((id): Finding => ({ itemId: id, outcome: 'eligible', reason: 'go' })),
  };
  const v = makeView({ items: [note('a', 0, 'one'), note('b', 1, 'two')] });
  it('a KEEP binds a later rule; an abstention does not; a later KEEP does not undo an earlier removal', () => {
    const keep = ladder({ name: 'l', description: 'd', rules: [keeping(new Set(['a'])), removing] }).decide(v);
    expect(keep.find((e) => e.itemId === 'a')).toMatchObject({
      verdict: 'keep',
      rule: 'keeps',
      reason: 'checked a and it must stay',
      step: 1,
    });
    expect(keep.find((e) => e.itemId === 'b')).toMatchObject({ verdict: 'eligible', rule: 'removes' });
    const abstain = ladder({
      name: 'l',
      description: 'd',
      rules: [keeping(new Set(['a']), 'abstain'), removing],
    }).decide(v);
    expect(abstain.find((e) => e.itemId === 'a')).toMatchObject({ verdict: 'eligible', rule: 'removes' });
    const late = ladder({ name: 'l', description: 'd', rules: [removing, keeping(new Set(['a']))] }).decide(v);
    expect(late.find((e) => e.itemId === 'a')).toMatchObject({ verdict: 'eligible', rule: 'removes' });
  });

  it('property: whatever the later rules (rungs 0 to 3, then the predictor), an item a first step keeps is KEEP by it', () => {
    const plan = fc.record({
      plan: fixtureArb,
      keep: fc.array(fc.nat(40), { maxLength: 6 }),
    });
    fc.assert(
      fc.property(plan, ({ plan: p, keep }) => {
        const v = buildView(Fixture.parse(toFixture(p)), 'pp', (t) => t.length);
        const ids = new Set(keep.map((i) => v.items[i % v.items.length]?.id ?? ''));
        const l = ladder({
          name: 'l',
          description: 'd',
          rules: [keeping(ids), ...conservativeRules()],
          predictor: { mode: 'apply', mechanism: predictiveSemantic({ scope: 'ladder' }) },
        });
        for (const e of l.decide(v)) {
          if (!ids.has(e.itemId) || protectionOf(v, v.items.find((i) => i.id === e.itemId)!)) continue;
          expect(e, e.itemId).toMatchObject({ verdict: 'keep', rule: 'keeps', step: 1 });
        }
      }),
      { numRuns: 200 },
    );
  });
});
