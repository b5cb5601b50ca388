// The model-backed predictor. Model calls are asynchronous and conditions are pure and synchronous, so the work is
// split: `preparePredictions` asks the model once per prune point and scope before any condition runs, and
// `lookupPredictor` hands the conditions a pure Predictor that answers from those prepared answers. Each scope has
// one request per prune point: regenerability-guard's (gated), the ladders' (ladder-0-3 and ladder-0-4 share it: only
// what their evidence rules leave open, so the model is never shown what a removal rests on), and the ungated Layer A
// ablation's, which may show the classifier the refusal-case items the others withhold. Pinned and protected items
// are never in any request.
import { z } from 'zod';
import type { PolicyView } from '../fixture/view.js';
import {
  classifierCandidates,
  type Prediction,
  type Predictor,
  type PredictorAbstention,
  type PredictorScope,
} from '../policy/mechanisms/predictive-semantic.js';
import { conservativePredictorStep } from '../policy/conservative.js';
import { listIds } from '../policy/eligibility.js';
import { frozenMemo } from '../fixture/memo.js';
import type { CallResult, Gateway } from './gateway.js';
import { runUntilStopped, type BudgetStop } from './gateway.js';
import { answerJson, prompt, PROMPT_VERSIONS } from './prompts.js';
import { sampling, type ChatRequest, type RemoteProvider } from './types.js';

/** Room for a list of ids with a sentence each on the largest canonical contexts. */
export const PREDICTOR_MAX_TOKENS = 2048;

const Answer = z.strictObject({
  unneeded: z.array(
    z.strictObject({ id: z.string().min(1), reason: z.string(), confidence: z.number().min(0).max(1) }),
  ),
});

export interface PreparedPrediction {
  readonly fixture: string;
  readonly prunePoint: string;
  readonly scope: PredictorScope;
  /** Null when the request would have shown no item: nothing was asked, paid for or charged. */
  readonly call: CallResult | null;
  /** The items the request showed the model: the only ones its answer can speak for. */
  readonly shown: ReadonlySet<string>;
  /** Predicted-unneeded items with the model's reason and confidence, or why the answer could not be used. */
  readonly prediction: ReadonlyMap<string, Prediction> | PredictorAbstention;
}

/**
 * The items a request under `scope` shows the model: never a pinned or protected one, nor (gated) a refused one; for
 * the ladders, only what their evidence rules leave open, as ladder-0-4's predictor step asks the embedded one
 * (ladder-0-3 asks a subset: not what an earlier rule abstained on; one answer serves both).
 */
export function shownItems(view: PolicyView, scope: PredictorScope): PolicyView['items'] {
  const byScope = shownIn(view);
  let items = byScope.get(scope);
  if (!items) {
    const { current, candidates } =
      scope === 'ladder' ? conservativePredictorStep(view) : { current: view, candidates: view.items.map((i) => i.id) };
    const shown = new Set(classifierCandidates(current, candidates, scope));
    byScope.set(scope, (items = current.items.filter((item) => shown.has(item.id))));
  }
  return items;
}

/**
 * Per (frozen) view, what each scope's request shows: the request, its parsing, the batch filler, the estimate and
 * each consumer's charge all ask, and the ladders' answer runs rungs 0 to 3 to find it.
 */
const shownIn = frozenMemo((_view: PolicyView) => new Map<PredictorScope, PolicyView['items']>());

export function predictorRequest(
  view: PolicyView,
  provider: RemoteProvider,
  seed: number,
  scope: PredictorScope = 'gated',
): ChatRequest {
  const payload = {
    subgoal: view.prunePoint.subgoal,
    obligations: view.visible.obligations.map((o) => o.description),
    pendingSteps: view.visible.pendingSteps.map((s) => s.description),
    items: shownItems(view, scope).map((item) => ({
      id: item.id,
      kind: item.kind,
      origin: item.origin,
      turn: item.turn,
      tool: item.tool?.name ?? null,
      content: item.content,
    })),
  };
  return {
    system: prompt(PROMPT_VERSIONS.predictor),
    user: JSON.stringify(payload),
    maxTokens: PREDICTOR_MAX_TOKENS,
    ...sampling(provider, 0, seed),
    epoch: 0,
  };
}

/**
 * Strict reading of the answer: ids it was not shown, repeated ids or any other shape make the whole answer
 * unusable. A confidence below the consumer's threshold is judged where the threshold lives (`consult`).
 */
export function parsePrediction(
  text: string,
  view: PolicyView,
  scope: PredictorScope = 'gated',
): ReadonlyMap<string, Prediction> | PredictorAbstention {
  const json = answerJson(text);
  if (!json.ok) return { abstain: `model answer unparseable: ${json.reason}` };
  const parsed = Answer.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      abstain: `model answer does not match the schema at "${issue.path.join('.') || '(root)'}": ${issue.message}`,
    };
  }
  const known = new Set(shownItems(view, scope).map((i) => i.id));
  const out = new Map<string, Prediction>();
  for (const { id, reason, confidence } of parsed.data.unneeded) {
    if (!known.has(id)) return { abstain: `model answer names item "${id}", which it was not shown` };
    if (out.has(id)) return { abstain: `model answer names item "${id}" twice` };
    out.set(id, { reason: `model says: ${reason.trim() || '(no reason given)'}`, confidence });
  }
  return out;
}

/**
 * The predictor requests `preparePredictions` sends for these views and scopes, in its order: none for a prune point
 * whose request would show no item. The batch filler and the cost estimate read the same list.
 */
export function predictorRequests(
  views: readonly PolicyView[],
  provider: RemoteProvider,
  seed: number,
  scopes: readonly PredictorScope[],
): ChatRequest[] {
  return scopes.flatMap((scope) =>
    // The ladders' request often shows nothing at all.
    views
      .filter((view) => shownItems(view, scope).length > 0)
      .map((view) => predictorRequest(view, provider, seed, scope)),
  );
}

const pointKey = (fixture: string, prunePoint: string, scope: PredictorScope): string =>
  `${fixture}\u0000${prunePoint}\u0000${scope}`;

/** Every prune point's prediction under each scope asked for; after a budget stop, those that completed, with the stop. */
export async function preparePredictions(
  views: readonly PolicyView[],
  gateway: Gateway,
  provider: RemoteProvider,
  seed: number,
  concurrency: number,
  scopes: readonly PredictorScope[] = ['gated'],
): Promise<{ prepared: Map<string, PreparedPrediction>; stop: BudgetStop | null }> {
  const tasks = scopes.flatMap((scope) =>
    views.map((view) => async (): Promise<PreparedPrediction> => {
      const shown = new Set(shownItems(view, scope).map((item) => item.id));
      const point = { fixture: view.fixtureId, prunePoint: view.prunePoint.id, scope, shown };
      if (shown.size === 0) return { ...point, call: null, prediction: new Map() };
      const call = await gateway.call(
        predictorRequest(view, provider, seed, scope),
        `predictor (${scope}), ${view.fixtureId} at ${view.prunePoint.id}`,
      );
      const prediction = call.outcome.ok
        ? parsePrediction(call.outcome.response.text, view, scope)
        : { abstain: `model call failed (${call.outcome.kind}): ${call.outcome.message}` };
      return { ...point, call, prediction };
    }),
  );
  const { done, stop } = await runUntilStopped(tasks, concurrency);
  return { prepared: new Map(done.map((p) => [pointKey(p.fixture, p.prunePoint, p.scope), p])), stop };
}

export function preparedFor(
  prepared: ReadonlyMap<string, PreparedPrediction>,
  view: PolicyView,
  scope: PredictorScope = 'gated',
): PreparedPrediction | undefined {
  return prepared.get(pointKey(view.fixtureId, view.prunePoint.id, scope));
}

/**
 * A pure Predictor over prepared answers; a ladder's reduced view just narrows the candidates. Asked about an item
 * its request did not show, it abstains on the whole question: silence about an unseen item is no prediction, and
 * taking it for one would keep or remove that item on nothing (the request and the asking consumer disagree).
 */
export function lookupPredictor(prepared: ReadonlyMap<string, PreparedPrediction>): Predictor {
  return (view, candidates, scope) => {
    const entry = preparedFor(prepared, view, scope);
    if (!entry)
      throw new Error(`internal: no prepared ${scope} prediction for ${view.fixtureId} at ${view.prunePoint.id}`);
    const unseen = candidates.filter((id) => !entry.shown.has(id));
    if (unseen.length > 0) return { abstain: `the model was not shown ${listIds(unseen)}` };
    if (!(entry.prediction instanceof Map)) return entry.prediction;
    const wanted = new Set(candidates);
    const out = new Map<string, Prediction>();
    for (const item of view.items) {
      const p = entry.prediction.get(item.id);
      if (p !== undefined && wanted.has(item.id)) out.set(item.id, p);
    }
    return out;
  };
}
