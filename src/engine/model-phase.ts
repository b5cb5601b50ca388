// The study's model layer, built before the pure conditions run: the predictor's calls (prepared once and looked up
// by the consumers), the reader (structural, or a model answering probes in a collecting pass and a final pass),
// and the budget stop that writes what completed. The command line only parses flags into a ModelPlan
// (../cli/models.ts); everything here would serve any other front end unchanged.
import { resolve } from 'node:path';
import type { TokenCounter } from '../accounting/tokens.js';
import type { Manifest, ModelCalls } from '../artifacts/schema.js';
import {
  collectingReader,
  modelReader,
  prepareAnswers,
  type Collected,
  type ModelReaderSetup,
} from '../behaviour/model.js';
import { structuralReader } from '../behaviour/structural.js';
import type { StudyModels } from '../behaviour/study.js';
import { writeAtomic } from '../files/atomic.js';
import { relativePath } from '../fixture/canonical.js';
import type { PolicyView } from '../fixture/view.js';
import { conditionsWith, PREDICTOR_CONSUMERS, predictorScopeOf } from '../policy/registry.js';
import type { PredictorScope } from '../policy/mechanisms/predictive-semantic.js';
import type { Condition } from '../policy/types.js';
import { CallCache, type CacheMode } from '../providers/cache.js';
import { EMBEDDED_ROLES, modelRoles } from '../providers/embedded.js';
import type { BudgetStop, Gateway } from '../providers/gateway.js';
import { batchBackendFor, gatewayFor } from '../providers/connect.js';
import {
  preparedFor,
  preparePredictions,
  lookupPredictor,
  predictorRequest,
  predictorRequests,
} from '../providers/predictor.js';
import { PROMPT_VERSIONS } from '../providers/prompts.js';
import { fillFromBatch } from '../providers/batch.js';
import { realSleep } from '../providers/retry.js';
import type { ChatRequest, ProviderName, RemoteProvider } from '../providers/types.js';

/** What the model flags decided: who plays the predictor and the reader, and how calls are made, cached and paid. */
export interface ModelPlan {
  readonly provider: ProviderName;
  readonly model: string | null;
  readonly reader: 'embedded' | 'model';
  readonly epochs: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly maxCostUsd: number | null;
  readonly cacheMode: CacheMode;
  readonly cacheDir: string;
  readonly resume: boolean;
  readonly estimateCost: boolean;
  /** Send the calls through the provider's batch interface (../providers/batch.ts) before the phase runs. */
  readonly batch: boolean;
  /** How long to wait between two polls of a batch. */
  readonly batchPollMs: number;
  readonly apiKey: string | null;
  readonly baseURL: string | undefined;
}

/** Where relative paths in a budget-stop report are taken from (the command line's working directory). */
export interface WorkingDirectory {
  readonly cwd: string;
  /** Where a batch's progress lines go. */
  readonly stderr?: (text: string) => void;
}

export function usesModels(plan: ModelPlan): boolean {
  return plan.provider !== 'embedded';
}

/** Model calls per role, as the manifest records them for each remote role. */
export type RoleCalls = Record<'predictor' | 'reader', ModelCalls>;

/** The roles the manifest names; with `calls`, each remote role also carries its call and failure counts. */
export function rolesOf(plan: ModelPlan, calls?: RoleCalls): Manifest['models'] {
  if (plan.provider === 'embedded') return EMBEDDED_ROLES;
  const remote = { provider: plan.provider, model: plan.model };
  const roles = modelRoles(remote, plan.reader === 'model' ? remote : { provider: 'embedded', model: null });
  return calls ? roles.map((r) => (r.provider === 'embedded' ? r : { ...r, calls: { ...calls[r.role] } })) : roles;
}

export interface Sleeper {
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Fills the cache from the provider's batch interface, for the requests one role is about to make. */
function batchFiller(
  plan: ModelPlan,
  provider: RemoteProvider,
  io: WorkingDirectory,
  sleeper: Sleeper,
): ((role: string, requests: readonly ChatRequest[]) => Promise<void>) | undefined {
  if (!plan.batch) return undefined;
  const backend = batchBackendFor({ ...plan, provider, model: plan.model! });
  const cache = new CallCache(plan.cacheDir);
  return async (role, requests) => {
    await fillFromBatch(
      {
        backend,
        cache,
        role,
        pollMs: plan.batchPollMs,
        sleep: sleeper.sleep ?? realSleep,
        progress: io.stderr ?? (() => undefined),
      },
      requests,
    );
  };
}

export const isConsumer = (c: Condition): boolean => PREDICTOR_CONSUMERS.includes(c.name);

/** The predictor requests the selected consumers need: one per scope, each shared by its consumers. */
export function scopesOf(selected: readonly Condition[]): PredictorScope[] {
  const scopes = selected.flatMap((c) => predictorScopeOf(c.name) ?? []);
  return (['gated', 'ladder', 'ungated'] as const).filter((scope) => scopes.includes(scope));
}

/** The conditions to run: the selected ones, the predictor consumers rebuilt around an injected predictor. */
function swapConsumers(selected: readonly Condition[], replacements: readonly Condition[]): Condition[] {
  return selected.map((c) => (isConsumer(c) ? (replacements.find((r) => r.name === c.name) ?? c) : c));
}

/** One pass of the pure study; `final` is false for a model reader's collecting pass, whose output is discarded. */
export type StudyPass<T> = (conditions: readonly Condition[], models: StudyModels, final: boolean) => T;

/** Why and where --max-cost-usd stopped a run, and which selected conditions that left unfinished. */
export interface BudgetStopReport {
  readonly phase: 'predictor' | 'reader';
  readonly detail: string;
  readonly completed: number;
  readonly total: number;
  /** The cache folder, relative to the working directory. */
  readonly cacheDir: string;
  /** Selected conditions not written, in selection order (each needs a call that was not made). */
  readonly missing: readonly string[];
}

/** What a run gives: the final pass's value (absent when a budget stop left no condition complete), and the stop. */
export interface StudyOutcome<T> {
  readonly value: T | undefined;
  readonly stop: BudgetStopReport | null;
}

export interface PreparedStudy {
  /** Runs the pure study with the prepared model layer (twice for a model reader: collect, call, answer). */
  readonly run: <T>(runStudy: StudyPass<T>) => Promise<StudyOutcome<T>>;
  readonly gateway: Gateway | undefined;
  /** Calls per role so far: the predictor's all finish before any reader call starts. Undefined with no gateway. */
  readonly calls: () => RoleCalls | undefined;
}

/**
 * The asynchronous phase: the predictor's calls (once per prune point and scope, shared by that scope's consumers),
 * then the study itself with a lookup predictor. A budget stop leaves every finished call in the cache and a progress note, and the
 * final pass then runs only the conditions whose every call completed; the caller writes them as an incomplete run.
 */
export async function prepareStudy(
  plan: ModelPlan,
  selected: readonly Condition[],
  views: readonly PolicyView[],
  tokens: TokenCounter,
  seed: number,
  io: WorkingDirectory,
  sleeper: Sleeper = {},
): Promise<PreparedStudy> {
  if (!usesModels(plan)) {
    return {
      gateway: undefined,
      calls: () => undefined,
      run: async (runStudy) => ({ value: runStudy(selected, { reader: structuralReader() }, true), stop: null }),
    };
  }
  const provider = plan.provider as RemoteProvider;
  // A batch fills the cache first; the phase then serves what it stored (a batched call that failed is sent again).
  const gateway = gatewayFor(
    { ...plan, provider, model: plan.model!, resume: plan.resume || plan.batch },
    tokens,
    seed,
    sleeper.sleep,
  );
  const report = (
    phase: BudgetStopReport['phase'],
    stop: BudgetStop,
    complete: readonly Condition[],
  ): BudgetStopReport => {
    writeAtomic(
      resolve(plan.cacheDir, 'progress.json'),
      `${JSON.stringify(
        {
          stoppedBy: 'budget',
          phase,
          completed: stop.completed,
          total: stop.total,
          maxCostUsd: plan.maxCostUsd,
          spentUsd: gateway.spentUsd,
          provider,
          model: plan.model,
          written: complete.map((c) => c.name),
        },
        null,
        2,
      )}\n`,
    );
    const done = new Set(complete.map((c) => c.name));
    return {
      phase,
      detail: stop.cause.message,
      completed: stop.completed,
      total: stop.total,
      cacheDir: relativePath(plan.cacheDir, io.cwd),
      missing: selected.filter((c) => !done.has(c.name)).map((c) => c.name),
    };
  };
  const batch = batchFiller(plan, provider, io, sleeper);
  let conditions: Condition[] = [...selected];
  let predictorCharge: StudyModels['predictorCharge'];
  let predictorStop: BudgetStop | null = null;
  if (selected.some(isConsumer)) {
    await batch?.('predictor', predictorRequests(views, provider, seed, scopesOf(selected)));
    const { prepared, stop } = await preparePredictions(
      views,
      gateway,
      provider,
      seed,
      plan.concurrency,
      scopesOf(selected),
    );
    predictorStop = stop;
    const label = `${gateway.label}:${PROMPT_VERSIONS.predictor}`;
    // A consumer needs the prediction of every prune point; after a stop some are missing, so no consumer can run.
    conditions = stop
      ? selected.filter((c) => !isConsumer(c))
      : swapConsumers(selected, conditionsWith({ predictor: lookupPredictor(prepared), label }));
    predictorCharge = (condition, view) => {
      const scope = predictorScopeOf(condition);
      if (!scope) return undefined;
      const p = preparedFor(prepared, view, scope);
      // A point whose request would have shown nothing was not asked: nothing to charge.
      if (!p?.call) return undefined;
      return {
        provider,
        model: gateway.model,
        call: p.call,
        failed: !(p.prediction instanceof Map),
        request: predictorRequest(view, provider, seed, scope),
      };
    };
  }
  // Every predictor call has finished here and no reader call has started, so the split by role is exact.
  const predictorCalls: ModelCalls = { finished: gateway.stats.finished, failed: gateway.stats.failed };
  const calls = (): RoleCalls => ({
    predictor: predictorCalls,
    reader: {
      finished: gateway.stats.finished - predictorCalls.finished,
      failed: gateway.stats.failed - predictorCalls.failed,
    },
  });
  const run = async <T>(runStudy: StudyPass<T>): Promise<StudyOutcome<T>> => {
    const final = (complete: readonly Condition[], models: StudyModels): T | undefined =>
      complete.length > 0 ? runStudy(complete, models, true) : undefined;
    if (plan.reader !== 'model') {
      const models = { reader: structuralReader(), predictorCharge };
      return {
        value: final(conditions, models),
        stop: predictorStop && report('predictor', predictorStop, conditions),
      };
    }
    // With a model reader every condition makes reader calls, none of which a stopped run may start.
    if (predictorStop) return { value: undefined, stop: report('predictor', predictorStop, []) };
    const setup: ModelReaderSetup = { gateway, provider, epochs: plan.epochs, seed };
    const collected = new Map<string, Collected>();
    runStudy(conditions, { reader: collectingReader(setup, collected), predictorCharge }, false);
    await batch?.(
      'reader',
      [...collected.values()].map((c) => c.request),
    );
    const { answers, stop } = await prepareAnswers(collected, gateway, plan.concurrency);
    const reader = modelReader(setup, answers);
    if (!stop) return { value: final(conditions, { reader, predictorCharge }), stop: null };
    // Which conditions the completed calls suffice for: collect each condition's own requests and look them up.
    const complete = conditions.filter((c) => {
      const own = new Map<string, Collected>();
      runStudy([c], { reader: collectingReader(setup, own), predictorCharge }, false);
      return [...own.keys()].every((key) => answers.has(key));
    });
    return { value: final(complete, { reader, predictorCharge }), stop: report('reader', stop, complete) };
  };
  return { gateway, calls, run };
}
