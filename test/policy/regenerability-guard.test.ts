import { describe, expect, it } from 'vitest';
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

  it('refuses the whole prune when one proposed candidate has a refusal case', () => {
    const items = base().map((item) => (item.id === 'n3' ? { ...item, flags: { negativeResult: true } } : item));
    const view = makeView({ items, tools, subgoal });
    const d = decideById(guard, view);
    expect(verdicts(guard, view)).toEqual({ c1: 'abstain', r1: 'abstain', n2: 'keep', n3: 'abstain' });
    expect(at(d, 'r1').reason).toBe('whole prune refused: 1 proposed candidate(s) not safely evictable (n3: negative result)');
  });

  it('refuses on the output of a non-idempotent call and on a candidate a pending step references', () => {
    const view = makeView({
      items: [...base(), ...callAndResult('4', 4, 'post_payment', { amount: 5 }, { content: 'nonce=8f3a' })],
      tools,
      subgoal,
      visible: { pendingSteps: [{ id: 'ps1', description: 'retry with the same nonce', references: ['n3'] }] },
    });
    const d = decideById(guard, view);
    expect(at(d, 'c1').verdict).toBe('abstain');
    expect(at(d, 'c1').reason).toContain('n3: referenced by pending step ps1');
    expect(at(d, 'c1').reason).toContain('r4: output of a non-idempotent call');
    expect(at(d, 'c1').obligationsConsulted).toEqual(['ps1']);
  });

  it('never makes a protected item eligible: a pinned proposal refuses the prune', () => {
    const view = makeView({ items: base(), tools, subgoal, visible: { pinned: ['n3'] } });
    expect(verdicts(guard, view)).toEqual({ c1: 'abstain', r1: 'abstain', n2: 'keep', n3: 'abstain' });
  });
});
