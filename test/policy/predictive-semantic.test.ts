import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contentWords,
  overlapWith,
  DEFAULT_THRESHOLD,
  lexicalPredictor,
  predictiveSemantic,
  relevance,
} from '../../src/policy/mechanisms/predictive-semantic.js';
import type { Prediction, Predictor } from '../../src/policy/mechanisms/predictive-semantic.js';
import { single } from '../../src/policy/single.js';
import { at, condition, decideById, makeView, note, obligation, result, verdicts } from './build-view.js';

const ps = condition('predictive-semantic');
const subgoal = 'Fix the DB-pool timeout in src/db/pool.ts';

describe('embedded lexical predictor', () => {
  it('splits lowercased text on non-alphanumerics, drops words shorter than 3 and stopwords', () => {
    expect([...contentWords(subgoal)].sort()).toEqual(['fix', 'pool', 'src', 'timeout']);
    // Only ASCII letters and digits form words, so a non-ASCII letter splits one.
    expect([...contentWords('The ÉTAT of things: a-b-cde')].sort()).toEqual(['cde', 'tat', 'things']);
  });

  it("scores the share of the subgoal's content words present in the item", () => {
    expect(relevance(subgoal, 'pool exhausted after TIMEOUT')).toBe(0.5);
    expect(relevance(subgoal, 'nothing related')).toBe(0);
    expect(relevance('the and for', 'anything')).toBeUndefined();
  });

  it('proposes exactly the candidates below threshold, with the score in the reason', () => {
    const view = makeView({
      items: [note('n1', 1, 'pool'), note('n2', 2, 'unrelated'), note('n3', 3, 'unrelated too')],
      subgoal,
    });
    const proposed = lexicalPredictor(0.25)(view, ['n1', 'n2'], 'gated') as ReadonlyMap<string, Prediction>;
    expect([...proposed.keys()]).toEqual(['n2']);
    expect(proposed.get('n2')).toEqual({
      reason: 'lexical relevance 0.00 to the subgoal is below threshold 0.25',
      confidence: 1,
    });
  });

  it('never scores an item withheld from the classifier, even when asked about it', () => {
    const view = makeView({
      items: [
        note('n1', 1, 'unrelated'),
        note('n2', 2, 'unrelated', { flags: { negativeResult: true } }),
        note('n3', 3, 'unrelated too'),
      ],
      subgoal,
      visible: { pinned: ['n3'] },
    });
    expect([...(lexicalPredictor()(view, ['n1', 'n2', 'n3'], 'gated') as Map<string, Prediction>).keys()]).toEqual([
      'n1',
    ]);
    // The ungated scope (the Layer A ablation) withholds only what the runtime pins or protects.
    expect([...(lexicalPredictor()(view, ['n1', 'n2', 'n3'], 'ungated') as Map<string, Prediction>).keys()]).toEqual([
      'n1',
      'n2',
    ]);
  });
});

describe('predictive-semantic (rung 4, upper-risk, no gate)', () => {
  it('is labelled upper-risk, does not consult obligations and has the default threshold', () => {
    expect(ps).toMatchObject({ layer: 'A', rung: 4, upperRisk: true, consultsObligations: false });
    expect(ps.parameters.threshold).toBe(DEFAULT_THRESHOLD);
    expect(DEFAULT_THRESHOLD).toBe(0.2);
  });

  it('removes low-relevance refusal-case items (no regenerability gate), but is never shown pinned or protected ones', () => {
    const view = makeView({
      items: [
        note('u1', 1, 'Never drop the audit table', { kind: 'constraint', origin: 'user' }),
        result('r2', 2, 'pool timeout at 30s'),
        result('r3', 3, 'exit code 137', { flags: { transientState: true } }),
        note('u4', 4, 'Use the staging cluster', { kind: 'constraint', origin: 'user' }),
        result('r5', 5, 'nothing relevant'),
      ],
      subgoal,
      visible: { pinned: ['u4'], obligations: [obligation('ob1', { itemIds: ['r5'] })] },
    });
    const d = decideById(ps, view);
    expect(verdicts(ps, view)).toEqual({ u1: 'eligible', r2: 'keep', r3: 'eligible', u4: 'keep', r5: 'keep' });
    expect(at(d, 'r3')).toMatchObject({ rule: 'predictive-semantic', rung: 4, obligationsConsulted: [] });
    expect(at(d, 'r3').reason).toBe('predicted unneeded: lexical relevance 0.00 to the subgoal is below threshold 0.2');
  });

  it('keeps an item exactly at the threshold (below, not at, is eligible)', () => {
    const view = makeView({
      items: [note('n1', 1, 'pool'), note('n2', 2, 'nothing')],
      subgoal: 'alpha bravo charlie delta pool',
    });
    expect(verdicts(ps, view)).toEqual({ n1: 'keep', n2: 'eligible' });
  });

  it('proposes nothing when the subgoal has no content words', () => {
    const view = makeView({ items: [note('n1', 1, 'anything')], subgoal: 'do it now' });
    expect(verdicts(ps, view)).toEqual({ n1: 'keep' });
  });

  it('takes its prediction through the Predictor seam', () => {
    const onlyN2: Predictor = (_view, candidates) =>
      new Map(candidates.filter((id) => id === 'n2').map((id) => [id, { reason: 'model says so', confidence: 0.9 }]));
    const injected = single(predictiveSemantic({ predictor: onlyN2 }), {
      gate: false,
      upperRisk: true,
      description: 'test',
    });
    const view = makeView({ items: [note('n1', 1, 'zzz'), note('n2', 2, 'pool timeout fix')], subgoal });
    expect(verdicts(injected, view)).toEqual({ n1: 'keep', n2: 'eligible' });
    expect(at(decideById(injected, view), 'n2').reason).toBe('predicted unneeded: model says so');
    expect(injected.parameters.predictor).toBe('injected');
  });

  it('fails closed: below the confidence threshold, or on a failure, the items it was shown are ABSTAIN', () => {
    const unsure: Predictor = (_view, candidates) =>
      new Map(candidates.map((id) => [id, { reason: 'probably stale', confidence: 0.4 }]));
    const view = makeView({
      items: [note('n1', 1, 'zzz'), note('n2', 2, 'yyy')],
      subgoal,
      visible: { pinned: ['n2'] },
    });
    const c = single(predictiveSemantic({ predictor: unsure, minConfidence: 0.5 }), {
      gate: false,
      upperRisk: true,
      description: 'test',
    });
    expect(verdicts(c, view)).toEqual({ n1: 'abstain', n2: 'keep' });
    expect(at(decideById(c, view), 'n1').reason).toBe(
      'predictor abstained: confidence 0.4 in "probably stale" is below the threshold 0.5',
    );
    const failing = single(
      predictiveSemantic({ predictor: () => ({ abstain: 'model call failed (timeout): no answer' }) }),
      { gate: false, upperRisk: true, description: 'test' },
    );
    expect(verdicts(failing, view)).toEqual({ n1: 'abstain', n2: 'keep' });
  });
});

describe('relevance found by searching the text for each wanted word', () => {
  // Pieces that make words, break them, change length when lowercased (İ, ẞ) or look like words inside others.
  const PIECES = [
    'pool',
    'POOL',
    'timeout',
    'the',
    'fix',
    'src',
    'İ',
    'ẞ',
    'é',
    '-',
    ' ',
    '\n',
    '_',
    '42',
    'a',
    'pools',
    'xpool',
  ];
  const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((p) => p.join(''));

  it('is the share of the subgoal words among the text words, the same number as splitting the text', () => {
    fc.assert(
      fc.property(text, text, (goal, body) => {
        const wanted = contentWords(goal);
        // The reference: split the text into its content words and count the wanted ones among them.
        const words = contentWords(body);
        const expected = wanted.size === 0 ? undefined : [...wanted].filter((w) => words.has(w)).length / wanted.size;
        expect(overlapWith(wanted, body)).toBe(expected);
        expect(relevance(goal, body)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
