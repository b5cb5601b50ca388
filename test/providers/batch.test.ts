// The batch interfaces end to end against a fake batch endpoint on 127.0.0.1: a batched run makes no interactive
// call, prints its progress, and writes what its replay writes (and what an interactive run with the same answers
// writes, latency aside); a run stopped while polling resumes the recorded batch instead of submitting again.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Manifest } from '../../src/artifacts/schema.js';
import { batchStateFile, fillFromBatch } from '../../src/providers/batch.js';
import { openaiBatch } from '../../src/providers/batch-openai.js';
import { anthropicBatch } from '../../src/providers/batch-anthropic.js';
import { CallCache, cacheKey } from '../../src/providers/cache.js';
import { batchPrice, priceOf, pricingTable } from '../../src/providers/pricing.js';
import type { ChatRequest } from '../../src/providers/types.js';
import { cli } from '../support/cli.js';
import { startFakeBatch, type FakeBatch } from '../support/fake-batch.js';
import { closedPort } from '../support/fake-llm.js';
import { writeFixture } from '../support/minimal.js';

const KEY = 'sk-fake-batch-0001';
const tmp = () => mkdtempSync(join(tmpdir(), 'prunelab-batch-'));
let server: FakeBatch;

beforeAll(async () => {
  server = await startFakeBatch();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.hits.length = 0;
  server.pollsBeforeEnd = 1;
  server.answer = (_api, body) =>
    JSON.stringify(body).includes('prod-eu.')
      ? '{"answer": "prod-eu"}'
      : '{"unneeded": [{"id": "c1", "reason": "old", "confidence": 0.9}], "answer": "UNKNOWN"}';
});

const MODEL = { openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-20250514' } as const;
const env = (provider: 'openai' | 'anthropic', url?: string) =>
  provider === 'openai'
    ? { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url ?? server.openaiURL }
    : { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url ?? server.anthropicURL };
const args = (provider: 'openai' | 'anthropic', file: string, out: string, cache: string, extra: string[] = []) => [
  'experiment',
  '--fixtures',
  file,
  '--out',
  out,
  '--cache-dir',
  cache,
  '--provider',
  provider,
  '--model',
  MODEL[provider],
  '--reader',
  'model',
  '--condition',
  'raw,predictive-semantic,ladder-0-4',
  '--concurrency',
  '1',
  ...extra,
];

function outputs(dir: string, latency = true): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!f.isFile() || f.name === 'run.json') continue;
    const rel = join(f.parentPath.slice(dir.length), f.name);
    let text = readFileSync(join(f.parentPath, f.name), 'utf8');
    if (f.name === 'manifest.json')
      text = JSON.stringify({ ...Manifest.parse(JSON.parse(text)), run: null, outputs: null });
    if (!latency) text = text.replace(/"latencyMs": ?\{[^}]*\}/g, '"latencyMs": 0');
    out[rel] = text;
  }
  return out;
}

const interactive = (hits: readonly string[]) =>
  hits.filter((h) => h === 'POST /v1/chat/completions' || h === 'POST /v1/messages');

describe('experiment --batch', () => {
  for (const provider of ['openai', 'anthropic'] as const) {
    it(`${provider}: submits, polls with progress, collects into the cache; the replay and an interactive run write the same`, async () => {
      const { file } = writeFixture();
      const [out, cache, replay, live, liveCache] = [tmp(), tmp(), tmp(), tmp(), tmp()];
      const r = await cli(
        args(provider, file, out, cache, ['--batch', '--batch-poll-seconds', '1']),
        process.cwd(),
        env(provider),
      );
      expect(r.stderr).toContain('submitted');
      expect(r.stderr).toMatch(/in_progress, 0 of \d+ done/);
      expect(r.code).toBe(0);
      expect(interactive(server.hits)).toEqual([]);
      // Two batches: the predictor's, then the reader's (its questions depend on the predictions).
      expect(
        server.hits.filter((h) => h === (provider === 'openai' ? 'POST /v1/batches' : 'POST /v1/messages/batches')),
      ).toHaveLength(2);
      expect(existsSync(batchStateFile(cache, 'reader'))).toBe(false);

      server.hits.length = 0;
      const dead = `http://127.0.0.1:${await closedPort()}${provider === 'openai' ? '/v1' : ''}`;
      const again = await cli(
        args(provider, file, replay, cache, ['--llm-cache', 'replay']),
        process.cwd(),
        env(provider, dead),
      );
      expect(again.code).toBe(0);
      expect(outputs(replay)).toEqual(outputs(out));

      const one = await cli(args(provider, file, live, liveCache), process.cwd(), env(provider));
      expect(one.code).toBe(0);
      expect(interactive(server.hits).length).toBeGreaterThan(0);
      expect(outputs(live, false)).toEqual(outputs(out, false));
    });
  }

  it('refuses --batch with --llm-cache replay or with --max-cost-usd', async () => {
    const { file } = writeFixture();
    const replay = await cli(
      args('openai', file, tmp(), tmp(), ['--batch', '--llm-cache', 'replay']),
      process.cwd(),
      env('openai'),
    );
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain('PL_USAGE_BATCH_NEEDS_RECORD');
    const budget = await cli(
      args('openai', file, tmp(), tmp(), ['--batch', '--max-cost-usd', '1']),
      process.cwd(),
      env('openai'),
    );
    expect(budget.code).toBe(2);
    expect(budget.stderr).toContain('PL_USAGE_BATCH_BUDGET');
  });
});

describe('fillFromBatch', () => {
  const requests: ChatRequest[] = [0, 1, 2].map((i) => ({
    system: 's',
    user: `question ${i}`,
    maxTokens: 16,
    temperature: null,
    seed: null,
    epoch: 0,
  }));
  for (const provider of ['openai', 'anthropic'] as const) {
    it(`${provider}: a run stopped while polling resumes the recorded batch, and identical requests are sent once`, async () => {
      server.pollsBeforeEnd = 3;
      const cache = new CallCache(tmp());
      const config = {
        model: MODEL[provider],
        apiKey: KEY,
        baseURL: provider === 'openai' ? server.openaiURL : server.anthropicURL,
        timeoutMs: 5000,
      };
      const backend = () => (provider === 'openai' ? openaiBatch(config) : anthropicBatch(config));
      const lines: string[] = [];
      const killed = new Error('killed');
      const run = (sleep: (ms: number) => Promise<void>) =>
        fillFromBatch(
          { backend: backend(), cache, role: 'predictor', pollMs: 1, sleep, progress: (l) => lines.push(l) },
          [...requests, requests[0]!],
        );
      await expect(run(() => Promise.reject(killed))).rejects.toBe(killed);
      const state = JSON.parse(readFileSync(batchStateFile(cache.dir, 'predictor'), 'utf8')) as {
        id: string;
        keys: string[];
      };
      expect(state.keys).toHaveLength(3);
      const submits = server.hits.filter((h) => h.startsWith('POST') && h.endsWith('batches')).length;
      expect(await run(() => Promise.resolve())).toEqual({ collected: 3, failed: 0 });
      expect(server.hits.filter((h) => h.startsWith('POST') && h.endsWith('batches')).length).toBe(submits);
      expect(lines.some((l) => l.includes(`${state.id} (predictor): resuming`))).toBe(true);
      for (const r of requests)
        expect(cache.read(cacheKey(provider, MODEL[provider], r))).toMatchObject({
          outcome: { ok: true },
          latencyMs: 0,
          attempts: 1,
        });
      expect(existsSync(batchStateFile(cache.dir, 'predictor'))).toBe(false);
      // Everything is stored now: nothing is submitted again.
      server.hits.length = 0;
      expect(await run(() => Promise.resolve())).toEqual({ collected: 0, failed: 0 });
      expect(server.hits).toEqual([]);
    });
  }
});

describe('batch pricing', () => {
  it('bills every rate at the dated batch multiplier of each provider', () => {
    const table = pricingTable();
    for (const provider of ['openai', 'anthropic'] as const) {
      expect(table.batch[provider].multiplier).toBe(0.5);
      expect(table.batch[provider].source).toMatch(/batch/i);
    }
    const sonnet = priceOf('anthropic', 'claude-sonnet-4-20250514');
    expect(batchPrice(sonnet)).toMatchObject({ input: 1.5, output: 7.5, cacheRead: 0.15, cacheWrite: 1.875 });
    const unconfirmed = priceOf('anthropic', 'claude-sonnet-4-5');
    expect(batchPrice(unconfirmed)).toMatchObject({ input: 1.5, cacheRead: null });
  });
});
