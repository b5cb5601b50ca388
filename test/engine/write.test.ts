import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Summary } from '../../src/artifacts/schema.js';
import { csvLine, pointRow, renderSummary } from '../../src/engine/write.js';
import { PointMeasures } from '../../src/artifacts/schema.js';

const committed = Summary.parse(JSON.parse(readFileSync('results/ladder-0-3/summary.json', 'utf8')));

describe('renderSummary', () => {
  it('writes JSON that reads back as the same summary, one line per fixture', () => {
    const text = renderSummary(committed);
    expect(Summary.parse(JSON.parse(text))).toEqual(committed);
    for (const f of committed.perFixture) expect(text).toContain(`\n    ${JSON.stringify(f)}`);
    const empty = { ...committed, perFixture: [] };
    expect(JSON.parse(renderSummary(empty))).toEqual(empty);
  });
});

describe('points.csv rows', () => {
  it('carry the counts every pooled ratio of a prune point is made of, and quote what needs quoting', () => {
    const [line] = readFileSync('results/ladder-0-4/points.jsonl', 'utf8').split('\n');
    const p = PointMeasures.parse(JSON.parse(line!));
    const row = pointRow(p, false);
    expect(row.truePrunes).toBe(p.coverage.numerator);
    expect(row.truePrunes! + row.falsePrunes!).toBe(p.precision.denominator);
    expect(row.prune).toBe(p.precision.denominator);
    expect(row.decisions).toBe(p.abstentionRate.denominator);
    expect(row.abstain).toBe(p.abstentionRate.numerator);
    expect(csvLine({ ...row, fixture: 'a,"b"' })).toMatch(/^false,"a,""b""",/);
  });
});
