import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Summary } from '../../src/artifacts/schema.js';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { csvLine, encodeText, pointRow, renderSummary } from '../../src/engine/write.js';
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

describe('encodeText', () => {
  it('gives the UTF-8 text, and for a compressed file one gzip member holding exactly it; members read as one text', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 5 }), (texts) => {
        const pieces = texts.map((t) => encodeText(t, true));
        pieces.forEach((p, i) => {
          expect(Buffer.from(p.text).equals(Buffer.from(texts[i]!, 'utf8'))).toBe(true);
          expect(encodeText(texts[i]!, false)).toEqual({ text: p.text });
          // An empty text is no member at all: a file's bytes must not depend on how its text was cut.
          if (p.text.length === 0) expect(p.member).toBeUndefined();
          else expect(gunzipSync(p.member!).equals(Buffer.from(p.text))).toBe(true);
        });
        const members = pieces.flatMap((p) => (p.member ? [p.member] : []));
        const joined = members.length ? gunzipSync(Buffer.concat(members)).toString('utf8') : '';
        // Each piece is encoded alone (a lone surrogate at a piece's end is not paired with the next piece's).
        expect(joined).toBe(texts.map((t) => Buffer.from(t, 'utf8').toString('utf8')).join(''));
      }),
      { numRuns: 50 },
    );
  });
});
