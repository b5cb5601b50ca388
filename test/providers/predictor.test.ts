// Strict reading of the predictor's answer, and what an unusable answer does to the conditions that consult it.
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../src/behaviour/model.js';
import { Obligation } from '../../src/fixture/schema.js';
import { isAbstention, predictiveSemantic, type Prediction } from '../../src/policy/mechanisms/predictive-semantic.js';
import { regenerabilityGuard } from '../../src/policy/comparators/regenerability-guard.js';
import {
  lookupPredictor,
  parsePrediction,
  preparedFor,
  preparePredictions,
  predictorRequest,
  predictorRequests,
  shownItems,
  type PreparedPrediction,
} from '../../src/providers/predictor.js';
import type { Gateway } from '../../src/providers/gateway.js';
import { answerJson } from '../../src/providers/prompts.js';
import { echoedConstraintView, makeView, note, result } from '../policy/build-view.js';
import type { PredictorScope } from '../../src/policy/predictor.js';
import { conditionsWith } from '../../src/policy/registry.js';

const view = makeView({
  items: [note('n1', 1, 'alpha'), note('n2', 2, 'beta'), note('n3', 3, 'gamma')],
  subgoal: 'ship it',
});

/** Two reads of one file with equal bytes: rung 0 removes the earlier because the later stays. */
const copy = (id: string, turn: number) =>
  result(id, turn, 'backoff_ms: 450', {
    tool: { name: 'read_file', arguments: { path: 'cfg.yaml' }, callId: `k-${id}` },
  });

/** One prune point's prepared answer under one scope, keyed as preparePredictions keys it (no call behind it). */
function preparedOne(
  v: typeof view,
  scope: PredictorScope,
  prediction: PreparedPrediction['prediction'],
): Map<string, PreparedPrediction> {
  return new Map([
    [
      `${v.fixtureId}\u0000${v.prunePoint.id}\u0000${scope}`,
      {
        fixture: v.fixtureId,
        prunePoint: v.prunePoint.id,
        scope,
        call: undefined as never,
        shown: new Set(shownItems(v, scope).map((item) => item.id)),
        prediction,
      },
    ],
  ]);
}

describe('model predictor answers', () => {
  it("a valid answer gives the named items with the model's reason", () => {
    const p = parsePrediction('{"unneeded": [{"id": "n2", "reason": "done", "confidence": 0.8}]}', view);
    expect(isAbstention(p)).toBe(false);
    expect([...(p as Map<string, Prediction>).entries()]).toEqual([
      ['n2', { reason: 'model says: done', confidence: 0.8 }],
    ]);
    expect(isAbstention(parsePrediction('```json\n{"unneeded": []}\n```', view))).toBe(false);
  });

  it.each([
    ['prose around the JSON', 'Here you go: {"unneeded": []}', /unparseable/],
    ['a wrong shape', '{"remove": ["n1"]}', /does not match the schema/],
    [
      'an extra field',
      '{"unneeded": [{"id": "n1", "reason": "x", "confidence": 0.9, "why": "y"}]}',
      /does not match the schema/,
    ],
    [
      'no confidence',
      '{"unneeded": [{"id": "n1", "reason": "x"}]}',
      /does not match the schema at "unneeded.0.confidence"/,
    ],
    [
      'a confidence out of range',
      '{"unneeded": [{"id": "n1", "reason": "x", "confidence": 1.5}]}',
      /does not match the schema/,
    ],
    ['an unknown id', '{"unneeded": [{"id": "n9", "reason": "x", "confidence": 1}]}', /"n9", which it was not shown/],
    [
      'a key given twice (which confidence holds?)',
      '{"unneeded": [{"id": "n1", "reason": "x", "confidence": 0.1, "confidence": 0.9}]}',
      /answer is not one JSON object .*appears twice in one object/,
    ],
    [
      'two lists under one key',
      '{"unneeded": [], "unneeded": [{"id": "n1", "reason": "x", "confidence": 1}]}',
      /answer is not one JSON object .*appears twice in one object/,
    ],
    [
      'a repeated id',
      '{"unneeded": [{"id": "n1", "reason": "x", "confidence": 1}, {"id": "n1", "reason": "y", "confidence": 1}]}',
      /"n1" twice/,
    ],
  ])('%s is an abstention with the reason, never a guess', (_label, text, reason) => {
    const p = parsePrediction(text, view);
    expect(isAbstention(p)).toBe(true);
    expect((p as { abstain: string }).abstain).toMatch(reason);
  });

  it('an abstaining predictor makes predictive-semantic and the guard ABSTAIN with the reason', () => {
    const abstaining = () => ({ abstain: 'model answer unparseable: nope' });
    const findings = predictiveSemantic({ predictor: abstaining }).assess(view, ['n1', 'n2']);
    expect(findings).toEqual([
      { itemId: 'n1', outcome: 'abstain', reason: 'predictor abstained: model answer unparseable: nope' },
      { itemId: 'n2', outcome: 'abstain', reason: 'predictor abstained: model answer unparseable: nope' },
    ]);
    const guard = regenerabilityGuard({ predictor: abstaining, predictorLabel: 'm' }).decide(view);
    expect(guard.map((e) => e.verdict)).toEqual(['abstain', 'abstain', 'abstain']);
  });

  it('the lookup predictor narrows a prepared answer to the candidates it is asked about', () => {
    const prepared = preparedOne(
      view,
      'gated',
      new Map([
        ['n1', { reason: 'a', confidence: 1 }],
        ['n3', { reason: 'c', confidence: 1 }],
      ]),
    );
    const p = lookupPredictor(prepared)(view, ['n2', 'n3'], 'gated');
    expect([...(p as Map<string, Prediction>).keys()]).toEqual(['n3']);
    // Asked about an item its request did not show, it abstains on the whole question rather than say nothing of it.
    const narrow = new Map([...prepared].map(([k, e]) => [k, { ...e, shown: new Set(['n1', 'n2']) }]));
    expect(lookupPredictor(narrow)(view, ['n2', 'n3'], 'gated')).toEqual({ abstain: 'the model was not shown n3' });
    expect(isAbstention(lookupPredictor(narrow)(view, ['n1', 'n2'], 'gated'))).toBe(false);
  });

  it('the request carries the versioned prompt and every item id, and omits sampling Anthropic no longer takes', () => {
    const r = predictorRequest(view, 'anthropic', 5);
    expect(r.system).toContain('Reply with exactly one JSON object');
    expect(JSON.parse(r.user).items.map((i: { id: string }) => i.id)).toEqual(['n1', 'n2', 'n3']);
    expect(r).toMatchObject({ temperature: null, seed: null });
    expect(predictorRequest(view, 'openai', 5)).toMatchObject({ temperature: 0, seed: 5 });
  });

  it('never sends a pinned, protected or (gated scope) refused item; the ungated scope withholds only pins and protections', () => {
    const v = makeView({
      items: [
        note('n1', 1, 'alpha'),
        note('n2', 2, 'beta', { flags: { transientState: true } }),
        note('n3', 3, 'secret=hunter2'),
        note('n4', 4, 'delta'),
      ],
      subgoal: 'ship it',
      visible: { pinned: ['n3'], pendingSteps: [{ id: 'ps', description: 'use delta', references: ['n4'] }] },
    });
    const ids = (scope: 'gated' | 'ungated') =>
      (JSON.parse(predictorRequest(v, 'openai', 5, scope).user) as { items: { id: string }[] }).items.map((i) => i.id);
    expect(ids('gated')).toEqual(['n1']);
    expect(ids('ungated')).toEqual(['n1', 'n2']);
    expect(predictorRequest(v, 'openai', 5, 'gated').user).not.toContain('hunter2');
    // An answer naming an item the model was not shown is unusable as a whole.
    expect(parsePrediction('{"unneeded": [{"id": "n2", "reason": "x", "confidence": 1}]}', v, 'gated')).toEqual({
      abstain: 'model answer names item "n2", which it was not shown',
    });
  });

  it("the ladders' request shows only what their evidence rules leave open: never what a removal rests on, nor what was removed", () => {
    // ra and rb are copies: rung 0 removes ra because rb stays, so neither is the predictor's; q1 and q2 are.
    const v = makeView({
      items: [copy('ra', 1), copy('rb', 2), result('q1', 3, 'unrelated listing'), note('q2', 4, 'an aside')],
      subgoal: 'ship it',
    });
    const ids = (scope: PredictorScope) =>
      (JSON.parse(predictorRequest(v, 'openai', 5, scope).user) as { items: { id: string }[] }).items.map((i) => i.id);
    expect(ids('ladder')).toEqual(['q1', 'q2']);
    expect(ids('gated')).toEqual(['ra', 'rb', 'q1', 'q2']);
    expect(parsePrediction('{"unneeded": [{"id": "rb", "reason": "x", "confidence": 1}]}', v, 'ladder')).toEqual({
      abstain: 'model answer names item "rb", which it was not shown',
    });
    // The same answers, looked up, decide as the ladder would with them: q1 removed by ladder-0-4, rb kept.
    const prepared = preparedOne(
      v,
      'ladder',
      parsePrediction('{"unneeded": [{"id": "q1", "reason": "old", "confidence": 1}]}', v, 'ladder'),
    );
    const ladder = conditionsWith({ predictor: lookupPredictor(prepared), label: 'test' }).find(
      (c) => c.name === 'ladder-0-4',
    )!;
    const d = new Map(ladder.decide(v).map((e) => [e.itemId, e]));
    expect(d.get('q1')).toMatchObject({ verdict: 'eligible', rung: 4 });
    expect(d.get('rb')).toMatchObject({ verdict: 'keep' });
  });

  it("the ladders' request never shows what the gate refuses only because of their earlier removals", () => {
    const ids = (v: typeof view) =>
      (JSON.parse(predictorRequest(v, 'openai', 5, 'ladder').user) as { items: { id: string }[] }).items.map(
        (i) => i.id,
      );
    // Rung 3 removes the constraint u: its last echo h must then stay, and is not shown; of two echoes, both are.
    expect(ids(echoedConstraintView(['h']))).toEqual(['q1']);
    expect(ids(echoedConstraintView(['h', 'h2']))).toEqual(['h', 'h2', 'q1']);
    // The gated request (the guard's, which removes nothing before asking) still shows h.
    const gated = JSON.parse(predictorRequest(echoedConstraintView(['h']), 'openai', 5, 'gated').user) as {
      items: { id: string }[];
    };
    expect(gated.items.map((i) => i.id)).toContain('h');
  });
});

describe('which requests are sent', () => {
  /** A gateway that answers every request with an empty list and records what it was asked. */
  const recording = () => {
    const asked: string[] = [];
    const gateway = {
      call: async (_request: unknown, what: string) => {
        asked.push(what);
        return { key: what, outcome: { ok: true, response: { text: '{"unneeded": []}' } }, latencyMs: 0 };
      },
    } as unknown as Gateway;
    return { asked, gateway };
  };

  it('a scope whose request would show nothing is not asked, paid for or charged; one that shows something is', async () => {
    // Only two copies: rung 0 removes ra because rb stays, so the ladders leave nothing for the predictor.
    const empty = makeView({ items: [copy('ra', 1), copy('rb', 2)], subgoal: 'ship it' });
    const some = makeView({ items: [copy('ra', 1), copy('rb', 2), note('q1', 3, 'an aside')], subgoal: 'ship it' });
    expect(predictorRequests([empty], 'openai', 5, ['gated', 'ladder'])).toHaveLength(1);
    expect(predictorRequests([some], 'openai', 5, ['gated', 'ladder'])).toHaveLength(2);
    const { asked, gateway } = recording();
    const { prepared } = await preparePredictions([empty], gateway, 'openai', 5, 1, ['gated', 'ladder']);
    expect(asked).toEqual(['predictor (gated), test-fixture at pp']);
    expect(preparedFor(prepared, empty, 'ladder')).toMatchObject({ call: null, prediction: new Map() });
    // The ladders still decide: nothing is predicted, so nothing the rules left is removed by prediction.
    const ladder = conditionsWith({ predictor: lookupPredictor(prepared), label: 'test' }).find(
      (c) => c.name === 'ladder-0-4',
    )!;
    expect(ladder.decide(empty).map((e) => e.verdict)).toEqual(['eligible', 'keep']);
    const again = recording();
    await preparePredictions([some], again.gateway, 'openai', 5, 1, ['gated', 'ladder']);
    expect(again.asked).toEqual(['predictor (gated), test-fixture at pp', 'predictor (ladder), test-fixture at pp']);
  });
});

describe('reader answers', () => {
  const o = Obligation.parse({
    id: 'o1',
    description: 'd',
    neededAtTurn: 3,
    needs: { strings: ['exit code 137'] },
    probe: { question: 'How did it end?', expectedAnswer: 'killed with exit code 137' },
  });
  it('is graded by the required strings, case-insensitively', () => {
    expect(gradeAnswer('It was killed: Exit Code 137.', o)).toBe(true);
    expect(gradeAnswer('It was killed.', o)).toBe(false);
  });
  it('reads only one JSON value (optionally fenced)', () => {
    expect(answerJson('{"answer": "x"}')).toEqual({ ok: true, value: { answer: 'x' } });
    expect(answerJson('answer: x').ok).toBe(false);
  });
});
