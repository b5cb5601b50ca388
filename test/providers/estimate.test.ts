// --estimate-cost against what a recorded run really sends: identical requests once, the reader's requests from a
// collecting pass, exact once the predictor's answers are in the cache folder and an upper bound before; cached
// prefixes at the cache-read rate (OpenAI's automatic caching) and none for Anthropic's (no breakpoints); batch at
// the batch rate.
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { ok, startFakeLlm, systemText, userText, type FakeLlm } from '../support/fake-llm.js';

const KEY = 'sk-fake-estimate-77';
const tmp = () => mkdtempSync(join(tmpdir(), 'prunelab-estimate-'));
let server: FakeLlm;

beforeAll(async () => {
  server = await startFakeLlm();
  // The predictor calls every shown item unneeded (so the consumers prune), the reader never knows.
  server.handle((hit) =>
    systemText(hit).startsWith('You help an agent manage')
      ? ok(
          hit.api,
          JSON.stringify({
            unneeded: (JSON.parse(userText(hit)) as { items: { id: string }[] }).items.map((i) => ({
              id: i.id,
              reason: 'r',
              confidence: 0.9,
            })),
          }),
        )
      : ok(hit.api, '{"answer": "UNKNOWN"}'),
  );
});
afterAll(async () => {
  await server.close();
});

const CONDITIONS = 'raw,prune-all,predictive-semantic,regenerability-guard,ladder-0-4';

/**
 * Six canonical fixtures with their oracles, in a folder of their own: the predictor's consumers, the gate letting
 * through and refusing, a withheld prediction, a reread and a large read. Each run costs a tenth of the thirty's
 * (three runs: estimate, recorded run, estimate), and an estimate's exactness is per request, not per corpus.
 */
const FIXTURES = [
  'cache-timing-prune-now',
  'config-reread-drift',
  'large-reconstructible-read',
  'rule-gate-letthrough',
  'rule-gate-refuse',
  'rule-predictor-withheld',
];
function someCanonical(): string {
  const dir = tmp();
  mkdirSync(join(dir, 'oracles'));
  for (const f of FIXTURES) {
    copyFileSync(join('fixtures/canonical', `${f}.json`), join(dir, `${f}.json`));
    copyFileSync(join('fixtures/canonical/oracles', `${f}.oracle.json`), join(dir, 'oracles', `${f}.oracle.json`));
  }
  return dir;
}
const calls = (stdout: string, role: string): string =>
  new RegExp(`^${role} +(<=)?(\\d+) `, 'm').exec(stdout)?.slice(1).join('') ?? 'none';

describe('--estimate-cost', () => {
  it('counts exactly the calls a recorded run sends on canonical fixtures once the predictions are stored, and bounds them before', async () => {
    const [out, cache] = [tmp(), tmp()];
    const common = [
      '--fixtures',
      someCanonical(),
      '--provider',
      'openai',
      '--model',
      'gpt-4o-mini',
      '--reader',
      'model',
      '--condition',
      CONDITIONS,
      '--cache-dir',
      cache,
    ];
    const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.openaiURL };
    const before = await cli(['experiment', ...common, '--estimate-cost'], process.cwd(), env);
    expect(before.code).toBe(0);
    expect(server.hits).toHaveLength(0);
    const run = await cli(['experiment', ...common, '--out', out, '--concurrency', '4'], process.cwd(), env);
    expect(run.code).toBe(0);
    // The estimate counts calls: each distinct request once (a retried attempt is the same call).
    const distinct = (hits: typeof server.hits) => new Set(hits.map((h) => JSON.stringify(h.body))).size;
    const sent = distinct(server.hits);
    const predictorSent = distinct(server.hits.filter((h) => systemText(h).startsWith('You help an agent manage')));
    server.hits.length = 0;
    const after = await cli(['experiment', ...common, '--estimate-cost'], process.cwd(), env);
    expect(server.hits).toHaveLength(0);
    expect(calls(after.stdout, 'predictor')).toBe(String(predictorSent));
    expect(calls(after.stdout, 'reader')).toBe(String(sent - predictorSent));
    expect(calls(after.stdout, 'total')).toBe(String(sent));
    // Before the predictor answered, the consumers' contexts were unknown: a bound, never below what was sent.
    expect(calls(before.stdout, 'predictor')).toBe(String(predictorSent));
    const bound = /^total +<=(\d+) /m.exec(before.stdout);
    expect(bound).not.toBeNull();
    expect(Number(bound![1])).toBeGreaterThanOrEqual(sent);
    // OpenAI caches prefixes automatically: the reader's requests share the system prompt and the context's start.
    const cached = /^reader +\d+ +(\d+) +(\d+) /m.exec(after.stdout)!;
    expect(Number(cached[2])).toBeGreaterThan(0);
    expect(Number(cached[2])).toBeLessThan(Number(cached[1]));
  });

  it('prices a batched run at the batch rate, with no prompt caching, and Anthropic with no cached prefix', async () => {
    const common = [
      'experiment',
      '--fixtures',
      'fixtures/canonical/config-reread-drift.json',
      '--provider',
      'openai',
      '--model',
      'gpt-4o',
      '--reader',
      'model',
      '--condition',
      'raw,prune-all',
      '--cache-dir',
      tmp(),
      '--estimate-cost',
    ];
    const cost = (stdout: string) => Number(/^total .*\$([\d.]+)$/m.exec(stdout)![1]);
    const inputOf = (stdout: string) => /^total +\d+ +(\d+) +(\d+) +(\d+)/m.exec(stdout)!.slice(1).map(Number);
    const live = await cli(common, process.cwd(), {});
    const batch = await cli([...common, '--batch'], process.cwd(), {});
    expect(batch.stdout).toContain('batch at 0.5x');
    const [input, cachedLive, output] = inputOf(live.stdout);
    expect(inputOf(batch.stdout)).toEqual([input, 0, output]);
    // gpt-4o: input $2.5, cache read $1.25, output $10 per million; batch halves every rate and caches nothing.
    expect(cost(batch.stdout)).toBeCloseTo((input! * 2.5 + output! * 10) / 2 / 1e6, 2);
    expect(cost(live.stdout)).toBeCloseTo(((input! - cachedLive!) * 2.5 + cachedLive! * 1.25 + output! * 10) / 1e6, 2);
    const anthropic = await cli(
      [
        'experiment',
        '--fixtures',
        'fixtures/canonical/config-reread-drift.json',
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4-20250514',
        '--reader',
        'model',
        '--condition',
        'raw,prune-all',
        '--estimate-cost',
      ],
      process.cwd(),
      {},
    );
    expect(anthropic.stdout).toContain('caches only at breakpoints');
    expect(inputOf(anthropic.stdout)[1]).toBe(0);
  });
});
