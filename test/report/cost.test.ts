import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Summary, type ModelUsage } from '../../src/artifacts/schema.js';
import { providerCost } from '../../src/report/cost.js';

const committed = Summary.parse(JSON.parse(readFileSync('results/ladder-0-4/summary.json', 'utf8')));
const usage = (costUsd: number | null): ModelUsage => ({
  provider: 'anthropic',
  model: 'm',
  calls: 3,
  errors: 0,
  inputTokens: 900,
  outputTokens: 60,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd,
  latencyMs: { total: 30, max: 12 },
});

describe('providerCost', () => {
  it('is unknown for the embedded study, which records no model usage', () => {
    expect(committed.modelUsage).toBeNull();
    expect(providerCost(committed)).toBeNull();
  });

  it('adds the predictor calls and the reader calls', () => {
    const s = { ...committed, modelUsage: usage(0.25), behaviour: { ...committed.behaviour, usage: usage(0.5) } };
    expect(providerCost(s)).toBeCloseTo(0.75, 10);
    expect(providerCost({ ...committed, modelUsage: usage(0.25) })).toBeCloseTo(0.25, 10);
  });

  it('is unknown when any priced block lacks a confirmed rate, rather than a partial sum', () => {
    const s = { ...committed, modelUsage: usage(0.25), behaviour: { ...committed.behaviour, usage: usage(null) } };
    expect(providerCost(s)).toBeNull();
  });
});
