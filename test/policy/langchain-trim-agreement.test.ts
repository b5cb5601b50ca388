// The reimplementation `langchain-trim-messages` against the package row that shadows it (`pkg-langchain-trim-messages`,
// @langchain/core's trimMessages run as shipped): they must agree decision for decision, on views built around the
// package's unit (a whole message: a run of parallel tool calls is one), on random views with such runs, on the
// shared random fixtures and on every canonical fixture, each at budgets from all of it down to nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView, type PolicyView } from '../../src/fixture/view.js';
import { loadFixtures } from '../../src/load/fixtures.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';
import { callAndResult, condition, type ItemSpec, makeView, note, verdicts } from './build-view.js';

const trim = condition('langchain-trim-messages');
const pkg = condition('pkg-langchain-trim-messages');

const withBudget = (view: PolicyView, budgetTokens: number): PolicyView => ({
  ...view,
  prunePoint: { ...view.prunePoint, budgetTokens },
});

/** Budgets that put the cut everywhere: nothing, a little, shares of the context, all of it and more. */
const budgetsOf = (view: PolicyView): number[] => [
  ...new Set(
    [0, 1, 0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 1, 1.2].map((share) =>
      share <= 1 && share > 0.01
        ? Math.floor(view.contextTokens * share)
        : share === 1.2
          ? view.contextTokens + 1
          : share,
    ),
  ),
];

/** Where the two decide differently: item, the reimplementation's verdict, the package's. */
function disagreements(view: PolicyView): string[] {
  const ours = trim.decide(view);
  const theirs = new Map(pkg.decide(view).map((e) => [e.itemId, e.verdict]));
  return ours
    .filter((e) => theirs.get(e.itemId) !== e.verdict)
    .map(
      (e) =>
        `${view.fixtureId} ${view.prunePoint.id} budget ${view.prunePoint.budgetTokens}: ${e.itemId} ${e.verdict} / ${theirs.get(e.itemId)}`,
    );
}

// A user note of 10 tokens, then two parallel calls (30 and 5 tokens) and their results (5 each): four messages, the
// calls one assistant message of 35 tokens.
const parallel = [
  note('u1', 0, 'u'.repeat(10), { origin: 'user', kind: 'instruction' }),
  { ...callAndResult('1', 1, 'read', { path: 'a' })[0]!, content: 'a'.repeat(30) },
  { ...callAndResult('2', 1, 'read', { path: 'b' })[0]!, content: 'b'.repeat(5) },
  { ...callAndResult('1', 1, 'read', { path: 'a' })[1]!, content: 'A'.repeat(5) },
  { ...callAndResult('2', 1, 'read', { path: 'b' })[1]!, content: 'B'.repeat(5) },
];

describe('langchain-trim-messages trims whole messages, as trimMessages does', () => {
  it('drops every call of a parallel run when the run does not fit, even a call that would fit alone', () => {
    // 20 tokens hold both results (10) and the 5-token call, but not the 35-token message the two calls make.
    const view = makeView({ items: parallel, budgetTokens: 20 });
    expect(verdicts(trim, view)).toEqual({ u1: 'eligible', c1: 'eligible', c2: 'eligible', r1: 'keep', r2: 'keep' });
    expect(disagreements(view)).toEqual([]);
  });

  it('keeps the whole run when it fits, and keeps or drops a call and its results as the separate messages they are', () => {
    expect(verdicts(trim, makeView({ items: parallel, budgetTokens: 45 }))).toEqual({
      u1: 'eligible',
      c1: 'keep',
      c2: 'keep',
      r1: 'keep',
      r2: 'keep',
    });
    // One result's message alone fits: the other result and the calls go, though its call is in the dropped message.
    expect(verdicts(trim, makeView({ items: parallel, budgetTokens: 9 }))).toEqual({
      u1: 'eligible',
      c1: 'eligible',
      c2: 'eligible',
      r1: 'eligible',
      r2: 'keep',
    });
  });

  it('weighs a lone call, a text between calls and a call recorded without its invocation as messages of their own', () => {
    const items = [
      { ...callAndResult('1', 1, 'read', { path: 'a' })[0]!, content: 'a'.repeat(30) },
      note('m1', 1, 'm'.repeat(2)),
      { ...callAndResult('2', 1, 'read', { path: 'b' })[0]!, content: 'b'.repeat(5) },
      { id: 'cx', turn: 1, kind: 'tool-call', origin: 'model', content: 'x'.repeat(5) },
      { ...callAndResult('3', 1, 'read', { path: 'c' })[0]!, content: 'c'.repeat(5) },
    ];
    const view = makeView({ items, budgetTokens: 17 });
    // Five messages: c3 (5), cx (5), c2 (5) fit in 15, and m1 (2) in 17; c1 (30) does not.
    expect(verdicts(trim, view)).toEqual({ c1: 'eligible', m1: 'keep', c2: 'keep', cx: 'keep', c3: 'keep' });
    expect(disagreements(view)).toEqual([]);
  });
});

// Random views whose assistant turns make runs of parallel calls, their results in or out of order or missing,
// calls recorded without an invocation, lone results and notes of every speaker, of any size including none.
const pick = <T>(list: readonly T[]) => fc.constantFrom(...list);
const callArb = fc.record({ size: fc.nat(30), resultSize: fc.nat(30), answered: fc.boolean(), recorded: fc.boolean() });
const blockArb = fc.oneof(
  fc.record({
    type: fc.constant('note' as const),
    origin: pick(['user', 'model', 'system'] as const),
    kind: pick(['instruction', 'reasoning', 'plan'] as const),
    size: fc.nat(30),
  }),
  {
    arbitrary: fc.record({
      type: fc.constant('batch' as const),
      calls: fc.array(callArb, { minLength: 1, maxLength: 4 }),
      reversed: fc.boolean(),
    }),
    weight: 3,
  },
  fc.record({ type: fc.constant('result' as const), size: fc.nat(30) }),
);
const planArb = fc.record({
  blocks: fc.array(blockArb, { minLength: 1, maxLength: 10 }),
  budget: fc.integer({ min: 1, max: 200 }),
});

type Plan = typeof planArb extends fc.Arbitrary<infer T> ? T : never;

function parallelView({ blocks, budget }: Plan): PolicyView {
  const items: ItemSpec[] = [];
  let n = 0;
  const fill = (id: string, size: number) => `${id}:${'x'.repeat(size)}`;
  blocks.forEach((block, turn) => {
    if (block.type === 'note') {
      const id = `n${n++}`;
      items.push({ id, turn, origin: block.origin, kind: block.kind, content: fill(id, block.size) });
    } else if (block.type === 'result') {
      const id = `r${n++}`;
      items.push({ ...callAndResult(id, turn, 'read', { path: id })[1]!, id, content: fill(id, block.size) });
    } else {
      const results: ItemSpec[] = [];
      for (const call of block.calls) {
        const base = String(n++);
        const [c, r] = callAndResult(base, turn, 'read', { path: base });
        if (!call.recorded) {
          items.push({
            id: `c${base}`,
            turn,
            kind: 'tool-call',
            origin: 'model',
            content: fill(`c${base}`, call.size),
          });
          continue;
        }
        items.push({ ...c!, content: fill(`c${base}`, call.size) });
        if (call.answered) results.push({ ...r!, content: fill(`r${base}`, call.resultSize) });
      }
      items.push(...(block.reversed ? results.reverse() : results));
    }
  });
  return makeView({ items, budgetTokens: budget });
}

describe('langchain-trim-messages agrees with trimMessages run as shipped', () => {
  it('on random views with runs of parallel calls, at every budget', () => {
    fc.assert(
      fc.property(planArb, (plan) => {
        const view = parallelView(plan);
        for (const budget of [view.prunePoint.budgetTokens, ...budgetsOf(view)])
          expect(disagreements(withBudget(view, budget))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it("on the property tests' random fixtures, at their own budget and others", () => {
    fc.assert(
      fc.property(fixtureArb, (plan) => {
        const view = buildView(Fixture.parse(toFixture(plan)), 'pp', (t) => t.length);
        for (const budget of [view.prunePoint.budgetTokens, ...budgetsOf(view)])
          expect(disagreements(withBudget(view, budget))).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  // No canonical fixture holds a run of parallel calls: here the two agree on the rest of the rule (the longest
  // suffix, the budget itself included, nothing when the newest message does not fit).
  it('on every canonical fixture, at every prune point and budget, and both remove and keep there', () => {
    const tokens = tokenCounter();
    const views = loadFixtures('fixtures/canonical', process.cwd()).flatMap((f) =>
      f.fixture.prunePoints.map((p) => buildView(f.fixture, p.id, tokens)),
    );
    expect(views.length).toBeGreaterThan(30);
    let eligible = 0;
    let kept = 0;
    for (const base of views) {
      for (const budget of [base.prunePoint.budgetTokens, ...budgetsOf(base)]) {
        const view = withBudget(base, budget);
        expect(disagreements(view)).toEqual([]);
        const out = trim.decide(view);
        eligible += out.filter((e) => e.verdict === 'eligible').length;
        kept += out.filter((e) => e.verdict === 'keep').length;
      }
    }
    expect(eligible).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(0);
  });
});
