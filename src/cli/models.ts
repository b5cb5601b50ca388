// The model flags of `experiment`: parsed and checked before anything runs, then turned into the study's model
// layer (a prepared predictor, a reader) by an asynchronous phase that happens before the pure conditions run.
import { resolve } from 'node:path';
import { TOKENIZER, type TokenCounter } from '../accounting/tokens.js';
import type { Manifest, ModelCalls } from '../artifacts/schema.js';
import { collectingReader, modelReader, prepareAnswers, READER_MAX_TOKENS, readerRequest, type Collected, type ModelReaderSetup } from '../behaviour/model.js';
import { fullContext } from '../behaviour/measure.js';
import { structuralReader } from '../behaviour/structural.js';
import type { StudyModels } from '../behaviour/study.js';
import { usage } from '../errors.js';
import { writeAtomic } from '../files/atomic.js';
import { relativePath } from '../fixture/canonical.js';
import type { PrunePoint } from '../fixture/schema.js';
import type { PolicyView } from '../fixture/view.js';
import { conditionsWith, PREDICTOR_CONSUMERS, predictorScopeOf } from '../policy/registry.js';
import type { PredictorScope } from '../policy/mechanisms/predictive-semantic.js';
import type { Condition } from '../policy/types.js';
import { anthropicClient } from '../providers/anthropic.js';
import { Budget } from '../providers/budget.js';
import { CACHE_MODES, CallCache, type CacheMode } from '../providers/cache.js';
import { EMBEDDED_ROLES, modelRoles } from '../providers/embedded.js';
import { BudgetStop, Gateway, requestTokens } from '../providers/gateway.js';
import { openaiClient } from '../providers/openai.js';
import { preparedFor, preparePredictions, lookupPredictor, predictorRequest, PREDICTOR_MAX_TOKENS } from '../providers/predictor.js';
import { hasRates, priceOf, pricingTable, PRICING_FILE, ratedUsd, type Price } from '../providers/pricing.js';
import { PROMPT_VERSIONS } from '../providers/prompts.js';
import { DEFAULT_RETRY, realSleep } from '../providers/retry.js';
import { PROVIDERS, type ChatRequest, type ProviderName, type RemoteProvider } from '../providers/types.js';
import { choiceFlag, integerFlag } from './args.js';
import type { CliIO } from './io.js';

export const MODEL_FLAGS = {
  provider: { type: 'string' },
  model: { type: 'string' },
  reader: { type: 'string' },
  concurrency: { type: 'string' },
  'max-cost-usd': { type: 'string' },
  resume: { type: 'boolean' },
  'llm-cache': { type: 'string' },
  'cache-dir': { type: 'string' },
  epochs: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'estimate-cost': { type: 'boolean' },
} as const;

export const MODEL_DEFAULTS = { provider: 'embedded', reader: 'embedded', concurrency: 4, llmCache: 'record', cacheDir: '.llm-cache', epochs: 1, timeoutMs: 60_000 } as const;

export const MODEL_HELP = `  --provider P          embedded (default, offline), openai or anthropic: who plays the predictor (and reader)
  --model ID            the model id (needed for openai and anthropic)
  --reader R            embedded (default: the structural reader) or model (probes answered by --provider)
  --epochs N            model reader: answer every probe N times, each epoch its own recorded call (default 1);
                        openai: temperature 0.7, seeds seed..seed+N-1; anthropic takes neither, so its epochs
                        differ only by the provider's default sampling (recorded as temperature and seeds null)
  --concurrency N       model calls in flight at once (default ${MODEL_DEFAULTS.concurrency})
  --timeout-ms N        per-request timeout (default ${MODEL_DEFAULTS.timeoutMs}); timeouts, 429 and 5xx are retried
  --max-cost-usd X      stop cleanly before a call would take this invocation's spend past X; the conditions
                        already complete are written to --out marked incomplete (INCOMPLETE.md), exit 1
  --llm-cache M         record (default: call and store), replay (stored calls only, no network), off
  --cache-dir DIR       where calls are stored (default ${MODEL_DEFAULTS.cacheDir}/)
  --resume              with record: reuse every stored successful call instead of calling again (finishes a
                        budget-stopped run and replaces its incomplete output)
  --estimate-cost       print what the model calls would cost (tokenizer counts, pricing table); calls nothing
`;

type Flags = { [K in keyof typeof MODEL_FLAGS]?: (typeof MODEL_FLAGS)[K]['type'] extends 'boolean' ? boolean : string };

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
  readonly apiKey: string | null;
  readonly baseURL: string | undefined;
}

const KEY_VARIABLE: Record<RemoteProvider, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };
const URL_VARIABLE: Record<RemoteProvider, string> = { openai: 'OPENAI_BASE_URL', anthropic: 'ANTHROPIC_BASE_URL' };

function positive(flag: string, text: string | undefined, fallback: number): number {
  const n = integerFlag(flag, text, fallback);
  if (n < 1) throw usage('PL_USAGE_BAD_VALUE', flag, text ?? String(n), 'a positive integer');
  return n;
}

export function parseModelFlags(flags: Flags, io: CliIO): ModelPlan {
  const provider = choiceFlag('--provider', flags.provider, PROVIDERS, MODEL_DEFAULTS.provider);
  const reader = choiceFlag('--reader', flags.reader, ['embedded', 'model'] as const, MODEL_DEFAULTS.reader);
  const cacheMode = choiceFlag('--llm-cache', flags['llm-cache'], CACHE_MODES, MODEL_DEFAULTS.llmCache);
  let maxCostUsd: number | null = null;
  const cost = flags['max-cost-usd'];
  if (cost !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(cost)) throw usage('PL_USAGE_BAD_VALUE', '--max-cost-usd', cost, 'a non-negative amount in USD, such as 2.50');
    maxCostUsd = Number(cost);
  }
  if (reader === 'model' && provider === 'embedded') throw usage('PL_USAGE_READER_NEEDS_PROVIDER');
  const model = flags.model ?? null;
  let apiKey: string | null = null;
  let baseURL: string | undefined;
  if (provider !== 'embedded') {
    if (!model) throw usage('PL_USAGE_MODEL_MISSING', provider);
    apiKey = io.env?.[KEY_VARIABLE[provider]] || null;
    baseURL = io.env?.[URL_VARIABLE[provider]] || undefined;
    // Replay and estimates reach no server, so they need no key.
    if (!apiKey && cacheMode !== 'replay' && !flags['estimate-cost']) throw usage('PL_USAGE_KEY_MISSING', provider, KEY_VARIABLE[provider]);
    if (maxCostUsd !== null && !hasRates(priceOf(provider, model))) {
      throw usage('PL_USAGE_BUDGET_UNPRICED', `${provider}/${model}`, relativePath(PRICING_FILE, io.cwd));
    }
  }
  return {
    provider, model, reader, cacheMode, maxCostUsd, apiKey, baseURL,
    epochs: positive('--epochs', flags.epochs, MODEL_DEFAULTS.epochs),
    concurrency: positive('--concurrency', flags.concurrency, MODEL_DEFAULTS.concurrency),
    timeoutMs: positive('--timeout-ms', flags['timeout-ms'], MODEL_DEFAULTS.timeoutMs),
    cacheDir: resolve(io.cwd, flags['cache-dir'] ?? MODEL_DEFAULTS.cacheDir),
    resume: flags.resume ?? false,
    estimateCost: flags['estimate-cost'] ?? false,
  };
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

function gatewayFor(plan: ModelPlan, tokens: TokenCounter, seed: number, sleeper: Sleeper): Gateway {
  const provider = plan.provider as RemoteProvider;
  const model = plan.model!;
  const config = { model, apiKey: plan.apiKey ?? '', baseURL: plan.baseURL, timeoutMs: plan.timeoutMs };
  return new Gateway({
    provider, model,
    client: plan.cacheMode === 'replay' ? undefined : provider === 'openai' ? openaiClient(config) : anthropicClient(config),
    mode: plan.cacheMode,
    cache: plan.cacheMode === 'off' ? undefined : new CallCache(plan.cacheDir),
    resume: plan.resume,
    budget: new Budget(plan.maxCostUsd),
    price: priceOf(provider, model),
    retry: { ...DEFAULT_RETRY, seed: String(seed), sleep: sleeper.sleep ?? realSleep },
    tokens,
    secrets: plan.apiKey ? [plan.apiKey] : [],
    clock: () => performance.now(),
  });
}

const isConsumer = (c: Condition): boolean => PREDICTOR_CONSUMERS.includes(c.name);

/** The predictor requests the selected consumers need: one per scope, each shared by its consumers. */
function scopesOf(selected: readonly Condition[]): PredictorScope[] {
  const scopes = selected.flatMap((c) => predictorScopeOf(c.name) ?? []);
  return (['gated', 'ungated'] as const).filter((scope) => scopes.includes(scope));
}

/** The conditions to run: the selected ones, the predictor consumers rebuilt around an injected predictor. */
function swapConsumers(selected: readonly Condition[], replacements: readonly Condition[]): Condition[] {
  return selected.map((c) => (isConsumer(c) ? replacements.find((r) => r.name === c.name) ?? c : c));
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
export async function prepareStudy(plan: ModelPlan, selected: readonly Condition[], views: readonly PolicyView[],
  tokens: TokenCounter, seed: number, io: CliIO, sleeper: Sleeper = {}): Promise<PreparedStudy> {
  if (!usesModels(plan)) {
    return { gateway: undefined, calls: () => undefined, run: async (runStudy) => ({ value: runStudy(selected, { reader: structuralReader() }, true), stop: null }) };
  }
  const gateway = gatewayFor(plan, tokens, seed, sleeper);
  const provider = plan.provider as RemoteProvider;
  const report = (phase: BudgetStopReport['phase'], stop: BudgetStop, complete: readonly Condition[]): BudgetStopReport => {
    writeAtomic(resolve(plan.cacheDir, 'progress.json'), `${JSON.stringify({
      stoppedBy: 'budget', phase, completed: stop.completed, total: stop.total, maxCostUsd: plan.maxCostUsd,
      spentUsd: gateway.spentUsd, provider, model: plan.model, written: complete.map((c) => c.name),
    }, null, 2)}\n`);
    const done = new Set(complete.map((c) => c.name));
    return {
      phase, detail: stop.cause.message, completed: stop.completed, total: stop.total,
      cacheDir: relativePath(plan.cacheDir, io.cwd), missing: selected.filter((c) => !done.has(c.name)).map((c) => c.name),
    };
  };
  let conditions: Condition[] = [...selected];
  let predictorCharge: StudyModels['predictorCharge'];
  let predictorStop: BudgetStop | null = null;
  if (selected.some(isConsumer)) {
    const { prepared, stop } = await preparePredictions(views, gateway, provider, seed, plan.concurrency, scopesOf(selected));
    predictorStop = stop;
    const label = `${gateway.label}:${PROMPT_VERSIONS.predictor}`;
    // A consumer needs the prediction of every prune point; after a stop some are missing, so no consumer can run.
    conditions = stop ? selected.filter((c) => !isConsumer(c)) : swapConsumers(selected, conditionsWith({ predictor: lookupPredictor(prepared), label }));
    predictorCharge = (condition, view) => {
      const scope = predictorScopeOf(condition);
      if (!scope) return undefined;
      const p = preparedFor(prepared, view, scope);
      return p && { provider, model: gateway.model, call: p.call, failed: !(p.prediction instanceof Map) };
    };
  }
  // Every predictor call has finished here and no reader call has started, so the split by role is exact.
  const predictorCalls: ModelCalls = { finished: gateway.stats.finished, failed: gateway.stats.failed };
  const calls = (): RoleCalls => ({
    predictor: predictorCalls,
    reader: { finished: gateway.stats.finished - predictorCalls.finished, failed: gateway.stats.failed - predictorCalls.failed },
  });
  const run = async <T>(runStudy: StudyPass<T>): Promise<StudyOutcome<T>> => {
    const final = (complete: readonly Condition[], models: StudyModels): T | undefined =>
      (complete.length > 0 ? runStudy(complete, models, true) : undefined);
    if (plan.reader !== 'model') {
      const models = { reader: structuralReader(), predictorCharge };
      return { value: final(conditions, models), stop: predictorStop && report('predictor', predictorStop, conditions) };
    }
    // With a model reader every condition makes reader calls, none of which a stopped run may start.
    if (predictorStop) return { value: undefined, stop: report('predictor', predictorStop, []) };
    const setup: ModelReaderSetup = { gateway, provider, epochs: plan.epochs, seed };
    const collected = new Map<string, Collected>();
    runStudy(conditions, { reader: collectingReader(setup, collected), predictorCharge }, false);
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

export interface EstimatePoint {
  readonly point: PrunePoint;
  readonly view: PolicyView;
}

/**
 * What the model calls of a run would cost, from tokenizer counts and the pricing table; nothing is called. Reader
 * calls are an upper bound: a pruned context is never longer than the full one, so each is counted at full length;
 * the full-context answers are shared by all conditions, and raw's pruned context is the full one.
 */
export function estimateCost(plan: ModelPlan, selected: readonly Condition[], points: readonly EstimatePoint[], tokens: TokenCounter, seed: number): string {
  if (!usesModels(plan)) return 'provider embedded: no model calls, no cost.\n';
  const provider = plan.provider as RemoteProvider;
  const model = plan.model!;
  const price = priceOf(provider, model);
  const rows: { role: string; calls: number; input: number; output: number }[] = [];
  const count = (r: ChatRequest) => requestTokens(tokens, r);
  if (selected.some(isConsumer)) {
    const requests = scopesOf(selected).flatMap((scope) => points.map((p) => predictorRequest(p.view, provider, seed, scope)));
    rows.push({ role: 'predictor', calls: requests.length, input: requests.reduce((n, r) => n + count(r), 0), output: requests.length * PREDICTOR_MAX_TOKENS });
  }
  if (plan.reader === 'model') {
    const perProbe = 1 + selected.filter((c) => c.name !== 'raw').length;
    let calls = 0;
    let input = 0;
    for (const { point, view } of points) {
      const context = fullContext(view);
      for (const obligation of [...point.visible.obligations, ...point.downstream]) {
        for (let epoch = 0; epoch < plan.epochs; epoch += 1) {
          calls += perProbe;
          input += perProbe * count(readerRequest({ context, obligation, epoch }, { provider, epochs: plan.epochs, seed }));
        }
      }
    }
    rows.push({ role: 'reader', calls, input, output: calls * READER_MAX_TOKENS });
  }
  return renderEstimate(provider, model, price, rows);
}

function renderEstimate(provider: RemoteProvider, model: string, price: Price | undefined, rows: readonly { role: string; calls: number; input: number; output: number }[]): string {
  const table = pricingTable();
  const usd = (tokensIn: number, tokensOut: number): string => {
    if (!hasRates(price)) return 'unknown (not in the pricing table)';
    return `$${ratedUsd(price, tokensIn, tokensOut).toFixed(2)}`;
  };
  const lines = [
    `Cost estimate for ${provider}/${model}: nothing was called.`,
    price
      ? `Rates per million tokens: input $${String(price.input)}, output $${String(price.output)} (pricing table retrieved ${table.retrieved}${price.confirmed ? '' : '; this row is not confirmed against the provider\'s own page'}).`
      : `The pricing table (retrieved ${table.retrieved}) has no row for this model, so no cost can be given.`,
    `Input tokens counted with ${TOKENIZER.package} ${TOKENIZER.encoding}${provider === 'anthropic' ? ", which is not Claude's tokenizer: Anthropic counts are APPROXIMATE" : ''}; output at each call's full allowance (an upper bound).`,
    '',
    'role       calls  input tokens  output tokens (max)  cost (upper bound)',
  ];
  let calls = 0;
  let input = 0;
  let output = 0;
  for (const r of rows) {
    lines.push(`${r.role.padEnd(10)} ${String(r.calls).padStart(5)}  ${String(r.input).padStart(12)}  ${String(r.output).padStart(19)}  ${usd(r.input, r.output)}`);
    calls += r.calls;
    input += r.input;
    output += r.output;
  }
  lines.push(`${'total'.padEnd(10)} ${String(calls).padStart(5)}  ${String(input).padStart(12)}  ${String(output).padStart(19)}  ${usd(input, output)}`);
  return `${lines.join('\n')}\n`;
}
