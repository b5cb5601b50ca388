// Both SDKs share one error hierarchy shape (APIError with status and headers, connection and timeout errors); this
// maps either onto ProviderCallError with the key scrubbed from the message.
import { ProviderCallError, redact, retryAfterMs } from './types.js';

type ErrorClass = abstract new (...args: never[]) => Error;

interface HeaderBag {
  get(name: string): string | null;
}

export function callError(err: unknown, apiError: ErrorClass, timeoutError: ErrorClass, connectionError: ErrorClass,
  secrets: readonly string[]): ProviderCallError {
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
  if (err instanceof SyntaxError) return new ProviderCallError('malformed', `response body is not valid JSON: ${message}`);
  return new ProviderCallError('malformed', `unexpected response: ${message}`);
}
