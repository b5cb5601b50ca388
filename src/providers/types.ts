// What every model backend shares: one provider-neutral request, the usage a response reports, and the one error
// type the retry loop and the telemetry understand. Provider modules translate to and from these shapes only.
import { z } from 'zod';

export const PROVIDERS = ['embedded', 'openai', 'anthropic'] as const;
export type ProviderName = (typeof PROVIDERS)[number];
export type RemoteProvider = Exclude<ProviderName, 'embedded'>;

/** A single-turn chat request: everything that decides the answer, so its hash can key the cache. */
export const ChatRequest = z.strictObject({
  system: z.string(),
  user: z.string(),
  maxTokens: z.int().positive(),
  /** null: not sent, the provider's default applies (the current Anthropic API no longer takes one). */
  temperature: z.number().min(0).max(2).nullable(),
  /** null: not sent (the Anthropic API takes no seed). */
  seed: z.int().nullable(),
  /**
   * Which repetition of an otherwise identical request this is (a reader's epoch; 0 for a single call). Never sent:
   * it is part of the request's identity, so N epochs are N calls, N cache entries and N answers even where the
   * provider takes no seed and the request text is the same (Anthropic), and differ only by the provider's sampling.
   */
  epoch: z.int().nonnegative(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/** The sampling settings a provider accepts; what it does not accept is recorded as null rather than pretended. */
export function sampling(
  provider: RemoteProvider,
  temperature: number,
  seed: number,
): { temperature: number | null; seed: number | null } {
  return provider === 'anthropic' ? { temperature: null, seed: null } : { temperature, seed };
}

/** Token counts as the response reported them; `input` excludes cache reads and writes (each billed apart). */
export const Usage = z.strictObject({
  input: z.int().nonnegative(),
  output: z.int().nonnegative(),
  cacheRead: z.int().nonnegative(),
  cacheWrite: z.int().nonnegative(),
});
export type Usage = z.infer<typeof Usage>;

export const ChatResponse = z.strictObject({
  text: z.string(),
  usage: Usage,
  /** The model id the server says answered (may be a dated id for an alias). */
  model: z.string(),
});
export type ChatResponse = z.infer<typeof ChatResponse>;

export type CallErrorKind = 'http' | 'timeout' | 'network' | 'malformed' | 'budget';

/** A failed call, with what retrying needs to know; its message never carries a key (see `redact`). */
export class ProviderCallError extends Error {
  constructor(
    readonly kind: CallErrorKind,
    message: string,
    readonly status: number | null = null,
    /** The server's retry-after, in milliseconds, when it sent one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderCallError';
  }

  /** 429, 5xx, timeouts and dropped connections are worth another try; a 4xx or a malformed body is not. */
  get retryable(): boolean {
    if (this.kind === 'timeout' || this.kind === 'network') return true;
    return this.kind === 'http' && this.status !== null && (this.status === 429 || this.status >= 500);
  }
}

/** One backend: sends a request and returns the normalised response, or throws ProviderCallError. */
export interface ModelClient {
  readonly provider: RemoteProvider;
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatResponse>;
}

export interface ClientConfig {
  readonly model: string;
  readonly apiKey: string;
  /** Overrides the SDK's default endpoint (a local OpenAI-compatible server, a fake server in tests). */
  readonly baseURL: string | undefined;
  readonly timeoutMs: number;
}

/** Replaces every occurrence of each secret, so no message, log line or file can carry one. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join('[redacted]');
  return out;
}

/** Seconds or an HTTP date in `retry-after`, or milliseconds in `retry-after-ms`; null when absent or unreadable. */
export function retryAfterMs(
  get: (name: string) => string | null | undefined,
  now: () => number = Date.now,
): number | null {
  const ms = get('retry-after-ms');
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const value = get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now());
}
