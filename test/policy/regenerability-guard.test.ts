import { describe, expect, it } from 'vitest';
import { regenerabilityGuard } from '../../src/policy/comparators/regenerability-guard.js';
import { at, callAndResult, condition, decideById, makeView, note, verdicts } from './build-view.js';

const guard = condition('regenerability-guard');
const subgoal = 'fix the pool timeout';
const tools = [
  { name: 'ls', sideEffect: 'pure' },
  { name: 'post_payment', sideEffect: 'non-idempotent' },
];
const base = () => [
  ...callAndResult('1', 1, 'ls', { dir: 'src' }, { content: 'a.ts b.ts' }),
  note('n2', 2, 'pool timeout is 30s'),
  note('n3', 3, 'lunch menu'),
];

describe('regenerability-guard (safe_prune whole-prune refusal)', () => {
  it('lets every proposal through when no proposed candidate is unsafe', () => {
    const view = makeView({ items: base(), tools, subgoal });
    const d = decideById(guard, view);
    expect(verdicts(guard, view)).toEqual({ c1: 'eligible', r1: 'eligible', n2: 'keep', n3: 'eligible' });
    expect(at(d, 'r1').reason).toContain('class deterministic: pure tool');
    expect(at(d, 'n2')).toMatchObject({ reason: 'not proposed by the predictor', obligationsConsulted: [] });
    expect(guard).toMatchObject({ layer: 'comparator', rung: 4, consultsObligations: true, upperRisk: false });
  });

  it('never shows the predictor a refusal-case item, so it is KEEP with why, and the other proposals go', () => {
    const items = base().map((item) => (item.id === 'n3' ? { ...item, flags: { negativeResult: true } } : item));
    const view = makeView({ items, tools, subgoal });
    const d = decideById(guard, view);
    expect(verdicts(guard, view)).toEqual({ c1: 'eligible', r1: 'eligible', n2: 'keep', n3: 'keep' });
    expect(at(d, 'n3').reason).toContain('never shown to the predictor: regenerability gate: negative result');
  });

  it('refuses the whole prune when a proposed non-idempotent output leans on a copy proposed with it', () => {
    // Each copy alone has an identical copy in context, so both are shown and both proposed; the gate then refuses
    // the latest (its only copy goes in the same prune) and the whole proposal is refused.
    const view = makeView({
      items: [
        ...base(),
        ...callAndResult('4', 4, 'post_payment', { amount: 5 }, { content: 'payment accepted' }),
        ...callAndResult('5', 5, 'post_payment', { amount: 5 }, { content: 'payment accepted' }),
      ],
      tools,
      subgoal,
    });
    const d = decideById(guard, view);
    expect(at(d, 'r4').verdict).toBe('abstain');
    expect(at(d, 'c1').verdict).toBe('abstain');
    expect(at(d, 'r5').reason).toBe(
      'whole prune refused: this proposed candidate is not safely evictable (regenerability gate: output of a non-idempotent call, and no identical copy of it stays in context); 1 proposed candidate(s) refused in all',
    );
    expect(at(d, 'c1').reason).toBe(
      'whole prune refused: 1 proposed candidate(s) not safely evictable (r5), each naming its refusal in its own record',
    );
    expect(at(d, 'r4').reason).not.toContain('r4');
  });

  it('names the refusing proposals once: each refused one carries its refusal, the others name the first and count the rest', () => {
    // Three distinct non-idempotent outputs, each with one identical copy proposed with it: the gate refuses the
    // latest of each pair. Reasons must not grow with the number of refusals times the number of proposals.
    const pairs = ['a', 'b', 'c'].flatMap((tag, i) => [
      ...callAndResult(`${tag}1`, 10 + 2 * i, 'post_payment', { amount: i }, { content: `payment ${tag} accepted` }),
      ...callAndResult(`${tag}2`, 11 + 2 * i, 'post_payment', { amount: i }, { content: `payment ${tag} accepted` }),
    ]);
    const view = makeView({ items: [...base(), ...pairs], tools, subgoal });
    const d = decideById(guard, view);
    const refusedIds = ['ra2', 'rb2', 'rc2'];
    for (const id of refusedIds) {
      expect(at(d, id).reason).toMatch(
        /^whole prune refused: this proposed candidate is not safely evictable \(regenerability gate: output of a non-idempotent call/,
      );
      expect(at(d, id).reason).toContain('3 proposed candidate(s) refused in all');
    }
    expect(at(d, 'c1').reason).toBe(
      'whole prune refused: 3 proposed candidate(s) not safely evictable (ra2 and 2 more), each naming its refusal in its own record',
    );
    for (const item of view.items) {
      const r = at(d, item.id);
      if (r.verdict !== 'abstain') continue;
      // No record repeats another item's refusal.
      expect(r.reason.match(/regenerability gate:/g)?.length ?? 0).toBe(refusedIds.includes(item.id) ? 1 : 0);
    }
  });

  it('still removes every proposal when the gate refuses none, however many there are', () => {
    const many = Array.from({ length: 30 }, (_, i) => note(`m${i}`, 10 + i, `lunch menu ${i}`));
    const view = makeView({ items: [...base(), ...many], tools, subgoal });
    const v = verdicts(guard, view);
    for (let i = 0; i < 30; i += 1) expect(v[`m${i}`]).toBe('eligible');
  });

  it('lets a non-idempotent output go when its identical copy is not proposed and stays', () => {
    const view = makeView({
      items: [
        ...base(),
        ...callAndResult('4', 4, 'post_payment', { amount: 5 }, { content: 'payment accepted' }),
        ...callAndResult('5', 5, 'post_payment', { amount: 5 }, { content: 'payment accepted pool timeout fix' }),
      ],
      tools,
      subgoal,
    });
    // r5 differs (so r4 has no copy): r4 is withheld; nothing refused among the proposals.
    expect(verdicts(guard, view)).toMatchObject({ r4: 'keep', r5: 'keep', r1: 'eligible' });
  });

  it('an item a pending step references or a pinned one is never shown to the predictor: KEEP with why', () => {
    const view = makeView({
      items: base(),
      tools,
      subgoal,
      visible: {
        pinned: ['c1'],
        pendingSteps: [{ id: 'ps1', description: 'retry with the same nonce', references: ['n3'] }],
      },
    });
    const d = decideById(guard, view);
    // The pin on c1 reaches its result r1 (held-out-call-reach.test.ts); until guard 2.6.0 r1 went.
    expect(verdicts(guard, view)).toEqual({ c1: 'keep', r1: 'keep', n2: 'keep', n3: 'keep' });
    expect(at(d, 'n3').reason).toBe('never shown to the predictor: referenced by pending step ps1');
    expect(at(d, 'c1').reason).toBe('never shown to the predictor: pinned by the runtime');
    expect(at(d, 'r1').reason).toBe(
      'never shown to the predictor: regenerability gate: its call c1 is pinned by the runtime, and no identical copy of it stays in context',
    );
  });

  it('fails closed: an unusable answer or a confidence below the threshold is ABSTAIN, never KEEP or PRUNE', () => {
    const low = regenerabilityGuard({
      predictor: (_v, shown) => new Map(shown.map((id) => [id, { reason: 'stale', confidence: 0.2 }])),
      predictorLabel: 'm',
    });
    const view = makeView({ items: base(), tools, subgoal, visible: { pinned: ['n2'] } });
    expect(verdicts(low, view)).toEqual({ c1: 'abstain', r1: 'abstain', n2: 'keep', n3: 'abstain' });
    expect(at(decideById(low, view), 'n3').reason).toContain('confidence 0.2 in "stale" is below the threshold 0.5');
    const stray = regenerabilityGuard({
      predictor: () => new Map([['n2', { reason: 'x', confidence: 1 }]]),
      predictorLabel: 'm',
    });
    expect(verdicts(stray, view)).toEqual({ c1: 'abstain', r1: 'abstain', n2: 'keep', n3: 'abstain' });
    expect(at(decideById(stray, view), 'c1').reason).toContain('it named item "n2", which it was not asked about');
  });
});
