// The one road every model call takes: in-memory de-duplication, then the cache (replay serves only from it; a
// resumed record run serves what it already paid for), then the budget, then the provider with retries. Every
// finished call is written to the cache at once, so a stopped run keeps every call it paid for.
import pLimit from 'p-limit';
import type { TokenCounter } from '../accounting/tokens.js';
import { failure } from '../errors.js';
import { type Budget, BudgetExhausted } from './budget.js';
import { type CallCache, cacheKey, type CacheEntry, type CacheMode } from './cache.js';
import { costUsd, hasRates, ratedUsd, type Price } from './pricing.js';
import { withRetry, type RetryPolicy } from './retry.js';
import {
  ProviderCallError,
  redact,
  type ChatRequest,
  type ModelClient,
  type RemoteProvider,
  type Usage,
} from './types.js';

export interface CallResult {
  readonly key: string;
  readonly outcome: CacheEntry['outcome'];
  readonly latencyMs: number;
  readonly usage: Usage;
  readonly costUsd: number | null;
}

export interface GatewayOptions {
  readonly provider: RemoteProvider;
  readonly model: string;
  /** Absent in replay mode: nothing may reach the network. */
  readonly client: ModelClient | undefined;
  readonly mode: CacheMode;
  /** The cache folder's store; absent when mode is off. */
  readonly cache: CallCache | undefined;
  /** In record mode, serve entries already stored instead of calling again (errors are called again). */
  readonly resume: boolean;
  readonly budget: Budget;
  readonly price: Price | undefined;
  readonly retry: RetryPolicy;
  readonly tokens: TokenCounter;
  readonly secrets: readonly string[];
  readonly clock: () => number;
}

export interface GatewayStats {
  networkCalls: number;
  cacheHits: number;
  /** Distinct calls that finished (from the network or the cache), and those of them with no usable response. */
  finished: number;
  failed: number;
  /** The first failure's kind and message (secrets redacted), to name the provider error when every call failed. */
  firstFailure: string | null;
}

/** The input tokens a request is counted at: its system and user texts (the budget's and the estimate's count). */
export function requestTokens(tokens: TokenCounter, request: ChatRequest): number {
  return tokens(request.system) + tokens(request.user);
}

const ZERO: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** o200k counts are not Claude's; the worst case of an Anthropic call pads them so the budget errs on the safe side. */
const ANTHROPIC_COUNT_MARGIN = 1.25;

export class Gateway {
  readonly stats: GatewayStats = { networkCalls: 0, cacheHits: 0, finished: 0, failed: 0, firstFailure: null };
  private readonly inFlight = new Map<string, Promise<CallResult>>();

  constructor(private readonly options: GatewayOptions) {}

  get provider(): RemoteProvider {
    return this.options.provider;
  }

  get model(): string {
    return this.options.model;
  }

  /** What this invocation's paid calls cost so far (cache hits are free). */
  get spentUsd(): number {
    return this.options.budget.spentUsd;
  }

  get label(): string {
    return `${this.options.provider}/${this.options.model}`;
  }

  keyOf(request: ChatRequest): string {
    return cacheKey(this.options.provider, this.options.model, request);
  }

  /** Worst-case USD of a request: counted input at the input rate plus the whole output allowance; null if unpriced. */
  worstCaseUsd(request: ChatRequest): number | null {
    const { price } = this.options;
    if (!hasRates(price)) return null;
    const counted = requestTokens(this.options.tokens, request);
    const input = this.options.provider === 'anthropic' ? Math.ceil(counted * ANTHROPIC_COUNT_MARGIN) : counted;
    return ratedUsd(price, input, request.maxTokens);
  }

  /** `what` names the call in errors (fixture, prune point, role) so a missing replay entry can be found. */
  call(request: ChatRequest, what: string): Promise<CallResult> {
    const key = this.keyOf(request);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetch(key, request, what);
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async fetch(key: string, request: ChatRequest, what: string): Promise<CallResult> {
    const { cache, mode } = this.options;
    const stored = cache?.read(key);
    if (mode === 'replay') {
      if (!stored) throw failure('PL_LLM_REPLAY_MISS', key, what, cache?.dir ?? '(no cache folder)');
      this.stats.cacheHits += 1;
      return this.result(stored);
    }
    if (stored && this.options.resume && stored.outcome.ok) {
      this.stats.cacheHits += 1;
      return this.result(stored);
    }
    const client = this.options.client;
    if (!client) throw new Error('internal: a model call was attempted with no client');
    const worst = this.worstCaseUsd(request);
    // An unpriced model cannot be held to a limit; the CLI refuses that combination before any call.
    this.options.budget.reserve(worst ?? 0);
    const started = this.options.clock();
    let entry: CacheEntry;
    let spent: number | null = 0;
    try {
      const done = await withRetry(key, this.options.retry, () => {
        this.stats.networkCalls += 1;
        return client.complete(request);
      });
      spent = costUsd(this.options.price, done.value.usage);
      entry = this.entry(key, request, { ok: true, response: done.value }, done.attempts, started);
    } catch (err) {
      if (err instanceof BudgetExhausted) throw err;
      const e = err instanceof ProviderCallError ? err : new ProviderCallError('malformed', (err as Error).message);
      entry = this.entry(
        key,
        request,
        { ok: false, kind: e.kind, message: redact(e.message, this.options.secrets) },
        this.options.retry.attempts,
        started,
      );
    } finally {
      this.options.budget.settle(worst ?? 0, spent);
    }
    if (mode === 'record') cache?.write(entry);
    return this.result(entry);
  }

  private entry(
    key: string,
    request: ChatRequest,
    outcome: CacheEntry['outcome'],
    attempts: number,
    started: number,
  ): CacheEntry {
    const latencyMs = Math.max(0, Math.round(this.options.clock() - started));
    return { key, provider: this.options.provider, model: this.options.model, request, outcome, attempts, latencyMs };
  }

  private result(entry: CacheEntry): CallResult {
    this.stats.finished += 1;
    if (!entry.outcome.ok) {
      this.stats.failed += 1;
      this.stats.firstFailure ??= `${entry.outcome.kind}: ${entry.outcome.message}`;
    }
    const usage = entry.outcome.ok ? entry.outcome.response.usage : ZERO;
    return {
      key: entry.key,
      outcome: entry.outcome,
      latencyMs: entry.latencyMs,
      usage,
      costUsd: costUsd(this.options.price, usage),
    };
  }
}

/**
 * Runs calls with at most `concurrency` in flight. When the budget stops one, no further call starts, the ones in
 * flight finish (and are cached), and BudgetExhausted is rethrown with how many calls completed.
 */
export async function runAll<T>(tasks: readonly (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const { done, stop } = await runUntilStopped(tasks, concurrency);
  if (stop) throw stop;
  return done;
}

/**
 * As runAll, but a budget stop is returned with the calls that did complete (in task order), so the caller can
 * write what they suffice for. Any other failure is thrown.
 */
export async function runUntilStopped<T>(
  tasks: readonly (() => Promise<T>)[],
  concurrency: number,
): Promise<{ done: T[]; stop: BudgetStop | null }> {
  const limit = pLimit(concurrency);
  let stopped: BudgetExhausted | undefined;
  const settled = await Promise.allSettled(
    tasks.map((task) =>
      limit(async () => {
        if (stopped) throw stopped;
        try {
          return await task();
        } catch (err) {
          if (err instanceof BudgetExhausted) stopped ??= err;
          throw err;
        }
      }),
    ),
  );
  const done: T[] = [];
  for (const s of settled) {
    if (s.status === 'fulfilled') done.push(s.value);
    else if (!stopped) throw s.reason;
  }
  return { done, stop: stopped ? new BudgetStop(stopped, done.length, tasks.length) : null };
}

export class BudgetStop extends Error {
  constructor(
    override readonly cause: BudgetExhausted,
    readonly completed: number,
    readonly total: number,
  ) {
    super(cause.message);
    this.name = 'BudgetStop';
  }
}
