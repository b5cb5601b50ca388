// A generator of small, valid, adversarial fixtures (tools of every side-effect class, copies, sources with and
// without versions, errors, obligations, pins, pending steps and work units), shared by the property tests.
import fc from 'fast-check';
import { timeOf } from '../policy/build-view.js';

const TOOLS = [
  { name: 'read_file', sideEffect: 'read-mutable' },
  { name: 'read_file_too', sideEffect: 'read-mutable' },
  { name: 'ls', sideEffect: 'pure' },
  { name: 'post_api', sideEffect: 'non-idempotent' },
  { name: 'edit', sideEffect: 'destructive' },
];
// Biased towards one read tool so same-call observations (supersession, dedup) occur often.
const TOOL_PICK = fc.oneof(
  { arbitrary: fc.constant(0), weight: 3 },
  { arbitrary: fc.nat(TOOLS.length - 1), weight: 2 },
);
const WORDS = ['alpha', 'beta', 'pool', 'timeout', 'fix', 'exit', 'code', '137', 'nonce'];
const CONTENTS = [
  'alpha beta',
  'pool timeout fix',
  '',
  'exit code 137',
  'alpha beta',
  'nonce=8f3a\nline two',
  'gamma',
  'delta\nepsilon',
  'zeta',
];
const IDENTITIES = ['repo:a', 'repo:b', 'UNKNOWN'];

const pick = <T>(list: readonly T[]) => fc.constantFrom(...list);

const source = fc.record({
  identity: pick(IDENTITIES),
  version: fc.oneof(
    fc.constant('UNKNOWN' as const),
    fc.record({ kind: pick(['git-sha', 'content-hash', 'etag'] as const), value: pick(['v1', 'v2']) }),
  ),
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
  pendingPlanReference: fc.boolean(),
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
const obligationArb = fc.record({
  items: fc.array(fc.nat(40), { maxLength: 2 }),
  strings: fc.subarray(['alpha', 'pool', '137', 'nonce=8f3a'], { maxLength: 1 }),
});
const stepArb = fc.record({ items: fc.array(fc.nat(40), { minLength: 1, maxLength: 2 }) });
const unitArb = fc.record({
  state: pick(['open', 'closed'] as const),
  items: indexes,
  consequence: fc.option(fc.record({ item: fc.nat(40), strings: fc.subarray(WORDS, { minLength: 1 }) }), {
    nil: undefined,
  }),
});

export const fixtureArb = fc.record({
  // size 'max' spreads lengths over the whole range, so masking's first/last-M split and the ladders get real work.
  entries: fc.array(entry, { minLength: 1, maxLength: 16, size: 'max' }),
  turnShare: fc.double({ min: 0.3, max: 1, noNaN: true }),
  subgoal: pick(['fix the pool timeout', 'alpha beta gamma', 'investigate exit code 137', 'do it now']),
  budget: fc.integer({ min: 1, max: 120 }),
  taskBoundary: fc.boolean(),
  pinned: fc.array(fc.nat(40), { maxLength: 2 }),
  protectedTools: fc.subarray(TOOLS.map((t) => t.name)),
  obligations: fc.array(obligationArb, { maxLength: 2 }),
  pendingSteps: fc.array(stepArb, { maxLength: 1 }),
  workUnits: fc.array(unitArb, { maxLength: 2 }),
});

export type Plan = typeof fixtureArb extends fc.Arbitrary<infer T> ? T : never;

export function toFixture(plan: Plan): unknown {
  const items: Record<string, unknown>[] = [];
  let turn = 0;
  plan.entries.forEach((e, index) => {
    turn += e.step;
    const time = timeOf(turn);
    const tool = TOOLS[e.tool]?.name ?? 'ls';
    const invocation = { name: tool, arguments: e.args, callId: `call${index}` };
    const resultItem = {
      id: `r${index}`,
      turn,
      time,
      origin: 'environment',
      kind: 'tool-result',
      content: e.content,
      tool: invocation,
      status: e.status,
      flags: e.flags,
      ...(e.source ? { source: e.source } : {}),
      ...(e.covers ? { covers: e.covers } : {}),
    };
    if (e.shape === 'note') {
      items.push({ id: `n${index}`, turn, time, origin: e.origin, kind: e.kind, content: e.content, flags: e.flags });
    } else if (e.shape === 'pair') {
      items.push({
        id: `c${index}`,
        turn,
        time,
        origin: 'model',
        kind: 'tool-call',
        content: e.callContent,
        tool: invocation,
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
    prunePoints: [
      {
        id: 'pp',
        turn: ppTurn,
        time: timeOf(ppTurn),
        budgetTokens: plan.budget,
        taskBoundary: plan.taskBoundary,
        subgoal: plan.subgoal,
        visible: {
          pinned: some(plan.pinned),
          protectedTools: plan.protectedTools,
          obligations: plan.obligations.map((o, i) => ({
            id: `ob${i}`,
            description: 'generated',
            neededAtTurn: ppTurn + 1,
            needs: { itemIds: some(o.items), strings: o.strings },
            probe: { question: 'q?', expectedAnswer: 'a' },
          })),
          pendingSteps: plan.pendingSteps.map((s, i) => ({
            id: `ps${i}`,
            description: 'generated',
            references: some(s.items),
          })),
          workUnits: plan.workUnits.map((u, i) => ({
            id: `wu${i}`,
            description: 'generated',
            state: u.state,
            traceItems: some(u.items),
            ...(u.consequence
              ? { consequence: { itemId: idAt(u.consequence.item), strings: u.consequence.strings } }
              : {}),
          })),
        },
      },
    ],
  };
}
