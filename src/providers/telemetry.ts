// Turns call results into the ModelUsage blocks a run reports. Sums run in the caller's order (fixture, prune
// point, probe); costs are summed to the nano-dollar (pricing.ts), so totals carry no floating-point noise.
import type { ModelUsage } from '../artifacts/schema.js';
import type { CallResult } from './gateway.js';
import { addUsd } from './pricing.js';
import type { ChatRequest } from './types.js';

/** One call as a condition or reader is charged for it; `failed` also covers a parsed-but-unusable answer. */
export interface CallCharge {
  readonly provider: string;
  readonly model: string;
  readonly call: CallResult;
  readonly failed: boolean;
  /** What was sent, when the caller kept it: the cache telemetry compares the reported cache tokens with it. */
  readonly request?: Pick<ChatRequest, 'system' | 'user'>;
}

export function chargeTokens(charge: CallCharge): number {
  const u = charge.call.usage;
  return u.input + u.output + u.cacheRead + u.cacheWrite;
}

/** One call as a usage block of its own; a run's block for many calls is these pooled. */
function chargeUsage(c: CallCharge): ModelUsage {
  const u = c.call.usage;
  return {
    provider: c.provider,
    model: c.model,
    calls: 1,
    errors: c.failed ? 1 : 0,
    inputTokens: u.input,
    outputTokens: u.output,
    cacheReadTokens: u.cacheRead,
    cacheWriteTokens: u.cacheWrite,
    costUsd: c.call.costUsd,
    latencyMs: { total: c.call.latencyMs, max: c.call.latencyMs },
  };
}

export function usageOf(charges: readonly CallCharge[]): ModelUsage | null {
  return poolUsage(charges.map(chargeUsage));
}

/** Pools already-pooled blocks (null blocks contribute nothing). */
export function poolUsage(blocks: readonly (ModelUsage | null)[]): ModelUsage | null {
  const present = blocks.filter((b): b is ModelUsage => b !== null);
  const first = present[0];
  if (!first) return null;
  let cost: number | null = 0;
  const out: ModelUsage = {
    ...first,
    calls: 0,
    errors: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    latencyMs: { total: 0, max: 0 },
  };
  for (const b of present) {
    out.calls += b.calls;
    out.errors += b.errors;
    out.inputTokens += b.inputTokens;
    out.outputTokens += b.outputTokens;
    out.cacheReadTokens += b.cacheReadTokens;
    out.cacheWriteTokens += b.cacheWriteTokens;
    cost = cost === null || b.costUsd === null ? null : addUsd(cost, b.costUsd);
    out.latencyMs.total += b.latencyMs.total;
    out.latencyMs.max = Math.max(out.latencyMs.max, b.latencyMs.max);
  }
  return { ...out, costUsd: cost };
}
