// Provider-reported cache telemetry against the model's prediction, call by call. The responses' own usage fields
// (Usage.cacheRead, Usage.cacheWrite: OpenAI's cached_tokens, Anthropic's cache_read_input_tokens and
// cache_creation_input_tokens) are what happened; the prediction is what the caching table says a provider does
// with the same request sequence. They are counted with different tokenizers (ours is o200k), so agreement is
// within a tolerance, and a disagreement is reported, never corrected.
import type { TokenCounter } from '../accounting/tokens.js';
import type { ModelledProfile } from '../economics/caching.js';
import type { CallCharge } from './telemetry.js';
import type { ChatRequest, Usage } from './types.js';
import { modelledProfiles } from '../economics/caching.js';
import type { CacheTelemetry } from '../economics/record.js';

export interface ObservedCall {
  readonly request: Pick<ChatRequest, 'system' | 'user'>;
  readonly usage: Usage;
}

export interface CallCacheCheck {
  readonly call: number;
  readonly predictedRead: number;
  readonly observedRead: number;
  readonly predictedWrite: number;
  readonly observedWrite: number;
  readonly agrees: boolean;
}

/** Tokenizer slack: one OpenAI cache step, or 5% of the prompt, whichever is larger. */
export function tolerance(promptTokens: number): number {
  return Math.max(128, Math.ceil(promptTokens * 0.05));
}

/** The text a provider processes first to last: the system prompt, then the user message. */
export const promptText = (r: ObservedCall['request']): string => `${r.system}\n${r.user}`;

export function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return a.slice(0, i);
}

/**
 * Predicts each call's cache reads and writes from the calls before it (all assumed within the TTL: one run sends
 * them minutes apart). Automatic caching (OpenAI) reads the longest prefix shared with any earlier call, in the
 * profile's steps from its minimum, and reports no writes. Explicit caching (Anthropic) caches only at breakpoints:
 * with `breakpoints` (one at the end of each request) a call reads an earlier request it extends whole and writes
 * the rest; without (this harness's clients send none) it reads and writes nothing.
 */
export function predictCallCache(
  calls: readonly ObservedCall[],
  profile: ModelledProfile,
  tokens: TokenCounter,
  breakpoints: boolean,
): CallCacheCheck[] {
  const texts = calls.map((c) => promptText(c.request));
  return calls.map((c, i) => {
    const text = texts[i]!;
    const total = tokens(text);
    let read = 0;
    let write = 0;
    if (profile.mode === 'automatic') {
      let shared = 0;
      for (const earlier of texts.slice(0, i)) shared = Math.max(shared, tokens(commonPrefix(earlier, text)));
      if (profile.prefixStepTokens) shared = Math.floor(shared / profile.prefixStepTokens) * profile.prefixStepTokens;
      read = shared >= profile.minPrefixTokens ? shared : 0;
    } else if (breakpoints && total >= profile.minPrefixTokens) {
      for (const earlier of texts.slice(0, i)) if (text.startsWith(earlier)) read = Math.max(read, tokens(earlier));
      if (read < profile.minPrefixTokens) read = 0;
      write = total - read;
    }
    const slack = tolerance(total);
    const agrees = Math.abs(read - c.usage.cacheRead) <= slack && Math.abs(write - c.usage.cacheWrite) <= slack;
    return {
      call: i,
      predictedRead: read,
      observedRead: c.usage.cacheRead,
      predictedWrite: write,
      observedWrite: c.usage.cacheWrite,
      agrees,
    };
  });
}

/**
 * A condition's predictor calls in the order it relied on them, compared with the prediction of the profile that
 * lists their model (the harness's Anthropic client sends no breakpoints). Undefined when no call kept its request,
 * the calls are of several models, or no modelled profile lists the model.
 */
export function cacheTelemetryOf(charges: readonly CallCharge[], tokens: TokenCounter): CacheTelemetry | undefined {
  const kept = charges.filter((c): c is CallCharge & { request: ObservedCall['request'] } => c.request !== undefined);
  const first = kept[0];
  if (!first || kept.some((c) => c.model !== first.model || c.provider !== first.provider)) return undefined;
  const profile = modelledProfiles().find((p) => p.provider === first.provider && p.models.includes(first.model));
  if (!profile) return undefined;
  const checks = predictCallCache(
    kept.map((c) => ({ request: c.request, usage: c.call.usage })),
    profile,
    tokens,
    false,
  );
  const sum = (f: (c: CallCacheCheck) => number): number => checks.reduce((s, c) => s + f(c), 0);
  return {
    profile: profile.id,
    calls: checks.length,
    agreeing: checks.filter((c) => c.agrees).length,
    predictedRead: sum((c) => c.predictedRead),
    observedRead: sum((c) => c.observedRead),
    predictedWrite: sum((c) => c.predictedWrite),
    observedWrite: sum((c) => c.observedWrite),
  };
}
