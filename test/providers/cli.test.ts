// The model-backed study end to end through the CLI, against the fake server: record, replay with the network
// unreachable, epochs, a budget stop writing what is complete then --resume with no repeated paid call, invalid
// model output, the key-leak check, usage errors, and --estimate-cost calling nothing.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Manifest, PointMeasures, Summary } from '../../src/artifacts/schema.js';
import { cli } from '../support/cli.js';
import { closedPort, ok, startFakeLlm, systemText, userText, type FakeLlm, type Hit } from '../support/fake-llm.js';
import { writeFixture } from '../support/minimal.js';

const KEY = 'sk-fake-LEAKCHECK-4242';
const tmp = () => mkdtempSync(join(tmpdir(), 'prunelab-model-'));
let server: FakeLlm;

beforeAll(async () => {
  server = await startFakeLlm();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.hits.length = 0;
});

const isPredictor = (hit: Hit) => systemText(hit).startsWith('You help an agent manage');

/** The item ids a predictor request showed the model. */
const shown = (hit: Hit): string[] => (JSON.parse(userText(hit)) as { items: { id: string }[] }).items.map((i) => i.id);

/**
 * Predictor: c1 (a tool call) and u1 (the constraint) are unneeded, whenever the request shows them (the gated
 * request withholds u1, the sole record of a user constraint). Reader: answers prod-eu when the context holds it.
 */
function wellBehaved(hit: Hit) {
  if (isPredictor(hit)) {
    const unneeded = [
      { id: 'c1', reason: 'old call', confidence: 0.9 },
      { id: 'u1', reason: 'looks stale', confidence: 0.8 },
    ].filter((u) => shown(hit).includes(u.id));
    return ok(hit.api, JSON.stringify({ unneeded }));
  }
  return ok(hit.api, userText(hit).includes('prod-eu.') ? '{"answer": "prod-eu"}' : '{"answer": "UNKNOWN"}');
}

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}

function outputs(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of filesUnder(dir)) {
    if (f === 'run.json') continue; // the run's volatile facts
    const text = readFileSync(join(dir, f), 'utf8');
    out[f] = f === 'manifest.json' ? JSON.stringify({ ...Manifest.parse(JSON.parse(text)), run: null }) : text;
  }
  return out;
}

const CONDITIONS = 'raw,predictive-semantic,regenerability-guard,ladder-0-4';

function args(
  fixture: string,
  out: string,
  cache: string,
  provider: 'openai' | 'anthropic',
  extra: string[] = [],
): string[] {
  const model = provider === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-20250514';
  return [
    'experiment',
    '--fixtures',
    fixture,
    '--out',
    out,
    '--cache-dir',
    cache,
    '--provider',
    provider,
    '--model',
    model,
    '--condition',
    CONDITIONS,
    '--concurrency',
    '1',
    ...extra,
  ];
}

function env(provider: 'openai' | 'anthropic', url?: string) {
  return provider === 'openai'
    ? { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url ?? server.openaiURL }
    : { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url ?? server.anthropicURL };
}

describe('experiment with a model provider', () => {
  for (const provider of ['openai', 'anthropic'] as const) {
    it(`${provider}: records, reports the predictor as overhead, and a replay with the network unreachable writes the same files`, async () => {
      server.handle(wellBehaved);
      const { file } = writeFixture();
      const [out, cache, again] = [tmp(), tmp(), tmp()];
      const recorded = await cli(args(file, out, cache, provider, ['--reader', 'model']), process.cwd(), env(provider));
      expect(recorded.stderr).toContain('model calls:');
      expect(recorded.code).toBe(0);
      const paid = server.hits.length;
      // One predictor request per scope: the guard's (gated: not u1, the sole record of a constraint), the ungated
      // ablation's, and the ladder's, which shows only what its evidence rules leave open: rung 0 removes r1 because
      // its copy r2 stays, so neither is the predictor's to judge.
      expect(server.hits.filter(isPredictor).map(shown).sort()).toEqual([
        ['c1', 'c2'],
        ['c1', 'r1', 'c2', 'r2'],
        ['u1', 'c1', 'r1', 'c2', 'r2'],
      ]);
      expect(paid).toBeGreaterThan(3);

      const summary = (c: string) => Summary.parse(JSON.parse(readFileSync(join(out, c, 'summary.json'), 'utf8')));
      for (const c of ['predictive-semantic', 'regenerability-guard', 'ladder-0-4']) {
        expect(summary(c).modelUsage).toMatchObject({
          provider,
          calls: 1,
          errors: 0,
          inputTokens: 100,
          outputTokens: 20,
        });
        expect(summary(c).tokens.overhead).toBe(120);
      }
      expect(summary('raw').modelUsage).toBeNull();
      expect(summary('raw').tokens.overhead).toBe(0);
      const ps = summary('predictive-semantic');
      expect(ps.parameters.predictor).toBe(
        `${provider}/${provider === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-20250514'}:predict-v2`,
      );
      // The model proposed u1, the constraint: the ungated ablation removes it and the probe fails from the pruned context.
      expect(ps.behaviour.reader).toBe(
        `${provider}/${provider === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-20250514'}`,
      );
      expect(ps.behaviour.full.taskSuccess).toEqual({ numerator: 1, denominator: 1, value: 1 });
      expect(ps.behaviour.pruned.taskSuccess).toEqual({ numerator: 0, denominator: 1, value: 0 });
      expect(ps.behaviour.paired.causedFailures).toEqual({ numerator: 1, denominator: 1, value: 1 });
      expect(ps.behaviour.pruned.constraintViolations).toEqual({ numerator: 1, denominator: 1, value: 1 });
      expect(summary('raw').behaviour.paired.causedFailures.numerator).toBe(0);
      const manifest = Manifest.parse(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
      const model = provider === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-20250514';
      // Three predictor calls (one per scope); every other call was the reader's; none failed.
      expect(manifest.models).toEqual([
        { role: 'predictor', provider, model, calls: { finished: 3, failed: 0 } },
        { role: 'reader', provider, model, calls: { finished: paid - 3, failed: 0 } },
      ]);

      server.hits.length = 0;
      const dead = `http://127.0.0.1:${await closedPort()}${provider === 'openai' ? '/v1' : ''}`;
      const replayed = await cli(
        args(file, again, cache, provider, ['--reader', 'model', '--llm-cache', 'replay']),
        process.cwd(),
        env(provider, dead),
      );
      expect(replayed.stderr).toContain('0 sent');
      expect(replayed.code).toBe(0);
      expect(server.hits).toHaveLength(0);
      expect(outputs(again)).toEqual(outputs(out));
    });
  }

  it('--epochs answers each probe once per epoch with recorded seeds; --llm-cache off stores nothing; --check replays', async () => {
    server.handle(wellBehaved);
    const { file } = writeFixture();
    const [out, cache, offCache] = [tmp(), tmp(), tmp()];
    const one = await cli(
      [...args(file, out, cache, 'openai', ['--reader', 'model']), '--concurrency', '3'],
      process.cwd(),
      env('openai'),
    );
    expect(one.code).toBe(0);
    const readerHits = server.hits.filter((h) => !isPredictor(h)).length;
    server.hits.length = 0;
    const two = await cli(
      [
        ...args(file, join(out, 'e2'), offCache, 'openai', [
          '--reader',
          'model',
          '--epochs',
          '2',
          '--llm-cache',
          'off',
          '--seed',
          '11',
        ]),
      ],
      process.cwd(),
      env('openai'),
    );
    expect(two.code).toBe(0);
    expect(server.hits.filter((h) => !isPredictor(h))).toHaveLength(2 * readerHits);
    expect(new Set(server.hits.filter((h) => !isPredictor(h)).map((h) => h.body.seed))).toEqual(new Set([11, 12]));
    expect(server.hits.filter((h) => !isPredictor(h)).every((h) => h.body.temperature === 0.7)).toBe(true);
    expect(readdirSync(offCache)).toEqual([]);
    const s = Summary.parse(JSON.parse(readFileSync(join(out, 'e2', 'raw', 'summary.json'), 'utf8')));
    expect(s.behaviour).toMatchObject({ epochs: 2, seeds: [11, 12], temperature: 0.7, probes: 2 });

    server.hits.length = 0;
    const checked = await cli(
      [...args(file, out, cache, 'openai', ['--reader', 'model']), '--check'],
      process.cwd(),
      env('openai'),
    );
    expect(checked.stdout + checked.stderr).toContain('matches a fresh regeneration');
    expect(checked.code).toBe(0);
    expect(server.hits).toHaveLength(0);
  });

  it('--epochs 3 on Anthropic (no seed, no temperature) makes 3 recorded reader calls per probe and counts 3 answers', async () => {
    // The Anthropic requests of the three epochs are textually the same; each epoch must still be its own call. The
    // fake answers UNKNOWN the third time it sees a body, so one answer counted three times would show in the counts.
    const seen = new Map<string, number>();
    server.handle((hit) => {
      if (isPredictor(hit)) return wellBehaved(hit);
      const body = JSON.stringify(hit.body);
      const n = (seen.get(body) ?? 0) + 1;
      seen.set(body, n);
      return n === 3 ? ok(hit.api, '{"answer": "UNKNOWN"}') : wellBehaved(hit);
    });
    const { file } = writeFixture();
    const [one, three, cache1, cache3] = [tmp(), tmp(), tmp(), tmp()];
    expect(
      (await cli(args(file, one, cache1, 'anthropic', ['--reader', 'model']), process.cwd(), env('anthropic'))).code,
    ).toBe(0);
    const single = server.hits.filter((h) => !isPredictor(h)).length;
    expect(single).toBeGreaterThan(0);
    server.hits.length = 0;
    seen.clear();
    const r = await cli(
      args(file, three, cache3, 'anthropic', ['--reader', 'model', '--epochs', '3']),
      process.cwd(),
      env('anthropic'),
    );
    expect(r.code).toBe(0);
    const readers = server.hits.filter((h) => !isPredictor(h));
    expect(readers).toHaveLength(3 * single);
    for (const h of readers) {
      expect(h.body).not.toHaveProperty('temperature');
      expect(h.body).not.toHaveProperty('seed');
    }
    // One cache entry per call: the predictor's (one per scope) and each epoch's reader calls.
    expect(readdirSync(cache3).filter((f) => f.endsWith('.json'))).toHaveLength(3 + 3 * single);
    const raw = Summary.parse(JSON.parse(readFileSync(join(three, 'raw', 'summary.json'), 'utf8')));
    expect(raw.behaviour).toMatchObject({ epochs: 3, temperature: null, seeds: null, probes: 3 });
    // Raw's pruned context is its full one: one call per epoch. Two epochs found prod-eu, the third said UNKNOWN.
    expect(raw.behaviour.full.taskSuccess).toEqual({ numerator: 2, denominator: 3, value: 2 / 3 });
    expect(raw.behaviour.usage).toMatchObject({ calls: 3 });
  });

  it('replay with no recording fails naming the missing entry, and writes nothing', async () => {
    const { file } = writeFixture();
    const [out, cache] = [tmp(), tmp()];
    const r = await cli(args(file, join(out, 'x'), cache, 'openai', ['--llm-cache', 'replay']), process.cwd(), {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no recorded call [0-9a-f]{64} \(predictor \(gated\), mini at pp1\)/);
    expect(r.stderr).toContain('[PL_LLM_REPLAY_MISS]');
    expect(existsSync(join(out, 'x'))).toBe(false);
  });

  it('an invalid model answer makes every predictor consumer ABSTAIN with the reason, counted as an error', async () => {
    server.handle((hit) => (isPredictor(hit) ? ok(hit.api, 'Sure! I think c1 can go.') : wellBehaved(hit)));
    const { file } = writeFixture();
    const out = tmp();
    const r = await cli(args(file, out, tmp(), 'openai'), process.cwd(), env('openai'));
    expect(r.code).toBe(0);
    for (const c of ['predictive-semantic', 'regenerability-guard', 'ladder-0-4']) {
      const points = readFileSync(join(out, c, 'decisions.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { decision: string; reason: string; rule: string });
      const abstained = points.filter((d) => d.decision === 'ABSTAIN');
      expect(abstained.length).toBeGreaterThan(0);
      for (const d of abstained) expect(d.reason).toMatch(/predictor abstained: model answer unparseable/);
      expect(points.some((d) => d.decision === 'PRUNE' && d.rule === 'predictive-semantic')).toBe(false);
      const s = Summary.parse(JSON.parse(readFileSync(join(out, c, 'summary.json'), 'utf8')));
      expect(s.modelUsage).toMatchObject({ calls: 1, errors: 1 });
    }
  });

  it('a run in which every model call failed exits 1 naming the provider error, and writes nothing', async () => {
    server.handle(() => ({ status: 401, body: { error: { message: 'invalid api key for project orders-lab' } } }));
    const { file } = writeFixture();
    const out = join(tmp(), 'r');
    const r = await cli(args(file, out, tmp(), 'openai'), process.cwd(), env('openai'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[PL_MODEL_CALLS_ALL_FAILED]');
    expect(r.stderr).toContain('every model call failed (3 of 3)');
    expect(r.stderr).toContain('invalid api key for project orders-lab');
    expect(existsSync(out)).toBe(false);
  });

  it('a partly failed run exits 0 and prints how many model calls failed on stderr', async () => {
    // The predictor's calls fail; the reader's succeed.
    server.handle((hit) =>
      isPredictor(hit) ? { status: 401, body: { error: { message: 'predictor key revoked' } } } : wellBehaved(hit),
    );
    const { file } = writeFixture();
    const out = tmp();
    const r = await cli(args(file, out, tmp(), 'openai', ['--reader', 'model']), process.cwd(), env('openai'));
    expect(r.code).toBe(0);
    const finished = server.hits.length;
    expect(r.stderr).toContain(`model calls: 3 of ${finished} failed (first: `);
    expect(r.stderr).toContain('predictor key revoked');
    const decisions = readFileSync(join(out, 'ladder-0-4', 'decisions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { decision: string; reason: string });
    expect(
      decisions.some((d) => d.decision === 'ABSTAIN' && d.reason.startsWith('predictor abstained: model call failed')),
    ).toBe(true);
    // The manifest records the same count, split by role: the failures were the predictor's.
    const manifest = Manifest.parse(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
    expect(manifest.models).toEqual([
      { role: 'predictor', provider: 'openai', model: 'gpt-4o-mini', calls: { finished: 3, failed: 3 } },
      { role: 'reader', provider: 'openai', model: 'gpt-4o-mini', calls: { finished: finished - 3, failed: 0 } },
    ]);
  });

  it("with the embedded reader the manifest counts only the remote predictor's calls, and the reader carries no count", async () => {
    server.handle((hit) =>
      userText(hit).includes('"u1"')
        ? { status: 500, body: { error: { message: 'ungated scope down' } } }
        : wellBehaved(hit),
    );
    const { file } = writeFixture();
    const out = tmp();
    const r = await cli(args(file, out, tmp(), 'openai'), process.cwd(), env('openai'));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('model calls: 1 of 3 failed (first: ');
    const manifest = Manifest.parse(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
    expect(manifest.models).toEqual([
      { role: 'predictor', provider: 'openai', model: 'gpt-4o-mini', calls: { finished: 3, failed: 1 } },
      { role: 'reader', provider: 'embedded', model: null },
    ]);
  });

  it('a reader error stays in the denominators as a counted error', async () => {
    server.handle((hit) => (isPredictor(hit) ? wellBehaved(hit) : ok(hit.api, 'prod-eu, I believe')));
    const { file } = writeFixture();
    const out = tmp();
    const r = await cli(args(file, out, tmp(), 'anthropic', ['--reader', 'model']), process.cwd(), env('anthropic'));
    expect(r.code).toBe(0);
    const s = Summary.parse(JSON.parse(readFileSync(join(out, 'raw', 'summary.json'), 'utf8')));
    expect(s.behaviour.full).toMatchObject({ taskSuccess: { numerator: 0, denominator: 1 }, errors: 1 });
    expect(s.behaviour.usage).toMatchObject({ errors: 1 });
    const point = PointMeasures.parse(JSON.parse(readFileSync(join(out, 'raw', 'points.jsonl'), 'utf8').trim()));
    expect(point.behaviour.pruned.errors).toBe(1);
  });

  it('a budget stop writes the complete conditions as an incomplete run; --resume finishes it without repeating a paid call', async () => {
    // Every call reports 5000 input and 200 output tokens: $0.00087 at gpt-4o-mini's rates. The budget admits the
    // three predictor calls (one per scope, worst case about $0.0013 each) and the first reader calls, then stops
    // before the next would pass $0.0039.
    server.handle((hit) => {
      const reply = wellBehaved(hit) as { status: number; body: { usage: Record<string, unknown> } };
      return {
        ...reply,
        body: {
          ...reply.body,
          usage: {
            prompt_tokens: 5000,
            completion_tokens: 200,
            total_tokens: 5200,
            prompt_tokens_details: { cached_tokens: 0 },
          },
        },
      };
    });
    const { file } = writeFixture();
    const [out, cache] = [tmp(), tmp()];
    const r = join(out, 'r');
    const stopped = await cli(
      args(file, r, cache, 'openai', ['--reader', 'model', '--max-cost-usd', '0.0039']),
      process.cwd(),
      env('openai'),
    );
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('[PL_BUDGET_STOPPED_PARTIAL]');
    expect(stopped.stderr).toContain('--resume');
    const progress = JSON.parse(readFileSync(join(cache, 'progress.json'), 'utf8')) as {
      stoppedBy: string;
      phase: string;
      completed: number;
      total: number;
    };
    expect(progress).toMatchObject({ stoppedBy: 'budget', phase: 'reader' });
    expect(progress.completed).toBeGreaterThan(0);
    expect(progress.completed).toBeLessThan(progress.total);
    // The reader calls made answer the full context (raw's) and predictive-semantic's pruned one; the guard and the
    // ladder (shown no refusal case, both remove c1) need a pruned-context call the budget did not admit.
    const partial = Manifest.parse(JSON.parse(readFileSync(join(r, 'manifest.json'), 'utf8')));
    expect(partial.conditions.map((c) => c.name).sort()).toEqual(['predictive-semantic', 'raw']);
    expect(partial.incomplete).toEqual({
      stoppedBy: 'budget',
      phase: 'reader',
      missing: ['regenerability-guard', 'ladder-0-4'],
    });
    expect(partial.study.exploratory).toBe(true);
    expect(readdirSync(r).sort()).toEqual([
      'EXPLORATORY.md',
      'INCOMPLETE.md',
      'manifest.json',
      'predictive-semantic',
      'raw',
      'run.json',
    ]);
    expect(readFileSync(join(r, 'INCOMPLETE.md'), 'utf8')).toContain('Missing: regenerability-guard, ladder-0-4');
    expect(partial.outputs.map((o) => o.file)).toContain('INCOMPLETE.md');
    const written = outputs(r);
    const firstHits = server.hits.map((h) => JSON.stringify(h.body));
    expect(firstHits.length).toBeGreaterThan(0);

    server.hits.length = 0;
    const resumed = await cli(
      args(file, r, cache, 'openai', ['--reader', 'model', '--resume']),
      process.cwd(),
      env('openai'),
    );
    expect(resumed.code).toBe(0);
    const again = server.hits.map((h) => JSON.stringify(h.body));
    for (const body of again) expect(firstHits).not.toContain(body);
    expect(again.length).toBeGreaterThan(0);
    const full = Manifest.parse(JSON.parse(readFileSync(join(r, 'manifest.json'), 'utf8')));
    expect(full.incomplete).toBeUndefined();
    expect(full.conditions.map((c) => c.name)).toEqual([
      'ladder-0-4',
      'predictive-semantic',
      'raw',
      'regenerability-guard',
    ]);
    expect(existsSync(join(r, 'INCOMPLETE.md'))).toBe(false);
    // What the stopped run wrote was final: the resumed run writes those conditions byte for byte the same.
    const finished = outputs(r);
    for (const f of Object.keys(written).filter((f) => f.startsWith('raw/') || f.startsWith('predictive-semantic/')))
      expect(finished[f]).toBe(written[f]);

    // A third, fully recorded run repeats nothing at all.
    server.hits.length = 0;
    const third = await cli(
      args(file, join(out, 'r3'), cache, 'openai', ['--reader', 'model', '--resume']),
      process.cwd(),
      env('openai'),
    );
    expect(third.code).toBe(0);
    expect(server.hits).toHaveLength(0);
    expect(outputs(join(out, 'r3'))).toEqual(finished);
  });

  it('a budget stop in the predictor phase writes the conditions that make no model call; with nothing complete it writes nothing', async () => {
    server.handle(wellBehaved);
    const { file } = writeFixture();
    const [out, cache] = [tmp(), tmp()];
    // $0.0001 is less than the predictor's worst case, so no call is made at all.
    const stopped = await cli(
      args(file, join(out, 'r'), cache, 'openai', ['--max-cost-usd', '0.0001']),
      process.cwd(),
      env('openai'),
    );
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('[PL_BUDGET_STOPPED_PARTIAL]');
    expect(server.hits).toHaveLength(0);
    const partial = Manifest.parse(JSON.parse(readFileSync(join(out, 'r', 'manifest.json'), 'utf8')));
    expect(partial.conditions.map((c) => c.name)).toEqual(['raw']);
    expect(partial.incomplete).toEqual({
      stoppedBy: 'budget',
      phase: 'predictor',
      missing: ['predictive-semantic', 'regenerability-guard', 'ladder-0-4'],
    });

    // A model reader needs calls for raw too: nothing is complete, so nothing is written.
    const none = await cli(
      args(file, join(out, 'm'), cache, 'openai', ['--reader', 'model', '--max-cost-usd', '0.0001']),
      process.cwd(),
      env('openai'),
    );
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('[PL_BUDGET_STOPPED]');
    expect(none.stderr).toContain('Nothing was written to --out');
    expect(existsSync(join(out, 'm'))).toBe(false);

    const resumed = await cli(args(file, join(out, 'r'), cache, 'openai', ['--resume']), process.cwd(), env('openai'));
    expect(resumed.code).toBe(0);
    expect(Manifest.parse(JSON.parse(readFileSync(join(out, 'r', 'manifest.json'), 'utf8'))).conditions).toHaveLength(
      4,
    );
    expect(existsSync(join(out, 'r', 'INCOMPLETE.md'))).toBe(false);
  });

  it('the key never appears in any written file or in what the command printed', async () => {
    server.handle((hit) =>
      isPredictor(hit)
        ? {
            status: 401,
            body: {
              error: {
                message: `bad key ${String(hit.headers.authorization ?? '')}${String(hit.headers['x-api-key'] ?? '')}`,
              },
            },
          }
        : wellBehaved(hit),
    );
    for (const provider of ['openai', 'anthropic'] as const) {
      const { file } = writeFixture();
      const [out, cache] = [tmp(), tmp()];
      const r = await cli(args(file, out, cache, provider, ['--reader', 'model']), process.cwd(), env(provider));
      expect(r.code).toBe(0);
      expect(
        server.hits.some((h) => `${String(h.headers.authorization)}${String(h.headers['x-api-key'])}`.includes(KEY)),
      ).toBe(true);
      expect(r.stdout + r.stderr).not.toContain(KEY);
      for (const dir of [out, cache])
        for (const f of filesUnder(dir)) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(KEY);
      expect(filesUnder(cache).some((f) => readFileSync(join(cache, f), 'utf8').includes('[redacted]'))).toBe(true);
    }
  });

  it('--estimate-cost prints the cost from the pricing table and calls nothing', async () => {
    const { file } = writeFixture();
    const r = await cli(
      [
        'experiment',
        '--fixtures',
        file,
        '--estimate-cost',
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4-20250514',
        '--reader',
        'model',
        '--condition',
        CONDITIONS,
      ],
      process.cwd(),
      env('anthropic'),
    );
    expect(r.code).toBe(0);
    expect(server.hits).toHaveLength(0);
    expect(r.stdout).toContain('nothing was called');
    expect(r.stdout).toContain('APPROXIMATE');
    // Predictor: one request per scope (the guard's, the ladder's and the ungated ablation's).
    expect(r.stdout).toMatch(/^predictor +3 /m);
    // Reader: one probe from the full context (raw's pruned context is the same request, sent once), and, with no
    // predictions in the cache folder, one from each of the 3 consumers' contexts: an upper bound.
    expect(r.stdout).toMatch(/^reader +<=4 /m);
    expect(r.stdout).toMatch(/^total +<=7 +\d+ +0 +\d+ +\$/m);

    const unpriced = await cli(
      ['experiment', '--fixtures', file, '--estimate-cost', '--provider', 'openai', '--model', 'my-local-llama'],
      process.cwd(),
      {},
    );
    expect(unpriced.code).toBe(0);
    expect(unpriced.stdout).toContain('no row for this model');
  });

  it('usage errors: a provider without a model or a key, a model reader without a provider, no --out', async () => {
    const { file } = writeFixture();
    const noModel = await cli(
      ['experiment', '--fixtures', file, '--out', tmp(), '--provider', 'openai'],
      process.cwd(),
      env('openai'),
    );
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('[PL_USAGE_MODEL_MISSING]');
    const noKey = await cli(
      [
        'experiment',
        '--fixtures',
        file,
        '--out',
        tmp(),
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4-20250514',
      ],
      process.cwd(),
      {},
    );
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('ANTHROPIC_API_KEY');
    const reader = await cli(
      ['experiment', '--fixtures', file, '--out', tmp(), '--reader', 'model'],
      process.cwd(),
      {},
    );
    expect(reader.code).toBe(2);
    expect(reader.stderr).toContain('[PL_USAGE_READER_NEEDS_PROVIDER]');
    const noOut = await cli(
      ['experiment', '--fixtures', file, '--provider', 'openai', '--model', 'gpt-4o-mini'],
      process.cwd(),
      env('openai'),
    );
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('[PL_USAGE_MODEL_NEEDS_OUT]');
    const unpriced = await cli(
      [
        'experiment',
        '--fixtures',
        file,
        '--out',
        tmp(),
        '--provider',
        'openai',
        '--model',
        'local',
        '--max-cost-usd',
        '1',
      ],
      process.cwd(),
      env('openai'),
    );
    expect(unpriced.code).toBe(2);
    expect(unpriced.stderr).toContain('[PL_USAGE_BUDGET_UNPRICED]');
    expect(server.hits).toHaveLength(0);
  });
});
