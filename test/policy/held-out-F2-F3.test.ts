// Held-out review F's judgements 2 and 3, closed on the safe side: a rung acts only when the check it names ran and
// passed. (F2, rung 3) A closure rests on what its trace observed passing, and a check is verification only while it is
// the latest word on what it checked: a later observation of the same thing (a coverage key it reported, run by the
// same tool or on the same recorded source; without keys, the same call) that did not pass, with no pass asked for
// after it, contradicts the closure, and the trace is KEEP. (F3, rungs 1 and 2) A transition is between two
// observations only where the record orders it so: issued after the older one was recorded, its result recorded
// before the newer one was asked for. In a batch (calls cE, cN, then results rE, rN) the order is not recorded, and
// an unordered transition makes the pair unsafe wherever an ordered one could.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyView } from '../../src/fixture/view.js';
import type { Eligibility } from '../../src/policy/types.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, closedUnit, condition, decideById, makeView, note } from './build-view.js';

const V = (name: string, view: PolicyView, id: string): Eligibility => at(decideById(condition(name), view), id);

const ws = 'workspace:pool';
const KEYS = ['test_pool_size', 'test_pool_retry'];
const failed = { state: 'error', errorType: 'TestFailure', message: '1 failed', fields: { failed: '1' } };
const source = { identity: ws, version: 'UNKNOWN', mutable: true };
type Loose = Record<string, unknown>;
const run = (
  base: string,
  turn: number,
  content: string,
  extra: Loose = {},
  args: Loose = { target: 'pool' },
  tool = 'run_tests',
): ItemSpec[] => callAndResult(base, turn, tool, args, { content, covers: KEYS, source, ...extra });

/**
 * wu1's trace: an earlier failing run r1, an edit c2 (recorded as succeeded) and the passing run r3 the closure rests
 * on; its record n9 holds "pool retry fixed". After it, `later`.
 */
function closedThen(later: ItemSpec[], opts: { check?: ItemSpec[] } = {}): PolicyView {
  return makeView({
    items: [
      ...run('1', 1, 'test_pool_size ok; test_pool_retry FAILED', { status: failed }),
      ...callAndResult('2', 2, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
      ...(opts.check ?? run('3', 3, 'test_pool_size ok; test_pool_retry ok')),
      note('n9', 4, 'wu1 done: pool retry fixed'),
      ...later,
    ],
    subgoal: 'write the release notes',
    visible: {
      workUnits: [closedUnit('wu1', ['c1', 'r1', 'c2', 'r2', 'c3', 'r3'], 'n9', ['pool retry fixed'])],
    },
  });
}

const RUNG3 = ['verified-completion', 'ladder-0-3', 'ladder-0-4'];
/** The edit and the passing run: in a ladder the trace's failed run r1 is rung 2's (its residue, its supersession). */
const TRACE = ['c2', 'r3'];
const traceOf = (name: string) => (name === 'verified-completion' ? ['r1', ...TRACE] : TRACE);

function contradicted(view: PolicyView, by: string, names: readonly string[] = RUNG3): void {
  for (const name of names)
    for (const id of traceOf(name)) {
      const d = V(name, view, id);
      expect(d, `${name} ${id}: ${d.reason}`).toMatchObject({ verdict: 'keep', rule: 'verified-completion' });
      expect(d.reason).toContain('closure contradicted');
      expect(d.reason).toContain(`contradicted by ${by}`);
    }
}

function goes(view: PolicyView, names: readonly string[] = RUNG3): void {
  for (const name of names)
    for (const id of traceOf(name)) {
      const d = V(name, view, id);
      expect(d, `${name} ${id}: ${d.reason}`).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
    }
}

describe('F2: a later observation of what a closure checked that did not pass contradicts the closure', () => {
  it('a later run of the same call and keys that failed', () => {
    contradicted(closedThen(run('5', 5, 'test_pool_retry FAILED: timeout', { status: failed })), 'r5');
  });

  it('a later error result of the same call with no coverage parsed (the run did not start)', () => {
    const error = { state: 'error', errorType: 'Timeout', message: 'runner timed out', fields: {} };
    contradicted(closedThen(run('5', 5, 'runner timed out', { status: error, covers: undefined })), 'r5');
  });

  it('a later wider run that reports a covered key among others, and failed', () => {
    const wider = run(
      '5',
      5,
      '1 failed',
      { status: failed, covers: ['test_cache_evict', 'test_pool_retry', 'test_http_ok'] },
      { target: 'all' },
    );
    contradicted(closedThen(wider), 'r5');
  });

  it('a later failure of another call by the same tool on the same workspace, reporting no keys', () => {
    contradicted(closedThen(run('5', 5, '1 failed', { status: failed, covers: undefined }, { target: 'all' })), 'r5');
  });

  it('a later run on the same workspace with other arguments and the same keys, which failed', () => {
    contradicted(closedThen(run('5', 5, '1 failed', { status: failed }, { target: 'pool', verbose: true })), 'r5');
  });

  it('another tool on the same recorded source reporting a covered key, which failed', () => {
    const view = closedThen(
      run('5', 5, '1 failed', { status: failed, covers: ['test_pool_size'] }, { k: 'pool' }, 'pytest'),
    );
    // A ladder's rung 2 first cuts the failure to its residue, which no longer shows its keys; rung 3 reads the keys
    // the runtime recorded on it, so the covered key it failed still contradicts, as it does for the rule alone.
    expect(V('ladder-0-3', view, 'r5').reason).toContain('the payload goes');
    contradicted(view, 'r5');
  });

  it('a later failure followed only by passes of other things (other keys, another call)', () => {
    const later = [
      ...run('5', 5, '1 failed', { status: failed }),
      ...run('6', 6, 'ok', { covers: ['test_cache_evict'] }, { target: 'cache' }),
      ...callAndResult('7', 7, 'read_file', { path: 'NOTES.md' }, { content: 'notes' }),
    ];
    contradicted(closedThen(later), 'r5');
  });

  it('a pass asked for before the failure was recorded does not settle it (a batch: cP, cF, rP, rF)', () => {
    const [cP, rP] = run('6', 6, 'all ok');
    const [cF, rF] = run('5', 6, '1 failed', { status: failed }, { target: 'pool', seed: 2 });
    contradicted(closedThen([cP!, cF!, rP!, rF!]), 'r5');
  });

  it('a failure asked for beside the check, whose result came after the check was asked for (a batch: c3, c5, r3, r5)', () => {
    const [c3, r3] = run('3', 3, 'test_pool_size ok; test_pool_retry ok');
    const [c5, r5] = run('5', 3, '1 failed', { status: failed }, { target: 'pool', seed: 2 });
    contradicted(closedThen([], { check: [c3!, c5!, r3!, r5!] }), 'r5');
  });

  it('the failure contradicts every unit whose trace holds the check', () => {
    const view = makeView({
      items: [
        ...run('3', 3, 'all ok'),
        note('n8', 4, 'wu0 done: pool size fixed'),
        note('n9', 4, 'wu1 done: pool retry fixed'),
        ...run('5', 5, '1 failed', { status: failed, covers: ['test_pool_size'] }),
      ],
      visible: {
        workUnits: [
          closedUnit('wu0', ['c3', 'r3'], 'n8', ['pool size fixed']),
          closedUnit('wu1', ['r3'], 'n9', ['pool retry fixed']),
        ],
      },
    });
    const d = V('verified-completion', view, 'r3');
    expect(d.verdict).toBe('keep');
    expect(d.reason).toContain('wu0');
    expect(d.reason).toContain('wu1');
    expect(V('verified-completion', view, 'c3').verdict).toBe('keep');
  });
});

describe('F2, the allowed side: the trace still goes', () => {
  it('with no later run, or a later pass of the same call and keys', () => {
    goes(closedThen([]));
    goes(closedThen(run('5', 5, 'all ok')));
  });

  it('with a later failing run of unrelated keys, by the same tool on the same workspace', () => {
    const view = closedThen(
      run('5', 5, '1 failed', { status: failed, covers: ['test_cache_evict'] }, { target: 'cache' }),
    );
    // In a ladder rung 2 cuts that failure to its residue first; rung 3 compares it by the keys the runtime recorded
    // on it, which are unrelated, so the trace goes there too, as it does for the rule alone.
    expect(V('ladder-0-3', view, 'r5').reason).toContain('the payload goes');
    goes(view);
  });

  it('with a later failure that reports no keys, by another tool on the workspace or the same tool elsewhere', () => {
    goes(closedThen(run('5', 5, 'lint: 3 errors', { status: failed, covers: undefined }, { target: 'pool' }, 'lint')));
    const elsewhere = { identity: 'workspace:cache', version: 'UNKNOWN', mutable: true };
    goes(
      closedThen(run('5', 5, '1 failed', { status: failed, covers: undefined, source: elsewhere }, { target: 'x' })),
    );
  });

  it("with the trace's own earlier failure, recorded before the check was asked for (the fix cycle)", () => {
    // r1 failed before r3 was asked for: it is older news, not a contradiction.
    goes(closedThen([]));
  });

  it('with a later failure settled by a pass asked for after its result (of the same keys, or the failed call rerun)', () => {
    goes(closedThen([...run('5', 5, '1 failed', { status: failed }), ...run('6', 6, 'all ok')]));
    const otherCall = { target: 'pool', verbose: true };
    goes(
      closedThen([
        ...run('5', 5, '1 failed', { status: failed, covers: undefined }, otherCall),
        ...run('6', 6, 'all ok', { covers: undefined }, otherCall),
        ...run('7', 7, '1 failed', { status: failed }, { target: 'pool', seed: 3 }),
        ...run('8', 8, 'all ok', {}, { target: 'pool', seed: 4 }),
      ]),
    );
  });

  it('with a failure recorded before the check was asked for, outside the trace', () => {
    const [c0, r0] = run('0', 0, '1 failed', { status: failed }, { target: 'pool', seed: 9 });
    goes(closedThen([], { check: [c0!, r0!, ...run('3', 3, 'test_pool_size ok; test_pool_retry ok')] }));
  });
});

type Later = { ok: boolean; keys: 'same' | 'other' | 'none'; call: 'same' | 'other' | 'noise' };
const laterArb: fc.Arbitrary<Later> = fc.record({
  ok: fc.boolean(),
  keys: fc.constantFrom('same', 'other', 'none'),
  call: fc.constantFrom('same', 'other'),
});

function laterRuns(plan: readonly Later[], from: number): ItemSpec[] {
  return plan.flatMap((p, i) =>
    run(
      String(from + i),
      from + i,
      p.ok ? 'ok' : 'failed',
      {
        ...(p.ok ? {} : { status: failed }),
        covers: p.keys === 'same' ? KEYS : p.keys === 'other' ? ['test_cache_evict'] : undefined,
      },
      p.call === 'same' ? { target: 'pool' } : { target: p.call },
    ),
  );
}

describe('F2 properties over random later runs', () => {
  it('a last run of the check itself decides: a pass lets the trace go, a failure keeps it', () => {
    fc.assert(
      fc.property(fc.array(laterArb, { maxLength: 6 }), fc.boolean(), (plan, lastOk) => {
        const last = run('99', 99, lastOk ? 'ok' : 'failed', lastOk ? {} : { status: failed });
        const d = V('verified-completion', closedThen([...laterRuns(plan, 10), ...last]), 'r3');
        expect(d.verdict).toBe(lastOk ? 'eligible' : 'keep');
      }),
      { numRuns: 120 },
    );
  });

  it('later runs of unrelated keys, passing or failing, never move the verdict', () => {
    fc.assert(
      fc.property(fc.array(laterArb, { maxLength: 5 }), fc.array(fc.boolean(), { maxLength: 4 }), (plan, noise) => {
        const base = V('verified-completion', closedThen(laterRuns(plan, 10)), 'r3');
        const unrelated = noise.map((ok) => ({ ok, keys: 'other', call: 'noise' }) as const);
        const noisy = V('verified-completion', closedThen([...laterRuns(plan, 10), ...laterRuns(unrelated, 50)]), 'r3');
        expect(noisy.verdict).toBe(base.verdict);
      }),
      { numRuns: 120 },
    );
  });
});

describe('F2 in a ladder: a failure rung 2 cut to its residue is compared by the keys the runtime recorded on it', () => {
  it('property: over random later runs, ladders 0-3 and 0-4 decide the trace as verified-completion alone does', () => {
    fc.assert(
      fc.property(
        fc.array(laterArb, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('ladder-0-3', 'ladder-0-4'),
        fc.boolean(),
        (plan, name, distinct) => {
          // Runs with equal output, which rung 0 removes as copies of later ones, and runs whose output differs.
          const view = closedThen(
            distinct
              ? laterRuns(plan, 10).map((item) => ({ ...item, content: `${item.content} ${item.id}` }))
              : laterRuns(plan, 10),
          );
          const alone = V('verified-completion', view, 'c2');
          const inLadder = V(name, view, 'c2');
          expect(inLadder.rule, `${name}: ${inLadder.reason} / alone: ${alone.reason}`).toBe('verified-completion');
          expect(inLadder.verdict, `${name}: ${inLadder.reason} / alone: ${alone.reason}`).toBe(alone.verdict);
          const r3 = V(name, view, 'r3');
          if (r3.rule === 'verified-completion') expect(r3.verdict).toBe(V('verified-completion', view, 'r3').verdict);
        },
      ),
      { numRuns: 100 },
    );
  });
  // Found by the property above: rung 0 removes a later failure as a copy of a still later run whose output matches
  // but whose keys do not (r10 reports the check's keys, r11 others); rung 3 reads the record, the removed failure
  // where it stood included, so the closure stays contradicted as for the rule alone.
  it('ladder-0-3: a failure rung 0 removed as a copy of a run with other keys still contradicts', () => {
    const view = closedThen([
      ...run('10', 10, 'failed', { status: failed }, { target: 'other' }),
      ...run('11', 11, 'failed', { status: failed, covers: ['test_cache_evict'] }, { target: 'other' }),
    ]);
    expect(V('verified-completion', view, 'c2').verdict).toBe('keep');
    expect(V('ladder-0-3', view, 'c2').verdict).toBe('keep');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// F3: transitions the record does not order between two observations.

/** r0, an older failing run of the keys; then `rest`, which holds the edit and the newer run rN. */
function supersession(rest: ItemSpec[]): PolicyView {
  return makeView({ items: [...run('0', 1, 'test_pool_size ok; test_pool_retry FAILED'), ...rest] });
}

// Each edit's result differs, so that rung 0 never removes one as a copy of another (and its outcome with it).
const edit = (base: string, turn: number, target = ws, call: Loose = { effects: [target] }, result: Loose = {}) =>
  callAndResult(base, turn, 'edit', { path: `${target}.ts` }, { content: `edited (${base})`, ...result }, call);
const newer = (turn = 3) => run('N', turn, 'test_pool_size ok; test_pool_retry ok');
const other = (base: string, turn = 3) =>
  callAndResult(base, turn, 'read_file', { path: 'NOTES.md' }, { content: 'notes' });

const RUNG2 = ['checked-supersession', 'ladder-0-2', 'ladder-0-3'];

function notSuperseded(view: PolicyView, older = 'r0'): void {
  for (const name of RUNG2) {
    const d = V(name, view, older);
    expect(d.verdict === 'eligible' && d.rule === 'checked-supersession', `${name}: ${d.reason}`).toBe(false);
  }
  const d = V('checked-supersession', view, older);
  expect(d.verdict, d.reason).toBe('abstain');
  expect(d.reason).toContain('the record does not order');
}

function superseded(view: PolicyView, by = 'rN', older = 'r0'): void {
  for (const name of RUNG2) {
    const d = V(name, view, older);
    expect(d, `${name}: ${d.reason}`).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
    expect(d.reason).toContain(`superseded by ${by}:`);
  }
}

describe('F3: rung 2 does not supersede across a transition the record does not order before the newer call', () => {
  it('a batch of two: cE, cN, rE, rN', () => {
    const [cE, rE] = edit('E', 2);
    const [cN, rN] = newer();
    notSuperseded(supersession([cE!, cN!, rE!, rN!]));
  });

  it('a batch of two with the newer call first: cN, cE, rN, rE', () => {
    const [cE, rE] = edit('E', 2);
    const [cN, rN] = newer();
    notSuperseded(supersession([cN!, cE!, rN!, rE!]));
  });

  it("a batch of three, the edit's result arriving last", () => {
    const [cE, rE] = edit('E', 2);
    const [cN, rN] = newer();
    const [cX, rX] = other('X');
    notSuperseded(supersession([cE!, cN!, cX!, rX!, rN!, rE!]));
  });

  it('an edit recorded as succeeded whose result is not in context, beside the newer call', () => {
    const [cE] = edit('E', 2, ws, { effects: [{ source: ws, outcome: 'succeeded' }] });
    const [cN, rN] = newer();
    notSuperseded(supersession([cE!, cN!, rN!]));
  });

  it('an ordered edit does not make up for another unordered one', () => {
    const [cE, rE] = edit('E', 2);
    const [cF, rF] = edit('F', 3);
    const [cN, rN] = newer(3);
    notSuperseded(supersession([cE!, rE!, cF!, cN!, rF!, rN!]));
  });

  it('a failed edit issued beside the older run, its result after the older run was asked for', () => {
    const [c0, r0] = run('0', 1, 'test_pool_size ok; test_pool_retry FAILED');
    const [cB, rB] = edit('B', 1, ws, { effects: [ws] }, { status: failed });
    const [cE, rE] = edit('E', 2);
    const [cN, rN] = newer();
    // The old rule saw only cE between r0 and rN (cB was issued before r0 was recorded) and superseded r0.
    const view = makeView({ items: [c0!, cB!, r0!, rB!, cE!, rE!, cN!, rN!] });
    notSuperseded(view);
  });
});

describe('F3, the allowed side: rung 2 still supersedes', () => {
  it("serial order: the edit's result before the newer call", () => {
    superseded(supersession([...edit('E', 2), ...newer()]));
  });

  it("a batch in which the edit's result is recorded before the newer call is issued", () => {
    const [cE, rE] = edit('E', 2);
    const [cX, rX] = other('X', 2);
    const [cN, rN] = newer();
    superseded(supersession([cE!, cX!, rE!, cN!, rX!, rN!]));
  });

  it('a read-only batch after a serial edit: no transition on the source in it', () => {
    const [cN, rN] = newer();
    const [cX, rX] = other('X');
    superseded(supersession([...edit('E', 2), cN!, cX!, rX!, rN!]));
  });

  it('a batch whose late result is an edit of another source', () => {
    const [cN, rN] = newer();
    const [cO, rO] = edit('O', 3, 'workspace:other');
    superseded(supersession([...edit('E', 2), cN!, cO!, rN!, rO!]));
  });

  it('an edit issued after the newer run was recorded is not between them', () => {
    const [cE, rE] = edit('E', 4);
    superseded(supersession([...edit('D', 2), ...newer(), cE!, rE!]));
  });
});

const FILE = 'repo:app/config.json';
const etag = { identity: FILE, version: { kind: 'etag', value: '"7"' }, mutable: true };
const read = (base: string, turn: number, src: Loose = etag) =>
  callAndResult(base, turn, 'read_file', { path: 'config.json' }, { content: '{"port": 8080}', source: src });
const write = (base: string, turn: number) => edit(base, turn, FILE);

describe('F3 at rung 1: a write the record does not order outside two reads under a label that pins the state', () => {
  it('abstains where the write was issued before the older read was recorded and its result came after (the old rule paired them)', () => {
    const [c1, r1] = read('1', 1);
    const [cW, rW] = write('W', 1);
    // Rung 1 alone: rung 0 removes an identical copy whatever was written between (the copy that stays shows it).
    const d = V('source-identity', makeView({ items: [c1!, cW!, r1!, rW!, ...read('2', 2)] }), 'r1');
    expect(d.verdict, d.reason).toBe('abstain');
    expect(d.reason).toContain('not ordered relative to the reads');
  });

  it('abstains where the write was issued before the newer read was recorded (as it did before)', () => {
    const [c2, r2] = read('2', 2);
    const [cW, rW] = write('W', 2);
    expect(V('source-identity', makeView({ items: [...read('1', 1), c2!, cW!, r2!, rW!] }), 'r1').verdict).toBe(
      'abstain',
    );
  });

  it('the allowed side: a write issued after both reads were recorded, or a hash label, still pairs them', () => {
    expect(
      V('source-identity', makeView({ items: [...read('1', 1), ...read('2', 2), ...write('W', 3)] }), 'r1'),
    ).toMatchObject({ verdict: 'eligible', rule: 'source-identity' });
    const hashed = { identity: FILE, version: { kind: 'content-hash', value: 'sha256:1' }, mutable: true };
    const [c1, r1] = read('1', 1, hashed);
    const [cW, rW] = write('W', 1);
    const d = V('source-identity', makeView({ items: [c1!, cW!, r1!, rW!, ...read('2', 2, hashed)] }), 'r1');
    expect(d, d.reason).toMatchObject({ verdict: 'eligible', rule: 'source-identity' });
  });
});

/**
 * The six items of a batch in an order drawn from `priority` (lower first), each call kept before its own result by
 * swapping the pair where the draw put the result first.
 */
function interleave(pairs: readonly (readonly [ItemSpec, ItemSpec])[], priority: readonly number[]): ItemSpec[] {
  const order = pairs
    .flat()
    .map((item, i) => ({ item, p: priority[i]! }))
    .sort((a, b) => a.p - b.p)
    .map((x) => x.item);
  for (const [call, result] of pairs) {
    const c = order.indexOf(call);
    const r = order.indexOf(result);
    if (r < c) [order[c], order[r]] = [result, call];
  }
  return order;
}

const priorities = (n: number) => fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: n, maxLength: n });

describe('F3 properties over the orders of a batch', () => {
  it("rung 2 supersedes r0 by rN exactly when the edit's result precedes the newer call", () => {
    fc.assert(
      fc.property(priorities(6), (priority) => {
        const E = edit('E', 2) as [ItemSpec, ItemSpec];
        const N = newer() as [ItemSpec, ItemSpec];
        const X = other('X') as [ItemSpec, ItemSpec];
        const items = interleave([E, N, X], priority);
        const ordered = items.indexOf(E[1]) < items.indexOf(N[0]);
        const d = V('checked-supersession', supersession(items), 'r0');
        expect(d.verdict === 'eligible', `${items.map((i) => i.id).join(' ')}: ${d.reason}`).toBe(ordered);
        if (!ordered) expect(V('ladder-0-3', supersession(items), 'r0').rule).not.toBe('checked-supersession');
      }),
      { numRuns: 200 },
    );
  });

  it('rung 1 pairs two reads under an etag exactly when the write was issued after the newer read was recorded', () => {
    fc.assert(
      fc.property(priorities(4), (priority) => {
        const W = write('W', 2) as [ItemSpec, ItemSpec];
        const R = read('2', 2) as [ItemSpec, ItemSpec];
        const items = [...read('1', 1), ...interleave([W, R], priority)];
        const after = items.indexOf(W[0]) > items.indexOf(R[1]);
        const d = V('source-identity', makeView({ items }), 'r1');
        expect(d.verdict === 'eligible', `${items.map((i) => i.id).join(' ')}: ${d.reason}`).toBe(after);
      }),
      { numRuns: 100 },
    );
  });
});
