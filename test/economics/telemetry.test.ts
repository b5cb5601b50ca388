// Cache telemetry from real responses (the fake server on 127.0.0.1 answering as each provider would) compared with
// the model's prediction: agreement where the provider did what the table says, disagreement flagged where not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { predictCallCache, type ObservedCall } from '../../src/providers/cache-telemetry.js';
import { anthropicClient } from '../../src/providers/anthropic.js';
import { cacheProfile, isModelled, type ModelledProfile } from '../../src/economics/caching.js';
import { openaiClient } from '../../src/providers/openai.js';
import type { ChatRequest } from '../../src/providers/types.js';
import { anthropicOk, openaiOk, startFakeLlm, type FakeLlm } from '../support/fake-llm.js';

const tokens = tokenCounter();
const profile = (id: string): ModelledProfile => {
  const p = cacheProfile(id)!;
  if (!isModelled(p)) throw new Error(id);
  return p;
};
let server: FakeLlm;
beforeAll(async () => {
  server = await startFakeLlm();
});
afterAll(async () => {
  await server.close();
});

// A long shared prefix (the items of a prune point), then a different question per call.
const shared = Array.from({ length: 400 }, (_, i) => `item ${i}: read src/module_${i}.py (${i * 7} lines)`).join('\n');
const request = (question: string): ChatRequest => ({
  system: 'Answer in JSON.',
  user: `${shared}\n${question}`,
  maxTokens: 64,
  temperature: 0,
  seed: 1,
  epoch: 0,
});
const config = (baseURL: string, model: string) => ({ model, apiKey: 'sk-fake', baseURL, timeoutMs: 5000 });

describe('cache telemetry against the prediction', () => {
  it('OpenAI: cached_tokens from the responses agree with the predicted shared prefix, and a wrong report is flagged', async () => {
    const prefix = Math.floor(tokens(`Answer in JSON.\n${shared}\n`) / 128) * 128;
    server.handle((_hit, n) =>
      openaiOk('{}', { prompt_tokens: 5000, completion_tokens: 5, cached: n === 1 ? 0 : prefix }),
    );
    const client = openaiClient(config(server.openaiURL, 'gpt-4o-mini'));
    const calls: ObservedCall[] = [];
    for (const q of ['Which files are tests?', 'Which files changed?']) {
      const r = request(q);
      calls.push({ request: r, usage: (await client.complete(r)).usage });
    }
    expect(calls.map((c) => c.usage.cacheRead)).toEqual([0, prefix]);
    const checks = predictCallCache(calls, profile('openai-in-memory'), tokens, false);
    expect(checks.map((c) => c.agrees)).toEqual([true, true]);
    expect(checks[1]!.predictedRead).toBeGreaterThan(1024);
    // A provider that reported no reuse on the second call disagrees with the model.
    const wrong = predictCallCache(
      [calls[0]!, { ...calls[1]!, usage: { ...calls[1]!.usage, cacheRead: 0 } }],
      profile('openai-in-memory'),
      tokens,
      false,
    );
    expect(wrong[1]!.agrees).toBe(false);
  });

  it('Anthropic: with no breakpoints sent, the model predicts no cache use; reported writes are flagged', async () => {
    server.handle(() =>
      anthropicOk('{}', {
        input_tokens: 5000,
        output_tokens: 5,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      }),
    );
    const client = anthropicClient(config(server.anthropicURL, 'claude-sonnet-4-20250514'));
    const calls: ObservedCall[] = [];
    for (const q of ['first?', 'second?']) {
      const r = request(q);
      calls.push({ request: r, usage: (await client.complete(r)).usage });
    }
    expect(server.hits.at(-1)!.body).not.toHaveProperty('cache_control');
    expect(
      predictCallCache(calls, profile('anthropic-5m'), tokens, false).every(
        (c) => c.agrees && c.predictedRead === 0 && c.predictedWrite === 0,
      ),
    ).toBe(true);
    const written = calls.map((c) => ({ ...c, usage: { ...c.usage, cacheWrite: 4000 } }));
    expect(predictCallCache(written, profile('anthropic-5m'), tokens, false).map((c) => c.agrees)).toEqual([
      false,
      false,
    ]);
  });

  it('Anthropic with breakpoints: a call that extends an earlier one reads it and writes the rest', () => {
    const first = request('q');
    const second = { ...first, user: `${first.user}\nand a follow-up question` };
    const t1 = tokens(`${first.system}\n${first.user}`);
    const t2 = tokens(`${second.system}\n${second.user}`);
    const usage = (read: number, write: number) => ({ input: 0, output: 5, cacheRead: read, cacheWrite: write });
    const checks = predictCallCache(
      [
        { request: first, usage: usage(0, t1) },
        { request: second, usage: usage(t1, t2 - t1) },
      ],
      profile('anthropic-5m'),
      tokens,
      true,
    );
    expect(checks).toMatchObject([
      { predictedRead: 0, predictedWrite: t1, agrees: true },
      { predictedRead: t1, predictedWrite: t2 - t1, agrees: true },
    ]);
  });
});

describe('cache telemetry in a run', () => {
  it('is written per condition from the predictor calls it relied on, and absent where none kept a request', async () => {
    const { runStudy } = await import('../../src/engine/run.js');
    const { loadFixtures } = await import('../../src/load/fixtures.js');
    const { allConditions } = await import('../../src/policy/registry.js');
    const { structuralReader } = await import('../../src/behaviour/structural.js');
    const fixtures = loadFixtures('fixtures/canonical/cache-timing-prune-now.json', process.cwd());
    const conditions = allConditions().filter((c) => c.name === 'predictive-semantic' || c.name === 'raw');
    const usage = { input: 100, output: 5, cacheRead: 0, cacheWrite: 0 };
    const runs = runStudy({
      conditions,
      fixtures,
      timing: { kind: 'immediate' },
      placeholders: 'marker',
      tokens,
      models: {
        reader: structuralReader(),
        predictorCharge: (condition, view) =>
          condition !== 'predictive-semantic'
            ? undefined
            : {
                provider: 'openai',
                model: 'gpt-4o-mini',
                failed: false,
                request: request(view.prunePoint.id),
                call: {
                  key: view.prunePoint.id,
                  outcome: { ok: false, kind: 'http', message: 'fake' } as never,
                  latencyMs: 0,
                  usage,
                  costUsd: null,
                },
              },
      },
    });
    const telemetry = runs.find((r) => r.info.name === 'predictive-semantic')!.summary.cacheTelemetry!;
    // Two calls sharing the long prefix: the second is predicted to read it, the provider reported nothing.
    expect(telemetry).toMatchObject({
      profile: 'openai-in-memory',
      calls: 2,
      agreeing: 1,
      observedRead: 0,
      predictedWrite: 0,
    });
    expect(telemetry.predictedRead).toBeGreaterThan(1024);
    expect(runs.find((r) => r.info.name === 'raw')!.summary).not.toHaveProperty('cacheTelemetry');
  });
});
