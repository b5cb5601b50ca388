import fc from 'fast-check';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { Fixture } from '../../src/fixture/schema.js';
import {
  CANDIDATE_CLASSES,
  REGENERABILITY_CLASSES,
  totalEcology,
  traceEcology,
  type TraceEcology,
} from '../../src/traces/ecology.js';
import { ECOLOGY_HEADER, ecologyCsv } from '../../src/traces/ecology-report.js';
import { cli } from '../support/cli.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';
import { REAL, imported, sample, tempDir } from './support.js';

function sane(t: TraceEcology): void {
  const volumes = [
    ...CANDIDATE_CLASSES.flatMap((c) => [t.candidates[c.key].eligible, t.candidates[c.key].undecided]),
    ...REGENERABILITY_CLASSES.map((r) => t.regenerability[r.key]),
    t.rest,
    t.anyClass,
  ];
  for (const v of volumes) {
    expect(v.tokens).toBeGreaterThanOrEqual(0);
    expect(v.tokens).toBeLessThanOrEqual(t.contextTokens);
    expect(v.items).toBeLessThanOrEqual(t.items);
  }
  // Every token is either touched by some class or in the rest, never both.
  expect(t.anyClass.tokens + t.rest.tokens).toBe(t.contextTokens);
  expect(t.anyClass.items + t.rest.items).toBe(t.items);
  // The assumption only adds: what it decides on top of the strict figures stays within the context.
  expect(t.anyClassAssumed.tokens).toBeGreaterThanOrEqual(t.anyClass.tokens);
  expect(t.anyClassAssumed.tokens).toBeLessThanOrEqual(t.contextTokens);
  for (const c of CANDIDATE_CLASSES) {
    const v = t.candidates[c.key];
    expect(v.eligible.tokens + v.assumed.eligible.tokens).toBeLessThanOrEqual(t.anyClassAssumed.tokens);
    expect(v.eligible.tokens + v.assumed.eligible.tokens + v.assumed.undecided.tokens).toBeLessThanOrEqual(
      t.contextTokens,
    );
    expect(t.candidates[c.key].eligible.tokens).toBeLessThanOrEqual(t.anyClass.tokens);
    expect(t.candidates[c.key].eligible.tokens + t.candidates[c.key].undecided.tokens).toBeLessThanOrEqual(
      t.contextTokens,
    );
  }
}

describe('the ecological gate', () => {
  it('on random traces: every numerator within its denominator, any-class plus the rest is the whole context', () => {
    const tokens = tokenCounter();
    fc.assert(
      fc.property(fixtureArb, (plan) => {
        const f = Fixture.parse(toFixture(plan));
        const t = traceEcology(f, tokens);
        sane(t);
        const total = totalEcology([t, t]);
        sane(total);
        expect(total.contextTokens).toBe(2 * t.contextTokens);
      }),
      { numRuns: 150 },
    );
  });

  it('counts what the mechanisms find on a small trace: the failed lint call, the negative grep, the non-idempotent edit', async () => {
    const f = (await imported(sample('opencode-export.json'))).fixture;
    const t = traceEcology(f, tokenCounter());
    sane(t);
    const counter = tokenCounter();
    const tok = (id: string) => counter(f.items.find((i) => i.id === id)!.content);
    // The failed lint run and the failed edit: nothing visible needs their bulk and each recorded a field or the
    // tool's own message, so rung 2 (no age threshold) finds both calls and both results reducible.
    expect(t.candidates['failed-call-bulk'].eligible).toEqual({
      items: 4,
      tokens: ['i3', 'i4', 'i7', 'i8'].reduce((s, id) => s + tok(id), 0),
    });
    expect(t.regenerability['negative-result']).toEqual({ items: 1, tokens: tok('i11') });
    expect(t.regenerability['non-idempotent-output'].items).toBe(2);
    expect(t.regenerability['single-mention-constraint']).toEqual({ items: 1, tokens: tok('i1') });
  });

  it('finds the duplicated outputs in the real sqlfluff run and reports every figure with its denominator in the CSV', async () => {
    const f = (await imported(join(REAL, 'mini-swe-agent', 'sqlfluff__sqlfluff-2419.traj.json'))).fixture;
    const t = traceEcology(f, tokenCounter());
    sane(t);
    expect(t.candidates['exact-duplicate'].eligible.items).toBeGreaterThan(0);
    const csv = ecologyCsv([t], totalEcology([t]));
    const rows = csv
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    expect(rows[0]).toEqual([
      'trace',
      'format',
      'group',
      'class',
      'evidence',
      'items',
      'tokens',
      'context_items',
      'context_tokens',
      'share',
    ]);
    for (const row of rows.slice(1)) {
      expect(Number(row[6])).toBeLessThanOrEqual(Number(row[8]));
      expect(Number(row[9])).toBeCloseTo(Number(row[6]) / Number(row[8]), 5);
    }
  });

  it('the command reads session files directly and says these are candidate volumes, not safe removals, not labels', async () => {
    const out = join(tempDir(), 'eco');
    const r = await cli(['ecology', sample('openhands-events.json'), join(REAL, 'swe-agent'), '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(ECOLOGY_HEADER);
    expect(r.stdout).toContain('`openhands.openhands-events`');
    expect(r.stdout).toContain('`swe-agent.pydicom__pydicom-1458`');
    expect(r.stdout).toContain('**total**');
    expect(readFileSync(join(out, 'ecology.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(readFileSync(join(out, 'ecology.svg'), 'utf8')).toContain(
      'Candidate volumes, not safe removals, and not labels',
    );
    expect(JSON.parse(readFileSync(join(out, 'ecology.vl.json'), 'utf8')).$schema).toContain('vega-lite');
  });

  it('a malformed trace stops it before anything is written, in words that fit the ecology (nothing is imported there)', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'cut.traj'),
      readFileSync(join(REAL, 'swe-agent', 'pydicom__pydicom-1458.traj'), 'utf8').slice(0, 3000),
    );
    const out = join(dir, 'eco');
    const r = await cli(['ecology', join(dir, 'cut.traj'), '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_TRACE_JSON]');
    expect(r.stderr).toContain('nothing was written');
    expect(r.stderr).not.toContain('imported');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses to run with nothing to read', async () => {
    const r = await cli(['ecology']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_USAGE_ECOLOGY_INPUTS]');
  });
});

describe('the committed results/ecology/', () => {
  // One recorded session of each format, imported and measured now, gives the rows committed for it. The whole folder
  // regenerated and compared byte for byte (npm run ecology:real -- --check) is test/reproduce/ecology.test.ts.
  const SAMPLED = [
    'claude-code/spotter-short.jsonl',
    'mini-swe-agent/sqlfluff__sqlfluff-2419.traj.json',
    'opencode/diff.json',
    'openhands/basic.json',
    'swe-agent/pydicom__pydicom-1458.traj',
  ];
  it('holds, for one session of each format, the rows a fresh import and measure give it', async () => {
    const committed = readFileSync('results/ecology/ecology.csv', 'utf8').trim().split('\n');
    for (const file of SAMPLED) {
      const t = traceEcology((await imported(join(REAL, file))).fixture, tokenCounter());
      const fresh = ecologyCsv([t], totalEcology([t]))
        .trim()
        .split('\n')
        .slice(1)
        .filter((l) => !l.startsWith('total,'));
      expect(fresh.length, file).toBeGreaterThan(0);
      expect(fresh, file).toEqual(committed.filter((l) => l.startsWith(`${t.fixture},`)));
    }
  });

  it('marks its fixtures as imported, keeps each licence beside them, and states the caveat in its header', () => {
    const md = readFileSync('results/ecology/ecology.md', 'utf8');
    expect(md).toContain('These are candidate volumes, not safe removals, and not labels.');
    for (const dir of ['swe-agent', 'mini-swe-agent'])
      expect(readFileSync(`results/ecology/fixtures/${dir}/LICENSE`, 'utf8')).toContain('MIT License');
    const f = Fixture.parse(
      JSON.parse(readFileSync('results/ecology/fixtures/swe-agent/swe-agent.pydicom__pydicom-1458.json', 'utf8')),
    );
    expect(f.imported).toMatchObject({
      format: 'swe-agent',
      sourceFile: 'pydicom__pydicom-1458.traj',
      redaction: { enabled: true },
    });
    expect(readFileSync('results/ecology/conditions.md', 'utf8')).toContain(
      'Precision, false-prune rate and coverage are undefined here: imported trace',
    );
  });
});

describe('the figures on the real traces in docs/real-traces.md', () => {
  it('quote the committed totals', () => {
    const rows = readFileSync('results/ecology/ecology.csv', 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const pct = (cls: string, evidence: string) => {
      const row = rows.find((r) => r[0] === 'total' && r[3] === cls && r[4] === evidence)!;
      return ((100 * Number(row[6])) / Number(row[8])).toFixed(1);
    };
    const tokens = rows.find((r) => r[0] === 'total')![8];
    const readme = readFileSync('docs/real-traces.md', 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(
      `On those ${tokens} tokens: ${pct('exact-duplicate', 'eligible')}% are exact duplicates, ${pct('failed-call-bulk', 'eligible')}% failed-call bulk, ${pct('any-class', 'eligible')}% touched by any class and ${pct('rest', '-')}% by none`,
    );
    expect(readme).toContain(`(${pct('repeated-read', 'undecided')}% are repeated reads left undecided)`);
    expect(readme).toContain(`${pct('non-idempotent-output', '-')}% are outputs of non-idempotent calls`);
    expect(readme).toContain(`and ${pct('irreducible', '-')}% are irreducible`);
  });
});
