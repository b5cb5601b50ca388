import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecisionRecord, Manifest, Summary, type OracleRatio } from '../../src/artifacts/schema.js';
import { conditionNames } from '../../src/policy/registry.js';
import { NO_ORACLE_REASON, poolOracle, ratio, unscored } from '../../src/score/ratio.js';
import { cli } from '../support/cli.js';
import { minimalFixture, minimalOracle } from '../support/minimal.js';
import { sample, tempDir } from './support.js';

async function importedDir(): Promise<string> {
  const dir = join(tempDir(), 'fixtures');
  const r = await cli(['import', sample('openhands-events.json'), sample('claude-code-session.jsonl'), '--out', dir]);
  expect(r.code).toBe(0);
  return dir;
}

const isUnscored = (r: OracleRatio, reason = NO_ORACLE_REASON) => {
  expect(r.value).toBeNull();
  expect(r.numerator).toBeNull();
  expect(r).toMatchObject({ reason });
};

describe('an imported trace is run, never scored', () => {
  it('runs every condition with no oracle file; oracle measures are undefined with the reason, decisions and tokens are real', async () => {
    const fixtures = await importedDir();
    expect(existsSync(join(fixtures, 'oracles'))).toBe(false);
    const out = join(tempDir(), 'run');
    const r = await cli(['experiment', '--fixtures', fixtures, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('precision, false-prune rate and coverage are undefined (no oracle): imported trace');
    expect(r.stdout).toContain('undef (no oracle)');
    const manifest = Manifest.parse(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
    expect(manifest.fixtures.every((f) => f.oracleFile === null && f.oracleSha256 === null)).toBe(true);
    expect(manifest.conditions.map((c) => c.name).sort()).toEqual([...conditionNames()].sort());
    let pruned = 0;
    for (const name of conditionNames()) {
      const s = Summary.parse(JSON.parse(readFileSync(join(out, name, 'summary.json'), 'utf8')));
      isUnscored(s.precision);
      isUnscored(s.falsePruneRate);
      isUnscored(s.coverage);
      expect(s.precision.denominator).toBe(s.decisions.prune);
      expect(s.coverage.denominator).toBeNull();
      for (const f of s.perFixture) isUnscored(f.precision);
      expect(s.tokens.final).toBe(s.tokens.raw - s.tokens.removed + s.tokens.placeholder);
      const records = readFileSync(join(out, name, 'decisions.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => DecisionRecord.parse(JSON.parse(l)));
      expect(records.every((d) => d.oracle.verdict === 'unscored' && d.oracle.outcome === null)).toBe(true);
      expect(records.filter((d) => d.decision === 'PRUNE')).toHaveLength(s.decisions.prune);
      pruned += s.decisions.prune;
    }
    expect(pruned).toBeGreaterThan(0);
    // Imported traces are never the preregistered fixtures, so the run is stamped exploratory as well.
    expect(readdirSync(out).sort()).toEqual(
      [...conditionNames(), 'EXPLORATORY.md', 'manifest.json', 'run.json'].sort(),
    );
  });

  it('refuses an oracle placed beside an imported trace', async () => {
    const fixtures = await importedDir();
    mkdirSync(join(fixtures, 'oracles'));
    writeFileSync(join(fixtures, 'oracles', 'openhands.openhands-events.oracle.json'), '{}');
    const r = await cli(['experiment', '--fixtures', fixtures, '--out', join(tempDir(), 'run')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is an imported trace, which has no oracle');
    expect(r.stderr).toContain('[PL_IMPORTED_WITH_ORACLE]');
  });

  it('pooled with a scored fixture, the pool is unscored and says how many points lacked an oracle; the scored fixture keeps its score', async () => {
    const fixtures = await importedDir();
    writeFileSync(join(fixtures, 'mini.json'), JSON.stringify(minimalFixture()));
    mkdirSync(join(fixtures, 'oracles'));
    writeFileSync(join(fixtures, 'oracles', 'mini.oracle.json'), JSON.stringify(minimalOracle()));
    const out = join(tempDir(), 'run');
    const r = await cli(['experiment', '--fixtures', fixtures, '--out', out, '--condition', 'exact-redundancy']);
    expect(r.code).toBe(0);
    const s = Summary.parse(JSON.parse(readFileSync(join(out, 'exact-redundancy', 'summary.json'), 'utf8')));
    expect(s.precision.value).toBeNull();
    // The Claude Code sample holds a sub-agent's sidechain, imported as its own session: 1 + 2 + 1 imported points.
    expect(s.precision).toMatchObject({
      reason: expect.stringMatching(/^4 of 5 prune points are imported traces with no oracle/),
    });
    const mini = s.perFixture.find((f) => f.fixture === 'mini')!;
    expect(mini.precision).toEqual({ numerator: 1, denominator: 1, value: 1 });
  });

  it('poolOracle never turns missing labels into 0 or 1', () => {
    expect(poolOracle([ratio(2, 4), ratio(1, 1)])).toEqual(ratio(3, 5));
    expect(poolOracle([unscored(3), unscored(2)])).toEqual(unscored(5));
    expect(poolOracle([unscored(null), unscored(2)])).toEqual(unscored(null));
    expect(poolOracle([ratio(0, 0), unscored(0)]).value).toBeNull();
  });
});
