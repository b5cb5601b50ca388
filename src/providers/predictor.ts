// The model-backed predictor. Model calls are asynchronous and conditions are pure and synchronous, so the work is
// split: `preparePredictions` asks the model once per prune point (full context, every item a candidate) before any
// condition runs, and `lookupPredictor` hands the conditions a pure Predictor that answers from those prepared
// answers. predictive-semantic, regenerability-guard and the ladders then see one and the same prediction.
import { z } from 'zod';
import type { PolicyView } from '../fixture/view.js';
import type { Predictor, PredictorAbstention } from '../policy/mechanisms/predictive-semantic.js';
import type { CallResult, Gateway } from './gateway.js';
import { runUntilStopped, type BudgetStop } from './gateway.js';
import { answerJson, prompt, PROMPT_VERSIONS } from './prompts.js';
import { sampling, type ChatRequest, type RemoteProvider } from './types.js';

/** Room for a list of ids with a sentence each on the largest canonical contexts. */
export const PREDICTOR_MAX_TOKENS = 2048;

const Answer = z.strictObject({
  unneeded: z.array(z.strictObject({ id: z.string().min(1), reason: z.string() })),
});

export interface PreparedPrediction {
  readonly fixture: string;
  readonly prunePoint: string;
  readonly call: CallResult;
  /** Predicted-unneeded items with the model's reason, or why the answer could not be used. */
  readonly prediction: ReadonlyMap<string, string> | PredictorAbstention;
}

export function predictorRequest(view: PolicyView, provider: RemoteProvider, seed: number): ChatRequest {
  const payload = {
    subgoal: view.prunePoint.subgoal,
    obligations: view.visible.obligations.map((o) => o.description),
    pendingSteps: view.visible.pendingSteps.map((s) => s.description),
    items: view.items.map((item) => ({
      id: item.id, kind: item.kind, origin: item.origin, turn: item.turn, tool: item.tool?.name ?? null, content: item.content,
    })),
  };
  return { system: prompt(PROMPT_VERSIONS.predictor), user: JSON.stringify(payload), maxTokens: PREDICTOR_MAX_TOKENS, ...sampling(provider, 0, seed), epoch: 0 };
}

/** Strict reading of the answer: unknown ids, repeated ids or any other shape make the whole answer unusable. */
export function parsePrediction(text: string, view: PolicyView): ReadonlyMap<string, string> | PredictorAbstention {
  const json = answerJson(text);
  if (!json.ok) return { abstain: `model answer unparseable: ${json.reason}` };
  const parsed = Answer.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { abstain: `model answer does not match the schema at "${issue.path.join('.') || '(root)'}": ${issue.message}` };
  }
  const known = new Set(view.items.map((i) => i.id));
  const out = new Map<string, string>();
  for (const { id, reason } of parsed.data.unneeded) {
    if (!known.has(id)) return { abstain: `model answer names item "${id}", which is not in context` };
    if (out.has(id)) return { abstain: `model answer names item "${id}" twice` };
    out.set(id, `model says: ${reason.trim() || '(no reason given)'}`);
  }
  return out;
}

const pointKey = (fixture: string, prunePoint: string): string => `${fixture}\u0000${prunePoint}`;

/** Every prune point's prediction; after a budget stop, those that completed, with the stop. */
export async function preparePredictions(views: readonly PolicyView[], gateway: Gateway, provider: RemoteProvider,
  seed: number, concurrency: number): Promise<{ prepared: Map<string, PreparedPrediction>; stop: BudgetStop | null }> {
  const tasks = views.map((view) => async (): Promise<PreparedPrediction> => {
    const call = await gateway.call(predictorRequest(view, provider, seed), `predictor, ${view.fixtureId} at ${view.prunePoint.id}`);
    const prediction = call.outcome.ok
      ? parsePrediction(call.outcome.response.text, view)
      : { abstain: `model call failed (${call.outcome.kind}): ${call.outcome.message}` };
    return { fixture: view.fixtureId, prunePoint: view.prunePoint.id, call, prediction };
  });
  const { done, stop } = await runUntilStopped(tasks, concurrency);
  return { prepared: new Map(done.map((p) => [pointKey(p.fixture, p.prunePoint), p])), stop };
}

export function preparedFor(prepared: ReadonlyMap<string, PreparedPrediction>, view: PolicyView): PreparedPrediction | undefined {
  return prepared.get(pointKey(view.fixtureId, view.prunePoint.id));
}

/** A pure Predictor over prepared answers; a ladder's reduced view just narrows the candidates. */
export function lookupPredictor(prepared: ReadonlyMap<string, PreparedPrediction>): Predictor {
  return (view, candidates) => {
    const entry = preparedFor(prepared, view);
    if (!entry) throw new Error(`internal: no prepared prediction for ${view.fixtureId} at ${view.prunePoint.id}`);
    if (!(entry.prediction instanceof Map)) return entry.prediction;
    const wanted = new Set(candidates);
    const out = new Map<string, string>();
    for (const item of view.items) {
      const why = entry.prediction.get(item.id);
      if (why !== undefined && wanted.has(item.id)) out.set(item.id, why);
    }
    return out;
  };
}
