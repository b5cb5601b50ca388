// Properties every condition must hold on any small fixture, not just the hand-built ones: the control removes
// nothing, the consulting conditions never make a protected item eligible, and every condition answers exactly once
// per item in the view's order (deterministically, with residue and replacement only on eligible verdicts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fixture } from '../../src/fixture/schema.js';
import type { PolicyView } from '../../src/fixture/view.js';
import { buildView } from '../../src/fixture/view.js';
import { protectionOf } from '../../src/policy/protection.js';
import { allConditions } from '../../src/policy/registry.js';
import { timeOf } from './build-view.js';

const CONSULTING = [
  'exact-redundancy', 'source-identity', 'errored-input-residue', 'checked-supersession', 'verified-completion',
  'ladder-0', 'ladder-0-1', 'ladder-0-2', 'ladder-0-3', 'regenerability-guard',
];

const TOOLS = [
  { name: 'read_file', sideEffect: 'read-mutable' },
  { name: 'read_file_too', sideEffect: 'read-mutable' },
  { name: 'ls', sideEffect: 'pure' },
  { name: 'post_api', sideEffect: 'non-idempotent' },
  { name: 'edit', sideEffect: 'destructive' },
];
// Biased towards one read tool so same-call observations (supersession, dedup) occur often.
const TOOL_PICK = fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.nat(TOOLS.length - 1), weight: 2 });
const WORDS = ['alpha', 'beta', 'pool', 'timeout', 'fix', 'exit', 'code', '137', 'nonce'];
const CONTENTS = ['alpha beta', 'pool timeout fix', '', 'exit code 137', 'alpha beta', 'nonce=8f3a\nline two', 'gamma', 'delta\nepsilon', 'zeta'];
const IDENTITIES = ['repo:a', 'repo:b', 'UNKNOWN'];

const pick = <T,>(list: readonly T[]) => fc.constantFrom(...list);

const source = fc.record({
  identity: pick(IDENTITIES),
  version: fc.oneof(fc.constant('UNKNOWN' as const), fc.record({ kind: pick(['git-sha', 'content-hash', 'etag'] as const), value: pick(['v1', 'v2']) })),
  mutable: fc.oneof(fc.boolean(), fc.constant('UNKNOWN' as const)),
  selector: fc.option(pick(['1-10', '11-20']), { nil: undefined }),
});

const status = fc.oneof(
  fc.constant({ state: 'ok' as const }),
  fc.record({
    state: fc.constant('error' as const),
    errorType: pick(['SyntaxError', 'Timeout']),
    message: pick(['boom', 'timed out']),
    fields: fc.dictionary(pick(['line', 'exitCode']), pick(['1', '137'])),
  }),
);

const flags = fc.record({
  negativeResult: fc.boolean(),
  transientState: fc.boolean(),
  oneTimeSecret: fc.boolean(),
  soleConstraintRecord: fc.boolean(),
});

const entry = fc.record({
  shape: pick(['note', 'pair', 'result'] as const),
  step: fc.nat(2),
  kind: pick(['constraint', 'reasoning', 'plan', 'hypothesis'] as const),
  origin: pick(['user', 'model', 'system'] as const),
  content: pick(CONTENTS),
  callContent: pick(CONTENTS),
  tool: TOOL_PICK,
  args: pick([{ path: 'a' }, { path: 'a', opt: null }, { opt: { z: 1, y: [2] } }]),
  status,
  source: fc.option(source, { nil: undefined }),
  covers: fc.option(fc.subarray(['t1', 't2', 't3']), { nil: undefined }),
  effects: fc.option(fc.subarray(['repo:a', 'repo:b']), { nil: undefined }),
  flags,
});

const indexes = fc.array(fc.nat(40), { maxLength: 3 });
const obligationArb = fc.record({ items: fc.array(fc.nat(40), { maxLength: 2 }), strings: fc.subarray(['alpha', 'pool', '137', 'nonce=8f3a'], { maxLength: 1 }) });
const stepArb = fc.record({ items: fc.array(fc.nat(40), { minLength: 1, maxLength: 2 }) });
const unitArb = fc.record({
  state: pick(['open', 'closed'] as const),
  items: indexes,
  consequence: fc.option(fc.record({ item: fc.nat(40), strings: fc.subarray(WORDS, { minLength: 1 }) }), { nil: undefined }),
});

const fixtureArb = fc.record({
  // size 'max' spreads lengths over the whole range, so masking's first/last-M split and the ladders get real work.
  entries: fc.array(entry, { minLength: 1, maxLength: 16, size: 'max' }),
  turnShare: fc.double({ min: 0.3, max: 1, noNaN: true }),
  subgoal: pick(['fix the pool timeout', 'alpha beta gamma', 'investigate exit code 137', 'do it now']),
  budget: fc.integer({ min: 1, max: 120 }),
  pinned: fc.array(fc.nat(40), { maxLength: 2 }),
  protectedTools: fc.subarray(TOOLS.map((t) => t.name)),
  obligations: fc.array(obligationArb, { maxLength: 2 }),
  pendingSteps: fc.array(stepArb, { maxLength: 1 }),
  workUnits: fc.array(unitArb, { maxLength: 2 }),
});

type Plan = typeof fixtureArb extends fc.Arbitrary<infer T> ? T : never;

function toFixture(plan: Plan): unknown {
  const items: Record<string, unknown>[] = [];
  let turn = 0;
  plan.entries.forEach((e, index) => {
    turn += e.step;
    const time = timeOf(turn);
    const tool = TOOLS[e.tool]?.name ?? 'ls';
    const invocation = { name: tool, arguments: e.args, callId: `call${index}` };
    const resultItem = {
      id: `r${index}`, turn, time, origin: 'environment', kind: 'tool-result', content: e.content, tool: invocation,
      status: e.status, flags: e.flags,
      ...(e.source ? { source: e.source } : {}),
      ...(e.covers ? { covers: e.covers } : {}),
    };
    if (e.shape === 'note') {
      items.push({ id: `n${index}`, turn, time, origin: e.origin, kind: e.kind, content: e.content, flags: e.flags });
    } else if (e.shape === 'pair') {
      items.push({
        id: `c${index}`, turn, time, origin: 'model', kind: 'tool-call', content: e.callContent, tool: invocation,
        ...(e.effects ? { effects: e.effects } : {}),
      });
      items.push(resultItem);
    } else {
      items.push(resultItem);
    }
  });
  const ids = items.map((item) => String(item.id));
  const idAt = (i: number) => ids[i % ids.length] ?? 'missing';
  const some = (list: readonly number[]) => [...new Set(list.map(idAt))];
  const ppTurn = Math.round(turn * plan.turnShare);
  return {
    schemaVersion: 1,
    id: 'generated',
    title: 'generated',
    description: 'generated by fast-check',
    tools: TOOLS,
    items,
    prunePoints: [{
      id: 'pp',
      turn: ppTurn,
      time: timeOf(ppTurn),
      budgetTokens: plan.budget,
      subgoal: plan.subgoal,
      visible: {
        pinned: some(plan.pinned),
        protectedTools: plan.protectedTools,
        obligations: plan.obligations.map((o, i) => ({
          id: `ob${i}`, description: 'generated', neededAtTurn: ppTurn + 1,
          needs: { itemIds: some(o.items), strings: o.strings }, probe: { question: 'q?', expectedAnswer: 'a' },
        })),
        pendingSteps: plan.pendingSteps.map((s, i) => ({ id: `ps${i}`, description: 'generated', references: some(s.items) })),
        workUnits: plan.workUnits.map((u, i) => ({
          id: `wu${i}`, description: 'generated', state: u.state, traceItems: some(u.items),
          ...(u.consequence ? { consequence: { itemId: idAt(u.consequence.item), strings: u.consequence.strings } } : {}),
        })),
      },
    }],
  };
}

const viewArb: fc.Arbitrary<PolicyView> = fixtureArb.map((plan) => buildView(Fixture.parse(toFixture(plan)), 'pp', (t) => t.length));
const RUNS = { numRuns: 400 };

describe('policy properties over generated fixtures', () => {
  it('raw removes nothing', () => {
    const raw = allConditions().find((c) => c.name === 'raw');
    fc.assert(fc.property(viewArb, (view) => {
      expect(raw?.decide(view).every((e) => e.verdict === 'keep')).toBe(true);
    }), RUNS);
  });

  it('consulting conditions never make a protected item eligible', () => {
    const consulting = allConditions().filter((c) => CONSULTING.includes(c.name));
    expect(consulting.map((c) => c.name).sort()).toEqual([...CONSULTING].sort());
    fc.assert(fc.property(viewArb, (view) => {
      const protectedIds = new Set(view.items.filter((item) => protectionOf(view, item)).map((item) => item.id));
      for (const c of consulting) {
        for (const e of c.decide(view)) {
          if (protectedIds.has(e.itemId)) expect({ condition: c.name, item: e.itemId, verdict: e.verdict }).not.toMatchObject({ verdict: 'eligible' });
        }
      }
    }), RUNS);
  });

  it('every condition returns exactly one eligibility per view item, in view order, deterministically', () => {
    fc.assert(fc.property(viewArb, (view) => {
      const ids = view.items.map((item) => item.id);
      for (const c of allConditions()) {
        const first = c.decide(view);
        expect(first.map((e) => e.itemId)).toEqual(ids);
        expect(c.decide(view)).toEqual(first);
        for (const e of first) {
          if (e.verdict !== 'eligible') {
            expect(e.residue).toBeUndefined();
            expect(e.replacement).toBeUndefined();
          }
          if (!c.consultsObligations) expect(e.obligationsConsulted).toEqual([]);
        }
      }
    }), RUNS);
  });

  it('ladder-0-3 never removes on prediction, and the evidence ladders never remove on it at all', () => {
    const ladders = allConditions().filter((c) => ['ladder-0', 'ladder-0-1', 'ladder-0-2', 'ladder-0-3'].includes(c.name));
    fc.assert(fc.property(viewArb, (view) => {
      for (const c of ladders) {
        for (const e of c.decide(view)) {
          if (e.verdict === 'eligible') expect(e.rung === null || e.rung <= 3).toBe(true);
        }
      }
    }), RUNS);
  });
});
