// What the model calls of a run would cost, before any is made: the very requests the model phase would send, each
// distinct request once (the gateway sends an identical request once, as the cache stores it once), counted with
// the tokenizer and priced from the pricing table, with the prefix a provider would serve from its prompt cache at
// the cache-read rate and a batched run at the batch rate.
import { TOKENIZER, type TokenCounter } from '../accounting/tokens.js';
import { collectingReader, READER_MAX_TOKENS, type Collected, type ModelReaderSetup } from '../behaviour/model.js';
import type { Reader } from '../behaviour/reader.js';
import type { StudyModels } from '../behaviour/study.js';
import { modelledProfiles, type ModelledProfile } from '../economics/caching.js';
import type { PrunePoint } from '../fixture/schema.js';
import type { PolicyView } from '../fixture/view.js';
import { conditionsWith } from '../policy/registry.js';
import type { PredictorScope } from '../policy/predictor.js';
import type { Condition } from '../policy/types.js';
import { cacheKey } from '../providers/cache.js';
import { commonPrefix, promptText } from '../providers/cache-telemetry.js';
import { gatewayFor } from '../providers/connect.js';
import { type Gateway, requestTokens } from '../providers/gateway.js';
import {
  lookupPredictor,
  PREDICTOR_MAX_TOKENS,
  predictorRequests,
  preparePredictions,
} from '../providers/predictor.js';
import { batchPrice, hasRates, priceOf, pricingTable, type Price } from '../providers/pricing.js';
import type { ChatRequest, RemoteProvider } from '../providers/types.js';
import { isConsumer, scopesOf, usesModels, type ModelPlan } from './model-phase.js';

export interface EstimatePoint {
  readonly point: PrunePoint;
  readonly view: PolicyView;
}

/** Runs the pure study once with the given conditions and models, writing nothing: how the reader's requests are found. */
export type CollectPass = (conditions: readonly Condition[], models: StudyModels) => void;

interface Row {
  readonly role: string;
  readonly calls: number;
  readonly input: number;
  /** Of `input`, the tokens a provider's prompt cache would serve (billed at the cache-read rate). */
  readonly cached: number;
  readonly output: number;
  /** Calls counted at most once each but not known to be distinct (an upper bound). */
  readonly bound: boolean;
}

/** A gateway that only names requests (keys) and serves stored calls: the estimate sends nothing. */
function replayGateway(plan: ModelPlan, tokens: TokenCounter): Gateway {
  return gatewayFor(
    {
      ...plan,
      provider: plan.provider as RemoteProvider,
      model: plan.model!,
      cacheMode: 'replay',
      resume: false,
      maxCostUsd: null,
    },
    tokens,
    0,
  );
}

/** Distinct requests in the order first met, the order the run sends them. */
function distinct(plan: ModelPlan, requests: readonly ChatRequest[]): ChatRequest[] {
  const seen = new Map<string, ChatRequest>();
  for (const r of requests) {
    const key = cacheKey(plan.provider, plan.model!, r);
    if (!seen.has(key)) seen.set(key, r);
  }
  return [...seen.values()];
}

/**
 * Prompt-cache reads of a sequence of requests: automatic caching (OpenAI) serves the prefix a request shares with
 * the one sent before it, in the profile's steps from its minimum; explicit caching (Anthropic) serves nothing,
 * since this harness's requests carry no cache breakpoint. The previous request alone stands for the earlier ones
 * (comparing with each would be quadratic), which can only undercount reads: the estimate errs towards cost.
 */
function cachedTokens(
  requests: readonly ChatRequest[],
  profile: ModelledProfile | undefined,
  tokens: TokenCounter,
): number {
  if (profile?.mode !== 'automatic') return 0;
  let total = 0;
  let previous: string | null = null;
  for (const r of requests) {
    const text = promptText(r);
    if (previous !== null) {
      let shared = tokens(commonPrefix(previous, text));
      if (profile.prefixStepTokens) shared = Math.floor(shared / profile.prefixStepTokens) * profile.prefixStepTokens;
      if (shared >= profile.minPrefixTokens) total += Math.min(shared, requestTokens(tokens, r));
    }
    previous = text;
  }
  return total;
}

/**
 * What the model calls of a run would cost; nothing is called. Predictor requests are known before the run: one per
 * prune point and scope, identical ones once. The reader's requests are those a collecting pass of the study asks
 * for, identical ones once (the full-context answer is shared by every condition, and a condition that removes
 * nothing asks what the baseline asks). The predictor's consumers ask about contexts that depend on its answers: exact when
 * those answers are in the cache folder (an earlier or interrupted run), else each of their pruned-context probes
 * is counted as a call of its own, an upper bound.
 */
export async function estimateCost(
  plan: ModelPlan,
  selected: readonly Condition[],
  points: readonly EstimatePoint[],
  tokens: TokenCounter,
  seed: number,
  collect?: CollectPass,
): Promise<string> {
  if (!usesModels(plan)) return 'provider embedded: no model calls, no cost.\n';
  const provider = plan.provider as RemoteProvider;
  const model = plan.model!;
  const listed = priceOf(provider, model);
  const price = plan.batch ? batchPrice(listed) : listed;
  const profile = modelledProfiles().find((p) => p.provider === provider && p.models.includes(model));
  const rows: Row[] = [];
  const row = (
    role: string,
    requests: readonly ChatRequest[],
    maxTokens: number,
    extraCalls = 0,
    extraInput = 0,
  ): Row => ({
    role,
    calls: requests.length + extraCalls,
    input: requests.reduce((n, r) => n + requestTokens(tokens, r), 0) + extraInput,
    cached: plan.batch ? 0 : cachedTokens(requests, profile, tokens),
    output: (requests.length + extraCalls) * maxTokens,
    bound: extraCalls > 0,
  });
  const views = points.map((p) => p.view);
  const scopes = scopesOf(selected);
  const consumers = selected.filter(isConsumer);
  if (consumers.length > 0) {
    rows.push(row('predictor', distinct(plan, predictorRequests(views, provider, seed, scopes)), PREDICTOR_MAX_TOKENS));
  }
  if (plan.reader === 'model' && collect) {
    const gateway = replayGateway(plan, tokens);
    const setup: ModelReaderSetup = { gateway, provider, epochs: plan.epochs, seed };
    const collected = new Map<string, Collected>();
    let known: Condition[] = selected.filter((c) => !isConsumer(c));
    if (consumers.length > 0) {
      const stored = await storedPredictions(views, gateway, provider, seed, plan.concurrency, scopes);
      if (stored)
        known = [
          ...known,
          ...conditionsWith({ predictor: lookupPredictor(stored), label: gateway.label }).filter((c) =>
            consumers.some((s) => s.name === c.name),
          ),
        ];
    }
    collect(known, { reader: collectingReader(setup, collected) });
    let extraCalls = 0;
    let extraInput = 0;
    if (!known.some(isConsumer) && consumers.length > 0) {
      // Not known before the predictor answers: every pruned-context probe of a consumer, counted at full length.
      const standIn = conditionsWith({
        predictor: () => ({ abstain: 'not known before the predictor is called' }),
        label: gateway.label,
      }).filter((c) => consumers.some((s) => s.name === c.name));
      const inner = collectingReader(setup, new Map());
      const counting: Reader = {
        ...inner,
        judge(input) {
          if (input.side === 'pruned') {
            extraCalls += 1;
            extraInput += requestTokens(tokens, { ...readerFull(collected, input) });
          }
          return inner.judge(input);
        },
      };
      collect(standIn, { reader: counting });
    }
    rows.push(
      row(
        'reader',
        [...collected.values()].map((c) => c.request),
        READER_MAX_TOKENS,
        extraCalls,
        extraInput,
      ),
    );
  }
  return renderEstimate(plan, provider, model, price, listed, profile, rows);
}

/** The full-context request of a probe stands for its pruned one: a pruned context is never longer. */
function readerFull(
  collected: ReadonlyMap<string, Collected>,
  input: { fixture: { id: string }; point: { id: string }; obligation: { id: string }; epoch: number },
): ChatRequest {
  const what = `reader, ${input.fixture.id} at ${input.point.id}, obligation ${input.obligation.id}, full context, epoch ${input.epoch}`;
  for (const c of collected.values()) if (c.what === what) return c.request;
  throw new Error(`internal: no full-context request collected for ${what}`);
}

/** The predictor's answers when the cache folder holds every one of them; undefined otherwise. */
async function storedPredictions(
  views: readonly PolicyView[],
  gateway: Gateway,
  provider: RemoteProvider,
  seed: number,
  concurrency: number,
  scopes: readonly PredictorScope[],
) {
  try {
    return (await preparePredictions(views, gateway, provider, seed, concurrency, scopes)).prepared;
  } catch {
    return undefined;
  }
}

function renderEstimate(
  plan: ModelPlan,
  provider: RemoteProvider,
  model: string,
  price: Price | undefined,
  listed: Price | undefined,
  profile: ModelledProfile | undefined,
  rows: readonly Row[],
): string {
  const table = pricingTable();
  const cacheRate = price && hasRates(price) ? (price.cacheRead ?? price.input) : null;
  const usd = (r: Pick<Row, 'input' | 'cached' | 'output'>): string => {
    if (!hasRates(price) || cacheRate === null) return 'unknown (not in the pricing table)';
    return `$${(((r.input - r.cached) * price.input + r.cached * cacheRate + r.output * price.output) / 1_000_000).toFixed(2)}`;
  };
  const lines = [
    `Cost estimate for ${provider}/${model}${plan.batch ? ' through the batch interface' : ''}: nothing was called.`,
    listed
      ? `Rates per million tokens: input $${String(listed.input)}, output $${String(listed.output)}${listed.cacheRead !== null ? `, cache read $${String(listed.cacheRead)}` : ''} (pricing table retrieved ${table.retrieved}${listed.confirmed ? '' : "; this row is not confirmed against the provider's own page"})${plan.batch ? `; batch at ${String(table.batch[provider].multiplier)}x of every rate (${table.batch[provider].date})` : ''}.`
      : `The pricing table (retrieved ${table.retrieved}) has no row for this model, so no cost can be given.`,
    `Input tokens counted with ${TOKENIZER.package} ${TOKENIZER.encoding}${provider === 'anthropic' ? ", which is not Claude's tokenizer: Anthropic counts are APPROXIMATE" : ''}; output at each call's full allowance (an upper bound). Identical requests are counted once, as they are sent once.`,
    plan.batch
      ? 'Prompt caching: not counted for batched requests.'
      : profile?.mode === 'automatic'
        ? `Prompt caching (${profile.id}): the prefix each request shares with the one before it, from ${profile.minPrefixTokens} tokens, at the cache-read rate${listed?.cacheRead === null ? ' (not confirmed: billed at the input rate)' : ''}.`
        : `Prompt caching: none (${profile ? `${profile.id} caches only at breakpoints, and these requests carry none` : 'no caching profile lists this model'}).`,
    '',
    'role       calls  input tokens  cached input  output tokens (max)  cost (upper bound)',
  ];
  const total = { calls: 0, input: 0, cached: 0, output: 0 };
  for (const r of rows) {
    lines.push(
      `${r.role.padEnd(10)} ${`${r.bound ? '<=' : ''}${r.calls}`.padStart(5)}  ${String(r.input).padStart(12)}  ${String(r.cached).padStart(12)}  ${String(r.output).padStart(19)}  ${usd(r)}`,
    );
    total.calls += r.calls;
    total.input += r.input;
    total.cached += r.cached;
    total.output += r.output;
  }
  const bound = rows.some((r) => r.bound);
  lines.push(
    `${'total'.padEnd(10)} ${`${bound ? '<=' : ''}${total.calls}`.padStart(5)}  ${String(total.input).padStart(12)}  ${String(total.cached).padStart(12)}  ${String(total.output).padStart(19)}  ${usd(total)}`,
  );
  if (bound)
    lines.push(
      '',
      "<=: the predictor's consumers ask about contexts its answers decide; with those answers in --cache-dir (run the predictor first, or estimate after an interrupted run) the count is exact.",
    );
  return `${lines.join('\n')}\n`;
}
