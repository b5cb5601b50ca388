// The call pipeline against the fake server: normalised usage; on both APIs, retries (retry-after honoured, backoff
// after a 500), malformed bodies, timeouts and replay with the network unreachable; replay misses, and what a call
// costs. Waits are recorded, never slept.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { RunError } from '../../src/errors.js';
import { anthropicClient } from '../../src/providers/anthropic.js';
import { Budget, BudgetExhausted } from '../../src/providers/budget.js';
import { CallCache, cacheKey, type CacheMode } from '../../src/providers/cache.js';
import { BudgetStop, Gateway, runAll, runUntilStopped } from '../../src/providers/gateway.js';
import { openaiClient } from '../../src/providers/openai.js';
import { costUsd, priceOf } from '../../src/providers/pricing.js';
import { backoffMs } from '../../src/providers/retry.js';
import { retryAfterMs, type ChatRequest, type RemoteProvider } from '../../src/providers/types.js';
import { anthropicOk, closedPort, openaiOk, startFakeLlm, type FakeLlm } from '../support/fake-llm.js';

const KEY = 'sk-fake-KEY-0123456789';
const tokens = tokenCounter();
let server: FakeLlm;
let slept: number[];

beforeAll(async () => {
  server = await startFakeLlm();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.hits.length = 0;
  slept = [];
});

const request = (user = 'hello'): ChatRequest => ({
  system: 'be brief',
  user,
  maxTokens: 64,
  temperature: 0,
  seed: 7,
  epoch: 0,
});

function gateway(
  provider: RemoteProvider,
  options: {
    mode?: CacheMode;
    dir?: string;
    resume?: boolean;
    budget?: number | null;
    timeoutMs?: number;
    model?: string;
    url?: string;
  } = {},
): Gateway {
  const model = options.model ?? (provider === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-20250514');
  const config = {
    model,
    apiKey: KEY,
    baseURL: options.url ?? (provider === 'openai' ? server.openaiURL : server.anthropicURL),
    timeoutMs: options.timeoutMs ?? 5000,
  };
  const mode = options.mode ?? 'off';
  return new Gateway({
    provider,
    model,
    // The CLI gives a replaying gateway no client at all; a test may give it one aimed at a dead port to show it is
    // never used.
    client:
      mode === 'replay' && !options.url
        ? undefined
        : provider === 'openai'
          ? openaiClient(config)
          : anthropicClient(config),
    mode,
    cache: options.dir ? new CallCache(options.dir) : undefined,
    resume: options.resume ?? false,
    budget: new Budget(options.budget ?? null),
    price: priceOf(provider, model),
    retry: {
      attempts: 3,
      baseMs: 500,
      maxMs: 30_000,
      seed: 's',
      sleep: async (ms) => {
        slept.push(ms);
      },
    },
    tokens,
    secrets: [KEY],
    clock: () => 0,
  });
}

describe('providers against the fake server', () => {
  it('OpenAI: a success gives the text, usage split into uncached and cached input, and its cost', async () => {
    server.handle(() => openaiOk('hi', { prompt_tokens: 1000, completion_tokens: 200, cached: 400 }));
    const r = await gateway('openai').call(request(), 'test');
    expect(r.outcome).toMatchObject({ ok: true, response: { text: 'hi' } });
    expect(r.usage).toEqual({ input: 600, output: 200, cacheRead: 400, cacheWrite: 0 });
    // gpt-4o-mini: 600 * 0.15 + 200 * 0.6 + 400 * 0.075 per million
    expect(r.costUsd).toBeCloseTo((600 * 0.15 + 200 * 0.6 + 400 * 0.075) / 1e6, 12);
    expect(server.hits).toHaveLength(1);
    expect(server.hits[0]!.path).toBe('/v1/chat/completions');
    expect(server.hits[0]!.body).toMatchObject({
      model: 'gpt-4o-mini',
      seed: 7,
      temperature: 0,
      max_completion_tokens: 64,
    });
  });

  it('Anthropic: a success reads cache reads and writes from their own usage fields', async () => {
    server.handle(() =>
      anthropicOk('hi', {
        input_tokens: 1000,
        output_tokens: 500,
        cache_read_input_tokens: 2000,
        cache_creation_input_tokens: 400,
      }),
    );
    const r = await gateway('anthropic').call(request(), 'test');
    expect(r.usage).toEqual({ input: 1000, output: 500, cacheRead: 2000, cacheWrite: 400 });
    expect(r.costUsd).toBeCloseTo((1000 * 3 + 500 * 15 + 2000 * 0.3 + 400 * 3.75) / 1e6, 12);
    expect(server.hits[0]!.path).toBe('/v1/messages');
    expect(server.hits[0]!.body).toMatchObject({ system: 'be brief', max_tokens: 64 });
    expect(server.hits[0]!.body).not.toHaveProperty('temperature');
  });

  it('a 400 is not retried and becomes a recorded error', async () => {
    server.handle(() => ({ status: 400, body: { error: { message: 'bad model' } } }));
    const r = await gateway('openai').call(request(), 'test');
    expect(r.outcome).toMatchObject({ ok: false, kind: 'http' });
    expect(server.hits).toHaveLength(1);
  });

  it('replay of a missing entry fails with a message naming the key and the call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-cache-'));
    const key = cacheKey('openai', 'gpt-4o-mini', request('never recorded'));
    const err = await gateway('openai', { mode: 'replay', dir })
      .call(request('never recorded'), 'predictor, mini at pp1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunError);
    expect((err as RunError).code).toBe('PL_LLM_REPLAY_MISS');
    expect((err as Error).message).toContain(key);
    expect((err as Error).message).toContain('predictor, mini at pp1');
  });

  it('the key never reaches an error message or a cache file, even when the server echoes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-cache-'));
    server.handle((hit) => ({
      status: 401,
      body: { error: { message: `invalid key ${String(hit.headers.authorization ?? hit.headers['x-api-key'])}` } },
    }));
    const r = await gateway('anthropic', { mode: 'record', dir }).call(request('leak'), 'test');
    expect(r.outcome.ok).toBe(false);
    const sent = String(server.hits[0]!.headers['x-api-key'] ?? server.hits[0]!.headers.authorization);
    expect(sent).toContain(KEY);
    expect(JSON.stringify(r)).not.toContain(KEY);
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(KEY);
    expect(JSON.stringify(r)).toContain('[redacted]');
  });

  it('the budget refuses the call whose worst case would pass the limit, before sending it', async () => {
    server.handle(() => openaiOk('x', { prompt_tokens: 10, completion_tokens: 10, cached: 0 }));
    const g = gateway('openai', { budget: 0.00001 });
    expect(g.worstCaseUsd(request())).toBeGreaterThan(0.00001);
    await expect(g.call(request(), 'test')).rejects.toBeInstanceOf(BudgetExhausted);
    expect(server.hits).toHaveLength(0);
  });

  it('runAll stops starting calls once the budget stops one, and says how many completed', async () => {
    // Each call costs about its worst case (full output allowance used), so 2.5 worst cases allow two calls.
    server.handle(() => openaiOk('x', { prompt_tokens: 20, completion_tokens: 64, cached: 0 }));
    const probe = gateway('openai');
    const worst = probe.worstCaseUsd(request('a'))!;
    const g = gateway('openai', { budget: worst * 2.5 });
    const err = await runAll(
      ['a', 'b', 'c', 'd'].map((u) => () => g.call(request(u), u)),
      1,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetStop);
    expect((err as BudgetStop).completed).toBe(2);
    expect((err as BudgetStop).total).toBe(4);
    expect(server.hits).toHaveLength(2);
    expect(g.spentUsd).toBeLessThanOrEqual(worst * 2.5);
  });

  it('runUntilStopped hands back the calls that completed, in task order, with the stop', async () => {
    server.handle((hit) =>
      openaiOk(`re: ${String((hit.body.messages as { content: string }[])[1]!.content)}`, {
        prompt_tokens: 20,
        completion_tokens: 64,
        cached: 0,
      }),
    );
    const worst = gateway('openai').worstCaseUsd(request('a'))!;
    const g = gateway('openai', { budget: worst * 2.5 });
    const { done, stop } = await runUntilStopped(
      ['a', 'b', 'c', 'd'].map((u) => () => g.call(request(u), u)),
      1,
    );
    expect(stop).toBeInstanceOf(BudgetStop);
    expect(stop).toMatchObject({ completed: 2, total: 4 });
    expect(done.map((r) => (r.outcome.ok ? r.outcome.response.text : r.outcome.message))).toEqual(['re: a', 're: b']);
    const free = await runUntilStopped(
      ['e', 'f'].map((u) => () => gateway('openai').call(request(u), u)),
      2,
    );
    expect(free.stop).toBeNull();
    expect(free.done).toHaveLength(2);
  });
});

// The failure cases every backend must survive, run against both APIs of the fake server.
describe.each(['openai', 'anthropic'] as const)(
  '%s against the fake server: retries, failures and replay',
  (provider) => {
    const okReply = (text: string) => (provider === 'openai' ? openaiOk(text) : anthropicOk(text));
    const errorBody = (type: string, message: string) =>
      provider === 'openai' ? { error: { message, type } } : { type: 'error', error: { type, message } };

    it('429 with retry-after: waits what the server asked, then succeeds', async () => {
      server.handle((_hit, n) =>
        n === 1
          ? { status: 429, headers: { 'retry-after': '3' }, body: errorBody('rate_limit_error', 'slow down') }
          : okReply('late'),
      );
      const r = await gateway(provider).call(request(), 'test');
      expect(r.outcome).toMatchObject({ ok: true, response: { text: 'late' } });
      expect(slept).toEqual([3000]);
      expect(server.hits).toHaveLength(2);
    });

    it('500 then success: retried after a seeded backoff in [base/2, base)', async () => {
      server.handle((_hit, n) => (n === 1 ? { status: 500, body: errorBody('api_error', 'boom') } : okReply('fine')));
      const r = await gateway(provider).call(request(), 'test');
      expect(r.outcome).toMatchObject({ ok: true, response: { text: 'fine' } });
      expect(server.hits).toHaveLength(2);
      expect(slept).toHaveLength(1);
      expect(slept[0]).toBeGreaterThanOrEqual(250);
      expect(slept[0]).toBeLessThan(500);
    });

    it('a malformed JSON body is an error of kind malformed, not retried', async () => {
      server.handle(() => ({ raw: provider === 'openai' ? '{"choices": [ not json' : '{"content": [ not json' }));
      const r = await gateway(provider).call(request('malformed'), 'test');
      expect(r.outcome).toMatchObject({ ok: false, kind: 'malformed' });
      expect(server.hits).toHaveLength(1);
    });

    it('a hung response times out, is retried, and ends as a timeout error', async () => {
      server.handle(() => 'hang');
      const r = await gateway(provider, { timeoutMs: 150 }).call(request('hang'), 'test');
      expect(r.outcome).toMatchObject({ ok: false, kind: 'timeout' });
      expect(server.hits).toHaveLength(3);
      expect(slept).toHaveLength(2);
    });

    it('record stores each call under sha256(provider, model, request); replay with the network unreachable serves it', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'prunelab-cache-'));
      server.handle(() => okReply('stored'));
      const model = provider === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-20250514';
      const recorded = await gateway(provider, { mode: 'record', dir }).call(request('keep me'), 'test');
      const key = cacheKey(provider, model, request('keep me'));
      expect(recorded.key).toBe(key);
      expect(readdirSync(dir)).toEqual([`${key}.json`]);
      server.hits.length = 0;
      const dead = `http://127.0.0.1:${await closedPort()}${provider === 'openai' ? '/v1' : ''}`;
      const replayed = await gateway(provider, { mode: 'replay', dir, url: dead }).call(request('keep me'), 'test');
      expect(replayed).toEqual(recorded);
      expect(server.hits).toHaveLength(0);
      // Another epoch of the same request is another call: replay has no entry for it.
      const other = await gateway(provider, { mode: 'replay', dir, url: dead })
        .call({ ...request('keep me'), epoch: 1 }, 'epoch 1')
        .catch((e: unknown) => e);
      expect((other as RunError).code).toBe('PL_LLM_REPLAY_MISS');
    });
  },
);

describe('pricing and retry arithmetic', () => {
  it('costs each usage part at its own rate, and is null when a needed rate is unconfirmed', () => {
    const sonnet = priceOf('anthropic', 'claude-sonnet-4-20250514');
    expect(
      costUsd(sonnet, { input: 1_000_000, output: 1_000_000, cacheRead: 1_000_000, cacheWrite: 1_000_000 }),
    ).toBeCloseTo(3 + 15 + 0.3 + 3.75, 9);
    const haiku45 = priceOf('anthropic', 'claude-haiku-4-5');
    expect(costUsd(haiku45, { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 })).toBeCloseTo(
      (10 * 1 + 10 * 5) / 1e6,
      12,
    );
    expect(costUsd(haiku45, { input: 10, output: 10, cacheRead: 5, cacheWrite: 0 })).toBeNull();
    expect(
      costUsd(priceOf('openai', 'no-such-model'), { input: 1, output: 0, cacheRead: 0, cacheWrite: 0 }),
    ).toBeNull();
  });

  it('reads retry-after as seconds, as an HTTP date, or retry-after-ms', () => {
    const h = (m: Record<string, string>) => (name: string) => m[name] ?? null;
    expect(retryAfterMs(h({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(h({ 'retry-after-ms': '150' }))).toBe(150);
    expect(
      retryAfterMs(h({ 'retry-after': 'Wed, 02 Dec 2026 10:00:05 GMT' }), () =>
        Date.parse('Wed, 02 Dec 2026 10:00:00 GMT'),
      ),
    ).toBe(5000);
    expect(retryAfterMs(h({}))).toBeNull();
  });

  it('backoff doubles per retry up to the cap, jittered into the upper half', () => {
    const policy = { baseMs: 100, maxMs: 1000 };
    expect(backoffMs(policy, 1, () => 0)).toBe(50);
    expect(backoffMs(policy, 3, () => 0.999999)).toBe(400);
    expect(backoffMs(policy, 10, () => 0)).toBe(500);
  });
});
