// Held-out review G's open judgements (7 December): behaviours the current rules allow that a reader could call unsafe,
// where the ground truth does not clearly support one rule (the oracle judges a needed string by substring and a fact
// by its item, so it scores each of these removals the same way either rule would be scored). Each is an `it.fails`
// repro of the removal beside an `it` of what the rules must still allow; docs/choices.md, "Known open defects", says
// why none is changed. Judgement 4 (what the runtime recorded on a call reaches its result) is fixed:
// test/policy/held-out-call-reach.test.ts; judgements 1 (a qualified or diff-quoted restatement) and 2 (a negative
// result under declared-irrelevant repetition) in held-out-G2.test.ts.
import { describe, expect, it } from 'vitest';
import type { Eligibility } from '../../src/policy/types.js';
import { at, callAndResult, condition, decideById, makeView } from './build-view.js';

type View = ReturnType<typeof makeView>;
const V = (name: string, view: View, id: string): Eligibility => at(decideById(condition(name), view), id);

describe('judgement 3: an immutable source whose reads differ', () => {
  const src = { identity: 'pkg:lib@1.0.0/VERSION', version: 'UNKNOWN', mutable: false };
  const read = (base: string, turn: number, content: string) =>
    callAndResult(base, turn, 'read_file', { path: 'VERSION', attempt: Number(base) }, { content, source: src });
  // Immutability is a declaration that hashes nothing read (as an etag is, which pairs only on equal bytes); here the
  // later read contains the earlier text only inside a longer token, which showsAllOf counts as showing it.
  it.fails('rung 1 does not pair reads of an immutable source that show different bytes', () => {
    const view = makeView({ items: [...read('1', 1, 'version = 1'), ...read('2', 2, 'version = 12')] });
    expect(V('source-identity', view, 'r1').verdict).not.toBe('eligible');
  });
  it('allowed: equal bytes of an immutable source pair', () => {
    const view = makeView({ items: [...read('1', 1, 'version = 1'), ...read('2', 2, 'version = 1')] });
    expect(V('source-identity', view, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'source-identity' });
  });
});
