// Gateway construction: from the settings a front end decided (provider, model, key, cache, budget, timeout) to the
// one Gateway every model call goes through, with the client, cache, budget, prices and retries it needs (and, for
// --batch, the provider's batch interface with the same key and endpoint). Which
// environment variables hold each provider's key and endpoint is decided here too, so a front end only passes its
// environment along.
import type { TokenCounter } from '../accounting/tokens.js';
import { anthropicClient } from './anthropic.js';
import { anthropicBatch } from './batch-anthropic.js';
import type { BatchBackend } from './batch.js';
import { openaiBatch } from './batch-openai.js';
import { Budget } from './budget.js';
import { CallCache, type CacheMode } from './cache.js';
import { Gateway } from './gateway.js';
import { openaiClient } from './openai.js';
import { priceOf } from './pricing.js';
import { DEFAULT_RETRY, realSleep } from './retry.js';
import type { ClientConfig, RemoteProvider } from './types.js';

export const KEY_VARIABLE: Record<RemoteProvider, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};
export const URL_VARIABLE: Record<RemoteProvider, string> = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
};

/** A provider's key and endpoint from an environment; an empty variable counts as unset. */
export function credentialsOf(
  provider: RemoteProvider,
  env: Readonly<Record<string, string | undefined>> | undefined,
): { apiKey: string | null; baseURL: string | undefined } {
  return { apiKey: env?.[KEY_VARIABLE[provider]] || null, baseURL: env?.[URL_VARIABLE[provider]] || undefined };
}

/** What a gateway is built from: the parts of a model plan that reach a provider. */
export interface GatewaySettings {
  readonly provider: RemoteProvider;
  readonly model: string;
  readonly apiKey: string | null;
  readonly baseURL: string | undefined;
  readonly timeoutMs: number;
  readonly cacheMode: CacheMode;
  readonly cacheDir: string;
  readonly resume: boolean;
  readonly maxCostUsd: number | null;
}

const clientConfig = (s: GatewaySettings): ClientConfig => ({
  model: s.model,
  apiKey: s.apiKey ?? '',
  baseURL: s.baseURL,
  timeoutMs: s.timeoutMs,
});

export function gatewayFor(
  s: GatewaySettings,
  tokens: TokenCounter,
  seed: number,
  sleep?: (ms: number) => Promise<void>,
): Gateway {
  const config = clientConfig(s);
  return new Gateway({
    provider: s.provider,
    model: s.model,
    // Replay reaches no server: it gets no client at all.
    client:
      s.cacheMode === 'replay' ? undefined : s.provider === 'openai' ? openaiClient(config) : anthropicClient(config),
    mode: s.cacheMode,
    cache: s.cacheMode === 'off' ? undefined : new CallCache(s.cacheDir),
    resume: s.resume,
    budget: new Budget(s.maxCostUsd),
    price: priceOf(s.provider, s.model),
    retry: { ...DEFAULT_RETRY, seed: String(seed), sleep: sleep ?? realSleep },
    tokens,
    secrets: s.apiKey ? [s.apiKey] : [],
    clock: () => performance.now(),
  });
}

/** The provider's batch interface (./batch.ts), reached with the same key, endpoint and timeout as the gateway's client. */
export function batchBackendFor(s: GatewaySettings): BatchBackend {
  return s.provider === 'openai' ? openaiBatch(clientConfig(s)) : anthropicBatch(clientConfig(s));
}
