// What the two SDK backends share. Their clients take the same options, with the SDK's own retries off (the harness
// retries, so each attempt is counted once); and their errors have one hierarchy shape (APIError with status and
// headers, connection and timeout errors), mapped here onto ProviderCallError with the key scrubbed from the message.
import { ProviderCallError, redact, retryAfterMs, type ClientConfig } from './types.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes an SDK exports as statics of its client class. */
export interface SdkErrorClasses {
  readonly APIError: ErrorClass;
  readonly APIConnectionTimeoutError: ErrorClass;
  readonly APIConnectionError: ErrorClass;
}

export function sdkOptions(config: ClientConfig): {
  apiKey: string;
  baseURL: string | undefined;
  maxRetries: 0;
  timeout: number;
} {
  return { apiKey: config.apiKey, baseURL: config.baseURL, maxRetries: 0, timeout: config.timeoutMs };
}

/**
 * What `make` gives, made on the first call and shared by every later one. The SDKs are loaded this way, when a client
 * first calls, rather than when a command starts: together they are about 430 modules (a third of a second of every
 * command's start) that a run without a model never uses.
 */
export function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

/** Runs one SDK request; any failure becomes a ProviderCallError that never carries the key. */
export async function sdkCall<T>(sdk: SdkErrorClasses, config: ClientConfig, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    throw callError(err, sdk.APIError, sdk.APIConnectionTimeoutError, sdk.APIConnectionError, [config.apiKey]);
  }
}

interface HeaderBag {
  get(name: string): string | null;
}

function callError(
  err: unknown,
  apiError: ErrorClass,
  timeoutError: ErrorClass,
  connectionError: ErrorClass,
  secrets: readonly string[],
): ProviderCallError {
  if (err instanceof ProviderCallError) return err;
  const message = redact(err instanceof Error ? err.message : String(err), secrets);
  if (err instanceof timeoutError) return new ProviderCallError('timeout', `request timed out: ${message}`);
  if (err instanceof connectionError) return new ProviderCallError('network', `connection failed: ${message}`);
  if (err instanceof apiError) {
    const e = err as Error & { status?: number; headers?: HeaderBag | Record<string, string> };
    const headers = e.headers;
    const get = (name: string): string | null => {
      if (!headers) return null;
      if (typeof (headers as HeaderBag).get === 'function') return (headers as HeaderBag).get(name);
      return (headers as Record<string, string>)[name] ?? null;
    };
    const status = typeof e.status === 'number' ? e.status : null;
    return new ProviderCallError('http', `HTTP ${status ?? '?'}: ${message}`, status, retryAfterMs(get));
  }
  // A 200 whose body is not JSON surfaces as a SyntaxError from the SDK's parser.
  if (err instanceof SyntaxError)
    return new ProviderCallError('malformed', `response body is not valid JSON: ${message}`);
  return new ProviderCallError('malformed', `unexpected response: ${message}`);
}
