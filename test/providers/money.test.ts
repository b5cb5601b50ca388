import { describe, expect, it } from 'vitest';
import type { ModelUsage } from '../../src/artifacts/schema.js';
import { Budget } from '../../src/providers/budget.js';
import type { CallResult } from '../../src/providers/gateway.js';
import { costUsd, roundUsd, type Price } from '../../src/providers/pricing.js';
import { poolUsage, usageOf, type CallCharge } from '../../src/providers/telemetry.js';

// Plain float sums of these prices print as noise (0.0012 six times is 0.007199999999999999); written costs must not.
const charge = (i: number, cost: number): CallCharge => {
  const call: CallResult = {
    key: `k${i}`,
    outcome: { ok: false, kind: 'malformed', message: 'x' },
    latencyMs: 1,
    usage: { input: 400, output: 0, cacheRead: 0, cacheWrite: 0 },
    costUsd: cost,
  };
  return { provider: 'anthropic', model: 'm', call, failed: false };
};

const price: Price = {
  provider: 'openai',
  ids: ['m'],
  input: 0.1,
  output: 0.6,
  cacheRead: null,
  cacheWrite: null,
  source: 'test',
  confirmed: true,
};

describe('dollar amounts carry no floating-point noise', () => {
  it('a call price, and the sums of a usage block, of pooled blocks and of the budget, are exact to the nano-dollar', () => {
    expect(costUsd(price, { input: 3, output: 0, cacheRead: 0, cacheWrite: 0 })).toBe(3e-7);
    const usage = usageOf(Array.from({ length: 6 }, (_, i) => charge(i, 0.0012)))!;
    expect(usage.costUsd).toBe(0.0072);
    expect(JSON.stringify(usage)).toContain('"costUsd":0.0072,');
    const pooled = poolUsage([{ ...usage, costUsd: 0.1 }, null, { ...usage, costUsd: 0.2 }]) as ModelUsage;
    expect(pooled.costUsd).toBe(0.3);
    const budget = new Budget(null);
    for (let i = 0; i < 6; i += 1) {
      budget.reserve(0.01);
      budget.settle(0.01, 0.0012);
    }
    expect(budget.spentUsd).toBe(0.0072);
  });

  it('rounds to the nano-dollar and no coarser', () => {
    expect(roundUsd(0.1 + 0.2)).toBe(0.3);
    expect(roundUsd(0.000000001)).toBe(1e-9);
    expect(roundUsd(0.0000000014)).toBe(1e-9);
  });
});
