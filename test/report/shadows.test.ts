// A package and the reimplementation it shadows: their per-fixture disagreements are counted from the decision logs,
// both sides of a difference told apart, and nothing is reported for a pair that did not both run.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFINITIONS } from '../../src/policy/registry.js';
import { SHADOWS_TABLE, shadowPairs, shadowRows, shadowsCsv, shadowsMarkdown } from '../../src/report/shadows.js';
import { EXPLORATORY_STAMP } from '../../src/report/tables.js';
import { loadPreregistration } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE } from '../support/study.js';

function log(dir: string, condition: string, rows: [string, string, string][], gz = false): void {
  mkdirSync(join(dir, condition), { recursive: true });
  const text = rows
    .map(([fixture, itemId, decision]) => JSON.stringify({ fixture, prunePoint: 'p1', itemId, decision }))
    .join('\n');
  if (gz) writeFileSync(join(dir, condition, 'decisions.generated.jsonl.gz'), gzipSync(`${text}\n`));
  else writeFileSync(join(dir, condition, 'decisions.jsonl'), `${text}\n`);
}

describe('package against reimplementation', () => {
  it('reads the pairs from the definitions that declare what they shadow', () => {
    expect(shadowPairs(DEFINITIONS)).toContainEqual({
      package: 'pkg-langchain-trim-messages',
      reimplementation: 'langchain-trim-messages',
    });
  });

  it('counts per fixture the items decided differently, and which side pruned, over the plain-text logs only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-shadows-'));
    log(dir, 'pkg', [
      ['f1', 'a', 'PRUNE'],
      ['f1', 'b', 'KEEP'],
      ['f1', 'c', 'PRUNE'],
      ['f2', 'a', 'KEEP'],
    ]);
    log(dir, 'pkg', [['g1', 'a', 'PRUNE']], true);
    log(dir, 'mine', [
      ['f1', 'a', 'PRUNE'],
      ['f1', 'b', 'PRUNE'],
      ['f1', 'c', 'KEEP'],
      ['f2', 'a', 'KEEP'],
    ]);
    log(dir, 'mine', [['g1', 'a', 'PRUNE']], true);
    const rows = shadowRows(dir, [{ package: 'pkg', reimplementation: 'mine' }]);
    expect(rows.map((r) => [r.fixture, r.items, r.disagree, r.packageOnly, r.reimplementationOnly])).toEqual([
      ['f1', 3, 2, 1, 1],
      ['f2', 1, 0, 0, 0],
    ]);
    // The compressed tier (g1) is regenerable and not committed: a table read from it would differ in a fresh clone.
    expect(rows.some((r) => r.fixture === 'g1')).toBe(false);
    expect(shadowsMarkdown(rows)).toContain('| pkg | mine | f1 | 3 | 2 | 1 | 1 |');
  });

  it('reports nothing for a pair of which one did not run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-shadows-'));
    log(dir, 'pkg', [['f1', 'a', 'PRUNE']]);
    expect(shadowRows(dir, [{ package: 'pkg', reimplementation: 'mine' }])).toEqual([]);
  });
});

describe('the shadows table is not preregistered', () => {
  const rows = [
    {
      package: 'pkg',
      reimplementation: 'mine',
      fixture: 'f1',
      items: 3,
      disagree: 2,
      packageOnly: 1,
      reimplementationOnly: 1,
    },
  ];

  it('is stamped exploratory in the first line of its Markdown and its CSV, as every unnamed table is', () => {
    expect(shadowsMarkdown(rows).split('\n')[0]).toBe(EXPLORATORY_STAMP);
    expect(shadowsCsv(rows).split('\n')[0]).toBe(EXPLORATORY_STAMP);
  });

  it('and the preregistration does not name it', () => {
    const names = loadPreregistration('.', PREREGISTRATION_FILE).preregistration.analysis.preregisteredTables ?? [];
    expect(names).not.toContain(SHADOWS_TABLE);
  });
});
